// SPDX-License-Identifier: GPL-2.0
/*
 * stripe: the master's options, as tc (TCA_STRIPE_*, qdisc.c) and ip
 * (IFLA_STRIPE_*, master.c) give them -- one table, so both take the same
 * options into struct stripe_config, with the same ranges and messages.
 *
 * The range is checked here with a message that names the option: a tc
 * policy with a range says only "integer out of range", and one with a
 * validation callback cannot be described back to userspace (6.1 warns).
 * ip's policy repeats the ranges, so a policy dump shows them; they are
 * the same constants (include/uapi/linux/stripe.h).  Called under RTNL.
 */
#include "stripe.h"

enum stripe_opt_kind {
	STRIPE_OPT_U8,
	STRIPE_OPT_U32,
	STRIPE_OPT_IN4,		/* __be32: an IPv4 address, any */
	STRIPE_OPT_IN6,		/* struct in6_addr, any */
};

struct stripe_option {
	u16 tca;		/* TCA_STRIPE_* */
	u16 ifla;		/* IFLA_STRIPE_* */
	u16 offset;		/* in struct stripe_config */
	u8 kind;
	u32 min, max;
};

#define STRIPE_OPT(attr, field, k, lo, hi)				\
	{ .tca = TCA_STRIPE_##attr, .ifla = IFLA_STRIPE_##attr,		\
	  .offset = offsetof(struct stripe_config, field),		\
	  .kind = STRIPE_OPT_##k, .min = (lo), .max = (hi) }

static const struct stripe_option stripe_options[] = {
	STRIPE_OPT(QUANTUM, quantum, U32, STRIPE_QUANTUM_MIN, STRIPE_QUANTUM_MAX),
	STRIPE_OPT(REORDER, reorder, U8, 0, STRIPE_REORDER_MAX),
	STRIPE_OPT(HOLD_MAX_US, hold_max_us, U32, 1, STRIPE_HOLD_MAX_US_MAX),
	STRIPE_OPT(FLOW_LIMIT, flow_limit, U32, 1, STRIPE_LIMIT_MAX),
	STRIPE_OPT(BUFFER_LIMIT, buffer_limit, U32, 1, STRIPE_LIMIT_MAX),
	STRIPE_OPT(MEMORY_LIMIT, memory_limit, U32, STRIPE_MEMORY_LIMIT_MIN,
		   STRIPE_MEMORY_LIMIT_MAX),
	STRIPE_OPT(STRIPE_MIN, stripe_min, U32, 0, U32_MAX),
	STRIPE_OPT(HOLD_AUTO, hold_auto, U8, 0, 1),
	STRIPE_OPT(PROBE_TARGET, probe_target, IN4, 0, 0),
	STRIPE_OPT(PROBE_INTERVAL_US, probe_interval_us, U32,
		   STRIPE_PROBE_INTERVAL_US_MIN, STRIPE_PROBE_INTERVAL_US_MAX),
	STRIPE_OPT(PROBE_TARGET6, probe_target6, IN6, 0, 0),
};

/* What an option out of its range is told (6.1's extack takes a string
 * literal only)
 */
static void stripe_option_refuse(const struct stripe_option *o,
				 const struct nlattr *a,
				 struct netlink_ext_ack *extack)
{
	switch (o->tca) {
	case TCA_STRIPE_QUANTUM:
		NL_SET_ERR_MSG_MOD(extack, "quantum must be 256 to 1048576 bytes");
		break;
	case TCA_STRIPE_REORDER:
		NL_SET_ERR_MSG_MOD(extack, "reorder must be off or on");
		break;
	case TCA_STRIPE_HOLD_MAX_US:
		NL_SET_ERR_MSG_MOD(extack, "hold-max must be 1 us to 1 s");
		break;
	case TCA_STRIPE_FLOW_LIMIT:
		NL_SET_ERR_MSG_MOD(extack, "flow-limit must be 1 to 1048576 packets");
		break;
	case TCA_STRIPE_BUFFER_LIMIT:
		NL_SET_ERR_MSG_MOD(extack, "buffer-limit must be 1 to 1048576 packets");
		break;
	case TCA_STRIPE_MEMORY_LIMIT:
		NL_SET_ERR_MSG_MOD(extack, "memory-limit must be 65536 to 2147483648 bytes");
		break;
	case TCA_STRIPE_HOLD_AUTO:
		NL_SET_ERR_MSG_MOD(extack, "hold-auto must be off or on");
		break;
	case TCA_STRIPE_PROBE_INTERVAL_US:
		NL_SET_ERR_MSG_MOD(extack, "probe-interval must be 10 ms to 60 s");
		break;
	}
	NL_SET_BAD_ATTR(extack, a);
}

/* The options in @tb (tc's attributes if @tc, else ip's; NULL: none) over
 * @cfg.  The attributes' types and lengths were checked by the caller's
 * policy.  On an option out of range @cfg is left part-way: callers work
 * on a copy.
 */
int stripe_options_read(struct stripe_config *cfg, struct nlattr **tb,
			bool tc, struct netlink_ext_ack *extack)
{
	const struct stripe_option *o;
	struct nlattr *a;
	void *field;
	u32 v;

	for (o = stripe_options; tb && o < stripe_options +
				ARRAY_SIZE(stripe_options); o++) {
		a = tb[tc ? o->tca : o->ifla];
		if (!a)
			continue;
		field = (u8 *)cfg + o->offset;
		switch (o->kind) {
		case STRIPE_OPT_IN4:
			*(__be32 *)field = nla_get_in_addr(a);
			continue;
		case STRIPE_OPT_IN6:
			*(struct in6_addr *)field = nla_get_in6_addr(a);
			continue;
		case STRIPE_OPT_U8:
			v = nla_get_u8(a);
			break;
		default:
			v = nla_get_u32(a);
			break;
		}
		if (v < o->min || v > o->max) {
			stripe_option_refuse(o, a, extack);
			return -ERANGE;
		}
		if (o->kind == STRIPE_OPT_U8)
			*(u8 *)field = v;
		else
			*(u32 *)field = v;
	}
	return 0;
}
