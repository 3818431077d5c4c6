/* SPDX-License-Identifier: GPL-2.0 */
/* The host shim's keyed hash: a mix, not SipHash; enough for tests. */
#ifndef _KSHIM_SIPHASH_H
#define _KSHIM_SIPHASH_H
#include "../kshim.h"

typedef struct {
	unsigned long key[2];
} hsiphash_key_t;

static inline u32 hsiphash_1u32(const u32 a, const hsiphash_key_t *key)
{
	u64 x = (a ^ key->key[0]) * 0x9E3779B97F4A7C15ULL;

	return (u32)((x ^ (x >> 29) ^ key->key[1]) >> 7);
}
#endif
