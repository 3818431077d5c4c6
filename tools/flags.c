// SPDX-License-Identifier: GPL-2.0
/* Command line parsing. Errors name the flag and return SP_ARGS_ERROR,
 * which main() turns into exit code 2; nothing here prints or exits.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "flags.h"

enum {
	OPT_MPTCP = 256,
	OPT_STRIPE_DEV,
	OPT_CONNECT_TIMEOUT,
	OPT_MAX_STREAMS,
	OPT_MAX_TIME,
	OPT_LOGFILE,
	OPT_TIMESTAMPS,
	OPT_BIDIR,
	OPT_JSON_STREAM,
};

static const struct option sp_long_opts[] = {
	{ "server",		no_argument,		NULL, 's' },
	{ "client",		required_argument,	NULL, 'c' },
	{ "port",		required_argument,	NULL, 'p' },
	{ "time",		required_argument,	NULL, 't' },
	{ "interval",		required_argument,	NULL, 'i' },
	{ "parallel",		required_argument,	NULL, 'P' },
	{ "reverse",		no_argument,		NULL, 'R' },
	{ "bidir",		no_argument,		NULL, OPT_BIDIR },
	{ "omit",		required_argument,	NULL, 'O' },
	{ "json",		no_argument,		NULL, 'J' },
	{ "json-stream",	no_argument,		NULL,
	  OPT_JSON_STREAM },
	{ "udp",		no_argument,		NULL, 'u' },
	{ "bitrate",		required_argument,	NULL, 'b' },
	{ "length",		required_argument,	NULL, 'l' },
	{ "bind",		required_argument,	NULL, 'B' },
	{ "one-off",		no_argument,		NULL, '1' },
	{ "version4",		no_argument,		NULL, '4' },
	{ "version6",		no_argument,		NULL, '6' },
	{ "mptcp",		no_argument,		NULL, OPT_MPTCP },
	{ "stripe-dev",		required_argument,	NULL, OPT_STRIPE_DEV },
	{ "connect-timeout",	required_argument,	NULL,
	  OPT_CONNECT_TIMEOUT },
	{ "congestion",		required_argument,	NULL, 'C' },
	{ "window",		required_argument,	NULL, 'w' },
	{ "logfile",		required_argument,	NULL, OPT_LOGFILE },
	{ "timestamps",		optional_argument,	NULL, OPT_TIMESTAMPS },
	{ "max-streams",	required_argument,	NULL, OPT_MAX_STREAMS },
	{ "max-time",		required_argument,	NULL, OPT_MAX_TIME },
	{ "help",		no_argument,		NULL, 'h' },
	{ "version",		no_argument,		NULL, 'v' },
	{ "verbose",		no_argument,		NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

static const char sp_short_opts[] = ":sc:p:t:i:P:RJub:l:B:146hvVC:w:O:";

void sp_usage(FILE *f)
{
	fprintf(f,
"Usage: stripe-perf -s [options]\n"
"       stripe-perf -c HOST [options]\n"
"\n"
"Common options:\n"
"  -p, --port PORT          control and data port (default %u)\n"
"  -i, --interval SEC       seconds between reports, 0 = none (default 1)\n"
"  -J, --json               JSON output\n"
"      --json-stream        JSON output as events, one a line as they\n"
"                           happen (iperf3 3.17's)\n"
"  -B, --bind ADDR          bind to this local address\n"
"  -4, --version4           IPv4 only\n"
"  -6, --version6           IPv6 only\n"
"      --mptcp              use IPPROTO_MPTCP sockets\n"
"      --stripe-dev NAME    print stripe qdisc counters of NAME (delta)\n"
"      --logfile FILE       append the output to FILE instead of stdout\n"
"      --timestamps[=FMT]   start every output line with the time, as\n"
"                           strftime(3) FMT (default \"%%c \")\n"
"  -V, --verbose            more detail: version, host, test settings\n"
"  -h, --help               this text\n"
"  -v, --version            print the version\n"
"Server options:\n"
"  -s, --server             run as server\n"
"  -1, --one-off            exit after one test\n"
"      --max-streams N      refuse tests of more streams (default %u)\n"
"      --max-time SEC       refuse longer tests (default %.0f, at most %.0f)\n"
"Client options:\n"
"  -c, --client HOST        run as client, connect to HOST\n"
"  -t, --time SEC           test duration (default 10)\n"
"  -P, --parallel N         parallel streams, 1..%u (default 1)\n"
"  -R, --reverse            server sends, client receives\n"
"      --bidir              both send at once, -P streams each way (at most\n"
"                           %u)\n"
"  -O, --omit SEC           leave the first SEC seconds out of the results\n"
"                           (the test runs -t after them; at most %.0f)\n"
"  -u, --udp                UDP instead of TCP\n"
"  -b, --bitrate RATE       rate per stream, k/M/G suffix, 0 = unlimited\n"
"                           (default 1M for UDP, unlimited for TCP)\n"
"  -l, --length LEN         write size (TCP, default 128K) or datagram size\n"
"                           (UDP, default: what the path MTU carries, at\n"
"                           most %u), K/M suffix\n"
"  -C, --congestion ALGO    TCP congestion control of both ends' streams\n"
"  -w, --window SIZE        socket buffer size of both ends' TCP streams,\n"
"                           K/M suffix\n"
"      --connect-timeout MS connect and setup timeout (default %u)\n",
		SP_DEFAULT_PORT, SP_MAX_STREAMS, SP_DEFAULT_MAX_TIME,
		SP_MAX_TIME, SP_MAX_STREAMS,
		SP_MAX_STREAMS / 2, SP_MAX_OMIT, SP_DEFAULT_UDP_LEN,
		SP_DEFAULT_CONNECT_MS);
}

static int sp_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return SP_ARGS_ERROR;
}

/* strtod() also takes hex floats ("0x1p3"), "inf" and signs: a number
 * here is decimal digits with an optional point, as the man page says.
 */
