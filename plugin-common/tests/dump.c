// SPDX-License-Identifier: GPL-2.0
/*
 * dump.c: writes rtnetlink messages as the kernel would dump them, for
 * "tc monitor file" (RTM_NEWQDISC) and "ip monitor file" (RTM_NEWLINK):
 * argv[1] selects the set.  The statistics are one payload, put under
 * TCA_STATS_APP for tc and IFLA_INFO_XSTATS for ip, as the kernel does
 * (kernel/stats.c), so that the two plugins' output can be compared.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/gen_stats.h>
#include <linux/pkt_sched.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/if_link.h>
#include <linux/stripe.h>

static unsigned char buf[8192];
static struct nlmsghdr *h = (struct nlmsghdr *)buf;

static struct rtattr *put(int type, const void *data, int len)
{
	struct rtattr *a = (void *)(buf + NLMSG_ALIGN(h->nlmsg_len));

	a->rta_type = type;
	a->rta_len = RTA_LENGTH(len);
	if (len)
		memcpy(RTA_DATA(a), data, len);
	h->nlmsg_len = NLMSG_ALIGN(h->nlmsg_len) + RTA_ALIGN(a->rta_len);
	return a;
}

static struct rtattr *nest(int type)
{
	return put(type | NLA_F_NESTED, NULL, 0);
}

static void end(struct rtattr *a)
{
	a->rta_len = buf + h->nlmsg_len - (unsigned char *)a;
}

static void put_u8(int type, __u8 v) { put(type, &v, 1); }
static void put_u32(int type, __u32 v) { put(type, &v, 4); }
static void put_str(int type, const char *s) { put(type, s, strlen(s) + 1); }

/* u64 counters come after a PAD so that they may be 4-byte aligned */
static void put_u64_pad(int pad, int type, __u64 v)
{
	if (h->nlmsg_len % 8 == 0)
		put(pad, NULL, 0);
	put(type, &v, 8);
}

static void put_u64(int type, __u64 v)
{
	put_u64_pad(TCA_STRIPE_MSTAT_PAD, type, v);	/* == LSTAT_PAD */
}

/* A new message of @type: its family header, @len bytes, zeroed */
static void *begin_msg(int type, size_t len)
{
	memset(buf, 0, sizeof(buf));
	h->nlmsg_type = type;
	h->nlmsg_len = NLMSG_LENGTH(len);
	return NLMSG_DATA(h);
}

static void begin(__u32 handle)
{
	struct tcmsg *t = begin_msg(RTM_NEWQDISC, sizeof(*t));

	t->tcm_family = AF_UNSPEC;
	t->tcm_ifindex = 1;
	t->tcm_handle = handle;
	t->tcm_parent = TC_H_ROOT;
	put_str(TCA_KIND, STRIPE_KIND);
}

static struct rtattr *nest_noflag(int type)
{
	return put(type, NULL, 0);
}

static struct rtattr *linkinfo;		/* begin_link()'s IFLA_LINKINFO */

/*
 * An RTM_NEWLINK of a master (@slave false) or a link, up to its open
 * IFLA_INFO_DATA or IFLA_INFO_SLAVE_DATA; end_link() closes its
 * IFLA_LINKINFO.  ip's nests carry no NLA_F_NESTED (ip does not mask it).
 */
static struct rtattr *begin_link(int ifindex, const char *name, bool slave)
{
	struct ifinfomsg *i = begin_msg(RTM_NEWLINK, sizeof(*i));

	i->ifi_family = AF_UNSPEC;
	i->ifi_index = ifindex;
	put_str(IFLA_IFNAME, name);
	linkinfo = nest_noflag(IFLA_LINKINFO);
	put_str(slave ? IFLA_INFO_SLAVE_KIND : IFLA_INFO_KIND, "stripe");
	return nest_noflag(slave ? IFLA_INFO_SLAVE_DATA : IFLA_INFO_DATA);
}

static void end_link(void)
{
	end(linkinfo);
}

static int failed;
/* The same sets: every statistic the kernel sends (the tc test's sets
 * leave the newer ones out)
 */
static bool all_stats;

/* The message built, to stdout */
static void emit(void)
{
	if (fwrite(buf, NLMSG_ALIGN(h->nlmsg_len), 1, stdout) != 1)
		failed = 1;
}

