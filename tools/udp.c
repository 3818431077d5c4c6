// SPDX-License-Identifier: GPL-2.0
/* UDP streams. Every datagram starts with a 48-byte header, big endian:
 *
 *   0  magic "SPU2"     4  stream id     8  sequence number (64 bits)
 *   16 send time, ns of CLOCK_REALTIME   24 datagram length
 *   28 the test's cookie (16 bytes)      44 check (FNV-1a of bytes 0..43)
 *
 * followed by the pattern of (stream id, sequence number). The receiver
 * counts only datagrams from the control connection's peer address that
 * carry this test's cookie: anyone else who finds the port can neither
 * add to the results nor steer the per-stream state. The receiver
 * takes the kernel's receive timestamp (SO_TIMESTAMPNS, also
 * CLOCK_REALTIME) so one-way delay leaves out our own scheduling; sender
 * and receiver must share a clock (same host, or synchronised hosts).
 */
#include <endian.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include "clock.h"
#include "pattern.h"
#include "session.h"

#define SP_UDP_MAGIC	0x53505532u	/* "SPU2" */
#define SP_UDP_COOKIE	28
#define SP_UDP_CHECK	44
#define SP_UDP_BATCH	32
#define SP_UDP_BUF	65536
#define SP_UDP_ROUNDS	8	/* recvmmsg() calls per loop turn */

struct sp_udp_rx {
	struct mmsghdr msg[SP_UDP_BATCH];
	struct iovec iov[SP_UDP_BATCH];
	char ctl[SP_UDP_BATCH][CMSG_SPACE(sizeof(struct timespec))];
	struct sockaddr_storage from[SP_UDP_BATCH];
	uint8_t *buf;
};

static uint32_t sp_fnv1a(const uint8_t *p, size_t n)
{
	uint32_t h = 2166136261u;

	while (n--) {
		h ^= *p++;
		h *= 16777619u;
	}
	return h;
}

static void sp_put32(uint8_t *p, uint32_t v)
{
	v = htobe32(v);
	memcpy(p, &v, 4);
}

static void sp_put64(uint8_t *p, uint64_t v)
{
	v = htobe64(v);
	memcpy(p, &v, 8);
}

static uint32_t sp_get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return be32toh(v);
}

static uint64_t sp_get64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return be64toh(v);
}

/* 1: sent, 0: socket full, -1: error (s->err set) */
int sp_udp_send(struct sp_sess *s, struct sp_stream *st)
{
	uint8_t hdr[SP_UDP_HDR];
	struct iovec iov[2];
	struct msghdr mh = { .msg_iov = iov, .msg_iovlen = 2 };
	ssize_t n;

	sp_put32(hdr, SP_UDP_MAGIC);
	sp_put32(hdr + 4, st->id);
	sp_put64(hdr + 8, st->seq);
	sp_put64(hdr + 16, (uint64_t)sp_clock_ns(CLOCK_REALTIME));
	sp_put32(hdr + 24, s->len);
	memcpy(hdr + SP_UDP_COOKIE, s->cookie, SP_COOKIE_BYTES);
	sp_put32(hdr + SP_UDP_CHECK, sp_fnv1a(hdr, SP_UDP_CHECK));
	iov[0].iov_base = hdr;
	iov[0].iov_len = SP_UDP_HDR;
	iov[1].iov_base = (void *)sp_pattern_udp(st->id, st->seq,
						 s->len - SP_UDP_HDR);
	iov[1].iov_len = s->len - SP_UDP_HDR;
	n = sendmsg(st->fd, &mh, MSG_DONTWAIT | MSG_NOSIGNAL);
	if (n == (ssize_t)s->len) {
		st->seq++;
		st->packets++;
		st->bytes += (uint64_t)n;
		return 1;
	}
	if (n >= 0) {
		snprintf(s->err, sizeof(s->err),
			 "stream %u: short UDP send (%zd of %u)", st->id, n,
			 s->len);
		return -1;
	}
	/* no room, or an ICMP error from an earlier datagram: try again */
	if (errno == EAGAIN || errno == ENOBUFS || errno == EINTR ||
	    errno == ECONNREFUSED)
		return 0;
	snprintf(s->err, sizeof(s->err), "stream %u: UDP send: %s", st->id,
		 strerror(errno));
	return -1;
}

