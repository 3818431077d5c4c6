// SPDX-License-Identifier: GPL-2.0
/*
 * stripe_stats.c: the statistics attributes decoded (stripe_stats.h).
 */
#include <string.h>

#include "stripe_stats.h"

/* The sizes an attribute may have; the uapi header: "u64 unless noted" */
enum stripe_stat_type {
	STRIPE_T_U64 = 0,
	STRIPE_T_U32,
	STRIPE_T_STR,
	STRIPE_T_HIST,
	STRIPE_T_SKIP,		/* UNSPEC, PAD */
};

static const __u8 stripe_mstat_type[TCA_STRIPE_MSTAT_MAX + 1] = {
	[TCA_STRIPE_MSTAT_UNSPEC] = STRIPE_T_SKIP,
	[TCA_STRIPE_MSTAT_PAD] = STRIPE_T_SKIP,
	[TCA_STRIPE_MSTAT_NAME] = STRIPE_T_STR,
	[TCA_STRIPE_MSTAT_LINKS] = STRIPE_T_U32,
	[TCA_STRIPE_MSTAT_ACTIVE] = STRIPE_T_U32,
	[TCA_STRIPE_MSTAT_SENDER_ID] = STRIPE_T_U32,
	[TCA_STRIPE_MSTAT_RX_SENDERS] = STRIPE_T_U32,
	[TCA_STRIPE_MSTAT_RX_HOLD_HIST] = STRIPE_T_HIST,
	[TCA_STRIPE_MSTAT_RX_HOLD_US] = STRIPE_T_U32,
};

static const __u8 stripe_lstat_type[TCA_STRIPE_LSTAT_MAX + 1] = {
	[TCA_STRIPE_LSTAT_UNSPEC] = STRIPE_T_SKIP,
	[TCA_STRIPE_LSTAT_PAD] = STRIPE_T_SKIP,
	[TCA_STRIPE_LSTAT_IFINDEX] = STRIPE_T_U32,
	[TCA_STRIPE_LSTAT_NAME] = STRIPE_T_STR,
	[TCA_STRIPE_LSTAT_WEIGHT] = STRIPE_T_U32,
	[TCA_STRIPE_LSTAT_FLAGS] = STRIPE_T_U32,
	[TCA_STRIPE_LSTAT_RX_SKEW_US] = STRIPE_T_U32,
	[TCA_STRIPE_LSTAT_LEFT_AFTER_MS] = STRIPE_T_U32,
	[TCA_STRIPE_LSTAT_PACE] = STRIPE_T_U32,
	[TCA_STRIPE_LSTAT_QUEUE_US] = STRIPE_T_U32,
};

static const __u8 stripe_pstat_type[TCA_STRIPE_PSTAT_MAX + 1] = {
	[TCA_STRIPE_PSTAT_UNSPEC] = STRIPE_T_SKIP,
	[TCA_STRIPE_PSTAT_PAD] = STRIPE_T_SKIP,
	[TCA_STRIPE_PSTAT_ID] = STRIPE_T_U32,
	[TCA_STRIPE_PSTAT_AGE_MS] = STRIPE_T_U32,
	[TCA_STRIPE_PSTAT_LINKS] = STRIPE_T_U32,
	[TCA_STRIPE_PSTAT_SILENT] = STRIPE_T_U32,
	[TCA_STRIPE_PSTAT_SKEW_US] = STRIPE_T_U32,
};

static const struct {
	const __u8 *type;
	int max;
} stripe_stat_types[] = {
	[STRIPE_STAT_MASTER] = { stripe_mstat_type, TCA_STRIPE_MSTAT_MAX },
	[STRIPE_STAT_LINK] = { stripe_lstat_type, TCA_STRIPE_LSTAT_MAX },
	[STRIPE_STAT_PEER] = { stripe_pstat_type, TCA_STRIPE_PSTAT_MAX },
};

/* @fn on each attribute of the @len bytes at @data: -1 if one runs past
 * them, or at the first that @fn fails on (what follows a nest cut short
 * is no attribute)
 */
static int stripe_walk(const void *data, int len,
		       int (*fn)(const struct rtattr *a, void *arg), void *arg)
{
	const struct rtattr *a = data;

	for (; RTA_OK(a, len); a = RTA_NEXT(a, len))
		if (fn(a, arg))
			return -1;
	/* less than a header left is the padding of the last one */
	return len >= (int)sizeof(*a) ? -1 : 0;
}

static int stripe_type(const struct rtattr *a)
{
	return a->rta_type & NLA_TYPE_MASK;
}

