// SPDX-License-Identifier: GPL-2.0
/*
 * stripe: links joining and leaving a master, their state and counters.
 *
 * A device becomes a link when its root qdisc is a stripe qdisc naming a
 * master (qdisc.c).  Joining links it below the master (so "ip link" shows
 * "master stripe0"), registers our receive handler on it and publishes a new
 * transmit table; leaving undoes that in reverse.  All of it runs under RTNL.
 */
#include <linux/etherdevice.h>
#include <linux/ethtool.h>
#include <linux/if_arp.h>
#include <linux/ipv6.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <net/ndisc.h>

#include "stripe.h"

/* Links report their speed in Mbit/s; one unit of automatic weight is
 * 100 Mbit/s, so 1G : 10G links weigh 10 : 100.  Unknown speed counts as
 * 1 Gbit/s.
 */
#define STRIPE_WEIGHT_UNIT_MBPS	100
#define STRIPE_WEIGHT_UNKNOWN	10
#define STRIPE_SPEED_UNKNOWN	1000

/* The master stops sending on a link once this much waits in its queue:
 * every byte queued there delays the link's frames behind it, and so adds
 * to the skew the receiver must wait out.  A couple of milliseconds at the
 * link's speed, and at least two 64 KB bursts so a fast link never idles.
 */
#define STRIPE_QUEUE_US		2000
#define STRIPE_QUEUE_MIN	(2 * 65536)

static rx_handler_result_t stripe_handle_frame(struct sk_buff **pskb);

struct stripe_link *stripe_link_of(const struct net_device *dev)
{
	if (rcu_access_pointer(dev->rx_handler) != stripe_handle_frame)
		return NULL;
	return rtnl_dereference(dev->rx_handler_data);
}

u32 stripe_link_weight(const struct stripe_link *link)
{
	return link->weight ?: link->weight_auto;
}

void stripe_link_refresh_speed(struct stripe_link *link)
{
	struct ethtool_link_ksettings ks;
	u32 mbps = STRIPE_SPEED_UNKNOWN;

	ASSERT_RTNL();
	if (!__ethtool_get_link_ksettings(link->dev, &ks) &&
	    ks.base.speed && ks.base.speed != (u32)SPEED_UNKNOWN)
		mbps = ks.base.speed;
	link->speed = mbps;
	link->weight_auto = clamp_t(u32, mbps / STRIPE_WEIGHT_UNIT_MBPS, 1,
				    STRIPE_WEIGHT_MAX);
	/* Mbit/s * us / 8 = bytes */
	WRITE_ONCE(link->queue_max,
		   max_t(u64, STRIPE_QUEUE_MIN,
			 min_t(u64, (u64)mbps * STRIPE_QUEUE_US / 8, U32_MAX)));
}

u32 stripe_link_flags(const struct stripe_link *link)
{
	u32 flags = 0;

	if (netif_running(link->dev))
		flags |= STRIPE_LINK_F_UP;
	if (netif_carrier_ok(link->dev))
		flags |= STRIPE_LINK_F_CARRIER;
	if ((flags & STRIPE_LINK_F_UP) && (flags & STRIPE_LINK_F_CARRIER) &&
	    rcu_access_pointer(link->master))
		flags |= STRIPE_LINK_F_ACTIVE;
	if (stripe_link_left(link))
		flags |= STRIPE_LINK_F_SILENT;
	if (READ_ONCE(link->peer_lost))
		flags |= STRIPE_LINK_F_LOST;
	if (READ_ONCE(link->draining))
		flags |= STRIPE_LINK_F_DRAINING;
	return flags;
}

/* The flags a change of which is announced */
#define STRIPE_LINK_F_ANNOUNCED \
	(STRIPE_LINK_F_ACTIVE | STRIPE_LINK_F_SILENT | STRIPE_LINK_F_LOST)

/* Announce the links whose place in rotation changed: NETDEV_CHANGELOWERSTATE
 * (rtnetlink sends RTM_NEWLINK for the link, so "ip monitor link" shows it,
 * with its flags in the slave data), as bonding does for its slaves.  Failover
 * happens in softirq; this runs in process context, and takes RTNL by
 * trylock so that stripe_link_state_stop() may wait for it under RTNL.
 */
