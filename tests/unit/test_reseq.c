// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of the resequencer, kernel/reseq.c built unchanged
 * against a small shim of the kernel API.  Each case plays frames as links
 * would deliver them and checks what goes up, in which order, and the
 * counters.  Output is TAP.
 */
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"

#define US 1000ULL
#define MS 1000000ULL

static int tests, failures;

static void check(bool ok, const char *what)
{
	tests++;
	if (!ok)
		failures++;
	printf("%sok %d - %s\n", ok ? "" : "not ", tests, what);
}

static const struct stripe_reseq_cfg cfg = {
	.hold_ns = 50 * MS,
	.silent_ns = 50 * MS,
	.flow_limit = 8,
	.buffer_limit = 12,
	.memory_limit = 1U << 30,
};

static struct stripe_reseq r;

#define TAG(flow, fseq) ((u64)(flow) << 32 | (fseq))

static void data(u32 link, u32 sender, u16 flow, u32 gseq, u32 fseq, u64 now)
{
	struct stripe_wire_hdr h = wire_hdr(sender, flow, gseq, fseq, false);

	assert(!feed(&r, &cfg, link, &h, sizeof(h), TAG(flow, fseq), now, 100));
}

static void marker(u32 link, u32 sender, u32 gseq, u64 now)
{
	struct stripe_wire_hdr h = wire_hdr(sender, 0, gseq, 0, true);

	assert(!feed(&r, &cfg, link, &h, sizeof(h), 0, now, 100));
}

/* Take what went up; true if it is exactly @n tags, in this order. */
static bool out_is(unsigned int n, const u64 *want)
{
	bool ok = skb_queue_len(&r.out) == n;
	struct sk_buff *skb;
	unsigned int i = 0;

	while ((skb = __skb_dequeue(&r.out))) {
		if (i >= n || skb->tag != want[i])
			ok = false;
		i++;
		kfree_skb(skb);
	}
	return ok;
}

#define OUT(...) out_is(sizeof((u64[]){ __VA_ARGS__ }) / sizeof(u64), \
			(u64[]){ __VA_ARGS__ })
#define NOTHING_OUT() out_is(0, NULL)

static void start(void)
{
	stripe_reseq_destroy(&r);
	stripe_reseq_init(&r);
	fill_pool(&r);
}

static void test_parse(void)
{
	struct stripe_wire_hdr h = wire_hdr(7, 3, 10, 20, false);
	struct stripe_wire_info wi;

	check(!stripe_wire_parse(&h, sizeof(h), &wi) && wi.sender == 7 &&
	      wi.flow == 3 && wi.gseq == 10 && wi.fseq == 20,
	      "parse: a good header is read in host order");
	check(stripe_wire_parse(&h, sizeof(h) - 1, &wi) == -EINVAL,
	      "parse: a short header is refused");
	h.version = STRIPE_WIRE_VERSION + 1;
	check(stripe_wire_parse(&h, sizeof(h), &wi) == -EINVAL,
	      "parse: another version is refused");
	h.version = 1;
	check(stripe_wire_parse(&h, sizeof(h), &wi) == -EINVAL,
	      "parse: version 1 (no link id) is refused");
	h = wire_hdr(7, 3, 10, 20, false);
	h.link = 9;
	check(!stripe_wire_parse(&h, sizeof(h), &wi) && wi.link == 9,
	      "parse: the sender's link id is read");
	h.link = STRIPE_WIRE_LINKS;
	check(stripe_wire_parse(&h, sizeof(h), &wi) == -EINVAL,
	      "parse: a link id out of range is refused");
	h = wire_hdr(7, STRIPE_FLOW_BUCKETS, 1, 1, false);
	check(stripe_wire_parse(&h, sizeof(h), &wi) == -EINVAL,
	      "parse: a flow bucket out of range is refused");
	h = wire_hdr(7, 1, 1, 1, false);
	h.proto = htons(0x0806);
	check(stripe_wire_parse(&h, sizeof(h), &wi) == -EINVAL,
	      "parse: a packet that is not IP is refused");
	h = wire_hdr(7, 0, 1, 0, true);
	check(!stripe_wire_parse(&h, sizeof(h), &wi),
	      "parse: a marker is accepted");
	h.fseq = htonl(5);
	check(stripe_wire_parse(&h, sizeof(h), &wi) == -EINVAL,
	      "parse: a marker with a flow sequence is refused");
}

/* A feedback frame's body: @n reports, link i+1, state @state */
static unsigned int fb_body(u8 *buf, u32 peer, unsigned int n, u8 state)
{
	struct stripe_wire_feedback *fb = (void *)buf;
	struct stripe_wire_link_report *w = (void *)(fb + 1);
	unsigned int i;

	memset(fb, 0, sizeof(*fb));
	fb->peer = htonl(peer);
	fb->n = n;
	for (i = 0; i < n && i < STRIPE_WIRE_LINKS; i++, w++) {
		memset(w, 0, sizeof(*w));
		w->link = i + 1;
		w->state = state;
		w->age_ms = htons(7);
		w->frames = htonl(1000 + i);
		w->queue_us = htonl(300 + i);
		w->lost = htonl(20 + i);
	}
	return sizeof(*fb) + n * sizeof(*w);
}

static void test_parse_feedback(void)
{
	struct stripe_link_report rep[STRIPE_WIRE_LINKS];
	struct stripe_wire_hdr h = wire_hdr(7, 0, 0, 0, true);
	u8 buf[sizeof(struct stripe_wire_feedback) +
	       (STRIPE_WIRE_LINKS + 1) * sizeof(struct stripe_wire_link_report)];
	struct stripe_wire_info wi;
	unsigned int len;
	u32 peer = 0;

	h.flags = STRIPE_WIRE_F_FEEDBACK;
	check(!stripe_wire_parse(&h, sizeof(h), &wi),
	      "feedback: a feedback header is accepted");
	h.gseq = htonl(3);
	check(stripe_wire_parse(&h, sizeof(h), &wi) == -EINVAL,
	      "feedback: ... not with a sequence number");
	h.gseq = 0;
	h.flags |= STRIPE_WIRE_F_MARKER;
	check(stripe_wire_parse(&h, sizeof(h), &wi) == -EINVAL,
	      "feedback: ... nor as a marker too");

	len = fb_body(buf, 42, 2, STRIPE_WIRE_LINK_LOST);
	check(stripe_wire_parse_feedback(buf, len, &peer, rep) == 2 &&
	      peer == 42 && rep[0].link == 1 && rep[1].link == 2 &&
	      rep[1].state == STRIPE_WIRE_LINK_LOST && rep[1].age_ms == 7 &&
	      rep[1].frames == 1001 && rep[1].queue_us == 301 &&
	      rep[1].lost == 21,
	      "feedback: two reports read in host order");
	memset(rep, 0, sizeof(rep));
	peer = 0;
	check(stripe_wire_check_feedback(buf, len, &peer) == 2 && peer == 42 &&
	      rep[0].link == 0 && rep[1].frames == 0,
	      "feedback: the check alone reads the peer, not the reports");
	check(stripe_wire_read_feedback(buf, rep) == 2 && rep[1].link == 2 &&
	      rep[1].frames == 1001 && rep[1].lost == 21,
	      "feedback: ... which are read once it passed");
	check(stripe_wire_parse_feedback(buf, len - 1, &peer, rep) == -EINVAL,
	      "feedback: a report cut short is refused");
	check(stripe_wire_check_feedback(buf, len - 1, &peer) == -EINVAL,
	      "feedback: ... by the check alone too");
	len = fb_body(buf, 42, STRIPE_WIRE_LINKS + 1, STRIPE_WIRE_LINK_LOST);
	check(stripe_wire_parse_feedback(buf, len, &peer, rep) == -EINVAL,
	      "feedback: more reports than links is refused");
	len = fb_body(buf, 42, 1, STRIPE_WIRE_LINK_UNKNOWN + 1);
	check(stripe_wire_parse_feedback(buf, len, &peer, rep) == -EINVAL,
	      "feedback: an unknown link state is refused");
	len = fb_body(buf, 42, 1, 0);
	check(stripe_wire_parse_feedback(buf, len, &peer, rep) == -EINVAL,
	      "feedback: ... so is state 0");
	len = fb_body(buf, 42, STRIPE_WIRE_LINKS, STRIPE_WIRE_LINK_DELIVERING);
	check(stripe_wire_parse_feedback(buf, len, &peer, rep) == -EINVAL,
	      "feedback: a link id out of range is refused");
	check(stripe_wire_check_feedback(buf, len, &peer) == -EINVAL,
	      "feedback: ... by the check alone too");
}

/* A frame with the sender's link id @wlink, a probe if @probe */
static void frame_on(u32 link, u8 wlink, u32 gseq, u64 now, bool probe)
{
	struct stripe_wire_hdr h = wire_hdr(5, 1, gseq, gseq, probe);

	h.link = wlink;
	if (probe)
		h.flags |= STRIPE_WIRE_F_PROBE;
	assert(!feed(&r, &cfg, link, &h, sizeof(h), TAG(1, gseq), now, 100));
	while ((skb_queue_len(&r.out)))
		kfree_skb(__skb_dequeue(&r.out));
}

/* A fresh receiver that heard sender 5 at @t on local links 0, 1, 2 (its
 * links 10, 11, 12): the next gseq
 */
static u32 start_three_links(u64 t)
{
	start();
	frame_on(0, 10, 1, t, false);
	frame_on(1, 11, 2, t, false);
	frame_on(2, 12, 3, t, false);
	return 4;
}

static const struct stripe_link_report *report_of(
	const struct stripe_feedback_msg *msg, u8 wlink)
{
	unsigned int i;

	for (i = 0; i < msg->n; i++)
		if (msg->report[i].link == wlink)
			return &msg->report[i];
	return NULL;
}

/* The feedback of the one sender with state, at @t: its slot */
static u32 feedback_at(u64 t, struct stripe_feedback_msg *msg)
{
	u32 slot;

	for (slot = 0; slot < STRIPE_RX_SENDERS; slot++)
		if (stripe_reseq_feedback(&r, slot, t, t, 20 * MS, msg))
			break;
	return slot;
}

