// SPDX-License-Identifier: GPL-2.0
/*
 * stripe: the master device.
 *
 * A master is an L3 device ("ip link add stripe0 type stripe") with no
 * queue and no lock of its own: its transmit runs on every CPU at once and
 * hands each packet to one of its links (xmit.c).  Like teql it has no link
 * layer address; the next hop is resolved on the link that carries the
 * packet.  It follows its links: the MTU is the smallest link MTU, offloads
 * are those every link has, and the carrier is on while a link can send.
 */
#include <linux/etherdevice.h>
#include <linux/if_arp.h>
#include <linux/ipv6.h>
#include <linux/module.h>
#include <linux/rtnetlink.h>
#include <net/ipv6.h>
#include <net/rtnetlink.h>

#include "stripe.h"

/* Offloads the master passes through when every link has them.  No TSO:
 * the core segments a GSO packet before our transmit, so every segment is
 * striped on its own (see Documentation/design.rst).
 */
#define STRIPE_FEATURES	(NETIF_F_SG | NETIF_F_HW_CSUM | NETIF_F_IP_CSUM | \
			 NETIF_F_IPV6_CSUM | NETIF_F_HIGHDMA)

static const struct net_device_ops stripe_master_netdev_ops;

bool stripe_is_master(const struct net_device *dev)
{
	return dev->netdev_ops == &stripe_master_netdev_ops;
}

static void stripe_table_free(struct stripe_table *t)
{
	if (t)
		kfree_rcu(t, rcu);
}

/* A table of the master's links but @skip (NULL: all of them), each with
 * quantum * weight / smallest weight bytes per round, so the smallest sends
 * one quantum; then at the link's pace (adaptive shares, share.c).
 */
static struct stripe_table *stripe_table_build(struct stripe_master *m,
					       const struct stripe_link *skip,
					       u32 quantum, gfp_t gfp)
{
	struct stripe_table *t;
	struct stripe_link *link;
	u32 i = 0, wmin = U32_MAX;

	t = kzalloc(struct_size(t, slot, m->nr_links), gfp);
	if (!t)
		return NULL;
	list_for_each_entry(link, &m->links, node)
		if (link != skip)
			wmin = min(wmin, stripe_link_weight(link));
	list_for_each_entry(link, &m->links, node) {
		u64 share = (u64)quantum * stripe_link_weight(link);

		if (link == skip)
			continue;
		t->slot[i].link = link;
		t->slot[i].base = min_t(u64, div_u64(share, wmin), S32_MAX / 2);
		i++;
	}
	t->n = i;
	stripe_share_apply(t);
	return t;
}

static void stripe_table_publish(struct stripe_master *m,
				 struct stripe_table *t)
{
	struct stripe_table *old = rtnl_dereference(m->table);

	t->gen = ++m->table_gen;
	rcu_assign_pointer(m->table, t);
	stripe_table_free(old);
}

/* Publish a new table of the master's links.  Called under RTNL after every
 * change of the link set or of a weight.  Out of memory, the table in force
 * stays: it names no link that is not on the list (a leaving link uses
 * stripe_master_drop_link()), it only has the old weights.
 */
