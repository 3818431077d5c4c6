// SPDX-License-Identifier: GPL-2.0
/*
 * stripe: feedback -- the receiver tells each sender what its links
 * deliver, and the sender leaves a link its peer does not get.
 *
 * Receiving side: while a sender was heard within the last second, every
 * STRIPE_FEEDBACK_INTERVAL_MS a feedback frame goes to it on every link it
 * was heard on, to its address there.  Each carries a report of every one
 * of its links (reseq.c, stripe_reseq_feedback()), so a link cut both ways
 * is reported over the others.  A link is reported LOST when it delivered
 * nothing for STRIPE_FEEDBACK_LOST_MS while the sender's other links did:
 * the sender marks idle links every millisecond at most (marker.c), so a
 * working link is never that quiet while its sender is active.
 *
 * Sending side: a report of LOST takes the link out of rotation at once
 * (link->peer_lost; the transmit path leaves it and the marker timer only
 * probes it); reports of it delivering again, for STRIPE_FB_UP_NS, bring it
 * back.  That wait doubles for each loss that comes within
 * STRIPE_FB_CALM_NS of the link's return, so a flapping link stays out
 * rather than drag the stream through a loss every time it comes back.
 * Carrier loss still acts at once (link.c).
 *
 * On a link shared by several peers, while another peer gets what it
 * carries, a peer that reports it LOST for STRIPE_FB_SPACE_LOST_NS has it
 * left for its own next hop alone (m->tx_space[i].left, xmit.c; its port
 * on the link may be cut), probed there (marker.c), and back the same way.
 *
 * A link we send data on while no report at all comes back is left too
 * (stripe_feedback_unanswered()): a peer that hears us nowhere has nothing
 * to report with.
 *
 * Locking: m->fb_lock serialises the links' health (a few hundred feedback
 * frames a second, never a data frame).  link->peer_lost is read without
 * it.  The timer alone uses m->fb_msg (one timer never runs on two CPUs
 * at once); it takes rx->lock only to copy a sender's reports out.
 */
#include <linux/etherdevice.h>
#include <linux/pkt_sched.h>

#include "stripe.h"

#define STRIPE_FB_INTERVAL_NS	(STRIPE_FEEDBACK_INTERVAL_MS * NSEC_PER_MSEC)
#define STRIPE_FB_LOST_NS	(STRIPE_FEEDBACK_LOST_MS * NSEC_PER_MSEC)
/* Reports of delivering needed before a lost link is used again */
#define STRIPE_FB_UP_NS		(50 * NSEC_PER_MSEC)
/* ... doubled per loss soon after a return, up to 64 times (3.2 s) */
#define STRIPE_FB_FLAPS_MAX	6
#define STRIPE_FB_CALM_NS	(10ULL * NSEC_PER_SEC)
/* A link a peer used to report and no longer does: left after this long
 * (longer than any one-way delay it may take a link to first deliver)
 */
#define STRIPE_FB_OMIT_NS	(100 * NSEC_PER_MSEC)
/* Another peer's report of a link delivering counts this long (several
 * report intervals of a loaded machine); a peer alone in reporting it LOST
 * meanwhile has it left for itself after this long of such reports
 */
#define STRIPE_FB_OTHERS_NS	(100 * NSEC_PER_MSEC)
#define STRIPE_FB_SPACE_LOST_NS	(100 * NSEC_PER_MSEC)
/* A peer that reported on a link this recently is heard there (markers),
 * as long as one we send data to is talked to
 */
#define STRIPE_FB_PEER_NS	STRIPE_TALK_NS
/* Data sent on a link while no report came for this long reaches nobody:
 * fifty report intervals, beyond any stall of a working peer
 */
#define STRIPE_FB_UNANSWERED_NS	(500 * NSEC_PER_MSEC)

