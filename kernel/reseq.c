// SPDX-License-Identifier: GPL-2.0
/*
 * stripe: the resequencer (see reseq.h) -- put each flow back in order.
 *
 * Per sender the receiver keeps, for each flow bucket, the next flow
 * sequence number (fseq) it expects and the frames that arrived ahead of
 * it, sorted.  A frame that is next goes up at once; one that is early is
 * held.  A gap ahead of the held frames ends in one of three ways:
 *
 * - the missing frame arrives;
 * - it is certainly lost.  Each link is FIFO and the sender numbers every
 *   frame it sends (gseq), so once every live link has delivered a frame
 *   sent after the first held one, nothing sent before it is still on the
 *   way -- the rule of multilink PPP (minseq).  Idle links do not freeze
 *   the rule: the sender sends markers on them (marker.c).  A link that
 *   delivers nothing for silent_ns while its sender is active leaves the
 *   rule (it died, or its markers are lost); a pause of the whole sender
 *   does not count as silence, or after every pause the slow links would
 *   leave the rule and their frames be declared lost.  A link that kept
 *   a gap open until the hold bound is out of the rule too, until it
 *   delivers again (see stripe_reseq_mark_stale());
 * - the hold bound (hold_ns) expires, or the flow or buffer limit is hit.
 *
 * Everything here comes from the wire: a header is checked before it is
 * believed, a marker never creates state, and every drop is counted.
 */
#include <asm/unaligned.h>
#include <linux/if_ether.h>
#include <linux/random.h>
#include <linux/slab.h>

#include "reseq.h"

#define STRIPE_RX_FSEQ_WINDOW	BIT(30)	/* frames a flow may run ahead */

static struct stripe_rx_cb *stripe_cb(struct sk_buff *skb)
{
	BUILD_BUG_ON(sizeof(struct stripe_rx_cb) > sizeof_field(struct sk_buff, cb));
	return (struct stripe_rx_cb *)skb->cb;
}

static bool seq_before(u32 a, u32 b)
{
	return (s32)(a - b) < 0;
}

/* A flow's held frames (f->held): every one within STRIPE_RX_FSEQ_WINDOW
 * of f->next (stripe_reseq_data_ok()), where seq_before() is a total
 * order, so the tree stays sorted as f->next moves.
 */
static struct sk_buff *stripe_held_head(const struct stripe_rx_flow *f)
{
	return rb_to_skb(rb_first_cached(&f->held));
}

static struct sk_buff *stripe_held_tail(const struct stripe_rx_flow *f)
{
	return rb_to_skb(rb_last(&f->held.rb_root));
}

static struct sk_buff *stripe_held_pop(struct stripe_rx_flow *f)
{
	struct sk_buff *skb = stripe_held_head(f);

	if (skb) {
		rb_erase_cached(&skb->rbnode, &f->held);
		f->nheld--;
		skb->dev = NULL;	/* the node overlaid it (rx.c) */
	}
	return skb;
}

static bool stripe_held_has(const struct stripe_rx_flow *f, u32 fseq)
{
	const struct rb_node *n = f->held.rb_root.rb_node;

	while (n) {
		u32 at = stripe_cb(rb_to_skb(n))->fseq;

		if (at == fseq)
			return true;
		n = seq_before(fseq, at) ? n->rb_left : n->rb_right;
	}
	return false;
}

/* Place @skb, not held yet (stripe_held_has()), in fseq order */
static void stripe_held_add(struct stripe_rx_flow *f, struct sk_buff *skb)
{
	struct rb_node **p = &f->held.rb_root.rb_node, *parent = NULL;
	u32 fseq = stripe_cb(skb)->fseq;
	bool leftmost = true;

	while (*p) {
		parent = *p;
		if (seq_before(fseq, stripe_cb(rb_to_skb(parent))->fseq)) {
			p = &parent->rb_left;
		} else {
			p = &parent->rb_right;
			leftmost = false;
		}
	}
	rb_link_node(&skb->rbnode, parent, p);
	rb_insert_color_cached(&skb->rbnode, &f->held, leftmost);
	f->nheld++;
}

/* Check a header; 0 if it may be believed. */
int stripe_wire_parse(const void *data, unsigned int len,
		      struct stripe_wire_info *wi)
{
	const struct stripe_wire_hdr *h = data;

	if (len < sizeof(*h) || h->version != STRIPE_WIRE_VERSION)
		return -EINVAL;
	wi->flags = h->flags;
	wi->proto = h->proto;
	wi->sender = get_unaligned_be32(&h->sender);
	wi->flow = get_unaligned_be16(&h->flow);
	wi->link = h->link;
	wi->lseq = h->lseq;
	wi->gseq = get_unaligned_be32(&h->gseq);
	wi->fseq = get_unaligned_be32(&h->fseq);
	wi->tstamp = get_unaligned_be32(&h->tstamp);
	if ((wi->flags & STRIPE_WIRE_F_MARKER) &&
	    (wi->flags & STRIPE_WIRE_F_FEEDBACK))
		return -EINVAL;
	if (wi->flags & STRIPE_WIRE_F_FEEDBACK)
		return wi->proto || wi->flow || wi->link || wi->gseq ||
		       wi->fseq ? -EINVAL : 0;
	if (wi->link >= STRIPE_WIRE_LINKS)
		return -EINVAL;
	if (wi->flags & STRIPE_WIRE_F_MARKER)
		return wi->proto || wi->flow || wi->fseq ? -EINVAL : 0;
	if (wi->flow >= STRIPE_FLOW_BUCKETS ||
	    (wi->proto != htons(ETH_P_IP) && wi->proto != htons(ETH_P_IPV6)))
		return -EINVAL;
	return 0;
}

/* Check the body of a feedback frame (@data: what follows the header):
 * the number of reports, or -EINVAL; @peer, the id it is about.  Nothing
 * else is read: the caller takes the reports with
 * stripe_wire_read_feedback() once it knows it wants them.
 */
int stripe_wire_check_feedback(const void *data, unsigned int len, u32 *peer)
{
	const struct stripe_wire_feedback *fb = data;
	const struct stripe_wire_link_report *w;
	unsigned int i;

	if (len < sizeof(*fb) || fb->n > STRIPE_WIRE_LINKS ||
	    len < sizeof(*fb) + fb->n * sizeof(*w))
		return -EINVAL;
	w = (const void *)(fb + 1);
	for (i = 0; i < fb->n; i++, w++)
		if (w->link >= STRIPE_WIRE_LINKS ||
		    w->state < STRIPE_WIRE_LINK_DELIVERING ||
		    w->state > STRIPE_WIRE_LINK_UNKNOWN)
			return -EINVAL;
	*peer = get_unaligned_be32(&fb->peer);
	return fb->n;
}

/* The reports of a body stripe_wire_check_feedback() passed, in host
 * order, into @report (room for STRIPE_WIRE_LINKS); their number.
 */
unsigned int stripe_wire_read_feedback(const void *data,
				       struct stripe_link_report *report)
{
	const struct stripe_wire_feedback *fb = data;
	const struct stripe_wire_link_report *w = (const void *)(fb + 1);
	unsigned int i;

	for (i = 0; i < fb->n; i++, w++) {
		report[i].link = w->link;
		report[i].state = w->state;
		report[i].age_ms = get_unaligned_be16(&w->age_ms);
		report[i].frames = get_unaligned_be32(&w->frames);
		report[i].bytes = get_unaligned_be32(&w->bytes);
		report[i].queue_us = get_unaligned_be32(&w->queue_us);
		report[i].lost = get_unaligned_be32(&w->lost);
	}
	return fb->n;
}

