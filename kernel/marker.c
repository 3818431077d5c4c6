// SPDX-License-Identifier: GPL-2.0
/*
 * stripe: markers -- keep idle links from freezing the receiver's loss rule.
 *
 * The receiver declares a gap lost once every live link has delivered a
 * frame sent after it (reseq.c).  A link the sender has not used since
 * would hold that up until the hold bound.  So, with reorder on, a link
 * that lags (the sender's gseq moved on since its last frame) and has been
 * idle for stripe_marker_interval_ns() gets a marker: the stripe header
 * alone, carrying the current gseq, sent to each peer data went to on the
 * link in the last second (link->tx_peer) and each peer we talk to that
 * reports on it (feedback.c): only they can be waiting for it; another
 * host on the segment gets none, and with none of them, none is sent.
 * (With more than STRIPE_MARKER_UNICAST_MAX of them, on a link without
 * addresses, and as a probe with no peer known, it is broadcast.)  Every frame of
 * the link is numbered as the link's FIFO takes it (stripe_link_number()),
 * and the marker is too, so it states exactly "nothing older is still on
 * this link".
 *
 * The sender cannot know whether a receiver has a gap pending (there is no
 * return channel), so it marks after any traffic; that costs at most one
 * small frame per idle link per interval, and nothing on links kept busy.
 * The timer runs only while some link lags.
 */
#include <linux/etherdevice.h>
#include <linux/pkt_sched.h>

#include "stripe.h"

/* An eighth of the hold bound, between 100 us and 1 ms: markers arrive
 * well within the hold bound after which the receiver calls a link silent
 * (rx.c), and the timer stays cheap.
 */
static u64 stripe_marker_interval_ns(const struct stripe_master *m)
{
	u64 hold = (u64)READ_ONCE(m->cfg.hold_max_us) * NSEC_PER_USEC;

	return clamp_t(u64, hold / 8, 100 * NSEC_PER_USEC, NSEC_PER_MSEC);
}

static void stripe_count_markers(struct stripe_master *m,
				 struct stripe_link *link, unsigned int n)
{
	struct stripe_link_stats *ls = this_cpu_ptr(link->stats);
	struct stripe_master_stats *ms = this_cpu_ptr(m->stats);

	u64_stats_update_begin(&ls->syncp);
	u64_stats_add(&ls->tx_markers, n);
	u64_stats_update_end(&ls->syncp);
	u64_stats_update_begin(&ms->syncp);
	u64_stats_add(&ms->tx_markers, n);
	u64_stats_update_end(&ms->syncp);
}

/* A marker goes to this many peers at most: data ones, then reporters */
#define STRIPE_MARKER_DESTS	(2 * STRIPE_TX_PEERS)
/* ... and is broadcast, one frame, to more than this many: the cost of a
 * marker event stays bounded (a link shared by many peers)
 */
#define STRIPE_MARKER_UNICAST_MAX	4
/* Markers go to the peers data went to on the link this recently */
#define STRIPE_MARKER_PEER_NS	NSEC_PER_SEC
/* ... and probes of a cut link, which carries no data, this recently */
#define STRIPE_PROBE_PEER_NS	(10 * NSEC_PER_SEC)
/* Cut links are probed this many intervals apart */
#define STRIPE_PROBE_INTERVALS	8
/* A next hop we sent nothing to this long is probed no more (jiffies) */
#define STRIPE_PROBE_SPACE_QUIET	nsecs_to_jiffies(STRIPE_TALK_NS)

/* Under @link's root qdisc lock (stripe_link_note_peer()): the first
 * frame to @addr lately, or one to a peer other than the last, or to the
 * last in an fseq space new for it (a peer reached over IPv4 and IPv6 is
 * two next hops; one that moved leaves its old space within a second of
 * silence).  The list stays latest first; a new peer takes the place of
 * the oldest.
 */
void stripe_marker_add_peer(struct stripe_link *link, const u8 *addr,
			    u8 space, u64 now)
{
	struct stripe_peer_addr *p = link->tx_peer;
	u16 spaces = BIT(space);
	unsigned int i;

	for (i = 0; i < STRIPE_TX_PEERS - 1; i++)
		if (p[i].at && ether_addr_equal(p[i].addr, addr))
			break;
	if (p[i].at && ether_addr_equal(p[i].addr, addr) &&
	    now - p[i].at < STRIPE_MARKER_PEER_NS)
		spaces |= p[i].spaces;
	write_seqcount_begin(&link->tx_peer_seq);
	memmove(&p[1], &p[0], i * sizeof(*p));
	ether_addr_copy(p[0].addr, addr);
	p[0].spaces = spaces;
	p[0].at = now;
	write_seqcount_end(&link->tx_peer_seq);
}

