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
 * link's queueing delay, the bytes it delivered and the frames it lost
 * (reseq.c, feedback.c).  Each link whose weight was not typed has a pace:
 * the part of its weight's share it takes, in 1/STRIPE_PACE_ONE.  On each
 * report, a link whose frames queue clearly longer than the mean of the
 * links' (by 2 ms and half the mean) is cut, to its part of what the links
 * deliver when it delivers clearly less than it is fed (stripe_share_cut);
 * a link that loses frames goes to the least pace (stripe_share_lossy);
 * every other link's pace goes back towards all of its share, a 64th at a
 * time.  A link whose queue stands out by more than twice hold-max (the
 * receiver's longest hold) drains: next to no data until it no longer
 * stands out (stripe_share_draining).  Equal links stay equal: a
 * controller that chased every difference (up as well as down) moved paces
 * by the noise of TCP's bursts, which made equal links queue apart by 10 ms
 * and more, and the receiver held for it.
 * A typed weight is the user's and is not moved (its link still counts in
 * the mean and the rates).  With no weight typed the paces are scaled so
 * the largest is STRIPE_PACE_ONE.
 *
 * Locking: paces are written by feedback under m->fb_lock.  The shares of
 * the table in force are updated in place with WRITE_ONCE and read by the
 * transmit path with READ_ONCE: a share of this report or the last, either
 * is fine.  A table built under RTNL takes the paces as they are.
 */
#include "stripe.h"

/* The least pace: a link whose path takes 1/64 of its weight's share */
#define STRIPE_PACE_MIN		(STRIPE_PACE_ONE / 64)
/* The pace of a lossy link: next to nothing but its markers (each frame it
 * loses halves one TCP stream's window)
 */
#define STRIPE_PACE_LOSSY	1
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
/* A delivered rate takes each step's bytes in by this shift (half) */
#define STRIPE_SHARE_RATE_SHIFT	1
/* Less than this delivered per step tells no rates apart */
#define STRIPE_SHARE_RATES_MIN	(8 * ETH_DATA_LEN)
/* A queue that stands out is drained in about this long */
#define STRIPE_SHARE_DRAIN_US	100000
/* Loss is judged over windows of this many frames sent on the link ... */
#define STRIPE_SHARE_LOSS_WINDOW	64
/* ... a window's loss stands out when it is more than twice the other
 * links' over the same time and more than this (1/65536: about 0.1 %) ...
 */
#define STRIPE_SHARE_LOSS_FLOOR		64
/* ... a link whose loss stood out in 4 of its last 16 windows ... */
#define STRIPE_SHARE_LOSSY_WINDOWS	4
/* ... and whose loss over about its last 32 windows (averaged by this
 * shift) was more than twice the other links' over the same time and more
 * than this (about 0.4 %) ...
 */
#define STRIPE_SHARE_LOSS_AVG_SHIFT	5
#define STRIPE_SHARE_LOSS_AVG_FLOOR	262
/* (the average counts once it has this many windows) */
#define STRIPE_SHARE_LOSS_AVG_MIN	4
/* ... at the end of 6 windows in a row is lossy ... */
#define STRIPE_SHARE_LOSSY_STREAK	6
/* ... and kept at STRIPE_PACE_LOSSY for this long after */
#define STRIPE_SHARE_LOSSY_NS	(2000ULL * NSEC_PER_MSEC)

static bool stripe_share_pinned(const struct stripe_link *link)
{
	return READ_ONCE(link->weight) != 0;
}

/* The part of its weight's share @link takes now: all of it if pinned,
 * next to nothing while its queue drains
 */