/* Both: the number of reports read into @report, or -EINVAL */
int stripe_wire_parse_feedback(const void *data, unsigned int len, u32 *peer,
			       struct stripe_link_report *report)
{
	int n = stripe_wire_check_feedback(data, len, peer);

	if (n >= 0)
		stripe_wire_read_feedback(data, report);
	return n;
}

static unsigned int stripe_hist_bucket(u64 us)
{
	unsigned int k;

	for (k = 0; k < STRIPE_HOLD_HIST_BUCKETS - 1; k++)
		if (us < STRIPE_HOLD_HIST_BOUND_US(k))
			break;
	return k;
}

/* Hand the head of a bucket up and advance past it, over a gap if any
 * (@by_link: the link rule gave the gap up).
 */
static void stripe_reseq_release(struct stripe_reseq *r,
				 struct stripe_rx_flow *f, bool by_link,
				 bool behind_out, u64 now)
{
	struct sk_buff *skb = stripe_held_pop(f);
	u64 held_us = div_u64(now - stripe_cb(skb)->arrived, 1000);

	if (stripe_cb(skb)->fseq != f->next) {
		f->skip_from = f->next;
		f->skip_len = stripe_cb(skb)->fseq - f->next;
		f->skip_arrived = stripe_cb(skb)->arrived;
		f->skip_by_link = by_link;
		f->skip_behind_out = behind_out;
	}
	f->next = stripe_cb(skb)->fseq + 1;
	f->fresh = false;
	r->held--;
	r->held_bytes -= skb->len;
	r->held_mem -= skb->truesize;
	r->stats.resequenced++;
	r->stats.hold_hist[stripe_hist_bucket(held_us)]++;
	if (held_us > r->stats.hold_max_us)
		r->stats.hold_max_us = held_us;
	__skb_queue_tail(&r->out, skb);
}

/* The sender's last frame, or @caught_up if that is earlier: the time up
 * to which every CPU took the frames that came for us (stripe_rx_caught_up()
 * in rx.c).  A link's silence counts no further: what it delivered since
 * may still wait on a CPU that was held off.
 */
static u64 stripe_reseq_heard_to(const struct stripe_rx_sender *s,
				 u64 caught_up)
{
	return min(s->last_seen, caught_up);
}

/* How long @link has been silent while its sender was heard on others:
 * measured up to the sender's last frame (at most @to), not to now, so
 * that the link that carried a burst's last frame is not called silent
 * once the burst is over; and from the end of the sender's last pause at
 * the earliest.
 */
static u64 stripe_reseq_silent_for(const struct stripe_rx_sender *s,
				   unsigned int link, u64 to)
{
	u64 since = max(s->link_seen[link], s->active_since);

	return to > since ? to - since : 0;
}

/* The longest wait a late frame needed lately (STRIPE_RX_LATE_WINDOW_NS) */
static u64 stripe_reseq_late_need(const struct stripe_rx_sender *s, u64 now)
{
	u64 age = now - s->late_window;
	u64 need = 0;

	if (age <= STRIPE_RX_LATE_WINDOW_NS)
		need = max(s->late_need, s->late_need_last);
	else if (age <= 2 * STRIPE_RX_LATE_WINDOW_NS)
		need = s->late_need;
	if (now - s->late_out_at <= STRIPE_RX_LATE_OUT_NS)
		need = max(need, s->late_out_need);
	return need;
}

/* How long a gap waits, at least, before the link rule may call it lost:
 * the longest wait a late frame needed lately, and a quarter more.  Zero
 * while the links keep their order.
 */
static u64 stripe_reseq_late_ns(const struct stripe_rx_sender *s, u64 now)
{
	u64 need = stripe_reseq_late_need(s, now);

	return need + need / 4;
}

/* A frame of a gap given up on arrived at @now: it needed that wait. */
static void stripe_reseq_note_late(struct stripe_rx_sender *s,
				   const struct stripe_rx_flow *f, u64 now)
{
	u64 need = now - f->skip_arrived;

	if (need > STRIPE_RX_LATE_MAX_NS)
		return;
	if (f->skip_behind_out) {
		if (now - s->late_out_at > STRIPE_RX_LATE_OUT_NS)
			s->late_out_need = 0;
		s->late_out_need = max(s->late_out_need, need);
		s->late_out_at = now;
		return;
	}
	if (now - s->late_window > STRIPE_RX_LATE_WINDOW_NS) {
		s->late_need_last = now - s->late_window >
				    2 * STRIPE_RX_LATE_WINDOW_NS ?
				    0 : s->late_need;
		s->late_need = 0;
		s->late_window = now;
	}
	if (need > s->late_need)
		s->late_need = need;
}

/* May the gap before a frame sent as @gseq be declared lost?  If so,
 * *@behind_out tells whether a link out of the rule had not passed it.
 */
static bool stripe_reseq_gap_lost(const struct stripe_rx_sender *s,
				  const struct stripe_reseq_cfg *cfg, u32 gseq,
				  bool *behind_out)
{
	unsigned int i;

	*behind_out = false;
	for_each_set_bit(i, s->links, STRIPE_RX_LINKS) {
		if (!seq_before(s->newest[i], gseq))
			continue;
		if (stripe_reseq_silent_for(s, i, s->last_seen) > cfg->silent_ns ||
		    test_bit(i, s->stale))
			*behind_out = true;	/* out of the rule */
		else
			return false;
	}
	return true;
}

/* A gap before @gseq waited out the hold bound: the links that had not
 * passed it delivered nothing in all that time while others did, so they
 * are most likely down.  They leave the rule until they deliver again, so
 * that the next gaps behind them are not each held to the bound too: a
 * flow stalls on its first gap, the sender stops, and silence, measured
 * in the sender's frames, would never build up.
 */
static void stripe_reseq_mark_stale(struct stripe_rx_sender *s, u32 gseq)
{
	unsigned int i;

	for_each_set_bit(i, s->links, STRIPE_RX_LINKS)
		if (seq_before(s->newest[i], gseq))
			__set_bit(i, s->stale);
}

/* Deliver what can go from one bucket. */
static void stripe_reseq_drain(struct stripe_reseq *r,
			       const struct stripe_reseq_cfg *cfg,
			       struct stripe_rx_sender *s,
			       struct stripe_rx_flow *f, u64 now)
{
	bool by_link, behind_out;
	struct sk_buff *head;

	while ((head = stripe_held_head(f))) {
		struct stripe_rx_cb *cb = stripe_cb(head);

		by_link = false;
		behind_out = false;
		if (cb->fseq != f->next || f->fresh) {
			/* (a fresh flow's gap may be none: not counted, and
			 * it says nothing of the links)
			 */
			if (now - cb->arrived >= stripe_reseq_late_ns(s, now) &&
			    stripe_reseq_gap_lost(s, cfg, cb->gseq,
						  &behind_out)) {
				if (!f->fresh) {
					r->stats.lost_link++;
					s->lost_link++;
					by_link = true;
				}
			} else if (now - cb->arrived >= cfg->hold_ns) {
				if (!f->fresh) {
					r->stats.lost_timeout++;
					s->lost_timeout++;
					stripe_reseq_mark_stale(s, cb->gseq);
				}
				behind_out = false;
			} else {
				break;
			}
		}
		stripe_reseq_release(r, f, by_link, behind_out, now);
	}
}