/* The sizes the kernel ever sent: 4 bytes, or 4 or 8 for a counter */
static bool stripe_read_num(const struct rtattr *a, bool wide, __u64 *v)
{
	int len = RTA_PAYLOAD(a);
	__u32 v32;

	if (wide && len == (int)sizeof(*v)) {
		memcpy(v, RTA_DATA(a), sizeof(*v));
		return true;
	}
	if (len != (int)sizeof(v32))
		return false;
	memcpy(&v32, RTA_DATA(a), sizeof(v32));
	*v = v32;
	return true;
}

static int stripe_hist_cb(const struct rtattr *a, void *arg)
{
	struct stripe_stat_set *s = arg;
	const unsigned int last = STRIPE_HOLD_HIST_BUCKETS - 1;
	unsigned int k = s->hist_n > last ? last : s->hist_n;
	__u64 v;

	if (stripe_type(a) != TCA_STRIPE_HIST_BUCKET)
		return 0;
	if (stripe_read_num(a, true, &v)) {
		s->hist[k] += v;
		s->hist_have |= 1U << k;
	} else {
		s->bad++;
	}
	s->hist_n = k + 1;
	return 0;
}

static int stripe_stat_cb(const struct rtattr *a, void *arg)
{
	struct stripe_stat_set *s = arg;
	int t = stripe_type(a);
	size_t len;

	if (t > stripe_stat_types[s->kind].max || stripe_stat_has(s, t))
		return 0;	/* newer than us, or the first was read */
	switch (stripe_stat_types[s->kind].type[t]) {
	case STRIPE_T_SKIP:
		return 0;
	case STRIPE_T_STR:
		if (RTA_PAYLOAD(a) == 0)
			break;
		len = strnlen(RTA_DATA(a), RTA_PAYLOAD(a));
		if (len >= sizeof(s->name))
			len = sizeof(s->name) - 1;
		memcpy(s->name, RTA_DATA(a), len);
		s->name[len] = '\0';
		s->have |= 1ULL << t;
		return 0;
	case STRIPE_T_HIST:
		s->have |= 1ULL << t;
		return stripe_walk(RTA_DATA(a), RTA_PAYLOAD(a), stripe_hist_cb,
				   s);
	case STRIPE_T_U32:
	case STRIPE_T_U64:
		if (!stripe_read_num(a, stripe_stat_types[s->kind].type[t] ==
				     STRIPE_T_U64, &s->val[t]))
			break;
		s->have |= 1ULL << t;
		return 0;
	}
	s->bad++;
	return 0;
}

int stripe_stats_decode(enum stripe_stat_kind kind, const struct rtattr *nest,
			struct stripe_stat_set *s)
{
	memset(s, 0, sizeof(*s));
	s->kind = kind;
	if (!nest)
		return 0;
	return stripe_walk(RTA_DATA(nest), RTA_PAYLOAD(nest), stripe_stat_cb,
			   s);
}

static int stripe_xstats_cb(const struct rtattr *a, void *arg)
{
	struct stripe_xstats *x = arg;

	switch (stripe_type(a)) {
	case TCA_STRIPE_XSTATS_ROLE:
		if (x->has_role)
			break;
		if (RTA_PAYLOAD(a) < 1) {
			x->bad++;
			break;
		}
		x->role = *(const __u8 *)RTA_DATA(a);
		x->has_role = true;
		break;
	case TCA_STRIPE_XSTATS_MASTER:
		if (!x->master)
			x->master = a;
		break;
	case TCA_STRIPE_XSTATS_LINKS:
		if (!x->links)
			x->links = a;
		break;
	case TCA_STRIPE_XSTATS_PEERS:
		if (!x->peers)
			x->peers = a;
		break;
	}
	return 0;
}

int stripe_xstats_decode(const void *data, int len, struct stripe_xstats *x)
{
	memset(x, 0, sizeof(*x));
	return stripe_walk(data, len, stripe_xstats_cb, x);
}

struct stripe_each {
	int type;
	int (*fn)(const struct rtattr *nest, void *arg);
	void *arg;
};

static int stripe_each_cb(const struct rtattr *a, void *arg)
{
	struct stripe_each *e = arg;

	return stripe_type(a) == e->type ? e->fn(a, e->arg) : 0;
}

int stripe_stats_each(const struct rtattr *list, int type,
		      int (*fn)(const struct rtattr *nest, void *arg),
		      void *arg)
{
	struct stripe_each e = { .type = type, .fn = fn, .arg = arg };

	if (!list)
		return 0;
	return stripe_walk(RTA_DATA(list), RTA_PAYLOAD(list), stripe_each_cb,
			   &e);
}
