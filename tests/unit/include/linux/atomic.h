/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel's atomics, as the compiler's (tests/unit/test_txseq.c runs
 * kernel/txseq.h on two threads): sequentially consistent, as the kernel's
 * value-returning ones are.
 */
#ifndef _KSHIM_ATOMIC_H
#define _KSHIM_ATOMIC_H

typedef struct { int counter; } atomic_t;
typedef struct { s64 counter; } atomic64_t;

static inline int atomic_inc_return(atomic_t *v)
{
	return __atomic_add_fetch(&v->counter, 1, __ATOMIC_SEQ_CST);
}

static inline s64 atomic64_read(const atomic64_t *v)
{
	return __atomic_load_n(&v->counter, __ATOMIC_RELAXED);
}

static inline bool atomic64_try_cmpxchg(atomic64_t *v, s64 *old,
					s64 new)
{
	return __atomic_compare_exchange_n(&v->counter, old, new, false,
					   __ATOMIC_SEQ_CST, __ATOMIC_RELAXED);
}

#endif
