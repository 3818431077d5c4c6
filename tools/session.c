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
 * With --bidir the loop runs both directions at once, each with its own
 * streams, timers and end, on one control connection: the peer's DONE is
 * for our receiving direction, ours ends our sending one. With -O the
 * counters and the results' clock start again when the omitted time ends.
 *
 * A hard deadline (omit + duration + SP_GRACE_S) ends the phase whatever
 * the peer does. An early end (an error) still reads, for at most
 * SP_DRAIN_MS, the TCP data the peer sent before it.
 */
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "clock.h"
#include "net.h"
#include "session.h"

#define SP_GRACE_S	15	/* after the duration, at most */
#define SP_FIN_WAIT_S	10	/* TCP sender: waiting for the last ACKs */
#define SP_UDP_BUDGET	64	/* datagrams per stream per loop turn */
#define SP_RECV_BUF	(256 * 1024)
#define SP_DRAIN_MS	500	/* a test ended early: its data still in */

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
	s->bidir = p->bidir;
	s->nstreams = p->streams;
	/* --bidir: the reverse direction's streams greet after the forward
	 * ones (ids streams..2 streams - 1)
	 */
	s->id_base = p->bidir && p->reverse ? p->streams : 0;
	s->duration = p->duration;
	s->omit = p->omit;
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

/* One TCP_INFO reading into the figures iperf3 keeps over its samples */
static void sp_tcp_sample(struct sp_tcp_samples *m,
			  const struct sp_tcp_stats *t)
{
	uint64_t cwnd = t->cwnd * t->mss;

	if (!t->valid)
		return;
	if (cwnd > m->max_snd_cwnd)
		m->max_snd_cwnd = cwnd;
	if (t->snd_wnd > m->max_snd_wnd)
		m->max_snd_wnd = t->snd_wnd;
	if (t->rtt_us > m->max_rtt_us)
		m->max_rtt_us = t->rtt_us;
	if (!m->n || t->rtt_us < m->min_rtt_us)
		m->min_rtt_us = t->rtt_us;
	m->sum_rtt_us += t->rtt_us;
	m->n++;
}

