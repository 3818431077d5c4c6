// SPDX-License-Identifier: GPL-2.0
/*
 * Host test of kernel/txseq.h (review K8): two threads number frames of one
 * flow bucket at once, as two CPUs sending on two links do; every later
 * fseq must have a later gseq (the receiver's link rule relies on it).
 * Numbered by two separate atomics, as before, the orders disagreed within
 * the first 2000 frames (three runs on this 2-core machine).
 */
#include <pthread.h>
#include <stdio.h>

#include "txseq.h"

#define FRAMES	(1 << 20)	/* per thread */

static atomic_t tx_gseq;
static atomic64_t bucket;
static u32 gseq_of[2 * FRAMES + 1];	/* by fseq */

static void *sender(void *arg)
{
	u32 g, f, i;

	(void)arg;
	for (i = 0; i < FRAMES; i++) {
		stripe_txseq_take(&tx_gseq, &bucket, &g, &f);
		assert(f >= 1 && f <= 2 * FRAMES && !gseq_of[f]);
		gseq_of[f] = g;
	}
	return NULL;
}

/* A bucket whose last gseq looks ahead of the master's count (idle for
 * about 2^31 frames) costs one gseq more, no loop, and is in order after
 */
static void test_stale_bucket(void)
{
	atomic_t g = { .counter = 100 };
	atomic64_t b = { .counter = STRIPE_TXSEQ(7, 100u + (1u << 30)) };
	u32 gseq, fseq;

	stripe_txseq_take(&g, &b, &gseq, &fseq);
	assert(fseq == 8 && gseq == 102);
	stripe_txseq_take(&g, &b, &gseq, &fseq);
	assert(fseq == 9 && gseq == 103);
}

int main(void)
{
	pthread_t t[2];
	u32 f, skipped;
	int i;

	test_stale_bucket();
	for (i = 0; i < 2; i++)
		assert(!pthread_create(&t[i], NULL, sender, NULL));
	for (i = 0; i < 2; i++)
		assert(!pthread_join(t[i], NULL));
	for (f = 1; f <= 2 * FRAMES; f++) {
		assert(gseq_of[f]);
		if (f > 1 && (s32)(gseq_of[f] - gseq_of[f - 1]) <= 0) {
			printf("not ok: fseq %u has gseq %u, fseq %u has %u\n",
			       f - 1, gseq_of[f - 1], f, gseq_of[f]);
			return 1;
		}
	}
	skipped = (u32)tx_gseq.counter - 2 * FRAMES;
	printf("ok: %u frames of one bucket on two threads, fseq and gseq in one order (%u gseqs skipped)\n",
	       2 * FRAMES, skipped);
	return 0;
}