static void stripe_reseq_drain_sender(struct stripe_reseq *r,
				      const struct stripe_reseq_cfg *cfg,
				      struct stripe_rx_sender *s, u64 now)
{
	unsigned int b;

	for_each_set_bit(b, s->pending, STRIPE_FLOW_BUCKETS) {
		stripe_reseq_drain(r, cfg, s, &s->flows[b], now);
		if (!s->flows[b].nheld)
			__clear_bit(b, s->pending);
	}
}

/* The frames a sender holds when its state goes: up as they are, each
 * flow's in its order (its place is taken: @up), or dropped (the
 * resequencer goes away)
 */
static void stripe_reseq_sender_flush(struct stripe_reseq *r,
				      struct stripe_rx_sender *s, bool up)
{
	struct sk_buff *skb;
	unsigned int b;

	for_each_set_bit(b, s->pending, STRIPE_FLOW_BUCKETS) {
		while ((skb = stripe_held_pop(&s->flows[b]))) {
			r->held--;
			r->held_bytes -= skb->len;
			r->held_mem -= skb->truesize;
			if (up)
				__skb_queue_tail(&r->out, skb);
			else
				kfree_skb(skb);
		}
	}
}

static u32 stripe_reseq_hash(const struct stripe_reseq *r, u32 id)
{
	return hsiphash_1u32(id, &r->hash_key) % STRIPE_RX_HASH_SIZE;
}

/* The state of sender @id, NULL if it has none */
static struct stripe_rx_sender *stripe_reseq_sender(const struct stripe_reseq *r,
						    u32 id)
{
	struct stripe_rx_sender *s;
	u16 next;

	for (next = r->hash[stripe_reseq_hash(r, id)]; next; next = s->hash_next) {
		s = r->senders[next - 1];
		if (s->id == id)
			return s;
	}
	return NULL;
}

/* @s leaves the table, its frames as stripe_reseq_sender_flush(), its
 * memory kept for the next new sender if the pool has room
 */
static void stripe_reseq_sender_drop(struct stripe_reseq *r,
				     struct stripe_rx_sender *s, bool up)
{
	u16 *next = &r->hash[stripe_reseq_hash(r, s->id)];

	while (*next != s->slot + 1)
		next = &r->senders[*next - 1]->hash_next;
	*next = s->hash_next;
	r->senders[s->slot] = NULL;
	__clear_bit(s->slot, r->used);
	r->nr_senders--;
	stripe_reseq_sender_flush(r, s, up);
	if (!stripe_reseq_pool_put(r, s))
		kvfree(s);
}

/* When the sender was last heard on any link, probes too (ns) */
static u64 stripe_reseq_heard_at(const struct stripe_rx_sender *s)
{
	unsigned int i;
	u64 at = 0;

	for_each_set_bit(i, s->links, STRIPE_RX_LINKS)
		at = max(at, s->link_seen[i]);
	return at;
}

/* May a new sender take @s's place?  Not a busy peer's, whatever ids
 * arrive: only one idle for a second, or one still new and quiet.
 */
static bool stripe_reseq_may_take(const struct stripe_rx_sender *s, u64 now)
{
	u64 idle = now - stripe_reseq_heard_at(s);

	return idle > STRIPE_RX_IDLE_NS ||
	       (s->frames < STRIPE_RX_NEW_FRAMES &&
		idle > STRIPE_RX_NEW_IDLE_NS);
}

/* State for new sender @id: a free place with a state from the pool, or
 * the place (and memory) of a sender that may give it up.  NULL if none:
 * its frames then go up unordered.
 */
static struct stripe_rx_sender *stripe_reseq_sender_add(struct stripe_reseq *r,
							u32 id, u64 now)
{
	struct stripe_rx_sender *s = NULL;
	unsigned int i, slot = 0;
	u32 h;

	if (r->nr_senders < r->max_senders) {
		if (!r->pool_n)
			return NULL;
		slot = find_first_zero_bit(r->used, r->max_senders);
		s = r->pool[--r->pool_n];
	} else {
		for (i = 0; i < STRIPE_RX_EVICT_SCAN && !s; i++) {
			slot = r->hand;
			r->hand = (r->hand + 1) % r->max_senders;
			if (stripe_reseq_may_take(r->senders[slot], now))
				s = r->senders[slot];
		}
		if (!s)
			return NULL;
		/* its memory, or the pool's if that was full */
		stripe_reseq_sender_drop(r, s, true);
		s = r->pool[--r->pool_n];
	}
	memset(s, 0, sizeof(*s));
	s->id = id;
	for (i = 0; i < STRIPE_FLOW_BUCKETS; i++)
		s->flows[i].held = RB_ROOT_CACHED;
	for (i = 0; i < STRIPE_RX_LINKS; i++) {
		s->owd_min[i] = S32_MAX;
		s->owd_min_last[i] = S32_MAX;
		s->queue_base[i] = S32_MAX;
		s->queue_base_last[i] = S32_MAX;
		s->queue_min[i] = STRIPE_WIRE_QUEUE_NONE;
	}
	s->slot = slot;
	h = stripe_reseq_hash(r, id);
	s->hash_next = r->hash[h];
	r->hash[h] = slot + 1;
	r->senders[slot] = s;
	__set_bit(slot, r->used);
	r->nr_senders++;
	return s;
}

/* The pool of ready states runs low: the caller refills it, where it may
 * sleep, with stripe_reseq_pool_put()
 */
bool stripe_reseq_pool_low(const struct stripe_reseq *r)
{
	return r->pool_n < STRIPE_RX_POOL / 2;
}

/* A zeroed state of sizeof(struct stripe_rx_sender) for the pool, from
 * kvzalloc(); false if it is full (the caller frees @s)
 */
bool stripe_reseq_pool_put(struct stripe_reseq *r, struct stripe_rx_sender *s)
{
	if (r->pool_n >= STRIPE_RX_POOL)
		return false;
	r->pool[r->pool_n++] = s;
	return true;
}

/* The first place in use from @slot on, STRIPE_RX_SENDERS if none */
u32 stripe_reseq_next_slot(const struct stripe_reseq *r, u32 slot)
{
	if (slot >= STRIPE_RX_SENDERS)
		return STRIPE_RX_SENDERS;
	return find_next_bit(r->used, STRIPE_RX_SENDERS, slot);
}

/* Per-link least values over one to two windows of @period: once this one
 * is over, it becomes the last and a new one starts
 */
static void stripe_reseq_next_window(u64 *window, s32 *cur, s32 *last,
				     u64 period, u64 now)
{
	unsigned int i;

	if (now - *window <= period)
		return;
	for (i = 0; i < STRIPE_RX_LINKS; i++) {
		last[i] = cur[i];
		cur[i] = S32_MAX;
	}
	*window = now;
}

/* Base one-way delay: queueing only ever adds delay, so the least delay a
 * link showed over the last one to two windows is its path's own, however
 * loaded.  The clock offset between the hosts is in every link's value and
 * cancels in the differences.
 */
static void stripe_reseq_note_owd(struct stripe_rx_sender *s, u32 link,
				  s32 owd_us, u64 now)
{
	stripe_reseq_next_window(&s->owd_window, s->owd_min, s->owd_min_last,
				 STRIPE_RX_OWD_WINDOW_NS, now);
	if (owd_us < s->owd_min[link])
		s->owd_min[link] = owd_us;
}

/* What this frame waited in queues on its way: the least of these since
 * the last report is the link's standing queue (adaptive shares, at the
 * sender).  Measured from the least delay over 10 to 20 s: TCP may keep
 * every queue from emptying for longer than the skew's windows.
 */