static void test_feedback(void)
{
	static struct stripe_feedback_msg msg;
	const struct stripe_link_report *a, *b, *c;
	u64 t = 1000 * MS;
	u32 g = 1, slot;

	start();
	/* Local links 0, 1, 2 are the sender's links 10, 11, 12 */
	frame_on(0, 10, g++, t, false);
	frame_on(1, 11, g++, t, false);
	frame_on(2, 12, g++, t, false);
	slot = feedback_at(t, &msg);
	check(slot < STRIPE_RX_SENDERS && msg.peer == 5 && msg.n == 3 &&
	      test_bit(2, msg.links) && report_of(&msg, 12) &&
	      report_of(&msg, 12)->state == STRIPE_WIRE_LINK_DELIVERING &&
	      report_of(&msg, 12)->frames == 1,
	      "feedback: every link reported, by the sender's id, delivering");
	/* Links 0 and 1 go on for 30 ms, link 2 delivers nothing */
	for (; t < 1030 * MS; t += MS) {
		frame_on(0, 10, g++, t, false);
		frame_on(1, 11, g++, t, false);
	}
	stripe_reseq_feedback(&r, slot, t, t, 20 * MS, &msg);
	a = report_of(&msg, 10);
	b = report_of(&msg, 11);
	c = report_of(&msg, 12);
	check(a && b && c && a->state == STRIPE_WIRE_LINK_DELIVERING &&
	      b->state == STRIPE_WIRE_LINK_DELIVERING &&
	      c->state == STRIPE_WIRE_LINK_LOST && c->age_ms >= 29 &&
	      a->frames == 31,
	      "feedback: a link quiet for 20 ms while the others deliver is lost");
	/* The sender left link 2 and stops: only probes arrive, on link 2 */
	for (; t < 1070 * MS; t += 5 * MS)
		frame_on(2, 12, g - 1, t, true);
	stripe_reseq_feedback(&r, slot, t, t, 20 * MS, &msg);
	a = report_of(&msg, 10);
	c = report_of(&msg, 12);
	check(a && c && c->state == STRIPE_WIRE_LINK_DELIVERING &&
	      a->state == STRIPE_WIRE_LINK_DELIVERING,
	      "feedback: probes show the link back, and do not make the idle links lost");
	check(!stripe_reseq_feedback(&r, slot, t + 2000 * MS, t + 2000 * MS,
				     20 * MS, &msg),
	      "feedback: none for a sender idle for a second");
	/* It sends data to another peer on these links: we get its markers */
	for (t += 2000 * MS; t < 3200 * MS; t += 5 * MS) {
		marker(0, 5, g, t);
		marker(1, 5, g++, t);
	}
	check(!stripe_reseq_feedback(&r, slot, t, t, 20 * MS, &msg),
	      "feedback: none for a sender heard only by its markers");
	/* ... and it probes link 0 while link 2, busy with the other
	 * peer's frames, gets no markers: we report, but lose no link
	 */
	for (; t < 3300 * MS; t += 5 * MS) {
		marker(0, 5, g, t);
		marker(1, 5, g++, t);
	}
	frame_on(0, 10, g - 1, t, true);
	check(stripe_reseq_feedback(&r, slot, t, t, 20 * MS, &msg) &&
	      report_of(&msg, 12) &&
	      report_of(&msg, 12)->state != STRIPE_WIRE_LINK_LOST,
	      "feedback: without its data here, no link is reported lost");
}

/* Links 0 and 1 deliver for 100 ms, link 2 is cut after its first
 * frame; then the data stops.  A probe on link 0 a second later keeps the
 * reports going: link 2, silent while the data still came, must not be
 * reported delivering now, or the sender takes back a link still cut
 * (linkhealth's black hole came back 1.1 s after its stream ended).
 */
static void test_feedback_idle(void)
{
	static struct stripe_feedback_msg msg;
	const struct stripe_link_report *a, *c;
	u64 t = 1000 * MS;
	u32 g, slot;

	g = start_three_links(t);
	for (t += MS; t < 1100 * MS; t += MS) {
		frame_on(0, 10, g++, t, false);
		frame_on(1, 11, g++, t, false);
	}
	t += 1100 * MS;
	frame_on(0, 10, g - 1, t, true);
	slot = feedback_at(t, &msg);
	a = report_of(&msg, 10);
	c = report_of(&msg, 12);
	check(slot < STRIPE_RX_SENDERS && a && c &&
	      a->state == STRIPE_WIRE_LINK_DELIVERING &&
	      c->state != STRIPE_WIRE_LINK_DELIVERING,
	      "feedback: once the data stops, a link silent before is not reported delivering");
}

/* Link 1's frames wait on a CPU that is held off (it took its last frame
 * of ours 6 ms after link 1's last), while links 0 and 2 go on for 25 ms
 * on another: silence counts only up to what that CPU took, so link 1 is
 * not lost; with every CPU caught up, the same 25 ms is a lost link.  The
 * sender's own loss rule for its transmit (link_silent) reads it alike.
 */
static void test_feedback_cpu_behind(void)
{
	static struct stripe_feedback_msg msg;
	struct stripe_reseq_cfg rule = cfg;
	u64 t = 1000 * MS, held_off;
	u32 g = 1, slot;

	rule.silent_ns = 20 * MS;
	start();
	for (; t < 1100 * MS; t += MS) {
		frame_on(0, 10, g++, t, false);
		frame_on(1, 11, g++, t, false);
		frame_on(2, 12, g++, t, false);
	}
	/* link 1's last frame came at 1099 ms; the held-off CPU's at 1105 */
	held_off = t + 5 * MS;
	for (; t < 1126 * MS; t += MS) {
		frame_on(0, 10, g++, t, false);
		frame_on(2, 12, g++, t, false);
	}
	for (slot = 0; slot < STRIPE_RX_SENDERS; slot++)
		if (stripe_reseq_feedback(&r, slot, t, held_off, 20 * MS, &msg))
			break;
	check(report_of(&msg, 11) &&
	      report_of(&msg, 11)->state == STRIPE_WIRE_LINK_DELIVERING &&
	      report_of(&msg, 10) &&
	      report_of(&msg, 10)->state == STRIPE_WIRE_LINK_DELIVERING,
	      "feedback: a link whose CPU has not caught up is not lost");
	check(!stripe_reseq_link_silent(&r, &rule, 1, t, held_off),
	      "feedback: ... nor silent to the loss rule of our transmit");
	stripe_reseq_feedback(&r, slot, t, t, 20 * MS, &msg);
	check(report_of(&msg, 11) &&
	      report_of(&msg, 11)->state == STRIPE_WIRE_LINK_LOST,
	      "feedback: ... and is, 25 ms silent, once every CPU caught up");
	check(stripe_reseq_link_silent(&r, &rule, 1, t, t),
	      "feedback: ... and silent to that rule");
}

/* The sender stalls 18 ms in every 25 (its CPU busy elsewhere): no link
 * has a frame meanwhile.  Those are the sender's gaps, not its links':
 * they do not buy a link more time before it is lost (twice the 99th
 * percentile gap would be 64 ms), and 25 ms of quiet on link 1 while
 * link 0 delivers is lost.
 */
static void test_feedback_gap_own(void)
{
	static struct stripe_feedback_msg msg;
	u64 t = 1000 * MS;
	u32 g = 1, slot, i;

	start();
	for (i = 0; t < 1400 * MS; t += MS, i++) {
		if (i % 25 >= 1 && i % 25 < 19)
			continue;	/* the sender stalls */
		frame_on(0, 10, g++, t, false);
		frame_on(1, 11, g++, t, false);
	}
	/* link 1's last frame came at 1399 ms; 25 ms of quiet follow */
	for (; t < 1425 * MS; t += MS)
		frame_on(0, 10, g++, t, false);
	slot = feedback_at(t, &msg);
	check(slot < STRIPE_RX_SENDERS && report_of(&msg, 11) &&
	      report_of(&msg, 11)->state == STRIPE_WIRE_LINK_LOST,
	      "feedback: the sender's stalls give a link no more time");
}

/* A link whose frames normally come 15 ms apart (a slow link, a busy
 * receiver) is not lost after 25 ms of quiet; after twice its usual gap it is.
 */
static void test_feedback_slow_link(void)
{
	static struct stripe_feedback_msg msg;
	u64 t = 1000 * MS;
	u32 g = 1, slot;

	start();
	for (; t < 1200 * MS; t += MS) {
		frame_on(0, 10, g++, t, false);
		if (t % (15 * MS) == 0)
			frame_on(1, 11, g++, t, false);
	}
	/* the last frame on link 1 came at 1185 ms */
	for (; t < 1211 * MS; t += MS)
		frame_on(0, 10, g++, t, false);
	slot = feedback_at(t, &msg);
	check(report_of(&msg, 11) &&
	      report_of(&msg, 11)->state == STRIPE_WIRE_LINK_DELIVERING,
	      "feedback: 25 ms of quiet on a link with 15 ms gaps is not a loss");
	for (; t < 1220 * MS; t += MS)
		frame_on(0, 10, g++, t, false);
	stripe_reseq_feedback(&r, slot, t, t, 20 * MS, &msg);
	check(report_of(&msg, 11) &&
	      report_of(&msg, 11)->state == STRIPE_WIRE_LINK_LOST,
	      "feedback: ... 34 ms (over twice its gap) is");
}

/* A sender whose traffic comes in bursts 8 ms apart (pauses longer than
 * a 5 ms hold bound, as ACK clocking or a busy CPU make): a dead link is
 * still reported lost.
 */
static void test_feedback_bursty_sender(void)
{
	static struct stripe_feedback_msg msg;
	struct stripe_reseq_cfg c = cfg;
	struct stripe_wire_hdr h;
	u64 t = 1000 * MS;
	u32 g = 1, i;

	c.hold_ns = 5 * MS;
	c.silent_ns = 5 * MS;
	start();
	for (i = 0; i < 3; i++) {
		h = wire_hdr(5, 1, g, g, false);
		h.link = 10 + i;
		assert(!feed(&r, &c, i, &h, sizeof(h), TAG(1, g), t, 100));
		g++;
	}
	for (; t < 1060 * MS; t += 8 * MS) {
		for (i = 0; i < 2; i++) {
			h = wire_hdr(5, 1, g, g, false);
			h.link = 10 + i;
			assert(!feed(&r, &c, i, &h, sizeof(h), TAG(1, g), t, 100));
			g++;
		}
	}
	while (skb_queue_len(&r.out))
		kfree_skb(__skb_dequeue(&r.out));
	feedback_at(t, &msg);
	check(report_of(&msg, 12) &&
	      report_of(&msg, 12)->state == STRIPE_WIRE_LINK_LOST &&
	      report_of(&msg, 10)->state == STRIPE_WIRE_LINK_DELIVERING,
	      "feedback: a dead link of a bursty sender is lost all the same");
}

/* A pause of the sender is not a gap of its links: after one, a link that
 * dies is lost after 20 ms, not after twice the pause.
 */
static void test_feedback_after_pause(void)
{
	static struct stripe_feedback_msg msg;
	u64 t = 1000 * MS;
	u32 g = 1;

	g = start_three_links(t);
	t += 2000 * MS;
	frame_on(0, 10, g++, t, false);
	frame_on(1, 11, g++, t, false);
	feedback_at(t + MS, &msg);
	check(report_of(&msg, 12) &&
	      report_of(&msg, 12)->state == STRIPE_WIRE_LINK_UNKNOWN &&
	      report_of(&msg, 11)->state == STRIPE_WIRE_LINK_DELIVERING,
	      "feedback: right after a pause, a link not heard since is unknown");
	frame_on(2, 12, g++, t, false);
	for (t += MS; t < 3030 * MS; t += MS) {
		frame_on(0, 10, g++, t, false);
		frame_on(1, 11, g++, t, false);
	}
	feedback_at(t, &msg);
	check(report_of(&msg, 12) &&
	      report_of(&msg, 12)->state == STRIPE_WIRE_LINK_LOST,
	      "feedback: after a pause, a dead link is lost after 20 ms");
}

