// SPDX-License-Identifier: GPL-2.0
/*
 * stripe: statistics as nested netlink attributes (TCA_STATS_APP).
 *
 * Dumped under RTNL, so the master's link list is stable.  The layout is
 * documented in include/uapi/linux/stripe.h.
 */
#include <net/netlink.h>

#include "stripe.h"

static_assert(offsetof(struct stripe_link_stats, syncp) ==
	      STRIPE_LINK_NSTATS * sizeof(u64_stats_t));
static_assert(sizeof(struct stripe_link_counters) ==
	      STRIPE_LINK_NSTATS * sizeof(u64));
static_assert(offsetof(struct stripe_master_stats, syncp) ==
	      STRIPE_MASTER_NSTATS * sizeof(u64_stats_t));
static_assert(sizeof(struct stripe_master_counters) ==
	      STRIPE_MASTER_NSTATS * sizeof(u64));

/* Sum per-CPU counters (see stripe.h for the layout) into @sum. */
void stripe_stats_sum(const void __percpu *stats, unsigned int n, u64 *sum)
{
	u64 v[STRIPE_LINK_NSTATS];
	unsigned int i, start;
	int cpu;

	if (WARN_ON_ONCE(n > ARRAY_SIZE(v)))
		return;
	memset(sum, 0, n * sizeof(*sum));
	for_each_possible_cpu(cpu) {
		const u64_stats_t *c = per_cpu_ptr(stats, cpu);
		const struct u64_stats_sync *syncp = (const void *)(c + n);

		do {
			start = u64_stats_fetch_begin(syncp);
			for (i = 0; i < n; i++)
				v[i] = u64_stats_read(&c[i]);
		} while (u64_stats_fetch_retry(syncp, start));
		for (i = 0; i < n; i++)
			sum[i] += v[i];
	}
}

/* The link's skew as the master's receiver measured it, if it did */
static int stripe_put_skew(struct stripe_link *link, struct sk_buff *skb)
{
	struct stripe_master *m = rtnl_dereference(link->master);
	bool known;
	u32 skew;

	if (!m)
		return 0;
	spin_lock_bh(&m->rx.lock);
	known = stripe_reseq_skew(&m->rx.reseq, link->id, &skew);
	spin_unlock_bh(&m->rx.lock);
	return known ? nla_put_u32(skb, TCA_STRIPE_LSTAT_RX_SKEW_US, skew) : 0;
}

/* What the peer's feedback did with the link (feedback.c) */
static int stripe_put_health(struct stripe_link *link, struct sk_buff *skb)
{
	u64 left = READ_ONCE(link->fb_left);

	if (nla_put_u64_64bit(skb, TCA_STRIPE_LSTAT_LEFT, left,
			      TCA_STRIPE_LSTAT_PAD) ||
	    nla_put_u64_64bit(skb, TCA_STRIPE_LSTAT_BACK,
			      READ_ONCE(link->fb_back), TCA_STRIPE_LSTAT_PAD))
		return -EMSGSIZE;
	return left ? nla_put_u32(skb, TCA_STRIPE_LSTAT_LEFT_AFTER_MS,
				  READ_ONCE(link->fb_left_after_ms)) : 0;
}

/* Its pace (adaptive shares, share.c), the queueing and loss the peer
 * reports
 */
static int stripe_put_share(struct stripe_link *link, struct sk_buff *skb)
{
	u32 queue_us = READ_ONCE(link->queue_us);

	if (nla_put_u32(skb, TCA_STRIPE_LSTAT_PACE, stripe_link_pace(link)) ||
	    nla_put_u64_64bit(skb, TCA_STRIPE_LSTAT_FRAMES_LOST,
			      READ_ONCE(link->frames_lost), TCA_STRIPE_LSTAT_PAD))
		return -EMSGSIZE;
	return queue_us != U32_MAX ?
	       nla_put_u32(skb, TCA_STRIPE_LSTAT_QUEUE_US, queue_us) : 0;
}

