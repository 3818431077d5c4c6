// SPDX-License-Identifier: GPL-2.0
/* One-way delay histogram and percentiles. */
#include <math.h>

#include "../owd.h"
#include "tap.h"

void test_owd(void)
{
	static struct sp_owd d, e;
	double pdv50, pdv99;
	uint64_t v, mid, worst = 0;
	unsigned int i;
	double err, maxerr = 0;

	for (v = 1; v < (1ULL << 40); v = v * 17 / 16 + 1) {
		mid = sp_owd_bucket_mid(sp_owd_bucket(v));
		err = fabs((double)mid - (double)v) / (double)v;
		if (err > maxerr) {
			maxerr = err;
			worst = v;
		}
	}
	ok(maxerr <= 1.0 / 64, "bucket midpoint within 1/64 (worst %.4f at %llu)",
	   maxerr, (unsigned long long)worst);
	ok(sp_owd_bucket(UINT64_MAX) < SP_OWD_BUCKETS, "largest value fits");

	sp_owd_init(&d);
	for (i = 1; i <= 1000; i++)
		sp_owd_add(&d, 0, (int64_t)i * 1000);	/* 1..1000 us */
	ok(d.count == 1000 && d.min_ns == 1000 && d.max_ns == 1000000,
	   "count, min, max exact");
	ok(fabs((double)sp_owd_quantile(&d, 0.5) - 500000) < 500000 / 64.0 &&
	   fabs((double)sp_owd_quantile(&d, 0.99) - 990000) < 990000 / 64.0,
	   "p50 ~ 500 us, p99 ~ 990 us");
	ok(sp_owd_quantile(&d, 1.0) == 1000000, "p100 is the max");
	ok(fabs(sp_owd_mean(&d) - 500500) < 1, "mean exact");
	ok(fabs(d.jitter_ns - 1000) < 1,
	   "RFC 3550 jitter of a 1 us ramp converges to 1 us");

	sp_owd_init(&e);
	sp_owd_add(&e, 100, 50);
	ok(e.negative == 1 && e.max_ns == -50,
	   "a negative transit is counted and kept as it is");
	sp_owd_merge(&e, &d);
	ok(e.count == 1001 && e.max_ns == 1000000 && e.min_ns == -50 &&
	   fabs((double)sp_owd_quantile(&e, 0.5) - 500000) < 500000 / 64.0,
	   "merge adds histograms");

	/* Issue 15, defect 6: the sender's clock 1 ms ahead. Delay variation
	 * relative to the least transit (RFC 5481 PDV) needs no common clock;
	 * clamping negative transits to 0 lost it.
	 */
	sp_owd_init(&e);
	for (i = 0; i < 1000; i++)	/* 1 ms ahead, delays 0..999 us */
		sp_owd_add(&e, 1000000, (int64_t)i * 1000);
	pdv50 = (double)(int64_t)sp_owd_quantile(&e, 0.5) -
		(double)(int64_t)e.min_ns;
	pdv99 = (double)(int64_t)sp_owd_quantile(&e, 0.99) -
		(double)(int64_t)e.min_ns;
	diag("clock 1 ms ahead: PDV p50 %.0f ns, p99 %.0f ns", pdv50, pdv99);
	ok(fabs(pdv50 - 500000) < 1000000 / 64.0 &&
	   fabs(pdv99 - 990000) < 1000000 / 64.0,
	   "delay variation is right with the clocks 1 ms apart");
}
