/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ip_abi.h: the part of ip's internal ABI that link_stripe.so uses.
 *
 * iproute2 installs no headers; ip is linked with -export-dynamic and
 * dlopens $IP_LIB_DIR/link_<kind>.so, looking up "<kind>_link_util"
 * (ip/iplink.c get_link_kind()).  Every declaration here must match
 * iproute2 6.1.0 (tag v6.1.0: ip/ip_common.h, include/libnetlink.h,
 * include/utils.h, include/json_print.h, include/color.h) exactly: a
 * mismatch is no compile error but a crash in ip.  "make check" checks
 * that every symbol the plugin imports is exported by the ip binary.
 */
#ifndef _STRIPE_IP_ABI_H
#define _STRIPE_IP_ABI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <linux/types.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

/* ip/ip_common.h: ip walks this by field offset, so order is the ABI */
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
};

/* ip/iplink.c: the request parse_opt appends to is struct iplink_req,
 * whose buffer after the headers is 1024 bytes
 */
#define STRIPE_IP_MAXLEN	1024

/* include/libnetlink.h */
int addattr8(struct nlmsghdr *n, int maxlen, int type, __u8 data);
int addattr32(struct nlmsghdr *n, int maxlen, int type, __u32 data);

/* include/color.h: only the value the plugin passes */
enum color_attr {
	COLOR_IFNAME,
	COLOR_MAC,
	COLOR_INET,
	COLOR_INET6,
	COLOR_OPERSTATE_UP,
	COLOR_OPERSTATE_DOWN,
	COLOR_NONE
};

/* include/json_print.h: print_<type>() are static inlines in ip; only
 * the print_color_<type>() behind them are exported.  They write to
 * stdout: in text mode with fmt, in JSON mode under key.
 */
enum output_type {
	PRINT_FP = 1,
	PRINT_JSON = 2,
	PRINT_ANY = 4,
};

void open_json_object(const char *str);
void close_json_object(void);
void open_json_array(enum output_type type, const char *delim);
void close_json_array(enum output_type type, const char *delim);

int print_color_string(enum output_type t, enum color_attr color,
		       const char *key, const char *fmt, const char *value);
int print_color_uint(enum output_type t, enum color_attr color,
		     const char *key, const char *fmt, unsigned int value);

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

#endif /* _STRIPE_IP_ABI_H */