int stripe_master_rebuild(struct stripe_master *m)
{
	struct stripe_table *t;

	ASSERT_RTNL();
	t = stripe_table_build(m, NULL, m->cfg.quantum, GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	stripe_table_publish(m, t);
	return 0;
}

/* Publish the table without @link, which is about to leave and be freed:
 * no table may name it once it is off the list.  Leaving cannot fail
 * (qdisc destroy, device unregister) and the table is at most about 1 KB,
 * so the allocation may wait for memory rather than fail.
 */
void stripe_master_drop_link(struct stripe_master *m, struct stripe_link *link)
{
	ASSERT_RTNL();
	stripe_table_publish(m, stripe_table_build(m, link, m->cfg.quantum,
						   GFP_KERNEL | __GFP_NOFAIL));
}

/* The bytes the stripe header takes from every frame with reorder on */
static unsigned int stripe_header_room(u8 reorder)
{
	return reorder == STRIPE_REORDER_ON ? sizeof(struct stripe_wire_hdr) : 0;
}

/* The largest MTU the links leave the master, 0 without links */
static unsigned int stripe_links_mtu(const struct stripe_master *m, u8 reorder)
{
	const struct stripe_link *link;
	unsigned int mtu = 0;

	list_for_each_entry(link, &m->links, node)
		if (!mtu || link->dev->mtu < mtu)
			mtu = link->dev->mtu;
	return mtu ? mtu - stripe_header_room(reorder) : 0;
}

/* May a link of MTU @mtu carry a master that keeps IPv6 (1280) with
 * @reorder?  The smallest link MTU bounds the master's.
 */
bool stripe_link_mtu_ok(unsigned int mtu, u8 reorder)
{
	return mtu >= IPV6_MIN_MTU + stripe_header_room(reorder);
}

/* Recompute what the master takes from its links: MTU, offloads, headroom
 * and carrier.  Called under RTNL whenever a link joins, leaves or changes.
 * An MTU the user set stays while the links allow it; without one the
 * master takes the largest they allow.
 */
void stripe_master_update(struct stripe_master *m)
{
	u8 reorder = READ_ONCE(m->cfg.reorder);
	struct net_device *dev = m->dev;
	struct stripe_link *link;
	unsigned int mtu, headroom = 0;
	bool carrier = false;

	ASSERT_RTNL();
	list_for_each_entry(link, &m->links, node) {
		headroom = max_t(unsigned int, headroom,
				 LL_RESERVED_SPACE(link->dev));
		if (stripe_link_flags(link) & STRIPE_LINK_F_ACTIVE)
			carrier = true;
	}
	dev->needed_headroom = headroom + stripe_header_room(reorder);
	mtu = stripe_links_mtu(m, reorder);
	if (mtu && m->mtu_user)
		mtu = min(mtu, m->mtu_user);
	if (mtu && mtu != dev->mtu) {
		m->mtu_following = true;
		dev_set_mtu(dev, mtu);
		m->mtu_following = false;
	}
	netdev_update_features(dev);
	if (carrier)
		netif_carrier_on(dev);
	else
		netif_carrier_off(dev);
}

/* Change the master's options to @cfg, a copy of m->cfg with the requested
 * changes, after checking all of it: nothing changes if anything is
 * refused.  The one place the options change, whichever interface asked
 * (rtnetlink's IFLA_INFO_DATA or tc's qdisc on the master).
 */
int stripe_master_configure(struct stripe_master *m,
			    const struct stripe_config *cfg,
			    struct netlink_ext_ack *extack)
{
	struct stripe_config *cur = &m->cfg;
	bool reorder = cfg->reorder != cur->reorder;
	bool probe = cfg->probe_target != cur->probe_target ||
		     !ipv6_addr_equal(&cfg->probe_target6, &cur->probe_target6);
	struct stripe_table *t = NULL;
	struct stripe_link *link;

	ASSERT_RTNL();
	list_for_each_entry(link, &m->links, node) {
		if (reorder && !stripe_link_mtu_ok(link->dev->mtu, cfg->reorder)) {
			NL_SET_ERR_MSG_MOD(extack,
					   "reorder on needs links of MTU 1304 or more: its 24-byte header would leave the master below IPv6's 1280");
			return -EINVAL;
		}
	}
	if (cfg->quantum != cur->quantum) {
		t = stripe_table_build(m, NULL, cfg->quantum, GFP_KERNEL);
		if (!t) {
			NL_SET_ERR_MSG_MOD(extack, "out of memory for the link table");
			return -ENOMEM;
		}
	}
	WRITE_ONCE(cur->quantum, cfg->quantum);
	WRITE_ONCE(cur->reorder, cfg->reorder);
	WRITE_ONCE(cur->hold_max_us, cfg->hold_max_us);
	WRITE_ONCE(cur->flow_limit, cfg->flow_limit);
	WRITE_ONCE(cur->buffer_limit, cfg->buffer_limit);
	WRITE_ONCE(cur->memory_limit, cfg->memory_limit);
	WRITE_ONCE(cur->stripe_min, cfg->stripe_min);
	WRITE_ONCE(cur->hold_auto, cfg->hold_auto);
	WRITE_ONCE(cur->probe_target, cfg->probe_target);
	WRITE_ONCE(cur->probe_interval_us, cfg->probe_interval_us);
	stripe_probe_set_target6(m, &cfg->probe_target6);
	if (t)
		stripe_table_publish(m, t);
	if (reorder)
		stripe_master_update(m);	/* the header changes the MTU */
	if (reorder || probe) {
		/* Failover by feedback (reorder on) or by probing (off, with a
		 * target): whichever is in force starts afresh.
		 */
		spin_lock_bh(&m->fb_lock);
		list_for_each_entry(link, &m->links, node) {
			WRITE_ONCE(link->rx_silent, false);
			WRITE_ONCE(link->peer_lost, false);
			WRITE_ONCE(link->fb_unanswered_since, 0);
		}
		spin_unlock_bh(&m->fb_lock);
		stripe_share_reset(m);
		stripe_link_state_changed(m);
	}
	stripe_probe_arm(m);
	return 0;
}

static netdev_features_t stripe_fix_features(struct net_device *dev,
					     netdev_features_t features)
{
	struct stripe_master *m = netdev_priv(dev);
	netdev_features_t common = STRIPE_FEATURES;
	struct stripe_link *link;

	list_for_each_entry(link, &m->links, node)
		common &= link->dev->features;
	/* Checksum offload is only useful together with scatter-gather. */
	if (!(common & NETIF_F_SG))
		common &= ~NETIF_F_CSUM_MASK;
	return features & (common | ~STRIPE_FEATURES);
}

static int stripe_change_mtu(struct net_device *dev, int new_mtu)
{
	struct stripe_master *m = netdev_priv(dev);
	unsigned int max = stripe_links_mtu(m, READ_ONCE(m->cfg.reorder));

	if (max && new_mtu > max) {
		netdev_err(dev, "MTU %d is larger than the %u its links allow\n",
			   new_mtu, max);
		return -EINVAL;
	}
	/* The user's choice, kept across link changes (see update) */
	if (!m->mtu_following)
		m->mtu_user = new_mtu;
	dev->mtu = new_mtu;
	return 0;
}

static int stripe_master_init(struct net_device *dev)
{
	struct stripe_master *m = netdev_priv(dev);

	m->dev = dev;
	/* Its transmit nests the links' (qdisc busylock, xmit lock): classes
	 * of its own, as bonding and team have, or lockdep sees recursion
	 */
	netdev_lockdep_set_classes(dev);
	INIT_LIST_HEAD(&m->links);
	m->sender_id = get_random_u32();
	spin_lock_init(&m->tx_space_lock);
	stripe_marker_init(m);
	stripe_feedback_init(m);
	stripe_probe_init(m);
	stripe_link_state_init(m);
	m->srr = alloc_percpu(struct stripe_srr);
	m->stats = netdev_alloc_pcpu_stats(struct stripe_master_stats);
	m->rx.cpu_at = alloc_percpu(u64);
	if (!m->srr || !m->stats || !m->rx.cpu_at)
		goto err;
	if (stripe_master_rebuild(m))
		goto err;
	stripe_rx_init(m);
	return 0;
err:
	free_percpu(m->srr);
	free_percpu(m->stats);
	free_percpu(m->rx.cpu_at);
	return -ENOMEM;
}

/* Unregistering: every link leaves first, so none points here any more.
 * A link joined with ip link gets its default qdisc back, as from
 * "nomaster"; one joined with tc keeps its stripe qdisc, a plain FIFO.
 */
static void stripe_master_uninit(struct net_device *dev)
{
	struct stripe_master *m = netdev_priv(dev);
	struct stripe_link *link, *tmp;

	list_for_each_entry_safe(link, tmp, &m->links, node) {
		if (link->enslaved &&
		    link->dev->reg_state == NETREG_REGISTERED)
			stripe_release(link);
		else
			stripe_link_leave(link);
	}
	stripe_marker_stop(m);
	stripe_feedback_stop(m);
	stripe_probe_stop(m);
	stripe_link_state_stop(m);
	stripe_rx_destroy(m);
	stripe_table_free(rtnl_dereference(m->table));
	RCU_INIT_POINTER(m->table, NULL);
}

/* Runs after the last reference is gone (needs_free_netdev). */
static void stripe_master_destructor(struct net_device *dev)
{
	struct stripe_master *m = netdev_priv(dev);

	free_percpu(m->srr);
	free_percpu(m->stats);
	free_percpu(m->rx.cpu_at);
}

static void stripe_get_stats64(struct net_device *dev,
			       struct rtnl_link_stats64 *s)
{
	struct stripe_master *m = netdev_priv(dev);
	struct stripe_master_counters c;

	stripe_master_stats_read(m, &c);
	s->tx_packets = c.tx_packets;
	s->tx_bytes = c.tx_bytes;
	s->tx_dropped = c.tx_drops;
	s->rx_packets = c.rx_packets;
	s->rx_bytes = c.rx_bytes;
}

static const struct net_device_ops stripe_master_netdev_ops = {
	.ndo_init		= stripe_master_init,
	.ndo_uninit		= stripe_master_uninit,
	.ndo_start_xmit		= stripe_master_xmit,
	.ndo_change_mtu		= stripe_change_mtu,
	.ndo_fix_features	= stripe_fix_features,
	.ndo_get_stats64	= stripe_get_stats64,
	.ndo_add_slave		= stripe_add_slave,
	.ndo_del_slave		= stripe_del_slave,
};

static void stripe_master_setup(struct net_device *dev)
{
	struct stripe_master *m = netdev_priv(dev);

	/* Here, not in ndo_init: newlink sets options before registering. */
	m->cfg.quantum = STRIPE_QUANTUM_DEFAULT;
	m->cfg.reorder = STRIPE_REORDER_OFF;
	m->cfg.hold_max_us = STRIPE_HOLD_DEFAULT_US;
	m->cfg.flow_limit = STRIPE_FLOW_LIMIT_DEFAULT;
	m->cfg.buffer_limit = STRIPE_BUFFER_LIMIT_DEFAULT;
	m->cfg.memory_limit = STRIPE_MEMORY_LIMIT_DEFAULT;
	/* The hold bound follows what the receiver measures */
	m->cfg.hold_auto = 1;
	m->cfg.probe_interval_us = STRIPE_PROBE_INTERVAL_US_DEFAULT;
	dev->netdev_ops = &stripe_master_netdev_ops;
	dev->ethtool_ops = &stripe_ethtool_ops;
	dev->needs_free_netdev = true;
	dev->priv_destructor = stripe_master_destructor;
	dev->type = ARPHRD_NONE;
	dev->flags = IFF_NOARP | IFF_MULTICAST;
	/* No queue of its own: the links' qdiscs queue.  Keep the route: the
	 * next hop is resolved on the link at transmit time.
	 */
	dev->priv_flags |= IFF_NO_QUEUE;
	dev->priv_flags &= ~IFF_XMIT_DST_RELEASE;
	dev->tx_queue_len = 0;
	dev->hard_header_len = 0;
	dev->addr_len = 0;
	dev->mtu = ETH_DATA_LEN;
	dev->min_mtu = ETH_MIN_MTU;
	dev->max_mtu = ETH_MAX_MTU;
	/* Links live in the master's namespace. */
	dev->features |= NETIF_F_LLTX | NETIF_F_NETNS_LOCAL | STRIPE_FEATURES;
	dev->hw_features = STRIPE_FEATURES;
	dev->rtnl_link_ops = &stripe_link_ops;
}

/* The master's options, IFLA_INFO_DATA, read by options.c as tc's are.
 * Their ranges are in the policy too, so a policy dump tells them; a
 * full-range policy is used for u32 (the short form holds s16).  No
 * validation callbacks on integers: describing such
 * a policy back (the core does when an attribute has a bad length) reads
 * the callback's address as s16 bounds and warns in 6.1.  (Not const:
 * 6.1's policy points to a mutable range.)
 */
static struct netlink_range_validation stripe_hold_range = {
	.min = 1, .max = STRIPE_HOLD_MAX_US_MAX,
};

static struct netlink_range_validation stripe_quantum_range = {
	.min = STRIPE_QUANTUM_MIN, .max = STRIPE_QUANTUM_MAX,
};

static struct netlink_range_validation stripe_limit_range = {
	.min = 1, .max = STRIPE_LIMIT_MAX,
};

static struct netlink_range_validation stripe_memory_range = {
	.min = STRIPE_MEMORY_LIMIT_MIN, .max = STRIPE_MEMORY_LIMIT_MAX,
};

static struct netlink_range_validation stripe_probe_interval_range = {
	.min = STRIPE_PROBE_INTERVAL_US_MIN, .max = STRIPE_PROBE_INTERVAL_US_MAX,
};

static const struct nla_policy stripe_policy[IFLA_STRIPE_MAX + 1] = {
	[IFLA_STRIPE_REORDER]	   = NLA_POLICY_MAX(NLA_U8, STRIPE_REORDER_MAX),
	[IFLA_STRIPE_HOLD_MAX_US]  = NLA_POLICY_FULL_RANGE(NLA_U32, &stripe_hold_range),
	[IFLA_STRIPE_HOLD_AUTO]	   = NLA_POLICY_MAX(NLA_U8, 1),
	[IFLA_STRIPE_QUANTUM]	   = NLA_POLICY_FULL_RANGE(NLA_U32, &stripe_quantum_range),
	[IFLA_STRIPE_FLOW_LIMIT]   = NLA_POLICY_FULL_RANGE(NLA_U32, &stripe_limit_range),
	[IFLA_STRIPE_BUFFER_LIMIT] = NLA_POLICY_FULL_RANGE(NLA_U32, &stripe_limit_range),
	[IFLA_STRIPE_STRIPE_MIN]   = { .type = NLA_U32 },
	[IFLA_STRIPE_PROBE_TARGET] = { .type = NLA_BE32 },
	[IFLA_STRIPE_PROBE_INTERVAL_US] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &stripe_probe_interval_range),
	[IFLA_STRIPE_PROBE_TARGET6] = NLA_POLICY_EXACT_LEN(sizeof(struct in6_addr)),
	[IFLA_STRIPE_MEMORY_LIMIT] = NLA_POLICY_FULL_RANGE(NLA_U32, &stripe_memory_range),
};