/* skew_us 0: not measured, so not sent */
static void link_stats(__u32 ifindex, const char *name, __u32 weight,
		       __u32 flags, __u64 base, __u32 skew_us)
{
	struct rtattr *l = nest(TCA_STRIPE_XSTATS_LINK);

	put_u32(TCA_STRIPE_LSTAT_IFINDEX, ifindex);
	put_str(TCA_STRIPE_LSTAT_NAME, name);
	put_u32(TCA_STRIPE_LSTAT_WEIGHT, weight);
	put_u32(TCA_STRIPE_LSTAT_FLAGS, flags);
	put_u64(TCA_STRIPE_LSTAT_TX_PACKETS, base + 1);
	put_u64(TCA_STRIPE_LSTAT_TX_BYTES, base + 2);
	put_u64(TCA_STRIPE_LSTAT_TX_BUSY, base + 3);
	put_u64(TCA_STRIPE_LSTAT_TX_DROPS, base + 4);
	put_u64(TCA_STRIPE_LSTAT_NEIGH_FAIL, base + 5);
	put_u64(TCA_STRIPE_LSTAT_RX_PACKETS, base + 6);
	put_u64(TCA_STRIPE_LSTAT_RX_BYTES, base + 7);
	if (skew_us)
		put_u32(TCA_STRIPE_LSTAT_RX_SKEW_US, skew_us);
	put_u64(TCA_STRIPE_LSTAT_TX_MARKERS, base + 8);
	if (all_stats) {
		put_u64(TCA_STRIPE_LSTAT_LEFT, base + 9);
		put_u64(TCA_STRIPE_LSTAT_BACK, base + 10);
		put_u32(TCA_STRIPE_LSTAT_LEFT_AFTER_MS, 1500);
		put_u32(TCA_STRIPE_LSTAT_PACE, STRIPE_PACE_ONE / 4);
		put_u32(TCA_STRIPE_LSTAT_QUEUE_US, 800);
		put_u64(TCA_STRIPE_LSTAT_FRAMES_LOST, base + 11);
	}
	put_u32(TCA_STRIPE_LSTAT_MAX + 10, 42);	/* from a newer kernel */
	end(l);
}

/* n buckets of TCA_STRIPE_MSTAT_RX_HOLD_HIST: first, first + 1, ... */
static void hold_hist(int n, __u64 first)
{
	struct rtattr *hist = nest(TCA_STRIPE_MSTAT_RX_HOLD_HIST);
	int k;

	for (k = 0; k < n; k++)
		put_u64_pad(TCA_STRIPE_HIST_PAD, TCA_STRIPE_HIST_BUCKET,
			    first + k);
	end(hist);
}

/*
 * A master's options: TCA_STRIPE_* for tc, IFLA_STRIPE_* for ip; with
 * @probe an IPv4 and an IPv6 probe-target and their interval
 */
#define OPT(ip, x)	((ip) ? IFLA_STRIPE_##x : TCA_STRIPE_##x)

static void master_opts(bool ip, bool probe)
{
	static const __u8 v4[4] = { 192, 0, 2, 1 };
	static const __u8 v6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 };

	put_u8(OPT(ip, REORDER), STRIPE_REORDER_ON);
	put_u32(OPT(ip, QUANTUM), 3000);
	put_u32(OPT(ip, HOLD_MAX_US), 10000);
	put_u32(OPT(ip, FLOW_LIMIT), 100);
	put_u32(OPT(ip, BUFFER_LIMIT), 1000);
	put_u32(OPT(ip, MEMORY_LIMIT), 1048576);
	put_u32(OPT(ip, STRIPE_MIN), 0);
	put_u8(OPT(ip, HOLD_AUTO), 1);
	if (probe) {
		put(OPT(ip, PROBE_TARGET), v4, sizeof(v4));
		put(OPT(ip, PROBE_TARGET6), v6, sizeof(v6));
		put_u32(OPT(ip, PROBE_INTERVAL_US), 250000);
	}
	put_u32(OPT(ip, MAX) + 5, 7);		/* from a newer kernel */
}