static bool sp_decimal(const char *s)
{
	if (!*s || (!(*s >= '0' && *s <= '9') && *s != '.'))
		return false;
	return !strpbrk(s, "xXpP");
}

/* A finite, non-negative decimal number at the start of s. */
static int sp_strtod(const char *s, double *v, char **end)
{
	if (!s || !sp_decimal(s))
		return -EINVAL;
	errno = 0;
	*v = strtod(s, end);
	if (errno || *end == s || !isfinite(*v) || *v < 0)
		return -EINVAL;
	return 0;
}

bool sp_cc_name_ok(const char *s)
{
	size_t n = strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_-");

	return n && n <= SP_CC_NAME_MAX && !s[n];
}

/* Rates are decimal like link speeds: 100M = 100,000,000 bit/s. */
int sp_parse_rate(const char *s, uint64_t *out)
{
	char *end;
	double v;

	if (sp_strtod(s, &v, &end))
		return -EINVAL;
	switch (*end) {
	case 'k': case 'K':
		v *= 1e3;
		end++;
		break;
	case 'm': case 'M':
		v *= 1e6;
		end++;
		break;
	case 'g': case 'G':
		v *= 1e9;
		end++;
		break;
	}
	if (*end || v > 1e13)
		return -EINVAL;
	*out = (uint64_t)(v + 0.5);
	return 0;
}

/* Sizes are binary like buffers: 128K = 131072 bytes. */
int sp_parse_size(const char *s, uint64_t *out)
{
	unsigned int shift = 0;
	unsigned long long v;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -EINVAL;
	switch (*end) {
	case 'k': case 'K':
		shift = 10;
		end++;
		break;
	case 'm': case 'M':
		shift = 20;
		end++;
		break;
	}
	/* check before shifting: 18014398509481985K would wrap to 1024 */
	if (*end || v > (1ULL << 32) >> shift)
		return -EINVAL;
	*out = v << shift;
	return 0;
}

int sp_parse_seconds(const char *s, double *out)
{
	char *end;
	double v;

	if (sp_strtod(s, &v, &end) || *end)
		return -EINVAL;
	*out = v;
	return 0;
}

static int sp_parse_uint(const char *s, unsigned long min, unsigned long max,
			 unsigned long *out)
{
	unsigned long v;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -EINVAL;
	*out = v;
	return 0;
}

static void sp_opts_default(struct sp_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->port = SP_DEFAULT_PORT;
	o->duration = SP_DEFAULT_TIME;
	o->interval = SP_DEFAULT_INTERVAL;
	o->streams = 1;
	o->rate = 1000000;
	o->connect_ms = SP_DEFAULT_CONNECT_MS;
	o->max_streams = SP_MAX_STREAMS;
	o->max_time = SP_DEFAULT_MAX_TIME;
	o->family = AF_UNSPEC;
}

/* Name of the option as the user typed it, for error messages. */
static const char *sp_opt_name(int c, char *buf, size_t len)
{
	const struct option *lo;

	for (lo = sp_long_opts; lo->name; lo++) {
		if (lo->val != c)
			continue;
		if (c < 256)
			snprintf(buf, len, "-%c/--%s", c, lo->name);
		else
			snprintf(buf, len, "--%s", lo->name);
		return buf;
	}
	snprintf(buf, len, "-%c", c);
	return buf;
}

/* Bits of client-only and server-only flags seen, to reject misuse. */
#define SP_SEEN(c)	(1ULL << ((c) & 63))

