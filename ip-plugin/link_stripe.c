// SPDX-License-Identifier: GPL-2.0
/*
 * link_stripe.c: ip's plugin for stripe masters and their links.
 *
 *   ip link add stripe0 type stripe [ reorder on|off ] [ hold-max TIME ] ...
 *   ip link set eth2 type stripe_slave [ weight N|auto ] [ limit N ]
 *   ip -d link show ...
 *
 * ip loads link_stripe.so for "type stripe" and link_stripe_slave.so for
 * a link's details; both are built from this file and define both.
 */
#include <string.h>
#include <arpa/inet.h>
#include <linux/if.h>
#include <linux/stripe.h>

#include "ip_abi.h"
#include "parse.h"

#define EXPORT __attribute__((visibility("default")))

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

static void stripe_print_onoff(struct rtattr *rta, const char *key,
			       const char *fmt)
{
	__u8 v;

	if (stripe_attr_u8(rta, &v))
		print_string(PRINT_ANY, key, fmt, v ? "on" : "off");
}

static void stripe_print_u32(struct rtattr *rta, const char *key,
			     const char *fmt)
{
	__u32 v;

	if (stripe_attr_u32(rta, &v))
		print_uint(PRINT_ANY, key, fmt, v);
}

/* probe-target: IPv4, IPv6, both, or none */
static void stripe_print_probe(struct rtattr *a4, struct rtattr *a6)
{
	static const __u8 any6[16];
	char buf[INET6_ADDRSTRLEN];
	bool any = false;
	__u32 v;

	if (stripe_attr_u32(a4, &v) && v) {
		print_string(PRINT_ANY, "probe_target", "probe-target %s ",
			     inet_ntop(AF_INET, &v, buf, sizeof(buf)));
		any = true;
	}
	if (a6 && RTA_PAYLOAD(a6) == 16 && memcmp(RTA_DATA(a6), any6, 16)) {
		print_string(PRINT_ANY, "probe_target6", "probe-target %s ",
			     inet_ntop(AF_INET6, RTA_DATA(a6), buf, sizeof(buf)));
		any = true;
	}
	if (!any && (a4 || a6))
		print_string(PRINT_ANY, "probe_target", "probe-target %s ",
			     "none");
}

static void stripe_print_opt(struct link_util *lu, FILE *f,
			     struct rtattr *tb[])
{
	(void)lu;
	(void)f;
	if (!tb)
		return;
	stripe_print_onoff(tb[IFLA_STRIPE_REORDER], "reorder", "reorder %s ");
	stripe_print_u32(tb[IFLA_STRIPE_HOLD_MAX_US], "hold_max_us",
			 "hold-max %uus ");
	stripe_print_onoff(tb[IFLA_STRIPE_HOLD_AUTO], "hold_auto",
			   "hold-auto %s ");
	stripe_print_u32(tb[IFLA_STRIPE_QUANTUM], "quantum", "quantum %u ");
	stripe_print_u32(tb[IFLA_STRIPE_FLOW_LIMIT], "flow_limit",
			 "flow-limit %u ");
	stripe_print_u32(tb[IFLA_STRIPE_BUFFER_LIMIT], "buffer_limit",
			 "buffer-limit %u ");
	stripe_print_u32(tb[IFLA_STRIPE_MEMORY_LIMIT], "memory_limit",
			 "memory-limit %u ");
	stripe_print_u32(tb[IFLA_STRIPE_STRIPE_MIN], "stripe_min",
			 "stripe-min %u ");
	stripe_print_probe(tb[IFLA_STRIPE_PROBE_TARGET],
			   tb[IFLA_STRIPE_PROBE_TARGET6]);
	stripe_print_u32(tb[IFLA_STRIPE_PROBE_INTERVAL_US], "probe_interval_us",
			 "probe-interval %uus ");
}

static void stripe_print_flags(__u32 flags)
{
	char buf[64] = "";
	size_t i;

	for (i = 0; i < STRIPE_LINK_NFLAGS; i++) {
		if (!(flags & stripe_link_flag_names[i].bit))
			continue;
		if (buf[0])
			strcat(buf, ",");
		strcat(buf, stripe_link_flag_names[i].name);
	}
	print_string(PRINT_ANY, "state", "state %s ", buf[0] ? buf : "none");
}

static void stripe_slave_print_opt(struct link_util *lu, FILE *f,
				   struct rtattr *tb[])
{
	__u32 v;

	(void)lu;
	(void)f;
	if (!tb)
		return;
	if (stripe_attr_u32(tb[IFLA_STRIPE_LINK_WEIGHT], &v)) {
		if (v)
			print_uint(PRINT_ANY, "weight", "weight %u ", v);
		else
			print_string(PRINT_ANY, "weight", "weight %s ", "auto");
	}
	stripe_print_u32(tb[IFLA_STRIPE_LINK_WEIGHT_USED], "weight_used",
			 "weight-used %u ");
	stripe_print_u32(tb[IFLA_STRIPE_LINK_LIMIT], "limit", "limit %u ");
	stripe_print_u32(tb[IFLA_STRIPE_LINK_ID], "link_id", "id %u ");
	stripe_print_u32(tb[IFLA_STRIPE_LINK_SPEED], "speed_mbps",
			 "speed %uMb/s ");
	if (stripe_attr_u32(tb[IFLA_STRIPE_LINK_FLAGS], &v))
		stripe_print_flags(v);
}

