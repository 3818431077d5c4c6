// SPDX-License-Identifier: GPL-2.0
/*
 * stripe: answer IPv6 neighbour solicitations for the master's addresses.
 *
 * Next hops are resolved on the links (xmit.c), so a peer asks on one of
 * our links for an address that lives on our master.  IPv4 answers that by
 * itself (ARP replies for any local address); IPv6 answers only for the
 * receiving device's own addresses, so stripe answers for the master, with
 * the link's hardware address.  The solicitation comes from the wire: every
 * field is checked before it is believed, and only a valid one is answered.
 */
#include <linux/etherdevice.h>
#include <linux/icmpv6.h>
#include <linux/ipv6.h>
#include <net/addrconf.h>
#include <net/ip6_checksum.h>
#include <net/ipv6_stubs.h>
#include <net/ndisc.h>

#include "stripe.h"

/* The solicitation's source link-layer address option, if it has one. */
static const u8 *stripe_ns_sllao(const struct sk_buff *skb, unsigned int off,
				 unsigned int end, u8 *buf)
{
	u8 hdr[2];

	while (off + sizeof(hdr) <= end) {
		unsigned int len;

		if (skb_copy_bits(skb, off, hdr, sizeof(hdr)))
			return NULL;
		len = hdr[1] * 8;
		if (!len || off + len > end)
			return NULL;
		if (hdr[0] == ND_OPT_SOURCE_LL_ADDR && len == 8) {
			if (skb_copy_bits(skb, off + 2, buf, ETH_ALEN))
				return NULL;
			return buf;
		}
		off += len;
	}
	return NULL;
}

static void stripe_send_na(struct net_device *dev, const struct in6_addr *daddr,
			   const struct in6_addr *target)
{
	int optlen = ndisc_opt_addr_space(dev, NDISC_NEIGHBOUR_ADVERTISEMENT);
	struct sk_buff *skb;
	struct nd_msg *msg;

	skb = alloc_skb(LL_RESERVED_SPACE(dev) + sizeof(struct ipv6hdr) +
			sizeof(*msg) + optlen + dev->needed_tailroom,
			GFP_ATOMIC);
	if (!skb)
		return;
	skb->protocol = htons(ETH_P_IPV6);
	skb->dev = dev;
	skb_reserve(skb, LL_RESERVED_SPACE(dev) + sizeof(struct ipv6hdr));
	skb_reset_transport_header(skb);
	msg = skb_put(skb, sizeof(*msg));
	*msg = (struct nd_msg) {
		.icmph = {
			.icmp6_type = NDISC_NEIGHBOUR_ADVERTISEMENT,
			.icmp6_solicited = !ipv6_addr_is_multicast(daddr),
			.icmp6_override = 1,
		},
		.target = *target,
	};
	__ndisc_fill_addr_option(skb, ND_OPT_TARGET_LL_ADDR, dev->dev_addr,
				 dev->addr_len, 0);
	ndisc_send_skb(skb, daddr, target);
}

/* Called from the link's receive handler for ICMPv6 frames (skb->data at
 * the IPv6 header).  Returns true if it answered: the frame is then ours.
 */
bool stripe_ndisc_answer(struct stripe_master *m, struct sk_buff *skb)
{
	struct ipv6hdr _ip6, *ip6;
	struct nd_msg _ns, *ns;
	unsigned int plen;
	u8 lladdr[ETH_ALEN];
	const u8 *sllao;
	struct in6_addr daddr;

	ip6 = skb_header_pointer(skb, 0, sizeof(_ip6), &_ip6);
	if (!ip6 || ip6->nexthdr != IPPROTO_ICMPV6 || ip6->hop_limit != 255)
		return false;
	plen = ntohs(ip6->payload_len);
	if (plen < sizeof(*ns) || sizeof(*ip6) + plen > skb->len)
		return false;
	ns = skb_header_pointer(skb, sizeof(*ip6), sizeof(_ns), &_ns);
	if (!ns || ns->icmph.icmp6_type != NDISC_NEIGHBOUR_SOLICITATION ||
	    ns->icmph.icmp6_code || ipv6_addr_is_multicast(&ns->target))
		return false;
	if (!ipv6_chk_addr(dev_net(m->dev), &ns->target, m->dev, 0))
		return false;
	if (csum_ipv6_magic(&ip6->saddr, &ip6->daddr, plen, IPPROTO_ICMPV6,
			    skb_checksum(skb, sizeof(*ip6), plen, 0)))
		return false;

	if (ipv6_addr_any(&ip6->saddr)) {
		/* Duplicate address detection: answer to all nodes. */
		daddr = in6addr_linklocal_allnodes;
	} else {
		daddr = ip6->saddr;
		sllao = stripe_ns_sllao(skb, sizeof(*ip6) + sizeof(*ns),
					sizeof(*ip6) + plen, lladdr);
		if (sllao && is_valid_ether_addr(sllao)) {
			struct neighbour *n;

			n = neigh_event_ns(ipv6_stub->nd_tbl, (u8 *)sllao,
					   &daddr, skb->dev);
			if (n)
				neigh_release(n);
		}
	}
	stripe_send_na(skb->dev, &daddr, &ns->target);
	return true;
}
