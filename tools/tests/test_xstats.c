// SPDX-License-Identifier: GPL-2.0
/* Stripe statistics parser on hand-built RTM_NEWQDISC messages. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <linux/gen_stats.h>
#include <linux/netlink.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <linux/stripe.h>

#include "../stripe_nl.h"
#include "../xstats.h"
#include "tap.h"

static char buf[16384];

/* A message builder as libmnl's: attributes appended at nlmsg_len, each
 * padded to 4 with zeroes, a nest flagged NLA_F_NESTED as the kernel's
 */
static void *nlmsg_tail(struct nlmsghdr *nlh)
{
	return (char *)nlh + NLMSG_ALIGN(nlh->nlmsg_len);
}

static struct nlmsghdr *nlmsg_put_header(void *b)
{
	struct nlmsghdr *nlh = b;

	memset(nlh, 0, NLMSG_HDRLEN);
	nlh->nlmsg_len = NLMSG_HDRLEN;
	return nlh;
}

static void *nlmsg_put_extra_header(struct nlmsghdr *nlh, size_t size)
{
	void *p = nlmsg_tail(nlh);

	memset(p, 0, NLMSG_ALIGN(size));
	nlh->nlmsg_len += NLMSG_ALIGN(size);
	return p;
}

static struct nlattr *attr_put(struct nlmsghdr *nlh, int type, size_t len,
			       const void *data)
{
	struct nlattr *a = nlmsg_tail(nlh);

	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	memset(a + 1, 0, NLA_ALIGN(len));
	if (len)
		memcpy(a + 1, data, len);
	nlh->nlmsg_len += NLA_ALIGN(a->nla_len);
	return a;
}

#define ATTR_PUT(t, name)						\
static void attr_put_##name(struct nlmsghdr *nlh, int type, t v)	\
{									\
	attr_put(nlh, type, sizeof(v), &v);				\
}
ATTR_PUT(uint8_t, u8)
ATTR_PUT(uint16_t, u16)
ATTR_PUT(uint32_t, u32)
ATTR_PUT(uint64_t, u64)

static void attr_put_strz(struct nlmsghdr *nlh, int type, const char *s)
{
	attr_put(nlh, type, strlen(s) + 1, s);
}

static struct nlattr *attr_nest_start(struct nlmsghdr *nlh, int type)
{
	return attr_put(nlh, NLA_F_NESTED | type, 0, NULL);
}

static void attr_nest_end(struct nlmsghdr *nlh, struct nlattr *a)
{
	a->nla_len = (char *)nlmsg_tail(nlh) - (char *)a;
}

static void *attr_get_payload(const struct nlattr *a)
{
	return (char *)a + NLA_HDRLEN;
}

static size_t attr_get_payload_len(const struct nlattr *a)
{
	return a->nla_len - NLA_HDRLEN;
}

struct link_def {
	uint32_t ifindex;
	const char *name;
	uint64_t tx_bytes;
};

static void put_link(struct nlmsghdr *nlh, const struct link_def *l,
		     int extra)
{
	struct nlattr *n = attr_nest_start(nlh, TCA_STRIPE_XSTATS_LINK);

	attr_put_u32(nlh, TCA_STRIPE_LSTAT_IFINDEX, l->ifindex);
	attr_put_strz(nlh, TCA_STRIPE_LSTAT_NAME, l->name);
	attr_put_u32(nlh, TCA_STRIPE_LSTAT_WEIGHT, 10);
	attr_put_u32(nlh, TCA_STRIPE_LSTAT_FLAGS,
			 STRIPE_LINK_F_UP | STRIPE_LINK_F_ACTIVE);
	if (extra) {
		/* an attribute from a future kernel, and a PAD */
		attr_put_u64(nlh, 200, 0xdeadbeef);
		attr_put(nlh, TCA_STRIPE_LSTAT_PAD, 0, NULL);
	}
	attr_put_u64(nlh, TCA_STRIPE_LSTAT_TX_PACKETS, l->tx_bytes / 1000);
	attr_put_u64(nlh, TCA_STRIPE_LSTAT_TX_BYTES, l->tx_bytes);
	attr_put_u64(nlh, TCA_STRIPE_LSTAT_RX_BYTES, 77);
	attr_nest_end(nlh, n);
}