static const struct nla_policy stripe_slave_policy[IFLA_STRIPE_LINK_MAX + 1] = {
	[IFLA_STRIPE_LINK_WEIGHT] = NLA_POLICY_MAX(NLA_U32, STRIPE_WEIGHT_MAX),
	[IFLA_STRIPE_LINK_LIMIT]  = NLA_POLICY_FULL_RANGE(NLA_U32, &stripe_limit_range),
	[IFLA_STRIPE_LINK_ID]	  = { .type = NLA_REJECT,
				      .reject_message = "the link id is chosen by the master" },
	[IFLA_STRIPE_LINK_FLAGS]  = { .type = NLA_REJECT,
				      .reject_message = "link flags are read only" },
	[IFLA_STRIPE_LINK_WEIGHT_USED] = {
		.type = NLA_REJECT,
		.reject_message = "set weight, not the weight in force" },
	[IFLA_STRIPE_LINK_SPEED]  = { .type = NLA_REJECT,
				      .reject_message = "the speed is the link's own" },
};

/* rtnetlink parses IFLA_INFO_DATA leniently (unknown attributes and
 * trailing bytes pass): check the raw nest strictly, so a typo or a
 * newer tool's option is refused rather than ignored.
 */
static int stripe_validate_strict(struct nlattr *tb[], int type, int maxtype,
				  const struct nla_policy *policy,
				  struct netlink_ext_ack *extack)
{
	struct nlattr *nest;

