/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one spelling of every TCA_STRIPE master, link and peer statistic: the
 * key tc -s -j and ip -s -d -j print (plugin-common/stripe_stats_print.c),
 * stripe-perf -J writes (tools) and the man pages document. Each is the
 * attribute's name after TCA_STRIPE_?STAT_, in lower case.
 * tc-plugin/test-parse.sh checks that every attribute has one and that
 * tc-stripe.8 documents it; the tools' unit tests check that stripe-perf.1
 * documents every one stripe-perf writes.
 */
#ifndef _STRIPE_STATS_NAMES_H
#define _STRIPE_STATS_NAMES_H

#include <linux/stripe.h>

/* The statistics' top level: the role, and the master's, links' and peers'
 * statistics (an object and two arrays in JSON)
 */
static const char *const stripe_xstats_names[TCA_STRIPE_XSTATS_MAX + 1]
	__attribute__((unused)) = {
	[TCA_STRIPE_XSTATS_ROLE] = "role",
	[TCA_STRIPE_XSTATS_MASTER] = "master",
	[TCA_STRIPE_XSTATS_LINKS] = "links",
	[TCA_STRIPE_XSTATS_PEERS] = "peers",
};

static const char *const stripe_mstat_names[TCA_STRIPE_MSTAT_MAX + 1]
	__attribute__((unused)) = {
	[TCA_STRIPE_MSTAT_NAME] = "name",
	[TCA_STRIPE_MSTAT_LINKS] = "links",
	[TCA_STRIPE_MSTAT_ACTIVE] = "active",
	[TCA_STRIPE_MSTAT_TX_PACKETS] = "tx_packets",
	[TCA_STRIPE_MSTAT_TX_BYTES] = "tx_bytes",
	[TCA_STRIPE_MSTAT_TX_BUSY] = "tx_busy",
	[TCA_STRIPE_MSTAT_TX_DROPS] = "tx_drops",
	[TCA_STRIPE_MSTAT_RX_PACKETS] = "rx_packets",
	[TCA_STRIPE_MSTAT_RX_BYTES] = "rx_bytes",
	[TCA_STRIPE_MSTAT_RX_IN_ORDER] = "rx_in_order",
	[TCA_STRIPE_MSTAT_RX_RESEQUENCED] = "rx_resequenced",
	[TCA_STRIPE_MSTAT_RX_HELD] = "rx_held",
	[TCA_STRIPE_MSTAT_RX_HELD_BYTES] = "rx_held_bytes",
	[TCA_STRIPE_MSTAT_RX_HOLD_MAX_US] = "rx_hold_max_us",
	[TCA_STRIPE_MSTAT_RX_LOST_LINK] = "rx_lost_link",
	[TCA_STRIPE_MSTAT_RX_LOST_TIMEOUT] = "rx_lost_timeout",
	[TCA_STRIPE_MSTAT_RX_LOST_LIMIT] = "rx_lost_limit",
	[TCA_STRIPE_MSTAT_RX_LATE] = "rx_late",
	[TCA_STRIPE_MSTAT_RX_MALFORMED] = "rx_malformed",
	[TCA_STRIPE_MSTAT_RX_NO_STATE] = "rx_no_state",
	[TCA_STRIPE_MSTAT_SENDER_ID] = "sender_id",
	[TCA_STRIPE_MSTAT_TX_MARKERS] = "tx_markers",
	[TCA_STRIPE_MSTAT_RX_MARKERS] = "rx_markers",
	[TCA_STRIPE_MSTAT_RX_SENDERS] = "rx_senders",
	[TCA_STRIPE_MSTAT_RX_HOLD_HIST] = "rx_hold_hist",
	[TCA_STRIPE_MSTAT_RX_HOLD_US] = "rx_hold_us",
	[TCA_STRIPE_MSTAT_RX_LINK_REORDERED] = "rx_link_reordered",
	[TCA_STRIPE_MSTAT_TX_FEEDBACK] = "tx_feedback",
	[TCA_STRIPE_MSTAT_RX_FEEDBACK] = "rx_feedback",
	[TCA_STRIPE_MSTAT_RX_FEEDBACK_OTHER] = "rx_feedback_other",
	[TCA_STRIPE_MSTAT_RX_WRONG_ADDR] = "rx_wrong_addr",
	[TCA_STRIPE_MSTAT_RX_FEEDBACK_UNSENT] = "rx_feedback_unsent",
	[TCA_STRIPE_MSTAT_RX_HELD_MEM] = "rx_held_mem",
	[TCA_STRIPE_MSTAT_RX_FEEDBACK_UNKNOWN] = "rx_feedback_unknown",
	[TCA_STRIPE_MSTAT_TX_PEER_LEFT] = "tx_peer_left",
	[TCA_STRIPE_MSTAT_TX_PEER_BACK] = "tx_peer_back",
};

