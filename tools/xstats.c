// SPDX-License-Identifier: GPL-2.0
/* Stripe statistics parser. The kernel side may be newer or older than this
 * tool: unknown attributes are skipped, counters may be 32 or 64 bit,
 * strings need not be terminated, and an attribute of an impossible size is
 * skipped and counted, never trusted.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include <libmnl/libmnl.h>
#include <linux/gen_stats.h>
#include <linux/rtnetlink.h>
#include <linux/stripe.h>

#include "xstats.h"

typedef int (*sp_attr_cb)(const struct nlattr *a, void *data);

/* Walk a stream of attributes; -EINVAL if one overruns the buffer. */
static int sp_attr_walk(const void *buf, size_t len, sp_attr_cb cb,
			void *data)
{
	const struct nlattr *a = buf;
	size_t step;
	int ret;

	while (len >= sizeof(*a)) {
		if (!mnl_attr_ok(a, (int)(len > 0x7fffffff ? 0x7fffffff :
					  len)))
			return -EINVAL;
		ret = cb(a, data);
		if (ret < 0)
			return ret;
		step = MNL_ALIGN(a->nla_len);
		if (step >= len)
			return 0;
		len -= step;
		a = (const struct nlattr *)((const char *)a + step);
	}
	return 0;
}

static int sp_get_u64(const struct nlattr *a, uint64_t *v, unsigned int *bad)
{
	uint32_t v32;

	switch (mnl_attr_get_payload_len(a)) {
	case 8:
		memcpy(v, mnl_attr_get_payload(a), 8);
		return 0;
	case 4:
		memcpy(&v32, mnl_attr_get_payload(a), 4);
		*v = v32;
		return 0;
	}
	(*bad)++;
	return -EINVAL;
}

static int sp_get_u32(const struct nlattr *a, uint32_t *v, unsigned int *bad)
{
	if (mnl_attr_get_payload_len(a) != 4) {
		(*bad)++;
		return -EINVAL;
	}
	memcpy(v, mnl_attr_get_payload(a), 4);
	return 0;
}

static void sp_get_str(const struct nlattr *a, char *dst, size_t size)
{
	size_t n = mnl_attr_get_payload_len(a);

	if (n >= size)
		n = size - 1;
	memcpy(dst, mnl_attr_get_payload(a), n);
	dst[n] = '\0';	/* and stops at an embedded NUL as well */
}

struct sp_walk {
	struct sp_xstats *x;
	struct sp_xlink *l;
};

/* The k-th TCA_STRIPE_HIST_BUCKET is bucket k, even when it cannot be
 * read; buckets past the last one known are added to it (no bound).
 */
static int sp_hist_cb(const struct nlattr *a, void *data)
{
	struct sp_walk *w = data;
	struct sp_xmaster *m = &w->x->master;
	const unsigned int last = STRIPE_HOLD_HIST_BUCKETS - 1;
	unsigned int k = m->hold_hist_n;
	uint64_t v;

	if (mnl_attr_get_type(a) != TCA_STRIPE_HIST_BUCKET)
		return 0;
	if (k > last)
		k = last;
	if (!sp_get_u64(a, &v, &w->x->skipped))
		m->hold_hist[k] += v;
	m->hold_hist_n = k + 1;
	return 0;
}

static int sp_master_cb(const struct nlattr *a, void *data)
{
	struct sp_walk *w = data;
	struct sp_xmaster *m = &w->x->master;
	unsigned int *bad = &w->x->skipped;

	switch (mnl_attr_get_type(a)) {
	case TCA_STRIPE_MSTAT_NAME:
		sp_get_str(a, m->name, sizeof(m->name));
		break;
	case TCA_STRIPE_MSTAT_LINKS:
		sp_get_u32(a, &m->links, bad);
		break;
	case TCA_STRIPE_MSTAT_ACTIVE:
		sp_get_u32(a, &m->active, bad);
		break;
	case TCA_STRIPE_MSTAT_TX_PACKETS:
		sp_get_u64(a, &m->tx_packets, bad);
		break;
	case TCA_STRIPE_MSTAT_TX_BYTES:
		sp_get_u64(a, &m->tx_bytes, bad);
		break;
	case TCA_STRIPE_MSTAT_TX_BUSY:
		sp_get_u64(a, &m->tx_busy, bad);
		break;
	case TCA_STRIPE_MSTAT_TX_DROPS:
		sp_get_u64(a, &m->tx_drops, bad);
		break;
	case TCA_STRIPE_MSTAT_RX_PACKETS:
		sp_get_u64(a, &m->rx_packets, bad);
		break;
	case TCA_STRIPE_MSTAT_RX_BYTES:
		sp_get_u64(a, &m->rx_bytes, bad);
		break;
	case TCA_STRIPE_MSTAT_SENDER_ID:
		m->has_sender_id = !sp_get_u32(a, &m->sender_id, bad);
		break;
	case TCA_STRIPE_MSTAT_TX_MARKERS:
		w->x->has_markers = true;
		sp_get_u64(a, &m->tx_markers, bad);
		break;
	case TCA_STRIPE_MSTAT_RX_MARKERS:
		w->x->has_markers = true;
		sp_get_u64(a, &m->rx_markers, bad);
		break;
	case TCA_STRIPE_MSTAT_RX_SENDERS:
		m->has_senders = !sp_get_u32(a, &m->rx_senders, bad);
		break;
	case TCA_STRIPE_MSTAT_RX_HOLD_HIST:
		memset(m->hold_hist, 0, sizeof(m->hold_hist));
		m->hold_hist_n = 0;
		return sp_attr_walk(mnl_attr_get_payload(a),
				    mnl_attr_get_payload_len(a), sp_hist_cb, w);
	default:	/* PAD and anything newer than us */
		break;
	}
	return 0;
}

