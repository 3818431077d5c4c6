/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ip_abi.h: the part of ip's internal ABI that link_stripe.so uses.
 *
 * iproute2 installs no headers; ip is linked with -export-dynamic and
 * dlopens $IP_LIB_DIR/link_<kind>.so, looking up "<kind>_link_util"
 * (ip/iplink.c get_link_kind()).  Every declaration here must match
 * iproute2 6.1.0 (tag v6.1.0: ip/ip_common.h, ip/iplink.c) exactly: a
 * mismatch is no compile error but a crash in ip.  The helpers it calls
 * (libnetlink, json_print) are tc's too: ../plugin-common/iproute2_abi.h.
 * "make check" checks that every symbol the plugin imports is exported
 * by the ip binary, and "make abi-check IPROUTE2_SRC=..." compiles every
 * declaration here and in iproute2_abi.h against iproute2's own headers
 * (abi-check.c).
 */
#ifndef _STRIPE_IP_ABI_H
#define _STRIPE_IP_ABI_H

#include "../plugin-common/iproute2_abi.h"

/* ip/ip_common.h: ip walks this by field offset, so order is the ABI */
#ifdef STRIPE_ABI_CHECK
#define link_util stripe_abi_link_util	/* abi-check.c: beside ip's */
#endif
struct link_util {
	struct link_util *next;
	const char *id;
	int maxattr;
	int (*parse_opt)(struct link_util *lu, int argc, char **argv,
			 struct nlmsghdr *n);
	void (*print_opt)(struct link_util *lu, FILE *f, struct rtattr *tb[]);
	void (*print_xstats)(struct link_util *lu, FILE *f,
			     struct rtattr *xstats);
	void (*print_help)(struct link_util *lu, int argc, char **argv,
			   FILE *f);
	int (*parse_ifla_xstats)(struct link_util *lu, int argc, char **argv);
	int (*print_ifla_xstats)(struct nlmsghdr *n, void *arg);
	/* zeroes: a member a later ip appends reads as NULL, not as
	 * whatever the linker put after this object
	 */
	void *ip_reserved[8];
};
#ifdef STRIPE_ABI_CHECK
#undef link_util
#endif

/* ip/iplink.c: the request parse_opt appends to is struct iplink_req,
 * whose buffer after the headers is 1024 bytes
 */
#define STRIPE_IP_MAXLEN	1024

#endif /* _STRIPE_IP_ABI_H */
