/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KSHIM_UNALIGNED_H
#define _KSHIM_UNALIGNED_H
#include "../kshim.h"

static inline u16 get_unaligned_be16(const void *p)
{
	u16 v;

	memcpy(&v, p, sizeof(v));
	return ntohs(v);
}

static inline u32 get_unaligned_be32(const void *p)
{
	u32 v;

	memcpy(&v, p, sizeof(v));
	return ntohl(v);
}
#endif
