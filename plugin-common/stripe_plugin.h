/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stripe_plugin.h: what the tc plugin (q_stripe.so) and the ip plugin
 * (link_stripe.so) share: the options and their ranges, value parsing,
 * attribute readers and the link flag names.  Nothing here calls into tc
 * or ip, so the host tests and the fuzzers build it as it is.
 */
#ifndef _STRIPE_PLUGIN_H
#define _STRIPE_PLUGIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/types.h>
#include <linux/rtnetlink.h>
#include <linux/stripe.h>

#include "../include/stripe_stats_names.h"

#define STRIPE_ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

enum stripe_arg {
	STRIPE_ARG_IFNAME,	/* a device name (the plugin sends it) */
	STRIPE_ARG_U32,		/* a number in min..max */
	STRIPE_ARG_TIME,	/* microseconds, with a unit: 500us, 5ms, 1s */
	STRIPE_ARG_ONOFF,	/* u8: STRIPE_REORDER_ON (1) or _OFF (0) */
	STRIPE_ARG_WEIGHT,	/* "auto" (0) or a number in min..max */
	STRIPE_ARG_ADDR,	/* IPv4 (attr) or IPv6 (attr6); "none": both 0 */
};

struct stripe_opt {
	const char *name;
	int attr;
	enum stripe_arg arg;
	__u32 min, max;
	int attr6;		/* STRIPE_ARG_ADDR: the IPv6 attribute */
};

#define STRIPE_OPT(_name, _attr, _arg, _min, _max) \
	{ .name = _name, .attr = _attr, .arg = _arg, .min = _min, .max = _max }
#define STRIPE_OPT_ADDR(_name, _attr, _attr6) \
	{ .name = _name, .attr = _attr, .arg = STRIPE_ARG_ADDR, .attr6 = _attr6 }

/*
 * The master-wide options, with the ranges the kernel accepts
 * (kernel/qdisc.c stripe_validate(), kernel/master.c's policy), so that
 * a value the kernel would refuse fails in the plugin, with the option's
 * name and range.  P is the attribute family: TCA (tc) or IFLA (ip).
 */
