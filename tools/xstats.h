/* SPDX-License-Identifier: GPL-2.0 */
/* Parser for the stripe qdisc statistics (TCA_STATS_APP attribute tree in
 * include/uapi/linux/stripe.h). Pure: no sockets, so it is unit-tested on
 * hand-built buffers.
 */
#ifndef SP_XSTATS_H
#define SP_XSTATS_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/stripe.h>

struct nlmsghdr;

#define SP_XSTATS_MAX_LINKS	32

struct sp_xlink {
	uint32_t ifindex;
	uint32_t weight;
	uint32_t flags;		/* STRIPE_LINK_F_* */
	char name[IF_NAMESIZE];
	/* counters, tx_packets to tx_markers, in a row: see sp_xstats_delta */
	uint64_t tx_packets;
	uint64_t tx_bytes;
	uint64_t tx_busy;
	uint64_t tx_drops;
	uint64_t neigh_fail;
	uint64_t rx_packets;
	uint64_t rx_bytes;
	uint64_t tx_markers;
	bool has_skew;		/* the receiver has measured it */
	uint32_t rx_skew_us;	/* a level, not a counter */
};

struct sp_xmaster {
	char name[IF_NAMESIZE];
	uint32_t links;
	uint32_t active;
	/* counters, tx_packets to rx_markers, in a row: see sp_xstats_delta */
	uint64_t tx_packets;
	uint64_t tx_bytes;
	uint64_t tx_busy;
	uint64_t tx_drops;
	uint64_t rx_packets;
	uint64_t rx_bytes;
	uint64_t tx_markers;
	uint64_t rx_markers;
	bool has_sender_id;
	uint32_t sender_id;
	bool has_senders;
	uint32_t rx_senders;	/* a level, not a counter */
	/* Receive hold times: hold_hist[k] counts holds shorter than
	 * STRIPE_HOLD_HIST_BOUND_US(k), the last bucket has no bound.
	 * hold_hist_n buckets were sent (at most STRIPE_HOLD_HIST_BUCKETS:
	 * the buckets of a newer kernel past the last are added to it).
	 */
	unsigned int hold_hist_n;
	uint64_t hold_hist[STRIPE_HOLD_HIST_BUCKETS];
};

struct sp_xstats {
	bool has_role;
	bool has_master;
	bool has_markers;	/* the kernel sends marker counters */
	uint8_t role;		/* enum stripe_role */
	struct sp_xmaster master;
	unsigned int nlinks;
	struct sp_xlink link[SP_XSTATS_MAX_LINKS];
	unsigned int truncated;	/* links beyond SP_XSTATS_MAX_LINKS */
	unsigned int skipped;	/* attributes of a wrong size */
};

/* Parse the payload of TCA_STATS_APP. 0, or -EINVAL if the attribute
 * stream is malformed (what was parsed before the damage is kept).
 */
int sp_xstats_parse(const void *buf, size_t len, struct sp_xstats *x);

/* Parse an RTM_NEWQDISC message (nlmsg_len bytes of it readable, as
 * NLMSG_OK checks). 1 if it is a stripe qdisc on ifindex and
 * x was filled, 0 if it is some other qdisc, negative on malformed input.
 */
int sp_xstats_from_qdisc(const struct nlmsghdr *nlh, int ifindex,
			 struct sp_xstats *x);

/* d = after - before, links matched by ifindex (name if none).  Levels
 * (skew, senders, sender id) are after's.
 */
void sp_xstats_delta(const struct sp_xstats *before,
		     const struct sp_xstats *after, struct sp_xstats *d);

#endif /* SP_XSTATS_H */