static void stripe_reseq_note_queue(struct stripe_rx_sender *s, u32 link,
				    s32 owd_us, u64 now)
{
	u32 queue_us;

	stripe_reseq_next_window(&s->queue_window, s->queue_base,
				 s->queue_base_last, STRIPE_RX_QUEUE_WINDOW_NS,
				 now);
	if (owd_us < s->queue_base[link])
		s->queue_base[link] = owd_us;
	queue_us = (u32)((s64)owd_us - min(s->queue_base[link],
					   s->queue_base_last[link]));
	queue_us = min(queue_us, STRIPE_WIRE_QUEUE_NONE - 1);
	if (queue_us < s->queue_min[link])
		s->queue_min[link] = queue_us;
}

/* How long @link may deliver nothing before feedback calls it lost:
 * twice the gap between its frames that 99 % of its gaps lately stayed
 * under (rounded up to a power of two ms), at least @lost_ns and at most
 * STRIPE_RX_LOST_MAX_NS.  A slow link (every gap long) gets more time; a
 * few long gaps (a receiver whose CPU left the link's queue unserved for a
 * while, a sender's stall) do not count.
 */
static u64 stripe_reseq_lost_after(const struct stripe_rx_sender *s, u32 link,
				   u64 lost_ns)
{
	u32 n = 0, sum = 0, k;

	for (k = 0; k < STRIPE_RX_GAP_BUCKETS; k++)
		n += s->gap_hist[link][k] + s->gap_hist_last[link][k];
	for (k = 0; k < STRIPE_RX_GAP_BUCKETS; k++) {
		sum += s->gap_hist[link][k] + s->gap_hist_last[link][k];
		if (100 * sum >= 99 * n)
			break;
	}
	/* bucket k holds gaps shorter than 2^k ms */
	return clamp_t(u64, 2 * (NSEC_PER_MSEC << k), lost_ns,
		       STRIPE_RX_LOST_MAX_NS);
}

/* Count the gap between two frames of @link, while its sender is active
 * (not across a pause), in the window of the delays.  The gap is the
 * link's own: the sender's last quiet in it, when no link had a frame (a
 * stall of its CPU shorter than a pause), is not the link's, and must not
 * buy it more time before feedback calls it lost
 * (stripe_reseq_lost_after()).
 */
static void stripe_reseq_note_gap(struct stripe_rx_sender *s, u32 link,
				  u64 now)
{
	u64 since = max(s->link_seen[link], s->fb_since);
	u64 gap_ns = now - since, gap_ms;
	u64 from = max(since, s->quiet_from);
	unsigned int k;

	if (s->quiet_to > from)
		gap_ns -= min(gap_ns, s->quiet_to - from);
	gap_ms = div_u64(gap_ns, NSEC_PER_MSEC);

	if (now - s->gap_window > STRIPE_RX_OWD_WINDOW_NS) {
		memcpy(s->gap_hist_last, s->gap_hist, sizeof(s->gap_hist));
		memset(s->gap_hist, 0, sizeof(s->gap_hist));
		s->gap_window = now;
	}
	if (!test_bit(link, s->links))
		return;		/* its first frame */
	k = gap_ms ? min_t(u64, fls64(gap_ms), STRIPE_RX_GAP_BUCKETS - 1) : 0;
	if (s->gap_hist[link][k] < U16_MAX)
		s->gap_hist[link][k]++;
}

/* As stripe_reseq_silent_for(), for feedback: a pause of the sender is one
 * longer than a link may be quiet (the loss rule's hold bound is shorter:
 * with it, every short stall of the sender would restart the count, and a
 * dead link would never be reported).
 */
static u64 stripe_reseq_fb_silent_for(const struct stripe_rx_sender *s,
				      unsigned int link, u64 to)
{
	u64 since = max(s->link_seen[link], s->fb_since);

	return to > since ? to - since : 0;
}

/* The newest gseq any of the sender's links carried */
static u32 stripe_reseq_newest(const struct stripe_rx_sender *s)
{
	unsigned int i = find_first_bit(s->links, STRIPE_RX_LINKS);
	u32 newest = i < STRIPE_RX_LINKS ? s->newest[i] : 0;

	for_each_set_bit(i, s->links, STRIPE_RX_LINKS)
		if (seq_before(newest, s->newest[i]))
			newest = s->newest[i];
	return newest;
}

/* Did @link miss the sender's current active period?  It delivered
 * nothing in it, though the sender marked (a marking sender brings every
 * working link up to its newest gseq before it falls quiet, marker.c) and
 * another link carried a newer gseq (@newest: stripe_reseq_newest()).  A
 * sender whose every frame is a lone ACK, sent on a dead link, shows this
 * and nothing else: too few frames for any silence to count, and never a
 * busy period.
 */
static bool stripe_reseq_fb_missed(const struct stripe_rx_sender *s,
				   unsigned int link, u32 newest)
{
	return s->fb_period_marked && s->link_seen[link] < s->fb_since &&
	       seq_before(s->newest[link], newest);
}

/* The sender's pause ended at @now: its links' silence counts anew, but a
 * link that stayed silent through a busy period carries that silence
 * over.  Otherwise a sender that only sends in bursts with pauses between
 * (a TCP stream stalled by the very link that died: its ACKs come a few at
 * a time) would never see the dead link reported.  A period is busy when
 * it brought at least four frames per link: enough that striping would
 * have put one on every link (markers fill in for idle ones).
 */
static void stripe_reseq_fb_pause(struct stripe_rx_sender *s, u64 now)
{
	unsigned int i, n = bitmap_weight(s->links, STRIPE_RX_LINKS);
	bool busy = n && s->fb_period_frames >= 4 * n;
	u32 newest = stripe_reseq_newest(s);

	for_each_set_bit(i, s->links, STRIPE_RX_LINKS) {
		s->fb_silent_before[i] = busy ?
			s->fb_silent_before[i] +
			stripe_reseq_fb_silent_for(s, i, s->last_seen) : 0;
		s->fb_missed[i] = stripe_reseq_fb_missed(s, i, newest) ?
			min(s->fb_missed[i] + 1, U8_MAX) : 0;
	}
	s->fb_since = now;
	s->fb_period_frames = 0;
	s->fb_period_marked = false;
}

static s32 stripe_reseq_base_owd(const struct stripe_rx_sender *s, u32 link)
{
	return min(s->owd_min[link], s->owd_min_last[link]);
}

/* A frame of @s came late on @link: one number it skipped was not lost.
 * The newest wait is the likeliest to be its (reordering is short).
 */
static void stripe_reseq_late_on_link(struct stripe_rx_sender *s, u32 link)
{
	if (s->gap_new[link])
		s->gap_new[link]--;
	else if (s->gap_old[link])
		s->gap_old[link]--;
	else if (s->link_lost[link])
		s->link_lost[link]--;
}

/* The frame after @s's last on @link has @lseq: the numbers between were
 * lost on the link, or are late (a link that is not FIFO: each one late
 * takes one back, stripe_reseq_note_link).  A jump too long for a lost run
 * (a sender that restarted, a link id reused) only resynchronises.  A
 * marker carries the gseq of the sender's last data frame, which may be
 * the one before it on this link (@same_gseq: as the link's newest): of
 * the two only lseq tells which came first, and one behind is late.
 */
