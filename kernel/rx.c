// SPDX-License-Identifier: GPL-2.0
/*
 * stripe: the receive side of "reorder on" -- put each flow back in order.
 *
 * Frames carry a stripe header (include/uapi/linux/stripe.h).  Per sender
 * the receiver keeps, for each flow bucket, the next flow sequence number it
 * expects and the frames that arrived ahead of it, sorted.  A frame that is
 * next goes up at once; one that is early is held.  A gap ahead of the held
 * frames ends in one of three ways:
 *
 * - the missing frame arrives;
 * - it is certainly lost: each link is FIFO, so once every live link has
 *   delivered a frame sent after the first held one (gseq), nothing sent
 *   before it is still on the way -- the rule of multilink PPP (minseq).
 *   A link that has been silent for four hold bounds leaves the rule, so an
 *   idle link cannot freeze it (a busy but slow link must not leave it:
 *   the frame it carries would be declared lost and then come late);
 * - the hold bound (hold-max) expires, or the flow or buffer limit is hit.
 *
 * Everything here comes from the wire: a frame is checked before it is
 * believed, memory is bounded (flow-limit, buffer-limit, STRIPE_RX_SENDERS
 * senders), and every drop is counted.
 *
 * Locking: rx->lock (BH) protects all receive state.  Frames go up through
 * one NAPI context per master, fed in order under the lock: GRO works on
 * the restored order, and no per-CPU queue can undo it (gro_cells would:
 * two CPUs releasing frames of one flow into their own cells).
 */
#include <linux/etherdevice.h>
#include <linux/ip.h>
#include <linux/ipv6.h>

#include "stripe.h"

struct stripe_rx_cb {
	u32 gseq;
	u32 fseq;
	u64 arrived;	/* ns */
};

static struct stripe_rx_cb *stripe_cb(struct sk_buff *skb)
{
	BUILD_BUG_ON(sizeof(struct stripe_rx_cb) > sizeof_field(struct sk_buff, cb));
	return (struct stripe_rx_cb *)skb->cb;
}

static bool seq_before(u32 a, u32 b)
{
	return (s32)(a - b) < 0;
}

static u32 stripe_hold_ns(const struct stripe_master *m)
{
	return READ_ONCE(m->cfg.hold_max_us) * NSEC_PER_USEC;
}

