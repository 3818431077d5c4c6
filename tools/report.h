/* SPDX-License-Identifier: GPL-2.0 */
/* Output: human text (default) and JSON (-J) from the same results. */
#ifndef SP_REPORT_H
#define SP_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "proto.h"
#include "results.h"

/* SP_VERSION comes from the top Makefile, the project's one version */
#ifndef SP_VERSION
#error "SP_VERSION: build with tools/Makefile"
#endif

struct sp_test_info {
	bool server;		/* this process */
	bool udp;
	bool mptcp;
	bool reverse;
	bool bidir;
	unsigned int streams;	/* each way with --bidir */
	double duration;
	double omit;
	double interval;
	uint32_t len;
	uint64_t rate;
	int family;
	char local[96];		/* control connection, this end */
	char remote[96];
	char local_host[64];	/* the same, split as iperf3 reports them */
	unsigned int local_port;
	char remote_host[64];
	unsigned int remote_port;
	/* iperf3's start: the control socket's MSS, -w, the first data
	 * socket's buffers when it opened, the cookie in hex
	 */
	unsigned int tcp_mss_default;
	unsigned int sock_bufsize;
	unsigned int sndbuf_actual;
	unsigned int rcvbuf_actual;
	char cookie[2 * SP_COOKIE_BYTES + 1];
	/* the data connections' ports, forward then --bidir reverse */
	unsigned int nconn;
	uint16_t conn_lport[2 * SP_MAX_STREAMS];
	uint16_t conn_rport[2 * SP_MAX_STREAMS];
};

struct sp_addr;
struct sp_params;
/* The control connection's two ends. */
void sp_info_addrs(struct sp_test_info *t, const struct sp_addr *local,
		   const struct sp_addr *peer);
/* The control socket fd: its MSS. */
void sp_info_ctrl(struct sp_test_info *t, int fd);
struct sp_sess;
/* The data connections of s, after those already noted; the first one's
 * buffer sizes too. Before the sockets close.
 */
void sp_info_streams(struct sp_test_info *t, const struct sp_sess *s);
/* The test as run: p, and the interval this end reported at. */
void sp_info_params(struct sp_test_info *t, const struct sp_params *p,
		    bool server, double interval);

/* One interval of a side, as it happens (human mode). */
void sp_report_ival(FILE *f, const struct sp_side *s, unsigned int k);
void sp_report_human(FILE *f, const struct sp_test_info *t,
		     const struct sp_side *local, const struct sp_side *remote,
		     const char *error);
void sp_report_json(FILE *f, const struct sp_test_info *t,
		    const struct sp_side *local, const struct sp_side *remote,
		    const char *error);
/* --bidir: the reverse direction's sides too (the server sends) */
void sp_report_human2(FILE *f, const struct sp_test_info *t,
		      const struct sp_side *local,
		      const struct sp_side *remote,
		      const struct sp_side *local_rev,
		      const struct sp_side *remote_rev, const char *error);
void sp_report_json2(FILE *f, const struct sp_test_info *t,
		     const struct sp_side *local, const struct sp_side *remote,
		     const struct sp_side *local_rev,
		     const struct sp_side *remote_rev, const char *error);

/* The members of -J's "end" and "summary" objects (already open), which
 * --json-stream writes as events too
 */
struct sp_json;
void sp_report_json_end(struct sp_json *j, const struct sp_test_info *t,
			const struct sp_side *local,
			const struct sp_side *remote,
			const struct sp_side *local_rev,
			const struct sp_side *remote_rev);
void sp_report_json_summary(struct sp_json *j, const struct sp_test_info *t,
			    const struct sp_side *local,
			    const struct sp_side *remote,
			    const struct sp_side *local_rev,
			    const struct sp_side *remote_rev);

/* -V: the version, the host and the time, as iperf3 -V starts */
void sp_report_verbose_host(FILE *f);
/* -V: the test's settings, as iperf3 -V's "Starting Test" line */
void sp_report_verbose_test(FILE *f, const struct sp_params *p);

#endif /* SP_REPORT_H */
