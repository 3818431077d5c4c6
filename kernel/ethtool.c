// SPDX-License-Identifier: GPL-2.0
/*
 * stripe: ethtool on a master.
 *
 * Speed is what the master can carry now: the sum of its active links'.
 * "ethtool -S" shows the master's counters and the receiver's; per-link
 * counters are on the link qdiscs ("tc -s qdisc show dev eth2").
 */
#include <linux/ethtool.h>
#include <linux/netdevice.h>

#include "stripe.h"

static void stripe_get_drvinfo(struct net_device *dev,
			       struct ethtool_drvinfo *info)
{
	strscpy(info->driver, STRIPE_KIND, sizeof(info->driver));
	strscpy(info->version, STRIPE_VERSION, sizeof(info->version));
	strscpy(info->bus_info, "N/A", sizeof(info->bus_info));
}

static int stripe_get_link_ksettings(struct net_device *dev,
				     struct ethtool_link_ksettings *ks)
{
	struct stripe_master *m = netdev_priv(dev);
	struct stripe_link *link;
	u32 speed = 0;

	ASSERT_RTNL();
	list_for_each_entry(link, &m->links, node)
		if (stripe_link_flags(link) & STRIPE_LINK_F_ACTIVE)
			speed += link->speed;
	ethtool_link_ksettings_zero_link_mode(ks, supported);
	ethtool_link_ksettings_zero_link_mode(ks, advertising);
	ks->base.speed = speed ?: SPEED_UNKNOWN;
	ks->base.duplex = speed ? DUPLEX_FULL : DUPLEX_UNKNOWN;
	ks->base.port = PORT_OTHER;
	ks->base.autoneg = AUTONEG_DISABLE;
	return 0;
}

/* Master counters first, then the receiver's, in this order */
static const char stripe_stat_names[][ETH_GSTRING_LEN] = {
	"tx_packets", "tx_bytes", "tx_busy", "tx_drops",
	"rx_packets", "rx_bytes", "tx_markers",
	"rx_in_order", "rx_resequenced", "rx_hold_max_us", "rx_lost_link",
	"rx_lost_timeout", "rx_lost_limit", "rx_late", "rx_malformed",
	"rx_no_state", "rx_markers", "rx_held", "rx_held_bytes",
	"links", "links_active",
};

#define STRIPE_NSTATS	ARRAY_SIZE(stripe_stat_names)

static int stripe_get_sset_count(struct net_device *dev, int sset)
{
	return sset == ETH_SS_STATS ? STRIPE_NSTATS : -EOPNOTSUPP;
}

static void stripe_get_strings(struct net_device *dev, u32 sset, u8 *buf)
{
	if (sset == ETH_SS_STATS)
		memcpy(buf, stripe_stat_names, sizeof(stripe_stat_names));
}

static void stripe_get_ethtool_stats(struct net_device *dev,
				     struct ethtool_stats *stats, u64 *data)
{
	struct stripe_master *m = netdev_priv(dev);
	struct stripe_master_counters c;
	struct stripe_reseq_stats st;
	struct stripe_link *link;
	u64 held, held_bytes;
	u64 *p = data;
	u32 active = 0;

	stripe_master_stats_read(m, &c);
	spin_lock_bh(&m->rx.lock);
	st = m->rx.reseq.stats;
	held = m->rx.reseq.held;
	held_bytes = m->rx.reseq.held_bytes;
	spin_unlock_bh(&m->rx.lock);
	st.malformed += c.rx_malformed;
	ASSERT_RTNL();
	list_for_each_entry(link, &m->links, node)
		if (stripe_link_flags(link) & STRIPE_LINK_F_ACTIVE)
			active++;

	*p++ = c.tx_packets;
	*p++ = c.tx_bytes;
	*p++ = c.tx_busy;
	*p++ = c.tx_drops;
	*p++ = c.rx_packets;
	*p++ = c.rx_bytes;
	*p++ = c.tx_markers;
	*p++ = st.in_order;
	*p++ = st.resequenced;
	*p++ = st.hold_max_us;
	*p++ = st.lost_link;
	*p++ = st.lost_timeout;
	*p++ = st.lost_limit;
	*p++ = st.late;
	*p++ = st.malformed;
	*p++ = st.no_state;
	*p++ = st.markers;
	*p++ = held;
	*p++ = held_bytes;
	*p++ = m->nr_links;
	*p++ = active;
	WARN_ON_ONCE(p - data != STRIPE_NSTATS);
}

const struct ethtool_ops stripe_ethtool_ops = {
	.get_drvinfo		= stripe_get_drvinfo,
	.get_link		= ethtool_op_get_link,
	.get_link_ksettings	= stripe_get_link_ksettings,
	.get_sset_count		= stripe_get_sset_count,
	.get_strings		= stripe_get_strings,
	.get_ethtool_stats	= stripe_get_ethtool_stats,
};