/* A TCP stream that a dead link stalled: its ACKs come in short bursts
 * with pauses longer than a pause between them.  The dead link's silence
 * adds up over the bursts: it is lost after 20 ms of them, not never.
 * A link the bursts use is not, however many bursts pass.
 */
static void test_feedback_stalled_sender(void)
{
	static struct stripe_feedback_msg msg;
	u64 t = 1000 * MS, end;
	u32 g = 1, burst;
	bool lost = false;

	g = start_three_links(t);
	for (burst = 0; burst < 8 && !lost; burst++) {
		t += 40 * MS;
		for (end = t + 5 * MS; t < end; t += MS / 2) {
			frame_on(0, 10, g++, t, false);
			frame_on(1, 11, g++, t, false);
		}
		feedback_at(t, &msg);
		lost = report_of(&msg, 12)->state == STRIPE_WIRE_LINK_LOST;
		check(report_of(&msg, 10)->state != STRIPE_WIRE_LINK_LOST,
		      "feedback: bursts: a link they use is never lost");
	}
	check(lost && burst >= 4,
	      "feedback: bursts with pauses: a dead link is lost after 20 ms of them");
}

static void marker_on(u32 link, u8 wlink, u32 gseq, u64 now)
{
	struct stripe_wire_hdr h = wire_hdr(5, 0, gseq, 0, true);

	h.link = wlink;
	assert(!feed(&r, &cfg, link, &h, sizeof(h), TAG(1, gseq), now, 100));
}

/* A TCP stream in RTO backoff sends a lone segment, and its receiver a
 * lone ACK, every 200 ms or more.  Each ACK goes on the dead link 2; the
 * sender marks links 0 and 1 with its gseq a millisecond later.  Link 2
 * missed two such periods in a row: lost, whatever the silence.  One
 * missed period (a lost marker) is not enough, and a link that the
 * markers reach is never lost.
 */
static void test_feedback_lone_frames(void)
{
	static struct stripe_feedback_msg msg;
	u64 t = 1000 * MS;
	u32 g = 1;

	g = start_three_links(t);
	/* period 1: gseq 4 lost on link 2, markers on 0 and 1 */
	t += 200 * MS;
	marker_on(0, 10, g, t + MS);
	marker_on(1, 11, g, t + MS);
	g++;
	feedback_at(t + 30 * MS, &msg);
	check(report_of(&msg, 12)->state != STRIPE_WIRE_LINK_LOST &&
	      report_of(&msg, 10)->state != STRIPE_WIRE_LINK_LOST,
	      "feedback: lone frames: one missed period is not a loss");
	/* period 2: the same */
	t += 200 * MS;
	marker_on(0, 10, g, t + MS);
	marker_on(1, 11, g, t + MS);
	g++;
	feedback_at(t + 2 * MS, &msg);
	check(report_of(&msg, 12)->state != STRIPE_WIRE_LINK_LOST,
	      "feedback: lone frames: ... nor is a period still settling");
	feedback_at(t + 30 * MS, &msg);
	check(report_of(&msg, 12)->state == STRIPE_WIRE_LINK_LOST &&
	      report_of(&msg, 10)->state != STRIPE_WIRE_LINK_LOST &&
	      report_of(&msg, 11)->state != STRIPE_WIRE_LINK_LOST,
	      "feedback: lone frames: a link that missed two periods is lost");
	/* A probe gets through on link 2: it delivers again */
	frame_on(2, 12, g - 1, t + 40 * MS, true);
	feedback_at(t + 41 * MS, &msg);
	check(report_of(&msg, 12)->state != STRIPE_WIRE_LINK_LOST,
	      "feedback: lone frames: one frame on the link clears it");
	while (skb_queue_len(&r.out))
		kfree_skb(__skb_dequeue(&r.out));
}

/* A sender that left every link we hear it on (we reported them lost)
 * sends its data on a link we no longer have, and only probes reach us:
 * it learns only from our feedback that those links deliver again, so
 * probes keep the feedback going (failover.sh: "every link looks cut").
 */
static void test_feedback_probes_only(void)
{
	static struct stripe_feedback_msg msg;
	u64 t = 1000 * MS;
	u32 g = 1;

	start();
	frame_on(0, 10, g++, t, false);
	frame_on(1, 11, g++, t, false);
	for (t += 100 * MS; t < 3000 * MS; t += 10 * MS)
		frame_on(0, 10, g, t, true);
	check(feedback_at(t, &msg) < STRIPE_RX_SENDERS &&
	      report_of(&msg, 10) &&
	      report_of(&msg, 10)->state == STRIPE_WIRE_LINK_DELIVERING,
	      "feedback: a sender heard only through probes hears they deliver");
}

/* A multicast frame reaches every host on the segment: none reports to
 * its sender for it (multipeer.sh: four hosts answering one host's
 * neighbour discovery with a hundred reports a second each).  A frame
 * sent to us does get reports.
 */
static void test_feedback_not_for_group_frames(void)
{
	struct stripe_wire_info wi = { .proto = htons(ETH_P_IPV6), .sender = 5,
				       .link = 10, .gseq = 1, .fseq = 1 };
	struct stripe_reseq_now now = { .ns = 1000 * MS, .group = true };
	static struct stripe_feedback_msg msg;

	start();
	stripe_reseq_frame(&r, &cfg, 0, &wi, frame_skb(10, 0), &now);
	__skb_queue_purge(&r.out);
	check(stripe_reseq_senders(&r) == 1 &&
	      feedback_at(now.ns + 10 * MS, &msg) == STRIPE_RX_SENDERS,
	      "feedback: none for a sender heard only in a multicast frame");
	now.group = false;
	now.ns += 20 * MS;
	wi.gseq = wi.fseq = 2;
	stripe_reseq_frame(&r, &cfg, 0, &wi, frame_skb(10, 0), &now);
	__skb_queue_purge(&r.out);
	check(feedback_at(now.ns + 10 * MS, &msg) < STRIPE_RX_SENDERS,
	      "feedback: ... and some once it sends a frame to us");
}

/* A few long gaps (a receiver's CPU that left a link's queue unserved
 * for 60 ms, twice in a second) do not hide a dead link for long.
 */
static void test_feedback_rare_stalls(void)
{
	static struct stripe_feedback_msg msg;
	u64 t = 1000 * MS, stall_until = 0;
	u32 g = 1;

	start();
	for (; t < 2000 * MS; t += MS) {
		frame_on(0, 10, g++, t, false);
		if (t == 1300 * MS || t == 1700 * MS)
			stall_until = t + 60 * MS;
		if (t >= stall_until)
			frame_on(1, 11, g++, t, false);
	}
	for (; t < 2025 * MS; t += MS)
		frame_on(0, 10, g++, t, false);
	feedback_at(t, &msg);
	check(report_of(&msg, 11) &&
	      report_of(&msg, 11)->state == STRIPE_WIRE_LINK_LOST,
	      "feedback: two 60 ms stalls in a second do not hide a dead link");
}

static void test_in_order(void)
{
	start();
	data(0, 1, 5, 1, 100, 0);
	data(1, 1, 5, 2, 101, 10 * US);
	data(0, 1, 5, 3, 102, 20 * US);
	check(OUT(TAG(5, 100), TAG(5, 101), TAG(5, 102)) &&
	      r.stats.in_order == 3 && !r.held,
	      "in order: every frame goes up at once");
}

static void test_swap(void)
{
	start();
	data(0, 1, 5, 1, 1, 0);
	data(1, 1, 5, 3, 3, 10 * US);	/* link 0 carries 2, late */
	check(OUT(TAG(5, 1)) && r.held == 1, "swap: the early frame is held");
	data(0, 1, 5, 2, 2, 30 * US);
	check(OUT(TAG(5, 2), TAG(5, 3)) && r.stats.resequenced == 1 &&
	      !r.held && !r.stats.lost_link && !r.stats.lost_timeout,
	      "swap: the late frame releases it, in order, nothing lost");
	check(r.stats.hold_hist[1] == 1 && r.stats.hold_max_us == 20,
	      "swap: a 20 us hold is in the histogram's 16-64 us bucket");
}

static void test_loss_by_link_rule(void)
{
	start();
	data(0, 1, 5, 1, 1, 0);
	data(1, 1, 5, 2, 2, 0);
	/* gseq 3 (fseq 3) sent on link 0 is lost */
	data(1, 1, 5, 4, 4, 10 * US);
	check(OUT(TAG(5, 1), TAG(5, 2)) && r.held == 1,
	      "loss: the frame after the gap is held");
	data(0, 1, 5, 5, 5, 20 * US);
	check(OUT(TAG(5, 4), TAG(5, 5)) && r.stats.lost_link == 1 &&
	      !r.stats.lost_timeout,
	      "loss: once every link passed it, the gap is lost (link rule)");
}

/* Frames 1-3 on links 0-2, then 5 and 6 on links 0 and 1 at 100 us:
 * gseq 4 is still on link 2 (a slow link, or one with a long queue)
 */
static void slow_link_gap(void)
{
	data(0, 1, 5, 1, 1, 0);
	data(1, 1, 5, 2, 2, 0);
	data(2, 1, 5, 3, 3, 0);
	data(0, 1, 5, 5, 5, 100 * US);
	data(1, 1, 5, 6, 6, 100 * US);
}

static void test_slow_link_is_waited_for(void)
{
	start();
	slow_link_gap();
	check(OUT(TAG(5, 1), TAG(5, 2), TAG(5, 3)) && r.held == 2 &&
	      !r.stats.lost_link,
	      "slow link: a gap is not lost while that link has not passed it");
	stripe_reseq_tick(&r, &cfg, 5 * MS);
	check(NOTHING_OUT() && r.held == 2,
	      "slow link: nor later, while it is not silent");
	data(2, 1, 5, 4, 4, 6 * MS);
	check(OUT(TAG(5, 4), TAG(5, 5), TAG(5, 6)) && !r.stats.lost_link,
	      "slow link: its frame arrives and all go up in order");
}

static void test_marker_unfreezes(void)
{
	start();
	data(0, 1, 5, 1, 1, 0);
	data(1, 1, 5, 2, 2, 0);
	data(2, 1, 5, 3, 3, 0);
	/* gseq 4 on link 0 is lost, 5 arrives on link 1; link 2 is idle */
	data(1, 1, 5, 5, 5, 10 * US);
	data(0, 1, 5, 6, 6, 10 * US);
	check(OUT(TAG(5, 1), TAG(5, 2), TAG(5, 3)) && r.held == 2,
	      "marker: an idle link keeps the gap open");
	marker(2, 1, 6, 500 * US);
	check(OUT(TAG(5, 5), TAG(5, 6)) && r.stats.lost_link == 1 &&
	      r.stats.markers == 1,
	      "marker: the idle link's marker lets the link rule close it");
	marker(3, 99, 6, 600 * US);
	check(stripe_reseq_senders(&r) == 1,
	      "marker: a marker of an unknown sender makes no state");
}