static void stripe_link_state_work(struct work_struct *work)
{
	struct stripe_master *m = container_of(to_delayed_work(work),
					       struct stripe_master,
					       state_work);
	struct netdev_lag_lower_state_info info;
	struct stripe_link *link;
	u32 flags;

	if (!rtnl_trylock()) {
		schedule_delayed_work(&m->state_work, 1);
		return;
	}
	list_for_each_entry(link, &m->links, node) {
		flags = stripe_link_flags(link) & STRIPE_LINK_F_ANNOUNCED;
		if (flags == link->notified_flags)
			continue;
		link->notified_flags = flags;
		info.link_up = !!(flags & STRIPE_LINK_F_ACTIVE);
		info.tx_enabled = info.link_up && !(flags & STRIPE_LINK_F_SILENT);
		netdev_lower_state_changed(link->dev, &info);
	}
	rtnl_unlock();
}

void stripe_link_state_init(struct stripe_master *m)
{
	INIT_DELAYED_WORK(&m->state_work, stripe_link_state_work);
}

/* Any context: a link left or rejoined rotation */
void stripe_link_state_changed(struct stripe_master *m)
{
	schedule_delayed_work(&m->state_work, 0);
}

/* RTNL: the master goes */
void stripe_link_state_stop(struct stripe_master *m)
{
	cancel_delayed_work_sync(&m->state_work);
}

/* Hot path: may this link take a packet now?  A link whose driver queue is
 * stopped builds a queue in its qdisc; it is skipped while that queue holds
 * queue_max bytes (or its packet limit), so the standing queue stays short.
 */
bool stripe_link_can_send(const struct stripe_link *link)
{
	const struct Qdisc *sch = link->sch;

	return netif_running(link->dev) && netif_carrier_ok(link->dev) &&
	       READ_ONCE(sch->q.qlen) < READ_ONCE(link->limit) &&
	       READ_ONCE(sch->qstats.backlog) < READ_ONCE(link->queue_max);
}

/* Change a link's weight (0: from its speed) and packet limit, either
 * absent.  Out of memory for the table the old weight stays.
 */
int stripe_link_configure(struct stripe_link *link, const struct nlattr *weight,
			  const struct nlattr *limit,
			  struct netlink_ext_ack *extack)
{
	struct stripe_master *m = rtnl_dereference(link->master);
	u32 old = link->weight;

	ASSERT_RTNL();
	if (weight && nla_get_u32(weight) != old) {
		/* Read without RTNL by share.c; a new weight starts at the
		 * whole of its share.
		 */
		WRITE_ONCE(link->weight, nla_get_u32(weight));
		WRITE_ONCE(link->pace, STRIPE_PACE_ONE);
		if (m && stripe_master_rebuild(m)) {
			WRITE_ONCE(link->weight, old);
			NL_SET_ERR_MSG_MOD(extack, "out of memory for the link table");
			return -ENOMEM;
		}
	}
	if (limit)
		WRITE_ONCE(link->limit, nla_get_u32(limit));
	return 0;
}

/* Receive: IP arriving on a link belongs to the master, so the stack sees
 * it on stripe0 (addresses, rp_filter and sockets bound to the master all
 * work).  ARP and IPv6 neighbour discovery stay on the link: next hops are
 * resolved per link.
 */
/* Read through skb_header_pointer: the skb may still be shared here (a
 * packet tap), and pulling a shared skb is a BUG in pskb_expand_head().
 */
static bool stripe_is_ndisc(const struct sk_buff *skb)
{
	const struct ipv6hdr *ip6;
	const struct icmp6hdr *icmp;
	struct ipv6hdr _ip6;
	struct icmp6hdr _icmp;

	ip6 = skb_header_pointer(skb, 0, sizeof(_ip6), &_ip6);
	if (!ip6 || ip6->nexthdr != IPPROTO_ICMPV6)
		return false;
	icmp = skb_header_pointer(skb, sizeof(*ip6), sizeof(_icmp), &_icmp);
	return icmp && icmp->icmp6_type >= NDISC_ROUTER_SOLICITATION &&
	       icmp->icmp6_type <= NDISC_REDIRECT;
}

static void stripe_count_rx(struct stripe_master *m, struct stripe_link *link,
			    unsigned int len)
{
	struct stripe_link_stats *ls = this_cpu_ptr(link->stats);
	struct stripe_master_stats *ms = this_cpu_ptr(m->stats);

	u64_stats_update_begin(&ls->syncp);
	u64_stats_inc(&ls->rx_packets);
	u64_stats_add(&ls->rx_bytes, len);
	u64_stats_update_end(&ls->syncp);
	u64_stats_update_begin(&ms->syncp);
	u64_stats_inc(&ms->rx_packets);
	u64_stats_add(&ms->rx_bytes, len);
	u64_stats_update_end(&ms->syncp);
}

