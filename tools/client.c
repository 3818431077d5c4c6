// SPDX-License-Identifier: GPL-2.0
/* Client: connects, states the test, opens the data streams, runs its side
 * and prints both sides' results. Every step has a deadline derived from
 * --connect-timeout, so an unreachable or dead server ends the run.
 */
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
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

#define SP_RESULTS_WAIT_S	10

static void sp_client_ival(struct sp_sess *s, unsigned int k)
{
	sp_report_ival(stdout, &s->res, k);
}

static void sp_client_jival(struct sp_sess *s, unsigned int k)
{
	sp_jstream_ival(s->report, &s->res, k);
}

static int sp_expect(struct sp_ctrl *c, const char *verb, struct sp_msg *m,
		     int64_t deadline, char *err, size_t errlen)
{
	int ret = sp_ctrl_recv(c, m, deadline);

	if (ret) {
		snprintf(err, errlen, "waiting for %s from the server: %s",
			 verb,
			 ret == -ETIMEDOUT ? "timed out" :
			 ret == -ECONNRESET ? "connection closed by server" :
					      strerror(-ret));
		return -1;
	}
	if (!strcmp(m->verb, "ERROR")) {
		snprintf(err, errlen, "server refused the test: %s",
			 sp_msg_get(m, "msg") ?: "no reason given");
		sp_msg_free(m);
		return -1;
	}
	if (strcmp(m->verb, verb)) {
		snprintf(err, errlen, "expected %s from the server, got %s",
			 verb, m->verb);
		sp_msg_free(m);
		return -1;
	}
	return 0;
}

/* Open the data path of one direction the server agreed to. */
static int sp_client_streams(struct sp_sess *s, const struct sp_opts *o,
			     const struct sp_params *p,
			     const struct sp_addr *peer,
			     const struct sp_addr *local, unsigned int port,
			     char *err, size_t errlen)
{
	struct sp_addr from = *local, to = *peer;
	uint8_t greet[SP_GREET_LEN];
	unsigned int i;
	int fd;

	sp_addr_set_port(&from, 0);
	if (s->udp) {
		if (!s->sender)
			return 0;	/* bound before PARAMS */
		sp_addr_set_port(&to, port);
		for (i = 0; i < s->nstreams; i++) {
			fd = sp_connect_addr(&to, SOCK_DGRAM, 0, &from,
					     o->connect_ms, err, errlen);
			if (fd < 0)
				return -1;
			s->st[i].fd = fd;
		}
		return 0;
	}
	for (i = 0; i < s->nstreams; i++) {
		fd = sp_connect_addr(&to, SOCK_STREAM,
				     o->mptcp ? IPPROTO_MPTCP : IPPROTO_TCP,
				     o->bind ? &from : NULL, o->connect_ms,
				     err, errlen);
		if (fd < 0)
			return -1;
		s->st[i].fd = fd;
		if (sp_tune_tcp(fd, p->congestion, p->window, err, errlen))
			return -1;
		sp_greeting_build(greet, p->cookie, s->id_base + i);
		/* a fresh socket always has room for 24 bytes */
		if (send(fd, greet, sizeof(greet), MSG_NOSIGNAL) !=
		    (ssize_t)sizeof(greet)) {
			snprintf(err, errlen, "stream %u: greeting: %s",
				 s->id_base + i, strerror(errno));
			return -1;
		}
	}
	return 0;
}

static void sp_client_connected(const struct sp_sess *s,
				const struct sp_opts *o)
{
	struct sp_addr a, b;
	char la[96], ra[96];
	unsigned int i;

	if (o->json)
		return;
	for (i = 0; i < s->nstreams; i++) {
		int fd = s->udp && !s->sender ? s->udp_fd : s->st[i].fd;

		if (fd < 0 || sp_local_addr(fd, &a))
			continue;
		if (sp_peer_addr(fd, &b))
			printf("[%3u] local %s, receiving\n", s->id_base + i,
			       sp_addr_str(&a, la, sizeof(la)));
		else
			printf("[%3u] local %s connected to %s\n",
			       s->id_base + i,
			       sp_addr_str(&a, la, sizeof(la)),
			       sp_addr_str(&b, ra, sizeof(ra)));
	}
	fflush(stdout);
}

