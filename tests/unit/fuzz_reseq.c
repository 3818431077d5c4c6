// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: hostile stripe frames into the resequencer
 * (kernel/reseq.c, built unchanged on the host).
 *
 * The input is a list of 28-byte records: link (any byte, ids past the
 * table included), time step, a "tick" flag, then 24 raw header bytes that
 * go through stripe_wire_parse() as they are, except that the sender id is
 * folded onto 24 values so that the 16-slot table fills up.  After every
 * step the invariants are checked, and abort() on a violation:
 *
 *  - the held count matches the frames queued, and stays within the flow
 *    and buffer limits;
 *  - what goes up is, per sender and flow, in strictly rising fseq order,
 *    but for frames counted late or without state (they go up as they
 *    come): never more out of order than those counters grew by;
 *  - a frame the resequencer does not take (refused: wrong address, a
 *    duplicate, too far ahead; or up without state) moves no state;
 *  - at the end nothing leaks (every frame and every state freed).
 */
#include <stdio.h>

#include "harness.h"

#define SENDERS	24
#define REC	28

static const struct stripe_reseq_cfg cfg = {
	.hold_ns = 5000000,
	.silent_ns = 5000000,
	.flow_limit = 6,
	.buffer_limit = 20,
	.memory_limit = 12 * 2000,
};

struct last {
	bool valid;
	u32 fseq;
};

static struct last last[SENDERS][STRIPE_FLOW_BUCKETS];

static void fail(const char *what)
{
	fprintf(stderr, "invariant broken: %s\n", what);
	abort();
}

/* A flow's held frames, in order: how many (they must be nheld, in
 * ascending fseq from next on), adding their truesize to *@mem
 */
static u32 held_walk(const struct stripe_rx_flow *f, u64 *mem)
{
	const struct rb_node *n = rb_first(&f->held.rb_root);
	u32 count = 0, prev = 0;

	if (n != rb_first_cached(&f->held))
		fail("the held tree's cached first is not its first");
	for (; n; n = rb_next(n), count++) {
		const struct sk_buff *skb = rb_to_skb(n);
		u32 fseq = ((const struct stripe_rx_cb *)skb->cb)->fseq;

		if (count && (s32)(fseq - prev) <= 0)
			fail("held frames out of fseq order");
		if (!f->fresh && (s32)(fseq - f->next) < 0)
			fail("a held frame behind its flow's next");
		prev = fseq;
		*mem += skb->truesize;
	}
	if (count != f->nheld)
		fail("a flow's held count differs from its tree");
	return count;
}

static void check_held(const struct stripe_reseq *r)
{
	u32 senders = 0;
	u64 held = 0, mem = 0;
	int i, b;

	for (i = 0; i < STRIPE_RX_SENDERS; i++) {
		const struct stripe_rx_sender *s = r->senders[i];

		if (!s != !test_bit(i, r->used))
			fail("a place in use is not marked, or the reverse");
		if (!s)
			continue;
		senders++;
		if (s->slot != i || i >= (int)r->max_senders)
			fail("a sender is not where it says");
		for (b = 0; b < STRIPE_FLOW_BUCKETS; b++) {
			u32 n = held_walk(&s->flows[b], &mem);

			if (n > cfg.flow_limit)
				fail("a flow holds more than flow-limit");
			if (n && !test_bit(b, s->pending))
				fail("a flow holds frames but is not pending");
			held += n;
		}
	}
	if (senders != r->nr_senders)
		fail("sender count differs from the places in use");
	if (r->pool_n > STRIPE_RX_POOL)
		fail("the pool holds more than its size");
	if (held != r->held)
		fail("held count differs from the frames queued");
	if (r->held > cfg.buffer_limit)
		fail("more held than buffer-limit");
	if (mem != r->held_mem)
		fail("held memory differs from the frames' truesize");
	if (r->held_mem > cfg.memory_limit)
		fail("more held than memory-limit");
}

