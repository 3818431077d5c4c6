/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tc_abi.h: the part of tc's internal ABI that q_stripe.so uses.
 *
 * iproute2 installs no headers, yet tc is linked with -export-dynamic and
 * hands plugins pointers into its own structures, so this file declares
 * what the plugin needs by hand (what ip's plugin uses too is in
 * ../plugin-common/iproute2_abi.h).  Every declaration here must match
 * iproute2 6.1.0 (tag v6.1.0: tc/tc_util.h, include/utils.h,
 * include/libnetlink.h) exactly; a mismatch is not
 * a compile error but a crash in tc.  test-parse.sh checks that every
 * symbol the plugin imports is exported by /sbin/tc, and "make abi-check
 * IPROUTE2_SRC=..." compiles every declaration here and in
 * iproute2_abi.h against iproute2's own headers (abi-check.c).
 */
#ifndef _STRIPE_TC_ABI_H
#define _STRIPE_TC_ABI_H

#include "../plugin-common/iproute2_abi.h"

/* tc/tc_util.h: tc walks this by field offset, so order is the ABI */
#ifdef STRIPE_ABI_CHECK
#define qdisc_util stripe_abi_qdisc_util	/* abi-check.c: beside tc's */
#endif
struct qdisc_util {
	struct qdisc_util *next;
	const char *id;
	int (*parse_qopt)(struct qdisc_util *qu, int argc, char **argv,
			  struct nlmsghdr *n, const char *dev);
	int (*print_qopt)(struct qdisc_util *qu, FILE *f, struct rtattr *opt);
	int (*print_xstats)(struct qdisc_util *qu, FILE *f,
			    struct rtattr *xstats);
	int (*parse_copt)(struct qdisc_util *qu, int argc, char **argv,
			  struct nlmsghdr *n, const char *dev);
	int (*print_copt)(struct qdisc_util *qu, FILE *f, struct rtattr *opt);
	int (*has_block)(struct qdisc_util *qu, struct rtattr *opt,
			 __u32 block_idx, bool *p_has);
	/* zeroes: a member a later tc appends reads as NULL, not as
	 * whatever the linker put after this object
	 */
	void *tc_reserved[8];
};
#ifdef STRIPE_ABI_CHECK
#undef qdisc_util
#endif

/* include/libnetlink.h (addattr8, addattr32, addattr_l: iproute2_abi.h) */
struct rtattr *addattr_nest(struct nlmsghdr *n, int maxlen, int type);
int addattr_nest_end(struct nlmsghdr *n, struct rtattr *nest);
int parse_rtattr_flags(struct rtattr *tb[], int max, struct rtattr *rta,
		       int len, unsigned short flags);

/* include/utils.h (sprint_time: iproute2_abi.h); matches() is false when
 * prefix matches string
 */
bool matches(const char *prefix, const char *string);
#define TC_SPRINT_BSIZE		64	/* SPRINT_BSIZE */

#endif /* _STRIPE_TC_ABI_H */
