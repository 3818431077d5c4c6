// SPDX-License-Identifier: GPL-2.0
/*
 * stripe: the transmit path.
 *
 * Each packet the master sends goes to one link, chosen by surplus round
 * robin (SRR, from strIPe): every link in turn may send while its byte
 * credit is positive; a visit adds weight * quantum bytes of credit, and a
 * packet larger than the credit left drives it negative, so over time each
 * link carries bytes in proportion to its weight whatever the packet sizes.
 * The SRR state is per CPU, so no CPU waits for another.
 *
 * The next hop is resolved on the chosen link, as teql does: a link whose
 * neighbour entry is not valid yet is asked to resolve it and skipped; only
 * if no link has it is the packet queued on a neighbour entry to wait.  The
 * packet then enters the link's own qdisc (our FIFO), which hands it
 * straight to the driver when empty and queues it while the driver's queue
 * is stopped; a full link is skipped.
 */
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/jhash.h>
#include <net/dst_metadata.h>
#include <net/ip6_route.h>
#include <net/ndisc.h>
#include <net/neighbour.h>
#include <net/route.h>

#include "stripe.h"
#include "txseq.h"

static void stripe_srr_reset(struct stripe_srr *srr, const struct stripe_table *t)
{
	u32 i;

	srr->gen = t->gen;
	srr->cursor = 0;
	for (i = 0; i < t->n; i++)
		srr->credit[i] = READ_ONCE(t->slot[i].share);
}

/* Move to the next link and give it its credit for this visit.  Credit is
 * capped at one share so a link that could not send does not hoard it.
 */
static void stripe_srr_advance(struct stripe_srr *srr,
			       const struct stripe_table *t)
{
	u32 c = srr->cursor + 1;
	s32 share;

	if (c >= t->n)
		c = 0;
	share = READ_ONCE(t->slot[c].share);
	srr->cursor = c;
	srr->credit[c] = min(srr->credit[c] + share, share);
}

static void stripe_link_count_busy(struct stripe_link *link)
{
	struct stripe_link_stats *s = this_cpu_ptr(link->stats);

	u64_stats_update_begin(&s->syncp);
	u64_stats_inc(&s->tx_busy);
	u64_stats_update_end(&s->syncp);
}

/* A link that is down, has no carrier or was left (failover: marker.c,
 * feedback.c), for all or for this packet's next hop (@left), is passed
 * over silently; one that is up but full counts a busy skip.
 */
static bool stripe_link_try(struct stripe_link *link,
			    const unsigned long *left)
{
	if (!netif_running(link->dev) || !netif_carrier_ok(link->dev) ||
	    stripe_link_left_for(link, left))
		return false;
	if (stripe_link_can_send(link))
		return true;
	stripe_link_count_busy(link);
	return false;
}

/* A round went by and no link that can send had credit: its shares are
 * smaller than the packets (a small quantum, a link at a low pace).  Give
 * every link the credit of as many rounds as the first of them needs to
 * send again -- what visiting that many rounds would do, at once.  False
 * if no link can send.
 */
static bool stripe_srr_skip_rounds(struct stripe_srr *srr,
				   const struct stripe_table *t,
				   const unsigned long *left)
{
	s64 rounds = S64_MAX, need, share;
	u32 i;

	for (i = 0; i < t->n; i++) {
		share = READ_ONCE(t->slot[i].share);
		if (share <= 0 || stripe_link_left_for(t->slot[i].link, left) ||
		    !stripe_link_can_send(t->slot[i].link))
			continue;
		need = div64_s64(1 - (s64)srr->credit[i] + share - 1, share);
		rounds = min(rounds, max_t(s64, need, 1));
	}
	if (rounds == S64_MAX)
		return false;
	for (i = 0; i < t->n; i++) {
		share = READ_ONCE(t->slot[i].share);
		srr->credit[i] = min_t(s64, srr->credit[i] + rounds * share,
				       share);
	}
	return true;
}

