// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of the ip plugin's option parsing: every option encodes as
 * the uapi header says, and every bad value fails with a message that
 * names the option.  TAP output.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/stripe.h>

#include "parse.h"

static int n, failed;

static void result(int ok, const char *desc, const char *detail)
{
	n++;
	printf("%sok %d - %s\n", ok ? "" : "not ", n, desc);
	if (!ok) {
		failed++;
		printf("#   %s\n", detail);
	}
}

/* Parse one "name value" pair; expect attr/width/val or an error with msg */
static void check(int slave, const char *name, const char *value,
		  int attr, int width, __u32 val, const char *msg)
{
	char *argv[] = { (char *)name, (char *)value };
	struct stripe_ip_attr a[4];
	char desc[128], buf[512] = "", detail[640];
	FILE *err = fmemopen(buf, sizeof(buf) - 1, "w");
	int cnt;

	cnt = stripe_ip_parse(slave ? stripe_ip_slave_opts : stripe_ip_master_opts,
			      slave ? stripe_ip_slave_nopts : stripe_ip_master_nopts,
			      value ? 2 : 1, argv, a, 4, err);
	fclose(err);
	snprintf(desc, sizeof(desc), "%s %s %s", slave ? "stripe_slave" : "stripe",
		 name, value ? value : "(none)");
	if (msg) {
		snprintf(detail, sizeof(detail), "got %d, message \"%s\", expected \"%s\"",
			 cnt, buf, msg);
		result(cnt < 0 && strstr(buf, msg), desc, detail);
		return;
	}
	snprintf(detail, sizeof(detail), "got %d attrs (%d/%d/%u) \"%s\"", cnt,
		 cnt > 0 ? a[0].attr : -1, cnt > 0 ? a[0].width : -1,
		 cnt > 0 ? a[0].val : 0, buf);
	result(cnt == 1 && a[0].attr == attr && a[0].width == width &&
	       a[0].val == val, desc, detail);
}

/* Parse the NULL-terminated words: with @msg, expect a failure saying
 * it; else expect @want attributes
 */
static void check_line(int slave, const char *msg, int want, ...)
{
	struct stripe_ip_attr a[16];
	char *argv[16];
	char desc[256], buf[512] = "", detail[640];
	FILE *err = fmemopen(buf, sizeof(buf) - 1, "w");
	int argc = 0, cnt;
	va_list ap;

	snprintf(desc, sizeof(desc), "%s", slave ? "stripe_slave" : "stripe");
	va_start(ap, want);
	while (argc < 16 && (argv[argc] = va_arg(ap, char *))) {
		strncat(desc, " ", sizeof(desc) - strlen(desc) - 1);
		strncat(desc, argv[argc], sizeof(desc) - strlen(desc) - 1);
		argc++;
	}
	va_end(ap);
	cnt = stripe_ip_parse(slave ? stripe_ip_slave_opts : stripe_ip_master_opts,
			      slave ? stripe_ip_slave_nopts : stripe_ip_master_nopts,
			      argc, argv, a, 16, err);
	fclose(err);
	snprintf(detail, sizeof(detail), "got %d, message \"%s\", expected %s",
		 cnt, buf, msg ? msg : "no error");
	if (msg)
		result(cnt < 0 && strstr(buf, msg), desc, detail);
	else
		result(cnt == want, desc, detail);
}

/* Every option of @opts given twice, with a value it takes, is refused */
static void check_every_twice(int slave, const struct stripe_opt *opts,
			      size_t nopts)
{
	size_t i;

	for (i = 0; i < nopts; i++) {
		char msg[64], num[16];
		const char *val;

		switch (opts[i].arg) {
		case STRIPE_ARG_ONOFF:
			val = "on";
			break;
		case STRIPE_ARG_ADDR:
			val = "192.0.2.1";
			break;
		case STRIPE_ARG_TIME:
			val = "1s";
			break;
		default:
			snprintf(num, sizeof(num), "%u", opts[i].min);
			val = num;
		}
		snprintf(msg, sizeof(msg), "duplicate \"%s\"", opts[i].name);
		check_line(slave, msg, 0, opts[i].name, val, opts[i].name, val,
			   NULL);
	}
}