/* Senders that left the table start again from scratch. */
static void forget_gone(const struct stripe_reseq *r)
{
	bool present[SENDERS] = { false };
	int i;

	for (i = 0; i < STRIPE_RX_SENDERS; i++)
		if (r->senders[i])
			present[r->senders[i]->id] = true;
	for (i = 0; i < SENDERS; i++)
		if (!present[i])
			memset(last[i], 0, sizeof(last[i]));
}

/* @unordered: how many frames of this step may go up out of order */
static void check_out(struct stripe_reseq *r, u64 unordered)
{
	struct sk_buff *skb;

	while ((skb = __skb_dequeue(&r->out))) {
		u32 sender = skb->tag >> 40;
		u32 flow = (skb->tag >> 32) & 0xff;
		u32 fseq = (u32)skb->tag;
		struct last *l = &last[sender][flow];

		if (l->valid && (s32)(fseq - l->fseq) <= 0) {
			if (!unordered--)
				fail("a flow went up out of order");
		} else {
			l->valid = true;
			l->fseq = fseq;
		}
		kfree_skb(skb);
	}
}

/* The input as a feedback body: what is read lies within it */
static void check_feedback_parse(const u8 *data, size_t size)
{
	static struct stripe_link_report rep[STRIPE_WIRE_LINKS];
	u32 peer;
	int n = stripe_wire_parse_feedback(data, size, &peer, rep);

	if (n != stripe_wire_check_feedback(data, size, &peer))
		fail("feedback: the check and the parse disagree");

	if (n >= 0 &&
	    (n > STRIPE_WIRE_LINKS ||
	     sizeof(struct stripe_wire_feedback) +
	     n * sizeof(struct stripe_wire_link_report) > size))
		fail("feedback: reports read beyond the frame");
}

/* A frame the resequencer drops (refused) or passes up without state
 * moves no state: its sender's as before but for the count of its refused
 * frames, nothing held, nothing released but itself.  Whether it was taken
 * is read from where it is, not from what stripe_reseq_frame() says; that
 * must agree: true only for a frame it took, of a sender it has state for.
 */
static struct stripe_rx_sender before;
static bool before_had;
static u32 before_held, before_out;
static u64 before_no_state;

static struct stripe_rx_sender *sender_of(struct stripe_reseq *r, u32 id)
{
	unsigned int i;

	for (i = 0; i < STRIPE_RX_SENDERS; i++)
		if (r->senders[i] && r->senders[i]->id == id)
			return r->senders[i];
	return NULL;
}

static void snapshot(struct stripe_reseq *r, u32 id)
{
	struct stripe_rx_sender *s = sender_of(r, id);

	before_had = s;
	if (s)
		memcpy(&before, s, sizeof(before));
	before_held = r->held;
	before_out = skb_queue_len(&r->out);
	before_no_state = r->stats.no_state;
}

static bool queued(const struct sk_buff_head *q, const struct sk_buff *skb)
{
	const struct sk_buff *p;

	skb_queue_walk(q, p)
		if (p == skb)
			return true;
	return false;
}

static bool held_in(const struct stripe_rx_flow *f, const struct sk_buff *skb)
{
	const struct rb_node *n;

	for (n = rb_first(&f->held.rb_root); n; n = rb_next(n))
		if (rb_to_skb(n) == skb)
			return true;
	return false;
}

/* Is @skb held, or on its way up? */
static bool taken(struct stripe_reseq *r, const struct sk_buff *skb)
{
	int i, b;

	if (queued(&r->out, skb))
		return true;
	for (i = 0; i < STRIPE_RX_SENDERS; i++)
		for (b = 0; r->senders[i] && b < STRIPE_FLOW_BUCKETS; b++)
			if (held_in(&r->senders[i]->flows[b], skb))
				return true;
	return false;
}

static void check_unmoved(struct stripe_reseq *r, u32 id, bool up)
{
	struct stripe_rx_sender *s = sender_of(r, id);

	if (s)
		before.late = s->late;	/* a count, not state */
	if (!s != !before_had || (s && memcmp(&before, s, sizeof(before))) ||
	    r->held != before_held ||
	    skb_queue_len(&r->out) != before_out + up)
		fail("a refused frame moved state");
}

