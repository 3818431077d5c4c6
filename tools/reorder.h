/* SPDX-License-Identifier: GPL-2.0 */
/* Per-stream sequence accounting for UDP: duplicates, RFC 4737 reordering
 * (Type-P-Reordered, reordering extent, n-reordering) and the RFC 5236
 * reorder buffer-occupancy density (RBD).
 */
#ifndef SP_REORDER_H
#define SP_REORDER_H

#include <stdint.h>

/* Histogram buckets: 0, 1, 2, 3, 4, 5-8, 9-16, ..., 4097-8192, more. */
#define SP_HIST_N		17
#define SP_HIST_INF		(SP_HIST_N - 1)

/* Arrivals remembered for extent and n-reordering. Beyond it an extent
 * counts as "more" (the last bucket).
 */
#define SP_RO_WINDOW		16384
/* RBD: a gap is declared lost once this many packets wait behind it. */
#define SP_RBD_THRESHOLD	1024
/* Exact n-reordering counts kept for n = 1..SP_NREORD_MAX. */
#define SP_NREORD_MAX		16
/* Largest jump ahead accepted; beyond it the number is taken as garbage. */
#define SP_RO_MAX_JUMP		(1ULL << 24)
/* Sequence numbers remembered for duplicate detection: a fixed window
 * behind the highest one seen, so memory does not follow the sequence
 * number. Anything older is counted as too late (invalid), not guessed.
 */
#define SP_RO_SEEN_BITS		65536
#define SP_RO_SEEN_WORDS	(SP_RO_SEEN_BITS / 64)

unsigned int sp_hist_bucket(uint64_t v);
uint64_t sp_hist_lo(unsigned int b);
uint64_t sp_hist_hi(unsigned int b);	/* UINT64_MAX for the last */

struct sp_reorder_sum {
	uint64_t received;	/* distinct sequence numbers */
	uint64_t dup;
	uint64_t reordered;	/* RFC 4737 3.3: s < NextExp on arrival */
	uint64_t max_seq;	/* highest sequence number seen + 1 */
	uint64_t max_extent;	/* within the window */
	uint64_t invalid;	/* too far ahead, or behind the window */
	uint64_t extent[SP_HIST_N];	/* RFC 4737 4.2 */
	uint64_t degree[SP_HIST_N];	/* largest n a packet is n-reordered */
	uint64_t nreord[SP_NREORD_MAX + 1];	/* [n]: n-reordered, 5.1 */
	uint64_t rbd[SP_HIST_N];	/* RFC 5236 buffer occupancy */
	uint64_t rbd_max;
	uint64_t rbd_lost;	/* gaps RBD gave up on */
	uint64_t rbd_late;	/* arrived after RBD gave up on them */
};

struct sp_reorder {
	struct sp_reorder_sum s;
	uint64_t next_exp;	/* RFC 4737 NextExp */
	uint64_t arrivals;	/* index i of the last distinct arrival */
	uint64_t *ring_seq;	/* s[i] */
	uint64_t *ring_max;	/* max(s[1..i]): non-decreasing in i */
	uint64_t *seen;		/* bit seq % SP_RO_SEEN_BITS, for sequence
				 * numbers in [max_seq - SP_RO_SEEN_BITS,
				 * max_seq)
				 */
	uint64_t rbd_next;	/* RFC 5236: next sequence number to release */
	uint64_t rbd_occ;	/* packets held */
	uint64_t first;		/* -O: lower ones were sent while omitted */
};

enum sp_ro_verdict {
	SP_RO_IN_ORDER,
	SP_RO_REORDERED,
	SP_RO_DUPLICATE,
	SP_RO_INVALID,
	SP_RO_OMITTED,		/* below first: ignored, not counted */
};

int sp_reorder_init(struct sp_reorder *r);
void sp_reorder_free(struct sp_reorder *r);
int sp_reorder_add(struct sp_reorder *r, uint64_t seq);
/* -O: the omitted time ends. Counters start again from zero, and the
 * numbers up to the highest seen so far are left out from now on: the
 * results start with the next one, as if the stream started there.
 */
void sp_reorder_restart(struct sp_reorder *r);

/* Aggregate for totals over streams. */
void sp_reorder_sum_add(struct sp_reorder_sum *dst,
			const struct sp_reorder_sum *src);

#endif /* SP_REORDER_H */