	if (!tb[IFLA_LINKINFO])
		return 0;
	nest = nla_find_nested(tb[IFLA_LINKINFO], type);
	if (!nest)
		return 0;
	return nla_validate_nested(nest, maxtype, policy, extack);
}

static int stripe_validate_link(struct nlattr *tb[], struct nlattr *data[],
				struct netlink_ext_ack *extack)
{
	return stripe_validate_strict(tb, IFLA_INFO_DATA, IFLA_STRIPE_MAX,
				      stripe_policy, extack);
}

static int stripe_validate_slave(struct nlattr *tb[], struct nlattr *data[],
				 struct netlink_ext_ack *extack)
{
	return stripe_validate_strict(tb, IFLA_INFO_SLAVE_DATA,
				      IFLA_STRIPE_LINK_MAX, stripe_slave_policy,
				      extack);
}

static int stripe_newlink(struct net *net, struct net_device *dev,
			  struct nlattr *tb[], struct nlattr *data[],
			  struct netlink_ext_ack *extack)
{
	struct stripe_master *m = netdev_priv(dev);
	int err;

	/* No link yet, so nothing to check against: options apply as given */
	err = stripe_options_read(&m->cfg, data, false, extack);
	if (err)
		return err;
	/* "ip link add ... mtu N" is the user's MTU as much as a later set */
	if (tb[IFLA_MTU])
		m->mtu_user = dev->mtu;
	err = register_netdevice(dev);
	if (err)
		return err;
	netif_carrier_off(dev);
	stripe_probe_arm(m);
	return 0;
}