int sp_udp_rx_open(struct sp_udp_rx **rxp)
{
	struct sp_udp_rx *rx = calloc(1, sizeof(*rx));

	if (!rx)
		return -ENOMEM;
	rx->buf = malloc((size_t)SP_UDP_BATCH * SP_UDP_BUF);
	if (!rx->buf) {
		free(rx);
		return -ENOMEM;
	}
	*rxp = rx;
	return 0;
}

void sp_udp_rx_close(struct sp_udp_rx *rx)
{
	if (!rx)
		return;
	free(rx->buf);
	free(rx);
}

static int64_t sp_rx_time(struct msghdr *mh)
{
	struct cmsghdr *c;
	struct timespec ts;

	for (c = CMSG_FIRSTHDR(mh); c; c = CMSG_NXTHDR(mh, c)) {
		if (c->cmsg_level == SOL_SOCKET &&
		    c->cmsg_type == SCM_TIMESTAMPNS) {
			memcpy(&ts, CMSG_DATA(c), sizeof(ts));
			return (int64_t)ts.tv_sec * SP_NSEC_PER_SEC +
			       ts.tv_nsec;
		}
	}
	return sp_clock_ns(CLOCK_REALTIME);
}

/* Is the datagram from the peer the control connection came from? The
 * port is not checked: each stream sends from its own socket.
 */
static bool sp_udp_from_peer(const struct sp_sess *s,
			     const struct sockaddr_storage *from,
			     socklen_t len)
{
	const struct sockaddr_in6 *a6 = (const void *)from;
	const struct sockaddr_in6 *p6 = (const void *)&s->udp_peer;
	const struct sockaddr_in *a4 = (const void *)from;
	const struct sockaddr_in *p4 = (const void *)&s->udp_peer;

	if (!s->udp_peer.ss_family)
		return true;	/* nothing to compare with (unit tests) */
	if (!len || from->ss_family != s->udp_peer.ss_family)
		return false;
	if (from->ss_family == AF_INET)
		return a4->sin_addr.s_addr == p4->sin_addr.s_addr;
	if (from->ss_family == AF_INET6)
		return !memcmp(&a6->sin6_addr, &p6->sin6_addr,
			       sizeof(a6->sin6_addr));
	return false;
}

static void sp_udp_account(struct sp_sess *s, const uint8_t *p, size_t n,
			   int64_t rx_ns, int64_t now)
{
	struct sp_stream *st;
	uint32_t id;
	uint64_t seq;

	if (n < SP_UDP_HDR || sp_get32(p) != SP_UDP_MAGIC ||
	    sp_get32(p + SP_UDP_CHECK) != sp_fnv1a(p, SP_UDP_CHECK)) {
		s->udp_unknown++;	/* cannot even tell the stream */
		return;
	}
	if (memcmp(p + SP_UDP_COOKIE, s->cookie, SP_COOKIE_BYTES)) {
		s->udp_foreign++;	/* another test's, or forged */
		return;
	}
	id = sp_get32(p + 4);
	if (id >= s->nstreams) {
		s->udp_unknown++;
		return;
	}
	st = &s->st[id];
	seq = sp_get64(p + 8);
	if (sp_get32(p + 24) != n ||
	    sp_pattern_check_udp(p + SP_UDP_HDR, n - SP_UDP_HDR, id, seq,
				 NULL)) {
		st->bad_dgrams++;
		return;
	}
	if (sp_reorder_add(&st->ro, seq) >= SP_RO_DUPLICATE)
		return;	/* counted there, not goodput */
	st->packets++;
	st->bytes += n;
	st->last_ns = now;
	sp_owd_add(&st->owd, (int64_t)sp_get64(p + 16), rx_ns);
}