static struct sk_buff *stripe_fb_build(struct stripe_master *m,
				       struct net_device *dev,
				       const struct stripe_feedback_msg *msg,
				       const u8 *addr)
{
	struct stripe_wire_link_report *w;
	struct stripe_wire_feedback *fb;
	struct stripe_wire_hdr *h;
	unsigned int n = msg->n, len, i;
	struct sk_buff *skb;

	/* Every report fits in 1280 bytes; a smaller MTU carries fewer. */
	len = sizeof(*h) + sizeof(*fb);
	n = min_t(unsigned int, n, (dev->mtu - len) / sizeof(*w));
	len += n * sizeof(*w);
	skb = alloc_skb(LL_RESERVED_SPACE(dev) + len + dev->needed_tailroom,
			GFP_ATOMIC);
	if (!skb)
		return NULL;
	skb_reserve(skb, LL_RESERVED_SPACE(dev));
	skb_reset_network_header(skb);
	h = skb_put_zero(skb, len);
	skb->dev = dev;
	skb->protocol = htons(ETH_P_STRIPE);
	skb->priority = TC_PRIO_CONTROL;
	if (dev_hard_header(skb, dev, ETH_P_STRIPE, addr, NULL, len) < 0) {
		kfree_skb(skb);
		return NULL;
	}
	h->version = STRIPE_WIRE_VERSION;
	h->flags = STRIPE_WIRE_F_FEEDBACK;
	h->sender = htonl(m->sender_id);
	h->tstamp = htonl((u32)div_u64(ktime_get_real_ns(), NSEC_PER_USEC));
	fb = (void *)(h + 1);
	fb->peer = htonl(msg->peer);
	fb->n = n;
	w = (void *)(fb + 1);
	for (i = 0; i < n; i++, w++) {
		w->link = msg->report[i].link;
		w->state = msg->report[i].state;
		w->age_ms = htons(msg->report[i].age_ms);
		w->frames = htonl(msg->report[i].frames);
		w->bytes = htonl(msg->report[i].bytes);
		w->queue_us = htonl(msg->report[i].queue_us);
		w->lost = htonl(msg->report[i].lost);
	}
	return skb;
}

/* Send @msg on each of our links its sender was heard on */
static void stripe_fb_send(struct stripe_master *m,
			   const struct stripe_feedback_msg *msg)
{
	const struct stripe_table *t;
	struct sk_buff *skb;
	const u8 *addr;
	u32 i, sent = 0;

	rcu_read_lock_bh();
	t = rcu_dereference_bh(m->table);
	for (i = 0; t && i < t->n; i++) {
		struct stripe_link *link = t->slot[i].link;
		struct net_device *dev = link->dev;

		if (link->id >= STRIPE_RX_LINKS ||
		    !test_bit(link->id, msg->links) ||
		    !netif_running(dev) || !netif_carrier_ok(dev))
			continue;
		addr = msg->addr[link->id];
		if (dev->addr_len != ETH_ALEN || is_zero_ether_addr(addr))
			addr = dev->broadcast;
		skb = stripe_fb_build(m, dev, msg, addr);
		if (!skb)
			continue;
		dev_queue_xmit(skb);
		sent++;
	}
	rcu_read_unlock_bh();
	WRITE_ONCE(m->fb_tx, m->fb_tx + sent);
}

static enum hrtimer_restart stripe_fb_timer(struct hrtimer *timer)
{
	struct stripe_master *m = container_of(timer, struct stripe_master,
					       fb_timer);
	struct stripe_feedback_msg *msg = &m->fb_msg;
	u64 caught_up = stripe_rx_caught_up(m, ktime_get_ns());
	bool any = false, ok;
	u32 slot;

	for (slot = 0; slot < STRIPE_RX_SENDERS; slot++) {
		spin_lock(&m->rx.lock);
		slot = stripe_reseq_next_slot(&m->rx.reseq, slot);
		/* now under the lock: no frame taken is newer */
		ok = stripe_reseq_feedback(&m->rx.reseq, slot, ktime_get_ns(),
					   caught_up, STRIPE_FB_LOST_NS, msg);
		spin_unlock(&m->rx.lock);
		if (!ok)
			continue;
		any = true;
		stripe_fb_send(m, msg);
	}
	if (!any) {
		/* Every sender idle: the next frame that arrives restarts it */
		clear_bit(0, &m->fb_armed);
		return HRTIMER_NORESTART;
	}
	hrtimer_forward_now(timer, ns_to_ktime(STRIPE_FB_INTERVAL_NS));
	return HRTIMER_RESTART;
}

