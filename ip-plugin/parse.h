/* SPDX-License-Identifier: GPL-2.0 */
/*
 * parse.h: the options of "ip link ... type stripe" and "type stripe_slave",
 * parsed without ip, so the host tests can run them on their own.
 */
#ifndef _STRIPE_IP_PARSE_H
#define _STRIPE_IP_PARSE_H

#include <stddef.h>
#include <stdio.h>
#include <linux/types.h>

enum stripe_ip_arg {
	STRIPE_IP_U32,		/* a number in min..max */
	STRIPE_IP_TIME,		/* microseconds, with a unit: 500us, 5ms, 1s */
	STRIPE_IP_ONOFF,	/* u8: 1 or 0 */
	STRIPE_IP_WEIGHT,	/* "auto" (0) or a number in min..max */
};

struct stripe_ip_opt {
	const char *name;
	int attr;
	enum stripe_ip_arg arg;
	__u32 min, max;
};

/* One attribute to send: u8 if width is 1, else u32 */
struct stripe_ip_attr {
	int attr;
	int width;
	__u32 val;
};

extern const struct stripe_ip_opt stripe_ip_master_opts[];
extern const size_t stripe_ip_master_nopts;
extern const struct stripe_ip_opt stripe_ip_slave_opts[];
extern const size_t stripe_ip_slave_nopts;

/* Parse "name value" pairs into @out (room for @max); the number of
 * attributes, or -1 after saying why on @err.
 */
int stripe_ip_parse(const struct stripe_ip_opt *opts, size_t nopts,
		    int argc, char **argv, struct stripe_ip_attr *out,
		    size_t max, FILE *err);

#endif /* _STRIPE_IP_PARSE_H */
