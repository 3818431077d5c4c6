// SPDX-License-Identifier: GPL-2.0
/*
 * stripe: the receive side of "reorder on" around the resequencer.
 *
 * Frames with the stripe header arrive on the links (link.c steers them
 * here).  The header is checked, the frame handed to the resequencer
 * (reseq.c, which decides the order), and what it releases goes up the
 * stack on the master.  A timer releases frames whose gap the rules of
 * reseq.c resolve with time (hold bound, silent links).
 *
 * Locking: rx->lock (BH) protects the resequencer.  Frames go up through
 * one NAPI context per master, fed in order under the lock: GRO works on
 * the restored order, and no per-CPU queue can undo it (gro_cells would:
 * two CPUs releasing frames of one flow into their own cells).
 */
#include <linux/etherdevice.h>

#include "stripe.h"

static_assert(STRIPE_RX_LINKS == STRIPE_MAX_LINKS);

/* The hold bound in force: hold-max, plus with hold-auto on what the
 * receiver measured: twice the largest skew (links far slower than
 * hold-max still get their frames put in order) and the longest wait a
 * frame that came after its gap was given up would have needed (stalls,
 * links that are not strictly FIFO); at most a second.
 */
u64 stripe_hold_ns(const struct stripe_master *m)
{
	u64 hold = (u64)READ_ONCE(m->cfg.hold_max_us) * NSEC_PER_USEC;

	if (READ_ONCE(m->cfg.hold_auto))
		hold += 2 * READ_ONCE(m->rx.skew_ns) +
			READ_ONCE(m->rx.late_ns);
	return min_t(u64, hold, (u64)STRIPE_HOLD_MAX_US_MAX * NSEC_PER_USEC);
}

/* A link that delivers nothing for a hold bound while its sender is active
 * leaves the loss rule: the sender marks idle links far more often (marker.c),
 * so it is dead or cut.  No shorter: a stalled CPU can delay one link's
 * frames by tens of milliseconds, and each link would then be declared
 * dead and its frames lost.
 */
static void stripe_rx_cfg(const struct stripe_master *m,
			  struct stripe_reseq_cfg *cfg)
{
	cfg->hold_ns = stripe_hold_ns(m);
	cfg->silent_ns = cfg->hold_ns;
	cfg->flow_limit = READ_ONCE(m->cfg.flow_limit);
	cfg->buffer_limit = READ_ONCE(m->cfg.buffer_limit);
	cfg->memory_limit = READ_ONCE(m->cfg.memory_limit);
}

/* Under rx->lock: the largest skew and late wait, for hold-auto.  Updated
 * while frames are held (the timer), when the bound matters, and when it
 * is shown.
 */
void stripe_rx_update_skew(struct stripe_master *m)
{
	WRITE_ONCE(m->rx.skew_ns,
		   (u64)stripe_reseq_max_skew(&m->rx.reseq) * NSEC_PER_USEC);
	WRITE_ONCE(m->rx.late_ns,
		   stripe_reseq_max_late(&m->rx.reseq, ktime_get_ns()));
}

/* A frame of ours that does not parse: counted per CPU, no lock taken */
void stripe_rx_count_malformed(struct stripe_master *m)
{
	struct stripe_master_stats *ms = this_cpu_ptr(m->stats);

	u64_stats_update_begin(&ms->syncp);
	u64_stats_inc(&ms->rx_malformed);
	u64_stats_update_end(&ms->syncp);
}

/* Under rx->lock: move what the resequencer released to the NAPI queue,
 * in order.  The queue is bounded too, by the same limits as what is held:
 * NAPI may be slower than the links.  (Not by what is held and queued
 * together: frames in order would then be dropped while gaps are held.)
 */
static void stripe_rx_up(struct stripe_master *m)
{
	struct stripe_rx *rx = &m->rx;
	u32 limit = READ_ONCE(m->cfg.buffer_limit);
	u64 mem = READ_ONCE(m->cfg.memory_limit);
	struct sk_buff *skb;

	if (skb_queue_empty(&rx->reseq.out))
		return;
	while ((skb = __skb_dequeue(&rx->reseq.out))) {
		skb->dev = m->dev;	/* a held frame's rbnode overlaid it */
		/* (an empty queue takes any frame, however large) */
		if (unlikely(skb_queue_len(&rx->up) >= limit ||
			     (rx->up_mem + skb->truesize > mem &&
			      !skb_queue_empty(&rx->up)))) {
			rx->reseq.stats.lost_limit++;
			kfree_skb(skb);
			continue;
		}
		rx->up_mem += skb->truesize;
		__skb_queue_tail(&rx->up, skb);
	}
	napi_schedule(&rx->napi);
}