/* Did the peer report @link delivering lately?  Then its silence on the
 * link (rx_silent, marker.c) is a one-way loss towards us, not a reason to
 * stop sending on it.
 */
bool stripe_feedback_vouches(const struct stripe_link *link, u64 now)
{
	u64 at = READ_ONCE(link->fb_delivering_at);

	return at && now - at < STRIPE_FB_OMIT_NS;
}

/* Under fb_lock: a report about us came on @link from @addr */
static void stripe_fb_heard(struct stripe_link *link, const u8 *addr,
			    u64 now)
{
	struct stripe_peer_addr *p = link->fb_peer, *oldest = p;
	unsigned int i;

	for (i = 0; i < STRIPE_TX_PEERS; i++) {
		if (p[i].at && ether_addr_equal(p[i].addr, addr)) {
			WRITE_ONCE(p[i].at, now);
			return;
		}
		if (p[i].at < oldest->at)
			oldest = &p[i];
	}
	write_seqcount_begin(&link->fb_peer_seq);
	ether_addr_copy(oldest->addr, addr);
	oldest->at = now;
	write_seqcount_end(&link->fb_peer_seq);
}

/* Under fb_lock: did a report about us from @addr on @link count lately? */
static bool stripe_fb_reported(const struct stripe_link *link, const u8 *addr,
			       u64 now)
{
	const struct stripe_peer_addr *p = link->fb_peer;
	unsigned int i;

	for (i = 0; i < STRIPE_TX_PEERS; i++)
		if (p[i].at && now - p[i].at < STRIPE_FB_PEER_NS &&
		    ether_addr_equal(p[i].addr, addr))
			return true;
	return false;
}

/* Append to @dest (@n there, room for @max) the peers that reported on
 * @link lately and are not there yet: markers go to them (one frame to
 * each host that needs it, rather than one to every host on the segment).
 */
unsigned int stripe_feedback_peers(struct stripe_link *link, u64 now,
				   u8 dest[][ETH_ALEN], unsigned int n,
				   unsigned int max)
{
	unsigned int seq, i, j, have = n;

	do {
		seq = read_seqcount_begin(&link->fb_peer_seq);
		n = have;
		for (i = 0; i < STRIPE_TX_PEERS && n < max; i++) {
			const struct stripe_peer_addr *p = &link->fb_peer[i];
			u64 at = READ_ONCE(p->at);

			if (!at || now - at >= STRIPE_FB_PEER_NS)
				continue;
			for (j = 0; j < have; j++)
				if (ether_addr_equal(dest[j], p->addr))
					break;
			if (j == have)
				ether_addr_copy(dest[n++], p->addr);
		}
	} while (read_seqcount_retry(&link->fb_peer_seq, seq));
	return n;
}

/* A frame of a sender arrived: make sure its feedback runs. */
void stripe_feedback_arm(struct stripe_master *m)
{
	if (test_bit(0, &m->fb_armed) || test_and_set_bit(0, &m->fb_armed))
		return;
	hrtimer_start(&m->fb_timer, ns_to_ktime(STRIPE_FB_INTERVAL_NS),
		      HRTIMER_MODE_REL_SOFT);
}

static struct stripe_link *stripe_fb_link(const struct stripe_table *t, u8 id)
{
	u32 i;

	for (i = 0; t && i < t->n; i++)
		if (t->slot[i].link->id == id)
			return t->slot[i].link;
	return NULL;
}

/* The wait before a link left for one next hop, or for all, is used
 * again after the loss that came @flaps times soon after a return
 */