/* This process's CPU time (user, system) in ns, as iperf3's getrusage */
static void sp_cpu_ns(int64_t *user, int64_t *sys)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru)) {
		*user = 0;
		*sys = 0;
		return;
	}
	*user = ru.ru_utime.tv_sec * SP_NSEC_PER_SEC +
		ru.ru_utime.tv_usec * 1000LL;
	*sys = ru.ru_stime.tv_sec * SP_NSEC_PER_SEC +
	       ru.ru_stime.tv_usec * 1000LL;
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
	sum->omitted = s->omitting;
	sum->start = sp_ns_to_s(from - s->start_ns);
	sum->end = sp_ns_to_s(to - s->start_ns);
	for (i = 0; i < s->nstreams; i++) {
		st = &s->st[i];
		iv = &row[i];
		iv->start = sum->start;
		iv->end = sum->end;
		iv->omitted = sum->omitted;
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
			iv->mss = st->ti.mss;
			iv->snd_wnd = st->ti.snd_wnd;
			iv->rttvar_us = st->ti.rttvar_us;
			iv->pmtu = st->ti.pmtu;
			if (!s->omitting)
				sp_tcp_sample(&s->res.st[i].smp, &st->ti);
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
	const struct sp_stream *st;
	unsigned int i;

	/* -O: the numbers below ro.first were sent while omitted */
	for (i = 0; i < s->nstreams; i++) {
		st = &s->st[i];
		if (!st->sent_known ||
		    st->ro.s.received + st->ro.first < st->sent)
			return false;
	}
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

/* A paced TCP sender: when its next stream is due. Those due already
 * wait for POLLOUT, not the clock (a full socket would spin the loop).
 */
static int64_t sp_tcp_due(const struct sp_sess *s, int64_t now)
{
	int64_t due = INT64_MAX;
	unsigned int i;

	for (i = 0; i < s->nstreams; i++)
		if (s->st[i].fd >= 0 && s->st[i].next_ns > now)
			due = sp_min64(due, s->st[i].next_ns);
	return due;
}

/* -O: the counters at the end of the omitted time, so the results count
 * only what came after it (the TCP_INFO levels are the end's anyway).
 */
static void sp_tcp_since(struct sp_tcp_stats *t, const struct sp_tcp_stats *b)
{
	t->total_retrans -= b->total_retrans;
	t->bytes_retrans -= b->bytes_retrans;
	t->reord_seen -= b->reord_seen;
	t->dsack_dups -= b->dsack_dups;
	t->rcv_ooopack -= b->rcv_ooopack;
}

static double sp_secs_since(int64_t from, int64_t to)
{
	return to > from ? sp_ns_to_s(to - from) : 0;
}

static void sp_sess_finish(struct sp_sess *s, int64_t stop_ns)
{
	struct sp_stream_res *r;
	struct sp_stream *st;
	int64_t last = 0, user, sys, now;
	unsigned int i;

	for (i = 0; i < s->nstreams; i++)
		if (s->st[i].last_ns > last)
			last = s->st[i].last_ns;
	if (s->sender)
		last = stop_ns;
	if (!last)
		last = sp_now_ns();
	s->res.seconds = sp_secs_since(s->start_ns, last);
	sp_cpu_ns(&user, &sys);
	now = sp_now_ns();
	if (now > s->start_ns) {
		s->res.cpu_user = 100.0 * (double)(user - s->cpu_user_ns) /
				  (double)(now - s->start_ns);
		s->res.cpu_system = 100.0 * (double)(sys - s->cpu_sys_ns) /
				    (double)(now - s->start_ns);
	}
	for (i = 0; i < s->nstreams; i++) {
		st = &s->st[i];
		r = &s->res.st[i];
		r->id = i;
		r->bytes = st->bytes - st->om_bytes;
		r->packets = st->packets - st->om_packets;
		r->omitted_bytes = st->om_bytes;
		r->seconds = s->res.seconds;
		if (!s->sender)
			r->seconds = sp_secs_since(s->start_ns, st->last_ns);
		r->corrupt_bytes = st->corrupt;
		r->first_corrupt = st->first_bad;
		if (!s->udp && st->fd >= 0 && !st->ti.valid)
			sp_tcp_info(st->fd, s->mptcp, &st->ti);
		r->tcp = st->ti;
		/* -i 0: no interval samples, the last reading stands */
		if (!r->smp.n)
			sp_tcp_sample(&r->smp, &r->tcp);
		if (r->tcp.valid && st->om_ti.valid)
			sp_tcp_since(&r->tcp, &st->om_ti);
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

static void sp_run_err(struct sp_sess *s, const char *what)
{
	snprintf(s->err, sizeof(s->err), "%s", what);
}

/* Sockets options and buffers of one direction; the timers from now. */
static int sp_run_open(struct sp_sess *s, int64_t now)
{
	unsigned int i;
	int one = 1;

	sp_side_init(&s->res, s->server, s->sender, s->udp, s->nstreams);
	s->res.bidir = s->bidir;
	/* a server's two sides of --bidir share one side's budget */
	if (s->server && s->bidir)
		s->res.max_entries /= 2;
	if (s->udp && !s->sender) {
		if (sp_udp_rx_open(&s->rx))
			return -1;
		setsockopt(s->udp_fd, SOL_SOCKET, SO_TIMESTAMPNS, &one,
			   sizeof(one));
		for (i = 0; i < s->nstreams; i++) {
			if (sp_reorder_init(&s->st[i].ro))
				return -1;
			sp_owd_init(&s->st[i].owd);
		}
	}
	if (!s->udp) {
		s->buf = malloc(SP_RECV_BUF);
		if (!s->buf)
			return -1;
	}
	s->start_ns = now;
	sp_cpu_ns(&s->cpu_user_ns, &s->cpu_sys_ns);
	s->omitting = s->omit > 0;
	s->omit_end = now + (int64_t)(s->omit * 1e9);
	s->end_ns = s->omit_end + (int64_t)(s->duration * 1e9);
	s->iv_from = now;
	s->next_iv = s->interval > 0 ?
		     now + (int64_t)(s->interval * 1e9) : INT64_MAX;
	for (i = 0; i < s->nstreams; i++)
		s->st[i].next_ns = now;
	return 0;
}

/* -O: the omitted time is over. Its last interval is closed, the counters
 * noted, and the results' clock starts now, as iperf3 does.
 */
static void sp_run_omit_end(struct sp_sess *s)
{
	struct sp_stream *st;
	unsigned int i;

	if (s->next_iv != INT64_MAX && s->omit_end > s->iv_from)
		sp_sess_interval(s, s->iv_from, s->omit_end);
	s->omitting = false;
	for (i = 0; i < s->nstreams; i++) {
		st = &s->st[i];
		st->om_bytes = st->bytes;
		st->om_packets = st->packets;
		if (!s->udp && st->fd >= 0) {
			sp_tcp_info(st->fd, s->mptcp, &st->ti);
			st->om_ti = st->ti;
		}
		if (s->udp && !s->sender) {
			sp_reorder_restart(&st->ro);
			sp_owd_init(&st->owd);
		}
	}
	s->start_ns = s->omit_end;
	sp_cpu_ns(&s->cpu_user_ns, &s->cpu_sys_ns);
	s->iv_from = s->omit_end;
	if (s->next_iv != INT64_MAX)
		s->next_iv = s->omit_end + (int64_t)(s->interval * 1e9);
}

static void sp_run_timers(struct sp_sess *s, int64_t now)
{
	if (now >= s->next_iv) {
		sp_sess_interval(s, s->iv_from, s->next_iv);
		s->iv_from = s->next_iv;
		s->next_iv += (int64_t)(s->interval * 1e9);
		if (s->next_iv <= now)
			s->next_iv = now + (int64_t)(s->interval * 1e9);
	}
	if (s->omitting && now >= s->omit_end)
		sp_run_omit_end(s);
}

/* The sender's time is up: a last partial interval, then UDP says DONE
 * (1: finished) and TCP sends FIN and waits for the receiver's.
 */
static int sp_run_stop(struct sp_sess *s, int64_t now)
{
	unsigned int i;

	s->stopping = true;
	s->stop_ns = now;
	/* a last, partial interval if it is worth a line */
	if (s->interval > 0 &&
	    s->end_ns - s->iv_from > (int64_t)(s->interval * 1e8))
		sp_sess_interval(s, s->iv_from, s->end_ns);
	s->next_iv = INT64_MAX;
	if (s->udp)
		return sp_send_done(s) ? -1 : 1;
	for (i = 0; i < s->nstreams; i++) {
		shutdown(s->st[i].fd, SHUT_WR);
		s->st[i].shut = true;
	}
	s->drain_until = now + SP_FIN_WAIT_S * SP_NSEC_PER_SEC;
	return 0;
}

static bool sp_all_eof(const struct sp_sess *s)
{
	unsigned int i;

	for (i = 0; i < s->nstreams; i++)
		if (!s->st[i].eof)
			return false;
	return true;
}

/* TCP: when a direction's data is all across. 1: finished, -1: error */
static int sp_run_tcp_end(struct sp_sess *s, int64_t now)
{
	bool all_eof = sp_all_eof(s);
	unsigned int i;

	if (s->sender && s->stopping &&
	    (all_eof || now >= s->drain_until)) {
		for (i = 0; i < s->nstreams; i++)
			sp_tcp_info(s->st[i].fd, s->mptcp, &s->st[i].ti);
		if (!all_eof)
			snprintf(s->err, sizeof(s->err),
				 "receiver did not confirm all data within %d s",
				 SP_FIN_WAIT_S);
		return sp_send_done(s) ? -1 : 1;
	}
	if (!s->sender && all_eof && s->next_iv != INT64_MAX) {
		/* all data in: close the interval series now */
		if (s->interval > 0 &&
		    now - s->iv_from > (int64_t)(s->interval * 1e8))
			sp_sess_interval(s, s->iv_from, now);
		s->next_iv = INT64_MAX;
	}
	return !s->sender && all_eof && s->got_done;
}

/* Timers and end conditions of one direction before the wait: 1 when it
 * is finished, -1 on error (s->err set). *wake: when it wants the loop.
 */
static int sp_run_tick(struct sp_sess *s, int64_t now, int64_t *wake)
{
	int r;

	sp_run_timers(s, now);
	if (s->sender && !s->stopping && now >= s->end_ns) {
		r = sp_run_stop(s, now);
		if (r)
			return r;
	}
	if (!s->udp) {
		r = sp_run_tcp_end(s, now);
		if (r)
			return r;
	}
	if (s->udp && !s->sender && s->got_done) {
		if (!s->drain_until)
			s->drain_until = now + sp_udp_drain_ns(s);
		if (sp_udp_all_in(s) || now >= s->drain_until)
			return 1;
	}
	/* UDP sender: what is due now, and when the next is */
	s->blocked = false;
	s->udp_next = INT64_MAX;
	if (s->udp && s->sender &&
	    sp_udp_pace(s, now, &s->blocked, &s->udp_next))
		return -1;
	if (!s->udp && s->sender && !s->stopping && s->rate)
		*wake = sp_min64(*wake, sp_tcp_due(s, now));

	*wake = sp_min64(*wake, s->next_iv);
	if (s->omitting)
		*wake = sp_min64(*wake, s->omit_end);
	if (s->sender && !s->stopping)
		*wake = sp_min64(*wake, s->end_ns);
	if (s->drain_until)
		*wake = sp_min64(*wake, s->drain_until);
	if (!s->blocked)
		*wake = sp_min64(*wake, s->udp_next);
	return 0;
}

/* poll entries: the tag of a stream is k * SP_MAX_STREAMS + its index (k:
 * the direction), of a UDP receive socket SP_TAG_UDP - k
 */
#define SP_TAG_CTRL	(-1)
#define SP_TAG_LISTEN	(-2)
#define SP_TAG_UDP	(-3)
#define SP_NPOLL	(2 * (SP_MAX_STREAMS + 1) + 2)

static void sp_run_pollfds(const struct sp_sess *s, unsigned int k,
			   int64_t now, struct pollfd *pfd, int *tag,
			   unsigned int *np)
{
	const struct sp_stream *st;
	unsigned int i;

	if (s->udp && !s->sender) {
		pfd[*np].fd = s->udp_fd;
		pfd[*np].events = POLLIN;
		tag[(*np)++] = SP_TAG_UDP - (int)k;
	}
	for (i = 0; i < s->nstreams; i++) {
		st = &s->st[i];
		if (st->fd < 0)
			continue;
		if (s->udp) {
			if (!s->sender || !s->blocked)
				continue;
			pfd[*np].events = POLLOUT;
		} else {
			if (st->eof)
				continue;
			pfd[*np].events = POLLIN;
			/* -b: not before it is due (sp_tcp_due) */
			if (s->sender && !s->stopping &&
			    (!s->rate || st->next_ns <= now))
				pfd[*np].events |= POLLOUT;
		}
		pfd[*np].fd = st->fd;
		tag[(*np)++] = (int)(k * SP_MAX_STREAMS + i);
	}
}

/* A TCP stream is readable or writable. 0, or -1 with s->err set */
static int sp_run_stream(struct sp_sess *s, struct sp_stream *st,
			 short revents, int64_t now)
{
	if (revents & (POLLIN | POLLHUP | POLLERR)) {
		if (sp_tcp_recv(s, st, s->buf, SP_RECV_BUF, now))
			return -1;
		if (st->eof && !s->sender) {
			/* final view, then our FIN tells the sender every
			 * byte arrived
			 */
			sp_tcp_info(st->fd, s->mptcp, &st->ti);
			shutdown(st->fd, SHUT_WR);
		} else if (st->eof && !st->shut) {
			snprintf(s->err, sizeof(s->err),
				 "stream %u: receiver closed early", st->id);
			return -1;
		}
	}
	if ((revents & POLLOUT) && !s->stopping && sp_tcp_send(s, st, now))
		return -1;
	return 0;
}

/* The receiving direction, which the peer's DONE is for; NULL if none */
static struct sp_sess *sp_receiver(struct sp_sess **ss, unsigned int n)
{
	unsigned int k;

	for (k = 0; k < n; k++)
		if (!ss[k]->sender)
			return ss[k];
	return NULL;
}

/* The control connection: the peer's DONE goes to our receiving direction,
 * its ERROR ends both. 0, or -1 with that direction's err set
 */
static int sp_run_ctrl(struct sp_sess **ss, unsigned int n)
{
	struct sp_sess *rcv = sp_receiver(ss, n), *s = rcv ? rcv : ss[0];
	int r = sp_handle_ctrl(s);

	if (r > 0)
		s->got_done = true;
	return r < 0 ? -1 : 0;
}

/* One event of the poll: 0, or -1 with the direction's err set */
static int sp_run_event(struct sp_sess **ss, unsigned int n, int tag,
			short revents, int64_t now)
{
	struct sp_sess *s;

	if (tag == SP_TAG_CTRL)
		return sp_run_ctrl(ss, n);
	if (tag == SP_TAG_LISTEN) {
		sp_turn_away(ss[0]);
		return 0;
	}
	if (tag < 0) {
		s = ss[SP_TAG_UDP - tag];
		return s->finished ? 0 : sp_udp_recv(s, s->rx);
	}
	s = ss[tag / SP_MAX_STREAMS];
	/* UDP writable again: paced at the loop's top */
	if (s->udp || s->finished)
		return 0;
	return sp_run_stream(s, &s->st[tag % SP_MAX_STREAMS], revents, now);
}

/* What the loop waits for: the control connection until the peer's DONE,
 * a server's listener, and every direction still running.
 */
static unsigned int sp_run_pollset(struct sp_sess **ss, unsigned int n,
				   int64_t now, struct pollfd *pfd, int *tag)
{
	struct sp_sess *rcv = sp_receiver(ss, n);
	unsigned int k, np = 0;

	if (!rcv || !rcv->got_done) {
		pfd[np].fd = ss[0]->ctrl->fd;
		pfd[np].events = POLLIN;
		tag[np++] = SP_TAG_CTRL;
	}
	if (ss[0]->listen_fd >= 0 && now >= ss[0]->listen_pause) {
		pfd[np].fd = ss[0]->listen_fd;
		pfd[np].events = POLLIN;
		tag[np++] = SP_TAG_LISTEN;
	}
	for (k = 0; k < n; k++)
		if (!ss[k]->finished)
			sp_run_pollfds(ss[k], k, now, pfd, tag, &np);
	return np;
}

/* Every direction's timers; 1 when all are finished, -1 on error (the
 * direction's err set)
 */
static int sp_run_ticks(struct sp_sess **ss, unsigned int n, int64_t now,
			int64_t *wake)
{
	unsigned int k, done = 0;
	int r;

	for (k = 0; k < n; k++) {
		if (!ss[k]->finished) {
			r = sp_run_tick(ss[k], now, wake);
			if (r < 0)
				return -1;
			ss[k]->finished = r > 0;
		}
		done += ss[k]->finished;
	}
	return done == n;
}

/* Wait for what is due, then serve it. 0, or -1 with an err set */
static int sp_run_wait(struct sp_sess **ss, unsigned int n, int64_t wake)
{
	struct pollfd pfd[SP_NPOLL];
	int tag[SP_NPOLL];
	struct timespec ts;
	unsigned int i, np;
	int64_t now = sp_now_ns();
	int r;

	if (ss[0]->listen_fd >= 0 && ss[0]->listen_pause > now)
		wake = sp_min64(wake, ss[0]->listen_pause);
	np = sp_run_pollset(ss, n, now, pfd, tag);
	wake = wake > now ? wake - now : 0;
	ts.tv_sec = wake / SP_NSEC_PER_SEC;
	ts.tv_nsec = wake % SP_NSEC_PER_SEC;
	r = ppoll(pfd, np, &ts, NULL);
	if (r < 0 && errno != EINTR) {
		snprintf(ss[0]->err, sizeof(ss[0]->err), "poll: %s",
			 strerror(errno));
		return -1;
	}
	now = sp_now_ns();
	for (i = 0; r > 0 && i < np; i++) {
		if (!pfd[i].revents)
			continue;
		if (sp_run_event(ss, n, tag[i], pfd[i].revents, now))
			return -1;
	}
	return 0;
}

/* A test ended early (an error, often the other direction's: a reset
 * stream) while TCP data was still coming to us. What the peer sent before
 * is read and checked all the same, so garbage it wrote always counts as
 * corrupt: until each stream's FIN, for at most SP_DRAIN_MS. Errors now
 * are not the test's; its own error stays.
 */
static void sp_run_drain(struct sp_sess **ss, unsigned int n)
{
	bool dead[2][SP_MAX_STREAMS];	/* reading failed */
	struct pollfd pfd[SP_NPOLL];
	int tag[SP_NPOLL];
	char err[sizeof(ss[0]->err)];
	int64_t now = sp_now_ns();
	int64_t end = now + SP_DRAIN_MS * SP_NSEC_PER_MSEC;
	struct sp_stream *st;
	struct sp_sess *s;
	unsigned int i, j, k, np;
	int r;

	memset(dead, 0, sizeof(dead));
	while (now < end && !sp_interrupted) {
		np = 0;
		for (k = 0; k < n; k++) {
			s = ss[k];
			if (s->udp || s->sender || s->finished || !s->buf)
				continue;
			for (i = 0; i < s->nstreams; i++) {
				st = &s->st[i];
				if (st->fd < 0 || st->eof || dead[k][i])
					continue;
				pfd[np].fd = st->fd;
				pfd[np].events = POLLIN;
				tag[np++] = (int)(k * SP_MAX_STREAMS + i);
			}
		}
		if (!np)
			break;
		r = poll(pfd, np, (int)((end - now) / SP_NSEC_PER_MSEC) + 1);
		if (r < 0 && errno != EINTR)
			break;
		now = sp_now_ns();
		for (i = 0; r > 0 && i < np; i++) {
			if (!pfd[i].revents)
				continue;
			k = (unsigned int)tag[i] / SP_MAX_STREAMS;
			s = ss[k];
			j = (unsigned int)tag[i] % SP_MAX_STREAMS;
			st = &s->st[j];
			memcpy(err, s->err, sizeof(err));
			if (sp_tcp_recv(s, st, s->buf, SP_RECV_BUF, now)) {
				memcpy(s->err, err, sizeof(err));
				dead[k][j] = true;
				continue;
			}
			if (st->eof) {
				/* as in the loop: the final view, our FIN */
				sp_tcp_info(st->fd, s->mptcp, &st->ti);
				shutdown(st->fd, SHUT_WR);
			}
		}
	}
}

/* A receiver's last partial interval, the results, the buffers. */
static void sp_run_close(struct sp_sess *s)
{
	int64_t now;

	if (!s->stop_ns)
		s->stop_ns = sp_min64(sp_now_ns(), s->end_ns);
	if (!s->sender && s->interval > 0 && s->next_iv != INT64_MAX) {
		now = sp_now_ns();
		if (now - s->iv_from > (int64_t)(s->interval * 1e8))
			sp_sess_interval(s, s->iv_from, now);
	}
	sp_sess_finish(s, s->stop_ns);
	sp_udp_rx_close(s->rx);
	s->rx = NULL;
	free(s->buf);
	s->buf = NULL;
}

int sp_sess_run2(struct sp_sess *a, struct sp_sess *b)
{
	struct sp_sess *ss[2] = { a, b };
	unsigned int k, n = b ? 2 : 1;
	int64_t now = sp_now_ns(), hard_end, wake;
	int ret = 0, r;

	for (k = 0; k < n; k++) {
		if (sp_run_open(ss[k], now)) {
			sp_run_err(a, "out of memory");
			ret = -1;
			goto out;
		}
	}
	hard_end = a->end_ns + SP_GRACE_S * SP_NSEC_PER_SEC;
	for (;;) {
		now = sp_now_ns();
		if (sp_interrupted) {
			sp_run_err(a, "interrupted");
			ret = -1;
			break;
		}
		if (now >= hard_end) {
			snprintf(a->err, sizeof(a->err),
				 "timed out %d s after the test's end (peer or network stuck)",
				 SP_GRACE_S);
			ret = -1;
			break;
		}
		wake = hard_end;
		r = sp_run_ticks(ss, n, now, &wake);
		if (r) {
			ret = r < 0 ? -1 : 0;
			break;
		}
		if (sp_run_wait(ss, n, wake)) {
			ret = -1;
			break;
		}
	}
	if (ret)
		sp_run_drain(ss, n);
out:
	for (k = 0; k < n; k++)
		sp_run_close(ss[k]);
	/* the caller reads a's: a failure of the reverse direction too */
	if (ret && b && b->err[0] && !a->err[0])
		snprintf(a->err, sizeof(a->err), "%s", b->err);
	return ret;
}

int sp_sess_run(struct sp_sess *s)
{
	return sp_sess_run2(s, NULL);
}