static void test_silent_link_leaves(void)
{
	start();
	data(0, 1, 5, 1, 1, 0);
	data(1, 1, 5, 2, 2, 0);
	data(2, 1, 5, 3, 3, 0);
	/* link 2 dies: gseq 4 and everything after on it never arrive */
	data(0, 1, 5, 5, 5, 1 * MS);
	data(1, 1, 5, 6, 6, 1 * MS);
	check(OUT(TAG(5, 1), TAG(5, 2), TAG(5, 3)) && r.held == 2,
	      "silent link: frames wait while it may still deliver");
	data(0, 1, 5, 7, 7, 30 * MS);
	data(1, 1, 5, 8, 8, 45 * MS);
	stripe_reseq_tick(&r, &cfg, 49 * MS);
	check(NOTHING_OUT(),
	      "silent link: not left while the others were heard within the bound");
	data(1, 1, 5, 10, 10, 50 * MS + 500 * US);	/* 9 went on the dead link */
	check(OUT(TAG(5, 5), TAG(5, 6), TAG(5, 7), TAG(5, 8)) &&
	      r.stats.lost_link == 1 && !r.stats.lost_timeout,
	      "silent link: once the others were heard past the bound, it leaves the rule");
	data(0, 1, 5, 11, 11, 51 * MS);
	check(OUT(TAG(5, 10), TAG(5, 11)) && r.stats.lost_link == 2,
	      "silent link: later gaps close at once");
}

static void test_link_silent_for_failover(void)
{
	u64 t;

	start();
	check(!stripe_reseq_link_silent(&r, &cfg, 0, 0, 0),
	      "failover: no sender, no silent link");
	for (t = 0; t <= 100 * MS; t += 1 * MS) {
		data(0, 1, 5, 2 * t, 2 * t, t);
		if (t < 20 * MS)
			data(1, 1, 5, 2 * t + 1, 2 * t + 1, t);
	}
	__skb_queue_purge(&r.out);
	check(!stripe_reseq_link_silent(&r, &cfg, 0, 100 * MS, 100 * MS),
	      "failover: a link that delivers is not silent");
	check(stripe_reseq_link_silent(&r, &cfg, 1, 100 * MS, 100 * MS),
	      "failover: a link quiet for a hold bound while the sender is active is silent");
	check(!stripe_reseq_link_silent(&r, &cfg, 1, 500 * MS, 500 * MS),
	      "failover: once the sender went quiet too, nothing is called silent");
	start();
	data(0, 1, 5, 1, 1, 0);
	marker(1, 1, 1, 1 * MS);	/* a burst ends with a marker 1 ms later */
	check(!stripe_reseq_link_silent(&r, &cfg, 0, 50 * MS + 500 * US,
					50 * MS + 500 * US),
	      "failover: the link of a burst's last frame is not silent after it");
	check(!stripe_reseq_link_silent(&r, &cfg, 2, 100 * MS, 100 * MS),
	      "failover: a link never heard on is not (the peer may not be there)");
	start();
}

static void test_pause_is_not_silence(void)
{
	start();
	data(0, 1, 5, 1, 1, 0);
	data(1, 1, 5, 2, 2, 0);
	OUT(TAG(5, 1), TAG(5, 2));
	/* the sender pauses 1 s; then gseq 3 goes on slow link 1 and 4 on
	 * fast link 0, which delivers first
	 */
	data(0, 1, 5, 4, 4, 1000 * MS);
	stripe_reseq_tick(&r, &cfg, 1000 * MS + 2 * MS);
	check(NOTHING_OUT() && r.held == 1,
	      "pause: a slow link is not silent just because the sender paused");
	data(1, 1, 5, 3, 3, 1000 * MS + 3 * MS);
	check(OUT(TAG(5, 3), TAG(5, 4)) && !r.stats.lost_link &&
	      !r.stats.late, "pause: its frame arrives and nothing is lost");
}

/* A link dies mid-flow with several of its frames lost: the flow stalls
 * on the first gap and the sender stops, so the link never goes silent in
 * the sender's frames.  One gap waits out the bound; the next ones behind
 * the same link do not.
 */
static void test_dead_link_costs_one_timeout(void)
{
	u32 g;

	start();
	/* gseq = fseq = 1..9 round robin on links 0, 1, 2; link 2 dies
	 * after gseq 2: 5 and 8 are lost
	 */
	for (g = 1; g <= 9; g++)
		if (g % 3 != 2 || g == 2)
			data(g % 3, 1, 5, g, g, g * 10 * US);
	marker(1, 1, 9, 100 * US);	/* link 1 idle: marked up to date */
	check(OUT(TAG(5, 1), TAG(5, 2), TAG(5, 3), TAG(5, 4)) && r.held == 3,
	      "dead link: the frames behind its first lost one are held");
	stripe_reseq_tick(&r, &cfg, 60 * US + cfg.hold_ns);
	check(OUT(TAG(5, 6), TAG(5, 7), TAG(5, 9)) &&
	      r.stats.lost_timeout == 1 && r.stats.lost_link == 1,
	      "dead link: the first gap waits out the bound, the next is lost at once");
	/* link 2 delivers again: back in the rule, and waited for */
	data(2, 1, 5, 10, 10, 200 * US);
	marker(1, 1, 12, 210 * US);
	data(0, 1, 5, 12, 12, 220 * US);	/* 11 is still on link 2 */
	check(OUT(TAG(5, 10)) && r.held == 1 && r.stats.lost_link == 1,
	      "dead link: once it delivers again, its gaps are waited for");
	data(2, 1, 5, 11, 11, 230 * US);
	check(OUT(TAG(5, 11), TAG(5, 12)) && !r.stats.late,
	      "dead link: and its frame arrives, nothing lost");
}

static void test_timeout(void)
{
	start();
	data(1, 1, 7, 0, 0, 0);	/* link 1 once delivered something older */
	data(1, 1, 5, 1, 1, 0);
	data(0, 1, 5, 3, 3, 0);	/* fseq 2 never comes, gseq 2 may be on link 1 */
	OUT(TAG(7, 0), TAG(5, 1));
	stripe_reseq_tick(&r, &cfg, cfg.hold_ns - 1);
	check(NOTHING_OUT() && r.held == 1, "timeout: held until the bound");
	stripe_reseq_tick(&r, &cfg, cfg.hold_ns);
	check(OUT(TAG(5, 3)) && r.stats.lost_timeout == 1 && !r.held,
	      "timeout: released at the hold bound, counted");
}

/* A link that is not strictly FIFO delivers a frame after the link rule
 * gave its gap up: from then on gaps wait as long as that frame needed.
 */
static void test_late_frame_widens_the_wait(void)
{
	u64 wait = (990 * US) + (990 * US) / 4;

	start();
	data(0, 1, 5, 1, 1, 0);
	data(1, 1, 5, 2, 2, 0);
	data(1, 1, 5, 4, 4, 10 * US);
	data(0, 1, 5, 5, 5, 20 * US);
	check(OUT(TAG(5, 1), TAG(5, 2), TAG(5, 4), TAG(5, 5)) &&
	      r.stats.lost_link == 1 && stripe_reseq_max_late(&r, 20 * US) == 0,
	      "late: in-order links, the link rule gives a gap up at once");
	data(0, 1, 5, 3, 3, 1000 * US);	/* overtaken on its own link */
	check(OUT(TAG(5, 3)) && r.stats.late == 1 && r.stats.link_reordered == 1 &&
	      stripe_reseq_max_late(&r, 1000 * US) == wait,
	      "late: the wait it needed (990 us) and a quarter more is kept");
	data(1, 1, 5, 7, 7, 2000 * US);
	data(0, 1, 5, 8, 8, 2010 * US);
	check(NOTHING_OUT() && r.held == 2 && r.stats.lost_link == 1,
	      "late: the next gap waits although every link passed it");
	data(0, 1, 5, 6, 6, 2500 * US);
	check(OUT(TAG(5, 6), TAG(5, 7), TAG(5, 8)) && r.stats.lost_link == 1 &&
	      r.stats.late == 1,
	      "late: and its frame arrives in time, nothing lost");
	data(1, 1, 5, 10, 10, 3000 * US);
	data(0, 1, 5, 11, 11, 3000 * US);
	stripe_reseq_tick(&r, &cfg, 3000 * US + wait - 1);
	check(NOTHING_OUT() && r.held == 2, "late: a real loss waits the wait");
	stripe_reseq_tick(&r, &cfg, 3000 * US + wait);
	check(OUT(TAG(5, 10), TAG(5, 11)) && r.stats.lost_link == 2 &&
	      !r.stats.lost_timeout,
	      "late: then the link rule gives it up, no timeout");
	check(stripe_reseq_max_late(&r, 21 * 1000 * MS) == 0,
	      "late: forgotten after two quiet windows");
}

/* A slowed link's queue delivers a frame after its gap waited out the
 * hold bound: that link was late as a whole, not out of order, and the
 * gaps that follow must not wait as long (a stream over links that lose a
 * frame now and then stalled for a second at each loss, for ten seconds).
 */
static void test_late_after_the_bound_teaches_nothing(void)
{
	start();
	slow_link_gap();
	OUT(TAG(5, 1), TAG(5, 2), TAG(5, 3));
	stripe_reseq_tick(&r, &cfg, 100 * US + cfg.hold_ns);
	check(OUT(TAG(5, 5), TAG(5, 6)) && r.stats.lost_timeout == 1,
	      "late after the bound: the gap waits out the bound");
	data(2, 1, 5, 4, 4, 200 * MS);
	check(OUT(TAG(5, 4)) && r.stats.late == 1 &&
	      stripe_reseq_max_late(&r, 200 * MS) == 0,
	      "late after the bound: its frame goes up, and the wait stays 0");
	/* a frame lost on link 0 later: the link rule gives it up at once */
	data(2, 1, 5, 7, 7, 210 * MS);
	data(1, 1, 5, 9, 9, 210 * MS);
	data(0, 1, 5, 10, 10, 210 * MS);
	data(2, 1, 5, 11, 11, 210 * MS);
	check(OUT(TAG(5, 7), TAG(5, 9), TAG(5, 10), TAG(5, 11)) &&
	      r.stats.lost_link == 1,
	      "late after the bound: the next loss is given up at once");
}

/* A frame late behind a link out of the rule (stale after a timeout)
 * measured that link's queue: its wait is kept while such frames keep
 * coming, and forgotten 2 s after the last (a slowed link's queue, learnt
 * for ten seconds, held each loss of another link that long).  One later
 * than 100 ms teaches nothing (a queue to drain, not an order to keep).
 */
