// SPDX-License-Identifier: GPL-2.0
/*
 * stripe: the "stripe" qdisc, tc's handle on everything.
 *
 * Its role follows from the device it is the root qdisc of:
 *
 * - on any Ethernet-like device it makes that device a link of the master
 *   named by "master NAME" (teql's "tc qdisc add dev eth2 root teql0"), and
 *   is the link's queue: a FIFO that passes packets straight to the driver
 *   while it is empty;
 * - on a stripe master it holds the master-wide options and shows the
 *   master's statistics with every link's.  It queues nothing: like
 *   noqueue, it leaves the master without a queue and without a lock.
 *   The options live in the master, so deleting this qdisc keeps them.
 *
 * Every request is parsed and checked in full before anything changes.
 */
#include <linux/etherdevice.h>
#include <linux/if_arp.h>
#include <linux/module.h>
#include <net/ipv6.h>
#include <net/netlink.h>
#include <net/pkt_sched.h>

#include "stripe.h"

#define STRIPE_LIMIT_DEFAULT	1000

struct stripe_sched {
	struct stripe_link *link;	/* link role */
	struct stripe_master *master;	/* master role */
};

/* A link's options in range, with a message that names the option (the
 * master's: options.c, which says why not a range policy)
 */
static int stripe_link_options_check(struct nlattr **tb,
				     struct netlink_ext_ack *extack)
{
	u32 v;

	if (tb[TCA_STRIPE_WEIGHT] &&
	    nla_get_u32(tb[TCA_STRIPE_WEIGHT]) > STRIPE_WEIGHT_MAX) {
		NL_SET_ERR_MSG_MOD(extack, "weight must be auto (0) or 1 to 1000");
		NL_SET_BAD_ATTR(extack, tb[TCA_STRIPE_WEIGHT]);
		return -ERANGE;
	}
	if (tb[TCA_STRIPE_LIMIT]) {
		v = nla_get_u32(tb[TCA_STRIPE_LIMIT]);
		if (v < 1 || v > STRIPE_LIMIT_MAX) {
			NL_SET_ERR_MSG_MOD(extack, "limit must be 1 to 1048576 packets");
			NL_SET_BAD_ATTR(extack, tb[TCA_STRIPE_LIMIT]);
			return -ERANGE;
		}
	}
	return 0;
}

static const struct nla_policy stripe_policy[TCA_STRIPE_MAX + 1] = {
	[TCA_STRIPE_MASTER]	  = { .type = NLA_STRING, .len = IFNAMSIZ - 1 },
	[TCA_STRIPE_WEIGHT]	  = { .type = NLA_U32 },
	[TCA_STRIPE_LIMIT]	  = { .type = NLA_U32 },
	[TCA_STRIPE_QUANTUM]	  = { .type = NLA_U32 },
	[TCA_STRIPE_REORDER]	  = { .type = NLA_U8 },
	[TCA_STRIPE_HOLD_MAX_US]  = { .type = NLA_U32 },
	[TCA_STRIPE_FLOW_LIMIT]	  = { .type = NLA_U32 },
	[TCA_STRIPE_BUFFER_LIMIT] = { .type = NLA_U32 },
	[TCA_STRIPE_STRIPE_MIN]	  = { .type = NLA_U32 },
	[TCA_STRIPE_HOLD_AUTO]	  = { .type = NLA_U8 },
	[TCA_STRIPE_PROBE_TARGET] = { .type = NLA_BE32 },
	[TCA_STRIPE_PROBE_INTERVAL_US] = { .type = NLA_U32 },
	[TCA_STRIPE_PROBE_TARGET6] = NLA_POLICY_EXACT_LEN(sizeof(struct in6_addr)),
	[TCA_STRIPE_MEMORY_LIMIT] = { .type = NLA_U32 },
};

static const int stripe_master_only[] = {
	TCA_STRIPE_QUANTUM, TCA_STRIPE_REORDER, TCA_STRIPE_HOLD_MAX_US,
	TCA_STRIPE_FLOW_LIMIT, TCA_STRIPE_BUFFER_LIMIT, TCA_STRIPE_STRIPE_MIN,
	TCA_STRIPE_HOLD_AUTO, TCA_STRIPE_PROBE_TARGET,
	TCA_STRIPE_PROBE_INTERVAL_US, TCA_STRIPE_PROBE_TARGET6,
	TCA_STRIPE_MEMORY_LIMIT,
};

