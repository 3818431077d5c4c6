// SPDX-License-Identifier: GPL-2.0
/* Stripe statistics parser. The kernel side may be newer or older than this
 * tool: unknown attributes are skipped, counters may be 32 or 64 bit,
 * strings need not be terminated, and an attribute of an impossible size is
 * skipped and counted, never trusted.  The statistics themselves are
 * decoded by ../plugin-common/stripe_stats.c, as the tc and ip plugins
 * decode them to print; the qdisc message around them is read here.
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <string.h>

#include <linux/gen_stats.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/stripe.h>

#include "xstats.h"
#include "../plugin-common/stripe_stats.h"

typedef int (*sp_attr_cb)(const struct nlattr *a, void *data);

/* Walk a stream of attributes; -EINVAL if one overruns the buffer. */
static int sp_attr_walk(const void *buf, size_t len, sp_attr_cb cb,
			void *data)
{
	const struct nlattr *a = buf;
	size_t step;
	int ret;

	while (len >= sizeof(*a)) {
		/* nla_ok(): a whole header, and no further than the buffer */
		if (a->nla_len < sizeof(*a) || a->nla_len > len)
			return -EINVAL;
		ret = cb(a, data);
		if (ret < 0)
			return ret;
		step = NLA_ALIGN(a->nla_len);
		if (step >= len)
			return 0;
		len -= step;
		a = (const struct nlattr *)((const char *)a + step);
	}
	return 0;
}

/* An attribute's payload and its length: nla_len >= NLA_HDRLEN, the walk
 * made sure
 */
static const void *sp_nla_data(const struct nlattr *a)
{
	return (const char *)a + NLA_HDRLEN;
}

static size_t sp_nla_len(const struct nlattr *a)
{
	return a->nla_len - NLA_HDRLEN;
}

static void sp_get_str(const struct nlattr *a, char *dst, size_t size)
{
	size_t n = sp_nla_len(a);

	if (n >= size)
		n = size - 1;
	memcpy(dst, sp_nla_data(a), n);
	dst[n] = '\0';	/* and stops at an embedded NUL as well */
}

/* Where a statistic goes: a u32 or u64 field of sp_xmaster or sp_xlink */
struct sp_field {
	int attr;
	size_t off;
	size_t size;
};

#define SP_FIELD(type, k, a, f)						\
	{ TCA_STRIPE_##k##STAT_##a, offsetof(struct type, f),		\
	  sizeof(((struct type *)0)->f) }
#define SP_M(a, f)	SP_FIELD(sp_xmaster, M, a, f)
#define SP_L(a, f)	SP_FIELD(sp_xlink, L, a, f)

static const struct sp_field sp_master_fields[] = {
	SP_M(LINKS, links),
	SP_M(ACTIVE, active),
	SP_M(TX_PACKETS, tx_packets),
	SP_M(TX_BYTES, tx_bytes),
	SP_M(TX_BUSY, tx_busy),
	SP_M(TX_DROPS, tx_drops),
	SP_M(RX_PACKETS, rx_packets),
	SP_M(RX_BYTES, rx_bytes),
	SP_M(TX_MARKERS, tx_markers),
	SP_M(RX_MARKERS, rx_markers),
	SP_M(SENDER_ID, sender_id),
	SP_M(RX_SENDERS, rx_senders),
};

static const struct sp_field sp_link_fields[] = {
	SP_L(IFINDEX, ifindex),
	SP_L(WEIGHT, weight),
	SP_L(FLAGS, flags),
	SP_L(TX_PACKETS, tx_packets),
	SP_L(TX_BYTES, tx_bytes),
	SP_L(TX_BUSY, tx_busy),
	SP_L(TX_DROPS, tx_drops),
	SP_L(NEIGH_FAIL, neigh_fail),
	SP_L(RX_PACKETS, rx_packets),
	SP_L(RX_BYTES, rx_bytes),
	SP_L(TX_MARKERS, tx_markers),
	SP_L(RX_SKEW_US, rx_skew_us),
};

