// SPDX-License-Identifier: GPL-2.0
/*
 * link_stripe.c: ip's plugin for stripe masters and their links.
 *
 *   ip link add stripe0 type stripe [ reorder on|off ] [ hold-max TIME ] ...
 *   ip link set eth2 type stripe_slave [ weight N|auto ] [ limit N ]
 *   ip -d link show ...
 *
 * ip loads link_stripe.so for "type stripe" and link_stripe_slave.so for
 * a link's details; both are built from this file and define both.  The
 * options and statistics print as tc prints them (../plugin-common).
 */
#include <string.h>
#include <linux/stripe.h>

#include "ip_abi.h"
#include "parse.h"
#include "../plugin-common/stripe_opts_print.h"
#include "../plugin-common/stripe_stats_print.h"

#define EXPORT __attribute__((visibility("default")))

/* ip's details lines begin so ("    stripe reorder on ...") */
#define STRIPE_IP_INDENT	"    "

static void stripe_master_help(FILE *f)
{
	fprintf(f,
		"Usage: ... stripe [ reorder { on | off } ] [ hold-max TIME ]\n"
		"                  [ hold-auto { on | off } ] [ quantum BYTES ]\n"
		"                  [ flow-limit PACKETS ] [ buffer-limit PACKETS ]\n"
		"                  [ memory-limit BYTES ] [ stripe-min BYTES ]\n"
		"                  [ probe-target ADDR|none ]\n"
		"                  [ probe-interval TIME ]\n"
		"  reorder on         number frames so the receiver restores order\n"
		"  hold-max TIME      longest receive hold behind a gap, 1us..1s\n"
		"  hold-auto on       hold bound = hold-max + 2 x measured skew\n"
		"  quantum BYTES      bytes per round of a weight-1 link, %u..%u\n"
		"  flow-limit N       packets held per flow, 1..%u\n"
		"  buffer-limit N     packets held in all, 1..%u\n"
		"  memory-limit BYTES memory (truesize) held in all, %u..%u\n"
		"  stripe-min BYTES   a flow stays on one link until it sent this\n"
		"  probe-target ADDR  reorder off: ARP or neighbour solicitation for\n"
		"                     ADDR on each link; no reply for %u intervals:\n"
		"                     the link leaves\n"
		"  probe-interval TIME  time between probes, 10ms..60s (100ms)\n"
		"Links: ip link set DEV master NAME\n",
		STRIPE_QUANTUM_MIN, STRIPE_QUANTUM_MAX, STRIPE_LIMIT_MAX,
		STRIPE_LIMIT_MAX, STRIPE_MEMORY_LIMIT_MIN,
		STRIPE_MEMORY_LIMIT_MAX, STRIPE_PROBE_MISSED);
}

static void stripe_slave_help(FILE *f)
{
	fprintf(f,
		"Usage: ... stripe_slave [ weight { N | auto } ] [ limit PACKETS ]\n"
		"  weight N|auto      share of bytes, 1..%u; auto: from the link speed\n"
		"  limit PACKETS      the link's queue, 1..%u packets\n",
		STRIPE_WEIGHT_MAX, STRIPE_LIMIT_MAX);
}

static int stripe_has_help(int argc, char **argv)
{
	for (; argc > 0; argc--, argv++)
		if (strcmp(*argv, "help") == 0)
			return 1;
	return 0;
}

/* "help" anywhere prints @help; else every option, or none, is added */
static int stripe_add_attrs(const struct stripe_opt *opts, size_t nopts,
			    void (*help)(FILE *f), int argc, char **argv,
			    struct nlmsghdr *n)
{
	struct stripe_ip_attr a[16];
	int i, cnt;

	if (stripe_has_help(argc, argv)) {
		help(stderr);
		return -1;
	}
	cnt = stripe_ip_parse(opts, nopts, argc, argv, a, 16, stderr);
	if (cnt < 0)
		return -1;
	for (i = 0; i < cnt; i++) {
		int err = a[i].width == 1 ?
			addattr8(n, STRIPE_IP_MAXLEN, a[i].attr, a[i].val) :
			a[i].width == 4 ?
			addattr32(n, STRIPE_IP_MAXLEN, a[i].attr, a[i].val) :
			addattr_l(n, STRIPE_IP_MAXLEN, a[i].attr, a[i].data,
				  a[i].width);

		if (err)
			return -1;
	}
	return 0;
}