static void stale_link_late_frame(u64 at)
{
	u32 g;

	start();
	for (g = 1; g <= 9; g++)
		if (g % 3 != 2 || g == 2)
			data(g % 3, 1, 5, g, g, g * 10 * US);
	marker(1, 1, 9, 100 * US);
	stripe_reseq_tick(&r, &cfg, 60 * US + cfg.hold_ns);
	check(OUT(TAG(5, 1), TAG(5, 2), TAG(5, 3), TAG(5, 4), TAG(5, 6),
		  TAG(5, 7), TAG(5, 9)) && r.stats.lost_link == 1,
	      "late behind a stale link: its next gap is given up at once");
	data(2, 1, 5, 8, 8, at);
}

static void test_late_behind_a_stale_link_is_kept_briefly(void)
{
	u64 at = cfg.hold_ns + 30 * MS, need = at - 90 * US;

	stale_link_late_frame(at);
	check(OUT(TAG(5, 8)) && r.stats.late == 1 &&
	      stripe_reseq_max_late(&r, at) == need + need / 4,
	      "late behind a stale link: the wait its frame needed is kept");
	check(stripe_reseq_max_late(&r, at + 2000 * MS) == need + need / 4,
	      "late behind a stale link: for 2 s after it");
	check(stripe_reseq_max_late(&r, at + 2000 * MS + 1) == 0,
	      "late behind a stale link: not longer (no such frame since)");
	stale_link_late_frame(300 * MS);
	check(OUT(TAG(5, 8)) && r.stats.late == 1 &&
	      stripe_reseq_max_late(&r, 300 * MS) == 0,
	      "late behind a stale link: 300 ms late teaches no wait");
}

static void test_flows_are_independent(void)
{
	start();
	data(1, 1, 7, 0, 0, 0);
	data(1, 1, 5, 1, 1, 0);
	data(1, 1, 6, 2, 1, 0);	/* link 1 may still carry gseq 3 */
	data(0, 1, 5, 4, 3, 10 * US);	/* flow 5 has a gap (fseq 2, gseq 3) */
	data(0, 1, 6, 5, 2, 20 * US);
	data(0, 1, 6, 6, 3, 30 * US);
	check(OUT(TAG(7, 0), TAG(5, 1), TAG(6, 1), TAG(6, 2), TAG(6, 3)) &&
	      r.held == 1,
	      "two flows: one flow's gap does not hold the other");
}

/* A flow's first frame here is not known to be its first: earlier ones
 * may still be on a slower link.  It waits as if a gap of unknown length
 * came before it; that gap is nobody's loss.
 */
static void test_new_flow(void)
{
	start();
	data(0, 1, 7, 1, 1, 0);
	data(1, 1, 7, 2, 2, 0);
	check(OUT(TAG(7, 1), TAG(7, 2)), "new flow: links 0 and 1 known");
	/* flow 5 sent fseq 3 on link 0 (gseq 3), fseq 4 on link 1 (gseq 4) */
	data(1, 1, 5, 4, 4, 10 * US);
	check(NOTHING_OUT() && r.held == 1,
	      "new flow: its first frame here waits for the links behind it");
	data(0, 1, 5, 3, 3, 30 * US);
	check(OUT(TAG(5, 3), TAG(5, 4)) && !r.stats.late && !r.held,
	      "new flow: its first frame, late on a slower link, still goes up first");
	check(!r.stats.lost_link && !r.stats.lost_timeout && !r.stats.lost_limit,
	      "new flow: ... and nothing is counted lost");
	/* flow 6 starts with fseq 8 on link 1; link 0 then passes it */
	data(1, 1, 6, 5, 8, 40 * US);
	data(0, 1, 5, 6, 5, 50 * US);
	check(OUT(TAG(5, 5), TAG(6, 8)) && !r.stats.lost_link && !r.held,
	      "new flow: once every link passed its first frame, it goes up, nothing lost");
	data(1, 1, 6, 7, 9, 60 * US);
	check(OUT(TAG(6, 9)) && r.stats.in_order >= 1,
	      "new flow: ... and its next frame goes up at once");
	/* flow 4's first frame, link 1 behind it and quiet from then on */
	data(0, 1, 4, 8, 1, 70 * US);
	check(NOTHING_OUT() && r.held == 1,
	      "new flow: link 1 has not passed it yet");
	stripe_reseq_tick(&r, &cfg, 70 * US + cfg.hold_ns);
	check(OUT(TAG(4, 1)) && !r.stats.lost_timeout && !r.stats.late,
	      "new flow: the hold bound releases it, not counted lost");
	data(1, 1, 4, 9, 2, 71 * US + cfg.hold_ns);
	check(OUT(TAG(4, 2)), "new flow: its next frame goes up at once");
}

static void test_new_flow_duplicate(void)
{
	start();
	data(0, 1, 7, 1, 1, 0);
	data(1, 1, 7, 2, 2, 0);
	(void)OUT(TAG(7, 1), TAG(7, 2));
	data(1, 1, 5, 4, 4, 10 * US);
	data(1, 1, 5, 4, 4, 11 * US);	/* the held first frame, again */
	check(NOTHING_OUT() && r.held == 1 && r.stats.late == 1,
	      "new flow: a duplicate of its held first frame is dropped");
	data(0, 1, 5, 3, 2, 20 * US);
	data(0, 1, 5, 5, 3, 21 * US);
	check(OUT(TAG(5, 2), TAG(5, 3), TAG(5, 4)) && !r.held,
	      "new flow: frames before and between go up in order");
}

static void test_late_and_duplicates(void)
{
	start();
	data(1, 1, 7, 0, 0, 0);
	data(1, 1, 5, 1, 1, 0);
	data(0, 1, 5, 3, 3, 0);
	data(0, 1, 5, 3, 3, 0);		/* duplicate of a held frame */
	check(OUT(TAG(7, 0), TAG(5, 1)) && r.stats.late == 1 && r.held == 1,
	      "duplicates: of a held frame, dropped and counted as late");
	/* Behind the flow: as late as a frame whose gap was given up, which
	 * the flow lacks
	 */
	data(0, 1, 5, 1, 1, 0);
	check(OUT(TAG(5, 1)) && r.stats.late == 2 && r.held == 1,
	      "late: a frame behind its flow goes up as it comes, counted");
}

static void test_limits(void)
{
	unsigned int i;

	start();
	data(1, 1, 7, 0, 0, 0);		/* link 1 keeps every gap open */
	data(1, 1, 5, 1, 1, 0);
	OUT(TAG(7, 0), TAG(5, 1));
	/* a flow with a gap that never fills: fseq 2 missing */
	for (i = 0; i < 20; i++)
		data(0, 1, 5, 100, 3 + i, 0);
	check(r.held <= cfg.flow_limit && r.stats.lost_limit >= 1,
	      "limits: a flow holds at most flow-limit frames");
	start();
	data(1, 1, 7, 0, 0, 0);
	for (i = 0; i < 4; i++) {
		data(1, 1, i, 1, 1, 0);
		data(0, 1, i, 100, 10, 0);
		data(0, 1, i, 100, 11, 0);
		data(0, 1, i, 100, 12, 0);
		data(0, 1, i, 100, 13, 0);
	}
	check(r.held <= cfg.buffer_limit && r.stats.lost_limit >= 1,
	      "limits: all flows hold at most buffer-limit frames");
	{
		/* the limit lowered below what other flows hold: the next
		 * frame held brings the total back within it
		 */
		struct stripe_reseq_cfg small = cfg;
		struct stripe_wire_hdr h = wire_hdr(1, 9, 200, 1, false);
		u32 before = r.held;

		small.buffer_limit = 3;
		__skb_queue_purge(&r.out);
		assert(!feed(&r, &small, 0, &h, sizeof(h), TAG(9, 1), 0, 0));
		h = wire_hdr(1, 9, 201, 3, false);
		assert(!feed(&r, &small, 0, &h, sizeof(h), TAG(9, 3), 0, 0));
		__skb_queue_purge(&r.out);
		check(before > 3 && r.held <= 3,
		      "limits: a buffer limit lowered below what is held takes effect");
	}
	{
		/* memory-limit counts truesize: room for three frames of
		 * 1000 bytes in buffers of 2024
		 */
		struct stripe_reseq_cfg small = cfg;
		u64 lost;

		small.memory_limit = 3 * (1000 + FRAME_OVERHEAD) + 100;
		start();
		data(1, 1, 7, 0, 0, 0);
		lost = r.stats.lost_limit;
		for (i = 0; i < 6; i++) {
			struct stripe_wire_hdr h = wire_hdr(1, i, 100, 10, false);

			data(1, 1, i, 1, 1, 0);
			assert(!feed(&r, &small, 0, &h, sizeof(h), TAG(i, 10),
				     0, 0));
			__skb_queue_purge(&r.out);
		}
		check(r.held == 3 && r.held_mem == 3 * (1000 + FRAME_OVERHEAD) &&
		      r.stats.lost_limit - lost == 3,
		      "limits: all flows hold at most memory-limit bytes of truesize");
	}
}

static void test_senders(void)
{
	unsigned int i;

	start();
	for (i = 0; i < STRIPE_RX_SENDERS + 5; i++)
		data(0, 1000 + i, 1, 1, 1, 0);
	check(stripe_reseq_senders(&r) == STRIPE_RX_SENDERS &&
	      r.stats.no_state == 5 &&
	      skb_queue_len(&r.out) == STRIPE_RX_SENDERS + 5,
	      "senders: the table is bounded; the rest are counted, not dropped");
	__skb_queue_purge(&r.out);
	data(0, 5000, 1, 1, 1, STRIPE_RX_IDLE_NS + 1);
	__skb_queue_purge(&r.out);
	check(stripe_reseq_senders(&r) == STRIPE_RX_SENDERS &&
	      r.stats.no_state == 5,
	      "senders: an idle sender's slot is taken back");
	/* New senders take states the pool has; the receive path allocates
	 * none.  With the pool empty (its refill not yet run), unordered.
	 */
	start();
	kshim_fail_alloc = true;	/* fill_pool() adds nothing */
	for (i = 0; i < STRIPE_RX_POOL + 1; i++)
		data(0, 6000 + i, 1, 1, 1, 0);
	kshim_fail_alloc = false;
	check(stripe_reseq_senders(&r) == STRIPE_RX_POOL &&
	      r.stats.no_state == 1 && r.pool_n == 0 &&
	      stripe_reseq_pool_low(&r),
	      "senders: the pool of states empty: its data goes up unordered, counted");
	__skb_queue_purge(&r.out);
	fill_pool(&r);
	check(!stripe_reseq_pool_low(&r),
	      "senders: ... and the pool, refilled, is no longer low");
}

static void ordered_gap(struct stripe_wire_info *wi,
			const struct stripe_reseq_now *now);

static bool has_sender(u32 id)
{
	u32 i;

	for (i = 0; i < STRIPE_RX_SENDERS; i++)
		if (r.senders[i] && r.senders[i]->id == id)
			return true;
	return false;
}

/* A host that makes ids and addresses up, one frame each, 10 000 a
 * second, in a table of 16 places: busy peers keep theirs, a genuine new
 * peer gets one and its frames ordered, and each frame looks at a bounded
 * number of places.
 */
