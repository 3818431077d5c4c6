// SPDX-License-Identifier: GPL-2.0
/*
 * stripe_stats_print.c: the statistics printed (stripe_stats_print.h),
 * from what stripe_stats.c decoded.  Each text line is a table of items
 * below: the same order, words and keys for tc and ip.
 */
#include <inttypes.h>
#include <stdio.h>

#include "iproute2_abi.h"
#include "stripe_stats.h"
#include "stripe_stats_print.h"
#include "../include/stripe_stats_names.h"

/*
 * One item of a text line: a statistic, printed if it was read, with @fmt
 * for its value (a u64; NULL: JSON only) or by @print; or, with attr 0
 * (UNSPEC, never a statistic), the label @fmt, printed if one of the
 * attributes in @when was read.
 */
struct stripe_stat_item {
	int attr;
	const char *fmt;
	__u64 when;
	void (*print)(const char *key, __u64 val);
};

#define STAT(k, a, f)	{ .attr = TCA_STRIPE_##k##STAT_##a, .fmt = f }
#define STAT_FN(k, a, fn) { .attr = TCA_STRIPE_##k##STAT_##a, .print = fn }
#define LABEL(text, bits) { .fmt = text, .when = bits }
#define HAS(k, a)	(1ULL << TCA_STRIPE_##k##STAT_##a)

static void stripe_print_flags_item(const char *key, __u64 val)
{
	(void)key;
	print_string(PRINT_FP, NULL, "%s", " ");
	stripe_link_flags_print(val);
}

/* The part of its weight's share a link takes: " pace 25%" in text (only
 * when below all of it), the raw 1/1024 in JSON
 */
static void stripe_print_pace(const char *key, __u64 pace)
{
	print_u64(PRINT_JSON, key, NULL, pace);
	if (pace < STRIPE_PACE_ONE)
		print_u64(PRINT_FP, NULL, " pace %" PRIu64 "%%",
			  (pace * 100 + STRIPE_PACE_ONE / 2) / STRIPE_PACE_ONE);
}

/* The master's totals, after its name */
static const struct stripe_stat_item stripe_master_items[] = {
	STAT(M, LINKS, " links %" PRIu64),
	STAT(M, ACTIVE, " active %" PRIu64),
	STAT(M, SENDER_ID, " sender 0x%08" PRIx64),
	STAT(M, TX_PACKETS, " tx %" PRIu64 " pkts"),
	STAT(M, TX_BYTES, " %" PRIu64 " bytes"),
	STAT(M, TX_BUSY, " busy %" PRIu64),
	STAT(M, TX_DROPS, " drops %" PRIu64),
	STAT(M, RX_PACKETS, " rx %" PRIu64 " pkts"),
	STAT(M, RX_BYTES, " %" PRIu64 " bytes"),
	LABEL(" markers", HAS(M, TX_MARKERS) | HAS(M, RX_MARKERS)),
	STAT(M, TX_MARKERS, " tx %" PRIu64),
	STAT(M, RX_MARKERS, " rx %" PRIu64),
	LABEL(" feedback", HAS(M, TX_FEEDBACK) | HAS(M, RX_FEEDBACK)),
	STAT(M, TX_FEEDBACK, " tx %" PRIu64),
	STAT(M, RX_FEEDBACK, " rx %" PRIu64),
	STAT(M, RX_FEEDBACK_OTHER, " other %" PRIu64),
	STAT(M, RX_FEEDBACK_UNSENT, " unsent %" PRIu64),
	STAT(M, RX_FEEDBACK_UNKNOWN, " unknown %" PRIu64),
	LABEL(" links left for a peer",
	      HAS(M, TX_PEER_LEFT) | HAS(M, TX_PEER_BACK)),
	STAT(M, TX_PEER_LEFT, " %" PRIu64),
	STAT(M, TX_PEER_BACK, " back %" PRIu64),
};

/* The receiver's, on a line of their own */
static const struct stripe_stat_item stripe_reseq_items[] = {
	STAT(M, RX_IN_ORDER, " in_order %" PRIu64),
	STAT(M, RX_RESEQUENCED, " resequenced %" PRIu64),
	STAT(M, RX_HELD, " held %" PRIu64 " pkts"),
	STAT(M, RX_HELD_BYTES, " %" PRIu64 " bytes"),
	STAT(M, RX_HELD_MEM, " mem %" PRIu64),
	STAT(M, RX_HOLD_MAX_US, " hold_max %" PRIu64 "us"),
	STAT(M, RX_LOST_LINK, " lost_link %" PRIu64),
	STAT(M, RX_LOST_TIMEOUT, " lost_timeout %" PRIu64),
	STAT(M, RX_LOST_LIMIT, " lost_limit %" PRIu64),
	STAT(M, RX_LATE, " late %" PRIu64),
	STAT(M, RX_LINK_REORDERED, " link_reordered %" PRIu64),
	STAT(M, RX_MALFORMED, " malformed %" PRIu64),
	STAT(M, RX_NO_STATE, " no_state %" PRIu64),
	STAT(M, RX_WRONG_ADDR, " wrong_addr %" PRIu64),
	STAT(M, RX_SENDERS, " senders %" PRIu64),
	STAT(M, RX_HOLD_US, " hold_bound %" PRIu64 "us"),
};