/* A master with links; returns the message. app_start/app_len locate the
 * TCA_STATS_APP payload for the direct parser tests.
 */
static struct nlmsghdr *build(const char *kind, int ifindex,
			      const struct link_def *links, int nlinks,
			      int extra, int use_xstats, void **app,
			      size_t *app_len)
{
	struct nlattr *st2 = NULL, *a, *m, *ls;
	struct nlmsghdr *nlh;
	struct tcmsg *tcm;
	int i;

	memset(buf, 0, sizeof(buf));
	nlh = nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_NEWQDISC;
	tcm = nlmsg_put_extra_header(nlh, sizeof(*tcm));
	tcm->tcm_ifindex = ifindex;
	tcm->tcm_parent = TC_H_ROOT;
	attr_put_strz(nlh, TCA_KIND, kind);
	if (use_xstats) {
		a = attr_nest_start(nlh, TCA_XSTATS);
	} else {
		st2 = attr_nest_start(nlh, TCA_STATS2);
		attr_put(nlh, TCA_STATS_BASIC, 16, buf + 8000);
		a = attr_nest_start(nlh, TCA_STATS_APP);
	}
	attr_put_u8(nlh, TCA_STRIPE_XSTATS_ROLE, STRIPE_ROLE_MASTER);
	m = attr_nest_start(nlh, TCA_STRIPE_XSTATS_MASTER);
	attr_put_strz(nlh, TCA_STRIPE_MSTAT_NAME, "stripe0");
	attr_put_u32(nlh, TCA_STRIPE_MSTAT_LINKS, nlinks);
	attr_put_u32(nlh, TCA_STRIPE_MSTAT_ACTIVE, nlinks);
	attr_put_u64(nlh, TCA_STRIPE_MSTAT_TX_PACKETS, 3000);
	attr_put_u64(nlh, TCA_STRIPE_MSTAT_TX_BYTES, 4500000);
	if (extra)
		attr_put_u32(nlh, 99, 1);
	attr_put_u64(nlh, TCA_STRIPE_MSTAT_RX_BYTES, 1ULL << 40);
	attr_nest_end(nlh, m);
	ls = attr_nest_start(nlh, TCA_STRIPE_XSTATS_LINKS);
	for (i = 0; i < nlinks; i++)
		put_link(nlh, &links[i], extra);
	attr_nest_end(nlh, ls);
	if (extra)
		attr_put_u32(nlh, 77, 5);	/* unknown top level */
	attr_nest_end(nlh, a);
	if (st2)
		attr_nest_end(nlh, st2);
	if (app) {
		*app = attr_get_payload(a);
		*app_len = attr_get_payload_len(a);
	}
	return nlh;
}

static struct nlattr *hist_nest;	/* the last put_hist() */

/* Hold-time histogram: n buckets first, first + 1, ...; bad_at (if < n)
 * is sent 2 bytes long; a HIST_PAD before every bucket.
 */
static void put_hist(struct nlmsghdr *nlh, int n, uint64_t first, int bad_at)
{
	struct nlattr *h = attr_nest_start(nlh, TCA_STRIPE_MSTAT_RX_HOLD_HIST);
	int k;

	hist_nest = h;

	for (k = 0; k < n; k++) {
		attr_put(nlh, TCA_STRIPE_HIST_PAD, 0, NULL);
		if (k == bad_at)
			attr_put_u16(nlh, TCA_STRIPE_HIST_BUCKET, 1);
		else
			attr_put_u64(nlh, TCA_STRIPE_HIST_BUCKET,
					 first + k);
	}
	attr_nest_end(nlh, h);
}