static u64 stripe_fb_up_ns(u32 flaps)
{
	return STRIPE_FB_UP_NS << flaps;
}

/* Under fb_lock: one more report of whether a link out of rotation (for
 * all, or for one next hop) delivers.  True once nothing but reports that
 * it does came for the wait.
 */
static bool stripe_fb_proven(u64 *good_since, u32 flaps, bool delivers,
			     u64 now)
{
	if (!delivers) {
		*good_since = 0;
		return false;
	}
	if (!*good_since)
		*good_since = now;
	return now - *good_since >= stripe_fb_up_ns(flaps);
}

/* The flaps of a link leaving again: one more if it came back (at
 * @up_at) within STRIPE_FB_CALM_NS, else none
 */
static u8 stripe_fb_flaps(u64 up_at, u8 flaps, u64 now)
{
	if (up_at && now - up_at < STRIPE_FB_CALM_NS)
		return min_t(u8, flaps + 1, STRIPE_FB_FLAPS_MAX);
	return 0;
}

/* Under fb_lock: what is sent on @link does not reach the peer (its
 * report, or no reply to probes, probe.c), which last got something
 * @after_ms ago: out of rotation.
 */
void stripe_feedback_leave(struct stripe_master *m, struct stripe_link *link,
			   u64 now, u32 after_ms, const char *why)
{
	link->fb_good_since = 0;
	if (link->peer_lost)
		return;
	link->fb_flaps = stripe_fb_flaps(link->fb_up_at, link->fb_flaps, now);
	WRITE_ONCE(link->peer_lost, true);
	WRITE_ONCE(link->fb_left_after_ms, after_ms);
	WRITE_ONCE(link->fb_left, link->fb_left + 1);
	stripe_link_state_changed(m);
	net_info_ratelimited("%s: link %s delivers nothing to the peer (%s): left\n",
			     m->dev->name, link->dev->name, why);
}

/* Under fb_lock: a report of the peer of fseq @space says @link is in
 * @state to it, while other peers get what the link carries.  A peer
 * that reports it LOST for STRIPE_FB_SPACE_LOST_NS in a row has it left
 * for its next hop alone: a link busy with the others' frames may carry
 * none to it for a report or two.  Reports of delivering bring it back
 * as stripe_feedback_evidence() does a whole link.
 */
static void stripe_fb_space_report(struct stripe_master *m,
				   struct stripe_link *link, int space,
				   u8 state, u64 now)
{
	struct stripe_space_fb *f = &link->fb_space[space];
	unsigned long *left = m->tx_space[space].left;

	if (state == STRIPE_WIRE_LINK_LOST) {
		f->good_since = 0;
		if (!f->lost_since)
			f->lost_since = now;
		if (test_bit(link->id, left) ||
		    now - f->lost_since < STRIPE_FB_SPACE_LOST_NS)
			return;
		f->flaps = stripe_fb_flaps(f->up_at, f->flaps, now);
		set_bit(link->id, left);
		WRITE_ONCE(m->fb_space_left, m->fb_space_left + 1);
		net_info_ratelimited("%s: link %s delivers nothing to one of its peers: left for it\n",
				     m->dev->name, link->dev->name);
		return;
	}
	f->lost_since = 0;
	if (!test_bit(link->id, left) ||
	    !stripe_fb_proven(&f->good_since, f->flaps,
			      state == STRIPE_WIRE_LINK_DELIVERING, now))
		return;
	clear_bit(link->id, left);
	f->up_at = now;
	WRITE_ONCE(m->fb_space_back, m->fb_space_back + 1);
}

/* Under fb_lock: does a peer other than @reporter get what @link
 * carries?  One reported so lately, or its last report said so and it
 * still reports.  Then the link works, and @reporter's loss is its own.
 */