static struct stripe_link *stripe_srr_pick(struct stripe_srr *srr,
					   const struct stripe_table *t,
					   unsigned int len,
					   const unsigned long *left)
{
	u32 visits, pass, c;

	for (pass = 0; pass < 2; pass++) {
		for (visits = 0; visits <= t->n; visits++) {
			c = srr->cursor;
			if (srr->credit[c] > 0 &&
			    stripe_link_try(t->slot[c].link, left))
				goto found;
			stripe_srr_advance(srr, t);
		}
		if (!pass && !stripe_srr_skip_rounds(srr, t, left))
			break;
	}
	/* No link with credit can send: take the next link that can send at
	 * all, but not a cut one -- unless every link that can send looks
	 * cut.  Silence is cleared only by hearing the peer, and a peer with
	 * nothing to answer stays quiet: holding back then would stall both
	 * ends for good.  So send anyway, as bonding keeps using its last
	 * slave.
	 */
	for (pass = 0; pass < 2; pass++) {
		for (visits = 0; visits < t->n; visits++) {
			c = srr->cursor;
			if (!stripe_link_can_send(t->slot[c].link))
				goto next;
			if (!pass && !stripe_link_left_for(t->slot[c].link, left))
				goto found;
			if (pass) {
				/* Every link was left: take each in turn, so
				 * those that work again get frames through and
				 * the peer's answers bring them back.
				 */
				stripe_srr_advance(srr, t);
				return t->slot[c].link;
			}
next:
			stripe_srr_advance(srr, t);
		}
	}
	return NULL;
found:
	srr->credit[c] -= len;
	if (srr->credit[c] <= 0)
		stripe_srr_advance(srr, t);
	return t->slot[c].link;
}

/* A packet's next hop, as its route gives it */
struct stripe_nexthop {
	int family;			/* AF_INET or AF_INET6 */
	bool v6gw;			/* an IPv6 one of an IPv4 route */
	__be32 addr4;
	const struct in6_addr *addr6;	/* in the route or the packet */
};

/* The route says which family the next hop is of, not skb->protocol (a
 * BPF program or NAT64 may have changed the packet after routing); an
 * IPv4 route may have an IPv6 next hop (RFC 5549), and then the
 * neighbour's cached header, made for IPv6, must not be used (v6gw).
 * A metadata dst (tunnel_key, BPF) has no next hop: false.
 */
static bool stripe_nexthop(struct sk_buff *skb, struct stripe_nexthop *nh)
{
	struct dst_entry *dst = skb_dst(skb);
	struct rt6_info *rt6;
	struct rtable *rt;

	nh->v6gw = false;
	if (!dst || !skb_valid_dst(skb))
		return false;
	switch (dst->ops->family) {
	case AF_INET:
		rt = container_of(dst, struct rtable, dst);
		if (rt->rt_gw_family == AF_INET6) {
			nh->family = AF_INET6;
			nh->v6gw = true;
			nh->addr6 = &rt->rt_gw6;
			return true;
		}
		nh->family = AF_INET;
		if (rt->rt_gw_family == AF_INET)
			nh->addr4 = rt->rt_gw4;
		else if (skb->protocol == htons(ETH_P_IP))
			nh->addr4 = ip_hdr(skb)->daddr;
		else
			return false;
		return true;
	case AF_INET6:
		if (skb->protocol != htons(ETH_P_IPV6))
			return false;
		rt6 = container_of(dst, struct rt6_info, dst);
		nh->family = AF_INET6;
		nh->addr6 = rt6_nexthop(rt6, &ipv6_hdr(skb)->daddr);
		return true;
	}
	return false;
}

/* The neighbour of next hop @nh on @dev, created if needed */
static struct neighbour *stripe_neigh(struct net_device *dev,
				      const struct stripe_nexthop *nh)
{
	if (nh->family == AF_INET)
		return ip_neigh_gw4(dev, nh->addr4);
	return ip_neigh_gw6(dev, nh->addr6);
}

/* Flow buckets on the wire: those of next hops of each family apart (a
 * peer reached over IPv4 and IPv6 is two next hops, whose flows must not
 * meet in one bucket), and in each half the last for frames to a group
 */
#define STRIPE_BUCKETS_FAMILY	(STRIPE_FLOW_BUCKETS / 2)
#define STRIPE_BUCKET_GROUP	(STRIPE_BUCKETS_FAMILY - 1)