static int stripe_put_link(struct stripe_link *link, struct sk_buff *skb)
{
	struct stripe_link_counters c;
	struct nlattr *nest;

	stripe_link_stats_read(link, &c);
	nest = nla_nest_start_noflag(skb, TCA_STRIPE_XSTATS_LINK);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, TCA_STRIPE_LSTAT_IFINDEX, link->dev->ifindex) ||
	    nla_put_string(skb, TCA_STRIPE_LSTAT_NAME, link->dev->name) ||
	    nla_put_u32(skb, TCA_STRIPE_LSTAT_WEIGHT, stripe_link_weight(link)) ||
	    nla_put_u32(skb, TCA_STRIPE_LSTAT_FLAGS, stripe_link_flags(link)) ||
	    nla_put_u64_64bit(skb, TCA_STRIPE_LSTAT_TX_PACKETS, c.tx_packets,
			      TCA_STRIPE_LSTAT_PAD) ||
	    nla_put_u64_64bit(skb, TCA_STRIPE_LSTAT_TX_BYTES, c.tx_bytes,
			      TCA_STRIPE_LSTAT_PAD) ||
	    nla_put_u64_64bit(skb, TCA_STRIPE_LSTAT_TX_BUSY, c.tx_busy,
			      TCA_STRIPE_LSTAT_PAD) ||
	    nla_put_u64_64bit(skb, TCA_STRIPE_LSTAT_TX_DROPS, c.tx_drops,
			      TCA_STRIPE_LSTAT_PAD) ||
	    nla_put_u64_64bit(skb, TCA_STRIPE_LSTAT_NEIGH_FAIL, c.neigh_fail,
			      TCA_STRIPE_LSTAT_PAD) ||
	    nla_put_u64_64bit(skb, TCA_STRIPE_LSTAT_RX_PACKETS, c.rx_packets,
			      TCA_STRIPE_LSTAT_PAD) ||
	    nla_put_u64_64bit(skb, TCA_STRIPE_LSTAT_RX_BYTES, c.rx_bytes,
			      TCA_STRIPE_LSTAT_PAD) ||
	    nla_put_u64_64bit(skb, TCA_STRIPE_LSTAT_TX_MARKERS, c.tx_markers,
			      TCA_STRIPE_LSTAT_PAD) ||
	    stripe_put_health(link, skb) ||
	    stripe_put_share(link, skb) ||
	    stripe_put_skew(link, skb)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

static int stripe_put_hist(struct sk_buff *skb, const u64 *hist)
{
	struct nlattr *nest;
	int k;

	nest = nla_nest_start_noflag(skb, TCA_STRIPE_MSTAT_RX_HOLD_HIST);
	if (!nest)
		return -EMSGSIZE;
	for (k = 0; k < STRIPE_HOLD_HIST_BUCKETS; k++) {
		if (nla_put_u64_64bit(skb, TCA_STRIPE_HIST_BUCKET, hist[k],
				      TCA_STRIPE_HIST_PAD)) {
			nla_nest_cancel(skb, nest);
			return -EMSGSIZE;
		}
	}
	nla_nest_end(skb, nest);
	return 0;
}