/* TCA_STATS_APP payload with the statistics of uapi commit 48d50b3:
 * eth1 has a skew of skew_us, eth2 none (not measured, or 2 bytes long
 * if bad_skew); markers base, base + 1, ...
 */
static struct nlattr *build_new(int nbuckets, int bad_at, uint64_t base,
				uint32_t skew_us, int bad_skew)
{
	struct nlattr *app, *m, *ls, *l;
	struct nlmsghdr *nlh;

	memset(buf, 0, sizeof(buf));
	nlh = nlmsg_put_header(buf);
	app = attr_nest_start(nlh, TCA_STATS_APP);
	m = attr_nest_start(nlh, TCA_STRIPE_XSTATS_MASTER);
	attr_put_strz(nlh, TCA_STRIPE_MSTAT_NAME, "stripe0");
	attr_put_u32(nlh, TCA_STRIPE_MSTAT_SENDER_ID, 0xdeadbeef);
	attr_put_u64(nlh, TCA_STRIPE_MSTAT_TX_MARKERS, base);
	attr_put_u64(nlh, TCA_STRIPE_MSTAT_RX_MARKERS, base + 1);
	attr_put_u32(nlh, TCA_STRIPE_MSTAT_RX_SENDERS, 2);
	if (nbuckets)
		put_hist(nlh, nbuckets, base + 100, bad_at);
	attr_nest_end(nlh, m);
	ls = attr_nest_start(nlh, TCA_STRIPE_XSTATS_LINKS);
	l = attr_nest_start(nlh, TCA_STRIPE_XSTATS_LINK);
	attr_put_u32(nlh, TCA_STRIPE_LSTAT_IFINDEX, 3);
	attr_put_u64(nlh, TCA_STRIPE_LSTAT_TX_MARKERS, base + 2);
	attr_put_u32(nlh, TCA_STRIPE_LSTAT_RX_SKEW_US, skew_us);
	attr_nest_end(nlh, l);
	l = attr_nest_start(nlh, TCA_STRIPE_XSTATS_LINK);
	attr_put_u32(nlh, TCA_STRIPE_LSTAT_IFINDEX, 4);
	attr_put_u64(nlh, TCA_STRIPE_LSTAT_TX_MARKERS, base + 3);
	if (bad_skew)
		attr_put_u16(nlh, TCA_STRIPE_LSTAT_RX_SKEW_US, 9);
	attr_nest_end(nlh, l);
	attr_nest_end(nlh, ls);
	attr_nest_end(nlh, app);
	return app;
}

static int parse_app(const struct nlattr *app, struct sp_xstats *x)
{
	return sp_xstats_parse(attr_get_payload(app),
			       attr_get_payload_len(app), x);
}

