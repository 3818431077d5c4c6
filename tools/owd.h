/* SPDX-License-Identifier: GPL-2.0 */
/* Transit times (receive minus send time, signed: clocks may differ):
 * log-linear histograms (error < 1/64 of the distance from the first
 * transit seen) for percentiles, exact min/max/mean, and RFC 3550
 * interarrival jitter. Transit minus its minimum is the RFC 5481 packet
 * delay variation, right whatever the clocks' offset; transit itself is
 * the one-way delay only when the clocks are synchronised.
 */
#ifndef SP_OWD_H
#define SP_OWD_H

#include <stdint.h>

#define SP_OWD_SUB_BITS	6
#define SP_OWD_SUB	(1u << SP_OWD_SUB_BITS)
#define SP_OWD_BUCKETS	((64 - SP_OWD_SUB_BITS + 1) * SP_OWD_SUB)

struct sp_owd {
	uint64_t count;
	uint64_t negative;	/* transit < 0: the clocks differ */
	int64_t min_ns;
	int64_t max_ns;
	double sum_ns;
	double jitter_ns;
	int64_t last_transit;
	int64_t base;		/* the first transit: buckets count from it */
	uint64_t above[SP_OWD_BUCKETS];	/* transit - base >= 0 */
	uint64_t below[SP_OWD_BUCKETS];	/* base - transit > 0 */
};

void sp_owd_init(struct sp_owd *d);
void sp_owd_add(struct sp_owd *d, int64_t send_ns, int64_t recv_ns);
void sp_owd_merge(struct sp_owd *dst, const struct sp_owd *src);
/* Transit at quantile q in [0, 1]; 0 when empty */
int64_t sp_owd_quantile(const struct sp_owd *d, double q);
/* RFC 5481 PDV at quantile q: transit minus the minimum transit */
int64_t sp_owd_pdv(const struct sp_owd *d, double q);
double sp_owd_mean(const struct sp_owd *d);

unsigned int sp_owd_bucket(uint64_t v);
uint64_t sp_owd_bucket_mid(unsigned int b);

#endif /* SP_OWD_H */
