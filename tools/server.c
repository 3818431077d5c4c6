// SPDX-License-Identifier: GPL-2.0
/* Server: one test at a time. Control connections wait side by side for
 * their parameters (at most SP_MAX_WAITING, each for --connect-timeout, each
 * buffering at most SP_CTRL_MAX_REQ), so an idle or slow connection delays
 * nobody: the first complete request runs, the others are told the server
 * is busy, as is anyone arriving during a test. Data connections that do
 * not greet during the setup are evicted (sp_accept_streams). The data
 * phase has its own hard deadline, so the server never waits forever on a
 * dead client.
 */
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/tcp.h>

#include "clock.h"
#include "net.h"
#include "proto.h"
#include "report.h"
#include "report_stream.h"
#include "runner.h"
#include "session.h"
#include "stripe_nl.h"

#define SP_MAX_WAITING	64	/* control connections before PARAMS */
/* A data connection sends its greeting as it connects: one silent this
 * long holds a slot for nothing (bounded by --connect-timeout too).
 */
#define SP_GREET_MS	2000

struct sp_pending {
	int fd;
	unsigned int got;
	int64_t deadline;	/* evicted without its greeting by then */
	uint8_t buf[SP_GREET_LEN];
};

static void sp_server_ival(struct sp_sess *s, unsigned int k)
{
	sp_report_ival(stdout, &s->res, k);
}

static void sp_server_jival(struct sp_sess *s, unsigned int k)
{
	sp_jstream_ival(s->report, &s->res, k);
}

