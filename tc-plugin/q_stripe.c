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
 * include/uapi/linux/stripe.h; unknown ones are skipped so that this
 * plugin keeps working against newer kernels.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/if.h>
#include <linux/stripe.h>

#include "tc_abi.h"
#include "../include/stripe_stats_names.h"
#include "../plugin-common/stripe_plugin.h"

/* tb's attribute and its key, for the print helpers below */
#define STRIPE_MSTAT(a)	tb[TCA_STRIPE_MSTAT_##a], STRIPE_MSTAT_KEY(a)
#define STRIPE_LSTAT(a)	tb[TCA_STRIPE_LSTAT_##a], STRIPE_LSTAT_KEY(a)
#define STRIPE_PSTAT(a)	tb[TCA_STRIPE_PSTAT_##a], STRIPE_PSTAT_KEY(a)

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

static void stripe_parse_nested(struct rtattr *tb[], int max,
				struct rtattr *nest)
{
	parse_rtattr_flags(tb, max, RTA_DATA(nest), RTA_PAYLOAD(nest),
			   NLA_F_NESTED);
}

static void stripe_print_u32_opt(struct rtattr *rta, const char *key,
				 const char *fmt)
{
	__u32 val;

	if (stripe_attr_u32(rta, &val))
		print_uint(PRINT_ANY, key, fmt, val);
}

/* probe-target (IPv4, IPv6 or both), and the interval if one is set */
static void stripe_print_probe(struct rtattr **tb)
{
	char buf[INET6_ADDRSTRLEN > TC_SPRINT_BSIZE ?
		 INET6_ADDRSTRLEN : TC_SPRINT_BSIZE];
	struct rtattr *a6 = tb[TCA_STRIPE_PROBE_TARGET6];
	bool any = false;
	__u32 val;

	if (stripe_attr_u32(tb[TCA_STRIPE_PROBE_TARGET], &val) && val) {
		print_string(PRINT_ANY, "probe_target", "probe-target %s ",
			     inet_ntop(AF_INET, &val, buf, sizeof(buf)));
		any = true;
	}
	if (a6 && RTA_PAYLOAD(a6) == 16) {
		print_string(PRINT_ANY, "probe_target6", "probe-target %s ",
			     inet_ntop(AF_INET6, RTA_DATA(a6), buf, sizeof(buf)));
		any = true;
	}
	if (any && stripe_attr_u32(tb[TCA_STRIPE_PROBE_INTERVAL_US], &val)) {
		print_uint(PRINT_JSON, "probe_interval_us", NULL, val);
		print_string(PRINT_FP, NULL, "probe-interval %s ",
			     sprint_time(val, buf));
	}
}

static int stripe_print_opt(struct qdisc_util *qu __maybe_unused,
			    FILE *f __maybe_unused, struct rtattr *opt)
{
	struct rtattr *tb[TCA_STRIPE_MAX + 1];
	char buf[TC_SPRINT_BSIZE];
	char name[IFNAMSIZ];
	__u32 val;
	__u8 mode;

	if (!opt)
		return 0;
	stripe_parse_nested(tb, TCA_STRIPE_MAX, opt);

	if (stripe_attr_str(tb[TCA_STRIPE_MASTER], name, sizeof(name)))
		print_string(PRINT_ANY, "master", "master %s ", name);
	stripe_print_u32_opt(tb[TCA_STRIPE_WEIGHT], "weight", "weight %u ");
	stripe_print_u32_opt(tb[TCA_STRIPE_LIMIT], "limit", "limit %up ");

	/* booleans as iproute2 prints them: JSON true/false, "on"/"off" */
	if (stripe_attr_u8(tb[TCA_STRIPE_REORDER], &mode)) {
		if (mode == STRIPE_REORDER_ON || mode == STRIPE_REORDER_OFF)
			print_on_off(PRINT_ANY, "reorder", "reorder %s ",
				     mode == STRIPE_REORDER_ON);
		else	/* a newer kernel's mode: its number */
			print_uint(PRINT_ANY, "reorder", "reorder %u ", mode);
	}
	stripe_print_u32_opt(tb[TCA_STRIPE_QUANTUM], "quantum", "quantum %u ");
	if (stripe_attr_u32(tb[TCA_STRIPE_HOLD_MAX_US], &val)) {
		print_uint(PRINT_JSON, "hold_max_us", NULL, val);
		print_string(PRINT_FP, NULL, "hold-max %s ",
			     sprint_time(val, buf));
	}
	stripe_print_u32_opt(tb[TCA_STRIPE_FLOW_LIMIT], "flow_limit",
			     "flow-limit %up ");
	stripe_print_u32_opt(tb[TCA_STRIPE_BUFFER_LIMIT], "buffer_limit",
			     "buffer-limit %up ");
	stripe_print_u32_opt(tb[TCA_STRIPE_MEMORY_LIMIT], "memory_limit",
			     "memory-limit %u ");
	stripe_print_u32_opt(tb[TCA_STRIPE_STRIPE_MIN], "stripe_min",
			     "stripe-min %u ");
	if (stripe_attr_u8(tb[TCA_STRIPE_HOLD_AUTO], &mode))
		print_on_off(PRINT_ANY, "hold_auto", "hold-auto %s ", mode);
	stripe_print_probe(tb);
	return 0;
}