static u16 stripe_bucket(const struct stripe_nexthop *nh, u32 hash)
{
	u16 half = nh->family == AF_INET6 ? STRIPE_BUCKETS_FAMILY : 0;

	return half + reciprocal_scale(hash, STRIPE_BUCKET_GROUP);
}

/* The fseq space of next hop @nh: a receiver then sees no gap in a flow
 * bucket for the frames that went to other peers.  A next hop new here
 * takes a free space, or one unused for STRIPE_TX_SPACE_IDLE, whose
 * counts it carries on (its peer's receiver starts a bucket anywhere);
 * with none, it shares the one its hash picks, without the lock, as every
 * next hop did before.  Space 0 also numbers the frames to a group, in
 * buckets no unicast flow takes.
 */
#define STRIPE_TX_SPACE_IDLE	(10 * HZ)

static bool stripe_tx_space_free(const struct stripe_tx_space *s,
				 unsigned long now)
{
	return !READ_ONCE(s->key) ||
	       time_after(now, READ_ONCE(s->used) + STRIPE_TX_SPACE_IDLE);
}

static u32 stripe_tx_space(struct stripe_master *m,
			   const struct stripe_nexthop *nh)
{
	struct stripe_tx_space *s = m->tx_space;
	u32 key, i, free = STRIPE_TX_SPACES;
	unsigned long now = jiffies;

	if (nh->family == AF_INET)
		key = jhash_1word((__force u32)nh->addr4, m->sender_id);
	else
		key = jhash(nh->addr6, sizeof(*nh->addr6), ~m->sender_id);
	key = key ?: 1;
	for (i = 0; i < STRIPE_TX_SPACES; i++) {
		if (READ_ONCE(s[i].key) == key)
			goto found;
		if (free == STRIPE_TX_SPACES && stripe_tx_space_free(&s[i], now))
			free = i;
	}
	i = key % STRIPE_TX_SPACES;
	if (free == STRIPE_TX_SPACES)
		goto found;
	/* Another CPU may have taken it, or given this next hop one */
	spin_lock(&m->tx_space_lock);
	for (i = 0; i < STRIPE_TX_SPACES; i++)
		if (s[i].key == key)
			break;
	if (i == STRIPE_TX_SPACES) {
		i = free;
		if (stripe_tx_space_free(&s[i], now)) {
			/* The last next hop's links out are not this one's */
			bitmap_zero(s[i].left, STRIPE_MAX_LINKS);
			WRITE_ONCE(s[i].used, now);
			WRITE_ONCE(s[i].key, key);
		} else {
			i = key % STRIPE_TX_SPACES;
		}
	}
	spin_unlock(&m->tx_space_lock);
found:
	if (READ_ONCE(s[i].used) != now)
		WRITE_ONCE(s[i].used, now);
	return i;
}

static void stripe_count_neigh_fail(struct stripe_link *link)
{
	struct stripe_link_stats *s = this_cpu_ptr(link->stats);

	u64_stats_update_begin(&s->syncp);
	u64_stats_inc(&s->neigh_fail);
	u64_stats_update_end(&s->syncp);
}

static void stripe_count_tx(struct stripe_master *m, struct stripe_link *link,
			    unsigned int len, bool sent)
{
	struct stripe_link_stats *ls = this_cpu_ptr(link->stats);
	struct stripe_master_stats *ms = this_cpu_ptr(m->stats);

	u64_stats_update_begin(&ls->syncp);
	if (sent) {
		u64_stats_inc(&ls->tx_packets);
		u64_stats_add(&ls->tx_bytes, len);
	} else {
		u64_stats_inc(&ls->tx_drops);
	}
	u64_stats_update_end(&ls->syncp);
	u64_stats_update_begin(&ms->syncp);
	if (sent) {
		u64_stats_inc(&ms->tx_packets);
		u64_stats_add(&ms->tx_bytes, len);
	} else {
		u64_stats_inc(&ms->tx_drops);
	}
	u64_stats_update_end(&ms->syncp);
}

static void stripe_count_master_drop(struct stripe_master *m, bool busy)
{
	struct stripe_master_stats *ms = this_cpu_ptr(m->stats);

	u64_stats_update_begin(&ms->syncp);
	u64_stats_inc(&ms->tx_drops);
	if (busy)
		u64_stats_inc(&ms->tx_busy);
	u64_stats_update_end(&ms->syncp);
}