static void stripe_reseq_note_lseq(struct stripe_rx_sender *s, u32 link,
				   u8 lseq, bool same_gseq)
{
	u8 skipped = lseq - s->lseq[link] - 1;

	if (same_gseq && (s8)(lseq - s->lseq[link]) < 0) {
		stripe_reseq_late_on_link(s, link);
		return;
	}
	if (skipped < STRIPE_RX_LSEQ_RUN_MAX)
		s->gap_new[link] += skipped;
	s->lseq[link] = lseq;
}

/* @s's gseq reached @gseq: a link that has been quiet long, or whose
 * newest is more than STRIPE_RX_FSEQ_WINDOW behind, is put that far behind.
 * It is behind either way (the link rule and feedback read it so), and it
 * stays behind: left alone, after 2^31 of the sender's frames it would
 * look ahead of every frame, its own next ones would count as reordered
 * and gaps would be given up on at once (review K5).  Called every
 * STRIPE_RX_REBASE_GSEQ of gseq, and when a link starts afresh.
 */
static void stripe_reseq_rebase(struct stripe_rx_sender *s, u32 gseq, u64 now)
{
	unsigned int i;

	for_each_set_bit(i, s->links, STRIPE_RX_LINKS)
		if ((s32)(gseq - s->newest[i]) > (s32)STRIPE_RX_FSEQ_WINDOW ||
		    now - s->link_seen[i] > STRIPE_RX_REBASE_NS)
			s->newest[i] = gseq - STRIPE_RX_FSEQ_WINDOW;
	s->rebase_gseq = gseq;
}

/* What a frame (data or marker) tells about its link. */
static void stripe_reseq_note_link(struct stripe_reseq *r,
				   struct stripe_rx_sender *s,
				   const struct stripe_reseq_cfg *cfg, u32 link,
				   const struct stripe_wire_info *wi,
				   unsigned int len,
				   const struct stripe_reseq_now *now)
{
	u32 gseq = wi->gseq;
	u8 wire_link = wi->link;
	bool fresh;

	/* A probe says the link works, not that the sender is active: with
	 * it the links the sender does not use would look silent.
	 */
	if (!(wi->flags & STRIPE_WIRE_F_PROBE)) {
		if (bitmap_empty(s->links, STRIPE_RX_LINKS) ||
		    now->ns - s->last_seen > cfg->silent_ns)
			s->active_since = now->ns;	/* a pause ended */
		if (bitmap_empty(s->links, STRIPE_RX_LINKS) ||
		    now->ns - s->last_seen > STRIPE_RX_FB_PAUSE_NS)
			stripe_reseq_fb_pause(s, now->ns);
		s->fb_period_frames++;
		if (wi->flags & STRIPE_WIRE_F_MARKER)
			s->fb_period_marked = true;
		if (now->ns - s->last_seen >= STRIPE_RX_QUIET_NS) {
			s->quiet_from = s->last_seen;
			s->quiet_to = now->ns;
		}
		s->last_seen = now->ns;
		stripe_reseq_note_gap(s, link, now->ns);
	}
	/* Reports are for a sender that sends to us.  Every host on the
	 * segment hears a multicast frame (neighbour discovery): were each
	 * to report to its sender for a second, that host would get a
	 * hundred reports a second from each of them, and believe none
	 * (feedback.c: it talks to none of them).
	 */
	if (!(wi->flags & STRIPE_WIRE_F_MARKER) && !now->group) {
		s->fb_data_at = now->ns;
		s->fb_wanted_at = now->ns;
	} else if (wi->flags & STRIPE_WIRE_F_PROBE) {
		s->fb_wanted_at = now->ns;
	}
	fresh = !test_bit(link, s->links) ||
		now->ns - s->link_seen[link] > STRIPE_RX_REBASE_NS;
	if (fresh || (s32)(gseq - s->rebase_gseq) >= (s32)STRIPE_RX_REBASE_GSEQ)
		stripe_reseq_rebase(s, gseq, now->ns);
	if (fresh) {
		__set_bit(link, s->links);
		__clear_bit(link, s->lseq_known);
	}
	if (!fresh && seq_before(gseq, s->newest[link])) {
		/* Each link carries gseq in rising order (xmit.c): a link
		 * that does not is not FIFO, and the link rule misjudges it.
		 * Its lseq was skipped when a later frame came first: it is
		 * not lost after all.
		 */
		r->stats.link_reordered++;
		if (!now->group && test_bit(link, s->lseq_known))
			stripe_reseq_late_on_link(s, link);
	} else {
		bool same = !fresh && gseq == s->newest[link];

		s->newest[link] = gseq;
		/* A frame to a group carries no lseq (xmit.c): the sender
		 * numbers each destination's frames on a link apart
		 */
		if (!now->group) {
			if (__test_and_set_bit(link, s->lseq_known))
				stripe_reseq_note_lseq(s, link, wi->lseq, same);
			else
				s->lseq[link] = wi->lseq;
		}
	}
	s->link_seen[link] = now->ns;
	s->fb_silent_before[link] = 0;
	s->fb_missed[link] = 0;
	__clear_bit(link, s->stale);
	stripe_reseq_note_owd(s, link, now->owd_us, now->ns);
	stripe_reseq_note_queue(s, link, now->owd_us, now->ns);
	s->wire_link[link] = wire_link;
	if (now->src && memcmp(s->addr[link], now->src, ETH_ALEN)) {
		memcpy(s->addr[link], now->src, ETH_ALEN);
		r->bound[link].id = s->id;
		memcpy(r->bound[link].addr, now->src, ETH_ALEN);
		r->bound[link].valid = true;
	}
	s->link_frames[link]++;
	s->link_bytes[link] += len;
}

/* Release the head of @f, gap or not, and what follows it in order. */
static void stripe_reseq_give_up(struct stripe_reseq *r,
				 const struct stripe_reseq_cfg *cfg,
				 struct stripe_rx_sender *s,
				 struct stripe_rx_flow *f, u64 now)
{
	if (!f->fresh)
		r->stats.lost_limit++;
	stripe_reseq_release(r, f, false, false, now);
	stripe_reseq_drain(r, cfg, s, f, now);
}

/* Is more held than buffer-limit frames or memory-limit bytes allow?
 * Memory counts truesize: a small frame in a large buffer holds the
 * buffer.
 */
static bool stripe_reseq_over(const struct stripe_reseq *r,
			      const struct stripe_reseq_cfg *cfg)
{
	return r->held > cfg->buffer_limit || r->held_mem > cfg->memory_limit;
}

/* Over a limit: give up on gaps, @f's first, then other flows'.  Those
 * hold frames too when the limit was lowered below what was held.
 */
static void stripe_reseq_trim(struct stripe_reseq *r,
			      const struct stripe_reseq_cfg *cfg,
			      struct stripe_rx_sender *s,
			      struct stripe_rx_flow *f, u64 now)
{
	unsigned int i, b;

	while (stripe_reseq_over(r, cfg) && f->nheld)
		stripe_reseq_give_up(r, cfg, s, f, now);
	for_each_set_bit(i, r->used, STRIPE_RX_SENDERS) {
		if (!stripe_reseq_over(r, cfg))
			break;
		s = r->senders[i];
		for_each_set_bit(b, s->pending, STRIPE_FLOW_BUCKETS) {
			f = &s->flows[b];
			while (stripe_reseq_over(r, cfg) && f->nheld)
				stripe_reseq_give_up(r, cfg, s, f, now);
			if (!stripe_reseq_over(r, cfg))
				break;
		}
	}
}

