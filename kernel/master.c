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
#include <linux/module.h>
#include <linux/rtnetlink.h>
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

/* Publish a new table of the master's links.  Called under RTNL after every
 * change of the link set or of a weight.  Each link's share of a round is
 * quantum * weight / smallest weight, so the smallest sends one quantum.
 */
int stripe_master_rebuild(struct stripe_master *m)
{
	struct stripe_table *t, *old;
	struct stripe_link *link;
	u32 i = 0, wmin = U32_MAX;

	ASSERT_RTNL();
	t = kzalloc(struct_size(t, slot, m->nr_links), GFP_KERNEL);
	if (!t) {
		/* Never leave a table that names a link about to be freed. */
		old = rtnl_dereference(m->table);
		RCU_INIT_POINTER(m->table, NULL);
		stripe_table_free(old);
		return -ENOMEM;
	}
	list_for_each_entry(link, &m->links, node)
		wmin = min(wmin, stripe_link_weight(link));
	list_for_each_entry(link, &m->links, node) {
		u64 share = (u64)m->cfg.quantum * stripe_link_weight(link);

		t->slot[i].link = link;
		t->slot[i].share = min_t(u64, div_u64(share, wmin), S32_MAX / 2);
		i++;
	}
	t->n = i;
	t->gen = ++m->table_gen;
	old = rtnl_dereference(m->table);
	rcu_assign_pointer(m->table, t);
	stripe_table_free(old);
	return 0;
}

/* Recompute what the master takes from its links: MTU, offloads, headroom
 * and carrier.  Called under RTNL whenever a link joins, leaves or changes.
 */
void stripe_master_update(struct stripe_master *m)
{
	struct net_device *dev = m->dev;
	struct stripe_link *link;
	unsigned int mtu = 0, headroom = 0;
	bool carrier = false;

	ASSERT_RTNL();
	list_for_each_entry(link, &m->links, node) {
		if (!mtu || link->dev->mtu < mtu)
			mtu = link->dev->mtu;
		headroom = max_t(unsigned int, headroom,
				 LL_RESERVED_SPACE(link->dev));
		if (stripe_link_flags(link) & STRIPE_LINK_F_ACTIVE)
			carrier = true;
	}
	if (READ_ONCE(m->cfg.reorder) == STRIPE_REORDER_ON) {
		headroom += sizeof(struct stripe_wire_hdr);
		if (mtu)
			mtu -= sizeof(struct stripe_wire_hdr);
	}
	dev->needed_headroom = headroom;
	if (mtu && mtu != dev->mtu)
		dev_set_mtu(dev, mtu);
	netdev_update_features(dev);
	if (carrier)
		netif_carrier_on(dev);
	else
		netif_carrier_off(dev);
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
	int room = READ_ONCE(m->cfg.reorder) == STRIPE_REORDER_ON ?
		   sizeof(struct stripe_wire_hdr) : 0;
	struct stripe_link *link;

	list_for_each_entry(link, &m->links, node) {
		if (new_mtu + room > link->dev->mtu) {
			netdev_err(dev, "MTU %d is larger than the MTU %u of link %s\n",
				   new_mtu, link->dev->mtu, link->dev->name);
			return -EINVAL;
		}
	}
	dev->mtu = new_mtu;
	return 0;
}

static int stripe_master_init(struct net_device *dev)
{
	struct stripe_master *m = netdev_priv(dev);

	m->dev = dev;
	INIT_LIST_HEAD(&m->links);
	m->cfg.quantum = STRIPE_QUANTUM_DEFAULT;
	m->cfg.reorder = STRIPE_REORDER_OFF;
	m->cfg.hold_max_us = STRIPE_HOLD_DEFAULT_US;
	m->cfg.flow_limit = STRIPE_FLOW_LIMIT_DEFAULT;
	m->cfg.buffer_limit = STRIPE_BUFFER_LIMIT_DEFAULT;
	m->sender_id = get_random_u32();
	stripe_marker_init(m);
	m->srr = alloc_percpu(struct stripe_srr);
	m->stats = netdev_alloc_pcpu_stats(struct stripe_master_stats);
	if (!m->srr || !m->stats)
		goto err;
	if (stripe_master_rebuild(m))
		goto err;
	if (stripe_rx_init(m))
		goto err_table;
	return 0;
err_table:
	stripe_table_free(rtnl_dereference(m->table));
	RCU_INIT_POINTER(m->table, NULL);
err:
	free_percpu(m->srr);
	free_percpu(m->stats);
	return -ENOMEM;
}

/* Unregistering: every link leaves first, so none points here any more. */
static void stripe_master_uninit(struct net_device *dev)
{
	struct stripe_master *m = netdev_priv(dev);
	struct stripe_link *link, *tmp;

	list_for_each_entry_safe(link, tmp, &m->links, node)
		stripe_link_leave(link);
	stripe_marker_stop(m);
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
};

static void stripe_master_setup(struct net_device *dev)
{
	dev->netdev_ops = &stripe_master_netdev_ops;
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

static int stripe_newlink(struct net *net, struct net_device *dev,
			  struct nlattr *tb[], struct nlattr *data[],
			  struct netlink_ext_ack *extack)
{
	int err;

	err = register_netdevice(dev);
	if (err)
		return err;
	netif_carrier_off(dev);
	return 0;
}

/* A master has no link options: everything is set with tc.  A policy with
 * one rejected type makes rtnetlink parse IFLA_INFO_DATA, so that
 * stripe_validate_link() sees it was sent and refuses it.
 */
#define STRIPE_NO_LINK_OPTIONS \
	"stripe: a master takes no link options: configure it with \"tc qdisc ... stripe\""

static const struct nla_policy stripe_link_policy[2] = {
	[1] = { .type = NLA_REJECT, .reject_message = STRIPE_NO_LINK_OPTIONS },
};

static int stripe_validate_link(struct nlattr *tb[], struct nlattr *data[],
				struct netlink_ext_ack *extack)
{
	if (data) {
		NL_SET_ERR_MSG(extack, STRIPE_NO_LINK_OPTIONS);
		return -EINVAL;
	}
	return 0;
}

struct rtnl_link_ops stripe_link_ops __read_mostly = {
	.kind		= STRIPE_KIND,
	.priv_size	= sizeof(struct stripe_master),
	.maxtype	= 1,
	.policy		= stripe_link_policy,
	.setup		= stripe_master_setup,
	.validate	= stripe_validate_link,
	.newlink	= stripe_newlink,
};