/* reorder on: put the stripe header in front of the packet and queue it on
 * the link.  The header's EtherType is written by the link's header code
 * from skb->protocol, so the neighbour's cached Ethernet header (made for
 * IP) must not be used.  The frame is numbered when the link's FIFO takes
 * it (stripe_link_number()), not here: it may wait on the neighbour entry
 * first.  Till then its fseq holds the number of its next hop's space.
 */
static int stripe_xmit_reorder(struct stripe_master *m,
			       struct stripe_link *link, struct neighbour *n,
			       struct sk_buff *skb, u16 flow, u32 space)
{
	struct stripe_wire_hdr *h;

	if (skb_cow_head(skb, LL_RESERVED_SPACE(link->dev) + sizeof(*h))) {
		kfree_skb(skb);
		return NET_XMIT_DROP;
	}
	h = skb_push(skb, sizeof(*h));
	memset(h, 0, sizeof(*h));
	h->version = STRIPE_WIRE_VERSION;
	h->proto = skb->protocol;
	h->sender = htonl(m->sender_id);
	h->flow = htons(flow);
	h->fseq = htonl(space);
	h->link = link->id;
	skb->protocol = htons(ETH_P_STRIPE);
	/* The neighbour output pulls everything before the network header. */
	skb_reset_network_header(skb);
	skb->dev = link->dev;
	return neigh_output(n, skb, true);
}

/* reorder off: the packet as it is, as teql sends it */
static int stripe_xmit_plain(struct stripe_link *link, struct neighbour *n,
			     struct sk_buff *skb, bool v6gw)
{
	if (unlikely(skb_headroom(skb) < LL_RESERVED_SPACE(link->dev))) {
		skb = skb_expand_head(skb, LL_RESERVED_SPACE(link->dev));
		if (!skb)
			return NET_XMIT_DROP;
	}
	skb->dev = link->dev;
	return neigh_output(n, skb, v6gw);
}

/* Under @link's root qdisc lock: the lseq of a frame to @dest on @link.
 * A receiver counts the lseqs it missed on a link as frames the link lost
 * (reseq.c), so each destination has its own count: a peer never sees the
 * frames the link carried to others as gaps.  Most frames go where the
 * last one went: one compare.  A destination new here, or back after
 * STRIPE_TX_DESTS others took its place, starts again from 1: its peer
 * reads the jump as loss unless it long forgot the link
 * (STRIPE_RX_REBASE_NS).  A point-to-point link (no Ethernet addresses)
 * has one peer.  (Frames to a group carry no lseq: stripe_link_number().)
 */
static u8 stripe_link_dest_lseq(struct stripe_link *link, const u8 *dest)
{
	struct stripe_tx_dest *d = link->tx_dest, got;
	unsigned int i;

	if (link->dev->addr_len != ETH_ALEN)
		return ++d[0].lseq;
	if (likely(d[0].used && ether_addr_equal(d[0].addr, dest)))
		return ++d[0].lseq;
	/* The place it had, or the first free, or the oldest's */
	for (i = 1; i < STRIPE_TX_DESTS - 1; i++)
		if (!d[i].used || ether_addr_equal(d[i].addr, dest))
			break;
	if (d[i].used && ether_addr_equal(d[i].addr, dest)) {
		got = d[i];
	} else {
		ether_addr_copy(got.addr, dest);
		got.lseq = 0;
		got.used = true;
	}
	memmove(&d[1], &d[0], i * sizeof(*d));
	d[0] = got;
	return ++d[0].lseq;
}

/* Number a frame of @link's master (reorder on) as the link's FIFO takes
 * it: from stripe_enqueue(), under the link's root qdisc lock.  So each
 * link carries its gseqs and lseqs in rising order whatever CPU sent the
 * frame, and however long it waited on the way: a frame parked on a
 * neighbour entry while it resolves is numbered when it leaves, not
 * before a marker that would then overtake it (review K8).  No lock of
 * ours is held across a qdisc or a driver (review K10).
 *
 * Any other frame passes untouched: one of another sender, not for this
 * link, or a data frame our transmit did not build (its fseq names no
 * space: one written whole by a packet socket).  False if the frame must
 * be dropped.
 */