static const char *const stripe_lstat_names[TCA_STRIPE_LSTAT_MAX + 1]
	__attribute__((unused)) = {
	[TCA_STRIPE_LSTAT_IFINDEX] = "ifindex",
	[TCA_STRIPE_LSTAT_NAME] = "name",
	[TCA_STRIPE_LSTAT_WEIGHT] = "weight",
	[TCA_STRIPE_LSTAT_FLAGS] = "flags",
	[TCA_STRIPE_LSTAT_TX_PACKETS] = "tx_packets",
	[TCA_STRIPE_LSTAT_TX_BYTES] = "tx_bytes",
	[TCA_STRIPE_LSTAT_TX_BUSY] = "tx_busy",
	[TCA_STRIPE_LSTAT_TX_DROPS] = "tx_drops",
	[TCA_STRIPE_LSTAT_NEIGH_FAIL] = "neigh_fail",
	[TCA_STRIPE_LSTAT_RX_PACKETS] = "rx_packets",
	[TCA_STRIPE_LSTAT_RX_BYTES] = "rx_bytes",
	[TCA_STRIPE_LSTAT_RX_SKEW_US] = "rx_skew_us",
	[TCA_STRIPE_LSTAT_TX_MARKERS] = "tx_markers",
	[TCA_STRIPE_LSTAT_LEFT] = "left",
	[TCA_STRIPE_LSTAT_BACK] = "back",
	[TCA_STRIPE_LSTAT_LEFT_AFTER_MS] = "left_after_ms",
	[TCA_STRIPE_LSTAT_PACE] = "pace",
	[TCA_STRIPE_LSTAT_QUEUE_US] = "queue_us",
	[TCA_STRIPE_LSTAT_FRAMES_LOST] = "frames_lost",
};

static const char *const stripe_pstat_names[TCA_STRIPE_PSTAT_MAX + 1]
	__attribute__((unused)) = {
	[TCA_STRIPE_PSTAT_ID] = "id",
	[TCA_STRIPE_PSTAT_AGE_MS] = "age_ms",
	[TCA_STRIPE_PSTAT_LINKS] = "links",
	[TCA_STRIPE_PSTAT_SILENT] = "silent",
	[TCA_STRIPE_PSTAT_SKEW_US] = "skew_us",
	[TCA_STRIPE_PSTAT_FRAMES] = "frames",
	[TCA_STRIPE_PSTAT_HELD] = "held",
	[TCA_STRIPE_PSTAT_LOST_LINK] = "lost_link",
	[TCA_STRIPE_PSTAT_LOST_TIMEOUT] = "lost_timeout",
	[TCA_STRIPE_PSTAT_LATE] = "late",
};

/* The one spelling of each link flag (STRIPE_LINK_F_*, in bit order): tc
 * -s, ip -d link and stripe-perf's report print them, tc-stripe.8 lists
 * them
 */
struct stripe_flag_name {
	__u32 bit;
	const char *name;
};

static const struct stripe_flag_name stripe_link_flag_names[]
	__attribute__((unused)) = {
	{ STRIPE_LINK_F_UP,	  "up" },
	{ STRIPE_LINK_F_CARRIER,  "carrier" },
	{ STRIPE_LINK_F_ACTIVE,	  "active" },
	{ STRIPE_LINK_F_SILENT,	  "silent" },
	{ STRIPE_LINK_F_LOST,	  "lost" },
	{ STRIPE_LINK_F_DRAINING, "draining" },
};

#define STRIPE_LINK_NFLAGS \
	(sizeof(stripe_link_flag_names) / sizeof(stripe_link_flag_names[0]))

/* The key of TCA_STRIPE_XSTATS_<a> / _MSTAT_<a> / _LSTAT_<a> / _PSTAT_<a> */
#define STRIPE_XSTATS_KEY(a)	stripe_xstats_names[TCA_STRIPE_XSTATS_##a]
#define STRIPE_MSTAT_KEY(a)	stripe_mstat_names[TCA_STRIPE_MSTAT_##a]
#define STRIPE_LSTAT_KEY(a)	stripe_lstat_names[TCA_STRIPE_LSTAT_##a]
#define STRIPE_PSTAT_KEY(a)	stripe_pstat_names[TCA_STRIPE_PSTAT_##a]

#endif /* _STRIPE_STATS_NAMES_H */
