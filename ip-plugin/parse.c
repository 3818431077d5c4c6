// SPDX-License-Identifier: GPL-2.0
/*
 * parse.c: option parsing of the ip plugin, with the kernel's ranges
 * (kernel/master.c policies) so a value the kernel would refuse fails
 * here, with the option's name and range.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <linux/stripe.h>

#include "parse.h"

#define OPT(_name, _attr, _arg, _min, _max) \
	{ .name = _name, .attr = _attr, .arg = _arg, .min = _min, .max = _max }

const struct stripe_ip_opt stripe_ip_master_opts[] = {
	OPT("reorder", IFLA_STRIPE_REORDER, STRIPE_IP_ONOFF, 0, 1),
	OPT("hold-max", IFLA_STRIPE_HOLD_MAX_US, STRIPE_IP_TIME,
	    1, STRIPE_HOLD_MAX_US_MAX),
	OPT("hold-auto", IFLA_STRIPE_HOLD_AUTO, STRIPE_IP_ONOFF, 0, 1),
	OPT("quantum", IFLA_STRIPE_QUANTUM, STRIPE_IP_U32,
	    STRIPE_QUANTUM_MIN, STRIPE_QUANTUM_MAX),
	OPT("flow-limit", IFLA_STRIPE_FLOW_LIMIT, STRIPE_IP_U32,
	    1, STRIPE_LIMIT_MAX),
	OPT("buffer-limit", IFLA_STRIPE_BUFFER_LIMIT, STRIPE_IP_U32,
	    1, STRIPE_LIMIT_MAX),
	OPT("stripe-min", IFLA_STRIPE_STRIPE_MIN, STRIPE_IP_U32,
	    0, UINT32_MAX),
};
const size_t stripe_ip_master_nopts =
	sizeof(stripe_ip_master_opts) / sizeof(stripe_ip_master_opts[0]);

const struct stripe_ip_opt stripe_ip_slave_opts[] = {
	OPT("weight", IFLA_STRIPE_LINK_WEIGHT, STRIPE_IP_WEIGHT,
	    1, STRIPE_WEIGHT_MAX),
	OPT("limit", IFLA_STRIPE_LINK_LIMIT, STRIPE_IP_U32,
	    1, STRIPE_LIMIT_MAX),
};
const size_t stripe_ip_slave_nopts =
	sizeof(stripe_ip_slave_opts) / sizeof(stripe_ip_slave_opts[0]);

/* Plain digits only: no sign, no hex or octal surprises */
static int stripe_ip_u32(const char *arg, __u32 *val)
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

/* A time in microseconds, rounded: "0.001s" is 1000us, not 999 */
static int stripe_ip_time(const char *arg, __u32 *us)
{
	static const struct {
		const char *suffix;
		double mult;
	} units[] = {
		{ "", 1 }, { "us", 1 }, { "usec", 1 },
		{ "ms", 1e3 }, { "msec", 1e3 }, { "s", 1e6 }, { "sec", 1e6 },
	};
	char *end;
	double t;
	size_t i;

	if (!isdigit((unsigned char)arg[0]) && arg[0] != '.')
		return -1;
	errno = 0;
	t = strtod(arg, &end);
	if (end == arg || errno || !isfinite(t) || t < 0)
		return -1;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
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

static int stripe_ip_one(const struct stripe_ip_opt *o, const char *arg,
			 struct stripe_ip_attr *a, FILE *err)
{
	const char *expect = "expected a number";
	__u32 val = 0;

	a->attr = o->attr;
	a->width = 4;
	switch (o->arg) {
	case STRIPE_IP_ONOFF:
		a->width = 1;
		if (strcmp(arg, "on") == 0 || strcmp(arg, "off") == 0) {
			a->val = strcmp(arg, "on") == 0;
			return 0;
		}
		fprintf(err, "stripe: invalid %s \"%s\": expected \"on\" or \"off\"\n",
			o->name, arg);
		return -1;
	case STRIPE_IP_WEIGHT:
		if (strcmp(arg, "auto") == 0) {
			a->val = 0;
			return 0;
		}
		expect = "expected \"auto\" or a number";
		break;
	case STRIPE_IP_TIME:
		if (stripe_ip_time(arg, &val)) {
			fprintf(err, "stripe: invalid %s \"%s\": expected a time such as 500us, 10ms or 1s\n",
				o->name, arg);
			return -1;
		}
		break;
	case STRIPE_IP_U32:
		break;
	}
	if (o->arg != STRIPE_IP_TIME && stripe_ip_u32(arg, &val)) {
		fprintf(err, "stripe: invalid %s \"%s\": %s\n", o->name, arg,
			expect);
		return -1;
	}
	if (val < o->min || val > o->max) {
		fprintf(err, "stripe: invalid %s \"%s\": must be %u..%u%s\n",
			o->name, arg, o->min, o->max,
			o->arg == STRIPE_IP_TIME ? " us" : "");
		return -1;
	}
	a->val = val;
	return 0;
}

int stripe_ip_parse(const struct stripe_ip_opt *opts, size_t nopts,
		    int argc, char **argv, struct stripe_ip_attr *out,
		    size_t max, FILE *err)
{
	size_t n = 0, i;

	for (; argc > 0; argc -= 2, argv += 2) {
		const struct stripe_ip_opt *o = NULL;

		for (i = 0; i < nopts; i++)
			if (strcmp(opts[i].name, argv[0]) == 0)
				o = &opts[i];
		if (!o) {
			fprintf(err, "stripe: unknown option \"%s\"\n", argv[0]);
			return -1;
		}
		if (argc < 2) {
			fprintf(err, "stripe: option \"%s\" needs a value\n",
				argv[0]);
			return -1;
		}
		if (n == max) {
			fprintf(err, "stripe: too many options\n");
			return -1;
		}
		if (stripe_ip_one(o, argv[1], &out[n], err))
			return -1;
		n++;
	}
	return (int)n;
}
