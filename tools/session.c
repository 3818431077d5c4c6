// SPDX-License-Identifier: GPL-2.0
/* The data phase. One thread, one poll loop for all streams and the
 * control channel, so the run is bounded by deadlines checked in one
 * place:
 *
 *   sender:   send until the duration ends; TCP then sends FIN and waits
 *             (bounded) for the receiver's FIN, which comes only after all
 *             data was read, so the final TCP_INFO covers every byte; then
 *             DONE with what was sent.
 *   receiver: read until every stream's FIN (TCP) or the sender's DONE
 *             plus a drain time for datagrams still in flight (UDP).
 *
 * A hard deadline (duration + SP_GRACE_S) ends the phase whatever the
 * peer does.
 */
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "clock.h"
#include "net.h"
#include "session.h"

#define SP_GRACE_S	15	/* after the duration, at most */
#define SP_FIN_WAIT_S	10	/* TCP sender: waiting for the last ACKs */
#define SP_UDP_BUDGET	64	/* datagrams per stream per loop turn */
#define SP_RECV_BUF	(256 * 1024)

volatile sig_atomic_t sp_interrupted;

void sp_sess_init(struct sp_sess *s)
{
	unsigned int i;

	memset(s, 0, sizeof(*s));
	s->listen_fd = -1;
	s->udp_fd = -1;
	for (i = 0; i < SP_MAX_STREAMS; i++) {
		s->st[i].fd = -1;
		s->st[i].id = i;
	}
}

void sp_sess_setup(struct sp_sess *s, const struct sp_params *p, bool server,
		   struct sp_ctrl *ctrl, const struct sp_addr *local,
		   const struct sp_addr *peer)
{
	s->server = server;
	s->sender = server == p->reverse;	/* -R: the server sends */
	s->udp = p->udp;
	s->mptcp = p->mptcp;
	s->nstreams = p->streams;
	s->duration = p->duration;
	s->interval = p->interval;
	s->len = p->len;
	s->rate = p->rate;
	s->ctrl = ctrl;
	memcpy(s->cookie, p->cookie, sizeof(s->cookie));
	memcpy(&s->udp_peer, &peer->ss, sizeof(s->udp_peer));
	s->clocks_synced = sp_addr_same_host(local, peer);
}

void sp_sess_free(struct sp_sess *s)
{
	unsigned int i;

	for (i = 0; i < SP_MAX_STREAMS; i++) {
		if (s->st[i].fd >= 0)
			close(s->st[i].fd);
		s->st[i].fd = -1;
		sp_reorder_free(&s->st[i].ro);
	}
	if (s->udp_fd >= 0)
		close(s->udp_fd);
	s->udp_fd = -1;
	sp_side_free(&s->res);
}

static int64_t sp_min64(int64_t a, int64_t b)
{
	return a < b ? a : b;
}

static void sp_sess_interval(struct sp_sess *s, int64_t from, int64_t to)
{
	struct sp_ival *row, *iv, *sum;
	struct sp_stream *st;
	unsigned int i, nrtt = 0;
	uint64_t rtt = 0;

	row = sp_side_add_ival(&s->res);
	if (!row)
		return;
	sum = &row[s->nstreams];
	sum->start = sp_ns_to_s(from - s->start_ns);
	sum->end = sp_ns_to_s(to - s->start_ns);
	for (i = 0; i < s->nstreams; i++) {
		st = &s->st[i];
		iv = &row[i];
		iv->start = sum->start;
		iv->end = sum->end;
		iv->bytes = st->bytes - st->iv_bytes;
		iv->packets = st->packets - st->iv_packets;
		st->iv_bytes = st->bytes;
		st->iv_packets = st->packets;
		if (!s->udp && st->fd >= 0) {
			if (!st->eof)
				sp_tcp_info(st->fd, s->mptcp, &st->ti);
			iv->retrans = st->ti.total_retrans - st->iv_retrans;
			iv->reord_seen = st->ti.reord_seen - st->iv_reord;
			iv->rcv_ooopack = st->ti.rcv_ooopack - st->iv_ooo;
			iv->reordering = st->ti.reordering;
			iv->rtt_us = st->ti.rtt_us;
			iv->cwnd = st->ti.cwnd;
			st->iv_retrans = st->ti.total_retrans;
			st->iv_reord = st->ti.reord_seen;
			st->iv_ooo = st->ti.rcv_ooopack;
			if (st->ti.valid) {
				rtt += iv->rtt_us;
				nrtt++;
			}
		}
		sum->bytes += iv->bytes;
		sum->packets += iv->packets;
		sum->retrans += iv->retrans;
		sum->reord_seen += iv->reord_seen;
		sum->rcv_ooopack += iv->rcv_ooopack;
		if (iv->reordering > sum->reordering)
			sum->reordering = iv->reordering;
		sum->cwnd += iv->cwnd;
	}
	sum->rtt_us = nrtt ? rtt / nrtt : 0;
	if (s->on_interval)
		s->on_interval(s, s->res.niv - 1);
}