#define STRIPE_MASTER_OPTS(P)						\
	STRIPE_OPT("reorder",	   P##_STRIPE_REORDER,	    STRIPE_ARG_ONOFF, \
		   0, 1),						\
	STRIPE_OPT("quantum",	   P##_STRIPE_QUANTUM,	    STRIPE_ARG_U32,   \
		   STRIPE_QUANTUM_MIN, STRIPE_QUANTUM_MAX),		\
	STRIPE_OPT("hold-max",	   P##_STRIPE_HOLD_MAX_US,  STRIPE_ARG_TIME,  \
		   1, STRIPE_HOLD_MAX_US_MAX),				\
	STRIPE_OPT("flow-limit",   P##_STRIPE_FLOW_LIMIT,   STRIPE_ARG_U32,   \
		   1, STRIPE_LIMIT_MAX),				\
	STRIPE_OPT("buffer-limit", P##_STRIPE_BUFFER_LIMIT, STRIPE_ARG_U32,   \
		   1, STRIPE_LIMIT_MAX),				\
	STRIPE_OPT("memory-limit", P##_STRIPE_MEMORY_LIMIT, STRIPE_ARG_U32,   \
		   STRIPE_MEMORY_LIMIT_MIN, STRIPE_MEMORY_LIMIT_MAX),	\
	STRIPE_OPT("stripe-min",   P##_STRIPE_STRIPE_MIN,   STRIPE_ARG_U32,   \
		   0, UINT32_MAX),					\
	STRIPE_OPT("hold-auto",	   P##_STRIPE_HOLD_AUTO,    STRIPE_ARG_ONOFF, \
		   0, 1),						\
	STRIPE_OPT_ADDR("probe-target", P##_STRIPE_PROBE_TARGET,		\
			P##_STRIPE_PROBE_TARGET6),			\
	STRIPE_OPT("probe-interval", P##_STRIPE_PROBE_INTERVAL_US,		\
		   STRIPE_ARG_TIME, STRIPE_PROBE_INTERVAL_US_MIN,	\
		   STRIPE_PROBE_INTERVAL_US_MAX)

/*
 * A link's options, the same words in tc and ip.  "weight auto" (value
 * 0) is the weight derived from the link speed; each plugin sends it as
 * its attribute family allows (q_stripe.c, parse.c).
 */
#define STRIPE_LINK_OPTS(weight_attr, limit_attr)			\
	STRIPE_OPT("weight", weight_attr, STRIPE_ARG_WEIGHT,		\
		   1, STRIPE_WEIGHT_MAX),				\
	STRIPE_OPT("limit", limit_attr, STRIPE_ARG_U32,			\
		   1, STRIPE_LIMIT_MAX)

/*
 * The attributes a command line has set, so that an option given twice
 * is refused, as iproute2 refuses one (duparg()), instead of being sent
 * twice for the kernel to keep the last.  probe-target counts once per
 * attribute: an IPv4 and an IPv6 target may both be given.
 */
struct stripe_seen {
	__u64 attrs;
};

_Static_assert(TCA_STRIPE_MAX < 64 && IFLA_STRIPE_MAX < 64 &&
	       IFLA_STRIPE_LINK_MAX < 64, "struct stripe_seen too small");

/*
 * Marks @attr, set by option @o with value @arg: 0, or -1 after writing
 * why into @why if it was set before (the caller prints "stripe: WHY").
 */
int stripe_seen_attr(struct stripe_seen *seen, const struct stripe_opt *o,
		     int attr, const char *arg, char *why, size_t size);

/* The option called @name in @opts, or NULL */
const struct stripe_opt *stripe_find_opt(const struct stripe_opt *opts,
					 size_t nopts, const char *name);

/* Plain digits only: no sign, no hex or octal surprises */
int stripe_get_u32(const char *arg, __u32 *val);

/* A time with tc's unit suffixes, in microseconds, rounded */
int stripe_get_time_us(const char *arg, __u32 *us);

/*
 * The value of a numeric option (not STRIPE_ARG_IFNAME) into @val, 0 or
 * -1 after writing why it is invalid into @why (room for @size; the
 * caller prints 'invalid NAME "ARG": WHY').  A time range is written
 * with @sprint_time ("1us..1s") when given (its buffer has room for
 * STRIPE_SPRINT_BSIZE), else as "1..1000000 us".
 */
#define STRIPE_SPRINT_BSIZE	64
int stripe_parse_value(const struct stripe_opt *o, const char *arg,
		       __u32 *val, char *why, size_t size,
		       char *(*sprint_time)(__u32 us, char *buf));

/*
 * The value of an address option (STRIPE_ARG_ADDR): the attributes to
 * send, one for an address, both (zero) for "none".  0, or -1 after
 * writing why into @why.
 */
struct stripe_addr_val {
	unsigned int n;
	struct {
		int attr;
		unsigned int len;	/* 4 or 16 */
		__u8 data[16];
	} a[2];
};
int stripe_parse_addr(const struct stripe_opt *o, const char *arg,
		      struct stripe_addr_val *v, char *why, size_t size);

/*
 * Attribute readers: each checks the payload length first, so a short or
 * truncated attribute reads as absent instead of past the buffer.
 */
bool stripe_attr_u8(const struct rtattr *rta, __u8 *val);
bool stripe_attr_u32(const struct rtattr *rta, __u32 *val);
/* A u64, or a u32 widened */
bool stripe_attr_u64(const struct rtattr *rta, __u64 *val);
/* Copies at most the payload: the kernel's NUL is not trusted */
bool stripe_attr_str(const struct rtattr *rta, char *buf, size_t size);

/* STRIPE_LINK_F_* and their names, lowest bit first */
#endif /* _STRIPE_PLUGIN_H */
