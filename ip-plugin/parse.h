/* SPDX-License-Identifier: GPL-2.0 */
/*
 * parse.h: the options of "ip link ... type stripe" and "type stripe_slave",
 * parsed without ip, so the host tests can run them on their own.  The
 * options and value parsing are the tc plugin's too
 * (../plugin-common/stripe_plugin.h).
 */
#ifndef _STRIPE_IP_PARSE_H
#define _STRIPE_IP_PARSE_H

#include <stddef.h>
#include <stdio.h>
#include <linux/types.h>

#include "../plugin-common/stripe_plugin.h"

/* One attribute to send: u8 if width is 1, u32 if 4 (val), else width
 * bytes of data (an IPv6 address)
 */
struct stripe_ip_attr {
	int attr;
	int width;
	__u32 val;
	__u8 data[16];
};

extern const struct stripe_opt stripe_ip_master_opts[];
extern const size_t stripe_ip_master_nopts;
extern const struct stripe_opt stripe_ip_slave_opts[];
extern const size_t stripe_ip_slave_nopts;

/* Parse "name value" pairs into @out (room for @max); the number of
 * attributes, or -1 after saying why on @err.
 */
int stripe_ip_parse(const struct stripe_opt *opts, size_t nopts,
		    int argc, char **argv, struct stripe_ip_attr *out,
		    size_t max, FILE *err);

#endif /* _STRIPE_IP_PARSE_H */
