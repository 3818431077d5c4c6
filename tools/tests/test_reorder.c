// SPDX-License-Identifier: GPL-2.0
/* RFC 4737 / RFC 5236 metrics on sequences worked out by hand. */
#include <malloc.h>
#include <string.h>

#include "../reorder.h"
#include "tap.h"

static void feed(struct sp_reorder *r, const unsigned int *s, unsigned int n)
{
	unsigned int i;

	sp_reorder_init(r);
	for (i = 0; i < n; i++)
		sp_reorder_add(r, s[i]);
}

static int hist_is(const uint64_t *h, const uint64_t *want)
{
	return !memcmp(h, want, sizeof(uint64_t) * SP_HIST_N);
}

static void test_buckets(void)
{
	ok(sp_hist_bucket(0) == 0 && sp_hist_bucket(4) == 4 &&
	   sp_hist_bucket(5) == 5 && sp_hist_bucket(8) == 5 &&
	   sp_hist_bucket(9) == 6 && sp_hist_bucket(16) == 6 &&
	   sp_hist_bucket(8192) == 15 && sp_hist_bucket(8193) == 16 &&
	   sp_hist_bucket(UINT64_MAX) == 16,
	   "histogram buckets 0,1,2,3,4,5-8,9-16,...,4097-8192,more");
	ok(sp_hist_lo(5) == 5 && sp_hist_hi(5) == 8 && sp_hist_lo(6) == 9 &&
	   sp_hist_hi(15) == 8192 && sp_hist_hi(16) == UINT64_MAX,
	   "histogram bucket bounds");
}

static void test_in_order(void)
{
	static const unsigned int s[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9 };
	uint64_t zero[SP_HIST_N] = { 0 }, rbd[SP_HIST_N] = { 10 };
	struct sp_reorder r;

	feed(&r, s, 10);
	ok(r.s.received == 10 && r.s.reordered == 0 && r.s.dup == 0,
	   "in order: 10 received, 0 reordered, ratio 0");
	ok(hist_is(r.s.extent, zero) && r.s.nreord[1] == 0 &&
	   r.s.max_extent == 0, "in order: no extents, no n-reordering");
	ok(hist_is(r.s.rbd, rbd) && r.s.rbd_max == 0,
	   "in order: RBD occupancy 0 for all 10 arrivals");
	sp_reorder_free(&r);
}

/* 0 1 3 4 5 2 6 7: packet 2 arrives at i=6; first later-numbered arrival
 * is 3 at j=3 -> extent 3; 5, 4, 3 precede it -> 1-, 2-, 3-reordered.
 */
static void test_one_late(void)
{
	static const unsigned int s[] = { 0, 1, 3, 4, 5, 2, 6, 7 };
	uint64_t ext[SP_HIST_N] = { [3] = 1 };
	uint64_t rbd[SP_HIST_N] = { [0] = 5, [1] = 1, [2] = 1, [3] = 1 };
	struct sp_reorder r;

	feed(&r, s, 8);
	ok(r.s.received == 8 && r.s.reordered == 1,
	   "one late: 1 of 8 reordered (ratio 0.125)");
	ok(hist_is(r.s.extent, ext) && r.s.max_extent == 3,
	   "one late: extent 3");
	ok(r.s.nreord[1] == 1 && r.s.nreord[2] == 1 && r.s.nreord[3] == 1 &&
	   r.s.nreord[4] == 0, "one late: 1-, 2-, 3-reordered, not 4");
	ok(hist_is(r.s.rbd, rbd) && r.s.rbd_max == 3,
	   "one late: RBD 0:5 1:1 2:1 3:1");
	sp_reorder_free(&r);
}

/* 0 1 3 2 4 5: a swap; 2 at i=4, 3 at j=3 -> extent 1, 1-reordered. */
static void test_swap(void)
{
	static const unsigned int s[] = { 0, 1, 3, 2, 4, 5 };
	uint64_t ext[SP_HIST_N] = { [1] = 1 };
	uint64_t rbd[SP_HIST_N] = { [0] = 5, [1] = 1 };
	struct sp_reorder r;

	feed(&r, s, 6);
	ok(r.s.received == 6 && r.s.reordered == 1,
	   "swap: 1 of 6 reordered");
	ok(hist_is(r.s.extent, ext) && r.s.max_extent == 1,
	   "swap: extent 1");
	ok(r.s.nreord[1] == 1 && r.s.nreord[2] == 0,
	   "swap: 1-reordered, not 2-reordered");
	ok(hist_is(r.s.rbd, rbd) && r.s.rbd_max == 1, "swap: RBD 0:5 1:1");
	sp_reorder_free(&r);
}

