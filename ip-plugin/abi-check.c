// SPDX-License-Identifier: GPL-2.0
/*
 * Compiled (never linked) against iproute2's own headers by
 * "make abi-check IPROUTE2_SRC=<iproute2 source tree>", as
 * ../tc-plugin/abi-check.c is for tc: every function ip_abi.h and
 * ../plugin-common/iproute2_abi.h declare by hand is declared again here
 * by iproute2, so a parameter or return type that differs is a
 * "conflicting types" error, and the link_util mirror, the request size
 * and the enum values are compared member by member.  A mismatch would
 * otherwise be a crash inside ip.
 */
#include <stddef.h>

#include "utils.h"
#include "json_print.h"
#include "libnetlink.h"
#include "ip_common.h"

#define STRIPE_ABI_CHECK
#include "ip_abi.h"
#include "../plugin-common/stripe_plugin.h"

#define SAME_MEMBER(m)							\
	_Static_assert(offsetof(struct link_util, m) ==			\
		       offsetof(struct stripe_abi_link_util, m) &&	\
		       sizeof(((struct link_util *)0)->m) ==		\
		       sizeof(((struct stripe_abi_link_util *)0)->m),	\
		       "link_util." #m " differs from ip's")

SAME_MEMBER(next);
SAME_MEMBER(id);
SAME_MEMBER(maxattr);
SAME_MEMBER(parse_opt);
SAME_MEMBER(print_opt);
SAME_MEMBER(print_xstats);
SAME_MEMBER(print_help);
SAME_MEMBER(parse_ifla_xstats);
SAME_MEMBER(print_ifla_xstats);
_Static_assert(sizeof(struct stripe_abi_link_util) >=
	       sizeof(struct link_util), "link_util shorter than ip's");
/* The spare room a newer ip may append into */
_Static_assert(sizeof(struct stripe_abi_link_util) >=
	       sizeof(struct link_util) + 8 * sizeof(void *),
	       "link_util without its spare members");
/* parse_opt appends to a struct iplink_req: maxlen must stay inside it */
_Static_assert(STRIPE_IP_MAXLEN <= sizeof(struct iplink_req),
	       "STRIPE_IP_MAXLEN past struct iplink_req");
_Static_assert(COLOR_NONE == STRIPE_ABI_COLOR_NONE, "COLOR_NONE differs");
_Static_assert(PRINT_FP == STRIPE_ABI_PRINT_FP &&
	       PRINT_JSON == STRIPE_ABI_PRINT_JSON &&
	       PRINT_ANY == STRIPE_ABI_PRINT_ANY, "enum output_type differs");
/* sprint_time() writes into the plugin's buffers (stripe_opts_print.c) */
_Static_assert(SPRINT_BSIZE <= STRIPE_SPRINT_BSIZE, "SPRINT_BSIZE differs");