/* Did data go to @addr on @link lately?  (feedback.c: reports count only
 * from a peer we talk to.)  If so, *@spaces are its next hops' fseq
 * spaces (xmit.c), else 0.  Links that are not Ethernet have no addresses
 * to tell peers apart: yes, in no space of its own.
 */
bool stripe_marker_sent_to(struct stripe_link *link, const u8 *addr, u64 now,
			   unsigned long *spaces)
{
	unsigned int i, seq;
	bool sent;

	*spaces = 0;
	if (link->dev->addr_len != ETH_ALEN)
		return true;
	do {
		seq = read_seqcount_begin(&link->tx_peer_seq);
		sent = false;
		for (i = 0; i < STRIPE_TX_PEERS && !sent; i++) {
			const struct stripe_peer_addr *p = &link->tx_peer[i];
			u64 at = READ_ONCE(p->at);

			sent = at && now - at < STRIPE_MARKER_PEER_NS &&
			       ether_addr_equal(p->addr, addr);
			if (sent)
				*spaces = p->spaces;
		}
	} while (read_seqcount_retry(&link->tx_peer_seq, seq));
	return sent;
}

/* The addresses a marker (or @probe) goes to */
static unsigned int stripe_marker_dests(struct stripe_link *link, u64 now,
					bool probe,
					u8 dest[][ETH_ALEN])
{
	u64 window = probe ? STRIPE_PROBE_PEER_NS : STRIPE_MARKER_PEER_NS;
	unsigned int i, n, seq;

	if (link->dev->addr_len != ETH_ALEN)
		return 0;
	do {
		seq = read_seqcount_begin(&link->tx_peer_seq);
		n = 0;
		for (i = 0; i < STRIPE_TX_PEERS; i++) {
			const struct stripe_peer_addr *p = &link->tx_peer[i];
			u64 at = READ_ONCE(p->at);

			if (at && now - at < window)
				ether_addr_copy(dest[n++], p->addr);
		}
	} while (read_seqcount_retry(&link->tx_peer_seq, seq));
	/* ... and to the peers that report on the link: one whose flow is
	 * pinned to another link (stripe-min) hears us here, and waits
	 */
	if (!probe)
		n = stripe_feedback_peers(link, now, dest, n,
					  STRIPE_MARKER_DESTS);
	return n;
}

static struct sk_buff *stripe_marker_build(struct stripe_master *m,
					   struct stripe_link *link,
					   const u8 *dest,
					   const struct stripe_wire_hdr *hdr)
{
	struct net_device *dev = link->dev;
	struct stripe_wire_hdr *h;
	struct sk_buff *skb;

	skb = alloc_skb(LL_RESERVED_SPACE(dev) + sizeof(*h) +
			dev->needed_tailroom, GFP_ATOMIC);
	if (!skb)
		return NULL;
	skb_reserve(skb, LL_RESERVED_SPACE(dev));
	skb_reset_network_header(skb);
	h = skb_put_data(skb, hdr, sizeof(*h));
	skb->dev = dev;
	skb->protocol = htons(ETH_P_STRIPE);
	skb->priority = TC_PRIO_CONTROL;
	if (dev_hard_header(skb, dev, ETH_P_STRIPE, dest, NULL, skb->len) < 0) {
		kfree_skb(skb);
		return NULL;
	}
	return skb;
}

/* The same marker header to each of @dest (@n of them; none: to the
 * link's broadcast address).  The link's FIFO numbers each copy for its
 * peer (stripe_link_number()).
 */
static void stripe_marker_send_to(struct stripe_master *m,
				  struct stripe_link *link, bool probe,
				  u8 dest[][ETH_ALEN], unsigned int n)
{
	struct stripe_wire_hdr hdr = {};
	struct sk_buff *skb;
	unsigned int i, sent = 0;

	hdr.version = STRIPE_WIRE_VERSION;
	hdr.flags = STRIPE_WIRE_F_MARKER | (probe ? STRIPE_WIRE_F_PROBE : 0);
	hdr.sender = htonl(m->sender_id);
	hdr.link = link->id;
	hdr.tstamp = htonl((u32)div_u64(ktime_get_real_ns(), NSEC_PER_USEC));
	for (i = 0; i < max(n, 1U); i++) {
		skb = stripe_marker_build(m, link, n ? dest[i] :
					  link->dev->broadcast, &hdr);
		if (!skb)
			continue;
		dev_queue_xmit(skb);
		sent++;
	}
	if (sent)
		stripe_count_markers(m, link, sent);
}

/* One marker event on @link: to each peer that needs it.  A probe of a
 * cut link asks the peers that had data there, or, with none in the last
 * seconds, whoever is there now.  From the marker timer only.
 */