/* Markers, sender id, senders, hold-time histogram, per-link skew */
static void test_xstats_new(const struct sp_xstats *old)
{
	static struct sp_xstats x, y, d;
	const struct sp_xmaster *m = &x.master;
	struct nlattr *app;
	bool good;
	int k, ret;

	ok(!old->has_markers && !old->master.has_sender_id &&
	   !old->master.has_senders && old->master.hold_hist_n == 0 &&
	   !old->link[0].has_skew && !old->link[1].has_skew,
	   "an older kernel's statistics: no markers, sender, histogram, skew");

	ret = parse_app(build_new(STRIPE_HOLD_HIST_BUCKETS, -1, 10, 250, 0),
			&x);
	ok(ret == 0 && x.skipped == 0 && x.has_markers &&
	   m->has_sender_id && m->sender_id == 0xdeadbeef &&
	   m->tx_markers == 10 && m->rx_markers == 11 &&
	   m->has_senders && m->rx_senders == 2,
	   "sender id, markers and senders parsed");
	good = m->hold_hist_n == STRIPE_HOLD_HIST_BUCKETS;
	for (k = 0; k < STRIPE_HOLD_HIST_BUCKETS; k++)
		good &= m->hold_hist[k] == (uint64_t)(110 + k);
	ok(good, "hold histogram: every bucket in order, PADs skipped");
	ok(x.nlinks == 2 && x.link[0].tx_markers == 12 &&
	   x.link[0].has_skew && x.link[0].rx_skew_us == 250 &&
	   x.link[1].tx_markers == 13 && !x.link[1].has_skew,
	   "per-link markers; skew where measured, absent where not");

	ret = parse_app(build_new(STRIPE_HOLD_HIST_BUCKETS + 2, -1, 0, 0, 0),
			&y);
	ok(ret == 0 && y.master.hold_hist_n == STRIPE_HOLD_HIST_BUCKETS &&
	   y.master.hold_hist[STRIPE_HOLD_HIST_BUCKETS - 2] == 106 &&
	   y.master.hold_hist[STRIPE_HOLD_HIST_BUCKETS - 1] ==
	   107 + 108 + 109,
	   "buckets past the last are added to the unbounded one");
	ok(y.link[0].has_skew && y.link[0].rx_skew_us == 0,
	   "a skew of 0 (the fastest link) is a measurement");

	ret = parse_app(build_new(3, 1, 0, 5, 1), &y);
	ok(ret == 0 && y.master.hold_hist_n == 3 &&
	   y.master.hold_hist[0] == 100 && y.master.hold_hist[1] == 0 &&
	   y.master.hold_hist[2] == 102 && y.master.hold_hist[3] == 0 &&
	   y.skipped == 2,
	   "short histogram; a bucket of a wrong size keeps its place");
	ok(!y.link[1].has_skew, "a skew of a wrong size is not measured");

	/* the nest ends 6 bytes into its last bucket: an error, what came
	 * before is kept
	 */
	app = build_new(2, -1, 0, 0, 0);
	hist_nest->nla_len -= 6;
	ret = parse_app(app, &y);
	ok(ret == -EINVAL && y.master.hold_hist_n == 1 &&
	   y.master.hold_hist[0] == 100 && y.master.has_senders,
	   "histogram cut inside a bucket: -EINVAL, earlier buckets kept");

	/* delta: counters subtract, levels are the last reading */
	parse_app(build_new(STRIPE_HOLD_HIST_BUCKETS, -1, 10, 250, 0), &x);
	parse_app(build_new(STRIPE_HOLD_HIST_BUCKETS, -1, 1000, 40, 0), &y);
	y.master.rx_senders = 3;
	sp_xstats_delta(&x, &y, &d);
	good = d.master.hold_hist_n == STRIPE_HOLD_HIST_BUCKETS;
	for (k = 0; k < STRIPE_HOLD_HIST_BUCKETS; k++)
		good &= d.master.hold_hist[k] == 990;
	ok(good, "delta of the hold histogram, bucket by bucket");
	ok(d.master.tx_markers == 990 && d.master.rx_markers == 990 &&
	   d.link[0].tx_markers == 990 && d.link[1].tx_markers == 990,
	   "delta of the marker counters");
	ok(d.link[0].has_skew && d.link[0].rx_skew_us == 40 &&
	   !d.link[1].has_skew && d.master.rx_senders == 3 &&
	   d.master.sender_id == 0xdeadbeef,
	   "delta keeps the last skew, senders and sender id");
}

static const struct link_def two[] = {
	{ 3, "eth1", 3000000 },
	{ 4, "eth2", 1500000 },
};

/* A dump datagram: messages back to back, as the kernel sends them, each
 * with sequence number 5 and port id 9
 */
static char dg[4096];
static int dg_len;

static struct nlmsghdr *dg_add(const struct nlmsghdr *m)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)(dg + dg_len);

	memcpy(nlh, m, m->nlmsg_len);
	nlh->nlmsg_seq = 5;
	nlh->nlmsg_pid = 9;
	dg_len += NLMSG_ALIGN(m->nlmsg_len);
	return nlh;
}

