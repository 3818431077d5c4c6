// SPDX-License-Identifier: GPL-2.0
/* Reordering metrics.
 *
 * RFC 4737: with NextExp the next expected sequence number, a packet with
 * s >= NextExp is in order (NextExp = s + 1), anything lower is reordered.
 * Its extent is i - j, i its arrival index and j the earliest arrival with
 * a larger sequence number. Since the running maximum of arrived sequence
 * numbers never decreases, j is the first index where the running maximum
 * exceeds s, found by binary search over the window. It is n-reordered for
 * every n up to the count of immediately preceding arrivals that are all
 * larger than s (its "degree").
 *
 * RFC 5236 RBD: a receive buffer releases packets in sequence; after every
 * arrival its occupancy is counted. When SP_RBD_THRESHOLD packets wait
 * behind a gap, the gap is declared lost and skipped.
 *
 * Duplicates are detected with a bitmap of the last SP_RO_SEEN_BITS
 * sequence numbers and excluded from all metrics, as both RFCs ask. The
 * bitmap has a fixed size so a sender cannot grow it with large sequence
 * numbers; a number older than it is counted invalid (too late to tell).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "reorder.h"

unsigned int sp_hist_bucket(uint64_t v)
{
	unsigned int b;

	if (v <= 4)
		return (unsigned int)v;
	/* 5..8 -> 5, 9..16 -> 6, ... */
	b = 64 - __builtin_clzll(v - 1);	/* bits to hold v - 1 */
	b += 2;
	return b < SP_HIST_INF ? b : SP_HIST_INF;
}

uint64_t sp_hist_lo(unsigned int b)
{
	if (b <= 4)
		return b;
	return (1ULL << (b - 3)) + 1;
}

uint64_t sp_hist_hi(unsigned int b)
{
	if (b <= 4)
		return b;
	if (b >= SP_HIST_INF)
		return UINT64_MAX;
	return 1ULL << (b - 2);
}

int sp_reorder_init(struct sp_reorder *r)
{
	memset(r, 0, sizeof(*r));
	r->ring_seq = calloc(SP_RO_WINDOW, sizeof(*r->ring_seq));
	r->ring_max = calloc(SP_RO_WINDOW, sizeof(*r->ring_max));
	r->seen = calloc(SP_RO_SEEN_WORDS, sizeof(*r->seen));
	if (!r->ring_seq || !r->ring_max || !r->seen) {
		sp_reorder_free(r);
		return -ENOMEM;
	}
	return 0;
}

void sp_reorder_free(struct sp_reorder *r)
{
	free(r->ring_seq);
	free(r->ring_max);
	free(r->seen);
	r->ring_seq = NULL;
	r->ring_max = NULL;
	r->seen = NULL;
}

/* Lowest sequence number the window still remembers. */
static uint64_t sp_seen_lo(uint64_t max_seq)
{
	return max_seq > SP_RO_SEEN_BITS ? max_seq - SP_RO_SEEN_BITS : 0;
}

static int sp_seen_test(const struct sp_reorder *r, uint64_t seq)
{
	uint64_t bit = seq % SP_RO_SEEN_BITS;

	if (seq >= r->s.max_seq || seq < sp_seen_lo(r->s.max_seq))
		return 0;
	return (r->seen[bit / 64] >> (bit % 64)) & 1;
}

static void sp_seen_clear(struct sp_reorder *r, uint64_t seq)
{
	uint64_t bit = seq % SP_RO_SEEN_BITS;

	r->seen[bit / 64] &= ~(1ULL << (bit % 64));
}

/* The highest sequence number moves up to top - 1. Numbers falling out of
 * the window leave the RBD buffer first: held ones are released, gaps
 * given up on. Work is bounded by the window, whatever the jump.
 */
static void sp_seen_slide(struct sp_reorder *r, uint64_t top)
{
	uint64_t old = r->s.max_seq, new_lo = sp_seen_lo(top), seq;

	seq = r->rbd_next;
	if (seq < new_lo) {
		for (; seq < new_lo && seq < old; seq++) {
			if (sp_seen_test(r, seq))
				r->rbd_occ--;
			else
				r->s.rbd_lost++;
		}
		r->s.rbd_lost += new_lo - seq;
		r->rbd_next = new_lo;
	}
	if (top - old >= SP_RO_SEEN_BITS)
		memset(r->seen, 0, SP_RO_SEEN_WORDS * sizeof(*r->seen));
	else
		for (seq = old; seq < top; seq++)
			sp_seen_clear(r, seq);
	r->s.max_seq = top;
}

#define SP_RING(i)	((i) % SP_RO_WINDOW)

/* Extent (RFC 4737 4.2) of a reordered s arriving at index i. */
static uint64_t sp_extent(const struct sp_reorder *r, uint64_t i, uint64_t s)
{
	uint64_t lo, hi, mid;

	lo = i > SP_RO_WINDOW ? i - SP_RO_WINDOW + 1 : 1;
	hi = i - 1;	/* ring_max[hi] > s holds: s is reordered */
	if (r->ring_max[SP_RING(lo)] > s && lo > 1)
		return UINT64_MAX;	/* j is older than the window */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (r->ring_max[SP_RING(mid)] > s)
			hi = mid;
		else
			lo = mid + 1;
	}
	return i - lo;
}

