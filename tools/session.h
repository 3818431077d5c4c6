/* SPDX-License-Identifier: GPL-2.0 */
/* One test's data phase, shared by client and server: the streams, the
 * event loop, interval accounting and the final per-side results.
 */
#ifndef SP_SESSION_H
#define SP_SESSION_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include <sys/socket.h>

#include "ctrl.h"
#include "owd.h"
#include "proto.h"
#include "reorder.h"
#include "results.h"

struct sp_stream {
	int fd;
	uint32_t id;
	uint64_t bytes;		/* payload bytes moved */
	uint64_t packets;	/* UDP datagrams moved */
	uint64_t iv_bytes;	/* counters at the last interval mark */
	uint64_t iv_packets;
	uint64_t iv_retrans;
	uint64_t iv_reord;
	uint64_t iv_ooo;
	uint64_t om_bytes;	/* -O: counters when the omitted time ended */
	uint64_t om_packets;
	struct sp_tcp_stats om_ti;
	bool shut;		/* sender: FIN sent */
	bool eof;		/* peer's FIN seen */
	int64_t last_ns;	/* receiver: last data */
	/* TCP */
	uint64_t corrupt;	/* bytes differing from the pattern */
	uint64_t first_bad;	/* offset + 1 of the first */
	struct sp_tcp_stats ti;
	/* sender: the next send is due (-b) */
	int64_t next_ns;
	/* UDP sender */
	uint64_t seq;
	/* UDP receiver */
	struct sp_reorder ro;
	struct sp_owd owd;
	uint64_t bad_dgrams;	/* failed header or pattern check */
	uint64_t sent;		/* from the sender's DONE */
	bool sent_known;
};

struct sp_sess;
typedef void (*sp_ival_fn)(struct sp_sess *s, unsigned int k);

struct sp_sess {
	bool server;
	bool sender;
	bool udp;
	bool mptcp;
	bool bidir;		/* one of two directions run at once */
	unsigned int nstreams;
	unsigned int id_base;	/* --bidir reverse: greeting ids after the
				 * forward ones
				 */
	double duration;
	double omit;		/* -O: seconds before the results start */
	double interval;
	uint32_t len;
	uint64_t rate;		/* bit/s per stream, 0 = unlimited */
	struct sp_ctrl *ctrl;
	int listen_fd;		/* server: answer "busy" while running */
	int64_t listen_pause;	/* out of descriptors: not polled until */
	int udp_fd;		/* UDP receiver socket */
	uint64_t udp_unknown;	/* datagrams for no stream of ours */
	uint64_t udp_foreign;	/* wrong cookie or source address */
	uint8_t cookie[SP_COOKIE_BYTES];	/* this test's, in every datagram */
	struct sockaddr_storage udp_peer;	/* the only valid source */
	bool clocks_synced;	/* same host: transit is one-way delay */
	struct sp_stream st[SP_MAX_STREAMS];
	int64_t start_ns;
	int64_t cpu_user_ns;	/* this process's CPU time at start_ns */
	int64_t cpu_sys_ns;
	struct sp_side res;
	sp_ival_fn on_interval;
	void *report;		/* what on_interval reports to */
	char err[256];
	/* the data phase's loop state (session.c) */
	struct sp_udp_rx *rx;
	uint8_t *buf;
	int64_t end_ns;		/* the sender stops */
	int64_t omit_end;	/* -O: the results start */
	int64_t next_iv;
	int64_t iv_from;
	int64_t stop_ns;
	int64_t drain_until;
	int64_t udp_next;
	bool omitting;
	bool stopping;
	bool finished;
	bool got_done;
	bool blocked;
};

void sp_sess_init(struct sp_sess *s);
struct sp_addr;
/* The test p on this end (server or client) of the control connection
 * ctrl, whose addresses are local and peer.
 */
void sp_sess_setup(struct sp_sess *s, const struct sp_params *p, bool server,
		   struct sp_ctrl *ctrl, const struct sp_addr *local,
		   const struct sp_addr *peer);
void sp_sess_free(struct sp_sess *s);
/* Runs from START to the exchange of DONE; fills s->res. 0, or -1 with
 * s->err set (results gathered so far are still filled in).
 */
int sp_sess_run(struct sp_sess *s);
/* --bidir: the forward direction a and the reverse one b in one loop, on
 * a's control connection; errors are reported in a->err.
 */
int sp_sess_run2(struct sp_sess *a, struct sp_sess *b);

/* tcp.c */
void sp_tcp_info(int fd, bool mptcp, struct sp_tcp_stats *t);
int sp_tcp_send(struct sp_sess *s, struct sp_stream *st, int64_t now);
int sp_tcp_recv(struct sp_sess *s, struct sp_stream *st, uint8_t *buf,
		size_t buflen, int64_t now);

/* udp.c */
#define SP_UDP_HDR	48	/* also the smallest datagram */
struct sp_udp_rx;
int sp_udp_send(struct sp_sess *s, struct sp_stream *st);
int sp_udp_rx_open(struct sp_udp_rx **rx);
void sp_udp_rx_close(struct sp_udp_rx *rx);
int sp_udp_recv(struct sp_sess *s, struct sp_udp_rx *rx);
void sp_udp_finish(struct sp_sess *s);

#endif /* SP_SESSION_H */