static void sp_log(const struct sp_opts *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Progress goes to stdout in text mode, to stderr with -J so stdout
 * stays one JSON document per test.
 */
static void sp_log(const struct sp_opts *o, const char *fmt, ...)
{
	FILE *f = o->json ? stderr : stdout;
	va_list ap;

	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fflush(f);
}

/* The stream greeting id names: the forward direction's, then with
 * --bidir the reverse one's. NULL if it is none, or taken already.
 */
static struct sp_stream *sp_greeted(struct sp_sess **ss, uint32_t id)
{
	struct sp_sess *s = ss[id >= ss[0]->nstreams];
	struct sp_stream *st;

	if (!s || id >= s->id_base + s->nstreams)
		return NULL;
	st = &s->st[id - s->id_base];
	return st->fd < 0 ? st : NULL;
}

/* Read what a pending data connection sent. 0: its greeting is not
 * complete yet; 1: done with it (a stream's now, or refused); -1: setting
 * up the stream failed (err set).
 */
static int sp_pending_read(struct sp_sess **ss, struct sp_pending *pp,
			   const struct sp_params *p, unsigned int *have,
			   char *err, size_t errlen)
{
	struct sp_stream *st = NULL;
	uint32_t id;
	ssize_t n;

	n = recv(pp->fd, pp->buf + pp->got, SP_GREET_LEN - pp->got,
		 MSG_DONTWAIT);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return 0;
	if (n > 0)
		pp->got += (unsigned int)n;
	if (n > 0 && pp->got < SP_GREET_LEN &&
	    !memcmp(pp->buf, "SPD1", pp->got < 4 ? pp->got : 4))
		return 0;
	if (n > 0 && pp->got == SP_GREET_LEN &&
	    !sp_greeting_parse(pp->buf, p->cookie, &id))
		st = sp_greeted(ss, id);
	if (!st) {
		if (n > 0)
			sp_refuse_busy(pp->fd);
		else
			close(pp->fd);
		return 1;
	}
	st->fd = pp->fd;
	(*have)++;
	return sp_tune_tcp(pp->fd, p->congestion, p->window, err, errlen) ?
	       -1 : 1;
}

/* Accept the client's data connections until every stream has greeted.
 * Anything else that connects meanwhile is told the server is busy. A
 * connection that has not greeted within SP_GREET_MS is evicted, and so
 * is the oldest when all slots are taken: idle connections cannot keep
 * the client's out.
 */
static int sp_accept_streams(struct sp_sess **ss, int lfd,
			     const struct sp_params *p, int64_t deadline,
			     unsigned int greet_ms, char *err, size_t errlen)
{
	struct sp_sess *s = ss[0];
	unsigned int want = s->nstreams * (ss[1] ? 2 : 1);
	struct sp_pending pend[SP_MAX_STREAMS];
	struct pollfd pfd[SP_MAX_STREAMS + 2];
	unsigned int npend = 0, have = 0, i, np, oldest, n;
	unsigned int silent = 0, crowded = 0;	/* evicted */
	int64_t left, pause = 0, now, wake;
	int fd, r, ret = -1;

	while (have < want) {
		now = sp_now_ns();
		left = deadline - now;
		if (left <= 0) {
			snprintf(err, errlen,
				 "only %u of %u data connections arrived in time",
				 have, want);
			goto out;
		}
		wake = deadline;
		for (i = npend; i-- > 0;) {
			if (pend[i].deadline > now) {
				if (pend[i].deadline < wake)
					wake = pend[i].deadline;
				continue;
			}
			close(pend[i].fd);
			pend[i] = pend[--npend];
			silent++;
		}
		np = 0;
		/* out of descriptors: leave the listener alone a while */
		pfd[np].fd = now >= pause ? lfd : -1;
		pfd[np++].events = POLLIN;
		pfd[np].fd = s->ctrl->fd;
		pfd[np++].events = POLLIN;
		for (i = 0; i < npend; i++) {
			pfd[np].fd = pend[i].fd;
			pfd[np++].events = POLLIN;
		}
		if (pause > now && pause < wake)
			wake = pause;
		if (poll(pfd, np,
			 (int)((wake - now) / SP_NSEC_PER_MSEC) + 1) < 0 &&
		    errno != EINTR) {
			snprintf(err, errlen, "poll: %s", strerror(errno));
			goto out;
		}
		if (sp_interrupted) {
			snprintf(err, errlen, "interrupted");
			goto out;
		}
		if (pfd[1].revents) {
			snprintf(err, errlen,
				 "client closed the control connection during setup");
			goto out;
		}
		/* greetings first: their slots free before new accepts */
		for (i = npend; i-- > 0;) {
			if (!pfd[2 + i].revents)
				continue;
			r = sp_pending_read(ss, &pend[i], p, &have, err,
					    errlen);
			if (r)
				pend[i] = pend[--npend];
			if (r < 0)
				goto out;
		}
		/* a round's accepts are bounded: a flood still lets the
		 * deadlines run
		 */
		for (n = 0; n < SP_MAX_STREAMS && have < want &&
			    (pfd[0].revents & POLLIN); n++) {
			fd = sp_accept(lfd, &pause);
			if (fd < 0)
				break;
			if (npend == SP_MAX_STREAMS) {
				oldest = 0;
				for (i = 1; i < npend; i++)
					if (pend[i].deadline <
					    pend[oldest].deadline)
						oldest = i;
				close(pend[oldest].fd);
				pend[oldest] = pend[--npend];
				crowded++;
			}
			pend[npend].fd = fd;
			pend[npend].got = 0;
			pend[npend].deadline = sp_now_ns() +
					       greet_ms * SP_NSEC_PER_MSEC;
			/* the greeting is often in already */
			r = sp_pending_read(ss, &pend[npend], p, &have, err,
					    errlen);
			if (r < 0)
				goto out;
			if (!r)
				npend++;
		}
	}
	ret = 0;
out:
	for (i = 0; i < npend; i++)
		close(pend[i].fd);
	if (silent + crowded)
		fprintf(stderr,
			"stripe-perf: setup: %u data connections evicted without a greeting (%u silent for %u ms, %u for room)\n",
			silent + crowded, silent, greet_ms, crowded);
	return ret;
}

/* Prepare one direction's UDP sockets (TCP connections come later). A
 * receiver's port goes to *udp_port.
 */
static int sp_server_streams(struct sp_sess *s, int cfd,
			     const struct sp_params *p, unsigned int *udp_port,
			     char *err, size_t errlen)
{
	struct sp_addr local, peer, from;
	unsigned int i;
	int fd;

	if (sp_local_addr(cfd, &local) || sp_peer_addr(cfd, &peer)) {
		snprintf(err, errlen, "control socket address: %s",
			 strerror(errno));
		return -1;
	}
	if (!s->udp)
		return 0;
	if (!s->sender) {
		s->udp_fd = sp_udp_bind_like(&local, err, errlen);
		if (s->udp_fd < 0)
			return -1;
		if (sp_local_addr(s->udp_fd, &from))
			return -1;
		*udp_port = sp_addr_port(&from);
		return 0;
	}
	from = local;
	sp_addr_set_port(&from, 0);
	sp_addr_set_port(&peer, p->udp_port);
	for (i = 0; i < s->nstreams; i++) {
		fd = sp_connect_addr(&peer, SOCK_DGRAM, 0, &from, 1000, err,
				     errlen);
		if (fd < 0)
			return -1;
		s->st[i].fd = fd;
	}
	return 0;
}

/* The parameters in m, within this server's limits. 0, or -1 with err */
static int sp_server_params(const struct sp_opts *o, struct sp_msg *m,
			    struct sp_params *p, char *err, size_t errlen)
{
	int ret = sp_params_get(m, p, err, errlen);

	sp_msg_free(m);
	if (ret)
		return -1;
	/* --bidir: both directions' connections count */
	if (p->streams * (p->bidir ? 2 : 1) > o->max_streams) {
		snprintf(err, errlen,
			 "this server runs at most %u streams (-P, twice with --bidir)",
			 o->max_streams);
		return -1;
	}
	if (p->duration + p->omit > o->max_time) {
		snprintf(err, errlen,
			 "this server runs tests of at most %.0f s (-t plus -O)",
			 o->max_time);
		return -1;
	}
	return 0;
}

/* The directions of the test p (ss[1]: --bidir, the server sends), their
 * UDP sockets, ACCEPT, and the client's data connections. js: the
 * --json-stream the intervals go to, else NULL.
 */
static int sp_server_setup(const struct sp_opts *o, int lfd,
			   struct sp_ctrl *ctrl, const struct sp_params *p,
			   struct sp_sess **ss, struct sp_jstream *js,
			   char *err, size_t errlen)
{
	struct sp_params rp = *p;
	unsigned int k, port = 0, udp_port = 0;
	struct sp_addr la, ra;
	int64_t deadline = sp_now_ns() + o->connect_ms * SP_NSEC_PER_MSEC;
	struct sp_buf b;
	int ret;

	sp_local_addr(ctrl->fd, &la);
	sp_peer_addr(ctrl->fd, &ra);
	rp.reverse = true;
	for (k = 0; k < 2 && ss[k]; k++) {
		sp_sess_setup(ss[k], k ? &rp : p, true, ctrl, &la, &ra);
		/* the client's interval, or ours when it asked for none */
		if (!(p->interval > 0))
			ss[k]->interval = o->interval;
		if (js)
			ss[k]->on_interval = sp_server_jival;
		else if (!o->json)
			ss[k]->on_interval = sp_server_ival;
		ss[k]->report = js;
		if (sp_server_streams(ss[k], ctrl->fd, p, &port, err, errlen))
			return -1;
		if (port)
			udp_port = port;
		port = 0;
	}
	sp_buf_init(&b);
	sp_accept_put(p, udp_port, &b);
	ret = sp_ctrl_send(ctrl, &b, deadline);
	sp_buf_free(&b);
	if (ret) {
		snprintf(err, errlen, "client went away during setup");
		return -1;
	}
	if (p->udp)
		return 0;
	deadline = sp_now_ns() + o->connect_ms * SP_NSEC_PER_MSEC;
	return sp_accept_streams(ss, lfd, p, deadline,
				 o->connect_ms < SP_GREET_MS ? o->connect_ms :
							       SP_GREET_MS,
				 err, errlen);
}

/* Our sides to the client (the reverse one second), then let it close
 * first.
 */
static void sp_server_results(struct sp_ctrl *ctrl, struct sp_sess **ss)
{
	int64_t deadline;
	struct sp_buf b;
	unsigned int k;
	char buf[64];

	sp_buf_init(&b);
	for (k = 0; k < 2 && ss[k]; k++) {
		sp_msg_begin(&b, "RESULTS");
		sp_side_put(&ss[k]->res, &b);
		sp_msg_end(&b);
		sp_ctrl_send(ctrl, &b, sp_now_ns() + 5 * SP_NSEC_PER_SEC);
	}
	sp_buf_free(&b);
	shutdown(ctrl->fd, SHUT_WR);
	deadline = sp_now_ns() + 2 * SP_NSEC_PER_SEC;
	while (sp_now_ns() < deadline) {
		struct pollfd pf = { .fd = ctrl->fd, .events = POLLIN };

		if (poll(&pf, 1, 100) > 0 &&
		    recv(ctrl->fd, buf, sizeof(buf), MSG_DONTWAIT) == 0)
			break;
	}
}

/* Run the test a waiting control connection asked for (m, its first
 * message); the connection is closed on return.
 */
static int sp_server_test(const struct sp_opts *o, int lfd,
			  struct sp_ctrl *ctrlp, struct sp_msg *m)
{
	struct sp_test_info info = { 0 };
	struct sp_xstats *before = NULL;
	struct sp_jstream *js = NULL;
	struct sp_sess *ss[2] = { NULL, NULL }, *s;
	struct sp_addr la, ra;
	struct sp_ctrl ctrl = *ctrlp;
	struct sp_params p;
	char err[256] = "", smsg[160] = "";
	bool stripe_ok = false;
	int cfd = ctrl.fd, one = 1, rc = 1, ret;
	struct sp_buf b;

	sp_buf_init(&b);
	setsockopt(cfd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	sp_local_addr(cfd, &la);
	sp_peer_addr(cfd, &ra);
	sp_info_addrs(&info, &la, &ra);
	sp_info_ctrl(&info, cfd);
	sp_log(o, "Accepted connection from %s\n", info.remote);

	if (o->json_stream) {
		js = calloc(1, sizeof(*js));
		if (!js) {
			snprintf(err, sizeof(err), "out of memory");
			sp_send_error(&ctrl, err);
			goto out;
		}
		sp_jstream_init(js, stdout);
	}
	if (sp_server_params(o, m, &p, err, sizeof(err))) {
		sp_send_error(&ctrl, err);
		goto out;
	}
	/* the reverse direction only for --bidir: a session is large */
	ss[0] = calloc(p.bidir ? 2 : 1, sizeof(*ss[0]));
	before = calloc(1, sizeof(*before));
	if (!ss[0] || !before) {
		snprintf(err, sizeof(err), "out of memory");
		sp_send_error(&ctrl, err);
		goto out;
	}
	sp_sess_init(ss[0]);
	if (p.bidir) {
		ss[1] = &ss[0][1];
		sp_sess_init(ss[1]);
	}
	s = ss[0];
	if (sp_server_setup(o, lfd, &ctrl, &p, ss, js, err, sizeof(err))) {
		sp_send_error(&ctrl, err);
		goto out;
	}
	sp_log(o, "Test: %u %s stream%s, %s, %.1f s\n", p.streams,
	       p.mptcp ? "MPTCP" : p.udp ? "UDP" : "TCP",
	       p.streams > 1 ? "s" : "", p.bidir ? "both send" :
	       s->sender ? "server sends" : "client sends", p.duration);
	if (o->verbose)
		sp_report_verbose_test(o->json ? stderr : stdout, &p);
	if (o->stripe_dev)
		sp_stripe_begin(o->stripe_dev, before, &stripe_ok, smsg,
				sizeof(smsg), false);
	sp_msg_begin(&b, "START");
	sp_msg_end(&b);
	if (sp_ctrl_send(&ctrl, &b, sp_now_ns() + SP_NSEC_PER_SEC)) {
		snprintf(err, sizeof(err), "client went away before START");
		goto out;
	}
	/* the data connections as they start, as the client notes them */
	sp_info_streams(&info, s);
	if (ss[1])
		sp_info_streams(&info, ss[1]);
	sp_info_params(&info, &p, true, s->interval);
	if (js)
		sp_jstream_start(js, &info, &s->res,
				 ss[1] ? &ss[1]->res : NULL);

	s->listen_fd = lfd;
	ret = sp_sess_run2(s, ss[1]);
	if (ret)
		snprintf(err, sizeof(err), "%s", s->err);
	if (o->stripe_dev)
		sp_stripe_end(o->stripe_dev, before, stripe_ok, smsg, &s->res,
			      false);
	if (!ret || !strstr(err, "control connection"))
		sp_server_results(&ctrl, ss);
	rc = ret ? 1 : 0;

	if (js)
		sp_jstream_end(js, &info, &s->res, NULL,
			       ss[1] ? &ss[1]->res : NULL, NULL, err);
	else if (o->json)
		sp_report_json2(stdout, &info, &s->res, NULL,
				ss[1] ? &ss[1]->res : NULL, NULL, err);
	else
		sp_report_human2(stdout, &info, &s->res, NULL,
				 ss[1] ? &ss[1]->res : NULL, NULL, err);
out:
	if (rc && err[0])
		fprintf(stderr, "stripe-perf: %s\n", err);
	/* iperf3's readers wait for the end: a refused test has one too */
	if (js)
		sp_jstream_fail(js, err);
	sp_buf_free(&b);
	sp_ctrl_close(&ctrl);
	if (ss[0])
		sp_sess_free(ss[0]);
	if (ss[1])
		sp_sess_free(ss[1]);
	free(ss[0]);
	free(before);
	free(js);
	return rc;
}

/* A control connection waiting for its test parameters. */
struct sp_waiting {
	struct sp_ctrl ctrl;
	int64_t deadline;
};

static void sp_waiting_expire(const struct sp_opts *o,
			      const struct sp_waiting *w)
{
	struct sp_addr ra;
	char abuf[96] = "?";

	if (!sp_peer_addr(w->ctrl.fd, &ra))
		sp_addr_str(&ra, abuf, sizeof(abuf));
	fprintf(stderr,
		"stripe-perf: no test parameters from %s within %u ms: closed\n",
		abuf, o->connect_ms);
}

static void sp_waiting_drop(struct sp_waiting *w, unsigned int *n,
			    unsigned int i, bool busy)
{
	if (busy) {
		sp_refuse_busy(w[i].ctrl.fd);
		w[i].ctrl.fd = -1;
	}
	sp_ctrl_close(&w[i].ctrl);
	w[i] = w[--*n];
}

static void sp_waiting_add(struct sp_waiting *w, unsigned int *n, int fd,
			   const struct sp_opts *o)
{
	unsigned int i, oldest = 0;

	if (*n == SP_MAX_WAITING) {
		/* full (a slow or hostile peer): the longest waiting goes */
		for (i = 1; i < *n; i++)
			if (w[i].deadline < w[oldest].deadline)
				oldest = i;
		sp_waiting_drop(w, n, oldest, true);
	}
	sp_ctrl_init(&w[*n].ctrl, fd);
	w[*n].ctrl.max_msg = SP_CTRL_MAX_REQ;
	w[*n].deadline = sp_now_ns() + o->connect_ms * SP_NSEC_PER_MSEC;
	(*n)++;
}

int sp_server_run(const struct sp_opts *o)
{
	struct pollfd pfd[SP_MAX_WAITING + 1];
	struct sp_waiting *w;
	struct sp_ctrl ctrl;
	struct sp_msg m;
	struct sp_addr a;
	char err[256], abuf[96];
	unsigned int nw = 0, i;
	int64_t now, wake, pause = 0;
	bool tested;
	int lfd, fd, ret, rc = 0;

	lfd = sp_listen(o->bind, o->port, o->family, o->mptcp, err,
			sizeof(err));
	if (lfd < 0) {
		fprintf(stderr, "stripe-perf: %s\n", err);
		return 1;
	}
	w = calloc(SP_MAX_WAITING, sizeof(*w));
	if (!w) {
		fprintf(stderr, "stripe-perf: out of memory\n");
		close(lfd);
		return 1;
	}
	if (o->verbose) {
		sp_report_verbose_host(o->json ? stderr : stdout);
		sp_log(o, "Limits: at most %u streams, %.0f s per test, %u ms per setup step\n",
		       o->max_streams, o->max_time, o->connect_ms);
	}
	sp_local_addr(lfd, &a);
	sp_log(o, "Server listening on %s%s\n",
	       sp_addr_str(&a, abuf, sizeof(abuf)), o->mptcp ? " (MPTCP)" :
							      "");
	while (!sp_interrupted) {
		now = sp_now_ns();
		wake = INT64_MAX;
		for (i = nw; i-- > 0;) {
			if (w[i].deadline <= now) {
				sp_waiting_expire(o, &w[i]);
				sp_waiting_drop(w, &nw, i, false);
			}
			else if (w[i].deadline < wake)
				wake = w[i].deadline;
		}
		if (pause > now && pause < wake)
			wake = pause;
		pfd[0].fd = now >= pause ? lfd : -1;
		pfd[0].events = POLLIN;
		for (i = 0; i < nw; i++) {
			pfd[1 + i].fd = w[i].ctrl.fd;
			pfd[1 + i].events = POLLIN;
		}
		if (poll(pfd, nw + 1, wake == INT64_MAX ? -1 :
			 (int)((wake - now) / SP_NSEC_PER_MSEC) + 1) < 0 &&
		    errno != EINTR)
			break;
		if (sp_interrupted)
			break;

		tested = false;
		for (i = nw; i-- > 0 && !tested;) {
			if (!pfd[1 + i].revents)
				continue;
			ret = sp_ctrl_try(&w[i].ctrl, &m);
			if (ret == 0)
				continue;
			if (ret < 0) {
				sp_waiting_drop(w, &nw, i, false);
				continue;
			}
			/* the first complete request runs; the rest wait no
			 * longer
			 */
			ctrl = w[i].ctrl;
			w[i] = w[--nw];
			while (nw)
				sp_waiting_drop(w, &nw, nw - 1, true);
			rc = sp_server_test(o, lfd, &ctrl, &m);
			tested = true;
		}
		if (tested) {
			if (o->one_off || sp_interrupted)
				break;
			sp_log(o, "- - - - - - - - - - - - - - - - - - - - - - - - -\n"
				  "Server listening on %s\n",
			       sp_addr_str(&a, abuf, sizeof(abuf)));
			continue;
		}
		while (pfd[0].revents & POLLIN) {
			fd = sp_accept(lfd, &pause);
			if (fd < 0)
				break;
			sp_waiting_add(w, &nw, fd, o);
		}
	}
	while (nw)
		sp_waiting_drop(w, &nw, nw - 1, false);
	free(w);
	close(lfd);
	return rc;
}
