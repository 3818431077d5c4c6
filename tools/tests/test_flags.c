// SPDX-License-Identifier: GPL-2.0
/* Flag parsing: good command lines parse, bad ones return exit code 2 with
 * a message naming the flag.
 */
#include <string.h>
#include <sys/socket.h>

#include "../flags.h"
#include "tap.h"

#define ARGV(...)	((char *[]){ "stripe-perf", __VA_ARGS__, NULL })
#define ARGC(v)		((int)(sizeof(v) / sizeof(v[0])) - 1)

static int parse(int argc, char **argv, struct sp_opts *o, char *err)
{
	return sp_parse_args(argc, argv, o, err, 256);
}

#define BAD(flag, ...)							\
	do {								\
		char *v_[] = { "stripe-perf", __VA_ARGS__, NULL };	\
		int r_ = parse(ARGC(v_), v_, &o, err);			\
		ok(r_ == 2 && strstr(err, flag),			\
		   "bad: %-28s -> 2, \"%s\"", #__VA_ARGS__, err);	\
	} while (0)

void test_flags(void)
{
	struct sp_opts o;
	char err[256];
	double secs;
	uint64_t v;

	{
		char *v_[] = { "stripe-perf", "-c", "::1", "-p", "6000",
			       "-t", "2.5", "-i", "0.5", "-P", "4", "-R", "-J",
			       "-u", "-b", "1.5G", "-l", "1400", "-6",
			       "--stripe-dev", "stripe0", "-B", "::1", NULL };

		ok(parse(ARGC(v_), v_, &o, err) == 0 &&
		   o.mode == SP_MODE_CLIENT && !strcmp(o.host, "::1") &&
		   o.port == 6000 && o.duration == 2.5 &&
		   o.interval == 0.5 && o.streams == 4 && o.reverse &&
		   o.json && o.udp && o.rate == 1500000000ULL &&
		   o.len == 1400 && o.family == AF_INET6 &&
		   !strcmp(o.stripe_dev, "stripe0") &&
		   !strcmp(o.bind, "::1"), "full client command line");
	}
	{
		/* iperf3 3.17: --json-stream is JSON output, as events */
		char *v1[] = { "stripe-perf", "-c", "h", "--json-stream",
			       NULL };
		char *v2[] = { "stripe-perf", "-s", "--json-stream", NULL };
		char *v3[] = { "stripe-perf", "-c", "h", "-J", NULL };

		ok(parse(ARGC(v1), v1, &o, err) == 0 && o.json &&
		   o.json_stream && parse(ARGC(v2), v2, &o, err) == 0 &&
		   o.mode == SP_MODE_SERVER && o.json && o.json_stream &&
		   parse(ARGC(v3), v3, &o, err) == 0 && o.json &&
		   !o.json_stream,
		   "--json-stream: client and server, implies -J; -J alone is not");
	}
	{
		char *v_[] = { "stripe-perf", "-c", "h", NULL };

		ok(parse(ARGC(v_), v_, &o, err) == 0 && o.port == 5301 &&
		   o.duration == 10 && o.streams == 1 && !o.udp &&
		   o.len == 128 * 1024 && o.rate == 0,
		   "client defaults (TCP unpaced)");
	}
	{
		/* review U6: iperf3 paces TCP with -b */
		char *v_[] = { "stripe-perf", "-c", "h", "-b", "100M", NULL };

		ok(parse(ARGC(v_), v_, &o, err) == 0 && !o.udp &&
		   o.rate == 100000000ULL, "-b 100M for TCP [%s]", err);
	}
	{
		char *v_[] = { "stripe-perf", "-c", "h", "-u", NULL };

		ok(parse(ARGC(v_), v_, &o, err) == 0 && o.len == 1448 &&
		   o.rate == 1000000, "UDP defaults: 1448 bytes, 1 Mbit/s");
	}
	{
		char *v_[] = { "stripe-perf", "--server", "-1", "-p", "0",
			       "--mptcp", "-J", "-4", NULL };

		ok(parse(ARGC(v_), v_, &o, err) == 0 &&
		   o.mode == SP_MODE_SERVER && o.one_off && o.port == 0 &&
		   o.mptcp && o.json && o.family == AF_INET,
		   "server command line");
		/* review U6: nobody holds an open server a day by default */
		ok(o.max_time == 600, "server --max-time default: 600 s");
	}
	{
		char *v_[] = { "stripe-perf", "-s", "--max-time", "86400",
			       NULL };

		ok(parse(ARGC(v_), v_, &o, err) == 0 && o.max_time == 86400,
		   "--max-time raises the bound up to 86400 s");
	}
	BAD("--max-time", "-s", "--max-time", "86401");
	{
		char *v_[] = { "stripe-perf", "-h", NULL };

		ok(parse(ARGC(v_), v_, &o, err) == SP_ARGS_HELP, "-h is help");
	}
	{
		/* review U6: iperf3's -v is the version, -V verbose */
		char *v1[] = { "stripe-perf", "-v", NULL };
		char *v2[] = { "stripe-perf", "--version", NULL };
		char *v3[] = { "stripe-perf", "-c", "h", "-V", NULL };
		char *v4[] = { "stripe-perf", "-s", "--verbose", NULL };

		ok(parse(ARGC(v1), v1, &o, err) == SP_ARGS_VERSION &&
		   parse(ARGC(v2), v2, &o, err) == SP_ARGS_VERSION,
		   "-v and --version are the version");
		ok(parse(ARGC(v3), v3, &o, err) == 0 && o.verbose &&
		   parse(ARGC(v4), v4, &o, err) == 0 && o.verbose,
		   "-V and --verbose are verbose, client and server");
	}
	{
		/* issue 15: iperf3's -O and --bidir */
		char *v_[] = { "stripe-perf", "-c", "h", "-O", "2.5",
			       "--bidir", "-P", "64", NULL };

		ok(parse(ARGC(v_), v_, &o, err) == 0 && o.omit == 2.5 &&
		   o.bidir && o.streams == 64 && !o.reverse,
		   "-O 2.5 --bidir -P 64");
	}
	{
		char *v_[] = { "stripe-perf", "-c", "h", "--omit", "0", NULL };

		ok(parse(ARGC(v_), v_, &o, err) == 0 && o.omit == 0 &&
		   !o.bidir, "--omit 0: nothing omitted");
	}
	BAD("--bidir", "-c", "h", "--bidir", "-R");
	BAD("-P", "-c", "h", "--bidir", "-P", "65");
	BAD("-O", "-c", "h", "-O", "601");
	BAD("-O", "-c", "h", "-O", "-1");
	BAD("-O", "-c", "h", "-O", "0x2");
	BAD("-O", "-s", "-O", "1");
	BAD("--bidir", "-s", "--bidir");
	BAD("-x", "-c", "h", "-x");
	BAD("--bogus", "-c", "h", "--bogus");
	BAD("-c", "-c");
	BAD("-t", "-c", "h", "-t", "abc");
	BAD("-t", "-c", "h", "-t", "0");
	BAD("-t", "-c", "h", "-t", "-3");
	BAD("-P", "-c", "h", "-P", "0");
	BAD("-P", "-c", "h", "-P", "129");
	BAD("-p", "-c", "h", "-p", "65536");
	BAD("-p", "-c", "h", "-p", "0");
	BAD("-i", "-c", "h", "-i", "0.01");
	BAD("-b", "-c", "h", "-u", "-b", "10X");
	BAD("-b", "-s", "-b", "100M");
	BAD("-l", "-c", "h", "-u", "-l", "70000");
	BAD("-l", "-c", "h", "-u", "-l", "8");
	BAD("-l", "-c", "h", "-l", "abc");
	BAD("--mptcp", "-c", "h", "-u", "--mptcp");
	BAD("--stripe-dev", "-c", "h", "--stripe-dev",
	    "a-very-long-interface-name");
	BAD("-t", "-s", "-t", "5");
	BAD("-R", "-s", "-R");
	BAD("-1", "-c", "h", "-1");
	BAD("-s", "-s", "-c", "h");
	BAD("-s", "-p", "5");
	BAD("stray", "-c", "h", "stray");
	BAD("--connect-timeout", "-c", "h", "--connect-timeout", "0");
	/* review U6: what no range check catches (NaN compares false) */
	BAD("-i", "-c", "h", "-i", "nan");
	BAD("-i", "-c", "h", "-i", "inf");
	BAD("-i", "-c", "h", "-i", "-1");
	BAD("-i", "-c", "h", "-i", "1e999");
	BAD("-t", "-c", "h", "-t", "nan");
	BAD("-t", "-c", "h", "-t", "inf");
	BAD("-O", "-c", "h", "-O", "nan");
	BAD("-b", "-c", "h", "-u", "-b", "nan");
	BAD("--max-time", "-s", "--max-time", "nan");
	BAD("--max-time", "-s", "--max-time", "inf");
	BAD("--max-time", "-s", "--max-time", "-5");

	ok(sp_parse_rate("100M", &v) == 0 && v == 100000000ULL &&
	   sp_parse_rate("2k", &v) == 0 && v == 2000 &&
	   sp_parse_rate("0", &v) == 0 && v == 0 &&
	   sp_parse_rate("1.5g", &v) == 0 && v == 1500000000ULL,
	   "rates: 100M, 2k, 0, 1.5g");
	ok(sp_parse_rate("", &v) && sp_parse_rate("-1M", &v) &&
	   sp_parse_rate("1MM", &v) && sp_parse_rate("nan", &v),
	   "bad rates rejected");
	ok(sp_parse_size("128K", &v) == 0 && v == 131072 &&
	   sp_parse_size("1M", &v) == 0 && v == 1048576 &&
	   sp_parse_size("1.5K", &v) && sp_parse_size("-1", &v),
	   "sizes: 128K, 1M; 1.5K and -1 rejected");
	/* issue 15, defect 6 */
	v = 0;
	ok(sp_parse_size("18014398509481985K", &v) &&
	   sp_parse_size("17592186044417M", &v) &&
	   sp_parse_size("4194305K", &v) &&
	   sp_parse_size("4194304K", &v) == 0 && v == 1ULL << 32,
	   "a size whose suffix overflows is rejected, not wrapped");
	ok(sp_parse_rate("0x1p20", &v) && sp_parse_seconds("0x10", &secs) &&
	   sp_parse_rate("infM", &v),
	   "hex floats and infinities are not rates or durations");
	ok(sp_cc_name_ok("cubic") && sp_cc_name_ok("bbr") &&
	   !sp_cc_name_ok("") && !sp_cc_name_ok("cu bic") &&
	   !sp_cc_name_ok("a/b") && !sp_cc_name_ok("abcdefghijklmnop"),
	   "congestion control names: [a-z0-9_-]{1,15}");
}