static int sp_send_done(struct sp_sess *s)
{
	struct sp_buf b;
	unsigned int i;
	char key[32];
	int ret;

	sp_buf_init(&b);
	sp_msg_begin(&b, "DONE");
	for (i = 0; i < s->nstreams; i++) {
		snprintf(key, sizeof(key), "s%u.sent", i);
		sp_msg_kv(&b, key, "%llu",
			  (unsigned long long)s->st[i].packets);
		snprintf(key, sizeof(key), "s%u.bytes", i);
		sp_msg_kv(&b, key, "%llu", (unsigned long long)s->st[i].bytes);
	}
	sp_msg_end(&b);
	ret = sp_ctrl_send(s->ctrl, &b, sp_now_ns() + 5 * SP_NSEC_PER_SEC);
	sp_buf_free(&b);
	if (ret)
		snprintf(s->err, sizeof(s->err),
			 "control: sending DONE: %s", strerror(-ret));
	return ret;
}

/* 1: DONE seen, 0: nothing, -1: error or abort (s->err set) */
static int sp_handle_ctrl(struct sp_sess *s)
{
	struct sp_msg m;
	unsigned int i;
	uint64_t v;
	char key[32];
	int ret;

	for (;;) {
		ret = sp_ctrl_try(s->ctrl, &m);
		if (ret == 0)
			return 0;
		if (ret < 0) {
			snprintf(s->err, sizeof(s->err),
				 "control connection: %s",
				 ret == -ECONNRESET ? "closed by peer" :
						      strerror(-ret));
			return -1;
		}
		if (!strcmp(m.verb, "DONE")) {
			for (i = 0; i < s->nstreams; i++) {
				snprintf(key, sizeof(key), "s%u.sent", i);
				if (sp_msg_u64(&m, key, &v))
					continue;
				s->st[i].sent = v;
				s->st[i].sent_known = true;
			}
			/* whatever follows (RESULTS) is for the caller */
			sp_msg_free(&m);
			return 1;
		} else if (!strcmp(m.verb, "ERROR") ||
			   !strcmp(m.verb, "ABORT")) {
			snprintf(s->err, sizeof(s->err), "peer aborted: %s",
				 sp_msg_get(&m, "msg") ?: "no reason given");
			sp_msg_free(&m);
			return -1;
		}
		sp_msg_free(&m);
	}
}

/* Someone else wants a test while ours runs: tell them. */
static void sp_turn_away(struct sp_sess *s)
{
	int fd = sp_accept(s->listen_fd, &s->listen_pause);

	if (fd >= 0)
		sp_refuse_busy(fd);
}

static bool sp_udp_all_in(const struct sp_sess *s)
{
	unsigned int i;

	for (i = 0; i < s->nstreams; i++)
		if (!s->st[i].sent_known ||
		    s->st[i].ro.s.received < s->st[i].sent)
			return false;
	return true;
}