/* Is a data frame of @s one to take?  Not if it runs too far ahead of its
 * flow, or is held already (a duplicate).  The window keeps every held
 * frame within half the number space of f->next, where seq_before() is a
 * total order.
 */
static bool stripe_reseq_data_ok(struct stripe_rx_sender *s,
				 const struct stripe_wire_info *wi)
{
	struct stripe_rx_flow *f = &s->flows[wi->flow];

	if (!f->synced)
		return true;
	if (f->fresh && wi->fseq == f->next)
		return false;	/* the held head */
	if (!seq_before(f->next, wi->fseq))
		return true;	/* next, or behind: goes up (fresh: held) */
	if (wi->fseq - f->next >= STRIPE_RX_FSEQ_WINDOW)
		return false;
	return !stripe_held_has(f, wi->fseq);
}

/* Is @fseq, behind a fresh flow's head, its new head?  Only within the
 * window of the last frame held, as stripe_reseq_data_ok() keeps frames
 * ahead: the held frames stay totally ordered.
 */
static bool stripe_reseq_fresh_head(struct stripe_rx_flow *f, u32 fseq)
{
	struct sk_buff *tail = stripe_held_tail(f);

	return seq_before(fseq, f->next) && tail &&
	       stripe_cb(tail)->fseq - fseq < STRIPE_RX_FSEQ_WINDOW;
}

/* A data frame stripe_reseq_data_ok() took */
static void stripe_reseq_data(struct stripe_reseq *r,
			      const struct stripe_reseq_cfg *cfg,
			      struct stripe_rx_sender *s,
			      const struct stripe_wire_info *wi,
			      struct sk_buff *skb, u64 now)
{
	struct stripe_rx_flow *f = &s->flows[wi->flow];
	struct stripe_rx_cb *cb = stripe_cb(skb);

	s->frames++;
	cb->gseq = wi->gseq;
	cb->fseq = wi->fseq;
	cb->arrived = now;
	if (!f->synced) {
		bool behind_out;

		f->synced = true;
		f->next = wi->fseq;
		/* every link passed it already: nothing of it came before */
		f->fresh = stripe_reseq_late_ns(s, now) ||
			   !stripe_reseq_gap_lost(s, cfg, wi->gseq,
						  &behind_out);
	} else if (f->fresh && stripe_reseq_fresh_head(f, wi->fseq)) {
		f->next = wi->fseq;
	}
	if (wi->fseq == f->next && !f->fresh) {
		f->next++;
		r->stats.in_order++;
		__skb_queue_tail(&r->out, skb);
		return;
	}
	/* Behind: its gap was given up on (a link that is not FIFO, a stall)
	 * and the flow still lacks it.  Up it goes, out of order: TCP takes
	 * that as reordering, where a drop would cost it a retransmit and
	 * half its window.  Only a sender that sent it twice makes this a
	 * duplicate, and the stack above copes with those.  Only a gap the
	 * link rule gave up on teaches the late wait: one that waited out
	 * the hold bound was behind a link late as a whole (a queue of a
	 * slowed path, which the sender's shares drain), and a wait learnt
	 * from that held every gap for as long, for ten seconds and more.
	 */
	if (seq_before(wi->fseq, f->next)) {
		if (f->skip_by_link && wi->fseq - f->skip_from < f->skip_len)
			stripe_reseq_note_late(s, f, now);
		r->stats.late++;
		s->late++;
		__skb_queue_tail(&r->out, skb);
		return;
	}
	stripe_held_add(f, skb);
	r->held++;
	r->held_bytes += skb->len;
	r->held_mem += skb->truesize;
	__set_bit(wi->flow, s->pending);
	/* Bounded memory: past a limit the gap is given up on. */
	while (f->nheld > cfg->flow_limit)
		stripe_reseq_give_up(r, cfg, s, f, now);
	stripe_reseq_trim(r, cfg, s, f, now);
}

/* State for a new sender @id, first heard on @link from @src; NULL if
 * there is no room.  One sender per source address on a link: a new id
 * from the address a sender was last bound to there is a peer that
 * restarted (it takes the other's place once that one has been quiet for
 * STRIPE_RX_IDLE_NS; until then its frames go up unordered) or a host
 * that makes ids up, which then holds one place and not the table.  (Only
 * the last binding per link is remembered, to look it up in constant time:
 * a host that also makes addresses up gets places, but only those
 * stripe_reseq_may_take() gives.)
 */
static struct stripe_rx_sender *
stripe_reseq_sender_new(struct stripe_reseq *r, u32 id, u32 link,
			const u8 *src, u64 now)
{
	struct stripe_rx_bound *last = &r->bound[link];
	struct stripe_rx_sender *s;

	if (src && last->valid && !memcmp(last->addr, src, ETH_ALEN)) {
		s = stripe_reseq_sender(r, last->id);
		if (s && test_bit(link, s->links) &&
		    !memcmp(s->addr[link], src, ETH_ALEN)) {
			if (now - stripe_reseq_heard_at(s) <= STRIPE_RX_IDLE_NS)
				return NULL;
			stripe_reseq_sender_drop(r, s, true);
		}
	}
	return stripe_reseq_sender_add(r, id, now);
}

/* A sender is heard on each link from one source address.  A frame with
 * its id from another address while that one was heard within
 * STRIPE_RX_REBIND_NS is another host's on the segment (a forger, which
 * must then also take the peer's address from the switch) and moves no
 * state; a peer whose address changed is believed once the old one went
 * quiet that long.
 */
static bool stripe_reseq_src_ok(struct stripe_reseq *r,
				const struct stripe_rx_sender *s, u32 link,
				const u8 *src, u64 now)
{
	static const u8 none[ETH_ALEN];

	if (!src || !test_bit(link, s->links) ||
	    !memcmp(s->addr[link], none, ETH_ALEN) ||
	    !memcmp(s->addr[link], src, ETH_ALEN) ||
	    now - s->link_seen[link] >= STRIPE_RX_REBIND_NS)
		return true;
	r->stats.wrong_addr++;
	return false;
}

/* Where a feedback frame of reporter @id from @src on @link comes from:
 * the address the reporter's data comes from there (BOUND), another
 * (WRONG, counted), or it sends no data there (UNBOUND).  Its reports
 * move our links in and out of rotation, so, unlike data, it never
 * rebinds: only the reporter's own data moves its address.
 */
enum stripe_fb_source stripe_reseq_fb_source(struct stripe_reseq *r, u32 id,
					     u32 link, const u8 *src)
{
	struct stripe_rx_sender *s = stripe_reseq_sender(r, id);

	if (link >= STRIPE_RX_LINKS || !s || !test_bit(link, s->links))
		return STRIPE_FB_SRC_UNBOUND;
	if (!src || !memcmp(s->addr[link], src, ETH_ALEN))
		return STRIPE_FB_SRC_BOUND;
	r->stats.wrong_addr++;
	return STRIPE_FB_SRC_WRONG;
}

/* A frame arrived on link number @link with the header @wi (checked by
 * stripe_wire_parse()) and @skb its packet, header already pulled.
 * Consumes @skb; what may go up is appended to r->out.  Every check runs
 * before any state moves.  True only for a frame of a sender we keep
 * state for, from its address, taken: what says the link delivers (rx.c).
 * False if refused (counted) or gone up without state (no_state).
 */