/* After stripe_reseq_frame() of @skb from sender @id said @ok.  A marker
 * is consumed whether believed or not: nothing shows where it went, so
 * only its sender's state can say (believed: one we keep state for).
 */
static void check_frame(struct stripe_reseq *r, u32 id, bool marker,
			const struct sk_buff *skb, bool ok)
{
	bool no_state = r->stats.no_state != before_no_state;
	bool in = !marker && taken(r, skb); /* (a freed one is not read) */

	if (marker) {
		if (no_state)
			fail("a marker went up");
		if (ok && !sender_of(r, id))
			fail("a marker of a sender without state was believed");
		if (!ok)
			check_unmoved(r, id, false);
		return;
	}
	if (ok && (!in || no_state || !sender_of(r, id)))
		fail("a frame not taken, or without state, was believed");
	if (!ok && in && !no_state)
		fail("a frame taken was not believed");
	if (!in || no_state)
		check_unmoved(r, id, no_state);
}

/* The feedback a receiver would send: one report per link heard on */
static void check_feedback(struct stripe_reseq *r, u32 slot, u64 now)
{
	static struct stripe_feedback_msg msg;
	unsigned int i;

	if (!stripe_reseq_feedback(r, slot, now, now, 20 * 1000 * 1000, &msg))
		return;
	if (msg.n > STRIPE_RX_LINKS)
		fail("feedback: more reports than links");
	for (i = 0; i < msg.n; i++)
		if (msg.report[i].link >= STRIPE_WIRE_LINKS ||
		    msg.report[i].state < STRIPE_WIRE_LINK_DELIVERING ||
		    msg.report[i].state > STRIPE_WIRE_LINK_UNKNOWN)
			fail("feedback: a report the parser would refuse");
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	static struct stripe_reseq r;
	u64 now = 1;

	memset(last, 0, sizeof(last));
	stripe_reseq_init(&r);
	/* few places, so that new senders take others' */
	r.max_senders = 6;
	fill_pool(&r);
	check_feedback_parse(data, size);
	for (; size >= REC; data += REC, size -= REC) {
		u64 late = r.stats.late, no_state = r.stats.no_state;
		struct stripe_wire_hdr h;
		struct stripe_wire_info wi;
		u32 link = data[0];

		now += (u64)data[1] << 14;	/* up to ~4 ms a step */
		memcpy(&h, data + 4, sizeof(h));
		h.sender = htonl(ntohl(h.sender) % SENDERS);
		if (data[2] & 1) {
			stripe_reseq_tick(&r, &cfg, now);
		} else if (data[2] & 2) {
			check_feedback(&r, data[3] % (r.max_senders + 1), now);
		} else if (!stripe_wire_parse(&h, sizeof(h), &wi) &&
			   !(wi.flags & STRIPE_WIRE_F_FEEDBACK)) {
			static const u8 macs[3][ETH_ALEN] = {
				{ 2, 0, 0, 0, 0, 1 }, { 2, 0, 0, 0, 0, 2 },
				{ 2, 0, 0, 0, 0, 3 } };
			struct stripe_reseq_now t = {
				.ns = now, .owd_us = (s8)data[3] * 100,
				.src = data[2] >> 6 ? macs[(data[2] >> 6) - 1]
						    : NULL,
				.group = data[2] & 8,	/* multicast */
			};
			u64 tag = (u64)wi.sender << 40 | (u64)wi.flow << 32 |
				  wi.fseq;
			struct sk_buff *skb = frame_skb(64 + data[3], tag);
			bool ok;

			snapshot(&r, wi.sender);
			ok = stripe_reseq_frame(&r, &cfg, link, &wi, skb, &t);
			check_frame(&r, wi.sender,
				    wi.flags & STRIPE_WIRE_F_MARKER, skb, ok);
		}
		/* bit 2: the pool's refill has not run yet */
		if (!(data[2] & 4))
			fill_pool(&r);
		check_held(&r);
		check_out(&r, r.stats.late - late + r.stats.no_state - no_state);
		forget_gone(&r);
	}
	stripe_reseq_destroy(&r);
	if (kshim_skbs || kshim_allocs)
		fail("frames or state leaked");
	return 0;
}