static const int stripe_link_only[] = {
	TCA_STRIPE_MASTER, TCA_STRIPE_WEIGHT, TCA_STRIPE_LIMIT,
};

static int stripe_parse(struct nlattr *opt, struct nlattr **tb,
			bool on_master, struct netlink_ext_ack *extack)
{
	int i, err;

	memset(tb, 0, sizeof(*tb) * (TCA_STRIPE_MAX + 1));
	if (!opt)
		return 0;
	err = nla_parse_nested(tb, TCA_STRIPE_MAX, opt, stripe_policy, extack);
	if (err)
		return err;
	if (on_master) {
		if (tb[TCA_STRIPE_MASTER]) {
			NL_SET_ERR_MSG_ATTR(extack, tb[TCA_STRIPE_MASTER],
					    "a stripe master cannot be a link of a master");
			return -EINVAL;
		}
		for (i = 0; i < ARRAY_SIZE(stripe_link_only); i++) {
			if (tb[stripe_link_only[i]]) {
				NL_SET_ERR_MSG_ATTR(extack, tb[stripe_link_only[i]],
						    "weight and limit are options of a link, not of the master");
				return -EINVAL;
			}
		}
	} else {
		for (i = 0; i < ARRAY_SIZE(stripe_master_only); i++) {
			if (tb[stripe_master_only[i]]) {
				NL_SET_ERR_MSG_ATTR(extack, tb[stripe_master_only[i]],
						    "this is an option of the master: set it with tc qdisc on the master device");
				return -EINVAL;
			}
		}
	}
	return on_master ? 0 : stripe_link_options_check(tb, extack);
}

/* The options given, over the master's current ones */
static int stripe_master_apply(struct stripe_master *m, struct nlattr **tb,
			       struct netlink_ext_ack *extack)
{
	struct stripe_config cfg = m->cfg;
	int err;

	err = stripe_options_read(&cfg, tb, true, extack);
	return err ?: stripe_master_configure(m, &cfg, extack);
}

/* Find the master a link asks for, in the link's own namespace. */
static struct stripe_master *stripe_find_master(struct net_device *dev,
						const struct nlattr *name,
						struct netlink_ext_ack *extack)
{
	char ifname[IFNAMSIZ];
	struct net_device *mdev;

	nla_strscpy(ifname, name, sizeof(ifname));
	mdev = __dev_get_by_name(dev_net(dev), ifname);
	if (!mdev) {
		NL_SET_ERR_MSG_ATTR(extack, name,
				    "no master of that name in this network namespace");
		return NULL;
	}
	if (!stripe_is_master(mdev)) {
		NL_SET_ERR_MSG_ATTR(extack, name,
				    "that device is not a stripe master");
		return NULL;
	}
	return netdev_priv(mdev);
}

static void stripe_link_free_rcu(struct rcu_head *head)
{
	struct stripe_link *link = container_of(head, struct stripe_link, rcu);

	free_percpu(link->stats);
	netdev_put(link->dev, &link->dev_tracker);
	kfree(link);
}

/* Make @sch the qdisc of a new link of @m, with the weight and limit
 * given (NULL: the defaults).  Errors say why in @extack.
 */
static int stripe_link_attach(struct Qdisc *sch, struct stripe_master *m,
			      const struct nlattr *weight,
			      const struct nlattr *limit,
			      struct netlink_ext_ack *extack)
{
	struct stripe_sched *q = qdisc_priv(sch);
	struct net_device *dev = qdisc_dev(sch);
	struct stripe_link *link;
	int err;

