/* SPDX-License-Identifier: GPL-2.0 */
/* Command line: one struct holds every option, parsed without side effects
 * so the unit tests can drive the parser directly.
 */
#ifndef SP_FLAGS_H
#define SP_FLAGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define SP_DEFAULT_PORT		5301
#define SP_DEFAULT_TIME		10.0
#define SP_DEFAULT_INTERVAL	1.0
#define SP_DEFAULT_TCP_LEN	(128 * 1024)
/* Fits a 1500-byte MTU for IPv4 and IPv6 (1452) without fragments. */
#define SP_DEFAULT_UDP_LEN	1448
#define SP_DEFAULT_CONNECT_MS	5000
#define SP_MAX_STREAMS		128
#define SP_MAX_TIME		86400.0
/* A server's --max-time: with no authentication, anyone reaching the port
 * may hold it this long; --max-time raises it up to SP_MAX_TIME.
 */
#define SP_DEFAULT_MAX_TIME	600.0
#define SP_MAX_OMIT		600.0	/* -O, iperf3's bound */
#define SP_MAX_TCP_LEN		(1024 * 1024)
#define SP_MAX_UDP_LEN		65507
#define SP_MIN_UDP_LEN		48	/* the datagram header */
#define SP_MAX_WINDOW		(1u << 30)
#define SP_CC_NAME_MAX		15	/* TCP_CA_NAME_MAX - 1 */

enum sp_mode {
	SP_MODE_NONE,
	SP_MODE_SERVER,
	SP_MODE_CLIENT,
};

enum sp_args_result {
	SP_ARGS_OK = 0,
	SP_ARGS_HELP = 1,
	SP_ARGS_ERROR = 2,	/* also the process exit code */
	SP_ARGS_VERSION = 3,
};

struct sp_opts {
	enum sp_mode mode;
	const char *host;	/* -c */
	const char *bind;	/* -B */
	const char *stripe_dev;	/* --stripe-dev */
	unsigned int port;
	double duration;	/* seconds */
	double interval;	/* seconds, 0 = no interval reports */
	double omit;		/* -O: seconds left out of the results */
	unsigned int streams;
	uint64_t rate;		/* bit/s per stream, 0 = unlimited */
	uint32_t len;		/* write or datagram size */
	unsigned int connect_ms;
	const char *congestion;	/* -C: TCP congestion control, both ends */
	uint32_t window;	/* -w: socket buffer bytes, both ends */
	const char *logfile;	/* --logfile: output appended there */
	const char *timestamps;	/* --timestamps: strftime() line prefix */
	unsigned int max_streams;	/* server: largest -P it runs */
	double max_time;	/* server: longest -t it runs */
	int family;		/* AF_UNSPEC, AF_INET or AF_INET6 */
	bool reverse;
	bool bidir;		/* --bidir: both directions at once */
	bool json;
	bool json_stream;	/* --json-stream: -J as events, a line each */
	bool verbose;	/* -V: version, host and test settings too */
	bool udp;
	bool mptcp;
	bool one_off;
	bool len_set;
};

int sp_parse_args(int argc, char **argv, struct sp_opts *o,
		  char *err, size_t errlen);
void sp_usage(FILE *f);
int sp_parse_rate(const char *s, uint64_t *out);
int sp_parse_size(const char *s, uint64_t *out);
int sp_parse_seconds(const char *s, double *out);
/* A congestion control name as the kernel spells them: [a-z0-9_-]{1,15} */
bool sp_cc_name_ok(const char *s);

#endif /* SP_FLAGS_H */