/* A master's statistics: every counter, two links and a peer */
static void master_xstats(void)
{
	struct rtattr *m, *ls, *ps, *p;

	put_u8(TCA_STRIPE_XSTATS_ROLE, STRIPE_ROLE_MASTER);
	m = nest(TCA_STRIPE_XSTATS_MASTER);
	put_str(TCA_STRIPE_MSTAT_NAME, "stripe0");
	put_u32(TCA_STRIPE_MSTAT_LINKS, 2);
	put_u32(TCA_STRIPE_MSTAT_ACTIVE, 1);
	put_u64(TCA_STRIPE_MSTAT_TX_PACKETS, 1000);
	put_u64(TCA_STRIPE_MSTAT_TX_BYTES, 5000000000ULL);
	put_u64(TCA_STRIPE_MSTAT_TX_BUSY, 3);
	put_u64(TCA_STRIPE_MSTAT_TX_DROPS, 4);
	put_u64(TCA_STRIPE_MSTAT_RX_PACKETS, 900);
	put_u64(TCA_STRIPE_MSTAT_RX_BYTES, 60000);
	put_u64(TCA_STRIPE_MSTAT_RX_IN_ORDER, 800);
	put_u64(TCA_STRIPE_MSTAT_RX_RESEQUENCED, 90);
	put_u64(TCA_STRIPE_MSTAT_RX_HELD, 2);
	put_u64(TCA_STRIPE_MSTAT_RX_HELD_BYTES, 3000);
	put_u64(TCA_STRIPE_MSTAT_RX_HELD_MEM, 8192);
	put_u64(TCA_STRIPE_MSTAT_RX_HOLD_MAX_US, 4000);
	put_u64(TCA_STRIPE_MSTAT_RX_LOST_LINK, 1);
	put_u64(TCA_STRIPE_MSTAT_RX_LOST_TIMEOUT, 2);
	put_u64(TCA_STRIPE_MSTAT_RX_LOST_LIMIT, 3);
	put_u64(TCA_STRIPE_MSTAT_RX_LATE, 4);
	put_u64(TCA_STRIPE_MSTAT_RX_MALFORMED, 5);
	put_u64(TCA_STRIPE_MSTAT_RX_NO_STATE, 6);
	put_u32(TCA_STRIPE_MSTAT_SENDER_ID, 0x0a0b0c0d);
	put_u64(TCA_STRIPE_MSTAT_TX_MARKERS, 11);
	put_u64(TCA_STRIPE_MSTAT_RX_MARKERS, 12);
	put_u32(TCA_STRIPE_MSTAT_RX_SENDERS, 2);
	put_u32(TCA_STRIPE_MSTAT_RX_HOLD_US, 7000);
	hold_hist(STRIPE_HOLD_HIST_BUCKETS, 100);
	if (all_stats) {
		put_u64(TCA_STRIPE_MSTAT_RX_LINK_REORDERED, 7);
		put_u64(TCA_STRIPE_MSTAT_TX_FEEDBACK, 13);
		put_u64(TCA_STRIPE_MSTAT_RX_FEEDBACK, 14);
		put_u64(TCA_STRIPE_MSTAT_RX_FEEDBACK_OTHER, 15);
		put_u64(TCA_STRIPE_MSTAT_RX_WRONG_ADDR, 16);
		put_u64(TCA_STRIPE_MSTAT_RX_FEEDBACK_UNSENT, 17);
		put_u64(TCA_STRIPE_MSTAT_RX_FEEDBACK_UNKNOWN, 18);
		put_u64(TCA_STRIPE_MSTAT_TX_PEER_LEFT, 19);
		put_u64(TCA_STRIPE_MSTAT_TX_PEER_BACK, 20);
	}
	end(m);
	ls = nest(TCA_STRIPE_XSTATS_LINKS);
	link_stats(3, "eth2", 10, STRIPE_LINK_F_UP | STRIPE_LINK_F_CARRIER |
	     STRIPE_LINK_F_ACTIVE, 100, 250);
	put_u32(TCA_STRIPE_XSTATS_MAX + 3, 1);	/* not a LINK: skipped */
	link_stats(4, "eth3", 1, STRIPE_LINK_F_UP, 200, 0);
	end(ls);
	ps = nest(TCA_STRIPE_XSTATS_PEERS);
	p = nest(TCA_STRIPE_XSTATS_PEER);
	put_u32(TCA_STRIPE_PSTAT_ID, 0x01020304);
	put_u32(TCA_STRIPE_PSTAT_AGE_MS, 3);
	put_u32(TCA_STRIPE_PSTAT_LINKS, 2);
	put_u32(TCA_STRIPE_PSTAT_SILENT, 1);
	put_u32(TCA_STRIPE_PSTAT_SKEW_US, 250);
	put_u64(TCA_STRIPE_PSTAT_FRAMES, 500);	/* PSTAT_PAD == MSTAT_PAD */
	put_u64(TCA_STRIPE_PSTAT_HELD, 2);
	put_u64(TCA_STRIPE_PSTAT_LOST_LINK, 1);
	put_u64(TCA_STRIPE_PSTAT_LOST_TIMEOUT, 2);
	put_u64(TCA_STRIPE_PSTAT_LATE, 4);
	put_u32(TCA_STRIPE_PSTAT_MAX + 10, 42);	/* from a newer kernel */
	end(p);
	put_u32(TCA_STRIPE_XSTATS_MAX + 3, 1);	/* not a PEER: skipped */
	end(ps);
	put_u32(TCA_STRIPE_XSTATS_MAX + 1, 9);	/* from a newer kernel */
}

