// SPDX-License-Identifier: GPL-2.0
/* Stripe statistics parser on hand-built RTM_NEWQDISC messages. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <libmnl/libmnl.h>
#include <linux/gen_stats.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <linux/stripe.h>

#include "../xstats.h"
#include "tap.h"

static char buf[16384];

struct link_def {
	uint32_t ifindex;
	const char *name;
	uint64_t tx_bytes;
};

static void put_link(struct nlmsghdr *nlh, const struct link_def *l,
		     int extra)
{
	struct nlattr *n = mnl_attr_nest_start(nlh, TCA_STRIPE_XSTATS_LINK);

	mnl_attr_put_u32(nlh, TCA_STRIPE_LSTAT_IFINDEX, l->ifindex);
	mnl_attr_put_strz(nlh, TCA_STRIPE_LSTAT_NAME, l->name);
	mnl_attr_put_u32(nlh, TCA_STRIPE_LSTAT_WEIGHT, 10);
	mnl_attr_put_u32(nlh, TCA_STRIPE_LSTAT_FLAGS,
			 STRIPE_LINK_F_UP | STRIPE_LINK_F_ACTIVE);
	if (extra) {
		/* an attribute from a future kernel, and a PAD */
		mnl_attr_put_u64(nlh, 200, 0xdeadbeef);
		mnl_attr_put(nlh, TCA_STRIPE_LSTAT_PAD, 0, NULL);
	}
	mnl_attr_put_u64(nlh, TCA_STRIPE_LSTAT_TX_PACKETS, l->tx_bytes / 1000);
	mnl_attr_put_u64(nlh, TCA_STRIPE_LSTAT_TX_BYTES, l->tx_bytes);
	mnl_attr_put_u64(nlh, TCA_STRIPE_LSTAT_RX_BYTES, 77);
	mnl_attr_nest_end(nlh, n);
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
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_NEWQDISC;
	tcm = mnl_nlmsg_put_extra_header(nlh, sizeof(*tcm));
	tcm->tcm_ifindex = ifindex;
	tcm->tcm_parent = TC_H_ROOT;
	mnl_attr_put_strz(nlh, TCA_KIND, kind);
	if (use_xstats) {
		a = mnl_attr_nest_start(nlh, TCA_XSTATS);
	} else {
		st2 = mnl_attr_nest_start(nlh, TCA_STATS2);
		mnl_attr_put(nlh, TCA_STATS_BASIC, 16, buf + 8000);
		a = mnl_attr_nest_start(nlh, TCA_STATS_APP);
	}
	mnl_attr_put_u8(nlh, TCA_STRIPE_XSTATS_ROLE, STRIPE_ROLE_MASTER);
	m = mnl_attr_nest_start(nlh, TCA_STRIPE_XSTATS_MASTER);
	mnl_attr_put_strz(nlh, TCA_STRIPE_MSTAT_NAME, "stripe0");
	mnl_attr_put_u32(nlh, TCA_STRIPE_MSTAT_LINKS, nlinks);
	mnl_attr_put_u32(nlh, TCA_STRIPE_MSTAT_ACTIVE, nlinks);
	mnl_attr_put_u64(nlh, TCA_STRIPE_MSTAT_TX_PACKETS, 3000);
	mnl_attr_put_u64(nlh, TCA_STRIPE_MSTAT_TX_BYTES, 4500000);
	if (extra)
		mnl_attr_put_u32(nlh, 99, 1);
	mnl_attr_put_u64(nlh, TCA_STRIPE_MSTAT_RX_BYTES, 1ULL << 40);
	mnl_attr_nest_end(nlh, m);
	ls = mnl_attr_nest_start(nlh, TCA_STRIPE_XSTATS_LINKS);
	for (i = 0; i < nlinks; i++)
		put_link(nlh, &links[i], extra);
	mnl_attr_nest_end(nlh, ls);
	if (extra)
		mnl_attr_put_u32(nlh, 77, 5);	/* unknown top level */
	mnl_attr_nest_end(nlh, a);
	if (st2)
		mnl_attr_nest_end(nlh, st2);
	if (app) {
		*app = mnl_attr_get_payload(a);
		*app_len = mnl_attr_get_payload_len(a);
	}
	return nlh;
}

static const struct link_def two[] = {
	{ 3, "eth1", 3000000 },
	{ 4, "eth2", 1500000 },
};

void test_xstats(void)
{
	struct sp_xstats x, y, d;
	struct link_def many[40];
	struct nlmsghdr *nlh;
	struct nlattr *a;
	size_t app_len;
	void *app;
	int i, ret;

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

	/* damage: truncate the app payload in the middle of the links */
	build("stripe", 7, two, 2, 0, 0, &app, &app_len);
	ret = sp_xstats_parse(app, app_len - 6, &y);
	ok(ret == -EINVAL && y.has_master && y.master.tx_bytes == 4500000,
	   "truncated buffer: -EINVAL, earlier attributes kept");
	for (i = 0; i < (int)app_len; i++)
		sp_xstats_parse(app, (size_t)i, &y);
	ok(1, "every truncation length parses without a crash");

	/* wrong sizes: a 3-byte u64, a 2-byte u32 */
	nlh = mnl_nlmsg_put_header(buf);
	a = mnl_attr_nest_start(nlh, TCA_STRIPE_XSTATS_MASTER);
	mnl_attr_put(nlh, TCA_STRIPE_MSTAT_TX_BYTES, 3, "abc");
	mnl_attr_put_u16(nlh, TCA_STRIPE_MSTAT_LINKS, 9);
	mnl_attr_put_u32(nlh, TCA_STRIPE_MSTAT_TX_PACKETS, 42);
	mnl_attr_put(nlh, TCA_STRIPE_MSTAT_NAME, 16, "abcdefghijklmnop");
	mnl_attr_nest_end(nlh, a);
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
}