/* A link's, after its name */
static const struct stripe_stat_item stripe_link_items[] = {
	STAT(L, IFINDEX, NULL),
	STAT(L, WEIGHT, " weight %" PRIu64),
	STAT_FN(L, FLAGS, stripe_print_flags_item),
	STAT(L, TX_PACKETS, " tx %" PRIu64 " pkts"),
	STAT(L, TX_BYTES, " %" PRIu64 " bytes"),
	STAT(L, TX_BUSY, " busy %" PRIu64),
	STAT(L, TX_DROPS, " drops %" PRIu64),
	STAT(L, NEIGH_FAIL, " neigh_fail %" PRIu64),
	STAT(L, RX_PACKETS, " rx %" PRIu64 " pkts"),
	STAT(L, RX_BYTES, " %" PRIu64 " bytes"),
	LABEL(" markers", HAS(L, TX_MARKERS)),
	STAT(L, TX_MARKERS, " tx %" PRIu64),
	/* What the peer's feedback did: " left N back N after Nms" */
	STAT(L, LEFT, " left %" PRIu64),
	STAT(L, BACK, " back %" PRIu64),
	STAT(L, LEFT_AFTER_MS, " after %" PRIu64 "ms"),
	STAT_FN(L, PACE, stripe_print_pace),
	STAT(L, QUEUE_US, " queue %" PRIu64 "us"),
	STAT(L, FRAMES_LOST, " frames_lost %" PRIu64),
	/* Absent until the receiver has measured it */
	STAT(L, RX_SKEW_US, " skew %" PRIu64 "us"),
};

/* A peer's: one the receiver heard within the last second */
static const struct stripe_stat_item stripe_peer_items[] = {
	STAT(P, ID, " 0x%08" PRIx64),
	STAT(P, AGE_MS, " heard %" PRIu64 "ms ago"),
	STAT(P, LINKS, " links %" PRIu64),
	STAT(P, SILENT, " silent %" PRIu64),
	STAT(P, SKEW_US, " skew %" PRIu64 "us"),
	STAT(P, FRAMES, " frames %" PRIu64),
	STAT(P, HELD, " held %" PRIu64),
	STAT(P, LOST_LINK, " lost_link %" PRIu64),
	STAT(P, LOST_TIMEOUT, " lost_timeout %" PRIu64),
	STAT(P, LATE, " late %" PRIu64),
};

static const char *stripe_stat_key(enum stripe_stat_kind kind, int attr)
{
	switch (kind) {
	case STRIPE_STAT_MASTER:
		return stripe_mstat_names[attr];
	case STRIPE_STAT_LINK:
		return stripe_lstat_names[attr];
	case STRIPE_STAT_PEER:
		return stripe_pstat_names[attr];
	}
	return NULL;
}

static void stripe_print_items(const struct stripe_stat_set *s,
			       const struct stripe_stat_item *it, size_t n)
{
	const char *key;

	for (; n > 0; n--, it++) {
		if (!it->attr) {
			if (s->have & it->when)
				print_string(PRINT_FP, NULL, "%s", it->fmt);
			continue;
		}
		if (!stripe_stat_has(s, it->attr))
			continue;
		key = stripe_stat_key(s->kind, it->attr);
		if (it->print)
			it->print(key, s->val[it->attr]);
		else
			print_u64(it->fmt ? PRINT_ANY : PRINT_JSON, key,
				  it->fmt, s->val[it->attr]);
	}
}

#define STRIPE_PRINT_ITEMS(s, items) \
	stripe_print_items(s, items, sizeof(items) / sizeof((items)[0]))

/* A new text line: the line separator, the indent, @word */
static void stripe_print_line(const char *indent, const char *word)
{
	print_nl();
	print_string(PRINT_FP, NULL, "%s", indent);
	print_string(PRINT_FP, NULL, "%s", word);
}