static void test_senders_flood(void)
{
	struct stripe_wire_info wi = { .proto = htons(ETH_P_IP), .link = 10 };
	struct stripe_reseq_now now = { .ns = 1000 * MS };
	u8 addr[ETH_ALEN] = { 2, 0, 0, 0, 0, 0 };
	u32 busy_seq = 1, fakes_kept = 0, busy_kept = 0;
	unsigned int i, k;

	start();
	r.max_senders = 16;
	for (i = 0; i < 2000; i++) {
		/* four busy peers, a frame each every 400 us */
		if (i % 4 == 0) {
			for (k = 0; k < 4; k++) {
				addr[5] = k + 1;
				now.src = addr;
				wi.sender = 100 + k;
				wi.gseq = wi.fseq = busy_seq;
				stripe_reseq_frame(&r, &cfg, 0, &wi,
						   frame_skb(10, 0), &now);
			}
			busy_seq++;
		}
		addr[4] = 0x66;
		addr[5] = (u8)i;
		addr[3] = (u8)(i >> 8);
		now.src = addr;
		wi.sender = 0xF0000000 + i;
		wi.gseq = wi.fseq = 1;
		stripe_reseq_frame(&r, &cfg, 0, &wi, frame_skb(10, 0), &now);
		addr[3] = addr[4] = 0;
		fill_pool(&r);
		now.ns += 100 * 1000;
	}
	__skb_queue_purge(&r.out);
	for (k = 0; k < 4; k++)
		busy_kept += has_sender(100 + k);
	for (i = 0; i < 2000; i++)
		fakes_kept += has_sender(0xF0000000 + i);
	check(busy_kept == 4 && stripe_reseq_senders(&r) == 16 &&
	      fakes_kept == 12 && r.stats.no_state < 2000,
	      "senders: 2000 made-up ids and addresses in 0.2 s: the 4 busy peers keep their places");
	now.ns += 20 * MS;
	addr[5] = 77;
	now.src = addr;
	wi.sender = 77;
	ordered_gap(&wi, &now);
	check(has_sender(77) && skb_queue_len(&r.out) == 2 && r.held == 1,
	      "senders: ... and a genuine new peer gets a place and ordered delivery");
	__skb_queue_purge(&r.out);
	r.max_senders = STRIPE_RX_SENDERS;
}

/* Reports go to a sender heard with data; to senders still new, a few an
 * interval in all: made-up ids, one frame each, get next to none, a busy
 * peer its own every interval
 */
static void test_feedback_new_senders(void)
{
	static struct stripe_feedback_msg msg;
	u32 i, slot, reports = 0, busy = 0;

	start();
	for (i = 0; i < 20; i++)
		data(0, 1, 1, i + 1, i + 1, 0);
	for (i = 0; i < 100; i++)
		data(0, 0x0F000000 + i, 1, 1, 1, 0);
	__skb_queue_purge(&r.out);
	for (slot = 0; slot < STRIPE_RX_SENDERS; slot++) {
		if (!stripe_reseq_feedback(&r, slot, MS, MS, 20 * MS, &msg))
			continue;
		reports++;
		busy += msg.peer == 1;
	}
	check(busy == 1 && reports == 1 + STRIPE_RX_FB_NEW_MAX,
	      "feedback: 100 senders still new share 4 reports an interval, a busy one gets its own");
}

/* Review K5: a link stays dead while the sender's gseq runs past 2^31 (36
 * minutes at 1 Mpps), then comes back.  Its newest gseq must not have
 * wrapped ahead: its frames are not counted reordered, and its gaps are
 * not given up on at once.  Then the whole sender goes quiet and comes
 * back with a gseq that looks behind everything it sent before.
 */
static void test_gseq_wraps_past_a_dead_link(void)
{
	struct stripe_wire_info wi = { .proto = htons(ETH_P_IP), .sender = 7 };
	struct stripe_reseq_now now = { .ns = 1000 * MS, .owd_us = 100 };
	u32 fseq = 1, k;

	start();
	for (k = 0; k < 2; k++) {	/* both links heard */
		wi.gseq = wi.fseq = fseq++;
		stripe_reseq_frame(&r, &cfg, k, &wi, frame_skb(10, 0), &now);
	}
	/* link 1 dead: link 0 carries frames 2^28 of gseq apart (frames to
	 * other hosts, not seen here), ten times, 10 ms apart
	 */
	for (k = 1; k <= 10; k++) {
		now.ns += 10 * MS;
		wi.gseq = k << 28;
		wi.fseq = fseq++;
		stripe_reseq_frame(&r, &cfg, 0, &wi, frame_skb(10, 0), &now);
	}
	__skb_queue_purge(&r.out);
	now.ns += 10 * MS;
	wi.gseq = (10U << 28) + 2;	/* link 1 is back: past a gap */
	wi.fseq = fseq + 1;
	stripe_reseq_frame(&r, &cfg, 1, &wi, frame_skb(10, 0), &now);
	check(!r.stats.link_reordered && r.held == 1 && !r.stats.lost_link,
	      "K5: a link back after 2^31 of gseq is behind, not ahead: its gap is held");
	wi.gseq = (10U << 28) + 1;	/* the gap's frame, on link 0 */
	wi.fseq = fseq;
	stripe_reseq_frame(&r, &cfg, 0, &wi, frame_skb(10, 0), &now);
	check(!r.stats.link_reordered && !r.held && !r.stats.lost_link &&
	      skb_queue_len(&r.out) == 2,
	      "K5: ... and the gap's frame releases both, in order");
	__skb_queue_purge(&r.out);
	/* Quiet 2 s; back with a gseq 3 * 2^30 on: it looks behind */
	now.ns += 2000 * MS;
	fseq += 2;
	for (k = 0; k < 4; k++) {
		wi.gseq = (10U << 28) + 3 + 3 * (1U << 30) + k;
		wi.fseq = fseq++;
		stripe_reseq_frame(&r, &cfg, k % 2, &wi, frame_skb(10, 0),
				   &now);
		now.ns += 10 * US;
	}
	check(!r.stats.link_reordered && !r.stats.lost_link &&
	      skb_queue_len(&r.out) == 4,
	      "K5: a sender quiet 2 s starts afresh on every link");
	__skb_queue_purge(&r.out);
}

static void test_skew(void)
{
	struct stripe_reseq_now now = { .ns = 0 };
	struct stripe_wire_info wi = { .proto = htons(ETH_P_IP), .sender = 1 };
	u32 skew0, skew1;
	unsigned int i;

	start();
	check(!stripe_reseq_skew(&r, 0, &skew0), "skew: unknown before frames");
	for (i = 0; i < 64; i++) {
		wi.gseq = wi.fseq = 2 * i;
		now.owd_us = 1000;		/* clock offset 1000 us */
		stripe_reseq_frame(&r, &cfg, 0, &wi, frame_skb(10, 0), &now);
		wi.gseq = wi.fseq = 2 * i + 1;
		now.owd_us = 1000 + 400;	/* link 1: 400 us later */
		stripe_reseq_frame(&r, &cfg, 1, &wi, frame_skb(10, 0), &now);
		now.ns += 10 * US;
	}
	__skb_queue_purge(&r.out);
	check(stripe_reseq_skew(&r, 0, &skew0) && stripe_reseq_skew(&r, 1, &skew1) &&
	      skew0 == 0 && skew1 == 400,
	      "skew: link 1 measured 400 us behind link 0, offset cancelled");
	check(!stripe_reseq_skew(&r, 2, &skew0), "skew: a silent link has none");
	check(stripe_reseq_max_skew(&r) == 400, "skew: the largest is link 1's");
}

/* Frames on links 0 and 1, one a millisecond each: clock offset 5000 us,
 * link 1 @extra_us longer, and with @queueing up to 3 ms in a queue, empty
 * one frame in 50.
 */
static void feed_two_links(u32 *seq, struct stripe_reseq_now *now,
			   unsigned int ms, s32 extra_us, bool queueing)
{
	struct stripe_wire_info wi = { .proto = htons(ETH_P_IP), .sender = 1 };
	unsigned int i, link;

	for (i = 0; i < ms; i++) {
		for (link = 0; link < 2; link++) {
			wi.gseq = wi.fseq = (*seq)++;
			now->owd_us = 5000 + extra_us * link;
			if (queueing && rand() % 50)
				now->owd_us += rand() % 3000;
			stripe_reseq_frame(&r, &cfg, link, &wi,
					   frame_skb(10, 0), now);
		}
		__skb_queue_purge(&r.out);
		now->ns += 1000 * US;
	}
}

/* Queueing adds delay at random; the skew is the paths' own difference */
static void test_skew_under_queueing(void)
{
	struct stripe_reseq_now now = { .ns = 0 };
	u32 seq = 0, skew1;

	start();
	srand(7);
	feed_two_links(&seq, &now, 2000, 300, true);
	check(stripe_reseq_skew(&r, 1, &skew1) && skew1 == 300,
	      "skew: queueing delay does not count, the path's does (300 us)");
	/* link 1's path gets 200 us shorter: followed within two windows */
	feed_two_links(&seq, &now, 2500, 100, false);
	check(stripe_reseq_skew(&r, 1, &skew1) && skew1 == 100,
	      "skew: a path that changed is followed (100 us)");
}

/* Each report gives the least queueing delay of its link since the last
 * one (adaptive shares at the sender)
 */
static void test_feedback_queueing(void)
{
	struct stripe_wire_info wi = { .proto = htons(ETH_P_IP), .sender = 1 };
	struct stripe_reseq_now now = { .ns = 1000 * MS };
	static struct stripe_feedback_msg msg;
	const struct stripe_link_report *a, *b;
	unsigned int i, link;
	u32 seq = 1;

	start();
	/* 10 ms: link 0 (wire 10) never queues; link 1 (wire 11) does not at
	 * first, then holds 2 to 3 ms in a queue
	 */
	for (i = 0; i < 10; i++) {
		for (link = 0; link < 2; link++) {
			wi.gseq = wi.fseq = seq++;
			wi.link = 10 + link;
			now.owd_us = 5000 + 400 * link;
			if (link && i >= 5)
				now.owd_us += 2000 + 100 * (i % 3);
			stripe_reseq_frame(&r, &cfg, link, &wi,
					   frame_skb(10, 0), &now);
		}
		__skb_queue_purge(&r.out);
		now.ns += MS;
	}
	feedback_at(now.ns, &msg);
	a = report_of(&msg, 10);
	b = report_of(&msg, 11);
	check(a && b && a->queue_us == 0 && b->queue_us == 0,
	      "queueing: the least since the last report (none yet)");
	for (i = 0; i < 10; i++) {
		wi.gseq = wi.fseq = seq++;
		wi.link = 11;
		now.owd_us = 5400 + 2000 + 100 * (i % 3);
		stripe_reseq_frame(&r, &cfg, 1, &wi, frame_skb(10, 0), &now);
		__skb_queue_purge(&r.out);
		now.ns += MS;
	}
	feedback_at(now.ns, &msg);
	a = report_of(&msg, 10);
	b = report_of(&msg, 11);
	check(a && b && a->queue_us == STRIPE_WIRE_QUEUE_NONE &&
	      b->queue_us == 2000,
	      "queueing: a standing queue of 2 ms on link 1, its path's 400 us not counted");
	feedback_at(now.ns + 10 * MS, &msg);
	b = report_of(&msg, 11);
	check(b && b->queue_us == STRIPE_WIRE_QUEUE_NONE,
	      "queueing: a link that carried nothing since says so");
}