static int stripe_changelink(struct net_device *dev, struct nlattr *tb[],
			     struct nlattr *data[],
			     struct netlink_ext_ack *extack)
{
	struct stripe_master *m = netdev_priv(dev);
	struct stripe_config cfg = m->cfg;
	int err;

	err = stripe_options_read(&cfg, data, false, extack);
	return err ?: stripe_master_configure(m, &cfg, extack);
}

static size_t stripe_get_size(const struct net_device *dev)
{
	return 2 * nla_total_size(sizeof(u8)) +
	       8 * nla_total_size(sizeof(u32)) +
	       nla_total_size(sizeof(struct in6_addr));
}

static int stripe_fill_info(struct sk_buff *skb, const struct net_device *dev)
{
	const struct stripe_master *m = netdev_priv(dev);
	const struct stripe_config *cfg = &m->cfg;

	if (nla_put_u8(skb, IFLA_STRIPE_REORDER, cfg->reorder) ||
	    nla_put_u32(skb, IFLA_STRIPE_HOLD_MAX_US, cfg->hold_max_us) ||
	    nla_put_u8(skb, IFLA_STRIPE_HOLD_AUTO, cfg->hold_auto) ||
	    nla_put_u32(skb, IFLA_STRIPE_QUANTUM, cfg->quantum) ||
	    nla_put_u32(skb, IFLA_STRIPE_FLOW_LIMIT, cfg->flow_limit) ||
	    nla_put_u32(skb, IFLA_STRIPE_BUFFER_LIMIT, cfg->buffer_limit) ||
	    nla_put_u32(skb, IFLA_STRIPE_MEMORY_LIMIT, cfg->memory_limit) ||
	    nla_put_u32(skb, IFLA_STRIPE_STRIPE_MIN, cfg->stripe_min) ||
	    nla_put_in_addr(skb, IFLA_STRIPE_PROBE_TARGET, cfg->probe_target) ||
	    nla_put_u32(skb, IFLA_STRIPE_PROBE_INTERVAL_US,
			cfg->probe_interval_us) ||
	    nla_put_in6_addr(skb, IFLA_STRIPE_PROBE_TARGET6,
			     &cfg->probe_target6))
		return -EMSGSIZE;
	return 0;
}