static int stripe_rx_poll(struct napi_struct *napi, int budget)
{
	struct stripe_master *m = container_of(napi, struct stripe_master,
					       rx.napi);
	struct stripe_rx *rx = &m->rx;
	struct sk_buff_head batch;
	struct sk_buff *skb;
	int done = 0;

	__skb_queue_head_init(&batch);
	spin_lock_bh(&rx->lock);
	while (done < budget && (skb = __skb_dequeue(&rx->up))) {
		rx->up_mem -= skb->truesize;
		__skb_queue_tail(&batch, skb);
		done++;
	}
	spin_unlock_bh(&rx->lock);
	while ((skb = __skb_dequeue(&batch)))
		napi_gro_receive(napi, skb);
	if (done < budget)
		napi_complete_done(napi, done);
	return done;
}

static u64 stripe_rx_period_ns(const struct stripe_master *m)
{
	return max_t(u64, stripe_hold_ns(m) / 4, 50 * NSEC_PER_USEC);
}

/* Under rx->lock, so that the timer and the frames agree on whether it
 * is queued; it restarts itself the same way instead of returning
 * HRTIMER_RESTART (a frame may have queued it meanwhile).
 */
static void stripe_rx_arm(struct stripe_master *m)
{
	struct stripe_rx *rx = &m->rx;

	if (rx->reseq.held && !hrtimer_is_queued(&rx->timer))
		hrtimer_start(&rx->timer, ns_to_ktime(stripe_rx_period_ns(m)),
			      HRTIMER_MODE_REL_SOFT);
}

static enum hrtimer_restart stripe_rx_timer(struct hrtimer *t)
{
	struct stripe_master *m = container_of(t, struct stripe_master,
					       rx.timer);
	struct stripe_rx *rx = &m->rx;
	struct stripe_reseq_cfg cfg;

	stripe_rx_cfg(m, &cfg);
	spin_lock(&rx->lock);
	/* Time read under the lock: never before a stamp it is compared to */
	stripe_reseq_tick(&rx->reseq, &cfg, ktime_get_ns());
	stripe_rx_update_skew(m);
	stripe_rx_up(m);
	stripe_rx_arm(m);
	spin_unlock(&rx->lock);
	return HRTIMER_NORESTART;
}

/* A frame with the stripe header arrived on @link; consumes @skb. */
void stripe_rx_frame(struct stripe_master *m, struct stripe_link *link,
		     struct sk_buff *skb)
{
	const unsigned int hlen = sizeof(struct stripe_wire_hdr);
	struct stripe_rx *rx = &m->rx;
	struct stripe_reseq_cfg cfg;
	struct stripe_reseq_now now;
	enum stripe_fb_source from;
	struct stripe_wire_info wi;
	const u8 *src;
	u32 real_us;
	bool ok;

	if (!pskb_may_pull(skb, hlen) ||
	    stripe_wire_parse(skb->data, skb_headlen(skb), &wi)) {
		stripe_rx_count_malformed(m);
		kfree_skb(skb);
		return;
	}
	src = skb_mac_header_was_set(skb) &&
	      skb_mac_header_len(skb) >= ETH_HLEN &&
	      link->dev->addr_len == ETH_ALEN ? eth_hdr(skb)->h_source : NULL;
	if (wi.flags & STRIPE_WIRE_F_FEEDBACK) {
		spin_lock(&rx->lock);
		from = stripe_reseq_fb_source(&rx->reseq, wi.sender, link->id,
					      src);
		spin_unlock(&rx->lock);
		if (from != STRIPE_FB_SRC_WRONG)
			stripe_feedback_rx(m, link, skb, &wi,
					   from == STRIPE_FB_SRC_BOUND);
		else
			kfree_skb(skb);
		return;
	}
	/* GRO (stripe_rx_poll) rewrites a frame's shared info, so the frame
	 * must own it.  A clone shares it: over a veth without NAPI the frame
	 * is a clone of the sending TCP socket's own skb (GRO would empty the
	 * fragments of the sender's retransmit queue), and a packet tap on the
	 * link makes any frame shared.  veth unclones before GRO too.
	 */
	if (unlikely(skb_unclone(skb, GFP_ATOMIC))) {
		dev_core_stats_rx_dropped_inc(m->dev);
		kfree_skb(skb);
		return;
	}
	real_us = (u32)div_u64(ktime_get_real_ns(), NSEC_PER_USEC);
	now.owd_us = (s32)(real_us - wi.tstamp);
	now.src = src;
	now.group = skb->pkt_type == PACKET_BROADCAST ||
		    skb->pkt_type == PACKET_MULTICAST;

	/* From here on it is a packet of the master: the link's checksum
	 * (CHECKSUM_COMPLETE) must no longer cover the header, and the link's
	 * hash is of the outer frame, not of the flow inside.
	 */
	skb_pull_rcsum(skb, hlen);
	skb->protocol = wi.proto;
	skb_reset_network_header(skb);
	skb_clear_hash(skb);
	skb->dev = m->dev;