/* The statistics of @fields that @s holds, into the struct at @dst */
static void sp_fill(void *dst, const struct sp_field *fields, size_t n,
		    const struct stripe_stat_set *s)
{
	uint32_t v32;
	size_t i;

	for (i = 0; i < n; i++) {
		const struct sp_field *f = &fields[i];

		if (!stripe_stat_has(s, f->attr))
			continue;
		if (f->size == sizeof(v32)) {
			v32 = (uint32_t)s->val[f->attr];
			memcpy((char *)dst + f->off, &v32, sizeof(v32));
		} else {
			memcpy((char *)dst + f->off, &s->val[f->attr],
			       sizeof(uint64_t));
		}
	}
}

#define SP_FILL(dst, fields, s) \
	sp_fill(dst, fields, sizeof(fields) / sizeof((fields)[0]), s)

static int sp_link_cb(const struct rtattr *nest, void *data)
{
	struct sp_xstats *x = data;
	struct stripe_stat_set s;
	struct sp_xlink *l;
	int ret;

	if (x->nlinks >= SP_XSTATS_MAX_LINKS) {
		x->truncated++;
		return 0;
	}
	ret = stripe_stats_decode(STRIPE_STAT_LINK, nest, &s);
	/* keep what was read, even of a link cut short */
	l = &x->link[x->nlinks++];
	memset(l, 0, sizeof(*l));
	SP_FILL(l, sp_link_fields, &s);
	memcpy(l->name, s.name, sizeof(l->name));
	l->has_skew = stripe_stat_has(&s, TCA_STRIPE_LSTAT_RX_SKEW_US);
	if (stripe_stat_has(&s, TCA_STRIPE_LSTAT_TX_MARKERS))
		x->has_markers = true;
	x->skipped += s.bad;
	return ret;
}

/* The decoding is plugin-common's (what tc and ip print from); this
 * keeps what stripe-perf reports of it
 */
int sp_xstats_parse(const void *buf, size_t len, struct sp_xstats *x)
{
	struct sp_xmaster *m = &x->master;
	struct stripe_stat_set s;
	struct stripe_xstats top;
	int ret;

	memset(x, 0, sizeof(*x));
	ret = stripe_xstats_decode(buf, len > INT_MAX ? INT_MAX : (int)len,
				   &top);
	x->has_role = top.has_role;
	x->role = top.role;
	x->skipped = top.bad;
	if (top.master) {
		x->has_master = true;
		ret |= stripe_stats_decode(STRIPE_STAT_MASTER, top.master, &s);
		SP_FILL(m, sp_master_fields, &s);
		memcpy(m->name, s.name, sizeof(m->name));
		m->has_sender_id = stripe_stat_has(&s,
						   TCA_STRIPE_MSTAT_SENDER_ID);
		m->has_senders = stripe_stat_has(&s,
						 TCA_STRIPE_MSTAT_RX_SENDERS);
		x->has_markers = stripe_stat_has(&s,
						 TCA_STRIPE_MSTAT_TX_MARKERS) ||
				 stripe_stat_has(&s,
						 TCA_STRIPE_MSTAT_RX_MARKERS);
		m->hold_hist_n = s.hist_n;
		memcpy(m->hold_hist, s.hist, sizeof(m->hold_hist));
		x->skipped += s.bad;
	}
	ret |= stripe_stats_each(top.links, TCA_STRIPE_XSTATS_LINK,
				 sp_link_cb, x);
	return ret ? -EINVAL : 0;
}

struct sp_qd {
	const struct nlattr *kind;
	const struct nlattr *stats2;
	const struct nlattr *xstats;
	const struct nlattr *app;
};

static int sp_qd_cb(const struct nlattr *a, void *data)
{
	struct sp_qd *q = data;

	switch (a->nla_type & NLA_TYPE_MASK) {
	case TCA_KIND:
		q->kind = a;
		break;
	case TCA_STATS2:
		q->stats2 = a;
		break;
	case TCA_XSTATS:
		q->xstats = a;
		break;
	}
	return 0;
}

