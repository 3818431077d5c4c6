/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tc_abi.h: the part of tc's internal ABI that q_stripe.so uses.
 *
 * iproute2 installs no headers, yet tc is linked with -export-dynamic and
 * hands plugins pointers into its own structures, so this file declares
 * what the plugin needs by hand.  Every declaration here must match
 * iproute2 6.1.0 (tag v6.1.0: tc/tc_util.h, include/utils.h,
 * include/json_print.h, include/color.h, include/libnetlink.h) exactly;
 * a mismatch is not a compile error but a crash in tc.  test-parse.sh
 * checks that every symbol the plugin imports is exported by /sbin/tc,
 * and "make abi-check IPROUTE2_SRC=..." compiles every declaration here
 * against iproute2's own headers (abi-check.c).
 */
#ifndef _STRIPE_TC_ABI_H
#define _STRIPE_TC_ABI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <linux/types.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

/* tc/tc_util.h: tc walks this by field offset, so order is the ABI */
#ifdef STRIPE_TC_ABI_CHECK
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
#ifdef STRIPE_TC_ABI_CHECK
#undef qdisc_util
#endif

/* include/libnetlink.h */
int addattr8(struct nlmsghdr *n, int maxlen, int type, __u8 data);
int addattr32(struct nlmsghdr *n, int maxlen, int type, __u32 data);
int addattr_l(struct nlmsghdr *n, int maxlen, int type,
	      const void *data, int alen);
struct rtattr *addattr_nest(struct nlmsghdr *n, int maxlen, int type);
int addattr_nest_end(struct nlmsghdr *n, struct rtattr *nest);
int parse_rtattr_flags(struct rtattr *tb[], int max, struct rtattr *rta,
		       int len, unsigned short flags);

/* include/utils.h; matches() is false when prefix matches string */
bool matches(const char *prefix, const char *string);
int get_u32(__u32 *val, const char *arg, int base);
char *sprint_time(__u32 time, char *buf);
#define TC_SPRINT_BSIZE		64	/* SPRINT_BSIZE */

/* The values the plugin passes; abi-check.c compares them with tc's */
#define TC_ABI_COLOR_NONE	6
#define TC_ABI_PRINT_FP		1
#define TC_ABI_PRINT_JSON	2
#define TC_ABI_PRINT_ANY	4

#ifndef STRIPE_TC_ABI_CHECK	/* abi-check.c has iproute2's own */
/* include/color.h: only the value the plugin passes */
enum color_attr {
	COLOR_IFNAME,
	COLOR_MAC,
	COLOR_INET,
	COLOR_INET6,
	COLOR_OPERSTATE_UP,
	COLOR_OPERSTATE_DOWN,
	COLOR_NONE = TC_ABI_COLOR_NONE
};

/*
 * include/json_print.h.  The print_<type>() helpers are static inlines
 * in tc; only the print_color_<type>() functions behind them are exported.
 * They write to stdout (not to the FILE * tc passes): in text mode with
 * fmt, in JSON mode under key (no key: an array element).
 */
enum output_type {
	PRINT_FP = TC_ABI_PRINT_FP,
	PRINT_JSON = TC_ABI_PRINT_JSON,
	PRINT_ANY = TC_ABI_PRINT_ANY,
};
#endif

bool is_json_context(void);
void open_json_object(const char *str);
void close_json_object(void);
void open_json_array(enum output_type type, const char *delim);
void close_json_array(enum output_type type, const char *delim);
void print_nl(void);

int print_color_string(enum output_type t, enum color_attr color,
		       const char *key, const char *fmt, const char *value);
int print_color_uint(enum output_type t, enum color_attr color,
		     const char *key, const char *fmt, unsigned int value);
int print_color_u64(enum output_type t, enum color_attr color,
		    const char *key, const char *fmt, uint64_t value);
/* JSON true/false, text "on"/"off" through fmt */
int print_color_on_off(enum output_type t, enum color_attr color,
		       const char *key, const char *fmt, bool value);

#ifndef STRIPE_TC_ABI_CHECK	/* static inlines in json_print.h */
static inline int print_string(enum output_type t, const char *key,
			       const char *fmt, const char *value)
{
	return print_color_string(t, COLOR_NONE, key, fmt, value);
}

static inline int print_uint(enum output_type t, const char *key,
			     const char *fmt, unsigned int value)
{
	return print_color_uint(t, COLOR_NONE, key, fmt, value);
}

static inline int print_u64(enum output_type t, const char *key,
			    const char *fmt, uint64_t value)
{
	return print_color_u64(t, COLOR_NONE, key, fmt, value);
}

static inline int print_on_off(enum output_type t, const char *key,
			       const char *fmt, bool value)
{
	return print_color_on_off(t, COLOR_NONE, key, fmt, value);
}
#endif

#endif /* _STRIPE_TC_ABI_H */