static void stripe_print_u64_stat(struct rtattr *rta, const char *key,
				  const char *fmt)
{
	__u64 val;

	if (stripe_attr_u64(rta, &val))
		print_u64(PRINT_ANY, key, fmt, val);
}

static void stripe_print_link_flags(struct rtattr *rta)
{
	bool first = true;
	__u32 flags;
	size_t i;

	if (!stripe_attr_u32(rta, &flags))
		return;

	print_string(PRINT_FP, NULL, "%s", " flags ");
	open_json_array(PRINT_JSON, STRIPE_LSTAT_KEY(FLAGS));
	for (i = 0; i < STRIPE_LINK_NFLAGS; i++) {
		if (!(flags & stripe_link_flag_names[i].bit))
			continue;
		print_string(PRINT_ANY, NULL, first ? "%s" : ",%s",
			     stripe_link_flag_names[i].name);
		first = false;
	}
	close_json_array(PRINT_JSON, NULL);
	if (first)
		print_string(PRINT_FP, NULL, "%s", "none");
}

/* " markers tx N rx N", each part only if sent; JSON tx_markers, rx_markers */
static void stripe_print_markers(struct rtattr *tx, struct rtattr *rx)
{
	__u64 v;

	if (!stripe_attr_u64(tx, &v) && !stripe_attr_u64(rx, &v))
		return;
	print_string(PRINT_FP, NULL, "%s", " markers");
	/* the same keys for a link's */
	stripe_print_u64_stat(tx, STRIPE_MSTAT_KEY(TX_MARKERS),
			      " tx %" PRIu64);
	stripe_print_u64_stat(rx, STRIPE_MSTAT_KEY(RX_MARKERS),
			      " rx %" PRIu64);
}

/* " feedback tx N rx N other N unsent N unknown N", if the kernel sends
 * the counters
 */
static void stripe_print_feedback(struct rtattr **tb)
{
	if (!tb[TCA_STRIPE_MSTAT_TX_FEEDBACK] &&
	    !tb[TCA_STRIPE_MSTAT_RX_FEEDBACK])
		return;
	print_string(PRINT_FP, NULL, "%s", " feedback");
	stripe_print_u64_stat(STRIPE_MSTAT(TX_FEEDBACK), " tx %" PRIu64);
	stripe_print_u64_stat(STRIPE_MSTAT(RX_FEEDBACK), " rx %" PRIu64);
	stripe_print_u64_stat(STRIPE_MSTAT(RX_FEEDBACK_OTHER),
			      " other %" PRIu64);
	stripe_print_u64_stat(STRIPE_MSTAT(RX_FEEDBACK_UNSENT),
			      " unsent %" PRIu64);
	stripe_print_u64_stat(STRIPE_MSTAT(RX_FEEDBACK_UNKNOWN),
			      " unknown %" PRIu64);
}

/*
 * The hold-time histogram, TCA_STRIPE_MSTAT_RX_HOLD_HIST: the k-th bucket
 * attribute is bucket k, whatever else the nest holds, so an unreadable
 * bucket still takes its place.  Buckets past the last one this plugin
 * knows (a newer kernel) are added to it: it has no upper bound.  A nest
 * cut short prints the buckets it has.
 *
 * Text: " hold-us <16:N <64:N ... >=65536:N" on a line of its own.
 * JSON: "rx_hold_hist": [ { "ge_us": 0, "lt_us": 16, "packets": N }, ...,
 * { "ge_us": 65536, "packets": N } ].
 */
