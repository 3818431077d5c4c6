/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stripe: numbering a frame with reorder on -- its gseq (the master's
 * count of frames, which each link carries in rising order) and its fseq
 * (its flow bucket's count).
 *
 * The receiver declares the gap before a held frame lost once every link
 * has delivered a gseq past that frame's (reseq.c, the link rule): it
 * relies on a later fseq of a bucket having a later gseq.  Two CPUs that
 * send in one bucket on two links could take the two numbers in opposite
 * orders; the frame with the earlier fseq, still on its way, was then
 * declared lost and arrived late (review K8).  So a bucket keeps the gseq
 * of its last fseq beside it, both changed by one cmpxchg, and a gseq
 * taken before another CPU's frame in the bucket is taken again.  A gseq
 * skipped so is never sent: the receiver compares gseqs, never counts
 * them.
 */
#ifndef _STRIPE_TXSEQ_H
#define _STRIPE_TXSEQ_H

#include <linux/atomic.h>
#include <linux/types.h>

/* A flow bucket's last fseq (high half) and the gseq it went with */
#define STRIPE_TXSEQ(fseq, gseq)	((s64)((u64)(fseq) << 32 | (u32)(gseq)))

/* Number a frame of the bucket @bucket: *@gseq from the master's @tx_gseq,
 * *@fseq the bucket's next.  Under the link's root qdisc lock, as its FIFO
 * takes the frame (stripe_link_number()), so that the link carries gseqs
 * in rising order.
 */
static inline void stripe_txseq_take(atomic_t *tx_gseq, atomic64_t *bucket,
				     u32 *gseq, u32 *fseq)
{
	u32 g = atomic_inc_return(tx_gseq);
	s64 old = atomic64_read(bucket), new;

	do {
		/* Another CPU numbered a frame of the bucket with a later
		 * gseq meanwhile: a later one.  (Once is enough: a gseq
		 * taken now is later than any published.  A bucket idle
		 * for 2^31 frames looks ahead; it is passed anyway.)
		 */
		if ((s32)(g - (u32)old) < 0)
			g = atomic_inc_return(tx_gseq);
		new = STRIPE_TXSEQ((u32)((u64)old >> 32) + 1, g);
	} while (!atomic64_try_cmpxchg(bucket, &old, new));
	*gseq = g;
	*fseq = (u64)new >> 32;
}

#endif /* _STRIPE_TXSEQ_H */