/* Degree of n-reordering (RFC 4737 5.1) of s arriving at index i. */
static uint64_t sp_degree(const struct sp_reorder *r, uint64_t i, uint64_t s)
{
	uint64_t k, n = 0;

	for (k = i - 1; k >= 1 && i - k < SP_RO_WINDOW; k--) {
		if (r->ring_seq[SP_RING(k)] <= s)
			break;
		n++;
	}
	return n;
}

static void sp_rbd_add(struct sp_reorder *r, uint64_t s)
{
	struct sp_reorder_sum *m = &r->s;

	if (s < r->rbd_next) {
		m->rbd_late++;
	} else if (s > r->rbd_next) {
		r->rbd_occ++;
		if (r->rbd_occ > SP_RBD_THRESHOLD) {
			/* give up on the gap(s) in front of the held packets */
			while (r->rbd_next < m->max_seq &&
			       !sp_seen_test(r, r->rbd_next)) {
				r->rbd_next++;
				m->rbd_lost++;
			}
		}
	} else {
		r->rbd_next++;
	}
	/* release what is now in sequence */
	while (r->rbd_occ && sp_seen_test(r, r->rbd_next)) {
		r->rbd_next++;
		r->rbd_occ--;
	}
	m->rbd[sp_hist_bucket(r->rbd_occ)]++;
	if (r->rbd_occ > m->rbd_max)
		m->rbd_max = r->rbd_occ;
}

int sp_reorder_add(struct sp_reorder *r, uint64_t seq)
{
	struct sp_reorder_sum *m = &r->s;
	uint64_t i, e, d, n, prev_max;

	if (seq < r->first)
		return SP_RO_OMITTED;
	/* 64-bit numbers: an honest sender never wraps them */
	if (seq > m->max_seq + SP_RO_MAX_JUMP || seq == UINT64_MAX ||
	    seq < sp_seen_lo(m->max_seq)) {
		m->invalid++;
		return SP_RO_INVALID;
	}
	if (sp_seen_test(r, seq)) {
		m->dup++;
		return SP_RO_DUPLICATE;
	}
	if (seq >= m->max_seq)
		sp_seen_slide(r, seq + 1);
	r->seen[(seq % SP_RO_SEEN_BITS) / 64] |= 1ULL << (seq % 64);
	m->received++;

	i = ++r->arrivals;
	prev_max = i > 1 ? r->ring_max[SP_RING(i - 1)] : 0;
	r->ring_seq[SP_RING(i)] = seq;
	r->ring_max[SP_RING(i)] = i > 1 && prev_max > seq ? prev_max : seq;

	sp_rbd_add(r, seq);

	if (seq >= r->next_exp) {
		r->next_exp = seq + 1;
		return SP_RO_IN_ORDER;
	}

	m->reordered++;
	e = sp_extent(r, i, seq);
	if (e == UINT64_MAX) {
		m->extent[SP_HIST_INF]++;
	} else {
		m->extent[sp_hist_bucket(e)]++;
		if (e > m->max_extent)
			m->max_extent = e;
	}
	d = sp_degree(r, i, seq);
	m->degree[sp_hist_bucket(d)]++;
	for (n = 1; n <= d && n <= SP_NREORD_MAX; n++)
		m->nreord[n]++;
	return SP_RO_REORDERED;
}

void sp_reorder_restart(struct sp_reorder *r)
{
	uint64_t first = r->s.max_seq;

	memset(&r->s, 0, sizeof(r->s));
	memset(r->seen, 0, SP_RO_SEEN_WORDS * sizeof(*r->seen));
	r->s.max_seq = first;
	r->first = first;
	r->next_exp = first;
	r->arrivals = 0;
	r->rbd_next = first;
	r->rbd_occ = 0;
}

void sp_reorder_sum_add(struct sp_reorder_sum *dst,
			const struct sp_reorder_sum *src)
{
	unsigned int b;

	dst->received += src->received;
	dst->dup += src->dup;
	dst->reordered += src->reordered;
	dst->max_seq += src->max_seq;
	dst->invalid += src->invalid;
	if (src->max_extent > dst->max_extent)
		dst->max_extent = src->max_extent;
	for (b = 0; b < SP_HIST_N; b++) {
		dst->extent[b] += src->extent[b];
		dst->degree[b] += src->degree[b];
		dst->rbd[b] += src->rbd[b];
	}
	for (b = 0; b <= SP_NREORD_MAX; b++)
		dst->nreord[b] += src->nreord[b];
	if (src->rbd_max > dst->rbd_max)
		dst->rbd_max = src->rbd_max;
	dst->rbd_lost += src->rbd_lost;
	dst->rbd_late += src->rbd_late;
}