static void stripe_marker_send(struct stripe_master *m,
			       struct stripe_link *link, u64 now, bool probe)
{
	u8 dest[STRIPE_MARKER_DESTS][ETH_ALEN] __aligned(2);
	unsigned int n;

	n = stripe_marker_dests(link, now, probe, dest);
	if (!n && !probe && link->dev->addr_len == ETH_ALEN) {
		/* Nobody here waits for it */
		WRITE_ONCE(link->tx_gseq, atomic_read(&m->tx_gseq));
		WRITE_ONCE(link->tx_last, now);
		return;
	}
	if (n > STRIPE_MARKER_UNICAST_MAX)
		n = 0;
	stripe_marker_send_to(m, link, probe, dest, n);
}

/* A link left for one next hop alone (feedback.c) still carries the
 * other peers' data, so it gets no marker that lagging would send: probe
 * that peer there every STRIPE_PROBE_INTERVALS intervals, so that it
 * hears the link again once it heals and reports it delivering.  A peer
 * no longer among those data went to on the link cannot be probed, and
 * one we sent nothing to for STRIPE_PROBE_SPACE_QUIET is not talked to:
 * its reports are not taken (stripe_fb_talking()), so it was probed for
 * ever (209 probes a second on a link cut towards a host, seconds after
 * its stream ended).  The link is its own again, and its data will tell.
 * True if any next hop has the link left.
 */
static bool stripe_marker_probe_spaces(struct stripe_master *m,
				       struct stripe_link *link, u64 now,
				       u64 interval)
{
	u8 dest[STRIPE_TX_PEERS][ETH_ALEN] __aligned(2);
	unsigned long spaces = 0, quiet = 0, probed = 0;
	unsigned long jnow = jiffies;
	unsigned int i, n, seq;

	for (i = 0; i < STRIPE_TX_SPACES; i++) {
		const struct stripe_tx_space *s = &m->tx_space[i];

		if (!test_bit(link->id, s->left))
			continue;
		if (time_after(jnow, READ_ONCE(s->used) +
					   STRIPE_PROBE_SPACE_QUIET))
			quiet |= BIT(i);
		else
			spaces |= BIT(i);
	}
	if (!spaces && !quiet)
		return false;
	if (now - link->space_probe_at < STRIPE_PROBE_INTERVALS * interval)
		return true;
	link->space_probe_at = now;
	do {
		seq = read_seqcount_begin(&link->tx_peer_seq);
		n = 0;
		probed = 0;
		for (i = 0; i < STRIPE_TX_PEERS; i++) {
			const struct stripe_peer_addr *p = &link->tx_peer[i];

			if (!READ_ONCE(p->at) || !(spaces & p->spaces))
				continue;
			probed |= spaces & p->spaces;
			ether_addr_copy(dest[n++], p->addr);
		}
	} while (read_seqcount_retry(&link->tx_peer_seq, seq));
	if (n) {
		/* A probe, numbered as it leaves, marks the link caught up
		 * (link->tx_gseq): if it lags, the peers that get data there
		 * need the marker too, or it looks silent to them.
		 */
		if (READ_ONCE(link->tx_gseq) != (u32)atomic_read(&m->tx_gseq))
			stripe_marker_send(m, link, now, false);
		stripe_marker_send_to(m, link, true, dest, n);
	}
	spaces = (spaces & ~probed) | quiet;
	if (spaces) {
		spin_lock(&m->fb_lock);
		for_each_set_bit(i, &spaces, STRIPE_TX_SPACES)
			clear_bit(link->id, m->tx_space[i].left);
		spin_unlock(&m->fb_lock);
	}
	return true;
}

/* What the timer found: when it must run again */
enum stripe_marker_next {
	STRIPE_MARKER_STOP,	/* every link is up to date */
	STRIPE_MARKER_WAIT,	/* a link waits for the peer's report */
	STRIPE_MARKER_SOON,	/* a link lags but was busy lately */
	STRIPE_MARKER_PROBE,	/* only cut links are left to probe */
};

/* A timer run this late means the machine stalled */
#define STRIPE_MARKER_STALL_NS	(50 * NSEC_PER_MSEC)

/* Mark the links that lag and are idle.
 *
 * Also the failover: a link on which the peer's frames stopped arriving
 * while it sends on the others is cut, most likely both ways, so the
 * transmit path leaves it (link->rx_silent) -- unless the peer reports
 * that it gets what we send there (a one-way loss towards us, which the
 * peer leaves on our report); so it does a link the peer reports lost
 * (link->peer_lost, feedback.c), or one data went to that no report
 * mentions (stripe_feedback_unanswered()).  It still gets a marker now
 * and then, as a probe, so the peer hears the link again once it heals,
 * and answers or reports it.
 */
