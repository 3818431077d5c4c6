/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Just enough of the kernel's API for kernel/reseq.c to build and run on the
 * host, unchanged (tests/unit/).  Every sk_buff is counted, so tests and
 * fuzzers can check that none leaks.
 */
#ifndef _KSHIM_H
#define _KSHIM_H

#include <arpa/inet.h>
#include <assert.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int32_t s32;
typedef int64_t s64;

#define S64_MAX INT64_MAX
#define S32_MAX INT32_MAX
#define S32_MIN INT32_MIN
#define BIT(n) (1UL << (n))
#define BUILD_BUG_ON(c) _Static_assert(!(c), #c)
#define sizeof_field(t, m) sizeof(((t *)0)->m)
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))
#define max(a, b) ((a) > (b) ? (a) : (b))
#define min(a, b) ((a) < (b) ? (a) : (b))
#define min_t(t, a, b) ((t)(a) < (t)(b) ? (t)(a) : (t)(b))
#define clamp_t(t, v, lo, hi) min_t(t, max_t(t, v, lo), hi)
#define max_t(t, a, b) ((t)(a) > (t)(b) ? (t)(a) : (t)(b))
#define U8_MAX UINT8_MAX
#define U16_MAX UINT16_MAX
#define NSEC_PER_MSEC 1000000ULL
#define NSEC_PER_USEC 1000ULL
#define U32_MAX UINT32_MAX
#define unlikely(x) (x)
#define likely(x) (x)
#define GFP_ATOMIC 0
#define GFP_KERNEL 0

static inline u64 div_u64(u64 a, u32 b)
{
	return a / b;
}

extern long kshim_allocs;	/* live kzalloc()s */
extern long kshim_skbs;		/* live sk_buffs */
extern bool kshim_fail_alloc;	/* make kzalloc() fail */

static inline void *kzalloc(size_t n, int gfp)
{
	void *p;

	(void)gfp;
	if (kshim_fail_alloc)
		return NULL;
	p = calloc(1, n);
	if (p)
		kshim_allocs++;
	return p;
}

static inline void kfree(const void *p)
{
	if (p)
		kshim_allocs--;
	free((void *)p);
}

static inline void get_random_bytes(void *buf, size_t n)
{
	unsigned char *p = buf;

	while (n--)
		*p++ = (unsigned char)rand();
}

#define GFP_KERNEL_ACCOUNT 0
#define kvzalloc kzalloc
#define kvfree kfree

static inline unsigned int fls64(u64 x)
{
	return x ? 64 - __builtin_clzll(x) : 0;
}

#endif