/* The nested attributes of @rta by type (later ones win), up to @max */
static void stripe_nested(struct rtattr *rta, struct rtattr **tb, int max)
{
	struct rtattr *a;
	int len;

	memset(tb, 0, sizeof(*tb) * (max + 1));
	if (!rta)
		return;
	len = RTA_PAYLOAD(rta);
	for (a = RTA_DATA(rta); RTA_OK(a, len); a = RTA_NEXT(a, len)) {
		int type = a->rta_type & ~(NLA_F_NESTED | NLA_F_NET_BYTEORDER);

		if (type <= max)
			tb[type] = a;
	}
}

static void stripe_print_u64(struct rtattr *rta, const char *key,
			     const char *fmt)
{
	char buf[32];
	__u64 v;

	/* a number in text, a string in JSON, as ip prints other u64s */
	if (!stripe_attr_u64(rta, &v))
		return;
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)v);
	print_string(PRINT_ANY, key, fmt, buf);
}

/* "ip -s -d link show stripe0": the master's counters and each link's */
static void stripe_print_xstats(struct link_util *lu, FILE *f,
				struct rtattr *xstats)
{
	struct rtattr *tb[TCA_STRIPE_XSTATS_MAX + 1];
	struct rtattr *ms[TCA_STRIPE_MSTAT_MAX + 1];
	struct rtattr *ls[TCA_STRIPE_LSTAT_MAX + 1];
	struct rtattr *a;
	int len;

	(void)lu;
	(void)f;
	stripe_nested(xstats, tb, TCA_STRIPE_XSTATS_MAX);
	stripe_nested(tb[TCA_STRIPE_XSTATS_MASTER], ms, TCA_STRIPE_MSTAT_MAX);
	print_string(PRINT_FP, NULL, "%s", "\n    stripe: ");
	stripe_print_u32(ms[TCA_STRIPE_MSTAT_LINKS], "links", "links %u ");
	stripe_print_u32(ms[TCA_STRIPE_MSTAT_ACTIVE], "active", "active %u ");
	stripe_print_u64(ms[TCA_STRIPE_MSTAT_TX_PACKETS], "tx_packets", "tx %s pkt ");
	stripe_print_u64(ms[TCA_STRIPE_MSTAT_TX_DROPS], "tx_drops", "dropped %s ");
	stripe_print_u64(ms[TCA_STRIPE_MSTAT_RX_PACKETS], "rx_packets", "rx %s pkt ");
	stripe_print_u64(ms[TCA_STRIPE_MSTAT_RX_IN_ORDER], "rx_in_order", "in order %s ");
	stripe_print_u64(ms[TCA_STRIPE_MSTAT_RX_RESEQUENCED], "rx_resequenced",
			 "resequenced %s ");
	stripe_print_u64(ms[TCA_STRIPE_MSTAT_RX_LOST_LINK], "rx_lost_link",
			 "lost %s (link) ");
	stripe_print_u64(ms[TCA_STRIPE_MSTAT_RX_LOST_TIMEOUT], "rx_lost_timeout",
			 "%s (timeout) ");
	stripe_print_u64(ms[TCA_STRIPE_MSTAT_RX_LOST_LIMIT], "rx_lost_limit",
			 "%s (limit) ");
	stripe_print_u64(ms[TCA_STRIPE_MSTAT_RX_LATE], "rx_late", "late %s ");
	stripe_print_u32(ms[TCA_STRIPE_MSTAT_RX_HOLD_US], "rx_hold_us",
			 "hold %uus ");
	if (!tb[TCA_STRIPE_XSTATS_LINKS])
		return;
	open_json_array(PRINT_JSON, "links");
	len = RTA_PAYLOAD(tb[TCA_STRIPE_XSTATS_LINKS]);
	for (a = RTA_DATA(tb[TCA_STRIPE_XSTATS_LINKS]); RTA_OK(a, len);
	     a = RTA_NEXT(a, len)) {
		char name[IFNAMSIZ];
		__u32 v;

		stripe_nested(a, ls, TCA_STRIPE_LSTAT_MAX);
		open_json_object(NULL);
		if (stripe_attr_str(ls[TCA_STRIPE_LSTAT_NAME], name,
				    sizeof(name)))
			print_string(PRINT_ANY, "name", "\n    link %s ", name);
		stripe_print_u32(ls[TCA_STRIPE_LSTAT_WEIGHT], "weight", "weight %u ");
		if (stripe_attr_u32(ls[TCA_STRIPE_LSTAT_FLAGS], &v))
			stripe_print_flags(v);
		stripe_print_u64(ls[TCA_STRIPE_LSTAT_TX_PACKETS], "tx_packets",
				 "tx %s pkt ");
		stripe_print_u64(ls[TCA_STRIPE_LSTAT_TX_BYTES], "tx_bytes", "%s B ");
		stripe_print_u64(ls[TCA_STRIPE_LSTAT_RX_PACKETS], "rx_packets",
				 "rx %s pkt ");
		stripe_print_u32(ls[TCA_STRIPE_LSTAT_RX_SKEW_US], "rx_skew_us",
				 "skew %uus ");
		close_json_object();
	}
	close_json_array(PRINT_JSON, NULL);
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