#define RX_STAT(attr, field) \
	{ TCA_STRIPE_MSTAT_RX_##attr, offsetof(struct stripe_reseq_stats, field) }

static const struct {
	int attr;
	size_t off;
} stripe_rx_stats[] = {
	RX_STAT(IN_ORDER, in_order),
	RX_STAT(RESEQUENCED, resequenced),
	RX_STAT(HOLD_MAX_US, hold_max_us),
	RX_STAT(LOST_LINK, lost_link),
	RX_STAT(LOST_TIMEOUT, lost_timeout),
	RX_STAT(LOST_LIMIT, lost_limit),
	RX_STAT(LATE, late),
	RX_STAT(MALFORMED, malformed),
	RX_STAT(NO_STATE, no_state),
	RX_STAT(WRONG_ADDR, wrong_addr),
	RX_STAT(MARKERS, markers),
	RX_STAT(LINK_REORDERED, link_reordered),
};

/* The receiver's counters, read under its lock for one consistent view. */
static int stripe_put_rx(struct stripe_master *m, struct sk_buff *skb)
{
	struct stripe_master_counters c;
	struct stripe_rx *rx = &m->rx;
	struct stripe_reseq_stats st;
	u64 held, held_bytes, held_mem;
	u32 senders;
	int i;

	spin_lock_bh(&rx->lock);
	st = rx->reseq.stats;
	held = rx->reseq.held;
	held_bytes = rx->reseq.held_bytes;
	held_mem = rx->reseq.held_mem;
	senders = stripe_reseq_senders(&rx->reseq);
	stripe_rx_update_skew(m);
	spin_unlock_bh(&rx->lock);
	stripe_master_stats_read(m, &c);
	st.malformed += c.rx_malformed;
	for (i = 0; i < ARRAY_SIZE(stripe_rx_stats); i++)
		if (nla_put_u64_64bit(skb, stripe_rx_stats[i].attr,
				      *(u64 *)((u8 *)&st + stripe_rx_stats[i].off),
				      TCA_STRIPE_MSTAT_PAD))
			return -EMSGSIZE;
	if (nla_put_u64_64bit(skb, TCA_STRIPE_MSTAT_RX_HELD, held,
			      TCA_STRIPE_MSTAT_PAD) ||
	    nla_put_u64_64bit(skb, TCA_STRIPE_MSTAT_RX_HELD_BYTES, held_bytes,
			      TCA_STRIPE_MSTAT_PAD) ||
	    nla_put_u64_64bit(skb, TCA_STRIPE_MSTAT_RX_HELD_MEM, held_mem,
			      TCA_STRIPE_MSTAT_PAD) ||
	    nla_put_u32(skb, TCA_STRIPE_MSTAT_RX_SENDERS, senders) ||
	    nla_put_u32(skb, TCA_STRIPE_MSTAT_RX_HOLD_US,
			div_u64(stripe_hold_ns(m), NSEC_PER_USEC)))
		return -EMSGSIZE;
	return stripe_put_hist(skb, st.hold_hist);
}

static int stripe_put_master(struct stripe_master *m, struct sk_buff *skb)
{
	struct stripe_master_counters c;
	struct stripe_link *link;
	struct nlattr *nest;
	u32 active = 0;

	stripe_master_stats_read(m, &c);
	list_for_each_entry(link, &m->links, node)
		if (stripe_link_flags(link) & STRIPE_LINK_F_ACTIVE)
			active++;
	nest = nla_nest_start_noflag(skb, TCA_STRIPE_XSTATS_MASTER);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_string(skb, TCA_STRIPE_MSTAT_NAME, m->dev->name) ||
	    nla_put_u32(skb, TCA_STRIPE_MSTAT_LINKS, m->nr_links) ||
	    nla_put_u32(skb, TCA_STRIPE_MSTAT_ACTIVE, active) ||
	    nla_put_u64_64bit(skb, TCA_STRIPE_MSTAT_TX_PACKETS, c.tx_packets,
			      TCA_STRIPE_MSTAT_PAD) ||
	    nla_put_u64_64bit(skb, TCA_STRIPE_MSTAT_TX_BYTES, c.tx_bytes,
			      TCA_STRIPE_MSTAT_PAD) ||
	    nla_put_u64_64bit(skb, TCA_STRIPE_MSTAT_TX_BUSY, c.tx_busy,
			      TCA_STRIPE_MSTAT_PAD) ||
	    nla_put_u64_64bit(skb, TCA_STRIPE_MSTAT_TX_DROPS, c.tx_drops,
			      TCA_STRIPE_MSTAT_PAD) ||
	    nla_put_u64_64bit(skb, TCA_STRIPE_MSTAT_RX_PACKETS, c.rx_packets,
			      TCA_STRIPE_MSTAT_PAD) ||
	    nla_put_u64_64bit(skb, TCA_STRIPE_MSTAT_RX_BYTES, c.rx_bytes,
			      TCA_STRIPE_MSTAT_PAD) ||
	    nla_put_u32(skb, TCA_STRIPE_MSTAT_SENDER_ID, m->sender_id) ||
	    nla_put_u64_64bit(skb, TCA_STRIPE_MSTAT_TX_MARKERS, c.tx_markers,
			      TCA_STRIPE_MSTAT_PAD) ||
	    nla_put_u64_64bit(skb, TCA_STRIPE_MSTAT_TX_FEEDBACK,
			      READ_ONCE(m->fb_tx), TCA_STRIPE_MSTAT_PAD) ||
	    nla_put_u64_64bit(skb, TCA_STRIPE_MSTAT_RX_FEEDBACK,
			      READ_ONCE(m->fb_rx), TCA_STRIPE_MSTAT_PAD) ||
	    nla_put_u64_64bit(skb, TCA_STRIPE_MSTAT_RX_FEEDBACK_OTHER,
			      READ_ONCE(m->fb_rx_other), TCA_STRIPE_MSTAT_PAD) ||
	    nla_put_u64_64bit(skb, TCA_STRIPE_MSTAT_RX_FEEDBACK_UNSENT,
			      READ_ONCE(m->fb_rx_unsent), TCA_STRIPE_MSTAT_PAD) ||
	    nla_put_u64_64bit(skb, TCA_STRIPE_MSTAT_RX_FEEDBACK_UNKNOWN,
			      READ_ONCE(m->fb_rx_unknown), TCA_STRIPE_MSTAT_PAD) ||
	    nla_put_u64_64bit(skb, TCA_STRIPE_MSTAT_TX_PEER_LEFT,
			      READ_ONCE(m->fb_space_left), TCA_STRIPE_MSTAT_PAD) ||
	    nla_put_u64_64bit(skb, TCA_STRIPE_MSTAT_TX_PEER_BACK,
			      READ_ONCE(m->fb_space_back), TCA_STRIPE_MSTAT_PAD) ||
	    stripe_put_rx(m, skb)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

static int stripe_put_peer(struct sk_buff *skb,
			   const struct stripe_reseq_peer *p)
{
	struct nlattr *nest;

	nest = nla_nest_start_noflag(skb, TCA_STRIPE_XSTATS_PEER);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, TCA_STRIPE_PSTAT_ID, p->id) ||
	    nla_put_u32(skb, TCA_STRIPE_PSTAT_AGE_MS, p->age_ms) ||
	    nla_put_u32(skb, TCA_STRIPE_PSTAT_LINKS, p->links) ||
	    nla_put_u32(skb, TCA_STRIPE_PSTAT_SILENT, p->silent) ||
	    nla_put_u32(skb, TCA_STRIPE_PSTAT_SKEW_US, p->skew_us) ||
	    nla_put_u64_64bit(skb, TCA_STRIPE_PSTAT_FRAMES, p->frames,
			      TCA_STRIPE_PSTAT_PAD) ||
	    nla_put_u64_64bit(skb, TCA_STRIPE_PSTAT_HELD, p->held,
			      TCA_STRIPE_PSTAT_PAD) ||
	    nla_put_u64_64bit(skb, TCA_STRIPE_PSTAT_LOST_LINK, p->lost_link,
			      TCA_STRIPE_PSTAT_PAD) ||
	    nla_put_u64_64bit(skb, TCA_STRIPE_PSTAT_LOST_TIMEOUT,
			      p->lost_timeout, TCA_STRIPE_PSTAT_PAD) ||
	    nla_put_u64_64bit(skb, TCA_STRIPE_PSTAT_LATE, p->late,
			      TCA_STRIPE_PSTAT_PAD)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/* Bytes of the message the peers' lines leave to the rest of the qdisc's
 * message (tc_fill_qdisc: TCA_STATS2's basic and queue counters, TCA_STATS)
 */
#define STRIPE_PEERS_ROOM	512
/* ... and a link's line takes less than this (about 400 bytes) */
#define STRIPE_LINK_ROOM	(STRIPE_PEERS_ROOM + 768)

/* The peers the receiver heard within the last second: one at a time
 * under its lock, each consistent in itself
 */
static int stripe_put_peers(struct stripe_master *m, struct sk_buff *skb)
{
	struct stripe_reseq_peer p;
	struct nlattr *peers;
	u64 silent_ns;
	bool heard;
	u32 slot;

	peers = nla_nest_start_noflag(skb, TCA_STRIPE_XSTATS_PEERS);
	if (!peers)
		return -EMSGSIZE;
	silent_ns = stripe_hold_ns(m);	/* as rx.c's loss rule */
	for (slot = 0; slot < STRIPE_RX_SENDERS; slot++) {
		spin_lock_bh(&m->rx.lock);
		slot = stripe_reseq_next_slot(&m->rx.reseq, slot);
		heard = stripe_reseq_peer(&m->rx.reseq, slot, silent_ns,
					  ktime_get_ns(), &p);
		spin_unlock_bh(&m->rx.lock);
		/* As many as the message holds, with room left for what the
		 * qdisc's dump adds after us (TCA_STATS ...): a gateway's
		 * hosts may not all fit, its statistics must
		 */
		if (heard && (skb_tailroom(skb) < STRIPE_PEERS_ROOM ||
			      stripe_put_peer(skb, &p)))
			break;
	}
	nla_nest_end(skb, peers);
	return 0;
}

/* The master's statistics: its counters, its links' and, with @peers, the
 * peers heard lately, as many as the message holds.  Only tc's qdisc dump
 * asks for peers: what follows there is small (STRIPE_PEERS_ROOM).  A link
 * message (RTM_GETLINK, "ip -s -d link", and tc's own look-up of link names)
 * adds the address families' attributes after ours and is sized by
 * stripe_get_xstats_size(): filling it with peers made every such dump fail
 * with EMSGSIZE while some hundred peers were heard.
 * A message that is not @first in its buffer and lacks room for every link
 * fails with -EMSGSIZE: a dump then sends it first in its next buffer, which
 * is as large as the reader's (a fresh socket's first buffer is 4 KB, and
 * stripe-perf's dump of six links under six links' qdiscs got none of them).
 */
int stripe_dump_master_xstats(struct stripe_master *m, struct sk_buff *skb,
			      bool peers, bool first)
{
	struct stripe_link *link;
	struct nlattr *links;

	if (nla_put_u8(skb, TCA_STRIPE_XSTATS_ROLE, STRIPE_ROLE_MASTER) ||
	    stripe_put_master(m, skb))
		return -EMSGSIZE;
	links = nla_nest_start_noflag(skb, TCA_STRIPE_XSTATS_LINKS);
	if (!links)
		return -EMSGSIZE;
	list_for_each_entry(link, &m->links, node) {
		/* A small message (the dump's large buffer could not be had:
		 * 3.7 KB after a flood of senders churned memory) keeps the
		 * master's counters and the links that fit, with room for
		 * what the qdisc's dump adds after us; no peers then.
		 */
		if (skb_tailroom(skb) < STRIPE_LINK_ROOM ||
		    stripe_put_link(link, skb)) {
			if (!first)
				return -EMSGSIZE;
			nla_nest_end(skb, links);
			return 0;
		}
	}
	nla_nest_end(skb, links);
	return peers ? stripe_put_peers(m, skb) : 0;
}

int stripe_dump_link_xstats(struct stripe_link *link, struct sk_buff *skb)
{
	struct stripe_master *m = rtnl_dereference(link->master);
	struct nlattr *nest;

	if (nla_put_u8(skb, TCA_STRIPE_XSTATS_ROLE, STRIPE_ROLE_LINK))
		return -EMSGSIZE;
	if (m) {
		nest = nla_nest_start_noflag(skb, TCA_STRIPE_XSTATS_MASTER);
		if (!nest ||
		    nla_put_string(skb, TCA_STRIPE_MSTAT_NAME, m->dev->name))
			return -EMSGSIZE;
		nla_nest_end(skb, nest);
	}
	nest = nla_nest_start_noflag(skb, TCA_STRIPE_XSTATS_LINKS);
	if (!nest || stripe_put_link(link, skb))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}