u32 stripe_link_pace(const struct stripe_link *link)
{
	if (stripe_share_pinned(link))
		return STRIPE_PACE_ONE;
	if (READ_ONCE(link->draining))
		return STRIPE_PACE_LOSSY;
	return READ_ONCE(link->pace);
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

/* Under m->fb_lock: take the bytes each link of @t delivered since the last
 * step (the peer's counters in @rep) into its delivered rate.  Returns the
 * sum of the rates of the links in rotation with a report, and their
 * shares' sum in @shares; 0 when the last step's counters were another
 * peer's (nothing to compare with).
 */
static u64 stripe_share_rates(struct stripe_table *t,
			      const struct stripe_link_report *rep, int n,
			      bool same, u64 *shares)
{
	const struct stripe_link_report *r;
	struct stripe_link *link;
	u64 rates = 0;
	u32 i, delta;

	*shares = 0;
	for (i = 0; i < t->n; i++) {
		link = t->slot[i].link;
		r = stripe_share_report(rep, n, link->id);
		if (!r)
			continue;
		delta = r->bytes - link->share_bytes;
		link->share_bytes = r->bytes;
		/* A counter that went back started afresh (the peer forgot
		 * the link): no sample this time
		 */
		if (!same || (s32)delta < 0)
			continue;
		link->share_rate += (delta >> STRIPE_SHARE_RATE_SHIFT) -
				    (link->share_rate >> STRIPE_SHARE_RATE_SHIFT);
		if (stripe_link_left(link))
			continue;
		rates += link->share_rate;
		*shares += READ_ONCE(t->slot[i].share);
	}
	return same ? rates : 0;
}

/* @lost of @sent in 1/65536 (@sent: 0 is none lost) */
static u64 stripe_share_loss_ratio(u64 lost, u64 sent)
{
	return sent ? div64_u64(lost << 16, sent) : 0;
}

/* Under m->fb_lock: take the peer's report @r of @link's losses (@same: the
 * peer whose report came last); true once STRIPE_SHARE_LOSS_WINDOW frames
 * were sent on it since the last window, which then goes in link->loss_win.
 * The peer counts only the frames sent to it (each destination has its own
 * lseq on a link); sent counts the link's frames to every peer.  More than
 * a quarter lost is no loss rule's business (a black hole: failover): it
 * counts as none.  Each window ended goes into the master's counts of every link
 * (m->loss_all): what the other links sent and lost since this link's last
 * window ended is the difference, less this link's own.
 */
static bool stripe_share_loss_window(struct stripe_master *m,
				     struct stripe_link *link,
				     const struct stripe_link_report *r,
				     bool same)
{
	u32 sent = READ_ONCE(link->tx_frames) - link->loss_sent;
	u32 lost = r->lost - link->loss_lost;
	struct stripe_loss_count *w = &link->loss_win;

	if (same && sent < STRIPE_SHARE_LOSS_WINDOW)
		return false;
	link->loss_sent += sent;
	link->loss_lost = r->lost;
	if (!same || lost > sent / 4)
		lost = 0;
	WRITE_ONCE(link->frames_lost, link->frames_lost + lost);
	w->sent = sent;
	w->lost = lost;
	w->other_sent = m->loss_all.sent - link->loss_all_at.sent;
	w->other_lost = m->loss_all.lost - link->loss_all_at.lost;
	m->loss_all.sent += sent;
	m->loss_all.lost += lost;
	link->loss_all_at = m->loss_all;
	return same;
}

/* @avg moves 1/2^STRIPE_SHARE_LOSS_AVG_SHIFT of the way to @v (both in
 * 1/256 of a frame)
 */
static void stripe_share_loss_avg(u64 *avg, u64 v)
{
	*avg = *avg - (*avg >> STRIPE_SHARE_LOSS_AVG_SHIFT) +
	       ((v << 8) >> STRIPE_SHARE_LOSS_AVG_SHIFT);
}

/* Under m->fb_lock: a loss window of @link just ended (link->loss_win).  A
 * link is lossy -- STRIPE_PACE_LOSSY for STRIPE_SHARE_LOSSY_NS -- when its
 * loss stands out of the other links' over the same time twice over: in 4
 * of its last 16 windows (random loss goes on; a queue that overflowed once
 * drops a burst, in a window or two), and in its loss over about its last
 * 32 windows at 6 window ends in a row (frames that every link loses now and
 * then -- a busy receiver's backlog -- put a frame or two in a window of 64
 * of any link: about a window in five at 0.4 %, against which a rule of
 * windows alone took healthy links for lossy within seconds).  One TCP
 * stream slows down with the loss of the whole bundle (for 600 Mbit/s at
 * 20 ms one loss in some 10^5 frames at most): a link that loses 1 % costs
 * more than it carries (0.2 % on one link of six halves it).  A lossy link
 * carries its markers and next to no data (STRIPE_PACE_LOSSY): it is judged
 * again and again, and comes back once it no longer loses.
 */
static void stripe_share_lossy(struct stripe_link *link, u64 now)
{
	const struct stripe_loss_count *w = &link->loss_win;
	struct stripe_loss_count *a = &link->loss_avg;
	u64 own, other;
	bool stands;

	own = stripe_share_loss_ratio(w->lost, w->sent);
	other = stripe_share_loss_ratio(w->other_lost, w->other_sent);
	stands = own > 2 * other + STRIPE_SHARE_LOSS_FLOOR;
	link->loss_windows = link->loss_windows << 1 | stands;

	stripe_share_loss_avg(&a->sent, w->sent);
	stripe_share_loss_avg(&a->lost, w->lost);
	stripe_share_loss_avg(&a->other_sent, w->other_sent);
	stripe_share_loss_avg(&a->other_lost, w->other_lost);
	own = stripe_share_loss_ratio(a->lost, a->sent);
	other = stripe_share_loss_ratio(a->other_lost, a->other_sent);
	if (link->loss_seen < STRIPE_SHARE_LOSS_AVG_MIN)
		link->loss_seen++;	/* the average has a few windows */
	else if (own > 2 * other + STRIPE_SHARE_LOSS_AVG_FLOOR)
		link->loss_streak = min(link->loss_streak + 1, U8_MAX);
	else
		link->loss_streak = 0;
	if (hweight16(link->loss_windows) >= STRIPE_SHARE_LOSSY_WINDOWS &&
	    link->loss_streak >= STRIPE_SHARE_LOSSY_STREAK)
		link->lossy_until = now + STRIPE_SHARE_LOSSY_NS;
}

/* The pace of @slot, whose frames queue @over_us longer than they should.
 * A link that queues may be fed more than its path takes; its path then
 * delivers all it takes, and its part of what the links deliver (@rates in
 * all; its part of what is sent is its share of @shares) is the part of
 * what is sent it should get.  When it delivers clearly less than it is
 * fed, its pace goes there at once, less what drains the queue soon, and
 * never up: a pace that kept falling until the queue had drained would
 * fall far below the path's rate (a queue of a path slowed to a quarter
 * can take a second to drain).  While it delivers clearly more than it is
 * fed its queue is draining: the pace stays.  Otherwise (equal links whose
 * queues differ by TCP's bursts, or no rates to go by) the pace drops by as
 * much as the queue stands out, at most STRIPE_SHARE_MAX_STEP a report.
 */
static u32 stripe_share_cut(const struct stripe_slot *slot, u32 pace,
			    s64 over_us, s64 mean_us, u64 rates, u64 shares)
{
	u64 fed, delivered, target;
	s64 step;

	fed = shares ? div64_u64((u64)READ_ONCE(slot->share) << 16, shares) : 0;
	if (rates >= STRIPE_SHARE_RATES_MIN && fed) {
		delivered = div64_u64((u64)slot->link->share_rate << 16, rates);
		if (delivered * 8 > fed * 9)
			return pace;
		if (delivered * 8 < fed * 7) {
			target = div64_u64((u64)pace * delivered, fed);
			target = max(div64_u64(target * STRIPE_SHARE_DRAIN_US,
					       over_us + STRIPE_SHARE_DRAIN_US),
				     target / 4);
			return clamp_t(u64, target, STRIPE_PACE_MIN, pace);
		}
	}
	step = div64_s64(over_us * STRIPE_PACE_ONE,
			 8 * (mean_us + STRIPE_SHARE_FLOOR_US));
	step = min_t(s64, step, STRIPE_SHARE_MAX_STEP);
	return max_t(s64, pace - div_s64((s64)pace * step, STRIPE_PACE_ONE),
		     STRIPE_PACE_MIN);
}

/* Under m->fb_lock: whether @link, whose frames queue @over_us longer than
 * they should (stripe_share_adapt), drains.  Beyond the receiver's hold
 * (hold-max: the same on both ends, as the user configures them) every
 * frame sent on it is released out of order: for one TCP stream a spurious
 * retransmit at best, and a retransmit sent on the same queue is late
 * again, which ends in timeouts (a path slowed to a quarter under 300
 * frames in flight: 400 ms of queue while its pace was cut, the stream at
 * 1 to 40 Mbit/s for a second and a half).  Such a link takes next to no
 * data (its markers still measure the queue) until its queue no longer
 * stands out; its pace is kept for then.  It takes twice the hold
 * (@room_us) to start: the queues of equal links differ by TCP's bursts,
 * by some ms.
 */
static bool stripe_share_draining(const struct stripe_link *link,
				  s64 over_us, u32 room_us)
{
	return link->draining ? over_us > 0 : over_us > room_us;
}

/* Twice the receiver's hold: a queue that stands out by this much drains,
 * and a link that queues less has room for more
 */
static u32 stripe_share_room_us(struct stripe_master *m)
{
	return 2 * max_t(u32, READ_ONCE(m->cfg.hold_max_us),
			 STRIPE_SHARE_MARGIN_US);
}

/* Under m->fb_lock: whether the links of @t other than @skip that carry
 * their share (reported queue @q, neither lossy nor draining) have room for
 * more: the least of their queues is short.  A link judged lossy gives
 * its share to them; when every one of them queues, the bundle is fed more
 * than it takes (one UDP flow near the links' rate, a burst): each link
 * then loses frames off its full queue now and then, the others as much as
 * it, and a cut would only move the overflow to them.  Judged lossy in
 * turn, link after link, one UDP flow at 95 % of six links went to one
 * link and delivered nothing for seconds (issue 27).  (A TCP stream over
 * a link that loses 1 % keeps the queues short: the rule still acts.)
 */
static bool stripe_share_room(const struct stripe_table *t, const u32 *q,
			      u32 skip, u32 room_us, u64 now)
{
	const struct stripe_link *link;
	u32 i;

	for (i = 0; i < t->n; i++) {
		link = t->slot[i].link;
		if (i == skip || q[i] == U32_MAX || link->draining ||
		    time_before64(now, link->lossy_until))
			continue;
		if (q[i] < room_us)
			return true;
	}
	return false;
}

/* Under m->fb_lock: reports @rep (@n of them) of the peer @reporter
 * arrived; move the paces of the links in @t.
 */
void stripe_share_adapt(struct stripe_master *m, struct stripe_table *t,
			const struct stripe_link_report *rep, int n,
			u32 reporter, u64 now)
{
	u32 *q = m->share_q, count = 0, i, max = 0, pace, room_us;
	const struct stripe_link_report *r;
	u64 sum = 0, rates, shares, ended = 0;
	struct stripe_link *link;
	bool pinned = false, same;
	s64 mean, over;

	if (!t || now - m->share_at < STRIPE_SHARE_STEP_NS)
		return;
	m->share_at = now;
	room_us = stripe_share_room_us(m);
	same = m->share_reporter == reporter;
	m->share_reporter = reporter;
	rates = stripe_share_rates(t, rep, n, same, &shares);
	for (i = 0; i < t->n; i++) {
		link = t->slot[i].link;
		pinned |= stripe_share_pinned(link);
		r = stripe_share_report(rep, n, link->id);
		if (r && stripe_share_loss_window(m, link, r, same))
			ended |= BIT_ULL(i);
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
	/* A loss window that ended while the other links had no room is
	 * the bundle's overflow, not this link's: it is not judged
	 */
	for (i = 0; i < t->n; i++)
		if ((ended & BIT_ULL(i)) &&
		    stripe_share_room(t, q, i, room_us, now))
			stripe_share_lossy(t->slot[i].link, now);
	/* Nothing to compare with: every link as it was (a stalled stream
	 * leaves the links some reports without a frame: a drain cleared
	 * then fed the queue again)
	 */
	if (count < 2)
		return;
	mean = div_u64(sum, count);	/* < 2^32 */
	for (i = 0; i < t->n; i++) {
		link = t->slot[i].link;
		if (q[i] == U32_MAX || stripe_share_pinned(link)) {
			/* no report this time: as it was, unless gone */
			if (stripe_link_left(link) || stripe_share_pinned(link))
				WRITE_ONCE(link->draining, false);
			continue;
		}
		/* A link whose frames queue clearly longer than the others'
		 * is fed more than its path takes: its pace drops.  Any
		 * other goes back towards all of its share, slowly: equal
		 * links stay equal (a pace moved by the noise of TCP's
		 * bursts makes them differ, and the receiver holds for the
		 * difference), and a path that got faster is tried again.
		 */
		pace = link->pace;
		over = q[i] - mean - STRIPE_SHARE_MARGIN_US - mean / 2;
		WRITE_ONCE(link->draining,
			   stripe_share_draining(link, over, room_us));
		if (time_before64(now, link->lossy_until))
			pace = STRIPE_PACE_LOSSY;
		else if (over > 0)
			pace = stripe_share_cut(&t->slot[i], pace, over, mean,
						rates, shares);
		else
			pace += DIV_ROUND_UP(min(STRIPE_PACE_ONE - pace, pace),
					     STRIPE_SHARE_LEAK);
		WRITE_ONCE(link->pace, pace);
		max = max(max, pace);
	}
	for (i = 0; !pinned && max && i < t->n; i++) {
		link = t->slot[i].link;
		if (q[i] == U32_MAX || stripe_share_pinned(link))
			continue;
		pace = div_u64((u64)link->pace * STRIPE_PACE_ONE, max);
		WRITE_ONCE(link->pace,
			   clamp_t(u32, pace,
				   time_before64(now, link->lossy_until) ?
				   STRIPE_PACE_LOSSY : STRIPE_PACE_MIN,
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
		link->share_rate = 0;
		link->lossy_until = 0;
		WRITE_ONCE(link->draining, false);
		link->loss_windows = 0;
		link->loss_seen = 0;
		link->loss_streak = 0;
		memset(&link->loss_avg, 0, sizeof(link->loss_avg));
	}
	stripe_share_apply(rtnl_dereference(m->table));
	spin_unlock_bh(&m->fb_lock);
}