/* Datagrams can trail the DONE message: wait a few one-way delays. */
static int64_t sp_udp_drain_ns(const struct sp_sess *s)
{
	int64_t owd = 0, d;
	unsigned int i;

	/* with clocks apart the transit may be anything: capped below */
	for (i = 0; i < s->nstreams; i++)
		if (s->st[i].owd.count && s->st[i].owd.max_ns > owd)
			owd = s->st[i].owd.max_ns;
	if (owd > SP_NSEC_PER_SEC)
		owd = SP_NSEC_PER_SEC;
	d = 2 * owd + 100 * SP_NSEC_PER_MSEC;
	if (d < 200 * SP_NSEC_PER_MSEC)
		d = 200 * SP_NSEC_PER_MSEC;
	if (d > 2 * SP_NSEC_PER_SEC)
		d = 2 * SP_NSEC_PER_SEC;
	return d;
}

static int sp_udp_pace(struct sp_sess *s, int64_t now, bool *blocked,
		       int64_t *next)
{
	int64_t gap = 0;
	unsigned int i, n;
	struct sp_stream *st;
	int r;

	if (s->rate)
		gap = (int64_t)((double)s->len * 8 * 1e9 / (double)s->rate);
	*next = INT64_MAX;
	for (i = 0; i < s->nstreams; i++) {
		st = &s->st[i];
		for (n = 0; n < SP_UDP_BUDGET; n++) {
			if (s->rate && st->next_ns > now)
				break;
			r = sp_udp_send(s, st);
			if (r < 0)
				return -1;
			if (r == 0) {
				*blocked = true;
				break;
			}
			st->next_ns += gap;
		}
		if (!s->rate || st->next_ns <= now)
			*next = now;	/* more to send at once */
		else if (st->next_ns < *next)
			*next = st->next_ns;
	}
	return 0;
}

static void sp_sess_finish(struct sp_sess *s, int64_t stop_ns)
{
	struct sp_stream_res *r;
	struct sp_stream *st;
	int64_t last = 0;
	unsigned int i;

	for (i = 0; i < s->nstreams; i++)
		if (s->st[i].last_ns > last)
			last = s->st[i].last_ns;
	if (s->sender)
		last = stop_ns;
	if (!last)
		last = sp_now_ns();
	s->res.seconds = sp_ns_to_s(last - s->start_ns);
	for (i = 0; i < s->nstreams; i++) {
		st = &s->st[i];
		r = &s->res.st[i];
		r->id = i;
		r->bytes = st->bytes;
		r->packets = st->packets;
		r->seconds = s->res.seconds;
		if (!s->sender)
			r->seconds = st->last_ns ?
				sp_ns_to_s(st->last_ns - s->start_ns) : 0;
		r->corrupt_bytes = st->corrupt;
		r->first_corrupt = st->first_bad;
		if (!s->udp && st->fd >= 0 && !st->ti.valid)
			sp_tcp_info(st->fd, s->mptcp, &st->ti);
		r->tcp = st->ti;
	}
	sp_side_sum_streams(&s->res);
	if (!s->udp && s->st[0].fd >= 0) {
		socklen_t len = sizeof(s->res.congestion) - 1;

		if (getsockopt(s->st[0].fd, IPPROTO_TCP, TCP_CONGESTION,
			       s->res.congestion, &len))
			s->res.congestion[0] = '\0';
	}
	if (s->udp && !s->sender)
		sp_udp_finish(s);
}

