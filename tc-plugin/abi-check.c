// SPDX-License-Identifier: GPL-2.0
/*
 * Compiled (never linked) against iproute2's own headers by
 * "make abi-check IPROUTE2_SRC=<iproute2 source tree>": every function
 * tc_abi.h and ../plugin-common/iproute2_abi.h declare by hand is declared
 * again here by iproute2, so a parameter or return type that differs is a
 * "conflicting types" error, and the qdisc_util mirror and the enum values
 * are compared member by member.  A mismatch would otherwise be a crash
 * inside tc.
 */
/* iproute2's lib/ headers, iproute2_abi.h and the checks ip's are too */
#include "../plugin-common/abi_check.h"
#include "tc_util.h"

#include "tc_abi.h"
#include "../plugin-common/stripe_plugin.h"

#define SAME_MEMBER(m)	STRIPE_SAME_MEMBER(qdisc_util, m, "tc")

SAME_MEMBER(next);
SAME_MEMBER(id);
SAME_MEMBER(parse_qopt);
SAME_MEMBER(print_qopt);
SAME_MEMBER(print_xstats);
SAME_MEMBER(parse_copt);
SAME_MEMBER(print_copt);
SAME_MEMBER(has_block);
/* No shorter, with the spare room a newer tc may append into */
STRIPE_SAME_SIZE(qdisc_util, "tc");
_Static_assert(SPRINT_BSIZE == TC_SPRINT_BSIZE &&
	       SPRINT_BSIZE <= STRIPE_SPRINT_BSIZE, "SPRINT_BSIZE differs");
