// SPDX-License-Identifier: GPL-2.0
/*
 * stripe: "ip link set eth2 master stripe0" and "ip link set eth2 nomaster".
 *
 * The receiver relies on each link carrying its frames in the order the
 * master numbered them, so a link's root qdisc is always stripe's FIFO
 * (qdisc.c), however the link joined.  Enslaving puts that qdisc on the
 * device as "tc qdisc replace dev eth2 root stripe master stripe0" would;
 * releasing puts the device's default qdisc back.  Under RTNL.
 */
#include <linux/netdevice.h>
#include <net/pkt_sched.h>
#include <net/sch_generic.h>

#include "stripe.h"

/* The handle tc would give the first qdisc it numbers itself: a root
 * qdisc needs one to be deleted by "tc qdisc del dev eth2 root".
 */
#define STRIPE_LINK_HANDLE	TC_H_MAKE(0x80000000U, 0)

/* Make @new (NULL: none, so the default comes back) the root qdisc of
 * @dev, on every transmit queue, as tc's graft does.
 */
static void stripe_graft_root(struct net_device *dev, struct Qdisc *new)
{
	struct Qdisc *old;
	unsigned int i;

	if (dev->flags & IFF_UP)
		dev_deactivate(dev);
	for (i = 0; i < dev->num_tx_queues; i++) {
		old = dev_graft_qdisc(netdev_get_tx_queue(dev, i), new);
		if (new && i > 0)
			qdisc_refcount_inc(new);
		qdisc_put(old);
	}
	old = rtnl_dereference(dev->qdisc);
	if (new)
		qdisc_refcount_inc(new);
	rcu_assign_pointer(dev->qdisc, new ?: &noop_qdisc);
	qdisc_put(old);
	/* With no qdisc, this attaches the device's default one. */
	if (dev->flags & IFF_UP)
		dev_activate(dev);
}

int stripe_add_slave(struct net_device *mdev, struct net_device *dev,
		     struct netlink_ext_ack *extack)
{
	struct Qdisc *sch;
	int err;

	ASSERT_RTNL();
	if (stripe_link_of(dev)) {
		NL_SET_ERR_MSG_MOD(extack, "the device is already a link of a master");
		return -EBUSY;
	}
	if (stripe_is_master(dev)) {
		NL_SET_ERR_MSG_MOD(extack, "a stripe master cannot be a link of a master");
		return -EINVAL;
	}
	sch = qdisc_create_dflt(netdev_get_tx_queue(dev, 0), &stripe_qdisc_ops,
				TC_H_ROOT, extack);
	if (!sch)
		return -ENOMEM;	/* it joins nothing yet: only memory fails */
	err = stripe_qdisc_join(sch, netdev_priv(mdev), extack);
	if (err) {
		qdisc_put(sch);
		return err;
	}
	sch->handle = STRIPE_LINK_HANDLE;
	stripe_graft_root(dev, sch);
	stripe_link_of(dev)->enslaved = true;
	return 0;
}

int stripe_del_slave(struct net_device *mdev, struct net_device *dev)
{
	struct stripe_link *link = stripe_link_of(dev);

	ASSERT_RTNL();
	if (!link || rtnl_dereference(link->master) != netdev_priv(mdev))
		return -EINVAL;
	stripe_release(link);
	return 0;
}

/* Give the link its default qdisc back; destroying the link's qdisc
 * makes it leave (qdisc.c), and frees @link after a grace period.
 */
void stripe_release(struct stripe_link *link)
{
	stripe_graft_root(link->dev, NULL);
}
