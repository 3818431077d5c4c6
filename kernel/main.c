// SPDX-License-Identifier: GPL-2.0
/*
 * stripe: aggregate links into one master device and stripe packets
 * across them -- a replacement for teql (sch_teql).
 *
 * Files: master.c (the master device, ip link), options.c (its options,
 * for tc and ip alike), link.c (a link joining, leaving, its receive
 * handler), enslave.c (ip link set DEV master), qdisc.c (the tc interface,
 * and a link's FIFO), xmit.c (transmit, and numbering frames as a link's
 * FIFO takes them, with txseq.h), rx.c and reseq.c (receive and the
 * resequencer), marker.c, feedback.c, probe.c and ndisc.c (frames of
 * stripe's own), share.c (adaptive shares), ethtool.c and stats.c (what
 * tools read).
 * Locking: the top of stripe.h.
 */
#include <linux/module.h>
#include <net/pkt_sched.h>
#include <net/rtnetlink.h>

#include "stripe.h"

static int __init stripe_module_init(void)
{
	int err;

	err = stripe_notifier_register();
	if (err)
		return err;
	err = rtnl_link_register(&stripe_link_ops);
	if (err)
		goto err_notifier;
	err = register_qdisc(&stripe_qdisc_ops);
	if (err)
		goto err_link;
	return 0;

err_link:
	rtnl_link_unregister(&stripe_link_ops);
err_notifier:
	stripe_notifier_unregister();
	return err;
}

/* Qdiscs hold a reference on the module, so no link is left by now;
 * unregistering the link type deletes the masters in every namespace.
 */
static void __exit stripe_module_exit(void)
{
	unregister_qdisc(&stripe_qdisc_ops);
	rtnl_link_unregister(&stripe_link_ops);
	stripe_notifier_unregister();
	/* Links are freed by call_rcu() (qdisc.c): let those callbacks run
	 * before the module text they point to goes away.
	 */
	rcu_barrier();
}

module_init(stripe_module_init);
module_exit(stripe_module_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("stripe: per-flow ordered striping of packets across links");
MODULE_ALIAS_RTNL_LINK(STRIPE_KIND);