static void stripe_print_hold_hist(struct rtattr *hist)
{
	__u64 count[STRIPE_HOLD_HIST_BUCKETS] = { 0 };
	bool have[STRIPE_HOLD_HIST_BUCKETS] = { false };
	const unsigned int last = STRIPE_HOLD_HIST_BUCKETS - 1;
	bool any = false;
	unsigned int k = 0;
	struct rtattr *rta;
	char label[32];
	__u32 lo, hi;
	__u64 v;
	int len;

	if (!hist)
		return;
	len = RTA_PAYLOAD(hist);
	for (rta = RTA_DATA(hist); RTA_OK(rta, len);
	     rta = RTA_NEXT(rta, len)) {
		if ((rta->rta_type & ~NLA_F_NESTED) != TCA_STRIPE_HIST_BUCKET)
			continue;
		if (stripe_attr_u64(rta, &v)) {
			count[k] += v;
			have[k] = true;
			any = true;
		}
		if (k < last)
			k++;
	}
	if (!any)
		return;

	print_string(PRINT_FP, NULL, "%s", "\n  hold-us");
	open_json_array(PRINT_JSON, STRIPE_MSTAT_KEY(RX_HOLD_HIST));
	for (k = 0; k <= last; k++) {
		if (!have[k])
			continue;
		lo = k ? STRIPE_HOLD_HIST_BOUND_US(k - 1) : 0;
		hi = STRIPE_HOLD_HIST_BOUND_US(k);
		if (k < last)
			snprintf(label, sizeof(label), "<%u", hi);
		else
			snprintf(label, sizeof(label), ">=%u", lo);
		open_json_object(NULL);
		print_uint(PRINT_JSON, "ge_us", NULL, lo);
		if (k < last)
			print_uint(PRINT_JSON, "lt_us", NULL, hi);
		print_string(PRINT_FP, NULL, " %s", label);
		print_u64(PRINT_ANY, "packets", ":%" PRIu64, count[k]);
		close_json_object();
	}
	close_json_array(PRINT_JSON, NULL);
}

/* The part of its weight's share a link takes: " pace 25%" in text (only
 * when below all of it), the raw 1/1024 in JSON
 */
static void stripe_print_pace(struct rtattr *attr)
{
	__u32 pace;

	if (!stripe_attr_u32(attr, &pace))
		return;
	print_uint(PRINT_JSON, STRIPE_LSTAT_KEY(PACE), NULL, pace);
	if (pace < STRIPE_PACE_ONE)
		print_uint(PRINT_FP, NULL, " pace %u%%",
			   (pace * 100 + STRIPE_PACE_ONE / 2) / STRIPE_PACE_ONE);
}

/* One text line per link; in JSON one object of the "links" array */
static void stripe_print_link(struct rtattr *link)
{
	struct rtattr *tb[TCA_STRIPE_LSTAT_MAX + 1];
	char name[IFNAMSIZ];
	__u32 ifindex;

	stripe_parse_nested(tb, TCA_STRIPE_LSTAT_MAX, link);

	print_nl();
	open_json_object(NULL);
	if (stripe_attr_str(tb[TCA_STRIPE_LSTAT_NAME], name, sizeof(name)))
		print_string(PRINT_ANY, STRIPE_LSTAT_KEY(NAME), "  link %s",
			     name);
	else
		print_string(PRINT_FP, NULL, "%s", "  link ?");
	if (stripe_attr_u32(tb[TCA_STRIPE_LSTAT_IFINDEX], &ifindex))
		print_uint(PRINT_JSON, STRIPE_LSTAT_KEY(IFINDEX), NULL,
			   ifindex);
	stripe_print_u32_opt(STRIPE_LSTAT(WEIGHT), " weight %u");
	stripe_print_link_flags(tb[TCA_STRIPE_LSTAT_FLAGS]);
	stripe_print_u64_stat(STRIPE_LSTAT(TX_PACKETS), " tx %" PRIu64 " pkts");
	stripe_print_u64_stat(STRIPE_LSTAT(TX_BYTES), " %" PRIu64 " bytes");
	stripe_print_u64_stat(STRIPE_LSTAT(TX_BUSY), " busy %" PRIu64);
	stripe_print_u64_stat(STRIPE_LSTAT(TX_DROPS), " drops %" PRIu64);
	stripe_print_u64_stat(STRIPE_LSTAT(NEIGH_FAIL), " neigh_fail %" PRIu64);
	stripe_print_u64_stat(STRIPE_LSTAT(RX_PACKETS), " rx %" PRIu64 " pkts");
	stripe_print_u64_stat(STRIPE_LSTAT(RX_BYTES), " %" PRIu64 " bytes");
	stripe_print_markers(tb[TCA_STRIPE_LSTAT_TX_MARKERS], NULL);
	/* What the peer's feedback did: " left N back N after Nms" */
	stripe_print_u64_stat(STRIPE_LSTAT(LEFT), " left %" PRIu64);
	stripe_print_u64_stat(STRIPE_LSTAT(BACK), " back %" PRIu64);
	stripe_print_u32_opt(STRIPE_LSTAT(LEFT_AFTER_MS), " after %ums");
	stripe_print_pace(tb[TCA_STRIPE_LSTAT_PACE]);
	stripe_print_u32_opt(STRIPE_LSTAT(QUEUE_US), " queue %uus");
	stripe_print_u64_stat(STRIPE_LSTAT(FRAMES_LOST), " frames_lost %" PRIu64);
	/* Absent until the receiver has measured it */
	stripe_print_u32_opt(STRIPE_LSTAT(RX_SKEW_US), " skew %uus");
	close_json_object();
}