bool stripe_reseq_frame(struct stripe_reseq *r,
			const struct stripe_reseq_cfg *cfg, u32 link,
			const struct stripe_wire_info *wi, struct sk_buff *skb,
			const struct stripe_reseq_now *now)
{
	bool marker = wi->flags & STRIPE_WIRE_F_MARKER;
	struct stripe_rx_sender *s;

	if (link >= STRIPE_RX_LINKS) {
		r->stats.malformed++;
		kfree_skb(skb);
		return false;
	}
	s = stripe_reseq_sender(r, wi->sender);
	if (s && !stripe_reseq_src_ok(r, s, link, now->src, now->ns)) {
		kfree_skb(skb);
		return false;
	}
	if (s && !marker && !stripe_reseq_data_ok(s, wi)) {
		/* too far ahead, or a duplicate */
		r->stats.late++;
		s->late++;
		kfree_skb(skb);
		return false;
	}
	if (!s && !marker)
		s = stripe_reseq_sender_new(r, wi->sender, link, now->src,
					    now->ns);
	if (!s) {
		/* A marker of a sender we keep no state for says nothing; its
		 * data goes up as it comes, unordered, rather than not at all
		 * (the table is full, the address has a sender, or memory is
		 * short).
		 */
		if (marker) {
			kfree_skb(skb);
		} else {
			r->stats.no_state++;
			__skb_queue_tail(&r->out, skb);
		}
		return false;
	}
	stripe_reseq_note_link(r, s, cfg, link, wi, skb->len, now);
	if (marker) {
		r->stats.markers++;
		kfree_skb(skb);
	} else {
		stripe_reseq_data(r, cfg, s, wi, skb, now->ns);
	}
	stripe_reseq_drain_sender(r, cfg, s, now->ns);
	return true;
}

/* Time passed: release what the rules now allow (r->held says whether
 * frames are still held, rx.c)
 */
void stripe_reseq_tick(struct stripe_reseq *r,
		       const struct stripe_reseq_cfg *cfg, u64 now)
{
	u32 i;

	for_each_set_bit(i, r->used, STRIPE_RX_SENDERS)
		stripe_reseq_drain_sender(r, cfg, r->senders[i], now);
}

/* An empty resequencer, its pool empty too (stripe_reseq_pool_put()) */
void stripe_reseq_init(struct stripe_reseq *r)
{
	memset(r, 0, sizeof(*r));
	r->max_senders = STRIPE_RX_SENDERS;
	get_random_bytes(&r->hash_key, sizeof(r->hash_key));
	__skb_queue_head_init(&r->out);
}

void stripe_reseq_destroy(struct stripe_reseq *r)
{
	u32 i;

	for_each_set_bit(i, r->used, STRIPE_RX_SENDERS)
		stripe_reseq_sender_drop(r, r->senders[i], false);
	while (r->pool_n)
		kvfree(r->pool[--r->pool_n]);
	__skb_queue_purge(&r->out);
}

/* Link id @link left, or is given to a new link: what every sender showed
 * on the link that had it (newest gseq, silence, delay) is no one's now.
 */
void stripe_reseq_forget_link(struct stripe_reseq *r, u32 link)
{
	struct stripe_rx_sender *s;
	u32 i;

	if (link >= STRIPE_RX_LINKS)
		return;
	r->bound[link].valid = false;
	for_each_set_bit(i, r->used, STRIPE_RX_SENDERS) {
		s = r->senders[i];
		__clear_bit(link, s->links);
		__clear_bit(link, s->stale);
		s->newest[link] = 0;
		s->link_seen[link] = 0;
		s->fb_silent_before[link] = 0;
		s->fb_missed[link] = 0;
		s->owd_min[link] = S32_MAX;
		s->owd_min_last[link] = S32_MAX;
		s->queue_base[link] = S32_MAX;
		s->queue_base_last[link] = S32_MAX;
		s->queue_min[link] = STRIPE_WIRE_QUEUE_NONE;
		s->link_frames[link] = 0;
		s->link_bytes[link] = 0;
		s->link_lost[link] = 0;
		s->gap_new[link] = 0;
		s->gap_old[link] = 0;
		memset(s->gap_hist[link], 0, sizeof(s->gap_hist[link]));
		memset(s->gap_hist_last[link], 0,
		       sizeof(s->gap_hist_last[link]));
	}
}

u32 stripe_reseq_senders(const struct stripe_reseq *r)
{
	return r->nr_senders;
}

/* The sender heard from last: the peer the per-link views are about */
static const struct stripe_rx_sender *
stripe_reseq_latest(const struct stripe_reseq *r)
{
	struct stripe_rx_sender *s, *latest = NULL;
	u32 i;

	for_each_set_bit(i, r->used, STRIPE_RX_SENDERS) {
		s = r->senders[i];
		if (!latest || s->last_seen > latest->last_seen)
			latest = s;
	}
	return latest;
}

/* Did sender @id send us data within @window ns of @now?  (Its reports
 * about our links count then, feedback.c: it is a peer we talk with.)
 */
bool stripe_reseq_sends_data(const struct stripe_reseq *r, u32 id, u64 now,
			     u64 window)
{
	const struct stripe_rx_sender *s = stripe_reseq_sender(r, id);

	return s && s->fb_data_at && now - s->fb_data_at < window;
}

/* Has @link gone silent for the sender heard from last, while that sender
 * is active?  Then the link is likely cut, and our own frames on it lost.
 */
bool stripe_reseq_link_silent(const struct stripe_reseq *r,
			      const struct stripe_reseq_cfg *cfg, u32 link,
			      u64 now, u64 caught_up)
{
	const struct stripe_rx_sender *s = stripe_reseq_latest(r);

	if (!s || link >= STRIPE_RX_LINKS || now - s->last_seen > cfg->silent_ns)
		return false;
	/* Never heard on: perhaps the peer is not on that link at all */
	if (!test_bit(link, s->links))
		return false;
	return stripe_reseq_silent_for(s, link,
				       stripe_reseq_heard_to(s, caught_up)) >
	       cfg->silent_ns;
}

/* The longest wait any sender's gaps need now (stripe_reseq_late_ns()) */
u64 stripe_reseq_max_late(const struct stripe_reseq *r, u64 now)
{
	u64 late = 0;
	u32 i;

	for_each_set_bit(i, r->used, STRIPE_RX_SENDERS)
		late = max(late, stripe_reseq_late_ns(r->senders[i], now));
	return late;
}

/* What the statistics show of the sender in @slot, if it was heard within
 * the last second (as its feedback does); a link silent for @silent_ns,
 * or stale, is out of its loss rule.
 */
bool stripe_reseq_peer(const struct stripe_reseq *r, u32 slot,
		       u64 silent_ns, u64 now, struct stripe_reseq_peer *p)
{
	s32 owd, fastest = S32_MAX, slowest = S32_MIN;
	const struct stripe_rx_sender *s;
	unsigned int i;

	if (slot >= STRIPE_RX_SENDERS)
		return false;
	s = r->senders[slot];
	if (!s || now - stripe_reseq_heard_at(s) > STRIPE_RX_IDLE_NS)
		return false;
	memset(p, 0, sizeof(*p));
	p->id = s->id;
	p->age_ms = div_u64(now - stripe_reseq_heard_at(s), NSEC_PER_MSEC);
	for_each_set_bit(i, s->links, STRIPE_RX_LINKS) {
		p->links++;
		if (stripe_reseq_silent_for(s, i, s->last_seen) > silent_ns ||
		    test_bit(i, s->stale))
			p->silent++;
		owd = stripe_reseq_base_owd(s, i);
		if (owd == S32_MAX ||
		    s->last_seen - s->link_seen[i] >= STRIPE_RX_IDLE_NS)
			continue;
		fastest = min(fastest, owd);
		slowest = max(slowest, owd);
	}
	if (fastest != S32_MAX)
		p->skew_us = (u32)((s64)slowest - fastest);
	for_each_set_bit(i, s->pending, STRIPE_FLOW_BUCKETS)
		p->held += s->flows[i].nheld;
	p->frames = s->frames;
	p->lost_link = s->lost_link;
	p->lost_timeout = s->lost_timeout;
	p->late = s->late;
	return true;
}