int sp_parse_args(int argc, char **argv, struct sp_opts *o,
		  char *err, size_t errlen)
{
	static const char client_only[] = "tPRublCwO";
	const char *server_only = NULL;
	uint64_t seen_client = 0;
	unsigned long ul;
	uint64_t u64;
	char name[40];
	const char *p;
	int c, idx;

	sp_opts_default(o);
	if (err && errlen)
		err[0] = '\0';
	optind = 0;	/* full re-initialisation, so tests may call us again */
	opterr = 0;
	for (;;) {
		idx = -1;
		c = getopt_long(argc, argv, sp_short_opts, sp_long_opts, &idx);
		if (c == -1)
			break;
		if (c > 0 && c < 128 && strchr(client_only, c))
			seen_client |= SP_SEEN(c);
		switch (c) {
		case 's':
			if (o->mode == SP_MODE_CLIENT)
				return sp_err(err, errlen,
					      "-s/--server conflicts with -c/--client");
			o->mode = SP_MODE_SERVER;
			break;
		case 'c':
			if (o->mode == SP_MODE_SERVER)
				return sp_err(err, errlen,
					      "-c/--client conflicts with -s/--server");
			if (!*optarg)
				return sp_err(err, errlen,
					      "-c/--client needs a host name");
			o->mode = SP_MODE_CLIENT;
			o->host = optarg;
			break;
		case 'p':
			if (sp_parse_uint(optarg, 0, 65535, &ul))
				return sp_err(err, errlen,
					      "-p/--port: '%s' is not a port number (0..65535)",
					      optarg);
			o->port = ul;
			break;
		case 't':
			if (sp_parse_seconds(optarg, &o->duration) ||
			    o->duration <= 0 || o->duration > SP_MAX_TIME)
				return sp_err(err, errlen,
					      "-t/--time: '%s' is not a duration in seconds (0 < t <= %.0f)",
					      optarg, SP_MAX_TIME);
			break;
		case 'i':
			if (sp_parse_seconds(optarg, &o->interval) ||
			    (o->interval > 0 && o->interval < 0.1) ||
			    o->interval > 3600)
				return sp_err(err, errlen,
					      "-i/--interval: '%s' is not 0 or 0.1..3600 seconds",
					      optarg);
			break;
		case 'P':
			if (sp_parse_uint(optarg, 1, SP_MAX_STREAMS, &ul))
				return sp_err(err, errlen,
					      "-P/--parallel: '%s' is not 1..%u",
					      optarg, SP_MAX_STREAMS);
			o->streams = ul;
			break;
		case 'R':
			o->reverse = true;
			break;
		case OPT_BIDIR:
			o->bidir = true;
			break;
		case 'O':
			if (sp_parse_seconds(optarg, &o->omit) ||
			    o->omit > SP_MAX_OMIT)
				return sp_err(err, errlen,
					      "-O/--omit: '%s' is not 0..%.0f seconds",
					      optarg, SP_MAX_OMIT);
			break;
		case 'J':
			o->json = true;
			break;
		case OPT_JSON_STREAM:
			/* as iperf3: it is -J's output, told as it happens */
			o->json = true;
			o->json_stream = true;
			break;
		case 'u':
			o->udp = true;
			break;
		case 'b':
			if (sp_parse_rate(optarg, &o->rate))
				return sp_err(err, errlen,
					      "-b/--bitrate: '%s' is not a rate (e.g. 100M, 1.5G, 0)",
					      optarg);
			break;
		case 'l':
			if (sp_parse_size(optarg, &u64) || u64 == 0)
				return sp_err(err, errlen,
					      "-l/--length: '%s' is not a size (e.g. 1448, 128K)",
					      optarg);
			o->len = u64 > UINT32_MAX ? UINT32_MAX : (uint32_t)u64;
			o->len_set = true;
			break;
		case 'B':
			if (!*optarg)
				return sp_err(err, errlen,
					      "-B/--bind needs an address");
			o->bind = optarg;
			break;
		case '1':
			o->one_off = true;
			break;
		case '4':
			o->family = AF_INET;
			break;
		case '6':
			o->family = AF_INET6;
			break;
		case OPT_MPTCP:
			o->mptcp = true;
			break;
		case OPT_STRIPE_DEV:
			if (!*optarg || strlen(optarg) >= IF_NAMESIZE ||
			    strchr(optarg, '/') || strchr(optarg, ' '))
				return sp_err(err, errlen,
					      "--stripe-dev: '%s' is not an interface name",
					      optarg);
			o->stripe_dev = optarg;
			break;
		case OPT_CONNECT_TIMEOUT:
			if (sp_parse_uint(optarg, 1, 600000, &ul))
				return sp_err(err, errlen,
					      "--connect-timeout: '%s' is not 1..600000 ms",
					      optarg);
			o->connect_ms = ul;
			break;
		case 'C':
			if (!sp_cc_name_ok(optarg))
				return sp_err(err, errlen,
					      "-C/--congestion: '%s' is not a congestion control name",
					      optarg);
			o->congestion = optarg;
			break;
		case 'w':
			if (sp_parse_size(optarg, &u64) || !u64 ||
			    u64 > SP_MAX_WINDOW)
				return sp_err(err, errlen,
					      "-w/--window: '%s' is not a size up to 1G",
					      optarg);
			o->window = (uint32_t)u64;
			break;
		case OPT_LOGFILE:
			if (!*optarg)
				return sp_err(err, errlen,
					      "--logfile needs a file name");
			o->logfile = optarg;
			break;
		case OPT_TIMESTAMPS:
			o->timestamps = optarg && *optarg ? optarg : "%c ";
			break;
		case OPT_MAX_STREAMS:
			if (sp_parse_uint(optarg, 1, SP_MAX_STREAMS, &ul))
				return sp_err(err, errlen,
					      "--max-streams: '%s' is not 1..%u",
					      optarg, SP_MAX_STREAMS);
			o->max_streams = ul;
			server_only = "--max-streams";
			break;
		case OPT_MAX_TIME:
			if (sp_parse_seconds(optarg, &o->max_time) ||
			    o->max_time <= 0 || o->max_time > SP_MAX_TIME)
				return sp_err(err, errlen,
					      "--max-time: '%s' is not 0 < t <= %.0f seconds",
					      optarg, SP_MAX_TIME);
			server_only = "--max-time";
			break;
		case 'h':
			return SP_ARGS_HELP;
		case 'v':
			return SP_ARGS_VERSION;
		case 'V':
			o->verbose = true;
			break;
		case ':':
			if (optopt)
				return sp_err(err, errlen,
					      "option %s needs an argument",
					      sp_opt_name(optopt, name,
							  sizeof(name)));
			return sp_err(err, errlen,
				      "option '%s' needs an argument",
				      argv[optind - 1]);
		case '?':
		default:
			if (optopt && optopt != '?')
				return sp_err(err, errlen,
					      "unknown option '-%c'", optopt);
			return sp_err(err, errlen, "unknown option '%s'",
				      argv[optind - 1]);
		}
	}
	if (optind < argc)
		return sp_err(err, errlen, "unexpected argument '%s'",
			      argv[optind]);
	if (o->mode == SP_MODE_NONE)
		return sp_err(err, errlen,
			      "one of -s/--server or -c/--client is required");

	if (o->mode == SP_MODE_SERVER) {
		for (p = client_only; *p; p++)
			if (seen_client & SP_SEEN(*p))
				return sp_err(err, errlen,
					      "option %s is a client option (-c), the server takes it from the client",
					      sp_opt_name(*p, name,
							  sizeof(name)));
		if (o->bidir)
			return sp_err(err, errlen,
				      "option --bidir is a client option (-c), the server takes it from the client");
	} else {
		if (o->one_off)
			return sp_err(err, errlen,
				      "option -1/--one-off is a server option (-s)");
		if (o->bidir && o->reverse)
			return sp_err(err, errlen,
				      "--bidir conflicts with -R/--reverse");
		/* both directions' connections count against the server's
		 * stream limit
		 */
		if (o->bidir && o->streams > SP_MAX_STREAMS / 2)
			return sp_err(err, errlen,
				      "-P/--parallel: --bidir runs 1..%u streams each way",
				      SP_MAX_STREAMS / 2);
		if (server_only)
			return sp_err(err, errlen,
				      "option %s is a server option (-s)",
				      server_only);
		if (o->port == 0)
			return sp_err(err, errlen,
				      "-p/--port: a client needs a port 1..65535");
		if (o->udp && o->mptcp)
			return sp_err(err, errlen,
				      "--mptcp cannot be combined with -u/--udp");
		if (o->udp && (o->congestion || o->window))
			return sp_err(err, errlen,
				      "-C/--congestion and -w/--window apply to TCP only");
		/* TCP, as iperf3: unlimited unless -b paces it */
		if (!o->udp && !(seen_client & SP_SEEN('b')))
			o->rate = 0;
		if (!o->len_set)
			o->len = o->udp ? SP_DEFAULT_UDP_LEN :
					  SP_DEFAULT_TCP_LEN;
		if (o->udp && (o->len < SP_MIN_UDP_LEN ||
			       o->len > SP_MAX_UDP_LEN))
			return sp_err(err, errlen,
				      "-l/--length: a datagram is %u..%u bytes",
				      SP_MIN_UDP_LEN, SP_MAX_UDP_LEN);
		if (!o->udp && o->len > SP_MAX_TCP_LEN)
			return sp_err(err, errlen,
				      "-l/--length: a TCP write is at most %u bytes",
				      SP_MAX_TCP_LEN);
	}
	return SP_ARGS_OK;
}
