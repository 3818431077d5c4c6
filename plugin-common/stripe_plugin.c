// SPDX-License-Identifier: GPL-2.0
/*
 * stripe_plugin.c: the code the tc and ip plugins share (stripe_plugin.h).
 * Each plugin builds it into its own .so; the fuzzers #include it.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <arpa/inet.h>

#include "stripe_plugin.h"

const struct stripe_opt *stripe_find_opt(const struct stripe_opt *opts,
					 size_t nopts, const char *name)
{
	size_t i;

	for (i = 0; i < nopts; i++)
		if (strcmp(opts[i].name, name) == 0)
			return &opts[i];
	return NULL;
}

int stripe_seen_attr(struct stripe_seen *seen, const struct stripe_opt *o,
		     int attr, const char *arg, char *why, size_t size)
{
	__u64 bit = 1ULL << attr;

	if (!(seen->attrs & bit)) {
		seen->attrs |= bit;
		return 0;
	}
	if (o->arg == STRIPE_ARG_ADDR)
		snprintf(why, size,
			 "duplicate \"%s\": \"%s\": one IPv4 and one IPv6 target at most, or \"none\" alone",
			 o->name, arg);
	else	/* iproute2's duparg() words */
		snprintf(why, size,
			 "duplicate \"%s\": \"%s\" is the second value",
			 o->name, arg);
	return -1;
}

int stripe_get_u32(const char *arg, __u32 *val)
{
	unsigned long long v;
	char *end;

	if (!isdigit((unsigned char)arg[0]))
		return -1;
	errno = 0;
	v = strtoull(arg, &end, 10);
	if (*end || errno || v > UINT32_MAX)
		return -1;
	*val = (__u32)v;
	return 0;
}

/* Rounded rather than truncated, so that "0.001s" is 1000us and not 999us */
int stripe_get_time_us(const char *arg, __u32 *us)
{
	static const struct {
		const char *suffix;
		double mult;
	} units[] = {
		{ "",     1 },
		{ "us",   1 }, { "usec", 1 }, { "usecs", 1 },
		{ "ms",   1e3 }, { "msec", 1e3 }, { "msecs", 1e3 },
		{ "s",    1e6 }, { "sec", 1e6 }, { "secs", 1e6 },
	};
	char *end;
	double t;
	size_t i;

	/* decimal only: strtod() also reads hex floats ("0x1p3ms") */
	if ((!isdigit((unsigned char)arg[0]) && arg[0] != '.') ||
	    strpbrk(arg, "xX"))
		return -1;
	errno = 0;
	t = strtod(arg, &end);
	if (end == arg || errno || !isfinite(t) || t < 0)
		return -1;
	for (i = 0; i < STRIPE_ARRAY_SIZE(units); i++) {
		if (strcasecmp(end, units[i].suffix) == 0) {
			t = t * units[i].mult + 0.5;
			if (t > UINT32_MAX)
				return -1;
			*us = (__u32)t;
			return 0;
		}
	}
	return -1;
}

int stripe_parse_value(const struct stripe_opt *o, const char *arg,
		       __u32 *val, char *why, size_t size,
		       char *(*sprint_time)(__u32 us, char *buf))
{
	char lo[STRIPE_SPRINT_BSIZE], hi[STRIPE_SPRINT_BSIZE];
	const char *expect = "expected a number";

	*val = 0;
	switch (o->arg) {
	case STRIPE_ARG_IFNAME:
		snprintf(why, size, "not a number");
		return -1;
	case STRIPE_ARG_ADDR:
		snprintf(why, size, "not a number");
		return -1;
	case STRIPE_ARG_ONOFF:
		if (strcmp(arg, "on") == 0) {
			*val = STRIPE_REORDER_ON;
			return 0;
		}
		if (strcmp(arg, "off") == 0) {
			*val = STRIPE_REORDER_OFF;
			return 0;
		}
		snprintf(why, size, "expected \"on\" or \"off\"");
		return -1;
	case STRIPE_ARG_TIME:
		if (stripe_get_time_us(arg, val)) {
			snprintf(why, size,
				 "expected a time such as 500us, 10ms or 1s");
			return -1;
		}
		break;
	case STRIPE_ARG_WEIGHT:
		if (strcmp(arg, "auto") == 0)
			return 0;
		expect = "expected \"auto\" or a number";
		/* fall through */
	case STRIPE_ARG_U32:
		if (stripe_get_u32(arg, val)) {
			snprintf(why, size, "%s", expect);
			return -1;
		}
		break;
	}

	if (*val >= o->min && *val <= o->max)
		return 0;
	if (o->arg == STRIPE_ARG_TIME && sprint_time)
		snprintf(why, size, "must be %s..%s", sprint_time(o->min, lo),
			 sprint_time(o->max, hi));
	else
		snprintf(why, size, "must be %u..%u%s", o->min, o->max,
			 o->arg == STRIPE_ARG_TIME ? " us" : "");
	return -1;
}

int stripe_parse_addr(const struct stripe_opt *o, const char *arg,
		      struct stripe_addr_val *v, char *why, size_t size)
{
	memset(v, 0, sizeof(*v));
	if (strcmp(arg, "none") == 0) {
		v->n = 2;
		v->a[0].attr = o->attr;
		v->a[0].len = 4;
		v->a[1].attr = o->attr6;
		v->a[1].len = 16;
		return 0;
	}
	v->n = 1;
	if (inet_pton(AF_INET, arg, v->a[0].data) == 1) {
		v->a[0].attr = o->attr;
		v->a[0].len = 4;
	} else if (inet_pton(AF_INET6, arg, v->a[0].data) == 1) {
		v->a[0].attr = o->attr6;
		v->a[0].len = 16;
	} else {
		snprintf(why, size,
			 "expected an IPv4 or IPv6 address, or \"none\"");
		return -1;
	}
	return 0;
}

bool stripe_attr_u8(const struct rtattr *rta, __u8 *val)
{
	if (!rta || RTA_PAYLOAD(rta) < sizeof(*val))
		return false;
	memcpy(val, RTA_DATA(rta), sizeof(*val));
	return true;
}

bool stripe_attr_u32(const struct rtattr *rta, __u32 *val)
{
	if (!rta || RTA_PAYLOAD(rta) < sizeof(*val))
		return false;
	memcpy(val, RTA_DATA(rta), sizeof(*val));
	return true;
}

/* u64 counters may sit 4-byte aligned (PAD attr), hence memcpy */
bool stripe_attr_u64(const struct rtattr *rta, __u64 *val)
{
	__u32 v32;

	if (rta && RTA_PAYLOAD(rta) >= sizeof(*val)) {
		memcpy(val, RTA_DATA(rta), sizeof(*val));
		return true;
	}
	if (stripe_attr_u32(rta, &v32)) {
		*val = v32;
		return true;
	}
	return false;
}

bool stripe_attr_str(const struct rtattr *rta, char *buf, size_t size)
{
	size_t len;

	if (!rta || RTA_PAYLOAD(rta) == 0)
		return false;
	len = strnlen(RTA_DATA(rta), RTA_PAYLOAD(rta));
	if (len >= size)
		len = size - 1;
	memcpy(buf, RTA_DATA(rta), len);
	buf[len] = '\0';
	return true;
}

