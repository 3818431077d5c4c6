/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stripe_stats.h: the statistics the kernel sends (TCA_STATS_APP to tc,
 * IFLA_INFO_XSTATS to ip: the same attributes, include/uapi/linux/stripe.h)
 * decoded, one master's, link's or peer's nest at a time.  Nothing here
 * prints or calls into tc or ip: the plugins print from it
 * (stripe_stats_print.h), stripe-perf reads it (tools/xstats.c) and the
 * host tests build it as it is.
 *
 * The kernel may be newer or older than this code: unknown attributes are
 * skipped, a counter may be 32 or 64 bit, a name need not be terminated,
 * and an attribute of an impossible size is counted in .bad, never read.
 */
#ifndef _STRIPE_STATS_H
#define _STRIPE_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include <linux/rtnetlink.h>
#include <linux/stripe.h>

/* What a nest holds: TCA_STRIPE_MSTAT_*, _LSTAT_* or _PSTAT_* */
enum stripe_stat_kind {
	STRIPE_STAT_MASTER,
	STRIPE_STAT_LINK,
	STRIPE_STAT_PEER,
};

#define STRIPE_STAT_SLOTS	64
#define STRIPE_STAT_NAMESIZ	16	/* IFNAMSIZ */

_Static_assert(TCA_STRIPE_MSTAT_MAX < STRIPE_STAT_SLOTS &&
	       TCA_STRIPE_LSTAT_MAX < STRIPE_STAT_SLOTS &&
	       TCA_STRIPE_PSTAT_MAX < STRIPE_STAT_SLOTS,
	       "struct stripe_stat_set too small");

/* One master's, link's or peer's statistics */
struct stripe_stat_set {
	enum stripe_stat_kind kind;
	__u64 have;			/* bit a: attribute a was read */
	__u64 val[STRIPE_STAT_SLOTS];	/* its number (a u32 widened) */
	char name[STRIPE_STAT_NAMESIZ];	/* ..._NAME, if read */
	/*
	 * A master's TCA_STRIPE_MSTAT_RX_HOLD_HIST: the k-th bucket
	 * attribute is bucket k, read or not; hist_n were sent (buckets of a
	 * newer kernel past the last are added to it: it has no bound).
	 */
	unsigned int hist_n;
	unsigned int hist_have;		/* bit k: bucket k was read */
	__u64 hist[STRIPE_HOLD_HIST_BUCKETS];
	unsigned int bad;		/* attributes of an impossible size */
};

/* The top level: the role, and the nests to decode one by one */
struct stripe_xstats {
	bool has_role;
	__u8 role;			/* enum stripe_role */
	const struct rtattr *master;	/* TCA_STRIPE_XSTATS_MASTER or NULL */
	const struct rtattr *links;	/* ..._LINKS: ..._LINK nests */
	const struct rtattr *peers;	/* ..._PEERS: ..._PEER nests */
	unsigned int bad;
};

static inline bool stripe_stat_has(const struct stripe_stat_set *s, int attr)
{
	return attr >= 0 && attr < STRIPE_STAT_SLOTS && (s->have >> attr & 1);
}

/*
 * Each returns 0, or -1 when an attribute runs past its nest (a message
 * cut short): what was read before it is kept, what follows is not read.
 */

/* The payload of TCA_STATS_APP or IFLA_INFO_XSTATS (@len bytes at @data) */
int stripe_xstats_decode(const void *data, int len, struct stripe_xstats *x);

/* One master's, link's or peer's nest (NULL: an empty set) */
int stripe_stats_decode(enum stripe_stat_kind kind, const struct rtattr *nest,
			struct stripe_stat_set *s);

/* @fn on every nest of @type (TCA_STRIPE_XSTATS_LINK or _PEER) in @list,
 * up to the first it fails on (-1 then)
 */
int stripe_stats_each(const struct rtattr *list, int type,
		      int (*fn)(const struct rtattr *nest, void *arg),
		      void *arg);

#endif /* _STRIPE_STATS_H */