static void master_dump(void)
{
	struct gnet_stats_basic basic = { .bytes = 5000000000ULL,
					  .packets = 1000 };
	struct gnet_stats_queue queue = { .drops = 4 };
	struct rtattr *o, *s, *app;

	begin(0x80010000);
	o = nest(TCA_OPTIONS);
	master_opts(false, false);
	end(o);
	s = nest(TCA_STATS2);
	put(TCA_STATS_BASIC, &basic, sizeof(basic));
	put(TCA_STATS_QUEUE, &queue, sizeof(queue));
	app = nest(TCA_STATS_APP);
	master_xstats();
	end(app);
	end(s);
}

static void link_dump(void)
{
	struct rtattr *o, *s, *app, *m, *ls;

	begin(0x80020000);
	o = nest(TCA_OPTIONS);
	put_str(TCA_STRIPE_MASTER, "stripe0");
	put_u32(TCA_STRIPE_WEIGHT, 5);
	put_u32(TCA_STRIPE_LIMIT, 1000);
	end(o);
	s = nest(TCA_STATS2);
	app = nest(TCA_STATS_APP);
	put_u8(TCA_STRIPE_XSTATS_ROLE, STRIPE_ROLE_LINK);
	m = nest(TCA_STRIPE_XSTATS_MASTER);
	put_str(TCA_STRIPE_MSTAT_NAME, "stripe0");
	end(m);
	ls = nest(TCA_STRIPE_XSTATS_LINKS);
	link_stats(3, "eth2", 5, 0, 300, 0);
	end(ls);
	end(app);
	end(s);
}

/*
 * A histogram cut short: bucket 0, a PAD, bucket 1 too short to read (it
 * still takes bucket 1's place), bucket 2, then bucket 3 cut in half by
 * the end of the nest.  The link's skew is too short to read.
 */
static void hist_cut_dump(void)
{
	__u64 v5 = 5, v7 = 7, v9 = 9;
	__u16 two = 2;
	struct rtattr *s, *app, *m, *hist, *ls, *l;

	begin(0x80040000);
	s = nest(TCA_STATS2);
	app = nest(TCA_STATS_APP);
	m = nest(TCA_STRIPE_XSTATS_MASTER);
	put_str(TCA_STRIPE_MSTAT_NAME, "stripe1");
	hist = nest(TCA_STRIPE_MSTAT_RX_HOLD_HIST);
	put(TCA_STRIPE_HIST_BUCKET, &v5, 8);
	put(TCA_STRIPE_HIST_PAD, NULL, 0);
	put(TCA_STRIPE_HIST_BUCKET, &two, 2);
	put(TCA_STRIPE_HIST_BUCKET, &v7, 8);
	put(TCA_STRIPE_HIST_BUCKET, &v9, 8);
	end(hist);
	/* cut the nest 6 bytes into bucket 3's value, padded as usual */
	hist->rta_len -= 6;
	h->nlmsg_len = NLMSG_ALIGN(h->nlmsg_len - 6);
	end(m);
	ls = nest(TCA_STRIPE_XSTATS_LINKS);
	l = nest(TCA_STRIPE_XSTATS_LINK);
	put_str(TCA_STRIPE_LSTAT_NAME, "eth5");
	put(TCA_STRIPE_LSTAT_RX_SKEW_US, &two, 2);
	end(l);
	end(ls);
	end(app);
	end(s);
}

/* More buckets than the header knows (a newer kernel): the extra ones
 * belong to the last, unbounded bucket.
 */
static void hist_long_dump(void)
{
	struct rtattr *s, *app, *m;

	begin(0x80050000);
	s = nest(TCA_STATS2);
	app = nest(TCA_STATS_APP);
	m = nest(TCA_STRIPE_XSTATS_MASTER);
	put_str(TCA_STRIPE_MSTAT_NAME, "stripe2");
	put_u64(TCA_STRIPE_MSTAT_TX_MARKERS, 3);	/* no RX_MARKERS */
	hold_hist(STRIPE_HOLD_HIST_BUCKETS + 2, 1);
	end(m);
	end(app);
	end(s);
}

