/* SPDX-License-Identifier: GPL-2.0 */
/* What one side of a test measured, in a form that is printed locally and
 * sent over the control channel to the client.
 */
#ifndef SP_RESULTS_H
#define SP_RESULTS_H

#include <stdbool.h>
#include <stdint.h>

#include "ctrl.h"
#include "flags.h"
#include "reorder.h"
#include "xstats.h"

/* TCP_INFO (and MPTCP) snapshot of one connection. */
struct sp_tcp_stats {
	uint64_t valid;
	uint64_t rtt_us;
	uint64_t rttvar_us;
	uint64_t min_rtt_us;
	uint64_t cwnd;		/* segments */
	uint64_t snd_wnd;	/* bytes: the peer's receive window */
	uint64_t mss;
	uint64_t pmtu;
	uint64_t reordering;	/* tcpi_reordering: dupthresh in force */
	uint64_t reord_seen;	/* tcpi_reord_seen: reordering events */
	uint64_t total_retrans;	/* segments */
	uint64_t bytes_retrans;
	uint64_t dsack_dups;
	uint64_t rcv_ooopack;	/* receiver: out-of-order packets */
	uint64_t lost;
	uint64_t mptcp;		/* socket is IPPROTO_MPTCP */
	uint64_t mptcp_subflows;
	uint64_t mptcp_fallback;
};

/* UDP receiver view of one stream. */
struct sp_udp_stats {
	uint64_t sent;		/* datagrams, as the sender reported */
	uint64_t received;	/* distinct valid datagrams */
	uint64_t lost;
	uint64_t dup;
	uint64_t corrupt;	/* datagrams failing header or pattern */
	uint64_t foreign;	/* wrong cookie or source: not this test's */
	uint64_t reordered;
	uint64_t max_extent;
	uint64_t extent[SP_HIST_N];
	uint64_t degree[SP_HIST_N];
	uint64_t nreord[SP_NREORD_MAX + 1];
	uint64_t rbd[SP_HIST_N];
	uint64_t rbd_max;
	uint64_t rbd_lost;
	uint64_t rbd_late;
	uint64_t owd_count;
	uint64_t owd_negative;
	uint64_t clocks_synced;	/* sender on this host: transit is delay */
	/* transit (receive - send time): the one-way delay if clocks agree */
	double owd_min_us;
	double owd_mean_us;
	double owd_p50_us;
	double owd_p90_us;
	double owd_p99_us;
	double owd_max_us;
	/* RFC 5481 PDV: transit minus the least transit, any clocks */
	double pdv_p50_us;
	double pdv_p90_us;
	double pdv_p99_us;
	double pdv_max_us;
	double jitter_us;
};

/* TCP_INFO over the interval samples, for iperf3's end figures (its
 * max_snd_cwnd, max_rtt, mean_rtt are over its samples too)
 */
struct sp_tcp_samples {
	uint64_t n;
	uint64_t max_snd_cwnd;	/* bytes */
	uint64_t max_snd_wnd;
	uint64_t max_rtt_us;
	uint64_t min_rtt_us;	/* least smoothed RTT, not tcpi_min_rtt */
	uint64_t sum_rtt_us;
};

struct sp_stream_res {
	uint64_t id;
	uint64_t bytes;		/* payload bytes sent or received */
	uint64_t packets;	/* UDP datagrams sent or received */
	double seconds;
	uint64_t corrupt_bytes;	/* TCP: bytes that differ from the pattern */
	uint64_t first_corrupt;	/* TCP: stream offset of the first + 1 */
	uint64_t omitted_bytes;	/* -O: moved before the results' start */
	struct sp_tcp_stats tcp;
	struct sp_tcp_samples smp;
	struct sp_udp_stats udp;
};

/* One interval of one stream (or the sum, index nstreams). */
struct sp_ival {
	double start;
	double end;
	uint64_t bytes;
	uint64_t packets;
	uint64_t retrans;
	uint64_t reord_seen;
	uint64_t reordering;	/* tcpi_reordering at the interval's end */
	uint64_t rcv_ooopack;	/* receiver: out-of-order segments */
	uint64_t rtt_us;
	uint64_t cwnd;		/* segments */
	uint64_t mss;		/* a stream's: snd_cwnd in bytes is cwnd * mss */
	uint64_t snd_wnd;
	uint64_t rttvar_us;
	uint64_t pmtu;
	uint64_t omitted;	/* -O: before the results' start */
};

/* Interval rows kept: (streams + 1) entries a row, at most this many
 * entries; a server at most SP_IVAL_MAX_ROWS_SERVER rows (its RESULTS
 * message). When full, the omitted rows (-O) go first, then neighbouring
 * rows merge: see sp_side_add_ival.
 */
#define SP_IVAL_MAX_ENTRIES	(1u << 20)
#define SP_IVAL_MAX_ROWS_SERVER	4096

struct sp_side {
	bool server;
	bool sender;
	bool udp;
	bool bidir;		/* one of two directions: tagged in text */
	unsigned int nstreams;
	unsigned int max_entries;	/* interval entries kept */
	double seconds;
	/* this process's CPU time over the test, percent of wall time */
	double cpu_user;
	double cpu_system;
	char congestion[16];	/* TCP: the streams' congestion control */
	struct sp_stream_res st[SP_MAX_STREAMS];
	struct sp_stream_res sum;
	/* intervals: niv rows of ivw = nstreams + 1 entries (sum last) */
	unsigned int niv;
	unsigned int ivcap;
	unsigned int ivw;
	struct sp_ival *iv;
	unsigned int iv_merged;	/* times rows were merged pairwise */
	/* --stripe-dev: counters during the run */
	bool stripe_asked;
	bool stripe_ok;
	char stripe_dev[16];
	char stripe_msg[160];
	struct sp_xstats stripe;
};

void sp_side_init(struct sp_side *s, bool server, bool sender, bool udp,
		  unsigned int nstreams);
void sp_side_free(struct sp_side *s);
/* A new, zeroed row at the end. When the side holds its most rows, the
 * omitted ones are dropped, or else neighbouring rows are merged pairwise
 * (older rows cover longer times, each with its own start and end). NULL
 * without memory.
 */
struct sp_ival *sp_side_add_ival(struct sp_side *s);
static inline struct sp_ival *sp_side_ival(struct sp_side *s, unsigned int k,
					   unsigned int stream)
{
	return &s->iv[k * s->ivw + stream];
}

/* Sum of byte/packet/TCP counters over the streams into s->sum. UDP
 * percentiles are left to the caller, who has the histograms.
 */
void sp_side_sum_streams(struct sp_side *s);

/* Append the side as key/value lines; intervals only as sums. */
void sp_side_put(const struct sp_side *s, struct sp_buf *b);
/* Fill a side from a message written by sp_side_put. */
int sp_side_get(const struct sp_msg *m, struct sp_side *s);

#endif /* SP_RESULTS_H */
