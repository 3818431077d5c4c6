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
	d->min_ns = INT64_MAX;
	d->max_ns = INT64_MIN;
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

/* n samples of transit t into the histograms */
static void sp_owd_count(struct sp_owd *d, int64_t t, uint64_t n)
{
	if (t >= d->base)
		d->above[sp_owd_bucket((uint64_t)(t - d->base))] += n;
	else
		d->below[sp_owd_bucket((uint64_t)(d->base - t))] += n;
}

void sp_owd_add(struct sp_owd *d, int64_t send_ns, int64_t recv_ns)
{
	int64_t transit = recv_ns - send_ns, diff;

	if (transit < 0)
		d->negative++;
	if (d->count) {
		diff = transit - d->last_transit;
		if (diff < 0)
			diff = -diff;
		d->jitter_ns += ((double)diff - d->jitter_ns) / 16.0;
	} else {
		d->base = transit;
	}
	d->last_transit = transit;
	d->count++;
	d->sum_ns += (double)transit;
	if (transit < d->min_ns)
		d->min_ns = transit;
	if (transit > d->max_ns)
		d->max_ns = transit;
	sp_owd_count(d, transit, 1);
}

/* Streams have their own base: src's buckets move over at their middle. */
void sp_owd_merge(struct sp_owd *dst, const struct sp_owd *src)
{
	unsigned int b;

	if (!src->count)
		return;
	if (!dst->count)
		dst->base = src->base;
	for (b = 0; b < SP_OWD_BUCKETS; b++) {
		if (src->above[b])
			sp_owd_count(dst, src->base +
				     (int64_t)sp_owd_bucket_mid(b),
				     src->above[b]);
		if (src->below[b])
			sp_owd_count(dst, src->base -
				     (int64_t)sp_owd_bucket_mid(b),
				     src->below[b]);
	}
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

static int64_t sp_owd_clamp(const struct sp_owd *d, int64_t v)
{
	/* the true value cannot lie outside [min, max] */
	return v < d->min_ns ? d->min_ns : v > d->max_ns ? d->max_ns : v;
}

int64_t sp_owd_quantile(const struct sp_owd *d, double q)
{
	uint64_t rank, acc = 0;
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
	/* lowest first: furthest below the base, then upwards */
	for (b = SP_OWD_BUCKETS; b-- > 0;) {
		acc += d->below[b];
		if (acc >= rank)
			return sp_owd_clamp(d, d->base -
					    (int64_t)sp_owd_bucket_mid(b));
	}
	for (b = 0; b < SP_OWD_BUCKETS; b++) {
		acc += d->above[b];
		if (acc >= rank)
			return sp_owd_clamp(d, d->base +
					    (int64_t)sp_owd_bucket_mid(b));
	}
	return d->max_ns;
}

int64_t sp_owd_pdv(const struct sp_owd *d, double q)
{
	return d->count ? sp_owd_quantile(d, q) - d->min_ns : 0;
}

double sp_owd_mean(const struct sp_owd *d)
{
	return d->count ? d->sum_ns / (double)d->count : 0.0;
}