/* A frame of sender 1 on link 0 (its id 10): gseq @gseq, fseq @fseq, lseq
 * @lseq, a marker if @marker
 */
static void lseq_frame(u32 gseq, u32 fseq, u8 lseq, bool marker,
		       const struct stripe_reseq_now *now)
{
	struct stripe_wire_info wi = {
		.proto = htons(ETH_P_IP), .sender = 1, .link = 10,
		.gseq = gseq, .fseq = fseq, .lseq = lseq,
		.flags = marker ? STRIPE_WIRE_F_MARKER : 0,
	};

	stripe_reseq_frame(&r, &cfg, 0, &wi, frame_skb(10, 0), now);
	__skb_queue_purge(&r.out);
}

/* Link 10's line of the report after @waits loss waits from @now */
static const struct stripe_link_report *
lost_report(struct stripe_reseq_now *now, unsigned int waits,
	    struct stripe_feedback_msg *msg)
{
	while (waits--) {
		now->ns += STRIPE_RX_LOSS_WAIT_NS;
		feedback_at(now->ns, msg);
	}
	return report_of(msg, 10);
}

/* Each link's lseq: the numbers it skipped are counted lost, in the
 * report (the sender takes a lossy link down to the least pace)
 */
static void test_feedback_lost(void)
{
	struct stripe_reseq_now now = { .ns = 1000 * MS };
	static const u8 lseqs[] = { 250, 251, 253, 254, 2, 3 };
	static struct stripe_feedback_msg msg;
	const struct stripe_link_report *a;
	u32 seq = 1, slot;
	unsigned int i;
	u64 held;

	start();
	/* 252, 255, 0 and 1 skipped (across the wrap): 4 lost */
	for (i = 0; i < sizeof(lseqs); i++, seq++) {
		lseq_frame(seq, seq, lseqs[i], false, &now);
		now.ns += MS;
	}
	feedback_at(now.ns, &msg);
	a = report_of(&msg, 10);
	check(a && a->lost == 0 && a->frames == 6,
	      "lost: the lseq numbers a link skipped wait before they count");
	a = lost_report(&now, 1, &msg);
	check(a && a->lost == 4,
	      "lost: the lseq numbers a link skipped are counted (4, across the wrap)");
	/* A frame older than the link's newest (not FIFO) was counted lost
	 * when the newer one came first: it takes one back, and moves lseq
	 * nothing; the next in order counts none lost
	 */
	lseq_frame(seq - 3, seq, 1, false, &now);
	seq++;
	lseq_frame(seq, seq, 4, false, &now);
	seq++;
	/* A jump of 64 or more (a sender that started afresh): no loss */
	lseq_frame(seq, seq, 100, false, &now);
	seq++;
	a = lost_report(&now, 1, &msg);
	check(a && a->lost == 3,
	      "lost: a frame that came late is not lost after all; a restart counts nothing");
	/* A marker sent right after a data frame on the same link carries
	 * its gseq; the veth backlog of another CPU puts it first
	 */
	lseq_frame(seq, seq, 101, false, &now);
	seq++;
	lseq_frame(seq, seq, 103, true, &now);
	lseq_frame(seq, seq, 102, false, &now);
	seq++;
	lseq_frame(seq, seq, 104, false, &now);
	a = lost_report(&now, 2, &msg);
	check(a && a->lost == 3,
	      "lost: a marker and a data frame of one gseq, swapped on the link: none lost");
	/* Late on its own link (veth puts a link's frames on the backlogs
	 * of two CPUs), after a report: the sender, which cannot take back
	 * a loss, never hears of it
	 */
	seq++;
	lseq_frame(seq, seq, 105, false, &now);
	seq++;
	lseq_frame(seq, seq, 107, false, &now);
	seq++;
	a = lost_report(&now, 1, &msg);
	check(a && a->lost == 3,
	      "lost: a skipped number is not reported before it waited");
	lseq_frame(seq - 2, seq, 106, false, &now);
	a = lost_report(&now, 1, &msg);
	check(a && a->lost == 3,
	      "lost: ... and once its frame came late, never");
	/* Its frame waits on a CPU held off since before it was skipped
	 * (stripe_rx_caught_up()): not lost while that CPU has not caught
	 * up, however long it waits
	 */
	seq++;
	lseq_frame(seq, seq, 108, false, &now);
	held = now.ns;
	now.ns += MS;
	lseq_frame(seq + 2, seq + 2, 110, false, &now);
	for (i = 0; i < 3; i++) {
		now.ns += STRIPE_RX_LOSS_WAIT_NS;
		for (slot = 0; slot < STRIPE_RX_SENDERS; slot++)
			if (stripe_reseq_feedback(&r, slot, now.ns, held,
						  20 * MS, &msg))
				break;
	}
	a = report_of(&msg, 10);
	check(a && a->lost == 3,
	      "lost: a skipped number waits for every CPU to catch up");
	lseq_frame(seq + 1, seq + 1, 109, false, &now);
	a = lost_report(&now, 2, &msg);
	check(a && a->lost == 3,
	      "lost: ... and its frame, taken then, is not lost");
}

/* The sender numbers each destination's frames on a link apart, and a
 * frame to a group (a marker to every host, a multicast packet) with none:
 * its lseq counts nothing, whatever it is, and the count starts at the
 * first frame to us alone
 */
static void test_feedback_lost_group(void)
{
	struct stripe_reseq_now now = { .ns = 1000 * MS, .group = true };
	static struct stripe_feedback_msg msg;
	const struct stripe_link_report *a;
	u32 seq = 1;

	start();
	lseq_frame(seq, seq, 0, true, &now);
	seq++;
	lseq_frame(seq, seq, 0, false, &now);
	seq++;
	now.group = false;
	lseq_frame(seq, seq, 50, false, &now);
	seq++;
	lseq_frame(seq, seq, 51, false, &now);
	seq++;
	now.group = true;
	lseq_frame(seq, seq, 0, true, &now);
	seq++;
	lseq_frame(seq, seq, 7, false, &now);
	seq++;
	now.group = false;
	lseq_frame(seq, seq, 52, false, &now);
	seq++;
	a = lost_report(&now, 2, &msg);
	check(a && a->lost == 0,
	      "lost: frames to a group count no lseq, before or between ours");
	lseq_frame(seq, seq, 54, false, &now);
	a = lost_report(&now, 2, &msg);
	check(a && a->lost == 1,
	      "lost: ... and a number skipped among ours still counts");
}

/* Frames 1 (link 0) and 2 (link 1) of @wi's sender, then 4 on link 0:
 * 1 and 2 go up, 4 is held for 3 (link 1 has not passed it)
 */
static void ordered_gap(struct stripe_wire_info *wi,
			const struct stripe_reseq_now *now)
{
	static const u8 links[] = { 0, 1, 0 }, seqs[] = { 1, 2, 4 };
	unsigned int i;

	for (i = 0; i < sizeof(seqs); i++) {
		wi->gseq = wi->fseq = seqs[i];
		wi->link = 10 + links[i];
		stripe_reseq_frame(&r, &cfg, links[i], wi, frame_skb(10, 0),
				   now);
	}
	wi->link = 10;
}

/* One sender per source address on a link: made-up ids from one host take
 * one place, not the table; a restarted peer takes its old place once that
 * went quiet
 */
static void test_one_sender_per_addr(void)
{
	static const u8 forger[ETH_ALEN] = { 2, 0, 0, 0, 0, 0x66 };
	static const u8 peer[ETH_ALEN] = { 2, 0, 0, 0, 0, 5 };
	struct stripe_wire_info wi = { .proto = htons(ETH_P_IP), .link = 10 };
	struct stripe_reseq_now now = { .ns = 1000 * MS, .src = forger };
	unsigned int i;

	start();
	for (i = 0; i < 1000; i++) {
		wi.sender = 0x5EED0000 + i;
		wi.gseq = wi.fseq = 1;
		stripe_reseq_frame(&r, &cfg, 0, &wi, frame_skb(10, 0), &now);
		now.ns += MS / 1000;
	}
	check(stripe_reseq_senders(&r) == 1 && r.stats.no_state == 999 &&
	      skb_queue_len(&r.out) == 1000,
	      "one per address: 1000 made-up ids from one host take one place (the rest go up unordered)");
	__skb_queue_purge(&r.out);
	/* A genuine new peer still gets state, and its frames are ordered */
	now.src = peer;
	wi.sender = 5;
	ordered_gap(&wi, &now);
	check(stripe_reseq_senders(&r) == 2 && skb_queue_len(&r.out) == 2 &&
	      r.held == 1,
	      "one per address: a genuine new peer still gets ordered delivery (a gap is held)");
	__skb_queue_purge(&r.out);
	/* The peer restarts with a new id: unordered until the old one has
	 * been quiet for a second, then in its place
	 */
	wi.sender = 6;
	wi.gseq = wi.fseq = 1;
	now.ns += MS;
	stripe_reseq_frame(&r, &cfg, 0, &wi, frame_skb(10, 0), &now);
	check(stripe_reseq_senders(&r) == 2 && r.stats.no_state == 1000,
	      "one per address: a new id from a busy address goes up unordered");
	__skb_queue_purge(&r.out);
	now.ns += 1500 * MS;
	stripe_reseq_tick(&r, &cfg, now.ns);	/* the old one's gap gives up */
	__skb_queue_purge(&r.out);
	ordered_gap(&wi, &now);
	check(stripe_reseq_senders(&r) == 2 && r.stats.no_state == 1000 &&
	      skb_queue_len(&r.out) == 2 && r.held == 1,
	      "one per address: ... and takes the old one's place once it was quiet 1 s");
	__skb_queue_purge(&r.out);
}