/* The statistics tc shows for a master qdisc but its peers, for
 * "ip -s -d link" (stripe_dump_master_xstats)
 */
static size_t stripe_get_xstats_size(const struct net_device *dev)
{
	const struct stripe_master *m = netdev_priv(dev);

	return 1024 + m->nr_links * 256;
}

static int stripe_fill_xstats(struct sk_buff *skb, const struct net_device *dev)
{
	struct stripe_master *m = netdev_priv(dev);
	struct nlattr *nest;

	nest = nla_nest_start_noflag(skb, IFLA_INFO_XSTATS);
	if (!nest || stripe_dump_master_xstats(m, skb, false, true)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

static int stripe_slave_changelink(struct net_device *mdev,
				   struct net_device *dev, struct nlattr *tb[],
				   struct nlattr *data[],
				   struct netlink_ext_ack *extack)
{
	struct stripe_link *link = stripe_link_of(dev);
	int err;

	if (!link || rtnl_dereference(link->master) != netdev_priv(mdev)) {
		NL_SET_ERR_MSG_MOD(extack, "the device is not a link of this master");
		return -EINVAL;
	}
	err = stripe_validate_slave(tb, data, extack);
	if (err)
		return err;
	return stripe_link_configure(link, data ? data[IFLA_STRIPE_LINK_WEIGHT] : NULL,
				     data ? data[IFLA_STRIPE_LINK_LIMIT] : NULL,
				     extack);
}

static size_t stripe_get_slave_size(const struct net_device *mdev,
				    const struct net_device *dev)
{
	return 6 * nla_total_size(sizeof(u32));
}

static int stripe_fill_slave_info(struct sk_buff *skb,
				  const struct net_device *mdev,
				  const struct net_device *dev)
{
	const struct stripe_link *link = stripe_link_of(dev);

	if (!link)
		return 0;
	if (nla_put_u32(skb, IFLA_STRIPE_LINK_WEIGHT, link->weight) ||
	    nla_put_u32(skb, IFLA_STRIPE_LINK_LIMIT, READ_ONCE(link->limit)) ||
	    nla_put_u32(skb, IFLA_STRIPE_LINK_ID, link->id) ||
	    nla_put_u32(skb, IFLA_STRIPE_LINK_FLAGS, stripe_link_flags(link)) ||
	    nla_put_u32(skb, IFLA_STRIPE_LINK_WEIGHT_USED,
			stripe_link_weight(link)) ||
	    nla_put_u32(skb, IFLA_STRIPE_LINK_SPEED, link->speed))
		return -EMSGSIZE;
	return 0;
}

struct rtnl_link_ops stripe_link_ops __read_mostly = {
	.kind		= STRIPE_KIND,
	.priv_size	= sizeof(struct stripe_master),
	.maxtype	= IFLA_STRIPE_MAX,
	.policy		= stripe_policy,
	.setup		= stripe_master_setup,
	.validate	= stripe_validate_link,
	.newlink	= stripe_newlink,
	.changelink	= stripe_changelink,
	.get_size	= stripe_get_size,
	.fill_info	= stripe_fill_info,
	.get_xstats_size = stripe_get_xstats_size,
	.fill_xstats	= stripe_fill_xstats,
	.slave_maxtype	= IFLA_STRIPE_LINK_MAX,
	.slave_policy	= stripe_slave_policy,
	.slave_changelink = stripe_slave_changelink,
	.get_slave_size	= stripe_get_slave_size,
	.fill_slave_info = stripe_fill_slave_info,
};
