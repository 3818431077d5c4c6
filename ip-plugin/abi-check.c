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
/* iproute2's lib/ headers, iproute2_abi.h and the checks tc's are too */
#include "../plugin-common/abi_check.h"
#include "ip_common.h"

#include "ip_abi.h"
#include "../plugin-common/stripe_plugin.h"

#define SAME_MEMBER(m)	STRIPE_SAME_MEMBER(link_util, m, "ip")

SAME_MEMBER(next);
SAME_MEMBER(id);
SAME_MEMBER(maxattr);
SAME_MEMBER(parse_opt);
SAME_MEMBER(print_opt);
SAME_MEMBER(print_xstats);
SAME_MEMBER(print_help);
SAME_MEMBER(parse_ifla_xstats);
SAME_MEMBER(print_ifla_xstats);
/* No shorter, with the spare room a newer ip may append into */
STRIPE_SAME_SIZE(link_util, "ip");
/* parse_opt appends to a struct iplink_req: maxlen must stay inside it */
_Static_assert(STRIPE_IP_MAXLEN <= sizeof(struct iplink_req),
	       "STRIPE_IP_MAXLEN past struct iplink_req");
/* sprint_time() writes into the plugin's buffers (stripe_opts_print.c) */
_Static_assert(SPRINT_BSIZE <= STRIPE_SPRINT_BSIZE, "SPRINT_BSIZE differs");