int main(void)
{
	check(0, "reorder", "on", IFLA_STRIPE_REORDER, 1, 1, NULL);
	check(0, "reorder", "off", IFLA_STRIPE_REORDER, 1, 0, NULL);
	check(0, "reorder", "yes", 0, 0, 0, "invalid reorder \"yes\": expected \"on\" or \"off\"");
	check(0, "hold-max", "5ms", IFLA_STRIPE_HOLD_MAX_US, 4, 5000, NULL);
	/* addresses: val holds the first 4 bytes as sent (network order) */
	check(0, "probe-target", "1.2.3.4", IFLA_STRIPE_PROBE_TARGET, 4,
	      htonl(0x01020304), NULL);
	check(0, "probe-target", "2001:db8::1", IFLA_STRIPE_PROBE_TARGET6, 16,
	      htonl(0x20010db8), NULL);
	check(0, "probe-target", "1.2.3", 0, 0, 0,
	      "invalid probe-target \"1.2.3\": expected an IPv4 or IPv6 address");
	check(0, "probe-interval", "100ms", IFLA_STRIPE_PROBE_INTERVAL_US, 4,
	      100000, NULL);
	check(0, "probe-interval", "5ms", 0, 0, 0,
	      "invalid probe-interval \"5ms\": must be 10000..60000000 us");
	check(0, "hold-max", "0.001s", IFLA_STRIPE_HOLD_MAX_US, 4, 1000, NULL);
	check(0, "hold-max", "250", IFLA_STRIPE_HOLD_MAX_US, 4, 250, NULL);
	check(0, "hold-max", "2s", 0, 0, 0, "invalid hold-max \"2s\": must be 1..1000000 us");
	check(0, "hold-max", "0", 0, 0, 0, "must be 1..1000000 us");
	check(0, "hold-max", "5 parsecs", 0, 0, 0, "expected a time");
	/* tc's units and rules too (../plugin-common/stripe_plugin.c) */
	check(0, "hold-max", "2msecs", IFLA_STRIPE_HOLD_MAX_US, 4, 2000, NULL);
	check(0, "hold-max", "0x1p3ms", 0, 0, 0, "expected a time");
	check(0, "hold-max", "0.4us", 0, 0, 0, "must be 1..1000000 us");
	check(0, "hold-auto", "on", IFLA_STRIPE_HOLD_AUTO, 1, 1, NULL);
	check(0, "quantum", "1514", IFLA_STRIPE_QUANTUM, 4, 1514, NULL);
	check(0, "quantum", "100", 0, 0, 0, "invalid quantum \"100\": must be 256..1048576");
	check(0, "quantum", "-1", 0, 0, 0, "expected a number");
	check(0, "quantum", "0x200", 0, 0, 0, "expected a number");
	check(0, "quantum", "99999999999", 0, 0, 0, "expected a number");
	check(0, "flow-limit", "64", IFLA_STRIPE_FLOW_LIMIT, 4, 64, NULL);
	check(0, "buffer-limit", "0", 0, 0, 0, "must be 1..1048576");
	check(0, "memory-limit", "1048576", IFLA_STRIPE_MEMORY_LIMIT, 4, 1048576, NULL);
	check(0, "memory-limit", "4096", 0, 0, 0, "must be 65536..2147483648");
	check(0, "stripe-min", "0", IFLA_STRIPE_STRIPE_MIN, 4, 0, NULL);
	check(0, "stripe-min", "65536", IFLA_STRIPE_STRIPE_MIN, 4, 65536, NULL);
	check(0, "reorder", NULL, 0, 0, 0, "option \"reorder\" needs a value");
	check(0, "weight", "3", 0, 0, 0, "unknown option \"weight\"");
	check(0, "reorderr", "on", 0, 0, 0, "unknown option \"reorderr\"");
	check(1, "weight", "3", IFLA_STRIPE_LINK_WEIGHT, 4, 3, NULL);
	check(1, "weight", "auto", IFLA_STRIPE_LINK_WEIGHT, 4, 0, NULL);
	check(1, "weight", "0", 0, 0, 0, "invalid weight \"0\": must be 1..1000");
	check(1, "weight", "1001", 0, 0, 0, "must be 1..1000");
	check(1, "weight", "heavy", 0, 0, 0, "expected \"auto\" or a number");
	check(1, "limit", "100", IFLA_STRIPE_LINK_LIMIT, 4, 100, NULL);
	check(1, "reorder", "on", 0, 0, 0, "unknown option \"reorder\"");
	/* tc's words and messages (../tc-plugin/test-parse.sh) */
	check(1, "weight", "Auto", 0, 0, 0,
	      "invalid weight \"Auto\": expected \"auto\" or a number");
	/* an option given twice is refused, as iproute2's duparg() does */
	check_line(1, NULL, 2, "weight", "4", "limit", "100", NULL);
	check_line(1, "duplicate \"weight\": \"5\" is the second value", 0,
		   "weight", "4", "weight", "5", NULL);
	check_line(1, "duplicate \"weight\": \"auto\" is the second value", 0,
		   "weight", "4", "limit", "9", "weight", "auto", NULL);
	check_line(1, "duplicate \"limit\"", 0, "limit", "9", "limit", "9",
		   NULL);
	check_line(0, "duplicate \"hold-max\": \"1ms\" is the second value", 0,
		   "hold-max", "1000us", "hold-max", "1ms", NULL);
	check_line(0, NULL, 2, "probe-target", "192.0.2.1", "probe-target",
		   "2001:db8::1", NULL);
	check_line(0, "duplicate \"probe-target\": \"192.0.2.2\": one IPv4 and one IPv6 target at most",
		   0, "probe-target", "192.0.2.1", "probe-target", "192.0.2.2",
		   NULL);
	check_line(0, "duplicate \"probe-target\": \"none\"", 0,
		   "probe-target", "2001:db8::1", "probe-target", "none", NULL);
	check_line(0, "duplicate \"probe-target\": \"192.0.2.1\"", 0,
		   "probe-target", "none", "probe-target", "192.0.2.1", NULL);
	check_every_twice(0, stripe_ip_master_opts, stripe_ip_master_nopts);
	check_every_twice(1, stripe_ip_slave_opts, stripe_ip_slave_nopts);
	printf("# %d checks, %d failed\n", n, failed);
	return failed != 0;
}