/* A sender is believed on a link from one source address */
static void test_wrong_addr(void)
{
	static const u8 peer[ETH_ALEN] = { 2, 0, 0, 0, 0, 5 };
	static const u8 other[ETH_ALEN] = { 2, 0, 0, 0, 0, 9 };
	struct stripe_wire_info wi = { .proto = htons(ETH_P_IP), .sender = 5,
				       .link = 10 };
	struct stripe_reseq_now now = { .ns = 1000 * MS, .src = peer };
	bool ok;

	start();
	wi.gseq = wi.fseq = 1;
	ok = stripe_reseq_frame(&r, &cfg, 0, &wi, frame_skb(10, 0), &now);
	check(ok && skb_queue_len(&r.out) == 1,
	      "addr: a sender's first frame on a link binds it to its address");
	__skb_queue_purge(&r.out);
	/* A host on the segment sends in its name, far ahead */
	now.src = other;
	now.ns += MS;
	wi.gseq = wi.fseq = 1000;
	ok = stripe_reseq_frame(&r, &cfg, 0, &wi, frame_skb(10, 0), &now);
	check(!ok && r.stats.wrong_addr == 1 && !skb_queue_len(&r.out) &&
	      !r.held,
	      "addr: its id from another address is refused, counted");
	now.src = peer;
	wi.gseq = wi.fseq = 2;
	ok = stripe_reseq_frame(&r, &cfg, 0, &wi, frame_skb(10, 0), &now);
	check(ok && skb_queue_len(&r.out) == 1 && !r.stats.late &&
	      r.stats.in_order == 2,
	      "addr: ... and moved nothing: its next real frame goes up in order");
	__skb_queue_purge(&r.out);
	check(stripe_reseq_fb_source(&r, 5, 0, other) == STRIPE_FB_SRC_WRONG &&
	      r.stats.wrong_addr == 2,
	      "addr: feedback in its name from another address is refused");
	check(stripe_reseq_fb_source(&r, 5, 0, peer) == STRIPE_FB_SRC_BOUND &&
	      stripe_reseq_fb_source(&r, 5, 0, NULL) == STRIPE_FB_SRC_BOUND,
	      "addr: ... from its own, or with none known, it is not");
	check(stripe_reseq_fb_source(&r, 5, 1, other) == STRIPE_FB_SRC_UNBOUND,
	      "addr: a link it was not heard on binds nothing");
	/* Its address changed: believed once the old one was quiet 10 s */
	now.ns += 9000 * MS;
	now.src = other;
	wi.gseq = wi.fseq = 3;
	ok = stripe_reseq_frame(&r, &cfg, 0, &wi, frame_skb(10, 0), &now);
	check(!ok && r.stats.wrong_addr == 3,
	      "addr: ... still refused after 9 s of quiet");
	now.ns += 1000 * MS;
	ok = stripe_reseq_frame(&r, &cfg, 0, &wi, frame_skb(10, 0), &now);
	check(ok && skb_queue_len(&r.out) == 1 && r.stats.wrong_addr == 3,
	      "addr: a new address is believed once the old one was quiet 10 s");
	__skb_queue_purge(&r.out);
}

/* Review K1: only a frame of a sender we keep state for, from its address,
 * says that the link delivers (rx.c clears rx_silent on it)
 */
static void test_unknown_sender_says_nothing(void)
{
	static const u8 peer[ETH_ALEN] = { 2, 0, 0, 0, 0, 5 };
	static const u8 other[ETH_ALEN] = { 2, 0, 0, 0, 0, 9 };
	struct stripe_wire_info wi = { .proto = htons(ETH_P_IP), .sender = 5 };
	struct stripe_reseq_now now = { .ns = 1000 * MS, .src = peer };
	bool ok;

	start();
	wi.gseq = 1;
	wi.fseq = 1;
	ok = stripe_reseq_frame(&r, &cfg, 0, &wi, frame_skb(10, 0), &now);
	check(ok && skb_queue_len(&r.out) == 1,
	      "trust: a known sender's frame from its address is believed");
	__skb_queue_purge(&r.out);
	/* A third host marks in a name we keep no state for */
	now.src = other;
	wi.sender = 77;
	wi.flags = STRIPE_WIRE_F_MARKER;
	wi.proto = 0;
	wi.fseq = 0;
	ok = stripe_reseq_frame(&r, &cfg, 0, &wi, frame_skb(10, 0), &now);
	check(!ok && stripe_reseq_senders(&r) == 1 && !skb_queue_len(&r.out),
	      "trust: a marker of an unknown sender is not believed");
	/* ... or sends data under a new id from the peer's busy address:
	 * up it goes, unordered, but it says nothing of the link
	 */
	now.src = peer;
	wi.sender = 6;
	wi.flags = 0;
	wi.proto = htons(ETH_P_IP);
	wi.gseq = 1;
	wi.fseq = 1;
	ok = stripe_reseq_frame(&r, &cfg, 0, &wi, frame_skb(10, 0), &now);
	check(!ok && r.stats.no_state == 1 && skb_queue_len(&r.out) == 1,
	      "trust: data without state goes up, but is not believed");
	__skb_queue_purge(&r.out);
	/* The peer's own marker is */
	wi.sender = 5;
	wi.flags = STRIPE_WIRE_F_MARKER;
	wi.proto = 0;
	wi.fseq = 0;
	ok = stripe_reseq_frame(&r, &cfg, 0, &wi, frame_skb(10, 0), &now);
	check(ok, "trust: the peer's marker from its address is believed");
}

/* A frame from @src with @owd_us; what stripe_reseq_frame() said */
static bool frame_from(u32 link, u32 sender, u32 gseq, u32 fseq,
		       const u8 *src, u64 ns, s32 owd_us)
{
	struct stripe_wire_info wi = { .proto = htons(ETH_P_IP),
				       .sender = sender, .gseq = gseq,
				       .fseq = fseq };
	struct stripe_reseq_now now = { .ns = ns, .owd_us = owd_us,
					.src = src };

	return stripe_reseq_frame(&r, &cfg, link, &wi,
				  frame_skb(1000, TAG(0, fseq)), &now);
}

/* Review K3: a frame that is refused (a duplicate, or too far ahead)
 * moves no state: not the link's newest gseq, nor its delay baselines,
 * nor the sender's address
 */
static void test_refused_frame_moves_nothing(void)
{
	static const u8 peer[ETH_ALEN] = { 2, 0, 0, 0, 0, 5 };
	static const u8 other[ETH_ALEN] = { 2, 0, 0, 0, 0, 9 };
	struct stripe_feedback_msg msg;
	u64 now = 1000 * MS;
	bool ok;

	start();
	frame_from(0, 5, 1, 1, peer, now, 100);
	marker(1, 5, 1, now);
	frame_from(0, 5, 3, 3, peer, now + 10 * US, 100);
	check(OUT(TAG(0, 1)) && r.held == 1,
	      "refused: a gap is held, its frame due on the other link");
	/* Copies of the held frame, and one far ahead, on the other link:
	 * believed, their gseq would say that link passed the gap
	 */
	ok = frame_from(1, 5, 100, 3, peer, now + 20 * US, -1000000);
	ok |= frame_from(1, 5, 101, 3 + (1U << 30), peer, now + 30 * US,
			 -1000000);
	check(!ok && r.held == 1 && NOTHING_OUT() && !r.stats.lost_link,
	      "refused: a duplicate or a frame too far ahead does not release the gap");
	/* (a report: the next one shows the queue of the frames after it) */
	stripe_reseq_feedback(&r, stripe_reseq_next_slot(&r, 0),
			      now + 35 * US, now + 35 * US, 20 * MS, &msg);
	frame_from(1, 5, 2, 2, peer, now + 40 * US, 100);
	check(OUT(TAG(0, 2), TAG(0, 3)) && !r.stats.lost_link,
	      "refused: ... which the real frame fills");
	/* Their delay (-1 s) did not become the link's base: no queue shown */
	check(stripe_reseq_feedback(&r, stripe_reseq_next_slot(&r, 0),
				    now + 50 * US, now + 50 * US, 20 * MS, &msg) &&
	      msg.n == 2 && msg.report[1].queue_us < 1000,
	      "refused: ... and did not move the link's delay baseline");
	/* After 10 s of quiet, a refused frame from another address does not
	 * take the sender's place on the link
	 */
	now += 11000 * MS;
	ok = frame_from(0, 5, 200, 4 + (1U << 30), other, now, 100);
	check(!ok && frame_from(0, 5, 4, 4, peer, now + US, 100) &&
	      OUT(TAG(0, 4)),
	      "refused: ... nor bound the sender to another address");
}

/* Review K2: a report is believed from the address the reporter's data
 * comes from on that link; from anywhere else it is not (feedback.c then
 * takes it only from an address we send data to there)
 */
static void test_feedback_source(void)
{
	static const u8 peer[ETH_ALEN] = { 2, 0, 0, 0, 0, 5 };
	static const u8 other[ETH_ALEN] = { 2, 0, 0, 0, 0, 9 };
	u64 wrong;

	start();
	frame_from(0, 5, 1, 1, peer, 1000 * MS, 100);
	__skb_queue_purge(&r.out);
	wrong = r.stats.wrong_addr;
	check(stripe_reseq_fb_source(&r, 5, 0, peer) == STRIPE_FB_SRC_BOUND &&
	      stripe_reseq_fb_source(&r, 5, 0, NULL) == STRIPE_FB_SRC_BOUND,
	      "fb source: from the reporter's address on the link (or none known)");
	check(stripe_reseq_fb_source(&r, 5, 0, other) == STRIPE_FB_SRC_WRONG &&
	      r.stats.wrong_addr == wrong + 1,
	      "fb source: from another address: wrong, counted");
	check(stripe_reseq_fb_source(&r, 77, 0, other) == STRIPE_FB_SRC_UNBOUND,
	      "fb source: from a reporter we keep no state for: not bound");
	check(stripe_reseq_fb_source(&r, 5, 1, other) == STRIPE_FB_SRC_UNBOUND,
	      "fb source: on a link its data never came on: not bound");
}

int main(void)
{
	stripe_reseq_init(&r);
	fill_pool(&r);
	test_parse();
	test_in_order();
	test_swap();
	test_loss_by_link_rule();
	test_slow_link_is_waited_for();
	test_marker_unfreezes();
	test_silent_link_leaves();
	test_pause_is_not_silence();
	test_link_silent_for_failover();
	test_timeout();
	test_late_frame_widens_the_wait();
	test_late_after_the_bound_teaches_nothing();
	test_late_behind_a_stale_link_is_kept_briefly();
	test_dead_link_costs_one_timeout();
	test_flows_are_independent();
	test_new_flow();
	test_new_flow_duplicate();
	test_late_and_duplicates();
	test_limits();
	test_senders();
	test_skew();
	test_gseq_wraps_past_a_dead_link();
	test_skew_under_queueing();
	test_feedback_queueing();
	test_feedback_lost();
	test_one_sender_per_addr();
	test_senders_flood();
	test_feedback_new_senders();
	test_wrong_addr();
	test_unknown_sender_says_nothing();
	test_refused_frame_moves_nothing();
	test_feedback_source();
	test_parse_feedback();
	test_feedback();
	test_feedback_slow_link();
	test_feedback_idle();
	test_feedback_cpu_behind();
	test_feedback_gap_own();
	test_feedback_bursty_sender();
	test_feedback_after_pause();
	test_feedback_stalled_sender();
	test_feedback_lone_frames();
	test_feedback_probes_only();
	test_feedback_rare_stalls();
	test_feedback_not_for_group_frames();
	test_feedback_lost_group();
	stripe_reseq_destroy(&r);
	check(!kshim_skbs && !kshim_allocs, "no frame and no state leaked");
	printf("# reseq: %d passed, %d failed\n", tests - failures, failures);
	return failures ? 1 : 0;
}