static bool stripe_fb_others_get(const struct stripe_link *link,
				 u32 reporter, u64 now)
{
	const struct stripe_space_fb *f;
	unsigned int i;
	u64 at;

	at = link->fb_delivering_by != reporter ? link->fb_delivering_at :
						  link->fb_delivering_other_at;
	if (at && now - at < STRIPE_FB_OTHERS_NS)
		return true;
	for (i = 0; i < STRIPE_TX_SPACES; i++) {
		f = &link->fb_space[i];
		if (f->reporter != reporter && f->reported_at &&
		    f->delivering_at == f->reported_at &&
		    now - f->reported_at < STRIPE_FB_PEER_NS)
			return true;
	}
	return false;
}

/* Under fb_lock: what one report of @reporter, whose next hops have the
 * fseq @spaces (bits; none known: 0), says of one of our links
 */
static void stripe_fb_apply(struct stripe_master *m, struct stripe_link *link,
			    const struct stripe_link_report *rep, u32 reporter,
			    unsigned long spaces, u64 now)
{
	struct stripe_space_fb *f;
	unsigned int i;

	link->fb_reporter = reporter;
	link->fb_omitted_since = 0;
	WRITE_ONCE(link->fb_unanswered_since, 0);
	for_each_set_bit(i, &spaces, STRIPE_TX_SPACES) {
		f = &link->fb_space[i];
		f->reporter = reporter;
		f->reported_at = now;
		if (rep->state == STRIPE_WIRE_LINK_DELIVERING)
			f->delivering_at = now;
	}
	if (rep->state == STRIPE_WIRE_LINK_LOST &&
	    !stripe_fb_others_get(link, reporter, now)) {
		stripe_feedback_leave(m, link, now, rep->age_ms,
				      "the peer reports it lost");
		return;
	}
	/* The link works, for all but perhaps this peer, whose port on it
	 * may be cut.  (A peer whose next hops are not known has its frames
	 * on it go to the others for a while.)
	 */
	for_each_set_bit(i, &spaces, STRIPE_TX_SPACES)
		stripe_fb_space_report(m, link, i, rep->state, now);
	if (rep->state == STRIPE_WIRE_LINK_LOST)
		return;
	if (rep->state == STRIPE_WIRE_LINK_DELIVERING) {
		if (link->fb_delivering_by != reporter)
			link->fb_delivering_other_at = link->fb_delivering_at;
		WRITE_ONCE(link->fb_delivering_at, now);
		link->fb_delivering_by = reporter;
		/* The peer gets what we send on it: if we do not hear it
		 * there, that is its direction, which it leaves on our report
		 */
		if (READ_ONCE(link->rx_silent)) {
			WRITE_ONCE(link->rx_silent, false);
			stripe_link_state_changed(m);
		}
	}
	stripe_feedback_evidence(m, link,
				 rep->state == STRIPE_WIRE_LINK_DELIVERING, now);
}

/* Under fb_lock: a report (or a probe's reply, or its absence) that says
 * whether @link delivers.  A link out of rotation comes back after
 * STRIPE_FB_UP_NS (doubled per flap) of nothing but evidence that it does;
 * no evidence starts the wait again.
 */
void stripe_feedback_evidence(struct stripe_master *m,
			      struct stripe_link *link, bool delivers, u64 now)
{
	if (!link->peer_lost ||
	    !stripe_fb_proven(&link->fb_good_since, link->fb_flaps, delivers,
			      now))
		return;
	WRITE_ONCE(link->peer_lost, false);
	link->fb_up_at = now;
	WRITE_ONCE(link->fb_back, link->fb_back + 1);
	stripe_link_state_changed(m);
	net_info_ratelimited("%s: link %s delivers to the peer again: back\n",
			     m->dev->name, link->dev->name);
}

/* Under fb_lock: the links a report of @reporter does not mention.  A
 * receiver reports every link it ever heard the sender on, so a link it
 * used to mention and no longer does is one it has forgotten (the peer's
 * end of it left its master, or joined another): what is sent on it is
 * lost.  It is left once it has gone unmentioned for STRIPE_FB_OMIT_NS
 * while it kept sending.  Only a peer that mentioned the link before counts:
 * a peer that is not on it at all (other links, other segments) says
 * nothing about it.
 */