static enum stripe_marker_next stripe_marker_run(struct stripe_master *m,
						 u32 gseq, u64 now,
						 bool stalled)
{
	u64 interval = stripe_marker_interval_ns(m);
	enum stripe_marker_next next = STRIPE_MARKER_STOP;
	u64 caught_up = 0;	/* read when a link's silence is judged */
	const struct stripe_table *t;
	bool silent;
	u32 i;

	rcu_read_lock_bh();
	t = rcu_dereference_bh(m->table);
	for (i = 0; t && i < t->n; i++) {
		struct stripe_link *link = t->slot[i].link;

		if (!stripe_link_can_send(link))
			continue;
		/* Sticky: only the peer's next frame on it clears it (rx.c),
		 * not a lull of the peer.
		 */
		silent = READ_ONCE(link->rx_silent);
		if (!silent && !caught_up)
			caught_up = stripe_rx_caught_up(m, now);
		if (!silent && stripe_rx_link_silent(m, link, caught_up) &&
		    !stripe_feedback_vouches(link, now)) {
			WRITE_ONCE(link->rx_silent, true);
			stripe_link_state_changed(m);
			silent = true;
		}
		if (!silent && stripe_feedback_unanswered(m, link, now, stalled))
			next = max(next, STRIPE_MARKER_WAIT);
		if (stripe_marker_probe_spaces(m, link, now, interval))
			next = max(next, STRIPE_MARKER_PROBE);
		if (silent || READ_ONCE(link->peer_lost)) {
			if (now - READ_ONCE(link->tx_last) >=
			    STRIPE_PROBE_INTERVALS * interval)
				stripe_marker_send(m, link, now, true);
			next = max(next, STRIPE_MARKER_PROBE);
			continue;
		}
		if (READ_ONCE(link->tx_gseq) == gseq)
			continue;
		if (now - READ_ONCE(link->tx_last) < interval)
			next = STRIPE_MARKER_SOON;
		else
			stripe_marker_send(m, link, now, false);
	}
	rcu_read_unlock_bh();
	return next;
}

static enum hrtimer_restart stripe_marker_timer(struct hrtimer *timer)
{
	struct stripe_master *m = container_of(timer, struct stripe_master,
					       marker_timer);
	u32 gseq = atomic_read(&m->tx_gseq);
	u64 interval = stripe_marker_interval_ns(m);
	enum stripe_marker_next next = STRIPE_MARKER_STOP;
	u64 now = ktime_get_ns();
	/* Run this late, the machine stalled: the peer's reports (on the
	 * same machine, in tests) may not have had their turn either
	 */
	bool stalled = now - ktime_to_ns(hrtimer_get_expires(timer)) >
		       STRIPE_MARKER_STALL_NS;

	if (READ_ONCE(m->cfg.reorder) == STRIPE_REORDER_ON)
		next = stripe_marker_run(m, gseq, now, stalled);
	if (next == STRIPE_MARKER_PROBE || next == STRIPE_MARKER_WAIT)
		interval *= STRIPE_PROBE_INTERVALS;
	if (next != STRIPE_MARKER_STOP)
		goto again;
	/* Stop, unless a frame was sent meanwhile by a CPU that saw the
	 * timer still armed (pairs with the barrier of atomic_inc_return()
	 * in the transmit path, before stripe_marker_arm()).
	 */
	clear_bit(0, &m->marker_armed);
	smp_mb__after_atomic();	/* clear the bit, then read tx_gseq */
	if (atomic_read(&m->tx_gseq) == gseq ||
	    test_and_set_bit(0, &m->marker_armed))
		return HRTIMER_NORESTART;
again:
	hrtimer_forward_now(timer, ns_to_ktime(interval));
	return HRTIMER_RESTART;
}

/* After a frame was sent with reorder on: make sure the timer runs. */
void stripe_marker_arm(struct stripe_master *m)
{
	if (test_bit(0, &m->marker_armed) ||
	    test_and_set_bit(0, &m->marker_armed))
		return;
	hrtimer_start(&m->marker_timer,
		      ns_to_ktime(stripe_marker_interval_ns(m)),
		      HRTIMER_MODE_REL_SOFT);
}

void stripe_marker_init(struct stripe_master *m)
{
	hrtimer_init(&m->marker_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_SOFT);
	m->marker_timer.function = stripe_marker_timer;
}

/* The master is going away and sends nothing any more. */
void stripe_marker_stop(struct stripe_master *m)
{
	hrtimer_cancel(&m->marker_timer);
}