/* NLMSG_DONE or NLMSG_ERROR; an nlmsgerr in either, len bytes of it */
static struct nlmsghdr *dg_ctl(int type, int error, size_t len)
{
	struct {
		struct nlmsghdr h;
		struct nlmsgerr e;
	} m = { .h.nlmsg_type = type, .e.error = error };

	m.h.nlmsg_len = NLMSG_LENGTH(len);
	return dg_add(&m.h);
}

/* the netlink dump loop of stripe_nl.c, on hand-made datagrams */
static void test_dump(void)
{
	static struct sp_xstats x;
	struct sp_dump d = { .ifindex = 7, .x = &x };
	const size_t e = sizeof(struct nlmsgerr);
	struct nlmsghdr *nlh;
	int i, ret, stripe_end;
	bool good = true;

	dg_len = 0;
	dg_add(build("fq_codel", 7, two, 2, 0, 0, NULL, NULL));
	dg_add(build("stripe", 8, two, 1, 0, 0, NULL, NULL));
	dg_add(build("stripe", 7, two, 2, 0, 0, NULL, NULL));
	stripe_end = dg_len;
	ok(sp_dump_batch(dg, dg_len, 5, 9, &d) == 1 && d.found &&
	   !d.bad && x.nlinks == 2 && x.link[1].tx_bytes == 1500000,
	   "dump: the stripe qdisc of the device among others; more to come");
	dg_ctl(NLMSG_DONE, 0, sizeof(int));
	d.found = 0;
	ok(sp_dump_batch(dg, dg_len, 5, 9, &d) == 0 && d.found,
	   "dump: NLMSG_DONE ends it");
	ok(sp_dump_batch(dg, dg_len, 6, 9, &d) == -EPROTO &&
	   sp_dump_batch(dg, dg_len, 5, 10, &d) == -ESRCH,
	   "dump: another sequence number or port id is an error");

	/* every cut: only whole messages read, the end only when whole */
	for (i = 0; i <= dg_len; i++) {
		char *cut = malloc(i ? i : 1);	/* a read past it: ASan */

		if (!cut)
			break;
		memcpy(cut, dg, i);
		d.found = 0;
		ret = sp_dump_batch(cut, i, 5, 9, &d);
		good &= ret == (i == dg_len ? 0 : 1);
		good &= d.found == (i >= stripe_end) && !d.bad;
		free(cut);
	}
	ok(good && i > dg_len,
	   "dump cut at every length: whole messages only, no crash");

	dg_len = 0;
	nlh = dg_add(build("stripe", 7, two, 2, 0, 0, NULL, NULL));
	nlh->nlmsg_flags |= NLM_F_DUMP_INTR;
	ok(sp_dump_batch(dg, dg_len, 5, 9, &d) == -EINTR,
	   "dump: an interrupted dump is an error");
	nlh->nlmsg_flags = NLM_F_MULTI;
	nlh->nlmsg_len += 4;
	d.found = 0;
	ok(sp_dump_batch(dg, dg_len, 5, 9, &d) == 1 && !d.found,
	   "dump: a message longer than the datagram is not read");
	nlh->nlmsg_len = NLMSG_HDRLEN - 1;
	ok(sp_dump_batch(dg, dg_len, 5, 9, &d) == 1 && !d.found,
	   "dump: a message shorter than its header ends the datagram");
	nlh->nlmsg_len = NLMSG_HDRLEN + 4;
	ok(sp_dump_batch(dg, dg_len, 5, 9, &d) == 1 && !d.found && d.bad == 1,
	   "dump: a qdisc message without its tcmsg is malformed");

	dg_len = 0;
	dg_ctl(NLMSG_ERROR, -EPERM, e);
	ok(sp_dump_batch(dg, dg_len, 5, 9, &d) == -EPERM,
	   "dump: NLMSG_ERROR's negative error is the errno");
	dg_len = 0;
	dg_ctl(NLMSG_ERROR, 0, e);
	ok(sp_dump_batch(dg, dg_len, 5, 9, &d) == 0, "dump: an ACK ends it");
	dg_len = 0;
	dg_ctl(NLMSG_ERROR, 5, e);
	dg_ctl(NLMSG_ERROR, -5000, e);
	ok(sp_dump_batch(dg, dg_len, 5, 9, &d) == -EPROTO &&
	   sp_dump_batch(dg + dg_len / 2, dg_len / 2, 5, 9, &d) == -EPROTO,
	   "dump: an error out of -4095..0 is no errno");
	dg_len = 0;
	dg_ctl(NLMSG_ERROR, -EPERM, e - 1);
	ok(sp_dump_batch(dg, dg_len, 5, 9, &d) == -EBADMSG,
	   "dump: NLMSG_ERROR too short for its nlmsgerr");
}