static rx_handler_result_t stripe_handle_frame(struct sk_buff **pskb)
{
	struct sk_buff *skb = *pskb;
	struct stripe_link *link = rcu_dereference(skb->dev->rx_handler_data);
	struct stripe_master *m = rcu_dereference(link->master);

	if (!m || skb->pkt_type == PACKET_OTHERHOST ||
	    skb->pkt_type == PACKET_LOOPBACK)
		return RX_HANDLER_PASS;
	switch (skb->protocol) {
	case htons(ETH_P_STRIPE):
		skb = skb_share_check(skb, GFP_ATOMIC);
		if (!skb)
			return RX_HANDLER_CONSUMED;
		stripe_count_rx(m, link, skb->len);
		stripe_rx_frame(m, link, skb);
		return RX_HANDLER_CONSUMED;
	case htons(ETH_P_IP):
		break;
	case htons(ETH_P_ARP):
		stripe_probe_rx(m, link, skb);
		return RX_HANDLER_PASS;
	case htons(ETH_P_IPV6):
		if (!stripe_is_ndisc(skb))
			break;
		stripe_probe_rx6(m, link, skb);
		if (!stripe_ndisc_answer(m, skb))
			return RX_HANDLER_PASS;
		consume_skb(skb);
		return RX_HANDLER_CONSUMED;
	default:
		return RX_HANDLER_PASS;
	}
	skb = skb_share_check(skb, GFP_ATOMIC);
	if (!skb)
		return RX_HANDLER_CONSUMED;
	*pskb = skb;

	stripe_count_rx(m, link, skb->len);
	skb->dev = m->dev;
	return RX_HANDLER_ANOTHER;
}

/* Why a link MTU is too small for its master */
static void stripe_link_mtu_msg(struct netlink_ext_ack *extack, u8 reorder)
{
	if (reorder == STRIPE_REORDER_ON)
		NL_SET_ERR_MSG_MOD(extack,
				   "with reorder on a link needs an MTU of 1304: IPv6's 1280 plus the 24-byte stripe header");
	else
		NL_SET_ERR_MSG_MOD(extack,
				   "a link needs an MTU of 1280 (the IPv6 minimum)");
}

int stripe_link_join(struct stripe_link *link, struct stripe_master *m,
		     struct netlink_ext_ack *extack)
{
	struct net_device *dev = link->dev;
	int err;

	ASSERT_RTNL();
	if (m->nr_links >= STRIPE_MAX_LINKS) {
		NL_SET_ERR_MSG_MOD(extack, "the master already has the most links it takes (64)");
		return -ENOSPC;
	}
	if (!stripe_link_mtu_ok(dev->mtu, m->cfg.reorder)) {
		stripe_link_mtu_msg(extack, m->cfg.reorder);
		return -EINVAL;
	}
	err = netdev_rx_handler_register(dev, stripe_handle_frame, link);
	if (err) {
		NL_SET_ERR_MSG_MOD(extack, "the link has a receive handler (bridge port? bond?)");
		return err;
	}
	err = netdev_master_upper_dev_link(dev, m->dev, NULL, NULL, extack);
	if (err)
		goto err_rx;
	/* The master has no link-layer address, so no multicast list to hand
	 * down (dev_mc_sync would sync nothing): a link that filters
	 * multicast would drop the neighbour solicitations for the master's
	 * addresses.  Like a bridge port, take all of the segment's.
	 */
	err = dev_set_allmulti(dev, 1);
	if (err) {
		NL_SET_ERR_MSG_MOD(extack, "the link cannot receive all multicast");
		goto err_upper;
	}