static int stripe_parse_opt(struct link_util *lu, int argc, char **argv,
			    struct nlmsghdr *n)
{
	(void)lu;
	return stripe_add_attrs(stripe_ip_master_opts, stripe_ip_master_nopts,
				stripe_master_help, argc, argv, n);
}

static int stripe_slave_parse_opt(struct link_util *lu, int argc, char **argv,
				  struct nlmsghdr *n)
{
	(void)lu;
	return stripe_add_attrs(stripe_ip_slave_opts, stripe_ip_slave_nopts,
				stripe_slave_help, argc, argv, n);
}

static void stripe_print_opt(struct link_util *lu, FILE *f,
			     struct rtattr *tb[])
{
	(void)lu;
	(void)f;
	if (tb)
		stripe_opts_print(stripe_ip_master_opts, stripe_ip_master_nopts,
				  tb, IFLA_STRIPE_MAX);
}

static void stripe_print_u32(struct rtattr *rta, const char *key,
			     const char *fmt)
{
	__u32 v;

	if (stripe_attr_u32(rta, &v))
		print_uint(PRINT_ANY, key, fmt, v);
}

/* The options, then what only the kernel sets: in force, id, state */
static void stripe_slave_print_opt(struct link_util *lu, FILE *f,
				   struct rtattr *tb[])
{
	const struct stripe_opt *weight, *limit;
	__u32 v;

	(void)lu;
	(void)f;
	if (!tb)
		return;
	weight = stripe_find_opt(stripe_ip_slave_opts, stripe_ip_slave_nopts,
				 "weight");
	limit = stripe_find_opt(stripe_ip_slave_opts, stripe_ip_slave_nopts,
				"limit");
	stripe_opt_print(weight, tb, IFLA_STRIPE_LINK_MAX);
	stripe_print_u32(tb[IFLA_STRIPE_LINK_WEIGHT_USED], "weight_used",
			 "weight-used %u ");
	stripe_opt_print(limit, tb, IFLA_STRIPE_LINK_MAX);
	stripe_print_u32(tb[IFLA_STRIPE_LINK_ID], "link_id", "id %u ");
	stripe_print_u32(tb[IFLA_STRIPE_LINK_SPEED], "speed_mbps",
			 "speed %uMb/s ");
	if (stripe_attr_u32(tb[IFLA_STRIPE_LINK_FLAGS], &v)) {
		stripe_link_flags_print(v);
		print_string(PRINT_FP, NULL, "%s", " ");
	}
}

/*
 * "ip -s -d link show stripe0": tc's statistics lines, but a peer's (the
 * kernel sends none here), indented as ip's; what ip prints next starts a
 * line of its own.
 */
static void stripe_print_xstats(struct link_util *lu, FILE *f,
				struct rtattr *xstats)
{
	(void)lu;
	(void)f;
	if (!xstats)
		return;
	print_nl();
	stripe_stats_print(xstats, STRIPE_IP_INDENT);
	print_nl();
	print_string(PRINT_FP, NULL, "%s", STRIPE_IP_INDENT);
}

static void stripe_print_help(struct link_util *lu, int argc, char **argv,
			      FILE *f)
{
	(void)lu;
	(void)argc;
	(void)argv;
	stripe_master_help(f);
}

static void stripe_slave_print_help(struct link_util *lu, int argc,
				    char **argv, FILE *f)
{
	(void)lu;
	(void)argc;
	(void)argv;
	stripe_slave_help(f);
}

EXPORT struct link_util stripe_link_util = {
	.id		= "stripe",
	.maxattr	= IFLA_STRIPE_MAX,
	.parse_opt	= stripe_parse_opt,
	.print_opt	= stripe_print_opt,
	.print_xstats	= stripe_print_xstats,
	.print_help	= stripe_print_help,
};

EXPORT struct link_util stripe_slave_link_util = {
	.id		= "stripe_slave",
	.maxattr	= IFLA_STRIPE_LINK_MAX,
	.parse_opt	= stripe_slave_parse_opt,
	.print_opt	= stripe_slave_print_opt,
	.print_help	= stripe_slave_print_help,
};