	stripe_rx_cfg(m, &cfg);
	spin_lock(&rx->lock);
	/* Stamped under the lock, so time never runs backwards between the
	 * frames and links the resequencer compares.
	 */
	now.ns = ktime_get_ns();
	this_cpu_write(*rx->cpu_at, now.ns);
	ok = stripe_reseq_frame(&rx->reseq, &cfg, link->id, &wi, skb, &now);
	stripe_rx_up(m);
	stripe_rx_arm(m);
	if (unlikely(stripe_reseq_pool_low(&rx->reseq)))
		schedule_work(&rx->pool_work);
	spin_unlock(&rx->lock);
	if (!ok)
		return;
	/* Heard again: only a frame of a known sender, from its address,
	 * taken by the resequencer says so
	 */
	if (unlikely(READ_ONCE(link->rx_silent))) {
		WRITE_ONCE(link->rx_silent, false);
		stripe_link_state_changed(m);
	}
	stripe_feedback_arm(m);
}

/* Did the master @id send us data in the last second?  (feedback.c) */
bool stripe_rx_sends_data(struct stripe_master *m, u32 id, u64 now)
{
	struct stripe_rx *rx = &m->rx;
	bool sends;

	spin_lock_bh(&rx->lock);
	sends = stripe_reseq_sends_data(&rx->reseq, id, now, NSEC_PER_SEC);
	spin_unlock_bh(&rx->lock);
	return sends;
}

/* A CPU that took no frame of ours for this long is idle, not behind */
#define STRIPE_RX_CPU_IDLE_NS	(STRIPE_FEEDBACK_LOST_MS * NSEC_PER_MSEC)

/* The time up to which every CPU has taken the frames that came for us.
 * A link's frames wait on the CPU they arrived on (RSS, or a veth's
 * sender): one held off (its softirqs left to ksoftirqd on a busy
 * receiver, or a vCPU the host does not run) leaves them there while the
 * other CPUs go on, and the link would look silent though it delivers.
 * So a CPU that took a frame in the last STRIPE_RX_CPU_IDLE_NS holds the
 * time back to that frame.  One quiet for longer is idle: were it behind,
 * it would be a stall longer than a lost link's silence.  It does not
 * hold the time back, and so a link that died alone on its CPU is found
 * as soon as before.
 */
u64 stripe_rx_caught_up(struct stripe_master *m, u64 now)
{
	u64 at, caught_up = now;
	int cpu;

	/* (a CPU whose frame is newer than @now took it since: no limit) */
	for_each_online_cpu(cpu) {
		at = READ_ONCE(*per_cpu_ptr(m->rx.cpu_at, cpu));
		if (at && now - at < STRIPE_RX_CPU_IDLE_NS)
			caught_up = min(caught_up, at);
	}
	return caught_up;
}

/* Does the peer's traffic no longer arrive on @link?  (marker.c) */
bool stripe_rx_link_silent(struct stripe_master *m, struct stripe_link *link,
			   u64 caught_up)
{
	struct stripe_rx *rx = &m->rx;
	struct stripe_reseq_cfg cfg;
	bool silent;

	stripe_rx_cfg(m, &cfg);
	spin_lock_bh(&rx->lock);
	silent = stripe_reseq_link_silent(&rx->reseq, &cfg, link->id,
					  ktime_get_ns(), caught_up);
	spin_unlock_bh(&rx->lock);
	return silent;
}

/* States for new senders, allocated here where we may sleep: a sender
 * that has none waits for this (its frames go up unordered meanwhile).
 */
static void stripe_rx_pool_fill(struct stripe_rx *rx)
{
	struct stripe_rx_sender *s;
	bool full, kept;

	for (;;) {
		spin_lock_bh(&rx->lock);
		full = rx->reseq.pool_n >= STRIPE_RX_POOL;
		spin_unlock_bh(&rx->lock);
		if (full)
			return;
		s = kvzalloc(sizeof(*s), GFP_KERNEL_ACCOUNT);
		if (!s)
			return;
		spin_lock_bh(&rx->lock);
		kept = stripe_reseq_pool_put(&rx->reseq, s);
		spin_unlock_bh(&rx->lock);
		if (!kept) {
			kvfree(s);
			return;
		}
	}
}

static void stripe_rx_pool_work(struct work_struct *work)
{
	stripe_rx_pool_fill(container_of(work, struct stripe_rx, pool_work));
}

void stripe_rx_init(struct stripe_master *m)
{
	struct stripe_rx *rx = &m->rx;

	spin_lock_init(&rx->lock);
	stripe_reseq_init(&rx->reseq);
	INIT_WORK(&rx->pool_work, stripe_rx_pool_work);
	stripe_rx_pool_fill(rx);
	hrtimer_init(&rx->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_SOFT);
	rx->timer.function = stripe_rx_timer;
	__skb_queue_head_init(&rx->up);
	netif_napi_add(m->dev, &rx->napi, stripe_rx_poll);
	napi_enable(&rx->napi);
}

/* The master is going away: no frame can arrive any more (its links have
 * left), so free what is held.
 */
void stripe_rx_destroy(struct stripe_master *m)
{
	struct stripe_rx *rx = &m->rx;

	hrtimer_cancel(&rx->timer);
	cancel_work_sync(&rx->pool_work);
	stripe_reseq_destroy(&rx->reseq);
	napi_disable(&rx->napi);
	netif_napi_del(&rx->napi);
	__skb_queue_purge(&rx->up);
}
