/* SPDX-License-Identifier: GPL-2.0 */
/* Time helpers: everything inside the tool runs on CLOCK_MONOTONIC ns. */
#ifndef SP_CLOCK_H
#define SP_CLOCK_H

#include <stdint.h>
#include <time.h>

#define SP_NSEC_PER_SEC		1000000000LL
#define SP_NSEC_PER_MSEC	1000000LL

static inline int64_t sp_clock_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (int64_t)ts.tv_sec * SP_NSEC_PER_SEC + ts.tv_nsec;
}

static inline int64_t sp_now_ns(void)
{
	return sp_clock_ns(CLOCK_MONOTONIC);
}

static inline double sp_ns_to_s(int64_t ns)
{
	return (double)ns / 1e9;
}

#endif /* SP_CLOCK_H */