int sp_udp_recv(struct sp_sess *s, struct sp_udp_rx *rx)
{
	unsigned int r, i;
	int64_t now;
	int n;

	for (r = 0; r < SP_UDP_ROUNDS; r++) {
		for (i = 0; i < SP_UDP_BATCH; i++) {
			rx->iov[i].iov_base = rx->buf + (size_t)i * SP_UDP_BUF;
			rx->iov[i].iov_len = SP_UDP_BUF;
			memset(&rx->msg[i].msg_hdr, 0, sizeof(struct msghdr));
			rx->msg[i].msg_hdr.msg_iov = &rx->iov[i];
			rx->msg[i].msg_hdr.msg_iovlen = 1;
			rx->msg[i].msg_hdr.msg_control = rx->ctl[i];
			rx->msg[i].msg_hdr.msg_controllen = sizeof(rx->ctl[i]);
			rx->msg[i].msg_hdr.msg_name = &rx->from[i];
			rx->msg[i].msg_hdr.msg_namelen = sizeof(rx->from[i]);
		}
		n = recvmmsg(s->udp_fd, rx->msg, SP_UDP_BATCH, MSG_DONTWAIT,
			     NULL);
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				return 0;
			snprintf(s->err, sizeof(s->err), "UDP receive: %s",
				 strerror(errno));
			return -1;
		}
		now = sp_now_ns();
		for (i = 0; i < (unsigned int)n; i++) {
			if (!sp_udp_from_peer(s, &rx->from[i],
					      rx->msg[i].msg_hdr.msg_namelen)) {
				s->udp_foreign++;
				continue;
			}
			sp_udp_account(s, rx->iov[i].iov_base,
				       rx->msg[i].msg_len,
				       sp_rx_time(&rx->msg[i].msg_hdr), now);
		}
		if (n < SP_UDP_BATCH)
			return 0;
	}
	return 0;
}

static void sp_udp_fill(struct sp_udp_stats *u, const struct sp_reorder_sum *r,
			const struct sp_owd *d, bool clocks_synced)
{
	u->clocks_synced = clocks_synced;
	memcpy(u->extent, r->extent, sizeof(u->extent));
	memcpy(u->degree, r->degree, sizeof(u->degree));
	memcpy(u->nreord, r->nreord, sizeof(u->nreord));
	memcpy(u->rbd, r->rbd, sizeof(u->rbd));
	u->received = r->received;
	u->dup = r->dup;
	u->reordered = r->reordered;
	u->max_extent = r->max_extent;
	u->rbd_max = r->rbd_max;
	u->rbd_lost = r->rbd_lost;
	u->rbd_late = r->rbd_late;
	u->owd_count = d->count;
	u->owd_negative = d->negative;
	u->owd_min_us = d->count ? d->min_ns / 1e3 : 0;
	u->owd_mean_us = sp_owd_mean(d) / 1e3;
	u->owd_p50_us = sp_owd_quantile(d, 0.50) / 1e3;
	u->owd_p90_us = sp_owd_quantile(d, 0.90) / 1e3;
	u->owd_p99_us = sp_owd_quantile(d, 0.99) / 1e3;
	u->owd_max_us = d->count ? d->max_ns / 1e3 : 0;
	u->pdv_p50_us = sp_owd_pdv(d, 0.50) / 1e3;
	u->pdv_p90_us = sp_owd_pdv(d, 0.90) / 1e3;
	u->pdv_p99_us = sp_owd_pdv(d, 0.99) / 1e3;
	u->pdv_max_us = sp_owd_pdv(d, 1.0) / 1e3;
	u->jitter_us = d->jitter_ns / 1e3;
}

/* Receiver: per-stream and total UDP results. Loss needs the sender's
 * count; without it (sender vanished) the highest number seen stands in.
 */
void sp_udp_finish(struct sp_sess *s)
{
	struct sp_reorder_sum tot;
	struct sp_udp_stats *u;
	struct sp_stream *st;
	struct sp_owd *all;
	uint64_t sent, sent_all = 0, bad_all = 0;
	unsigned int i;

	all = malloc(sizeof(*all));
	if (!all)
		return;
	sp_owd_init(all);
	memset(&tot, 0, sizeof(tot));
	for (i = 0; i < s->nstreams; i++) {
		st = &s->st[i];
		u = &s->res.st[i].udp;
		sp_udp_fill(u, &st->ro.s, &st->owd, s->clocks_synced);
		sent = st->sent_known ? st->sent : st->ro.s.max_seq;
		/* -O: what went before ro.first is not in the results */
		sent = sent > st->ro.first ? sent - st->ro.first : 0;
		u->sent = sent;
		u->lost = sent > u->received ? sent - u->received : 0;
		u->corrupt = st->bad_dgrams;
		sent_all += sent;
		bad_all += st->bad_dgrams;
		sp_reorder_sum_add(&tot, &st->ro.s);
		sp_owd_merge(all, &st->owd);
	}
	u = &s->res.sum.udp;
	sp_udp_fill(u, &tot, all, s->clocks_synced);
	u->sent = sent_all;
	u->lost = sent_all > u->received ? sent_all - u->received : 0;
	u->corrupt = bad_all + s->udp_unknown;
	u->foreign = s->udp_foreign;
	free(all);
}