	if (dev->type != ARPHRD_ETHER || dev->addr_len != ETH_ALEN) {
		NL_SET_ERR_MSG_MOD(extack, "a link must be an Ethernet-like device");
		return -EINVAL;
	}
	link = kzalloc(sizeof(*link), GFP_KERNEL);
	if (!link)
		return -ENOMEM;
	seqcount_init(&link->tx_peer_seq);
	seqcount_init(&link->fb_peer_seq);
	link->pace = STRIPE_PACE_ONE;
	link->queue_us = U32_MAX;
	link->stats = netdev_alloc_pcpu_stats(struct stripe_link_stats);
	if (!link->stats) {
		kfree(link);
		return -ENOMEM;
	}
	link->dev = dev;
	netdev_hold(dev, &link->dev_tracker, GFP_KERNEL);
	link->sch = sch;
	link->limit = dev->tx_queue_len ?: STRIPE_LIMIT_DEFAULT;
	if (limit)
		link->limit = nla_get_u32(limit);
	if (weight)
		link->weight = nla_get_u32(weight);

	err = stripe_link_join(link, m, extack);
	if (err) {
		stripe_link_free_rcu(&link->rcu);
		return err;
	}
	/* No TCQ_F_CAN_BYPASS: every frame passes stripe_dequeue(). */
	q->link = link;
	return 0;
}

/* "ip link set DEV master M": @sch, made by qdisc_create_dflt() and not
 * grafted yet, becomes DEV's link of @m (enslave.c).
 */
int stripe_qdisc_join(struct Qdisc *sch, struct stripe_master *m,
		      struct netlink_ext_ack *extack)
{
	return stripe_link_attach(sch, m, NULL, NULL, extack);
}

static int stripe_init_link(struct Qdisc *sch, struct nlattr **tb,
			    struct netlink_ext_ack *extack)
{
	struct stripe_master *m;

	if (!tb[TCA_STRIPE_MASTER]) {
		NL_SET_ERR_MSG_MOD(extack, "missing \"master NAME\", the master to join");
		return -EINVAL;
	}
	m = stripe_find_master(qdisc_dev(sch), tb[TCA_STRIPE_MASTER], extack);
	if (!m)
		return -ENODEV;
	return stripe_link_attach(sch, m, tb[TCA_STRIPE_WEIGHT],
				  tb[TCA_STRIPE_LIMIT], extack);
}

static int stripe_init(struct Qdisc *sch, struct nlattr *opt,
		       struct netlink_ext_ack *extack)
{
	struct stripe_sched *q = qdisc_priv(sch);
	struct net_device *dev = qdisc_dev(sch);
	bool on_master = stripe_is_master(dev);
	struct nlattr *tb[TCA_STRIPE_MAX + 1];
	int err;

	/* Only a root qdisc owns the device's transmit queue; anywhere else
	 * the link would be freed under us (teql's use-after-free).
	 */
	if (sch->parent != TC_H_ROOT) {
		NL_SET_ERR_MSG_MOD(extack, "stripe can only be the root qdisc of a device");
		return -EOPNOTSUPP;
	}
	/* qdisc_create_dflt() gives no handle and no options: "ip link set
	 * DEV master M" (stripe_qdisc_join() follows), or a default_qdisc
	 * sysctl naming stripe (a plain FIFO then, joined to nothing).
	 */
	if (!on_master && !opt && !sch->handle) {
		sch->limit = dev->tx_queue_len ?: STRIPE_LIMIT_DEFAULT;
		return 0;
	}
	err = stripe_parse(opt, tb, on_master, extack);
	if (err)
		return err;
	if (!on_master)
		return stripe_init_link(sch, tb, extack);

	err = stripe_master_apply(netdev_priv(dev), tb, extack);
	if (err)
		return err;
	q->master = netdev_priv(dev);
	/* Like noqueue: the master transmits without a queue or a lock. */
	sch->enqueue = NULL;
	return 0;
}

static int stripe_change(struct Qdisc *sch, struct nlattr *opt,
			 struct netlink_ext_ack *extack)
{
	struct stripe_sched *q = qdisc_priv(sch);
	struct nlattr *tb[TCA_STRIPE_MAX + 1];
	struct stripe_link *link = q->link;
	struct stripe_master *m;
	int err;

	err = stripe_parse(opt, tb, !!q->master, extack);
	if (err)
		return err;
	if (q->master)
		return stripe_master_apply(q->master, tb, extack);