/* 0 1 6 7 8 2 3 4 5 9: a burst overtakes. 2,3,4,5 arrive at i=6..9, the
 * first larger arrival is 6 at j=3 -> extents 3,4,5,6. Only 2 follows
 * larger numbers (8,7,6): degree 3; 3,4,5 follow a smaller one: degree 0.
 */
static void test_burst(void)
{
	static const unsigned int s[] = { 0, 1, 6, 7, 8, 2, 3, 4, 5, 9 };
	uint64_t ext[SP_HIST_N] = { [3] = 1, [4] = 1, [5] = 2 };
	uint64_t deg[SP_HIST_N] = { [0] = 3, [3] = 1 };
	uint64_t rbd[SP_HIST_N] = { [0] = 4, [1] = 1, [2] = 1, [3] = 4 };
	struct sp_reorder r;

	feed(&r, s, 10);
	ok(r.s.received == 10 && r.s.reordered == 4,
	   "burst: 4 of 10 reordered (ratio 0.4)");
	ok(hist_is(r.s.extent, ext) && r.s.max_extent == 6,
	   "burst: extents 3, 4, 5, 6");
	ok(hist_is(r.s.degree, deg) && r.s.nreord[1] == 1 &&
	   r.s.nreord[3] == 1 && r.s.nreord[4] == 0,
	   "burst: only packet 2 is n-reordered, n = 1..3");
	ok(hist_is(r.s.rbd, rbd) && r.s.rbd_max == 3,
	   "burst: RBD 0:4 1:1 2:1 3:4");
	sp_reorder_free(&r);
}

static void test_dup_loss(void)
{
	static const unsigned int d[] = { 0, 1, 1, 2, 0 };
	static const unsigned int l[] = { 0, 1, 3, 4 };
	uint64_t rbd[SP_HIST_N] = { [0] = 2, [1] = 1, [2] = 1 };
	struct sp_reorder r;

	feed(&r, d, 5);
	ok(r.s.received == 3 && r.s.dup == 2 && r.s.reordered == 0,
	   "duplicates are counted and excluded from reordering");
	sp_reorder_free(&r);

	feed(&r, l, 4);
	ok(r.s.received == 3 + 1 && r.s.reordered == 0 && r.s.max_seq == 5,
	   "a loss is not reordering; max_seq 5 gives loss 1");
	ok(hist_is(r.s.rbd, rbd), "loss: RBD holds packets behind the gap");
	sp_reorder_free(&r);
}

static void test_far(void)
{
	struct sp_reorder r;
	unsigned int i;

	sp_reorder_init(&r);
	for (i = 1; i <= 20000; i++)
		sp_reorder_add(&r, i);
	ok(sp_reorder_add(&r, 0) == SP_RO_REORDERED,
	   "packet 20000 places late is reordered");
	ok(r.s.extent[SP_HIST_INF] == 1 && r.s.nreord[SP_NREORD_MAX] == 1,
	   "extent beyond the window lands in the last bucket");
	ok(sp_reorder_add(&r, 1ULL << 40) == SP_RO_INVALID &&
	   r.s.invalid == 1, "absurd sequence number rejected");
	ok(r.s.rbd_lost == 1 && r.s.rbd_max == SP_RBD_THRESHOLD,
	   "RBD gives up on a gap at its threshold");
	sp_reorder_free(&r);
}

/* Heap in use, counting the large blocks malloc maps on their own. */
static size_t sp_heap(void)
{
	struct mallinfo2 mi = mallinfo2();

	return mi.uordblks + mi.hblkhd;
}

/* Issue 15, defect 1: a sender jumping ahead must not make the receiver
 * allocate in proportion to the sequence number.
 */
static void test_jumps_bounded(void)
{
	size_t before, after;
	struct sp_reorder r;
	uint64_t seq = 0;
	unsigned int i, bad = 0;

	before = sp_heap();
	sp_reorder_init(&r);
	for (i = 0; i < 64; i++) {
		seq += SP_RO_MAX_JUMP;
		if (sp_reorder_add(&r, seq) != SP_RO_IN_ORDER)
			bad++;
	}
	after = sp_heap();
	diag("tracker heap after 64 jumps to %llu: %zu KiB",
	     (unsigned long long)seq, (after - before) >> 10);
	ok(!bad && after - before < (1u << 20),
	   "64 jumps of 2^24 accepted in under 1 MiB of heap");
	ok(r.s.rbd_max <= SP_RBD_THRESHOLD + 1,
	   "RBD holds no more than its threshold across jumps");
	sp_reorder_free(&r);
}