/* Every attribute short or odd: must print what it can and not crash */
static void bad_dump(void)
{
	static const char longname[20] = "AAAAAAAAAAAAAAAAAAAA";
	__u16 two = 77;
	struct rtattr *o, *s, *app, *m, *ls, *l;

	begin(0x80030000);
	o = nest(TCA_OPTIONS);
	put(TCA_STRIPE_MASTER, longname, sizeof(longname));	/* no NUL */
	put(TCA_STRIPE_WEIGHT, &two, 2);
	put(TCA_STRIPE_LIMIT, NULL, 0);
	put_u8(TCA_STRIPE_REORDER, 7);
	end(o);
	s = nest(TCA_STATS2);
	app = nest(TCA_STATS_APP);
	put(TCA_STRIPE_XSTATS_ROLE, NULL, 0);
	m = nest(TCA_STRIPE_XSTATS_MASTER);
	put(TCA_STRIPE_MSTAT_NAME, NULL, 0);
	put(TCA_STRIPE_MSTAT_LINKS, &two, 2);
	put_u32(TCA_STRIPE_MSTAT_TX_PACKETS, 12345);	/* u32, not u64 */
	put(TCA_STRIPE_MSTAT_TX_BYTES, &two, 2);
	end(m);
	ls = nest(TCA_STRIPE_XSTATS_LINKS);
	l = nest(TCA_STRIPE_XSTATS_LINK);
	put(TCA_STRIPE_LSTAT_FLAGS, &two, 1);
	put(TCA_STRIPE_LSTAT_RX_BYTES, &two, 2);
	end(l);
	end(ls);
	end(app);
	end(s);
}

/* The same master for tc: its qdisc, with every option and statistic */
static void same_tc_dump(void)
{
	struct rtattr *o, *s, *app;

	all_stats = true;
	begin(0x80010000);
	o = nest(TCA_OPTIONS);
	master_opts(false, true);
	end(o);
	s = nest(TCA_STATS2);
	app = nest(TCA_STATS_APP);
	master_xstats();
	end(app);
	end(s);
}

/* ... and for ip: its link, the options and statistics (IFLA_INFO_XSTATS) */
static void same_ip_dump(void)
{
	struct rtattr *d;

	all_stats = true;
	d = begin_link(7, "stripe0", false);
	master_opts(true, true);
	end(d);
	d = nest_noflag(IFLA_INFO_XSTATS);
	master_xstats();
	end(d);
	end_link();
}

/* A link of it for ip, as the "link" set's for tc: IFLA_INFO_SLAVE_DATA,
 * with what only the kernel sets
 */
static void same_ip_link_dump(void)
{
	struct rtattr *d = begin_link(3, "eth2", true);

	put_u32(IFLA_STRIPE_LINK_WEIGHT, 5);
	put_u32(IFLA_STRIPE_LINK_LIMIT, 1000);
	put_u32(IFLA_STRIPE_LINK_ID, 0);
	put_u32(IFLA_STRIPE_LINK_FLAGS, STRIPE_LINK_F_UP |
		STRIPE_LINK_F_CARRIER | STRIPE_LINK_F_ACTIVE);
	put_u32(IFLA_STRIPE_LINK_WEIGHT_USED, 5);
	put_u32(IFLA_STRIPE_LINK_SPEED, 1000);
	end(d);
	end_link();
}

/* ip's options alone: a master's, a link's (weight auto), each with its
 * last attribute (ip parses up to link_util.maxattr)
 */
static void ip_opts_dump(void)
{
	struct rtattr *d = begin_link(7, "stripe0", false);

	put_u8(IFLA_STRIPE_REORDER, 1);
	put_u32(IFLA_STRIPE_QUANTUM, 3000);
	put_u32(IFLA_STRIPE_MEMORY_LIMIT, 1048576);	/* the last: maxattr */
	end(d);
	end_link();
	emit();

	d = begin_link(8, "eth2", true);
	put_u32(IFLA_STRIPE_LINK_WEIGHT, 0);
	put_u32(IFLA_STRIPE_LINK_LIMIT, 500);
	put_u32(IFLA_STRIPE_LINK_SPEED, 1000);		/* the last: maxattr */
	end(d);
	end_link();
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		void (*dump)(void);
	} sets[] = {
		{ "master", master_dump },
		{ "link", link_dump },
		{ "bad", bad_dump },
		{ "hist-cut", hist_cut_dump },
		{ "hist-long", hist_long_dump },
		{ "same-tc", same_tc_dump },
		{ "same-ip", same_ip_dump },
		{ "same-ip-link", same_ip_link_dump },
		{ "ip-opts", ip_opts_dump },
	};
	const char *set = argc > 1 ? argv[1] : "";
	size_t i;

	for (i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
		if (strcmp(set, sets[i].name) == 0) {
			sets[i].dump();
			emit();		/* the last message */
			return failed;
		}
	}
	return 2;
}