	/* A link's qdisc: one joined to no master has handle 0, which tc
	 * never changes (a default qdisc), so @link is set
	 */
	m = rtnl_dereference(link->master);
	if (tb[TCA_STRIPE_MASTER] &&
	    (!m || nla_strcmp(tb[TCA_STRIPE_MASTER], m->dev->name))) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TCA_STRIPE_MASTER],
				    "the link already belongs to another master: delete its qdisc first");
		return -EBUSY;
	}
	/* the same as ip link set DEV type stripe_slave weight/limit */
	return stripe_link_configure(link, tb[TCA_STRIPE_WEIGHT],
				     tb[TCA_STRIPE_LIMIT], extack);
}

static void stripe_destroy(struct Qdisc *sch)
{
	struct stripe_sched *q = qdisc_priv(sch);
	struct stripe_link *link = q->link;

	if (!link)
		return;
	stripe_link_leave(link);
	q->link = NULL;
	call_rcu(&link->rcu, stripe_link_free_rcu);
}

static int stripe_enqueue(struct sk_buff *skb, struct Qdisc *sch,
			  struct sk_buff **to_free)
{
	struct stripe_sched *q = qdisc_priv(sch);
	u32 limit = q->link ? READ_ONCE(q->link->limit) : sch->limit;

	if (unlikely(sch->q.qlen >= limit))
		return qdisc_drop(skb, sch, to_free);
	/* Numbered only once taken: a frame dropped here leaves no gap */
	if (q->link && unlikely(!stripe_link_number(q->link, skb)))
		return qdisc_drop(skb, sch, to_free);
	return qdisc_enqueue_tail(skb, sch);
}

/* Every stripe frame of a link leaves on the link's first tx ring.  The
 * receiver's loss rule needs each link to be FIFO, and a multiqueue device
 * keeps order only within a ring: XPS would spread a link's frames over
 * the rings of the CPUs that send them, and rings drain independently.
 * One ring also lands them on one receive queue of the peer (RSS has no
 * flow to hash in them; veth maps ring to queue), one NAPI context.
 */
static struct sk_buff *stripe_dequeue(struct Qdisc *sch)
{
	struct sk_buff *skb = qdisc_dequeue_head(sch);

	if (skb && skb->protocol == htons(ETH_P_STRIPE))
		skb_set_queue_mapping(skb, 0);
	return skb;
}

static int stripe_dump_master(struct stripe_master *m, struct Qdisc *sch,
			      struct sk_buff *skb)
{
	const struct stripe_config *cfg = &m->cfg;
	struct stripe_master_counters c;

	/* Show the master's traffic in the qdisc's own "Sent" line. */
	stripe_master_stats_read(m, &c);
	u64_stats_update_begin(&sch->bstats.syncp);
	u64_stats_set(&sch->bstats.bytes, c.tx_bytes);
	u64_stats_set(&sch->bstats.packets, c.tx_packets);
	u64_stats_update_end(&sch->bstats.syncp);
	sch->qstats.drops = c.tx_drops;

	if (nla_put_u8(skb, TCA_STRIPE_REORDER, READ_ONCE(cfg->reorder)) ||
	    nla_put_u32(skb, TCA_STRIPE_QUANTUM, READ_ONCE(cfg->quantum)))
		return -EMSGSIZE;
	if (cfg->hold_max_us &&
	    nla_put_u32(skb, TCA_STRIPE_HOLD_MAX_US, READ_ONCE(cfg->hold_max_us)))
		return -EMSGSIZE;
	if (cfg->flow_limit &&
	    nla_put_u32(skb, TCA_STRIPE_FLOW_LIMIT, READ_ONCE(cfg->flow_limit)))
		return -EMSGSIZE;
	if (cfg->buffer_limit &&
	    nla_put_u32(skb, TCA_STRIPE_BUFFER_LIMIT,
			READ_ONCE(cfg->buffer_limit)))
		return -EMSGSIZE;
	if (nla_put_u32(skb, TCA_STRIPE_MEMORY_LIMIT,
			READ_ONCE(cfg->memory_limit)))
		return -EMSGSIZE;
	if (cfg->stripe_min &&
	    nla_put_u32(skb, TCA_STRIPE_STRIPE_MIN, READ_ONCE(cfg->stripe_min)))
		return -EMSGSIZE;
	if (nla_put_u8(skb, TCA_STRIPE_HOLD_AUTO, READ_ONCE(cfg->hold_auto)))
		return -EMSGSIZE;
	/* Under RTNL, which every change of the options holds */
	if (cfg->probe_target &&
	    nla_put_in_addr(skb, TCA_STRIPE_PROBE_TARGET, cfg->probe_target))
		return -EMSGSIZE;
	if (!ipv6_addr_any(&cfg->probe_target6) &&
	    nla_put_in6_addr(skb, TCA_STRIPE_PROBE_TARGET6, &cfg->probe_target6))
		return -EMSGSIZE;
	if ((cfg->probe_target || !ipv6_addr_any(&cfg->probe_target6)) &&
	    nla_put_u32(skb, TCA_STRIPE_PROBE_INTERVAL_US,
			cfg->probe_interval_us))
		return -EMSGSIZE;
	return 0;
}