/* The test as the flags ask for it, on the connected control socket fd. */
static int sp_client_params(const struct sp_opts *o, int fd,
			    const struct sp_addr *peer, struct sp_params *p,
			    char *err, size_t errlen)
{
	p->version = SP_PROTO_VER;
	p->udp = o->udp;
	p->mptcp = o->mptcp;
	p->reverse = o->reverse;
	p->bidir = o->bidir;
	p->streams = o->streams;
	p->duration = o->duration;
	p->omit = o->omit;
	p->interval = o->interval;
	p->len = o->len;
	/* like iperf3 with the control connection's MSS: no datagram larger
	 * than the path takes (a reorder-on master's 1476 leaves IPv6 1428)
	 */
	if (o->udp && !o->len_set) {
		unsigned int fit = sp_udp_len_for_mtu(sp_path_mtu(fd), peer,
						      SP_DEFAULT_UDP_LEN);

		if (fit >= SP_MIN_UDP_LEN)
			p->len = fit;
	}
	p->rate = o->rate;
	if (o->congestion)
		snprintf(p->congestion, sizeof(p->congestion), "%s",
			 o->congestion);
	p->window = o->window;
	if (getrandom(p->cookie, sizeof(p->cookie), 0) != sizeof(p->cookie)) {
		snprintf(err, errlen, "getrandom: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* The server's RESULTS for one direction: 1 if side holds them. */
static int sp_client_remote(struct sp_ctrl *c, bool failed,
			    struct sp_side *side, char *err, size_t errlen)
{
	int64_t deadline = sp_now_ns() + (failed ? 2 : SP_RESULTS_WAIT_S) *
					 SP_NSEC_PER_SEC;
	struct sp_msg m;
	int ok;

	if (sp_expect(c, "RESULTS", &m, deadline, err, errlen))
		return 0;
	ok = sp_side_get(&m, side) == 0;
	sp_msg_free(&m);
	return ok;
}

/* The directions of the test: s, and for --bidir s2 (the server sends),
 * whose intervals go to ival (NULL: none) with report. UDP receivers
 * bind before PARAMS, which carries their port.
 */
static int sp_client_sessions(struct sp_sess *s, struct sp_sess *s2,
			      struct sp_params *p, struct sp_ctrl *ctrl,
			      struct sp_addr *local,
			      const struct sp_addr *peer, sp_ival_fn ival,
			      void *report, char *err, size_t errlen)
{
	struct sp_params rp = *p;
	struct sp_sess *rcv;

	sp_sess_setup(s, p, false, ctrl, local, peer);
	rcv = s->sender ? NULL : s;
	if (p->bidir) {
		rp.reverse = true;
		sp_sess_setup(s2, &rp, false, ctrl, local, peer);
		rcv = s2;
	}
	s->on_interval = ival;
	s2->on_interval = ival;
	s->report = report;
	s2->report = report;
	if (!rcv || !rcv->udp)
		return 0;
	rcv->udp_fd = sp_udp_bind_like(local, err, errlen);
	if (rcv->udp_fd < 0)
		return -1;
	if (sp_local_addr(rcv->udp_fd, local) == 0)
		p->udp_port = sp_addr_port(local);
	sp_local_addr(ctrl->fd, local);
	return 0;
}

int sp_client_run(const struct sp_opts *o)
{
	struct sp_test_info info = { 0 };
	struct sp_xstats *before = NULL;
	struct sp_jstream *js = NULL;
	struct sp_side *remote = NULL;
	struct sp_addr peer, local;
	struct sp_sess *s = NULL, *s2 = NULL;
	struct sp_params p = { 0 };
	struct sp_ctrl ctrl;
	struct sp_msg m;
	struct sp_buf b;
	char err[256] = "", rerr[256] = "", smsg[160] = "";
	bool have_remote = false, stripe_ok = false;
	sp_ival_fn ival = o->json ? NULL : sp_client_ival;
	uint64_t port = 0;
	int64_t deadline;
	int fd, one = 1, rc = 1, run;

	sp_ctrl_init(&ctrl, -1);
	sp_buf_init(&b);
	s = calloc(2, sizeof(*s));
	remote = calloc(2, sizeof(*remote));
	before = calloc(1, sizeof(*before));
	if (o->json_stream) {
		js = calloc(1, sizeof(*js));
		ival = sp_client_jival;
	}
	if (!s || !remote || !before || (o->json_stream && !js)) {
		fprintf(stderr, "stripe-perf: out of memory\n");
		goto out;
	}
	if (js)
		sp_jstream_init(js, stdout);
	s2 = &s[1];
	sp_sess_init(s);
	sp_sess_init(s2);

	/* -V with -J: stdout stays one JSON document */
	if (o->verbose)
		sp_report_verbose_host(o->json ? stderr : stdout);
	if (!o->json)
		printf("Connecting to host %s, port %u\n", o->host, o->port);
	fflush(stdout);
	fd = sp_connect_host(o->host, o->port, o->family, o->bind, false,
			     (int)o->connect_ms, &peer, err, sizeof(err));
	if (fd < 0)
		goto out;
	ctrl.fd = fd;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	sp_local_addr(fd, &local);
	sp_info_addrs(&info, &local, &peer);
	sp_info_ctrl(&info, fd);

	if (sp_client_params(o, fd, &peer, &p, err, sizeof(err)) ||
	    sp_client_sessions(s, s2, &p, &ctrl, &local, &peer, ival, js, err,
			       sizeof(err)))
		goto out;

	sp_params_put(&p, &b);
	deadline = sp_now_ns() + o->connect_ms * SP_NSEC_PER_MSEC;
	run = sp_ctrl_send(&ctrl, &b, deadline);
	if (run) {
		snprintf(err, sizeof(err), "sending the test parameters: %s",
			 strerror(-run));
		goto out;
	}
	if (sp_expect(&ctrl, "ACCEPT", &m, deadline, err, sizeof(err)))
		goto out;
	sp_msg_u64(&m, "udp_port", &port);
	run = sp_accept_check(&m, &p, err, sizeof(err));
	sp_msg_free(&m);
	if (run)
		goto out;
	if (s->udp && s->sender && (!port || port > 65535)) {
		snprintf(err, sizeof(err), "server sent no UDP port");
		goto out;
	}
	if (sp_client_streams(s, o, &p, &peer, &local, (unsigned int)port,
			      err, sizeof(err)) ||
	    (p.bidir && sp_client_streams(s2, o, &p, &peer, &local, 0, err,
					  sizeof(err))))
		goto out;
	sp_info_streams(&info, s);
	if (p.bidir)
		sp_info_streams(&info, s2);
	sp_info_params(&info, &p, false, o->interval);
	deadline = sp_now_ns() + o->connect_ms * SP_NSEC_PER_MSEC;
	if (sp_expect(&ctrl, "START", &m, deadline, err, sizeof(err)))
		goto out;
	sp_msg_free(&m);

	if (o->stripe_dev)
		sp_stripe_begin(o->stripe_dev, before, &stripe_ok, smsg,
				sizeof(smsg), false);
	if (o->verbose)
		sp_report_verbose_test(o->json ? stderr : stdout, &p);
	sp_client_connected(s, o);
	if (p.bidir)
		sp_client_connected(s2, o);
	if (js)
		sp_jstream_start(js, &info, &s->res, p.bidir ? &s2->res : NULL);
	run = sp_sess_run2(s, p.bidir ? s2 : NULL);
	if (run)
		snprintf(err, sizeof(err), "%s", s->err);
	else if (s->err[0] || s2->err[0])
		fprintf(stderr, "stripe-perf: warning: %s\n",
			s->err[0] ? s->err : s2->err);
	if (o->stripe_dev)
		sp_stripe_end(o->stripe_dev, before, stripe_ok, smsg, &s->res,
			      false);

	/* the server's side, unless the control channel is gone; after a
	 * failure tell the server, so it stops and reports at once
	 */
	if (run && !strstr(err, "control connection"))
		sp_send_error(&ctrl, err);
	if (!run || !strstr(err, "control connection")) {
		have_remote = sp_client_remote(&ctrl, run, &remote[0], rerr,
					       sizeof(rerr));
		if (have_remote && p.bidir)
			have_remote = sp_client_remote(&ctrl, run, &remote[1],
						       rerr, sizeof(rerr));
	}
	if (!run && !have_remote)
		snprintf(err, sizeof(err), "%s",
			 rerr[0] ? rerr : "no results from the server");
	rc = !run && have_remote ? 0 : 1;
	remote[0].bidir = p.bidir;
	remote[1].bidir = p.bidir;

	if (js)
		sp_jstream_end(js, &info, &s->res,
			       have_remote ? &remote[0] : NULL,
			       p.bidir ? &s2->res : NULL,
			       have_remote && p.bidir ? &remote[1] : NULL,
			       err);
	else if (o->json)
		sp_report_json2(stdout, &info, &s->res,
				have_remote ? &remote[0] : NULL,
				p.bidir ? &s2->res : NULL,
				have_remote && p.bidir ? &remote[1] : NULL,
				err);
	else
		sp_report_human2(stdout, &info, &s->res,
				 have_remote ? &remote[0] : NULL,
				 p.bidir ? &s2->res : NULL,
				 have_remote && p.bidir ? &remote[1] : NULL,
				 NULL);
out:
	if (rc && err[0])
		fprintf(stderr, "stripe-perf: %s\n", err);
	/* iperf3's readers wait for the end: a failed setup has one too */
	if (js)
		sp_jstream_fail(js, err);
	sp_buf_free(&b);
	sp_ctrl_close(&ctrl);
	if (s) {
		sp_sess_free(s);
		sp_sess_free(s2);
	}
	if (remote) {
		sp_side_free(&remote[0]);
		sp_side_free(&remote[1]);
	}
	free(s);
	free(remote);
	free(before);
	free(js);
	return rc;
}