/* Called under rx->lock, in the order the flows must see. */
static void stripe_rx_up(struct stripe_master *m, struct sk_buff *skb)
{
	struct stripe_rx *rx = &m->rx;

	if (unlikely(skb_queue_len(&rx->up) >= READ_ONCE(m->cfg.buffer_limit))) {
		rx->lost_limit++;
		kfree_skb(skb);
		return;
	}
	__skb_queue_tail(&rx->up, skb);
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

/* Hand the head of a bucket up and advance past it. */
static void stripe_rx_release_head(struct stripe_master *m,
				   struct stripe_rx_flow *f, u64 now)
{
	struct stripe_rx *rx = &m->rx;
	struct sk_buff *skb = __skb_dequeue(&f->held);
	u64 held_us = div_u64(now - stripe_cb(skb)->arrived, NSEC_PER_USEC);

	f->next = stripe_cb(skb)->fseq + 1;
	rx->held--;
	rx->held_bytes -= skb->len;
	rx->resequenced++;
	if (held_us > rx->hold_max_us)
		rx->hold_max_us = held_us;
	stripe_rx_up(m, skb);
}

/* May the gap before a frame sent as @gseq be declared lost? */
static bool stripe_rx_gap_lost(const struct stripe_master *m,
			       const struct stripe_rx_sender *s, u32 gseq,
			       u64 now)
{
	u64 silent = 4ULL * stripe_hold_ns(m);
	u32 i;

	for (i = 0; i < STRIPE_MAX_LINKS; i++) {
		if (!s->link_seen[i] || now - s->link_seen[i] > silent)
			continue;	/* idle or gone: out of the rule */
		if (seq_before(s->newest[i], gseq))
			return false;
	}
	return true;
}

/* Deliver what can go from one bucket. */
static void stripe_rx_drain(struct stripe_master *m,
			    struct stripe_rx_sender *s,
			    struct stripe_rx_flow *f, u64 now)
{
	struct stripe_rx *rx = &m->rx;
	struct sk_buff *head;

	while ((head = skb_peek(&f->held))) {
		struct stripe_rx_cb *cb = stripe_cb(head);

		if (cb->fseq != f->next) {
			if (stripe_rx_gap_lost(m, s, cb->gseq, now))
				rx->lost_link++;
			else if (now - cb->arrived >= stripe_hold_ns(m))
				rx->lost_timeout++;
			else
				break;
		}
		stripe_rx_release_head(m, f, now);
	}
}

static void stripe_rx_drain_sender(struct stripe_master *m,
				   struct stripe_rx_sender *s, u64 now)
{
	unsigned int b;

	for_each_set_bit(b, s->pending, STRIPE_FLOW_BUCKETS) {
		stripe_rx_drain(m, s, &s->flows[b], now);
		if (skb_queue_empty(&s->flows[b].held))
			__clear_bit(b, s->pending);
	}
}

static void stripe_rx_arm(struct stripe_master *m)
{
	if (!hrtimer_active(&m->rx.timer))
		hrtimer_start(&m->rx.timer,
			      ns_to_ktime(max_t(u32, stripe_hold_ns(m) / 4,
						50 * NSEC_PER_USEC)),
			      HRTIMER_MODE_REL_SOFT);
}

static enum hrtimer_restart stripe_rx_timer(struct hrtimer *t)
{
	struct stripe_master *m = container_of(t, struct stripe_master,
					       rx.timer);
	struct stripe_rx *rx = &m->rx;
	bool pending = false;
	u64 now;
	int i;

	spin_lock(&rx->lock);
	now = ktime_get_ns();	/* under the lock: never before a stamp */
	for (i = 0; i < STRIPE_RX_SENDERS; i++) {
		struct stripe_rx_sender *s = rx->senders[i];

		if (!s)
			continue;
		stripe_rx_drain_sender(m, s, now);
		if (!bitmap_empty(s->pending, STRIPE_FLOW_BUCKETS))
			pending = true;
	}
	spin_unlock(&rx->lock);
	if (!pending)
		return HRTIMER_NORESTART;
	hrtimer_forward_now(t, ns_to_ktime(max_t(u32, stripe_hold_ns(m) / 4,
						 50 * NSEC_PER_USEC)));
	return HRTIMER_RESTART;
}

static void stripe_rx_sender_free(struct stripe_rx *rx,
				  struct stripe_rx_sender *s)
{
	struct sk_buff *skb;
	int b;

	for (b = 0; b < STRIPE_FLOW_BUCKETS; b++) {
		while ((skb = __skb_dequeue(&s->flows[b].held))) {
			rx->held--;
			rx->held_bytes -= skb->len;
			kfree_skb(skb);
		}
	}
	kfree(s);
}

/* The state of sender @id, made if new.  A full table takes back the slot
 * of a sender idle for STRIPE_RX_IDLE_NS (a peer that restarted has a new
 * id), so memory stays bounded whatever ids arrive.
 */
static struct stripe_rx_sender *stripe_rx_sender(struct stripe_rx *rx, u32 id,
						 u64 now)
{
	struct stripe_rx_sender *s;
	int i, free = -1;

	for (i = 0; i < STRIPE_RX_SENDERS; i++) {
		s = rx->senders[i];
		if (s && s->id == id)
			return s;
		if (!s && free < 0)
			free = i;
	}
	for (i = 0; free < 0 && i < STRIPE_RX_SENDERS; i++) {
		s = rx->senders[i];
		if (now - s->last_seen > STRIPE_RX_IDLE_NS) {
			stripe_rx_sender_free(rx, s);
			rx->senders[i] = NULL;
			free = i;
		}
	}
	if (free < 0)
		return NULL;
	s = kzalloc(sizeof(*s), GFP_ATOMIC);
	if (!s)
		return NULL;
	s->id = id;
	for (i = 0; i < STRIPE_FLOW_BUCKETS; i++)
		__skb_queue_head_init(&s->flows[i].held);
	rx->senders[free] = s;
	return s;
}

/* Insert in fseq order; false if it is a duplicate. */
static bool stripe_rx_hold(struct stripe_rx_flow *f, struct sk_buff *skb)
{
	u32 fseq = stripe_cb(skb)->fseq;
	struct sk_buff *p;

	skb_queue_reverse_walk(&f->held, p) {
		if (stripe_cb(p)->fseq == fseq)
			return false;
		if (seq_before(stripe_cb(p)->fseq, fseq)) {
			__skb_queue_after(&f->held, p, skb);
			return true;
		}
	}
	__skb_queue_head(&f->held, skb);
	return true;
}

/* A frame with the stripe header arrived on @link; consumes @skb. */
void stripe_rx_frame(struct stripe_master *m, struct stripe_link *link,
		     struct sk_buff *skb)
{
	struct stripe_rx *rx = &m->rx;
	const struct stripe_wire_hdr *h;
	struct stripe_rx_sender *s;
	struct stripe_rx_flow *f;
	struct stripe_rx_cb *cb;
	u16 flow;
	u64 now;
	__be16 proto;

	if (!pskb_may_pull(skb, sizeof(*h)))
		goto malformed;
	h = (const struct stripe_wire_hdr *)skb->data;
	proto = h->proto;
	flow = ntohs(h->flow);
	if (h->version != STRIPE_WIRE_VERSION || flow >= STRIPE_FLOW_BUCKETS ||
	    (proto != htons(ETH_P_IP) && proto != htons(ETH_P_IPV6)))
		goto malformed;
	cb = stripe_cb(skb);
	cb->gseq = ntohl(h->gseq);
	cb->fseq = ntohl(h->fseq);

	spin_lock(&rx->lock);
	/* Stamped under the lock, so time never runs backwards between the
	 * frames and links this state compares.
	 */
	now = ktime_get_ns();
	cb->arrived = now;
	s = stripe_rx_sender(rx, ntohl(h->sender), now);
	if (!s) {
		rx->no_state++;
		spin_unlock(&rx->lock);
		kfree_skb(skb);
		return;
	}
	if (!s->link_seen[link->id] || seq_before(s->newest[link->id], cb->gseq))
		s->newest[link->id] = cb->gseq;
	s->link_seen[link->id] = now;
	s->last_seen = now;

	/* From here on it is a packet of the master. */
	skb_pull(skb, sizeof(*h));
	skb->protocol = proto;
	skb_reset_network_header(skb);
	skb->dev = m->dev;

	f = &s->flows[flow];
	if (!f->synced) {
		f->synced = true;
		f->next = cb->fseq;
	}
	if (cb->fseq == f->next) {
		f->next++;
		rx->in_order++;
		stripe_rx_up(m, skb);
	} else if (seq_before(cb->fseq, f->next)) {
		rx->late++;
		kfree_skb(skb);
	} else if (!stripe_rx_hold(f, skb)) {
		rx->late++;
		kfree_skb(skb);
	} else {
		rx->held++;
		rx->held_bytes += skb->len;
		__set_bit(flow, s->pending);
		/* Bounded memory: past a limit the gap is given up on. */
		while (skb_queue_len(&f->held) > READ_ONCE(m->cfg.flow_limit) ||
		       rx->held > READ_ONCE(m->cfg.buffer_limit)) {
			rx->lost_limit++;
			stripe_rx_release_head(m, f, now);
			stripe_rx_drain(m, s, f, now);
		}
	}
	stripe_rx_drain_sender(m, s, now);
	if (!bitmap_empty(s->pending, STRIPE_FLOW_BUCKETS))
		stripe_rx_arm(m);
	spin_unlock(&rx->lock);
	return;

malformed:
	spin_lock(&rx->lock);
	rx->malformed++;
	spin_unlock(&rx->lock);
	kfree_skb(skb);
}

int stripe_rx_init(struct stripe_master *m)
{
	struct stripe_rx *rx = &m->rx;

	spin_lock_init(&rx->lock);
	hrtimer_init(&rx->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_SOFT);
	rx->timer.function = stripe_rx_timer;
	__skb_queue_head_init(&rx->up);
	netif_napi_add(m->dev, &rx->napi, stripe_rx_poll);
	napi_enable(&rx->napi);
	return 0;
}

/* The master is going away: no frame can arrive any more (its links have
 * left), so free what is held.
 */
void stripe_rx_destroy(struct stripe_master *m)
{
	struct stripe_rx *rx = &m->rx;
	int i;

	hrtimer_cancel(&rx->timer);
	for (i = 0; i < STRIPE_RX_SENDERS; i++) {
		if (rx->senders[i])
			stripe_rx_sender_free(rx, rx->senders[i]);
		rx->senders[i] = NULL;
	}
	rx->held = 0;
	rx->held_bytes = 0;
	napi_disable(&rx->napi);
	netif_napi_del(&rx->napi);
	__skb_queue_purge(&rx->up);
}