/* Issue 15, defect 2: an honest stream passes 2^31 datagrams after 41
 * minutes at 10 Gbit/s; numbers beyond it are still sequence numbers.
 */
static void test_past_2_31(void)
{
	uint64_t base = (1ULL << 31) - 8, s, bad = 0;
	struct sp_reorder r;

	sp_reorder_init(&r);
	/* get there the way a sender would, in steps it may take */
	for (s = SP_RO_MAX_JUMP; s < base; s += SP_RO_MAX_JUMP)
		sp_reorder_add(&r, s);
	for (s = base; s < base + 16; s++)
		if (sp_reorder_add(&r, s) != SP_RO_IN_ORDER)
			bad++;
	ok(!bad && r.s.invalid == 0, "sequence numbers past 2^31 count");
	ok(sp_reorder_add(&r, base + 3) == SP_RO_DUPLICATE,
	   "a duplicate past 2^31 is seen as one");
	ok(sp_reorder_add(&r, base + 20) == SP_RO_IN_ORDER &&
	   sp_reorder_add(&r, base + 18) == SP_RO_REORDERED,
	   "reordering past 2^31 is measured");
	ok(sp_reorder_add(&r, base - SP_RO_SEEN_BITS) == SP_RO_INVALID,
	   "a number older than the window counts invalid, not received");
	sp_reorder_free(&r);
}

/* The window slides: duplicates inside it are found, the buffer releases
 * what falls out of it.
 */
static void test_window_slides(void)
{
	struct sp_reorder r;
	uint64_t s, dups = 0;

	sp_reorder_init(&r);
	for (s = 0; s < 3 * SP_RO_SEEN_BITS; s++)
		sp_reorder_add(&r, s);
	for (s = 2 * SP_RO_SEEN_BITS + 1; s < 3 * SP_RO_SEEN_BITS; s += 997)
		dups += sp_reorder_add(&r, s) == SP_RO_DUPLICATE;
	ok(dups == 66 && r.s.dup == 66 && r.s.received == 3 * SP_RO_SEEN_BITS,
	   "duplicates inside the sliding window are counted (%llu)",
	   (unsigned long long)dups);
	/* one gap, then a jump that pushes it out of the window */
	sp_reorder_add(&r, 3 * SP_RO_SEEN_BITS + 1);
	sp_reorder_add(&r, 5 * SP_RO_SEEN_BITS);
	ok(r.rbd_occ <= 1 && r.rbd_next >= 4 * SP_RO_SEEN_BITS,
	   "RBD lets go of what leaves the window (occupancy %llu)",
	   (unsigned long long)r.rbd_occ);
	sp_reorder_free(&r);
}

/* -O: the results start where the omitted time ended, as if the stream
 * started there; a late datagram of the omitted time counts nowhere.
 */
static void test_restart(void)
{
	struct sp_reorder r;
	uint64_t s;

	sp_reorder_init(&r);
	for (s = 0; s < 10; s++)
		if (s != 4 && s != 7)
			sp_reorder_add(&r, s);
	sp_reorder_restart(&r);
	ok(r.s.received == 0 && r.s.max_seq == 10 && r.first == 10 &&
	   !r.s.reordered, "restart: counters from zero, next number 10");
	ok(sp_reorder_add(&r, 4) == SP_RO_OMITTED && r.s.received == 0 &&
	   !r.s.reordered && !r.s.invalid && !r.s.rbd_late,
	   "restart: a late datagram of the omitted time is ignored");
	ok(sp_reorder_add(&r, 10) == SP_RO_IN_ORDER,
	   "restart: the first one after it is in order");
	for (s = 11; s < 20; s++)
		sp_reorder_add(&r, s);
	ok(r.s.received == 10 && !r.s.reordered && !r.s.rbd_lost &&
	   r.s.max_seq == 20 && r.s.rbd[0] == 10,
	   "restart: 10 in order, none lost or held (%llu, %llu)",
	   (unsigned long long)r.s.received,
	   (unsigned long long)r.s.rbd_lost);
	ok(sp_reorder_add(&r, 7) == SP_RO_OMITTED &&
	   sp_reorder_add(&r, 15) == SP_RO_DUPLICATE,
	   "restart: the omitted gap stays out, duplicates still count");
	sp_reorder_free(&r);
}

void test_reorder(void)
{
	test_buckets();
	test_in_order();
	test_one_late();
	test_swap();
	test_burst();
	test_dup_loss();
	test_far();
	test_jumps_bounded();
	test_past_2_31();
	test_window_slides();
	test_restart();
}
