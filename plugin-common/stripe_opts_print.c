// SPDX-License-Identifier: GPL-2.0
/*
 * stripe_opts_print.c: the options printed (stripe_opts_print.h).
 */
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/if.h>

#include "iproute2_abi.h"
#include "stripe_opts_print.h"

#define STRIPE_OPT_KEYSIZ	32

/* The JSON key of @o: its name with '_' for '-', "_us" after a time's */
static const char *stripe_opt_key(const struct stripe_opt *o,
				  const char *suffix, char *buf)
{
	size_t i;

	snprintf(buf, STRIPE_OPT_KEYSIZ, "%s%s%s", o->name,
		 o->arg == STRIPE_ARG_TIME ? "_us" : "", suffix);
	for (i = 0; buf[i]; i++)
		if (buf[i] == '-')
			buf[i] = '_';
	return buf;
}

static const struct rtattr *stripe_opt_attr(struct rtattr *const tb[],
					    int max, int attr)
{
	return attr > 0 && attr <= max ? tb[attr] : NULL;
}

/* The option's name, as typed, before its value */
static void stripe_print_name(const struct stripe_opt *o)
{
	print_string(PRINT_FP, NULL, "%s ", o->name);
}

/* The address in @rta, unless it is all zeros (none) */
static void stripe_print_addr(const struct stripe_opt *o,
			      const struct rtattr *rta, int family,
			      const char *key)
{
	static const __u8 zero[16];
	char buf[INET6_ADDRSTRLEN];
	int len = family == AF_INET ? 4 : 16;

	if (!rta || (int)RTA_PAYLOAD(rta) != len ||
	    !memcmp(RTA_DATA(rta), zero, len))
		return;
	stripe_print_name(o);
	print_string(PRINT_ANY, key, "%s ",
		     inet_ntop(family, RTA_DATA(rta), buf, sizeof(buf)));
}

void stripe_opt_print(const struct stripe_opt *o, struct rtattr *const tb[],
		      int max)
{
	const struct rtattr *rta = stripe_opt_attr(tb, max, o->attr);
	char key[STRIPE_OPT_KEYSIZ], buf[STRIPE_SPRINT_BSIZE];
	__u32 val;
	__u8 mode;

	stripe_opt_key(o, "", key);
	switch (o->arg) {
	case STRIPE_ARG_ADDR:
		stripe_print_addr(o, rta, AF_INET, key);
		stripe_print_addr(o, stripe_opt_attr(tb, max, o->attr6),
				  AF_INET6, stripe_opt_key(o, "6", key));
		return;
	case STRIPE_ARG_IFNAME:
		if (!stripe_attr_str(rta, buf, IFNAMSIZ))
			return;
		stripe_print_name(o);
		print_string(PRINT_ANY, key, "%s ", buf);
		return;
	case STRIPE_ARG_ONOFF:
		if (!stripe_attr_u8(rta, &mode))
			return;
		stripe_print_name(o);
		/* as iproute2's on/off options: JSON true/false */
		if (mode == STRIPE_REORDER_OFF || mode == STRIPE_REORDER_ON)
			print_on_off(PRINT_ANY, key, "%s ",
				     mode == STRIPE_REORDER_ON);
		else	/* a newer kernel's mode: its number */
			print_uint(PRINT_ANY, key, "%u ", mode);
		return;
	default:
		break;
	}
	if (!stripe_attr_u32(rta, &val))
		return;
	stripe_print_name(o);
	if (o->arg == STRIPE_ARG_TIME) {
		print_uint(PRINT_JSON, key, NULL, val);
		print_string(PRINT_FP, NULL, "%s ", sprint_time(val, buf));
	} else if (o->arg == STRIPE_ARG_WEIGHT && val == 0) {
		print_string(PRINT_FP, NULL, "%s ", "auto");
	} else {
		print_uint(PRINT_ANY, key, "%u ", val);
	}
}

void stripe_opts_print(const struct stripe_opt *opts, size_t nopts,
		       struct rtattr *const tb[], int max)
{
	size_t i;

	for (i = 0; i < nopts; i++)
		stripe_opt_print(&opts[i], tb, max);
}
