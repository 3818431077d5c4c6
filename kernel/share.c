// SPDX-License-Identifier: GPL-2.0
/*
 * stripe: adaptive shares -- each link carries what its path takes.
 *
 * A link's weight (typed, or from its speed) says what its own device can
 * send; the path behind it may take less: a modem, a shaped uplink, a
 * slower hop.  Striped by weight alone such a link queues, its frames
 * arrive later and later, the receiver holds the other links' frames for
 * them, and one TCP stream gets the slowest path's rate times the number of
 * links.
 *
 * With reorder on the peer reports, every STRIPE_FEEDBACK_INTERVAL_MS, each
 * link's queueing delay (reseq.c, feedback.c).  Each link whose weight was
 * not typed has a pace: the part of its weight's share it takes, in
 * 1/STRIPE_PACE_ONE.  On each report, a link whose frames queue clearly
 * longer than the mean of the links' (by 2 ms and half the mean) drops its
 * pace, by as much as it stands out and at most a sixteenth; every other
 * link's pace goes back a 64th of the way towards all of its share.  A
 * slower path thus settles where its queue stands just out of the others',
 * carrying what it takes, while equal links stay equal: a controller that
 * chased every difference (up as well as down) moved paces by the noise of
 * TCP's bursts, which made equal links queue apart by 10 ms and more, and
 * the receiver held for it.  A typed weight is the user's and is not moved
 * (its link's queueing still counts in the mean).  With no weight typed the
 * paces are scaled so the largest is STRIPE_PACE_ONE.
 *
 * Locking: paces are written by feedback under m->fb_lock.  The shares of
 * the table in force are updated in place with WRITE_ONCE and read by the
 * transmit path with READ_ONCE: a share of this report or the last, either
 * is fine.  A table built under RTNL takes the paces as they are.
 */
#include "stripe.h"

/* The least pace: a link whose path takes 1/64 of its weight's share */
#define STRIPE_PACE_MIN		(STRIPE_PACE_ONE / 64)
/* One step per report: every link carries a copy of it */
#define STRIPE_SHARE_STEP_NS	(STRIPE_FEEDBACK_INTERVAL_MS * NSEC_PER_MSEC * 3 / 4)
/* A link stands out when it queues this much, and half the mean, longer
 * than the mean: less is noise (timers, TCP's bursts, one frame's time)
 */
#define STRIPE_SHARE_MARGIN_US	2000
/* A difference counts relative to the mean queueing plus this */
#define STRIPE_SHARE_FLOOR_US	1000
#define STRIPE_SHARE_MAX_STEP	(STRIPE_PACE_ONE / 16)
/* Each step a pace goes this part of the way back to all of its share */
#define STRIPE_SHARE_LEAK	64

static bool stripe_share_pinned(const struct stripe_link *link)
{
	return READ_ONCE(link->weight) != 0;
}

/* The part of its weight's share @link takes now: all of it if pinned */
u32 stripe_link_pace(const struct stripe_link *link)
{
	return stripe_share_pinned(link) ? STRIPE_PACE_ONE :
	       READ_ONCE(link->pace);
}

/* The share of @slot at its link's pace; never 0, so SRR visits it */
static s32 stripe_share_of(const struct stripe_slot *slot)
{
	return max_t(s32, 1, div_u64((u64)slot->base *
				     stripe_link_pace(slot->link),
				     STRIPE_PACE_ONE));
}

/* Give every slot of @t its share at its link's pace now */
void stripe_share_apply(struct stripe_table *t)
{
	u32 i;

	for (i = 0; t && i < t->n; i++)
		WRITE_ONCE(t->slot[i].share, stripe_share_of(&t->slot[i]));
}

static const struct stripe_link_report *
stripe_share_report(const struct stripe_link_report *rep, int n, u32 id)
{
	int i;

	for (i = 0; i < n; i++)
		if (rep[i].link == id)
			return &rep[i];
	return NULL;
}

/* Under m->fb_lock: a peer's reports @rep (@n of them) arrived; move the
 * paces of the links in @t.
 */
void stripe_share_adapt(struct stripe_master *m, struct stripe_table *t,
			const struct stripe_link_report *rep, int n, u64 now)
{
	u32 q[STRIPE_MAX_LINKS], count = 0, i, max = 0, pace;
	const struct stripe_link_report *r;
	bool pinned = false;
	struct stripe_link *link;
	s64 mean, over, step;
	u64 sum = 0;

	if (!t || now - m->share_at < STRIPE_SHARE_STEP_NS)
		return;
	m->share_at = now;
	for (i = 0; i < t->n; i++) {
		link = t->slot[i].link;
		pinned |= stripe_share_pinned(link);
		r = stripe_share_report(rep, n, link->id);
		q[i] = U32_MAX;
		if (!r || r->state != STRIPE_WIRE_LINK_DELIVERING ||
		    r->queue_us == STRIPE_WIRE_QUEUE_NONE ||
		    stripe_link_left(link))
			continue;
		WRITE_ONCE(link->queue_us, r->queue_us);
		q[i] = min_t(u32, r->queue_us, U32_MAX - 1);
		sum += q[i];
		count++;
	}
	if (count < 2)
		return;
	mean = div_u64(sum, count);	/* < 2^32 */
	for (i = 0; i < t->n; i++) {
		link = t->slot[i].link;
		if (q[i] == U32_MAX || stripe_share_pinned(link))
			continue;
		/* A link whose frames queue clearly longer than the others'
		 * is fed more than its path takes: its pace drops, by as
		 * much as it stands out.  Any other goes back towards all of
		 * its share, slowly: equal links stay equal (a pace moved by
		 * the noise of TCP's bursts makes them differ, and the
		 * receiver holds for the difference), and a path that got
		 * faster is tried again.
		 */
		pace = link->pace;
		over = q[i] - mean - STRIPE_SHARE_MARGIN_US - mean / 2;
		if (over > 0) {
			step = div64_s64(over * STRIPE_PACE_ONE,
					 8 * (mean + STRIPE_SHARE_FLOOR_US));
			step = min_t(s64, step, STRIPE_SHARE_MAX_STEP);
			pace = max_t(s64, pace - div_s64((s64)pace * step,
							 STRIPE_PACE_ONE),
				     STRIPE_PACE_MIN);
		} else {
			pace += DIV_ROUND_UP(STRIPE_PACE_ONE - pace,
					     STRIPE_SHARE_LEAK);
		}
		WRITE_ONCE(link->pace, pace);
		max = max(max, pace);
	}
	for (i = 0; !pinned && max && i < t->n; i++) {
		link = t->slot[i].link;
		if (q[i] == U32_MAX || stripe_share_pinned(link))
			continue;
		pace = div_u64((u64)link->pace * STRIPE_PACE_ONE, max);
		WRITE_ONCE(link->pace, clamp_t(u32, pace, STRIPE_PACE_MIN,
					       STRIPE_PACE_ONE));
	}
	stripe_share_apply(t);
}

/* Under RTNL: every link takes its weight's whole share again (reorder
 * turned off: no more reports; or on: start afresh)
 */
void stripe_share_reset(struct stripe_master *m)
{
	struct stripe_link *link;

	ASSERT_RTNL();
	spin_lock_bh(&m->fb_lock);
	list_for_each_entry(link, &m->links, node) {
		WRITE_ONCE(link->pace, STRIPE_PACE_ONE);
		WRITE_ONCE(link->queue_us, U32_MAX);
	}
	stripe_share_apply(rtnl_dereference(m->table));
	spin_unlock_bh(&m->fb_lock);
}
