/* SPDX-License-Identifier: GPL-2.0 */
/*
 * abi_check.h: what tc-plugin/abi-check.c and ip-plugin/abi-check.c
 * share (abi-check.mk compiles them against an iproute2 source tree).
 * Included first: iproute2's own lib/ headers, then iproute2_abi.h with
 * STRIPE_ABI_CHECK, so that each function both declare by hand is
 * declared twice (a type that differs is a "conflicting types" error)
 * and the values the plugins pass are compared.  The includer adds its
 * binary's header (ip_common.h, tc_util.h) and its own *_abi.h, whose
 * struct mirror it compares with STRIPE_SAME_MEMBER and STRIPE_SAME_SIZE.
 */
#ifndef _STRIPE_ABI_CHECK_H
#define _STRIPE_ABI_CHECK_H

#include <stddef.h>

#include "utils.h"
#include "json_print.h"
#include "libnetlink.h"

#define STRIPE_ABI_CHECK
#include "iproute2_abi.h"

/*
 * Member m of iproute2's struct util and of the mirror struct
 * stripe_abi_<util> (its *_abi.h): the same offset and size.  tool
 * ("tc", "ip") names the binary in the message.
 */
#define STRIPE_SAME_MEMBER(util, m, tool)				\
	_Static_assert(offsetof(struct util, m) ==			\
		       offsetof(struct stripe_abi_##util, m) &&		\
		       sizeof(((struct util *)0)->m) ==			\
		       sizeof(((struct stripe_abi_##util *)0)->m),	\
		       #util "." #m " differs from " tool "'s")

/* The mirror is no shorter, and has the spare room a newer tool may
 * append into
 */
#define STRIPE_SAME_SIZE(util, tool)					\
	_Static_assert(sizeof(struct stripe_abi_##util) >=		\
		       sizeof(struct util),				\
		       #util " shorter than " tool "'s");		\
	_Static_assert(sizeof(struct stripe_abi_##util) >=		\
		       sizeof(struct util) + 8 * sizeof(void *),	\
		       #util " without its spare members")

_Static_assert(COLOR_NONE == STRIPE_ABI_COLOR_NONE, "COLOR_NONE differs");
_Static_assert(PRINT_FP == STRIPE_ABI_PRINT_FP &&
	       PRINT_JSON == STRIPE_ABI_PRINT_JSON &&
	       PRINT_ANY == STRIPE_ABI_PRINT_ANY, "enum output_type differs");

#endif /* _STRIPE_ABI_CHECK_H */
