/* SPDX-License-Identifier: GPL-2.0 */
/*
 * iproute2_abi.h: the part of iproute2's internal ABI that both plugins
 * use, as tc and ip both build it from iproute2's lib/ (tc_abi.h and
 * ip_abi.h add what only one of them uses).
 *
 * iproute2 installs no headers, yet tc and ip are linked with
 * -export-dynamic and plugins call into them, so the declarations are
 * written here by hand.  Each must match iproute2 6.1.0 (tag v6.1.0:
 * include/libnetlink.h, include/json_print.h, include/color.h,
 * include/utils.h) exactly:
 * a mismatch is not a compile error but a crash in tc or ip.  Each
 * plugin's "make check" checks that every symbol it imports is exported
 * by the binary, and each plugin's "make abi-check IPROUTE2_SRC=..."
 * compiles these declarations against iproute2's own headers.
 */
#ifndef _STRIPE_IPROUTE2_ABI_H
#define _STRIPE_IPROUTE2_ABI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <linux/types.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

/* include/libnetlink.h */
int addattr8(struct nlmsghdr *n, int maxlen, int type, __u8 data);
int addattr32(struct nlmsghdr *n, int maxlen, int type, __u32 data);
int addattr_l(struct nlmsghdr *n, int maxlen, int type,
	      const void *data, int alen);

/* The values the plugins pass; abi-check.c compares them with iproute2's */
#define STRIPE_ABI_COLOR_NONE	6
#define STRIPE_ABI_PRINT_FP	1
#define STRIPE_ABI_PRINT_JSON	2
#define STRIPE_ABI_PRINT_ANY	4

#ifndef STRIPE_ABI_CHECK	/* abi-check.c has iproute2's own */
/* include/color.h: only the value the plugins pass */
enum color_attr {
	COLOR_IFNAME,
	COLOR_MAC,
	COLOR_INET,
	COLOR_INET6,
	COLOR_OPERSTATE_UP,
	COLOR_OPERSTATE_DOWN,
	COLOR_NONE = STRIPE_ABI_COLOR_NONE
};

/*
 * include/json_print.h.  The print_<type>() helpers are static inlines
 * in iproute2; only the print_color_<type>() functions behind them are
 * exported.  They write to stdout (not to the FILE * tc or ip passes):
 * in text mode with fmt, in JSON mode under key (no key: an array
 * element).
 */
enum output_type {
	PRINT_FP = STRIPE_ABI_PRINT_FP,
	PRINT_JSON = STRIPE_ABI_PRINT_JSON,
	PRINT_ANY = STRIPE_ABI_PRINT_ANY,
};
#endif

bool is_json_context(void);
void open_json_object(const char *str);
void close_json_object(void);
void open_json_array(enum output_type type, const char *delim);
void close_json_array(enum output_type type, const char *delim);
/* A newline in text (the line separator: "\\" under -oneline) */
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

/* include/utils.h: microseconds as tc and ip print times ("10ms");
 * buf has room for SPRINT_BSIZE (STRIPE_SPRINT_BSIZE, stripe_plugin.h)
 */
char *sprint_time(__u32 time, char *buf);

#ifndef STRIPE_ABI_CHECK	/* static inlines in json_print.h */
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

#endif /* _STRIPE_IPROUTE2_ABI_H */