static void stripe_fb_omitted(struct stripe_master *m,
			      const struct stripe_table *t, u64 mentioned,
			      u32 reporter, u64 now)
{
	struct stripe_link *link;
	u32 i;

	for (i = 0; t && i < t->n; i++) {
		link = t->slot[i].link;
		if (link->id >= STRIPE_WIRE_LINKS ||
		    (mentioned & BIT_ULL(link->id)) ||
		    link->fb_reporter != reporter || link->peer_lost)
			continue;
		if (!link->fb_omitted_since) {
			link->fb_omitted_since = now;
			continue;
		}
		if (now - link->fb_omitted_since > STRIPE_FB_OMIT_NS &&
		    READ_ONCE(link->tx_last) > link->fb_omitted_since)
			stripe_feedback_leave(m, link, now,
					      div_u64(now - link->fb_omitted_since,
						      NSEC_PER_MSEC),
					      "the peer no longer mentions it");
	}
}

/* Does @link wait for a report (marker timer, reorder on)?  A peer that
 * gets what we send on a link reports on it every
 * STRIPE_FEEDBACK_INTERVAL_MS for a second after.  If no report came at all
 * for STRIPE_FB_UNANSWERED_NS since we began to send data there
 * (stripe_feedback_sent()), nobody gets it: the peer's end of the link left
 * its master, or the link is cut one way, and the peer, hearing from us
 * nowhere else, has nothing to report.  Left: the markers probe it, and the
 * peer's reports bring it back.  After a stall of the machine (@stalled)
 * the wait starts again.
 */
bool stripe_feedback_unanswered(struct stripe_master *m,
				struct stripe_link *link, u64 now, bool stalled)
{
	u64 since = READ_ONCE(link->fb_unanswered_since);

	if (!since || READ_ONCE(link->peer_lost))
		return false;
	if (stalled) {
		/* We (and so perhaps the peer) did not run: wait afresh */
		WRITE_ONCE(link->fb_unanswered_since, now);
		return true;
	}
	/* Signed: the transmit path may have set it after our @now */
	if ((s64)(now - since) < (s64)STRIPE_FB_UNANSWERED_NS)
		return true;
	spin_lock(&m->fb_lock);
	/* A peer that reports on other links and never mentioned this one
	 * may not be on it at all, or heard our first frames before it had
	 * room for us: no reason to leave it (one that stops mentioning it
	 * is, stripe_fb_omitted()).  The wait starts again with the next
	 * frame.
	 */
	if (link->fb_unanswered_since == since) {
		if (m->fb_rx_at < since)
			stripe_feedback_leave(m, link, now,
					      div_u64(now - since, NSEC_PER_MSEC),
					      "no report of it");
		else
			WRITE_ONCE(link->fb_unanswered_since, 0);
	}
	spin_unlock(&m->fb_lock);
	return false;
}

/* Under fb_lock: do we talk to the peer @id, whose report came from where
 * we sent data (@sent; to the next hops of fseq *@spaces there, if known)
 * or, through another of its links, lately did?  A flow pinned to one link
 * (stripe-min) sends the peer data there alone; its reports come on every
 * link.  *@spaces become the peer's spaces as far as known.
 */
static bool stripe_fb_talking(struct stripe_master *m, u32 id, bool sent,
			      unsigned long *spaces, u64 now)
{
	struct stripe_fb_talk *t = m->fb_talk, *oldest = t;
	unsigned int i;

	for (i = 0; i < STRIPE_TX_PEERS; i++) {
		if (t[i].at && t[i].id == id) {
			if (sent)
				t[i].at = now;
			if (*spaces)
				t[i].spaces = *spaces;
			*spaces = t[i].spaces;
			return sent || now - t[i].at < STRIPE_FB_PEER_NS;
		}
		if (t[i].at < oldest->at)
			oldest = &t[i];
	}
	if (sent) {
		oldest->id = id;
		oldest->spaces = *spaces;
		oldest->at = now;
	}
	return sent;
}

