// SPDX-License-Identifier: GPL-2.0
/*
 * q_stripe.c: tc plugin for the "stripe" qdisc.
 *
 * One qdisc kind plays two roles, decided by the kernel from the device it
 * is attached to: on a stripe master it carries master-wide options, on
 * any other device it makes that device a link of a master.  The plugin
 * cannot tell the roles apart, so it accepts every option, sends what was
 * given and leaves misplaced options to the kernel's extack messages.
 *
 * Statistics (TCA_STATS_APP) are nested attributes, see
 * include/uapi/linux/stripe.h; they and the options print as ip prints
 * them (../plugin-common/stripe_stats_print.c, stripe_opts_print.c), and
 * unknown ones are skipped so that this plugin keeps working against
 * newer kernels.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/if.h>
#include <linux/stripe.h>

#include "tc_abi.h"
#include "../plugin-common/stripe_plugin.h"
#include "../plugin-common/stripe_opts_print.h"
#include "../plugin-common/stripe_stats_print.h"

#define __maybe_unused	__attribute__((unused))
#define ARRAY_SIZE(a)	STRIPE_ARRAY_SIZE(a)

/* Bound on the whole request, as tc's other qdiscs pass */
#define STRIPE_NL_MAXLEN	1024

static void explain(void)
{
	fprintf(stderr,
		"Usage: ... stripe master NAME [ weight N|auto ]"
		" [ limit PACKETS ]\n"
		"       ... stripe [ reorder on|off ] [ quantum BYTES ]\n"
		"                  [ hold-max TIME ] [ flow-limit PACKETS ]\n"
		"                  [ buffer-limit PACKETS ]"
		" [ memory-limit BYTES ]\n"
		"                  [ stripe-min BYTES ]"
		" [ hold-auto on|off ]\n"
		"                  [ probe-target ADDR|none ] [ probe-interval TIME ]\n"
		"\n"
		"On a link (any device but a stripe master):\n"
		"  master NAME          master to join (required to join)\n"
		"  weight N|auto        share of bytes, 1..%u\n"
		"                       (auto, the default: from the link\n"
		"                       speed)\n"
		"  limit PACKETS        queue for traffic sent to the link,\n"
		"                       1..%u\n"
		"On a stripe master:\n"
		"  reorder on|off       off: plain packets, any receiver\n"
		"                       on: in order, stripe at both ends\n"
		"  quantum BYTES        bytes per round at weight 1, %u..%u\n"
		"  hold-max TIME        receive hold behind a gap, 1us..1s\n"
		"                       (us, ms or s; a plain number is us)\n"
		"  flow-limit PACKETS   packets held per flow, 1..%u\n"
		"  buffer-limit PACKETS packets held in all, 1..%u\n"
		"  memory-limit BYTES   memory (truesize) held in all, %u..%u\n"
		"                       (64 MiB)\n"
		"  stripe-min BYTES     bytes a flow sends before striping\n"
		"  hold-auto on|off     on: hold bound = hold-max + 2 x skew\n"
		"  probe-target ADDR|none  reorder off: ARP (IPv4) or neighbour\n"
		"                       solicitation (IPv6) for ADDR on each link;\n"
		"                       a link with no reply for %u intervals leaves\n"
		"  probe-interval TIME  time between probes, 10ms..60s (100ms)\n",
		STRIPE_WEIGHT_MAX, STRIPE_LIMIT_MAX, STRIPE_QUANTUM_MIN,
		STRIPE_QUANTUM_MAX, STRIPE_LIMIT_MAX, STRIPE_LIMIT_MAX,
		STRIPE_MEMORY_LIMIT_MIN, STRIPE_MEMORY_LIMIT_MAX,
		STRIPE_PROBE_MISSED);
}

/*
 * Link options, then the master's: the ranges kernel/qdisc.c
 * stripe_validate() accepts (../plugin-common/stripe_plugin.h).
 */
static const struct stripe_opt stripe_opts[] = {
	STRIPE_OPT("master", TCA_STRIPE_MASTER, STRIPE_ARG_IFNAME, 0, 0),
	STRIPE_LINK_OPTS(TCA_STRIPE_WEIGHT, TCA_STRIPE_LIMIT),
	STRIPE_MASTER_OPTS(TCA),
};

/* Same rules as the kernel's dev_valid_name(), so typos fail early */
static int stripe_check_ifname(const char *name)
{
	size_t len = strlen(name);
	size_t i;

	if (len == 0 || len >= IFNAMSIZ)
		return -1;
	if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
		return -1;
	for (i = 0; i < len; i++)
		if (name[i] == '/' || name[i] == ':' ||
		    isspace((unsigned char)name[i]))
			return -1;
	return 0;
}