	stripe_link_refresh_speed(link);
	link->id = find_first_zero_bit(m->link_ids, STRIPE_MAX_LINKS);
	/* The id may have been a gone link's: not its receive state. */
	spin_lock_bh(&m->rx.lock);
	stripe_reseq_forget_link(&m->rx.reseq, link->id);
	spin_unlock_bh(&m->rx.lock);
	__set_bit(link->id, m->link_ids);
	rcu_assign_pointer(link->master, m);
	list_add_tail_rcu(&link->node, &m->links);
	m->nr_links++;
	/* On failure the table in force does not name the link. */
	err = stripe_master_rebuild(m);
	if (err) {
		NL_SET_ERR_MSG_MOD(extack, "out of memory for the link table");
		goto err_list;
	}
	stripe_master_update(m);
	link->notified_flags = stripe_link_flags(link) &
			       STRIPE_LINK_F_ANNOUNCED;
	return 0;

err_list:
	__clear_bit(link->id, m->link_ids);
	list_del_rcu(&link->node);
	m->nr_links--;
	RCU_INIT_POINTER(link->master, NULL);
	dev_set_allmulti(dev, -1);
err_upper:
	netdev_upper_dev_unlink(dev, m->dev);
err_rx:
	netdev_rx_handler_unregister(dev);
	return err;
}

void stripe_link_leave(struct stripe_link *link)
{
	struct stripe_master *m = rtnl_dereference(link->master);

	ASSERT_RTNL();
	if (!m)
		return;
	stripe_master_drop_link(m, link);
	/* Our reports stop naming it at once: the peer leaves its end of
	 * the link on that (feedback.c), rather than stripe into it
	 */
	spin_lock_bh(&m->rx.lock);
	stripe_reseq_forget_link(&m->rx.reseq, link->id);
	spin_unlock_bh(&m->rx.lock);
	list_del_rcu(&link->node);
	m->nr_links--;
	__clear_bit(link->id, m->link_ids);
	RCU_INIT_POINTER(link->master, NULL);
	netdev_upper_dev_unlink(link->dev, m->dev);
	netdev_rx_handler_unregister(link->dev);
	/* A device on its way out needs no flags back; telling of one would
	 * notify about a device already unregistered.
	 */
	if (link->dev->reg_state == NETREG_REGISTERED)
		dev_set_allmulti(link->dev, -1);
	if (m->dev->reg_state == NETREG_REGISTERED)
		stripe_master_update(m);
}

/* A link's MTU may not fall below what keeps the master at IPv6's 1280.
 * NETDEV_PRECHANGEMTU would be the place, but it carries neither the new
 * MTU nor an extack; refusing NETDEV_CHANGEMTU makes the core put the old
 * MTU back and notify again.  The reason goes to the kernel log.
 */
static int stripe_link_changemtu(struct stripe_master *m,
				 struct stripe_link *link)
{
	u8 reorder = READ_ONCE(m->cfg.reorder);

	if (stripe_link_mtu_ok(link->dev->mtu, reorder)) {
		stripe_master_update(m);
		return NOTIFY_DONE;
	}
	netdev_warn(m->dev, "MTU %u of link %s refused: a link needs %zu, IPv6's 1280%s\n",
		    link->dev->mtu, link->dev->name,
		    IPV6_MIN_MTU + (reorder == STRIPE_REORDER_ON ?
				    sizeof(struct stripe_wire_hdr) : 0),
		    reorder == STRIPE_REORDER_ON ?
		    " plus the 24-byte stripe header of reorder on" : "");
	return notifier_from_errno(-EINVAL);
}

static int stripe_netdev_event(struct notifier_block *nb, unsigned long event,
			       void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);
	struct stripe_link *link = stripe_link_of(dev);
	struct stripe_master *m;
	u32 old;

	if (!link)
		return NOTIFY_DONE;
	m = rtnl_dereference(link->master);
	if (!m)
		return NOTIFY_DONE;
	switch (event) {
	case NETDEV_UP:
	case NETDEV_DOWN:
	case NETDEV_CHANGE:
		old = link->weight_auto;
		stripe_link_refresh_speed(link);
		if (old != link->weight_auto && !link->weight)
			stripe_master_rebuild(m);
		fallthrough;
	case NETDEV_FEAT_CHANGE:
		stripe_master_update(m);
		stripe_link_state_changed(m);
		break;
	case NETDEV_CHANGEMTU:
		return stripe_link_changemtu(m, link);
	}
	return NOTIFY_DONE;
}

static struct notifier_block stripe_notifier = {
	.notifier_call = stripe_netdev_event,
};

int stripe_notifier_register(void)
{
	return register_netdevice_notifier(&stripe_notifier);
}

void stripe_notifier_unregister(void)
{
	unregister_netdevice_notifier(&stripe_notifier);
}