/* A feedback frame arrived on @link (header checked, @wi), @bound: from
 * the address its reporter's data comes from here (rx.c, which dropped it
 * if from another); consumes @skb
 */
void stripe_feedback_rx(struct stripe_master *m, struct stripe_link *link,
			struct sk_buff *skb, const struct stripe_wire_info *wi,
			bool bound)
{
	const unsigned int hlen = sizeof(struct stripe_wire_hdr);
	struct stripe_link_report *rep = m->fb_rep;
	bool sent, sent_here;
	unsigned long spaces;
	struct stripe_table *t;
	struct stripe_link *l;
	u64 mentioned = 0;
	const u8 *src;
	u64 now;
	u32 peer;
	int n, i;

	n = -EINVAL;
	if (pskb_may_pull(skb, skb->len))
		n = stripe_wire_check_feedback(skb->data + hlen,
					       skb->len - hlen, &peer);
	if (n < 0) {
		stripe_rx_count_malformed(m);
		goto out;
	}
	if (peer != m->sender_id) {
		/* About another master on a shared link, or made up */
		WRITE_ONCE(m->fb_rx_other, m->fb_rx_other + 1);
		goto out;
	}
	now = ktime_get_ns();
	src = eth_hdr(skb)->h_source;	/* after the pull: it may move */
	/* A peer we send data to here, or one that sends us data: the
	 * peer whose links we all left sends on them, and only learns
	 * from our reports that they deliver (data to it goes on a link
	 * it left, that carries nothing, or on none)
	 */
	sent_here = stripe_marker_sent_to(link, src, now, &spaces);
	sent = sent_here || stripe_rx_sends_data(m, wi->sender, now);
	spin_lock(&m->fb_lock);
	/* A host on the segment may name any id: a reporter whose data does
	 * not come from here counts only from an address we send data to
	 * here, or whose reports counted here lately (a peer whose flow
	 * moved off the link still reports on it)
	 */
	if (!bound && !sent_here && !stripe_fb_reported(link, src, now)) {
		WRITE_ONCE(m->fb_rx_unknown, m->fb_rx_unknown + 1);
		spin_unlock(&m->fb_lock);
		goto out;
	}
	if (!stripe_fb_talking(m, wi->sender, sent, &spaces, now)) {
		/* A host we exchange no data with (it heard a probe, or a
		 * multicast frame) reports links "lost" that simply carry
		 * nothing to it: believed, it would take them from the peers
		 * we do talk to, and make our markers broadcast.
		 */
		WRITE_ONCE(m->fb_rx_unsent, m->fb_rx_unsent + 1);
		spin_unlock(&m->fb_lock);
		goto out;
	}
	WRITE_ONCE(m->fb_rx, m->fb_rx + 1);
	m->fb_rx_at = now;
	stripe_fb_heard(link, src, now);
	stripe_wire_read_feedback(skb->data + hlen, rep);
	t = rcu_dereference(m->table);	/* rx handler: rcu_read_lock() */
	for (i = 0; i < n; i++) {
		mentioned |= BIT_ULL(rep[i].link);
		l = stripe_fb_link(t, rep[i].link);
		if (l)
			stripe_fb_apply(m, l, &rep[i], wi->sender, spaces, now);
	}
	stripe_fb_omitted(m, t, mentioned, wi->sender, now);
	stripe_share_adapt(m, t, rep, n, wi->sender, now);
	spin_unlock(&m->fb_lock);
out:
	consume_skb(skb);
}

void stripe_feedback_init(struct stripe_master *m)
{
	spin_lock_init(&m->fb_lock);
	hrtimer_init(&m->fb_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_SOFT);
	m->fb_timer.function = stripe_fb_timer;
}

void stripe_feedback_stop(struct stripe_master *m)
{
	hrtimer_cancel(&m->fb_timer);
}