static int stripe_invalid(const struct stripe_opt *o, const char *arg,
			  const char *why)
{
	fprintf(stderr, "stripe: invalid %s \"%s\": %s\n", o->name, arg, why);
	return -1;
}

static int stripe_dup(struct stripe_seen *seen, const struct stripe_opt *o,
		      int attr, const char *arg)
{
	char why[192];

	if (!stripe_seen_attr(seen, o, attr, arg, why, sizeof(why)))
		return 0;
	fprintf(stderr, "stripe: %s\n", why);
	return -1;
}

static int stripe_parse_one(const struct stripe_opt *o, const char *arg,
			    struct stripe_seen *seen, struct nlmsghdr *n)
{
	char why[2 * TC_SPRINT_BSIZE + 32];
	__u32 val;

	if (o->arg == STRIPE_ARG_IFNAME) {
		if (stripe_check_ifname(arg)) {
			snprintf(why, sizeof(why),
				 "not a device name (1..%u characters, no '/', ':' or spaces)",
				 IFNAMSIZ - 1);
			return stripe_invalid(o, arg, why);
		}
		if (stripe_dup(seen, o, o->attr, arg))
			return -1;
		return addattr_l(n, STRIPE_NL_MAXLEN, o->attr, arg,
				 strlen(arg) + 1);
	}
	if (o->arg == STRIPE_ARG_ADDR) {
		struct stripe_addr_val v;
		unsigned int i;

		if (stripe_parse_addr(o, arg, &v, why, sizeof(why)))
			return stripe_invalid(o, arg, why);
		for (i = 0; i < v.n; i++)
			if (stripe_dup(seen, o, v.a[i].attr, arg))
				return -1;
		for (i = 0; i < v.n; i++)
			if (addattr_l(n, STRIPE_NL_MAXLEN, v.a[i].attr,
				      v.a[i].data, v.a[i].len))
				return -1;
		return 0;
	}
	if (stripe_parse_value(o, arg, &val, why, sizeof(why), sprint_time))
		return stripe_invalid(o, arg, why);
	if (stripe_dup(seen, o, o->attr, arg))
		return -1;
	if (o->arg == STRIPE_ARG_ONOFF)
		return addattr8(n, STRIPE_NL_MAXLEN, o->attr, val);
	return addattr32(n, STRIPE_NL_MAXLEN, o->attr, val);
}

static int stripe_parse_opt(struct qdisc_util *qu __maybe_unused,
			    int argc, char **argv, struct nlmsghdr *n,
			    const char *dev __maybe_unused)
{
	struct stripe_seen seen = { 0 };
	const struct stripe_opt *o;
	struct rtattr *tail;

	/* Strict parsing in the kernel (nla_parse_nested) wants the flag */
	tail = addattr_nest(n, STRIPE_NL_MAXLEN, TCA_OPTIONS | NLA_F_NESTED);
	if (!tail)
		return -1;

	for (; argc > 0; argc--, argv++) {
		if (matches(*argv, "help") == 0) {
			explain();
			return -1;
		}
		o = stripe_find_opt(stripe_opts, ARRAY_SIZE(stripe_opts),
				    *argv);
		if (!o) {
			fprintf(stderr, "stripe: unknown option \"%s\"\n",
				*argv);
			explain();
			return -1;
		}
		if (argc < 2) {
			fprintf(stderr, "stripe: option \"%s\" needs a value\n",
				o->name);
			return -1;
		}
		argc--;
		argv++;
		if (stripe_parse_one(o, *argv, &seen, n) < 0)
			return -1;
	}

	addattr_nest_end(n, tail);
	return 0;
}

static int stripe_print_opt(struct qdisc_util *qu __maybe_unused,
			    FILE *f __maybe_unused, struct rtattr *opt)
{
	struct rtattr *tb[TCA_STRIPE_MAX + 1];

	if (!opt)
		return 0;
	parse_rtattr_flags(tb, TCA_STRIPE_MAX, RTA_DATA(opt), RTA_PAYLOAD(opt),
			   NLA_F_NESTED);
	stripe_opts_print(stripe_opts, ARRAY_SIZE(stripe_opts), tb,
			  TCA_STRIPE_MAX);
	return 0;
}

/* Lines of their own after tc's counters, as ip -s -d prints them */
static int stripe_print_xstats(struct qdisc_util *qu __maybe_unused,
			       FILE *f __maybe_unused, struct rtattr *xstats)
{
	if (xstats)
		stripe_stats_print(xstats, "  ");
	return 0;
}

struct qdisc_util stripe_qdisc_util __attribute__((visibility("default"))) = {
	.id		= STRIPE_KIND,
	.parse_qopt	= stripe_parse_opt,
	.print_qopt	= stripe_print_opt,
	.print_xstats	= stripe_print_xstats,
};
