// SPDX-License-Identifier: GPL-2.0
/* TCP streams: send straight from the pattern table, check every byte
 * received against it, and read TCP_INFO (summed over subflows for MPTCP).
 */
#include <errno.h>
#include <netinet/in.h>
#include <linux/tcp.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/mptcp.h>

#include "clock.h"
#include "pattern.h"
#include "session.h"

#ifndef SOL_MPTCP
#define SOL_MPTCP	284
#endif

#define SP_TCP_BUDGET	16	/* syscalls per stream per loop turn */
#define SP_MAX_SUBFLOWS	8

/* Fields past what an old kernel returns stay zero. */
static void sp_tcp_fill(const struct tcp_info *ti, struct sp_tcp_stats *t)
{
	t->valid = 1;
	t->rtt_us = ti->tcpi_rtt;
	t->rttvar_us = ti->tcpi_rttvar;
	t->min_rtt_us = ti->tcpi_min_rtt;
	t->cwnd = ti->tcpi_snd_cwnd;
	t->snd_wnd = ti->tcpi_snd_wnd;
	t->mss = ti->tcpi_snd_mss;
	t->pmtu = ti->tcpi_pmtu;
	t->reordering = ti->tcpi_reordering;
	t->reord_seen = ti->tcpi_reord_seen;
	t->total_retrans = ti->tcpi_total_retrans;
	t->bytes_retrans = ti->tcpi_bytes_retrans;
	t->dsack_dups = ti->tcpi_dsack_dups;
	t->rcv_ooopack = ti->tcpi_rcv_ooopack;
	t->lost = ti->tcpi_lost;
}

/* MPTCP: one tcp_info per subflow; counters add up, RTT is the mean. */
static int sp_mptcp_subflows(int fd, struct sp_tcp_stats *t)
{
	struct {
		struct mptcp_subflow_data d;
		struct tcp_info ti[SP_MAX_SUBFLOWS];
	} b;
	struct sp_tcp_stats one;
	socklen_t len = sizeof(b);
	unsigned int i, n;
	uint64_t rtt = 0;

	memset(&b, 0, sizeof(b));
	b.d.size_subflow_data = sizeof(b.d);
	b.d.size_user = sizeof(b.ti[0]);
	if (getsockopt(fd, SOL_MPTCP, MPTCP_TCPINFO, &b, &len) ||
	    !b.d.num_subflows)
		return -1;
	n = b.d.num_subflows < SP_MAX_SUBFLOWS ? b.d.num_subflows :
						  SP_MAX_SUBFLOWS;
	memset(t, 0, sizeof(*t));
	for (i = 0; i < n; i++) {
		sp_tcp_fill(&b.ti[i], &one);
		rtt += one.rtt_us;
		t->rttvar_us += one.rttvar_us;
		if (!t->min_rtt_us || one.min_rtt_us < t->min_rtt_us)
			t->min_rtt_us = one.min_rtt_us;
		t->cwnd += one.cwnd;
		t->snd_wnd += one.snd_wnd;
		if (one.mss > t->mss)
			t->mss = one.mss;
		if (one.pmtu > t->pmtu)
			t->pmtu = one.pmtu;
		if (one.reordering > t->reordering)
			t->reordering = one.reordering;
		t->reord_seen += one.reord_seen;
		t->total_retrans += one.total_retrans;
		t->bytes_retrans += one.bytes_retrans;
		t->dsack_dups += one.dsack_dups;
		t->rcv_ooopack += one.rcv_ooopack;
		t->lost += one.lost;
	}
	t->valid = 1;
	t->rtt_us = rtt / n;
	t->rttvar_us /= n;
	t->mptcp_subflows = b.d.num_subflows;
	return 0;
}

void sp_tcp_info(int fd, bool mptcp, struct sp_tcp_stats *t)
{
	struct mptcp_info mi;
	struct tcp_info ti;
	socklen_t len;

	if (mptcp && !sp_mptcp_subflows(fd, t)) {
		t->mptcp = 1;
		return;
	}
	memset(&ti, 0, sizeof(ti));
	len = sizeof(ti);
	if (!getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len) &&
	    len >= offsetof(struct tcp_info, tcpi_total_retrans) + 4)
		sp_tcp_fill(&ti, t);
	if (!mptcp)
		return;
	t->mptcp = 1;
	memset(&mi, 0, sizeof(mi));
	len = sizeof(mi);
	/* a fallen-back socket has no MPTCP state to report */
	if (getsockopt(fd, SOL_MPTCP, MPTCP_INFO, &mi, &len) || !len ||
	    (mi.mptcpi_flags & MPTCP_INFO_FLAG_FALLBACK)) {
		t->mptcp_fallback = 1;
		t->mptcp_subflows = 1;
	} else {
		t->mptcp_subflows = mi.mptcpi_subflows + 1;
	}
}

/* -b: a stream sends again once what it sent is due at the rate, as
 * iperf3 paces TCP (a write of -l at a time, on average the rate).
 */
int sp_tcp_send(struct sp_sess *s, struct sp_stream *st, int64_t now)
{
	const uint8_t *p;
	unsigned int i;
	ssize_t n;

	for (i = 0; i < SP_TCP_BUDGET; i++) {
		if (s->rate && st->next_ns > now)
			return 0;
		p = sp_pattern_tcp(st->id, st->bytes, s->len);
		n = send(st->fd, p, s->len, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n > 0) {
			st->bytes += (uint64_t)n;
			if (s->rate)
				st->next_ns += (int64_t)((double)n * 8e9 /
							 (double)s->rate);
			continue;
		}
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return 0;
		snprintf(s->err, sizeof(s->err), "stream %u: send: %s",
			 st->id, n < 0 ? strerror(errno) : "closed");
		return -1;
	}
	return 0;
}

int sp_tcp_recv(struct sp_sess *s, struct sp_stream *st, uint8_t *buf,
		size_t buflen, int64_t now)
{
	size_t bad, first = 0;
	unsigned int i;
	ssize_t n;

	for (i = 0; i < SP_TCP_BUDGET; i++) {
		n = recv(st->fd, buf, buflen, MSG_DONTWAIT);
		if (n > 0) {
			/* a sender's FIN-ack wait sees no data from us */
			if (!s->sender) {
				bad = sp_pattern_check_tcp(buf, (size_t)n,
							   st->id, st->bytes,
							   &first);
				if (bad && !st->corrupt)
					st->first_bad = st->bytes + first + 1;
				st->corrupt += bad;
				st->bytes += (uint64_t)n;
				st->last_ns = now;
			}
			continue;
		}
		if (n == 0) {
			st->eof = true;
			return 0;
		}
		if (errno == EAGAIN || errno == EINTR)
			return 0;
		if (errno == ECONNRESET && s->sender && st->shut) {
			st->eof = true;	/* peer closed hard after our FIN */
			return 0;
		}
		snprintf(s->err, sizeof(s->err), "stream %u: recv: %s",
			 st->id, strerror(errno));
		return -1;
	}
	return 0;
}