static int sp_stats2_cb(const struct nlattr *a, void *data)
{
	struct sp_qd *q = data;

	if ((a->nla_type & NLA_TYPE_MASK) == TCA_STATS_APP)
		q->app = a;
	return 0;
}

int sp_xstats_from_qdisc(const struct nlmsghdr *nlh, int ifindex,
			 struct sp_xstats *x)
{
	const struct tcmsg *tcm;
	struct sp_qd q = { 0 };
	char kind[16];
	size_t hdr = NLMSG_ALIGN(sizeof(*tcm));
	int ret;

	if (nlh->nlmsg_len < NLMSG_HDRLEN + hdr)
		return -EINVAL;
	if (nlh->nlmsg_type != RTM_NEWQDISC)
		return 0;
	tcm = NLMSG_DATA(nlh);
	if (ifindex && tcm->tcm_ifindex != ifindex)
		return 0;
	ret = sp_attr_walk((const char *)tcm + hdr,
			   nlh->nlmsg_len - NLMSG_HDRLEN - hdr,
			   sp_qd_cb, &q);
	if (ret < 0)
		return ret;
	if (!q.kind)
		return 0;
	sp_get_str(q.kind, kind, sizeof(kind));
	if (strcmp(kind, STRIPE_KIND))
		return 0;
	if (q.stats2) {
		ret = sp_attr_walk(sp_nla_data(q.stats2), sp_nla_len(q.stats2),
				   sp_stats2_cb, &q);
		if (ret < 0)
			return ret;
	}
	/* TCA_XSTATS is the same blob for old dumpers; prefer STATS2 */
	if (!q.app)
		q.app = q.xstats;
	if (!q.app) {
		memset(x, 0, sizeof(*x));
		return 1;	/* a stripe qdisc without statistics */
	}
	ret = sp_xstats_parse(sp_nla_data(q.app), sp_nla_len(q.app), x);
	return ret < 0 ? ret : 1;
}

static uint64_t sp_sub(uint64_t after, uint64_t before)
{
	/* a reset counter (module reloaded) counts from zero */
	return after >= before ? after - before : after;
}

static const struct sp_xlink *sp_find_link(const struct sp_xstats *x,
					   const struct sp_xlink *l)
{
	unsigned int i;

	for (i = 0; i < x->nlinks; i++) {
		if (l->ifindex && x->link[i].ifindex == l->ifindex)
			return &x->link[i];
		if (!l->ifindex && l->name[0] &&
		    !strcmp(x->link[i].name, l->name))
			return &x->link[i];
	}
	return NULL;
}

/* dst->first..last -= src's: a run of u64 counters, each a delta after */
static void sp_sub_run(uint64_t *dst, const uint64_t *src, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++)
		dst[k] = sp_sub(dst[k], src[k]);
}

#define SP_SUB_COUNTERS(dst, src, first, last)				\
	sp_sub_run(&(dst)->first, &(src)->first,			\
		   (offsetof(__typeof__(*(dst)), last) -		\
		    offsetof(__typeof__(*(dst)), first)) /		\
		   sizeof(uint64_t) + 1)

void sp_xstats_delta(const struct sp_xstats *before,
		     const struct sp_xstats *after, struct sp_xstats *d)
{
	const struct sp_xlink *b;
	struct sp_xlink *l;
	unsigned int i;

	*d = *after;
	SP_SUB_COUNTERS(&d->master, &before->master, tx_packets, rx_markers);
	sp_sub_run(d->master.hold_hist, before->master.hold_hist,
		   d->master.hold_hist_n);
	for (i = 0; i < d->nlinks; i++) {
		l = &d->link[i];
		b = sp_find_link(before, l);
		if (!b)
			continue;	/* joined during the run */
		SP_SUB_COUNTERS(l, b, tx_packets, tx_markers);
	}
}
