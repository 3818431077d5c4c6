// SPDX-License-Identifier: GPL-2.0
/*
 * stripe: markers -- keep idle links from freezing the receiver's loss rule.
 *
 * The receiver declares a gap lost once every live link has delivered a
 * frame sent after it (reseq.c).  A link the sender has not used since
 * would hold that up until the hold bound.  So, with reorder on, a link
 * that lags (the sender's gseq moved on since its last frame) and has been
 * idle for stripe_marker_interval_ns() gets a marker: the stripe header
 * alone, broadcast on the link, carrying the current gseq.  Every frame of
 * the link is numbered and queued under link->tx_lock, and the marker is
 * too, so it states exactly "nothing older is still on this link".
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

static void stripe_count_marker(struct stripe_master *m,
				struct stripe_link *link)
{
	struct stripe_link_stats *ls = this_cpu_ptr(link->stats);
	struct stripe_master_stats *ms = this_cpu_ptr(m->stats);

	u64_stats_update_begin(&ls->syncp);
	u64_stats_inc(&ls->tx_markers);
	u64_stats_update_end(&ls->syncp);
	u64_stats_update_begin(&ms->syncp);
	u64_stats_inc(&ms->tx_markers);
	u64_stats_update_end(&ms->syncp);
}

static void stripe_marker_send(struct stripe_master *m,
			       struct stripe_link *link, u64 now, bool probe)
{
	struct net_device *dev = link->dev;
	struct stripe_wire_hdr *h;
	struct sk_buff *skb;
	u32 gseq;

	skb = alloc_skb(LL_RESERVED_SPACE(dev) + sizeof(*h) +
			dev->needed_tailroom, GFP_ATOMIC);
	if (!skb)
		return;
	skb_reserve(skb, LL_RESERVED_SPACE(dev));
	skb_reset_network_header(skb);
	h = skb_put_zero(skb, sizeof(*h));
	skb->dev = dev;
	skb->protocol = htons(ETH_P_STRIPE);
	skb->priority = TC_PRIO_CONTROL;
	if (dev_hard_header(skb, dev, ETH_P_STRIPE, dev->broadcast, NULL,
			    skb->len) < 0) {
		kfree_skb(skb);
		return;
	}
	if (!stripe_link_tx_lock(link)) {
		kfree_skb(skb);
		return;
	}
	gseq = atomic_read(&m->tx_gseq);
	h->version = STRIPE_WIRE_VERSION;
	h->flags = STRIPE_WIRE_F_MARKER | (probe ? STRIPE_WIRE_F_PROBE : 0);
	h->sender = htonl(m->sender_id);
	h->link = link->id;
	h->gseq = htonl(gseq);
	h->tstamp = htonl((u32)div_u64(ktime_get_real_ns(), NSEC_PER_USEC));
	WRITE_ONCE(link->tx_gseq, gseq);
	WRITE_ONCE(link->tx_last, now);
	dev_queue_xmit(skb);
	stripe_link_tx_unlock(link);
	stripe_count_marker(m, link);
}

/* What the timer found: when it must run again */
enum stripe_marker_next {
	STRIPE_MARKER_STOP,	/* every link is up to date */
	STRIPE_MARKER_SOON,	/* a link lags but was busy lately */
	STRIPE_MARKER_PROBE,	/* only cut links are left to probe */
};

/* Cut links are probed this many intervals apart */
#define STRIPE_PROBE_INTERVALS	8

/* Mark the links that lag and are idle.
 *
 * Also the failover: a link on which the peer's frames stopped arriving
 * while it sends on the others is cut, most likely both ways, so the
 * transmit path leaves it (link->rx_silent) -- unless the peer reports
 * that it gets what we send there (a one-way loss towards us, which the
 * peer leaves on our report); so it does a link the peer reports lost
 * (link->peer_lost, feedback.c).  It still gets a marker now
 * and then, as a probe, so the peer hears the link again once it heals,
 * and answers or reports it.
 */
static enum stripe_marker_next stripe_marker_run(struct stripe_master *m,
						 u32 gseq, u64 now)
{
	u64 interval = stripe_marker_interval_ns(m);
	enum stripe_marker_next next = STRIPE_MARKER_STOP;
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
		if (!silent && stripe_rx_link_silent(m, link) &&
		    !stripe_feedback_vouches(link, now)) {
			WRITE_ONCE(link->rx_silent, true);
			stripe_link_state_changed(m);
			silent = true;
		}
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

	if (READ_ONCE(m->cfg.reorder) == STRIPE_REORDER_ON)
		next = stripe_marker_run(m, gseq, ktime_get_ns());
	if (next == STRIPE_MARKER_PROBE)
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