void test_xstats(void)
{
	struct sp_xstats x, y, d;
	struct link_def many[40];
	struct nlattr *a, *kind;
	struct nlmsghdr *nlh;
	int i, ret, stats_at;
	bool good = true;
	size_t app_len;
	void *app;

	nlh = build("stripe", 7, two, 2, 0, 0, NULL, NULL);
	ret = sp_xstats_from_qdisc(nlh, 7, &x);
	ok(ret == 1 && x.has_role && x.role == STRIPE_ROLE_MASTER &&
	   x.has_master && !strcmp(x.master.name, "stripe0") &&
	   x.master.links == 2 && x.master.tx_bytes == 4500000 &&
	   x.master.rx_bytes == 1ULL << 40,
	   "master totals parsed from TCA_STATS2/TCA_STATS_APP");
	ok(x.nlinks == 2 && x.link[0].ifindex == 3 &&
	   !strcmp(x.link[0].name, "eth1") && x.link[0].weight == 10 &&
	   x.link[0].tx_bytes == 3000000 && x.link[1].tx_bytes == 1500000 &&
	   x.link[1].flags == (STRIPE_LINK_F_UP | STRIPE_LINK_F_ACTIVE) &&
	   x.skipped == 0, "two links parsed");
	ok(sp_xstats_from_qdisc(nlh, 8, &y) == 0,
	   "qdisc on another device is ignored");
	nlh = build("fq_codel", 7, two, 2, 0, 0, NULL, NULL);
	ok(sp_xstats_from_qdisc(nlh, 7, &y) == 0,
	   "qdisc of another kind is ignored");

	nlh = build("stripe", 7, two, 2, 1, 0, NULL, NULL);
	ret = sp_xstats_from_qdisc(nlh, 7, &y);
	ok(ret == 1 && y.nlinks == 2 && y.link[1].tx_bytes == 1500000 &&
	   y.master.rx_bytes == 1ULL << 40 && y.skipped == 0,
	   "unknown attributes and PAD are skipped");

	nlh = build("stripe", 7, two, 2, 0, 1, NULL, NULL);
	ok(sp_xstats_from_qdisc(nlh, 7, &y) == 1 && y.nlinks == 2 &&
	   y.link[0].tx_bytes == 3000000,
	   "old TCA_XSTATS carrier accepted");

	/* the qdisc's attributes walked as nla_for_each_attr() does: one
	 * of a length under its header, or past the message, is an error;
	 * less than a header left is the end
	 */
	nlh = build("stripe", 7, two, 2, 0, 0, NULL, NULL);
	kind = (void *)((char *)nlh + NLMSG_SPACE(sizeof(struct tcmsg)));
	kind->nla_len = NLA_HDRLEN - 1;
	ok(sp_xstats_from_qdisc(nlh, 7, &y) == -EINVAL,
	   "qdisc attribute shorter than its header: -EINVAL");
	kind->nla_len = NLA_HDRLEN + sizeof("stripe");
	stats_at = (char *)kind + NLA_ALIGN(kind->nla_len) - (char *)nlh;
	for (i = stats_at; i < (int)nlh->nlmsg_len; i++) {
		struct nlmsghdr *cut = malloc(i);	/* a read past: ASan */

		if (!cut)
			break;
		memcpy(cut, nlh, i);
		cut->nlmsg_len = i;
		ret = sp_xstats_from_qdisc(cut, 7, &y);
		good &= ret == (i < stats_at + NLA_HDRLEN ? 1 : -EINVAL);
		free(cut);
	}
	ok(good && i == (int)nlh->nlmsg_len,
	   "qdisc cut at every length of its TCA_STATS2: -EINVAL");

	/* damage: truncate the app payload in the middle of the links */
	build("stripe", 7, two, 2, 0, 0, &app, &app_len);
	ret = sp_xstats_parse(app, app_len - 6, &y);
	ok(ret == -EINVAL && y.has_master && y.master.tx_bytes == 4500000,
	   "truncated buffer: -EINVAL, earlier attributes kept");
	for (i = 0; i < (int)app_len; i++)
		sp_xstats_parse(app, (size_t)i, &y);
	ok(1, "every truncation length parses without a crash");

	/* wrong sizes: a 3-byte u64, a 2-byte u32 */
	nlh = nlmsg_put_header(buf);
	a = attr_nest_start(nlh, TCA_STRIPE_XSTATS_MASTER);
	attr_put(nlh, TCA_STRIPE_MSTAT_TX_BYTES, 3, "abc");
	attr_put_u16(nlh, TCA_STRIPE_MSTAT_LINKS, 9);
	attr_put_u32(nlh, TCA_STRIPE_MSTAT_TX_PACKETS, 42);
	attr_put(nlh, TCA_STRIPE_MSTAT_NAME, 16, "abcdefghijklmnop");
	attr_nest_end(nlh, a);
	ret = sp_xstats_parse(a, a->nla_len, &y);
	ok(ret == 0 && y.skipped == 2 && y.master.tx_bytes == 0 &&
	   y.master.links == 0, "attributes of a wrong size are skipped");
	ok(y.master.tx_packets == 42, "a 32-bit counter is accepted");
	ok(!strcmp(y.master.name, "abcdefghijklmno"),
	   "unterminated name is cut to IFNAMSIZ - 1");

	for (i = 0; i < 40; i++) {
		many[i].ifindex = 100 + i;
		many[i].name = "l";
		many[i].tx_bytes = i;
	}
	nlh = build("stripe", 7, many, 40, 0, 0, NULL, NULL);
	ok(sp_xstats_from_qdisc(nlh, 7, &y) == 1 &&
	   y.nlinks == SP_XSTATS_MAX_LINKS && y.truncated == 8,
	   "links beyond %d are counted, not stored", SP_XSTATS_MAX_LINKS);

	/* delta: after = before + traffic; link matched by ifindex */
	y = x;
	y.master.tx_bytes += 1000;
	y.link[0] = x.link[1];
	y.link[1] = x.link[0];
	y.link[0].tx_bytes += 600;	/* eth2 */
	y.link[1].tx_bytes += 400;	/* eth1 */
	sp_xstats_delta(&x, &y, &d);
	ok(d.master.tx_bytes == 1000 && d.link[0].ifindex == 4 &&
	   d.link[0].tx_bytes == 600 && d.link[1].tx_bytes == 400,
	   "delta matches links by ifindex");

	srand(1);
	for (i = 0; i < 20000; i++) {
		int k, n = rand() % 256;

		for (k = 0; k < n; k++)
			buf[k] = (char)(rand() & 0xff);
		sp_xstats_parse(buf, (size_t)n, &y);
	}
	ok(1, "20000 random buffers parse without a crash");

	test_xstats_new(&x);
	test_dump();
}
