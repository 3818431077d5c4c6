// SPDX-License-Identifier: GPL-2.0
/*
 * Compiled (never linked) against iproute2's own headers by
 * "make abi-check IPROUTE2_SRC=<iproute2 source tree>": every function
 * tc_abi.h and ../plugin-common/iproute2_abi.h declare by hand is declared again here by iproute2, so a
 * parameter or return type that differs is a "conflicting types" error,
 * and the qdisc_util mirror and the enum values are compared member by
 * member. A mismatch would otherwise be a crash inside tc.
 */
#include <stddef.h>

#include "utils.h"
#include "json_print.h"
#include "libnetlink.h"
#include "tc_util.h"

#define STRIPE_ABI_CHECK
#include "tc_abi.h"
#include "../plugin-common/stripe_plugin.h"

#define SAME_MEMBER(m)							\
	_Static_assert(offsetof(struct qdisc_util, m) ==		\
		       offsetof(struct stripe_abi_qdisc_util, m) &&	\
		       sizeof(((struct qdisc_util *)0)->m) ==		\
		       sizeof(((struct stripe_abi_qdisc_util *)0)->m),	\
		       "qdisc_util." #m " differs from tc's")

SAME_MEMBER(next);
SAME_MEMBER(id);
SAME_MEMBER(parse_qopt);
SAME_MEMBER(print_qopt);
SAME_MEMBER(print_xstats);
SAME_MEMBER(parse_copt);
SAME_MEMBER(print_copt);
SAME_MEMBER(has_block);
_Static_assert(sizeof(struct stripe_abi_qdisc_util) >=
	       sizeof(struct qdisc_util), "qdisc_util shorter than tc's");
/* The spare room a newer tc may append into */
_Static_assert(sizeof(struct stripe_abi_qdisc_util) >=
	       sizeof(struct qdisc_util) + 8 * sizeof(void *),
	       "qdisc_util without its spare members");
_Static_assert(COLOR_NONE == STRIPE_ABI_COLOR_NONE, "COLOR_NONE differs");
_Static_assert(PRINT_FP == STRIPE_ABI_PRINT_FP &&
	       PRINT_JSON == STRIPE_ABI_PRINT_JSON &&
	       PRINT_ANY == STRIPE_ABI_PRINT_ANY, "enum output_type differs");
_Static_assert(SPRINT_BSIZE == TC_SPRINT_BSIZE &&
	       SPRINT_BSIZE <= STRIPE_SPRINT_BSIZE, "SPRINT_BSIZE differs");