/* One text line per peer the receiver hears; in JSON one object of the
 * "peers" array
 */
static void stripe_print_peer(struct rtattr *peer)
{
	struct rtattr *tb[TCA_STRIPE_PSTAT_MAX + 1];

	stripe_parse_nested(tb, TCA_STRIPE_PSTAT_MAX, peer);

	print_nl();
	open_json_object(NULL);
	print_string(PRINT_FP, NULL, "%s", "  peer");
	stripe_print_u32_opt(STRIPE_PSTAT(ID), " 0x%08x");
	stripe_print_u32_opt(STRIPE_PSTAT(AGE_MS), " heard %ums ago");
	stripe_print_u32_opt(STRIPE_PSTAT(LINKS), " links %u");
	stripe_print_u32_opt(STRIPE_PSTAT(SILENT), " silent %u");
	stripe_print_u32_opt(STRIPE_PSTAT(SKEW_US), " skew %uus");
	stripe_print_u64_stat(STRIPE_PSTAT(FRAMES), " frames %" PRIu64);
	stripe_print_u64_stat(STRIPE_PSTAT(HELD), " held %" PRIu64);
	stripe_print_u64_stat(STRIPE_PSTAT(LOST_LINK), " lost_link %" PRIu64);
	stripe_print_u64_stat(STRIPE_PSTAT(LOST_TIMEOUT),
			      " lost_timeout %" PRIu64);
	stripe_print_u64_stat(STRIPE_PSTAT(LATE), " late %" PRIu64);
	close_json_object();
}

/* The entries of type @type in the nest @list, as the JSON array @key */
static void stripe_print_list(struct rtattr *list, int type, const char *key,
			      void (*print)(struct rtattr *))
{
	struct rtattr *rta;
	int len;

	open_json_array(PRINT_JSON, key);
	len = RTA_PAYLOAD(list);
	for (rta = RTA_DATA(list); RTA_OK(rta, len);
	     rta = RTA_NEXT(rta, len)) {
		if ((rta->rta_type & ~NLA_F_NESTED) == type)
			print(rta);
	}
	close_json_array(PRINT_JSON, NULL);
}

