// SPDX-License-Identifier: GPL-2.0
/*
 * stripe: probing -- with reorder off, ARP requests tell which links work.
 *
 * With reorder off the peer may be plain teql, a router, or any host: it
 * sends no feedback, and a link cut one way keeps its share, with all the
 * loss that brings.  As bonding's arp_ip_target does, each link then asks
 * for a target address (probe-target) every probe-interval: an ARP request
 * sent on the link itself, with sender address 0 as RFC 5227's probes (the
 * target's neighbour cache is not touched, and a host answers on the device
 * the request came in on; stripe and teql peers keep ARP on their links).
 * A reply to this link's own request, arriving on it, says the link works
 * both ways.  A link with no reply for STRIPE_PROBE_MISSED intervals leaves
 * rotation (link->peer_lost, flag "lost"); replies bring it back through
 * the same hysteresis as the feedback's (stripe_feedback_evidence()), so a
 * flapping link stays out.  Carrier loss still acts at once.
 *
 * An IPv6 target (probe-target6, bonding's ns_ip6_target) is asked with a
 * neighbour solicitation from the link's own link-local address, which
 * the target answers by unicast to the link (:: if the link has none: the
 * answer then goes to all nodes).  A reply to either target counts.
 *
 * Locking: the timer alone writes the probe_* fields but probe_rx (written
 * by the receive path, read with READ_ONCE); a link's health changes under
 * m->fb_lock, as with feedback.  The timer runs while probing is on and
 * restarts itself; stripe_probe_arm() starts it under RTNL.
 */
#include <linux/etherdevice.h>
#include <linux/icmpv6.h>
#include <linux/if_arp.h>
#include <net/addrconf.h>
#include <net/arp.h>
#include <net/ip6_checksum.h>
#include <net/ndisc.h>

#include "stripe.h"

/* The IPv6 target: written under RTNL, read without it */
static struct in6_addr stripe_probe_target6(struct stripe_master *m)
{
	struct in6_addr addr;
	unsigned int seq;

	do {
		seq = read_seqcount_begin(&m->probe_seq);
		addr = m->cfg.probe_target6;
	} while (read_seqcount_retry(&m->probe_seq, seq));
	return addr;
}

/* Under RTNL.  BH off: a reader in softirq on this CPU would spin. */
void stripe_probe_set_target6(struct stripe_master *m,
			      const struct in6_addr *addr)
{
	ASSERT_RTNL();
	if (ipv6_addr_equal(&m->cfg.probe_target6, addr))
		return;
	local_bh_disable();
	write_seqcount_begin(&m->probe_seq);
	m->cfg.probe_target6 = *addr;
	write_seqcount_end(&m->probe_seq);
	local_bh_enable();
}

static bool stripe_probe_on(struct stripe_master *m)
{
	struct in6_addr target6;

	if (READ_ONCE(m->cfg.reorder) != STRIPE_REORDER_OFF)
		return false;
	target6 = stripe_probe_target6(m);
	return READ_ONCE(m->cfg.probe_target) || !ipv6_addr_any(&target6);
}

static unsigned long stripe_probe_interval(const struct stripe_master *m)
{
	return max(usecs_to_jiffies(READ_ONCE(m->cfg.probe_interval_us)), 1UL);
}

static void stripe_probe_send(struct stripe_link *link, __be32 target)
{
	struct net_device *dev = link->dev;
	struct sk_buff *skb;

	skb = arp_create(ARPOP_REQUEST, ETH_P_ARP, target, dev, 0, NULL,
			 dev->dev_addr, NULL);
	if (skb)
		arp_xmit(skb);
}

/* @dev's link-local address, or :: if it has none usable */
static struct in6_addr stripe_probe_lladdr(struct net_device *dev)
{
	struct in6_addr addr = in6addr_any;
	struct inet6_ifaddr *ifp;
	struct inet6_dev *idev;

	rcu_read_lock();
	idev = __in6_dev_get(dev);
	if (idev) {
		read_lock_bh(&idev->lock);
		list_for_each_entry(ifp, &idev->addr_list, if_list) {
			if (ifp->scope == IFA_LINK &&
			    !(ifp->flags & (IFA_F_TENTATIVE | IFA_F_DADFAILED))) {
				addr = ifp->addr;
				break;
			}
		}
		read_unlock_bh(&idev->lock);
	}
	rcu_read_unlock();
	return addr;
}

static void stripe_probe_send6(struct stripe_link *link,
			       const struct in6_addr *target)
{
	struct in6_addr saddr = stripe_probe_lladdr(link->dev), mcaddr;
	struct sk_buff *skb;

	skb = ndisc_ns_create(link->dev, target, &saddr, 0);
	if (!skb)
		return;
	addrconf_addr_solict_mult(target, &mcaddr);
	ndisc_send_skb(skb, &mcaddr, &saddr);
}

/* One tick for @link: judge what came back since the last, then probe.  A
 * link probed after a break (it was out of the table: no carrier) starts
 * afresh, so that it is not judged by replies it could not get.
 */