bool stripe_link_number(struct stripe_link *link, struct sk_buff *skb)
{
	struct stripe_master *m = rcu_dereference_bh(link->master);
	int off = skb_network_offset(skb);
	struct stripe_wire_hdr *h;
	u32 gseq, fseq, space;
	u16 bucket;
	bool group;
	u64 now;

	if (skb->protocol != htons(ETH_P_STRIPE) || !m || off < ETH_HLEN ||
	    off + sizeof(*h) > skb_headlen(skb))
		return true;
	h = (struct stripe_wire_hdr *)skb_network_header(skb);
	if (h->version != STRIPE_WIRE_VERSION ||
	    h->sender != htonl(m->sender_id) || h->link != link->id ||
	    (h->flags & STRIPE_WIRE_F_FEEDBACK))
		return true;
	space = ntohl(h->fseq);
	bucket = ntohs(h->flow);
	if (!(h->flags & STRIPE_WIRE_F_MARKER) &&
	    (space >= STRIPE_TX_SPACES || bucket >= STRIPE_FLOW_BUCKETS))
		return true;
	if (skb_ensure_writable(skb, off + sizeof(*h)))
		return false;
	h = (struct stripe_wire_hdr *)skb_network_header(skb);
	now = ktime_get_ns();
	/* Every host on the link hears a frame to a group: it carries no
	 * lseq, which the receivers do not read (reseq.c)
	 */
	group = link->dev->addr_len == ETH_ALEN &&
		!is_unicast_ether_addr(skb->data);
	h->lseq = group ? 0 : stripe_link_dest_lseq(link, skb->data);
	if (h->flags & STRIPE_WIRE_F_MARKER) {
		/* Nothing older is still on this link */
		gseq = atomic_read(&m->tx_gseq);
		h->gseq = htonl(gseq);
	} else {
		if (group) {
			space = 0;
			bucket = (bucket & STRIPE_BUCKETS_FAMILY) |
				 STRIPE_BUCKET_GROUP;
			h->flow = htons(bucket);
		}
		stripe_txseq_take(&m->tx_gseq, &m->tx_fseq[space][bucket],
				  &gseq, &fseq);
		h->gseq = htonl(gseq);
		h->fseq = htonl(fseq);
		h->tstamp = htonl((u32)div_u64(ktime_get_real_ns(),
					       NSEC_PER_USEC));
		/* Where it goes on the link: markers follow it there.
		 * Frames to a group (router solicitations) name no peer.
		 */
		if (is_unicast_ether_addr(skb->data)) {
			stripe_link_note_peer(link, skb->data, space, now);
			stripe_feedback_sent(link, now);
		}
		stripe_marker_arm(m);
	}
	WRITE_ONCE(link->tx_frames, link->tx_frames + 1);
	WRITE_ONCE(link->tx_gseq, gseq);
	WRITE_ONCE(link->tx_last, now);
	return true;
}

/* stripe-min: a flow bucket that sent less than this lately stays on the
 * link its hash picks, so short flows see no reordering at all; after a
 * second of silence it counts as short again.  While that link is out
 * (down, or left), on the next one in the table that can take it: one
 * link still, the same for the flow's every packet until it is back.
 */
static struct stripe_link *stripe_pinned_link(struct stripe_master *m,
					      const struct stripe_table *t,
					      struct sk_buff *skb,
					      unsigned int len,
					      const unsigned long *left)
{
	u32 min = READ_ONCE(m->cfg.stripe_min);
	unsigned long now = jiffies;
	struct stripe_tx_flow *f;
	struct stripe_link *link;
	u32 hash, i, tries;
	u64 bytes;

	/* The flow hash is computed only when a policy needs it */
	if (!min)
		return NULL;
	hash = skb_get_hash(skb);
	f = &m->tx_flow[hash & (STRIPE_FLOW_BUCKETS - 1)];
	bytes = READ_ONCE(f->bytes);
	if (time_after(now, READ_ONCE(f->last) + HZ))
		bytes = 0;
	WRITE_ONCE(f->bytes, bytes + len);
	WRITE_ONCE(f->last, now);
	if (bytes >= min)
		return NULL;
	i = reciprocal_scale(hash, t->n);
	for (tries = 0; tries < t->n; tries++) {
		link = t->slot[i].link;
		if (stripe_link_can_send(link) &&
		    !stripe_link_left_for(link, left))
			return link;
		if (++i == t->n)
			i = 0;
	}
	return NULL;
}