static void stripe_print_master(struct rtattr *master, __u8 role)
{
	struct rtattr *tb[TCA_STRIPE_MSTAT_MAX + 1];
	char name[IFNAMSIZ];

	stripe_parse_nested(tb, TCA_STRIPE_MSTAT_MAX, master);

	open_json_object("master");
	if (stripe_attr_str(tb[TCA_STRIPE_MSTAT_NAME], name, sizeof(name)))
		print_string(PRINT_ANY, STRIPE_MSTAT_KEY(NAME),
			     role == STRIPE_ROLE_LINK ? "  member of %s"
						      : "  master %s",
			     name);
	else
		print_string(PRINT_FP, NULL, "%s", "  master ?");
	stripe_print_u32_opt(STRIPE_MSTAT(LINKS), " links %u");
	stripe_print_u32_opt(STRIPE_MSTAT(ACTIVE), " active %u");
	stripe_print_u32_opt(STRIPE_MSTAT(SENDER_ID), " sender 0x%08x");
	stripe_print_u64_stat(STRIPE_MSTAT(TX_PACKETS), " tx %" PRIu64 " pkts");
	stripe_print_u64_stat(STRIPE_MSTAT(TX_BYTES), " %" PRIu64 " bytes");
	stripe_print_u64_stat(STRIPE_MSTAT(TX_BUSY), " busy %" PRIu64);
	stripe_print_u64_stat(STRIPE_MSTAT(TX_DROPS), " drops %" PRIu64);
	stripe_print_u64_stat(STRIPE_MSTAT(RX_PACKETS), " rx %" PRIu64 " pkts");
	stripe_print_u64_stat(STRIPE_MSTAT(RX_BYTES), " %" PRIu64 " bytes");
	stripe_print_markers(tb[TCA_STRIPE_MSTAT_TX_MARKERS],
			     tb[TCA_STRIPE_MSTAT_RX_MARKERS]);
	stripe_print_feedback(tb);
	if (tb[TCA_STRIPE_MSTAT_RX_IN_ORDER] || tb[TCA_STRIPE_MSTAT_RX_SENDERS])
		print_string(PRINT_FP, NULL, "%s", "\n  resequencer");
	stripe_print_u64_stat(STRIPE_MSTAT(RX_IN_ORDER), " in_order %" PRIu64);
	stripe_print_u64_stat(STRIPE_MSTAT(RX_RESEQUENCED),
			      " resequenced %" PRIu64);
	stripe_print_u64_stat(STRIPE_MSTAT(RX_HELD), " held %" PRIu64 " pkts");
	stripe_print_u64_stat(STRIPE_MSTAT(RX_HELD_BYTES),
			      " %" PRIu64 " bytes");
	stripe_print_u64_stat(STRIPE_MSTAT(RX_HELD_MEM), " mem %" PRIu64);
	stripe_print_u64_stat(STRIPE_MSTAT(RX_HOLD_MAX_US),
			      " hold_max %" PRIu64 "us");
	stripe_print_u64_stat(STRIPE_MSTAT(RX_LOST_LINK),
			      " lost_link %" PRIu64);
	stripe_print_u64_stat(STRIPE_MSTAT(RX_LOST_TIMEOUT),
			      " lost_timeout %" PRIu64);
	stripe_print_u64_stat(STRIPE_MSTAT(RX_LOST_LIMIT),
			      " lost_limit %" PRIu64);
	stripe_print_u64_stat(STRIPE_MSTAT(RX_LATE), " late %" PRIu64);
	stripe_print_u64_stat(STRIPE_MSTAT(RX_LINK_REORDERED),
			      " link_reordered %" PRIu64);
	stripe_print_u64_stat(STRIPE_MSTAT(RX_MALFORMED),
			      " malformed %" PRIu64);
	stripe_print_u64_stat(STRIPE_MSTAT(RX_NO_STATE), " no_state %" PRIu64);
	stripe_print_u64_stat(STRIPE_MSTAT(RX_WRONG_ADDR), " wrong_addr %" PRIu64);
	stripe_print_u32_opt(STRIPE_MSTAT(RX_SENDERS), " senders %u");
	stripe_print_u32_opt(STRIPE_MSTAT(RX_HOLD_US), " hold_bound %uus");
	stripe_print_hold_hist(tb[TCA_STRIPE_MSTAT_RX_HOLD_HIST]);
	close_json_object();
}

static int stripe_print_xstats(struct qdisc_util *qu __maybe_unused,
			       FILE *f __maybe_unused, struct rtattr *xstats)
{
	struct rtattr *tb[TCA_STRIPE_XSTATS_MAX + 1];
	__u8 role = STRIPE_ROLE_MASTER;
	bool have_role;

	if (!xstats)
		return 0;
	stripe_parse_nested(tb, TCA_STRIPE_XSTATS_MAX, xstats);

	have_role = stripe_attr_u8(tb[TCA_STRIPE_XSTATS_ROLE], &role);
	if (have_role)
		print_string(PRINT_JSON, "role", NULL,
			     role == STRIPE_ROLE_LINK ? "link" :
			     role == STRIPE_ROLE_MASTER ? "master" : "unknown");

	if (tb[TCA_STRIPE_XSTATS_MASTER])
		stripe_print_master(tb[TCA_STRIPE_XSTATS_MASTER], role);

	if (tb[TCA_STRIPE_XSTATS_LINKS])
		stripe_print_list(tb[TCA_STRIPE_XSTATS_LINKS],
				  TCA_STRIPE_XSTATS_LINK, "links",
				  stripe_print_link);
	if (tb[TCA_STRIPE_XSTATS_PEERS])
		stripe_print_list(tb[TCA_STRIPE_XSTATS_PEERS],
				  TCA_STRIPE_XSTATS_PEER, "peers",
				  stripe_print_peer);
	return 0;
}

struct qdisc_util stripe_qdisc_util __attribute__((visibility("default"))) = {
	.id		= STRIPE_KIND,
	.parse_qopt	= stripe_parse_opt,
	.print_qopt	= stripe_print_opt,
	.print_xstats	= stripe_print_xstats,
};
