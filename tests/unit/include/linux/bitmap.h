/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KSHIM_BITMAP_H
#define _KSHIM_BITMAP_H
#include "../kshim.h"

#define BITS_PER_LONG (8 * sizeof(long))
#define BITS_TO_LONGS(n) (((n) + BITS_PER_LONG - 1) / BITS_PER_LONG)
#define DECLARE_BITMAP(name, bits) unsigned long name[BITS_TO_LONGS(bits)]

static inline void __set_bit(unsigned int b, unsigned long *map)
{
	map[b / BITS_PER_LONG] |= 1UL << (b % BITS_PER_LONG);
}

static inline void __clear_bit(unsigned int b, unsigned long *map)
{
	map[b / BITS_PER_LONG] &= ~(1UL << (b % BITS_PER_LONG));
}

static inline bool test_bit(unsigned int b, const unsigned long *map)
{
	return map[b / BITS_PER_LONG] >> (b % BITS_PER_LONG) & 1;
}

static inline bool __test_and_set_bit(unsigned int b, unsigned long *map)
{
	bool was = test_bit(b, map);

	__set_bit(b, map);
	return was;
}

static inline unsigned int find_next_bit(const unsigned long *map,
					 unsigned int size, unsigned int b)
{
	while (b < size && !test_bit(b, map))
		b++;
	return b;
}

static inline unsigned int find_first_zero_bit(const unsigned long *map,
					       unsigned int size)
{
	unsigned int b = 0;

	while (b < size && test_bit(b, map))
		b++;
	return b;
}

static inline unsigned int find_first_bit(const unsigned long *map,
					  unsigned int size)
{
	return find_next_bit(map, size, 0);
}

static inline bool bitmap_empty(const unsigned long *map, unsigned int size)
{
	return find_next_bit(map, size, 0) >= size;
}

static inline unsigned int bitmap_weight(const unsigned long *map,
					 unsigned int size)
{
	unsigned int b, n = 0;

	for (b = find_next_bit(map, size, 0); b < size;
	     b = find_next_bit(map, size, b + 1))
		n++;
	return n;
}

static inline void bitmap_copy(unsigned long *dst, const unsigned long *src,
			       unsigned int size)
{
	memcpy(dst, src, BITS_TO_LONGS(size) * sizeof(long));
}

#define for_each_set_bit(b, map, size) \
	for ((b) = find_next_bit(map, size, 0); (b) < (size); \
	     (b) = find_next_bit(map, size, (b) + 1))
#endif
