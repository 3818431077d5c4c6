// SPDX-License-Identifier: GPL-2.0
/* Values below 2 * SP_OWD_SUB ns have a bucket each; above, every power of
 * two is split into SP_OWD_SUB buckets, so memory is fixed and percentiles
 * come out within 1/SP_OWD_SUB of the true value.
 */
#include <string.h>

#include "owd.h"

void sp_owd_init(struct sp_owd *d)
{
	memset(d, 0, sizeof(*d));
	d->min_ns = UINT64_MAX;
}

unsigned int sp_owd_bucket(uint64_t v)
{
	unsigned int msb, shift;

	if (v < 2 * SP_OWD_SUB)
		return (unsigned int)v;
	msb = 63 - __builtin_clzll(v);
	shift = msb - SP_OWD_SUB_BITS;
	return (shift + 1) * SP_OWD_SUB +
	       (unsigned int)((v >> shift) & (SP_OWD_SUB - 1));
}

uint64_t sp_owd_bucket_mid(unsigned int b)
{
	unsigned int shift;
	uint64_t lo;

	if (b < 2 * SP_OWD_SUB)
		return b;
	shift = b / SP_OWD_SUB - 1;
	lo = ((uint64_t)SP_OWD_SUB + b % SP_OWD_SUB) << shift;
	return lo + ((1ULL << shift) >> 1);
}

void sp_owd_add(struct sp_owd *d, int64_t send_ns, int64_t recv_ns)
{
	int64_t transit = recv_ns - send_ns, diff;
	uint64_t v;

	if (transit < 0) {
		d->negative++;
		v = 0;
	} else {
		v = (uint64_t)transit;
	}
	if (d->count) {
		diff = transit - d->last_transit;
		if (diff < 0)
			diff = -diff;
		d->jitter_ns += ((double)diff - d->jitter_ns) / 16.0;
	}
	d->last_transit = transit;
	d->count++;
	d->sum_ns += (double)v;
	if (v < d->min_ns)
		d->min_ns = v;
	if (v > d->max_ns)
		d->max_ns = v;
	d->bucket[sp_owd_bucket(v)]++;
}

void sp_owd_merge(struct sp_owd *dst, const struct sp_owd *src)
{
	unsigned int b;

	if (!src->count)
		return;
	for (b = 0; b < SP_OWD_BUCKETS; b++)
		dst->bucket[b] += src->bucket[b];
	/* jitter of a merge: weighted mean of the streams' jitter */
	dst->jitter_ns = (dst->jitter_ns * dst->count +
			  src->jitter_ns * src->count) /
			 (double)(dst->count + src->count);
	dst->count += src->count;
	dst->negative += src->negative;
	dst->sum_ns += src->sum_ns;
	if (src->min_ns < dst->min_ns)
		dst->min_ns = src->min_ns;
	if (src->max_ns > dst->max_ns)
		dst->max_ns = src->max_ns;
}

uint64_t sp_owd_quantile(const struct sp_owd *d, double q)
{
	uint64_t rank, acc = 0, v;
	unsigned int b;

	if (!d->count)
		return 0;
	if (q <= 0)
		return d->min_ns;
	if (q >= 1)
		return d->max_ns;
	/* nearest-rank: the smallest value with at least q of samples */
	rank = (uint64_t)(q * (double)d->count);
	if ((double)rank < q * (double)d->count)
		rank++;
	if (!rank)
		rank = 1;
	for (b = 0; b < SP_OWD_BUCKETS; b++) {
		acc += d->bucket[b];
		if (acc >= rank) {
			v = sp_owd_bucket_mid(b);
			/* the true value cannot lie outside [min, max] */
			if (v < d->min_ns)
				v = d->min_ns;
			if (v > d->max_ns)
				v = d->max_ns;
			return v;
		}
	}
	return d->max_ns;
}

double sp_owd_mean(const struct sp_owd *d)
{
	return d->count ? d->sum_ns / (double)d->count : 0.0;
}