static void stripe_probe_link(struct stripe_master *m,
			      struct stripe_link *link, __be32 target,
			      const struct in6_addr *target6,
			      unsigned long interval, unsigned long now)
{
	unsigned long missed = STRIPE_PROBE_MISSED * interval;
	unsigned long rx = READ_ONCE(link->probe_rx);
	u64 now_ns = ktime_get_ns();

	if (!link->probe_at || time_after(now, link->probe_at + 2 * interval)) {
		link->probe_from = now;
		link->probe_rx_seen = rx;
	}
	spin_lock(&m->fb_lock);
	if (time_after(now, link->probe_from + missed) &&
	    time_after(now, rx + missed))
		stripe_feedback_leave(m, link, now_ns,
				      jiffies_to_msecs(now - max(rx, link->probe_from)),
				      "its probes go unanswered");
	else
		stripe_feedback_evidence(m, link, rx != link->probe_rx_seen,
					 now_ns);
	spin_unlock(&m->fb_lock);
	link->probe_rx_seen = rx;
	link->probe_at = now;
	if (!netif_running(link->dev) || !netif_carrier_ok(link->dev))
		return;
	if (target)
		stripe_probe_send(link, target);
	if (!ipv6_addr_any(target6))
		stripe_probe_send6(link, target6);
}

static void stripe_probe_timer(struct timer_list *t)
{
	struct stripe_master *m = from_timer(m, t, probe_timer);
	struct in6_addr target6 = stripe_probe_target6(m);
	__be32 target = READ_ONCE(m->cfg.probe_target);
	unsigned long interval = stripe_probe_interval(m);
	unsigned long now = jiffies;
	struct stripe_table *tbl;
	u32 i;

	if (!stripe_probe_on(m))
		return;
	rcu_read_lock_bh();
	tbl = rcu_dereference_bh(m->table);
	for (i = 0; tbl && i < tbl->n; i++)
		stripe_probe_link(m, tbl->slot[i].link, target, &target6,
				  interval, now);
	rcu_read_unlock_bh();
	mod_timer(&m->probe_timer, now + interval);
}

/* Under RTNL, after the options changed: start probing if it is on (the
 * timer stops by itself when it is not)
 */
void stripe_probe_arm(struct stripe_master *m)
{
	ASSERT_RTNL();
	if (stripe_probe_on(m) && !timer_pending(&m->probe_timer))
		mod_timer(&m->probe_timer, jiffies + stripe_probe_interval(m));
}

/* An ARP frame arrived on @link (left to the stack): a reply from the
 * target to this link's own request is what the timer waits for.  Only
 * read, never moved: the frame goes on to the stack as it is.
 */
void stripe_probe_rx(struct stripe_master *m, struct stripe_link *link,
		     const struct sk_buff *skb)
{
	const struct net_device *dev = link->dev;
	struct {
		struct arphdr h;
		u8 sha[ETH_ALEN];
		__be32 sip;
		u8 tha[ETH_ALEN];
		__be32 tip;
	} __packed buf;
	const typeof(buf) *a;

	if (!stripe_probe_on(m) || dev->addr_len != ETH_ALEN)
		return;
	a = skb_header_pointer(skb, 0, sizeof(buf), &buf);
	if (!a || a->h.ar_op != htons(ARPOP_REPLY) ||
	    a->h.ar_pro != htons(ETH_P_IP) || a->h.ar_hln != ETH_ALEN ||
	    a->h.ar_pln != 4 || a->sip != READ_ONCE(m->cfg.probe_target) ||
	    !ether_addr_equal(a->tha, dev->dev_addr))
		return;
	WRITE_ONCE(link->probe_rx, jiffies);
}

/* An IPv6 neighbour discovery frame arrived on @link (checked by
 * stripe_is_ndisc(), left to the stack): an advertisement of the target,
 * to this link, with a good checksum, is a reply.
 */
void stripe_probe_rx6(struct stripe_master *m, struct stripe_link *link,
		      const struct sk_buff *skb)
{
	const struct ipv6hdr *ip6;
	struct in6_addr target6;
	const struct nd_msg *na;
	struct ipv6hdr _ip6;
	struct nd_msg _na;
	unsigned int plen;

	if (!stripe_probe_on(m))
		return;
	target6 = stripe_probe_target6(m);
	ip6 = skb_header_pointer(skb, 0, sizeof(_ip6), &_ip6);
	if (ipv6_addr_any(&target6) || !ip6 ||
	    ip6->nexthdr != IPPROTO_ICMPV6 || ip6->hop_limit != 255)
		return;
	plen = ntohs(ip6->payload_len);
	if (plen < sizeof(*na) || sizeof(*ip6) + plen > skb->len)
		return;
	na = skb_header_pointer(skb, sizeof(*ip6), sizeof(_na), &_na);
	if (!na || na->icmph.icmp6_type != NDISC_NEIGHBOUR_ADVERTISEMENT ||
	    na->icmph.icmp6_code || !ipv6_addr_equal(&na->target, &target6) ||
	    (skb->pkt_type != PACKET_HOST &&
	     !ipv6_addr_equal(&ip6->daddr, &in6addr_linklocal_allnodes)))
		return;
	if (csum_ipv6_magic(&ip6->saddr, &ip6->daddr, plen, IPPROTO_ICMPV6,
			    skb_checksum(skb, sizeof(*ip6), plen, 0)))
		return;
	WRITE_ONCE(link->probe_rx, jiffies);
}

void stripe_probe_init(struct stripe_master *m)
{
	timer_setup(&m->probe_timer, stripe_probe_timer, 0);
	seqcount_init(&m->probe_seq);
}

void stripe_probe_stop(struct stripe_master *m)
{
	del_timer_sync(&m->probe_timer);
}