void stripe_link_flags_print(__u32 flags)
{
	bool first = true;
	size_t i;

	print_string(PRINT_FP, NULL, "%s", "flags ");
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

/*
 * The hold-time histogram: text " hold-us <16:N <64:N ... >=65536:N" on a
 * line of its own, JSON "rx_hold_hist": [ { "ge_us": 0, "lt_us": 16,
 * "packets": N }, ..., { "ge_us": 65536, "packets": N } ]; the buckets
 * that were read, each in its place.
 */
static void stripe_print_hold_hist(const struct stripe_stat_set *s,
				   const char *indent)
{
	const unsigned int last = STRIPE_HOLD_HIST_BUCKETS - 1;
	char label[32];
	unsigned int k;
	__u32 lo, hi;

	if (!s->hist_have)
		return;
	stripe_print_line(indent, "hold-us");
	open_json_array(PRINT_JSON, STRIPE_MSTAT_KEY(RX_HOLD_HIST));
	for (k = 0; k <= last; k++) {
		if (!(s->hist_have & 1U << k))
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
		print_u64(PRINT_ANY, "packets", ":%" PRIu64, s->hist[k]);
		close_json_object();
	}
	close_json_array(PRINT_JSON, NULL);
}

static void stripe_print_master(const struct rtattr *nest, __u8 role,
				const char *indent)
{
	struct stripe_stat_set s;

	stripe_stats_decode(STRIPE_STAT_MASTER, nest, &s);
	open_json_object(STRIPE_XSTATS_KEY(MASTER));
	print_string(PRINT_FP, NULL, "%s", indent);
	if (stripe_stat_has(&s, TCA_STRIPE_MSTAT_NAME))
		print_string(PRINT_ANY, STRIPE_MSTAT_KEY(NAME),
			     role == STRIPE_ROLE_LINK ? "member of %s"
						      : "master %s",
			     s.name);
	else
		print_string(PRINT_FP, NULL, "%s", "master ?");
	STRIPE_PRINT_ITEMS(&s, stripe_master_items);
	if (s.have & (HAS(M, RX_IN_ORDER) | HAS(M, RX_SENDERS)))
		stripe_print_line(indent, "resequencer");
	STRIPE_PRINT_ITEMS(&s, stripe_reseq_items);
	stripe_print_hold_hist(&s, indent);
	close_json_object();
}

/* A list's entries: one text line each, in JSON one object of its array */
struct stripe_list {
	int type;			/* TCA_STRIPE_XSTATS_LINK or _PEER */
	enum stripe_stat_kind kind;
	const char *word;		/* the line's first */
	const struct stripe_stat_item *items;
	size_t nitems;
	const char *indent;
};

static int stripe_print_entry(const struct rtattr *nest, void *arg)
{
	const struct stripe_list *l = arg;
	struct stripe_stat_set s;

	stripe_stats_decode(l->kind, nest, &s);
	stripe_print_line(l->indent, l->word);
	open_json_object(NULL);
	if (l->kind == STRIPE_STAT_LINK) {	/* a peer has its id only */
		if (stripe_stat_has(&s, TCA_STRIPE_LSTAT_NAME))
			print_string(PRINT_ANY, STRIPE_LSTAT_KEY(NAME), " %s",
				     s.name);
		else
			print_string(PRINT_FP, NULL, "%s", " ?");
	}
	stripe_print_items(&s, l->items, l->nitems);
	close_json_object();
	return 0;	/* the next, even after a link cut short */
}

/* The entries of @l in @list, as the JSON array @key */
static void stripe_print_list(const struct rtattr *list, const char *key,
			      struct stripe_list *l)
{
	open_json_array(PRINT_JSON, key);
	stripe_stats_each(list, l->type, stripe_print_entry, l);
	close_json_array(PRINT_JSON, NULL);
}

#define STRIPE_LIST(t, k, w, it, ind) {					\
	.type = t, .kind = k, .word = w, .items = it,			\
	.nitems = sizeof(it) / sizeof((it)[0]), .indent = ind }

void stripe_stats_print(const struct rtattr *xstats, const char *indent)
{
	struct stripe_list links = STRIPE_LIST(TCA_STRIPE_XSTATS_LINK,
					       STRIPE_STAT_LINK, "link",
					       stripe_link_items, indent);
	struct stripe_list peers = STRIPE_LIST(TCA_STRIPE_XSTATS_PEER,
					       STRIPE_STAT_PEER, "peer",
					       stripe_peer_items, indent);
	__u8 role = STRIPE_ROLE_MASTER;
	struct stripe_xstats x;

	stripe_xstats_decode(RTA_DATA(xstats), RTA_PAYLOAD(xstats), &x);
	if (x.has_role) {
		role = x.role;
		print_string(PRINT_JSON, STRIPE_XSTATS_KEY(ROLE), NULL,
			     role == STRIPE_ROLE_LINK ? "link" :
			     role == STRIPE_ROLE_MASTER ? "master" : "unknown");
	}
	if (x.master)
		stripe_print_master(x.master, role, indent);
	if (x.links)
		stripe_print_list(x.links, STRIPE_XSTATS_KEY(LINKS), &links);
	if (x.peers)
		stripe_print_list(x.peers, STRIPE_XSTATS_KEY(PEERS), &peers);
}