/* How much later than its fastest link does @link deliver @s's frames,
 * on its base delay?  False if not measured lately.
 */
static bool stripe_reseq_sender_skew(const struct stripe_rx_sender *s,
				     u32 link, u32 *skew_us)
{
	s32 owd, fastest = S32_MAX;
	unsigned int i;

	if (link >= STRIPE_RX_LINKS || !test_bit(link, s->links))
		return false;
	owd = stripe_reseq_base_owd(s, link);
	if (owd == S32_MAX)
		return false;
	for_each_set_bit(i, s->links, STRIPE_RX_LINKS)
		if (s->last_seen - s->link_seen[i] < STRIPE_RX_IDLE_NS)
			fastest = min(fastest, stripe_reseq_base_owd(s, i));
	*skew_us = owd > fastest ? (u32)((s64)owd - fastest) : 0;
	return true;
}

/* ... for the sender heard from last */
bool stripe_reseq_skew(const struct stripe_reseq *r, u32 link, u32 *skew_us)
{
	const struct stripe_rx_sender *s = stripe_reseq_latest(r);

	return s && stripe_reseq_sender_skew(s, link, skew_us);
}

/* The largest skew of any link of the sender heard from last, in us */
u32 stripe_reseq_max_skew(const struct stripe_reseq *r)
{
	const struct stripe_rx_sender *s = stripe_reseq_latest(r);
	u32 i, skew, max_skew = 0;

	if (!s)
		return 0;
	for_each_set_bit(i, s->links, STRIPE_RX_LINKS)
		if (stripe_reseq_sender_skew(s, i, &skew) && skew > max_skew)
			max_skew = skew;
	return max_skew;
}

static u8 stripe_reseq_link_state(const struct stripe_rx_sender *s,
				  unsigned int link, u32 newest, u64 now,
				  u64 caught_up, u64 lost_ns)
{
	u64 lost_after = stripe_reseq_lost_after(s, link, lost_ns);
	unsigned int missed = s->fb_missed[link];

	/* Its data does not come here (it talks to another peer on these
	 * links, which it keeps busy: they get no markers): no link is lost
	 * for that.  Told lost, the sender left it for every peer, probed it
	 * and so kept our reports going.  A link that fell silent for longer
	 * than the loss bound before the data stopped, and was not heard
	 * since, is not known to deliver: reported so, the sender would take
	 * back a link still cut.
	 */
	if (now - s->fb_data_at > STRIPE_RX_IDLE_NS)
		return s->link_seen[link] < s->fb_since ||
		       s->link_seen[link] + lost_after < s->fb_data_at ?
		       STRIPE_WIRE_LINK_UNKNOWN : STRIPE_WIRE_LINK_DELIVERING;
	if (s->fb_silent_before[link] +
	    stripe_reseq_fb_silent_for(s, link,
				       stripe_reseq_heard_to(s, caught_up)) >
	    lost_after)
		return STRIPE_WIRE_LINK_LOST;
	/* The current period counts once the sender was quiet long enough
	 * for the link to catch up.  Two periods missed in a row, not one:
	 * one lost marker at the end of a burst is not a dead link.
	 */
	if (now - s->last_seen > lost_after &&
	    stripe_reseq_fb_missed(s, link, newest))
		missed++;
	if (missed >= 2)
		return STRIPE_WIRE_LINK_LOST;
	/* Quiet since the sender came back from a pause: no evidence yet */
	if (s->link_seen[link] < s->fb_since)
		return STRIPE_WIRE_LINK_UNKNOWN;
	return STRIPE_WIRE_LINK_DELIVERING;
}

/* The feedback for the sender in @slot, if it was heard within the last
 * second: one report per local link it was heard on, by its own id of
 * the link.  A link is LOST when it delivered nothing for @lost_ns, or
 * twice the longest quiet it showed lately if that is longer, while the
 * sender's other links did (measured, like the loss rule's silence, up to
 * the sender's last frame, and no further than @caught_up: a pause or a
 * stall of the whole sender is not a link's fault, nor is a CPU of ours
 * that has not taken the link's frames yet).  Each report carries the
 * least queueing delay the link showed since the last one, which starts a
 * new interval.
 */
bool stripe_reseq_feedback(struct stripe_reseq *r, u32 slot, u64 now,
			   u64 caught_up, u64 lost_ns,
			   struct stripe_feedback_msg *msg)
{
	struct stripe_rx_sender *s;
	unsigned int i;
	u32 newest;

	if (slot >= STRIPE_RX_SENDERS)
		return false;
	s = r->senders[slot];
	/* Probes count: a sender that left every link we hear it on, and
	 * sends on one we lost, only learns from us that they deliver.
	 * Markers alone do not: a gateway that talks to another host on
	 * these links marks them, and a report for that would keep it
	 * broadcasting its markers to every host (marker.c).
	 */
	if (!s || now - s->fb_wanted_at > STRIPE_RX_IDLE_NS)
		return false;
	/* Senders still new share a few reports an interval: a host making
	 * ids up, one frame each, would get a report every interval for each
	 * (a frame in, a hundred a second out)
	 */
	if (s->frames < STRIPE_RX_NEW_FRAMES) {
		if (now - r->fb_new_window >= STRIPE_RX_FB_NEW_NS) {
			r->fb_new_window = now;
			r->fb_new = 0;
		}
		if (r->fb_new >= STRIPE_RX_FB_NEW_MAX)
			return false;
		r->fb_new++;
	}
	msg->peer = s->id;
	msg->n = 0;
	newest = stripe_reseq_newest(s);
	/* What waited an interval or two counts lost now, if every CPU took
	 * our frames since (one held off may hold the late frame)
	 */
	if (now - s->gap_since >= STRIPE_RX_LOSS_WAIT_NS &&
	    caught_up >= s->gap_since) {
		for_each_set_bit(i, s->links, STRIPE_RX_LINKS) {
			s->link_lost[i] += s->gap_old[i];
			s->gap_old[i] = s->gap_new[i];
			s->gap_new[i] = 0;
		}
		s->gap_since = now;
	}
	bitmap_copy(msg->links, s->links, STRIPE_RX_LINKS);
	for_each_set_bit(i, s->links, STRIPE_RX_LINKS) {
		struct stripe_link_report *rep = &msg->report[msg->n++];
		u64 age_ms = div_u64(now - s->link_seen[i], NSEC_PER_MSEC);

		rep->link = s->wire_link[i];
		rep->state = stripe_reseq_link_state(s, i, newest, now,
						     caught_up, lost_ns);
		rep->age_ms = min_t(u64, age_ms, U16_MAX);
		rep->frames = s->link_frames[i];
		rep->bytes = s->link_bytes[i];
		rep->queue_us = s->queue_min[i];
		rep->lost = s->link_lost[i];
		s->queue_min[i] = STRIPE_WIRE_QUEUE_NONE;
		memcpy(msg->addr[i], s->addr[i], ETH_ALEN);
	}
	return msg->n > 0;
}
