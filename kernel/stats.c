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
			      TCA_STRIPE_LSTAT_PAD)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/* The receiver's counters, read under its lock for one consistent view. */
static int stripe_put_rx(struct stripe_master *m, struct sk_buff *skb)
{
	static const int attr[] = {
		TCA_STRIPE_MSTAT_RX_IN_ORDER, TCA_STRIPE_MSTAT_RX_RESEQUENCED,
		TCA_STRIPE_MSTAT_RX_HELD, TCA_STRIPE_MSTAT_RX_HELD_BYTES,
		TCA_STRIPE_MSTAT_RX_HOLD_MAX_US, TCA_STRIPE_MSTAT_RX_LOST_LINK,
		TCA_STRIPE_MSTAT_RX_LOST_TIMEOUT, TCA_STRIPE_MSTAT_RX_LOST_LIMIT,
		TCA_STRIPE_MSTAT_RX_LATE, TCA_STRIPE_MSTAT_RX_MALFORMED,
		TCA_STRIPE_MSTAT_RX_NO_STATE,
	};
	struct stripe_rx *rx = &m->rx;
	u64 v[ARRAY_SIZE(attr)];
	int i;

	spin_lock_bh(&rx->lock);
	v[0] = rx->in_order;
	v[1] = rx->resequenced;
	v[2] = rx->held;
	v[3] = rx->held_bytes;
	v[4] = rx->hold_max_us;
	v[5] = rx->lost_link;
	v[6] = rx->lost_timeout;
	v[7] = rx->lost_limit;
	v[8] = rx->late;
	v[9] = rx->malformed;
	v[10] = rx->no_state;
	spin_unlock_bh(&rx->lock);
	for (i = 0; i < ARRAY_SIZE(attr); i++)
		if (nla_put_u64_64bit(skb, attr[i], v[i], TCA_STRIPE_MSTAT_PAD))
			return -EMSGSIZE;
	return 0;
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
	    stripe_put_rx(m, skb)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

int stripe_dump_master_xstats(struct stripe_master *m, struct sk_buff *skb)
{
	struct stripe_link *link;
	struct nlattr *links;

	if (nla_put_u8(skb, TCA_STRIPE_XSTATS_ROLE, STRIPE_ROLE_MASTER) ||
	    stripe_put_master(m, skb))
		return -EMSGSIZE;
	links = nla_nest_start_noflag(skb, TCA_STRIPE_XSTATS_LINKS);
	if (!links)
		return -EMSGSIZE;
	list_for_each_entry(link, &m->links, node)
		if (stripe_put_link(link, skb))
			return -EMSGSIZE;
	nla_nest_end(skb, links);
	return 0;
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