netdev_tx_t stripe_master_xmit(struct sk_buff *skb, struct net_device *dev)
{
	enum skb_drop_reason reason = SKB_DROP_REASON_DEV_READY;
	struct stripe_master *m = netdev_priv(dev);
	struct stripe_link *link, *wait_link = NULL;
	const struct stripe_link *sending;
	struct neighbour *n, *wait_neigh = NULL;
	const struct stripe_table *t;
	const unsigned long *left = NULL;
	struct stripe_nexthop nh;
	u32 space = 0;
	bool reorder;
	unsigned int len = skb->len;
	struct stripe_srr *srr;
	u32 tries;
	int rc;

	t = rcu_dereference_bh(m->table);
	if (unlikely(!t || !t->n))
		goto drop;
	srr = this_cpu_ptr(m->srr);
	if (unlikely(srr->gen != t->gen))
		stripe_srr_reset(srr, t);

	if (unlikely(!stripe_nexthop(skb, &nh))) {
		reason = SKB_DROP_REASON_NEIGH_CREATEFAIL;
		goto drop;
	}
	/* (Before the route, which may hold the next hop, is dropped) */
	reorder = READ_ONCE(m->cfg.reorder) == STRIPE_REORDER_ON;
	if (reorder) {
		space = stripe_tx_space(m, &nh);
		left = m->tx_space[space].left;
	}
	link = stripe_pinned_link(m, t, skb, len, left);
	for (tries = 0; tries < t->n; tries++) {
		if (!link || tries)
			link = stripe_srr_pick(srr, t, len, left);
		if (!link)
			break;
		n = stripe_neigh(link->dev, &nh);
		if (IS_ERR_OR_NULL(n)) {
			reason = SKB_DROP_REASON_NEIGH_CREATEFAIL;
			goto drop;
		}
		if (READ_ONCE(n->nud_state) & NUD_VALID)
			goto send;
		/* Start resolving here, send on a link that already knows. */
		neigh_event_send(n, NULL);
		stripe_count_neigh_fail(link);
		if (!wait_link) {
			wait_link = link;
			wait_neigh = n;
		}
	}
	if (!wait_link)
		goto drop_busy;
	link = wait_link;
	n = wait_neigh;
	/* Queued on the link's neighbour until it resolves.  Without the route
	 * the neighbour code sends it on that link, rather than looking up the
	 * master's neighbour again (meant for teql) and skipping our header.
	 */
	skb_dst_drop(skb);
send:
	if (unlikely(srr->sending == link)) {
		/* This CPU is inside @link's own transmit: the frame looped
		 * back through the master (the core's recursion limit stops
		 * only loops that nest deeper)
		 */
		net_warn_ratelimited("%s: transmit loops back through link %s: dropped\n",
				     dev->name, link->dev->name);
		reason = SKB_DROP_REASON_NOT_SPECIFIED;
		goto drop;
	}
	sending = srr->sending;
	srr->sending = link;
	if (reorder)
		rc = stripe_xmit_reorder(m, link, n, skb,
					 stripe_bucket(&nh, skb_get_hash(skb)),
					 space);
	else
		rc = stripe_xmit_plain(link, n, skb, nh.v6gw);
	/* (The nested transmit used this CPU's SRR state too: srr is
	 * still this CPU's, BH being off.)
	 */
	srr->sending = sending;
	stripe_count_tx(m, link, len, !net_xmit_eval(rc));
	return NETDEV_TX_OK;

drop_busy:
	/* Every link's queue is full.  No back-pressure: the master has no
	 * queue to stop (bonding and team neither); the sender's own limits
	 * (TCP small queues) see the drop.
	 */
	stripe_count_master_drop(m, true);
	kfree_skb_reason(skb, SKB_DROP_REASON_FULL_RING);
	return NETDEV_TX_OK;
drop:
	stripe_count_master_drop(m, false);
	kfree_skb_reason(skb, reason);
	return NETDEV_TX_OK;
}
