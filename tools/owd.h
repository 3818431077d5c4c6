/* SPDX-License-Identifier: GPL-2.0 */
/* One-way delay: a log-linear histogram (error < 1/64) for percentiles,
 * exact min/max/mean, and RFC 3550 interarrival jitter.
 */
#ifndef SP_OWD_H
#define SP_OWD_H

#include <stdint.h>

#define SP_OWD_SUB_BITS	6
#define SP_OWD_SUB	(1u << SP_OWD_SUB_BITS)
#define SP_OWD_BUCKETS	((64 - SP_OWD_SUB_BITS + 1) * SP_OWD_SUB)

struct sp_owd {
	uint64_t count;
	uint64_t negative;	/* clocks disagree: counted as 0 */
	uint64_t min_ns;
	uint64_t max_ns;
	double sum_ns;
	double jitter_ns;
	int64_t last_transit;
	uint64_t bucket[SP_OWD_BUCKETS];
};

void sp_owd_init(struct sp_owd *d);
void sp_owd_add(struct sp_owd *d, int64_t send_ns, int64_t recv_ns);
void sp_owd_merge(struct sp_owd *dst, const struct sp_owd *src);
/* q in [0, 1]; 0 when empty */
uint64_t sp_owd_quantile(const struct sp_owd *d, double q);
double sp_owd_mean(const struct sp_owd *d);

unsigned int sp_owd_bucket(uint64_t v);
uint64_t sp_owd_bucket_mid(unsigned int b);

#endif /* SP_OWD_H */