static int sp_link_cb(const struct nlattr *a, void *data)
{
	struct sp_walk *w = data;
	struct sp_xlink *l = w->l;
	unsigned int *bad = &w->x->skipped;

	switch (mnl_attr_get_type(a)) {
	case TCA_STRIPE_LSTAT_IFINDEX:
		sp_get_u32(a, &l->ifindex, bad);
		break;
	case TCA_STRIPE_LSTAT_NAME:
		sp_get_str(a, l->name, sizeof(l->name));
		break;
	case TCA_STRIPE_LSTAT_WEIGHT:
		sp_get_u32(a, &l->weight, bad);
		break;
	case TCA_STRIPE_LSTAT_FLAGS:
		sp_get_u32(a, &l->flags, bad);
		break;
	case TCA_STRIPE_LSTAT_TX_PACKETS:
		sp_get_u64(a, &l->tx_packets, bad);
		break;
	case TCA_STRIPE_LSTAT_TX_BYTES:
		sp_get_u64(a, &l->tx_bytes, bad);
		break;
	case TCA_STRIPE_LSTAT_TX_BUSY:
		sp_get_u64(a, &l->tx_busy, bad);
		break;
	case TCA_STRIPE_LSTAT_TX_DROPS:
		sp_get_u64(a, &l->tx_drops, bad);
		break;
	case TCA_STRIPE_LSTAT_NEIGH_FAIL:
		sp_get_u64(a, &l->neigh_fail, bad);
		break;
	case TCA_STRIPE_LSTAT_RX_PACKETS:
		sp_get_u64(a, &l->rx_packets, bad);
		break;
	case TCA_STRIPE_LSTAT_RX_BYTES:
		sp_get_u64(a, &l->rx_bytes, bad);
		break;
	case TCA_STRIPE_LSTAT_TX_MARKERS:
		w->x->has_markers = true;
		sp_get_u64(a, &l->tx_markers, bad);
		break;
	case TCA_STRIPE_LSTAT_RX_SKEW_US:
		l->has_skew = !sp_get_u32(a, &l->rx_skew_us, bad);
		break;
	default:
		break;
	}
	return 0;
}

static int sp_links_cb(const struct nlattr *a, void *data)
{
	struct sp_walk *w = data;
	struct sp_xstats *x = w->x;
	int ret;

	if (mnl_attr_get_type(a) != TCA_STRIPE_XSTATS_LINK)
		return 0;
	if (x->nlinks >= SP_XSTATS_MAX_LINKS) {
		x->truncated++;
		return 0;
	}
	w->l = &x->link[x->nlinks];
	memset(w->l, 0, sizeof(*w->l));
	ret = sp_attr_walk(mnl_attr_get_payload(a),
			   mnl_attr_get_payload_len(a), sp_link_cb, w);
	x->nlinks++;	/* keep what parsed, even if the tail is damaged */
	return ret;
}

static int sp_top_cb(const struct nlattr *a, void *data)
{
	struct sp_walk *w = data;
	struct sp_xstats *x = w->x;

	switch (mnl_attr_get_type(a)) {
	case TCA_STRIPE_XSTATS_ROLE:
		if (mnl_attr_get_payload_len(a) < 1) {
			x->skipped++;
			break;
		}
		x->role = mnl_attr_get_u8(a);
		x->has_role = true;
		break;
	case TCA_STRIPE_XSTATS_MASTER:
		x->has_master = true;
		return sp_attr_walk(mnl_attr_get_payload(a),
				    mnl_attr_get_payload_len(a),
				    sp_master_cb, w);
	case TCA_STRIPE_XSTATS_LINKS:
		return sp_attr_walk(mnl_attr_get_payload(a),
				    mnl_attr_get_payload_len(a),
				    sp_links_cb, w);
	default:
		break;
	}
	return 0;
}

int sp_xstats_parse(const void *buf, size_t len, struct sp_xstats *x)
{
	struct sp_walk w = { .x = x };

	memset(x, 0, sizeof(*x));
	return sp_attr_walk(buf, len, sp_top_cb, &w);
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

	switch (mnl_attr_get_type(a)) {
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

	if (mnl_attr_get_type(a) == TCA_STATS_APP)
		q->app = a;
	return 0;
}

int sp_xstats_from_qdisc(const struct nlmsghdr *nlh, int ifindex,
			 struct sp_xstats *x)
{
	const struct tcmsg *tcm;
	struct sp_qd q = { 0 };
	char kind[16];
	size_t hdr = MNL_ALIGN(sizeof(*tcm));
	int ret;

	if (nlh->nlmsg_len < MNL_NLMSG_HDRLEN + hdr)
		return -EINVAL;
	if (nlh->nlmsg_type != RTM_NEWQDISC)
		return 0;
	tcm = mnl_nlmsg_get_payload(nlh);
	if (ifindex && tcm->tcm_ifindex != ifindex)
		return 0;
	ret = sp_attr_walk((const char *)tcm + hdr,
			   nlh->nlmsg_len - MNL_NLMSG_HDRLEN - hdr,
			   sp_qd_cb, &q);
	if (ret < 0)
		return ret;
	if (!q.kind)
		return 0;
	sp_get_str(q.kind, kind, sizeof(kind));
	if (strcmp(kind, STRIPE_KIND))
		return 0;
	if (q.stats2) {
		ret = sp_attr_walk(mnl_attr_get_payload(q.stats2),
				   mnl_attr_get_payload_len(q.stats2),
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
	ret = sp_xstats_parse(mnl_attr_get_payload(q.app),
			      mnl_attr_get_payload_len(q.app), x);
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