int sp_sess_run(struct sp_sess *s)
{
	struct pollfd pfd[SP_MAX_STREAMS + 3];
	int idx[SP_MAX_STREAMS + 3];
	struct sp_udp_rx *rx = NULL;
	int64_t now, end, hard_end, next_iv, iv_from, stop_ns = 0;
	int64_t drain_until = 0, wake, udp_next;
	bool stopping = false, finished = false, got_done = false;
	bool blocked, all_eof;
	uint8_t *buf = NULL;
	struct timespec ts;
	struct sp_stream *st;
	unsigned int i, np;
	int ret = 0, one = 1, r;

	sp_side_init(&s->res, s->server, s->sender, s->udp, s->nstreams);
	if (s->udp && !s->sender) {
		if (sp_udp_rx_open(&rx)) {
			snprintf(s->err, sizeof(s->err), "out of memory");
			return -1;
		}
		setsockopt(s->udp_fd, SOL_SOCKET, SO_TIMESTAMPNS, &one,
			   sizeof(one));
		for (i = 0; i < s->nstreams; i++) {
			if (sp_reorder_init(&s->st[i].ro)) {
				snprintf(s->err, sizeof(s->err),
					 "out of memory");
				sp_udp_rx_close(rx);
				return -1;
			}
			sp_owd_init(&s->st[i].owd);
		}
	}
	if (!s->udp) {
		buf = malloc(SP_RECV_BUF);
		if (!buf) {
			snprintf(s->err, sizeof(s->err), "out of memory");
			return -1;
		}
	}

	now = sp_now_ns();
	s->start_ns = now;
	end = now + (int64_t)(s->duration * 1e9);
	hard_end = end + SP_GRACE_S * SP_NSEC_PER_SEC;
	iv_from = now;
	next_iv = s->interval > 0 ? now + (int64_t)(s->interval * 1e9) :
				    INT64_MAX;
	for (i = 0; i < s->nstreams; i++)
		s->st[i].next_ns = now;

	while (!finished) {
		now = sp_now_ns();
		if (sp_interrupted) {
			snprintf(s->err, sizeof(s->err), "interrupted");
			ret = -1;
			break;
		}
		if (now >= hard_end) {
			snprintf(s->err, sizeof(s->err),
				 "timed out %d s after the test's end (peer or network stuck)",
				 SP_GRACE_S);
			ret = -1;
			break;
		}
		if (now >= next_iv) {
			sp_sess_interval(s, iv_from, next_iv);
			iv_from = next_iv;
			next_iv += (int64_t)(s->interval * 1e9);
			if (next_iv <= now)
				next_iv = now + (int64_t)(s->interval * 1e9);
		}
		if (s->sender && !stopping && now >= end) {
			stopping = true;
			stop_ns = now;
			/* a last, partial interval if it is worth a line */
			if (s->interval > 0 &&
			    end - iv_from > (int64_t)(s->interval * 1e8))
				sp_sess_interval(s, iv_from, end);
			next_iv = INT64_MAX;
			if (s->udp) {
				if (sp_send_done(s))
					ret = -1;
				break;
			}
			for (i = 0; i < s->nstreams; i++) {
				shutdown(s->st[i].fd, SHUT_WR);
				s->st[i].shut = true;
			}
			drain_until = now + SP_FIN_WAIT_S * SP_NSEC_PER_SEC;
		}

		all_eof = true;
		for (i = 0; i < s->nstreams; i++)
			if (!s->st[i].eof)
				all_eof = false;
		if (!s->udp && s->sender && stopping &&
		    (all_eof || now >= drain_until)) {
			for (i = 0; i < s->nstreams; i++)
				sp_tcp_info(s->st[i].fd, s->mptcp,
					    &s->st[i].ti);
			if (!all_eof)
				snprintf(s->err, sizeof(s->err),
					 "receiver did not confirm all data within %d s",
					 SP_FIN_WAIT_S);
			if (sp_send_done(s))
				ret = -1;
			break;
		}
		if (!s->udp && !s->sender && all_eof &&
		    next_iv != INT64_MAX) {
			/* all data in: close the interval series now */
			if (s->interval > 0 &&
			    now - iv_from > (int64_t)(s->interval * 1e8))
				sp_sess_interval(s, iv_from, now);
			next_iv = INT64_MAX;
		}
		if (!s->udp && !s->sender && all_eof && got_done)
			break;
		if (s->udp && !s->sender && got_done) {
			if (!drain_until)
				drain_until = now + sp_udp_drain_ns(s);
			if (sp_udp_all_in(s) || now >= drain_until)
				break;
		}

		/* UDP sender: what is due now, and when the next is */
		blocked = false;
		udp_next = INT64_MAX;
		if (s->udp && s->sender &&
		    sp_udp_pace(s, now, &blocked, &udp_next)) {
			ret = -1;
			break;
		}

		wake = sp_min64(next_iv, hard_end);
		if (s->sender && !stopping)
			wake = sp_min64(wake, end);
		if (drain_until)
			wake = sp_min64(wake, drain_until);
		if (s->listen_fd >= 0 && s->listen_pause > now)
			wake = sp_min64(wake, s->listen_pause);
		if (!blocked)
			wake = sp_min64(wake, udp_next);

		np = 0;
		if (!got_done) {
			pfd[np].fd = s->ctrl->fd;
			pfd[np].events = POLLIN;
			idx[np++] = -1;
		}
		if (s->listen_fd >= 0 && now >= s->listen_pause) {
			pfd[np].fd = s->listen_fd;
			pfd[np].events = POLLIN;
			idx[np++] = -2;
		}
		if (s->udp && !s->sender) {
			pfd[np].fd = s->udp_fd;
			pfd[np].events = POLLIN;
			idx[np++] = -3;
		}
		for (i = 0; i < s->nstreams; i++) {
			st = &s->st[i];
			if (st->fd < 0)
				continue;
			if (s->udp) {
				if (!s->sender || !blocked)
					continue;
				pfd[np].events = POLLOUT;
			} else {
				if (st->eof)
					continue;
				pfd[np].events = POLLIN;
				if (s->sender && !stopping)
					pfd[np].events |= POLLOUT;
			}
			pfd[np].fd = st->fd;
			idx[np++] = (int)i;
		}

		now = sp_now_ns();
		wake -= now;
		if (wake < 0)
			wake = 0;
		ts.tv_sec = wake / SP_NSEC_PER_SEC;
		ts.tv_nsec = wake % SP_NSEC_PER_SEC;
		r = ppoll(pfd, np, &ts, NULL);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			snprintf(s->err, sizeof(s->err), "poll: %s",
				 strerror(errno));
			ret = -1;
			break;
		}
		if (!r)
			continue;
		now = sp_now_ns();
		for (i = 0; i < np && ret == 0; i++) {
			if (!pfd[i].revents)
				continue;
			if (idx[i] == -1) {
				r = sp_handle_ctrl(s);
				if (r < 0)
					ret = -1;
				else if (r > 0)
					got_done = true;
				continue;
			}
			if (idx[i] == -2) {
				sp_turn_away(s);
				continue;
			}
			if (idx[i] == -3) {
				if (sp_udp_recv(s, rx))
					ret = -1;
				continue;
			}
			st = &s->st[idx[i]];
			/* UDP writable again: paced at the loop's top */
			if (s->udp)
				continue;
			if (pfd[i].revents & (POLLIN | POLLHUP | POLLERR)) {
				if (sp_tcp_recv(s, st, buf, SP_RECV_BUF,
						now)) {
					ret = -1;
					break;
				}
				if (st->eof && !s->sender) {
					/* final view, then our FIN tells the
					 * sender every byte arrived
					 */
					sp_tcp_info(st->fd, s->mptcp,
						    &st->ti);
					shutdown(st->fd, SHUT_WR);
				} else if (st->eof && !st->shut) {
					snprintf(s->err, sizeof(s->err),
						 "stream %u: receiver closed early",
						 st->id);
					ret = -1;
					break;
				}
			}
			if ((pfd[i].revents & POLLOUT) && !stopping &&
			    sp_tcp_send(s, st)) {
				ret = -1;
				break;
			}
		}
		if (ret)
			break;
	}
	if (!stop_ns)
		stop_ns = sp_min64(sp_now_ns(), end);
	/* receiver: a last partial interval */
	if (!s->sender && s->interval > 0 && next_iv != INT64_MAX) {
		now = sp_now_ns();
		if (now - iv_from > (int64_t)(s->interval * 1e8))
			sp_sess_interval(s, iv_from, now);
	}
	sp_sess_finish(s, stop_ns);
	sp_udp_rx_close(rx);
	free(buf);
	return ret;
}