static int stripe_dump_link(struct stripe_link *link, struct sk_buff *skb)
{
	struct stripe_master *m = rtnl_dereference(link->master);

	if (m && nla_put_string(skb, TCA_STRIPE_MASTER, m->dev->name))
		return -EMSGSIZE;
	if (link->weight && nla_put_u32(skb, TCA_STRIPE_WEIGHT, link->weight))
		return -EMSGSIZE;
	if (nla_put_u32(skb, TCA_STRIPE_LIMIT, READ_ONCE(link->limit)))
		return -EMSGSIZE;
	return 0;
}

static int stripe_dump(struct Qdisc *sch, struct sk_buff *skb)
{
	struct stripe_sched *q = qdisc_priv(sch);
	struct nlattr *opts;
	int err;

	opts = nla_nest_start_noflag(skb, TCA_OPTIONS);
	if (!opts)
		return -EMSGSIZE;
	if (q->master)
		err = stripe_dump_master(q->master, sch, skb);
	else if (q->link)
		err = stripe_dump_link(q->link, skb);
	else
		err = nla_put_u32(skb, TCA_STRIPE_LIMIT, sch->limit);
	if (err) {
		nla_nest_cancel(skb, opts);
		return err;
	}
	return nla_nest_end(skb, opts);
}

/* Whether the qdisc message being filled is the first in @skb.  Only a
 * finished message has its whole length (nlmsg_end()); the one being
 * filled still has its header's, and any finished qdisc message has
 * TCA_KIND beyond that.
 */
static bool stripe_dump_first(const struct sk_buff *skb)
{
	const struct nlmsghdr *nlh = (const struct nlmsghdr *)skb->data;

	return skb_headlen(skb) < NLMSG_HDRLEN ||
	       nlh->nlmsg_len <= NLMSG_LENGTH(sizeof(struct tcmsg));
}

static int stripe_dump_stats(struct Qdisc *sch, struct gnet_dump *d)
{
	struct stripe_sched *q = qdisc_priv(sch);
	struct nlattr *app;
	int err;

	app = nla_nest_start_noflag(d->skb, TCA_STATS_APP);
	if (!app)
		return -EMSGSIZE;
	if (q->master)
		err = stripe_dump_master_xstats(q->master, d->skb, true,
						stripe_dump_first(d->skb));
	else if (q->link)
		err = stripe_dump_link_xstats(q->link, d->skb);
	else
		err = 0;
	if (err) {
		nla_nest_cancel(d->skb, app);
		return err;
	}
	nla_nest_end(d->skb, app);
	return 0;
}

struct Qdisc_ops stripe_qdisc_ops __read_mostly = {
	.id		= STRIPE_KIND,
	.priv_size	= sizeof(struct stripe_sched),
	.enqueue	= stripe_enqueue,
	.dequeue	= stripe_dequeue,
	.peek		= qdisc_peek_head,
	.init		= stripe_init,
	.reset		= qdisc_reset_queue,
	.destroy	= stripe_destroy,
	.change		= stripe_change,
	.dump		= stripe_dump,
	.dump_stats	= stripe_dump_stats,
	.owner		= THIS_MODULE,
};
