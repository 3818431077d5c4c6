/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stripe: internal definitions shared by the files of sch_stripe.ko.
 *
 * Objects
 * -------
 * struct stripe_master   netdev_priv() of a master device ("stripe0").
 * struct stripe_link     one link: the device whose root qdisc is a stripe
 *                        qdisc naming a master.  Allocated on its own (not in
 *                        qdisc_priv()) so it can outlive the qdisc by an RCU
 *                        grace period.
 * struct stripe_table    the array the transmit path walks: every joined
 *                        link with its share of each SRR round.
 *
 * Locking and RCU rules
 * ---------------------
 * - RTNL serialises every change: joining and leaving, the master's link
 *   list and table, link weights and limits, the master's configuration.
 *   tc and rtnetlink call us with RTNL held; so does the netdev notifier.
 * - The transmit path runs under rcu_read_lock_bh() (dev_queue_xmit), on
 *   every CPU at once, and takes no lock of ours.  It reads master->table
 *   with rcu_dereference_bh(); a link that leaves is first removed from the
 *   table, and freed only after a grace period (call_rcu).
 * - Per-CPU data needs no lock: the SRR state (cursor, credits) and the
 *   counters, which are u64_stats and summed when dumped.
 * - link->master is written under RTNL and read under RCU (the link qdisc's
 *   receive and dump paths).  A master that is deleted first detaches all its
 *   links; they stay as plain FIFO qdiscs until removed.
 */
#ifndef _STRIPE_H
#define _STRIPE_H

#include <linux/netdevice.h>
#include <linux/u64_stats_sync.h>
#include <net/sch_generic.h>
#include <linux/stripe.h>

#define STRIPE_MAX_LINKS	64
#define STRIPE_RX_SENDERS	16	/* peers a master keeps order for */
#define STRIPE_RX_IDLE_NS	(10ULL * NSEC_PER_SEC)	/* then it may go */
#define STRIPE_HOLD_DEFAULT_US	5000
#define STRIPE_FLOW_LIMIT_DEFAULT	1024
#define STRIPE_BUFFER_LIMIT_DEFAULT	8192

/* Per-CPU counters are structs of N u64_stats_t followed by their
 * u64_stats_sync; each has a plain snapshot struct of N u64 in the same
 * order, filled by stripe_stats_sum() (stats.c checks the layouts).
 */
#define STRIPE_LINK_NSTATS	7
#define STRIPE_MASTER_NSTATS	6

/* Per-CPU counters of a link */
struct stripe_link_stats {
	u64_stats_t tx_packets;
	u64_stats_t tx_bytes;
	u64_stats_t tx_busy;
	u64_stats_t tx_drops;
	u64_stats_t neigh_fail;
	u64_stats_t rx_packets;
	u64_stats_t rx_bytes;
	struct u64_stats_sync syncp;
};

/* A plain snapshot of the above */
struct stripe_link_counters {
	u64 tx_packets;
	u64 tx_bytes;
	u64 tx_busy;
	u64 tx_drops;
	u64 neigh_fail;
	u64 rx_packets;
	u64 rx_bytes;
};

struct stripe_master;

struct stripe_link {
	struct net_device *dev;
	netdevice_tracker dev_tracker;
	struct Qdisc *sch;			/* the link's root qdisc */
	struct stripe_master __rcu *master;	/* NULL once detached */
	struct list_head node;			/* master->links, RTNL */
	u32 id;					/* index in the master, RTNL */
	u32 weight;				/* configured, 0 = auto */
	u32 weight_auto;			/* from the link speed */
	u32 limit;				/* packets in sch */
	struct stripe_link_stats __percpu *stats;
	struct rcu_head rcu;
};

struct stripe_slot {
	struct stripe_link *link;
	s32 share;		/* bytes of credit per SRR visit */
};

struct stripe_table {
	struct rcu_head rcu;
	u32 gen;		/* tells per-CPU SRR state to restart */
	u32 n;
	struct stripe_slot slot[];
};

/* Surplus round robin state, one per CPU: no lock on the hot path */
struct stripe_srr {
	u32 gen;
	u32 cursor;
	s32 credit[STRIPE_MAX_LINKS];
};

struct stripe_master_stats {
	u64_stats_t tx_packets;
	u64_stats_t tx_bytes;
	u64_stats_t tx_busy;
	u64_stats_t tx_drops;
	u64_stats_t rx_packets;
	u64_stats_t rx_bytes;
	struct u64_stats_sync syncp;
};

struct stripe_master_counters {
	u64 tx_packets;
	u64 tx_bytes;
	u64 tx_busy;
	u64 tx_drops;
	u64 rx_packets;
	u64 rx_bytes;
};

/* Master-wide options: written under RTNL, read with READ_ONCE() */
struct stripe_config {
	u32 quantum;
	u8 reorder;
	u32 hold_max_us;
	u32 flow_limit;
	u32 buffer_limit;
	u32 stripe_min;
};

/* Receive state of one flow bucket of one sender (rx.c) */
struct stripe_rx_flow {
	u32 next;			/* fseq expected next */
	bool synced;
	struct sk_buff_head held;	/* early frames, in fseq order */
};

/* What a receiver knows of one sending master */
struct stripe_rx_sender {
	u32 id;
	u64 last_seen;			/* ns */
	u32 newest[STRIPE_MAX_LINKS];	/* newest gseq per link */
	u64 link_seen[STRIPE_MAX_LINKS];	/* ns, 0 = never */
	DECLARE_BITMAP(pending, STRIPE_FLOW_BUCKETS);
	struct stripe_rx_flow flows[STRIPE_FLOW_BUCKETS];
};

/* Receive side of a master; everything under lock (BH) */
struct stripe_rx {
	spinlock_t lock;		/* all of this struct, BH */
	struct stripe_rx_sender *senders[STRIPE_RX_SENDERS];
	struct hrtimer timer;		/* hold-max for held frames */
	struct napi_struct napi;	/* hands frames up, in order */
	struct sk_buff_head up;		/* released, waiting for napi */
	u32 held;
	u64 held_bytes;
	u64 in_order;
	u64 resequenced;
	u64 hold_max_us;
	u64 lost_link;
	u64 lost_timeout;
	u64 lost_limit;
	u64 late;
	u64 malformed;
	u64 no_state;
};

struct stripe_master {
	struct net_device *dev;
	struct list_head links;			/* RTNL */
	u32 nr_links;				/* RTNL */
	u32 table_gen;				/* RTNL */
	struct stripe_table __rcu *table;
	struct stripe_srr __percpu *srr;
	struct stripe_master_stats __percpu *stats;
	struct stripe_config cfg;
	DECLARE_BITMAP(link_ids, STRIPE_MAX_LINKS);	/* RTNL */
	/* reorder on, transmit side */
	u32 sender_id;
	atomic_t tx_gseq;
	atomic_t tx_fseq[STRIPE_FLOW_BUCKETS];
	struct stripe_rx rx;
};

/* master.c */
extern struct rtnl_link_ops stripe_link_ops;
bool stripe_is_master(const struct net_device *dev);
int stripe_master_rebuild(struct stripe_master *m);
void stripe_master_update(struct stripe_master *m);

/* link.c */
struct stripe_link *stripe_link_of(const struct net_device *dev);
int stripe_link_join(struct stripe_link *link, struct stripe_master *m,
		     struct netlink_ext_ack *extack);
void stripe_link_leave(struct stripe_link *link);
void stripe_link_refresh_speed(struct stripe_link *link);
u32 stripe_link_weight(const struct stripe_link *link);
u32 stripe_link_flags(const struct stripe_link *link);
bool stripe_link_can_send(const struct stripe_link *link);
int stripe_notifier_register(void);
void stripe_notifier_unregister(void);

/* ndisc.c */
bool stripe_ndisc_answer(struct stripe_master *m, struct sk_buff *skb);

/* rx.c */
void stripe_rx_frame(struct stripe_master *m, struct stripe_link *link,
		     struct sk_buff *skb);
int stripe_rx_init(struct stripe_master *m);
void stripe_rx_destroy(struct stripe_master *m);

/* xmit.c */
netdev_tx_t stripe_master_xmit(struct sk_buff *skb, struct net_device *dev);

/* qdisc.c */
extern struct Qdisc_ops stripe_qdisc_ops;

/* stats.c */
void stripe_stats_sum(const void __percpu *stats, unsigned int n, u64 *sum);

static inline void stripe_link_stats_read(const struct stripe_link *link,
					  struct stripe_link_counters *c)
{
	stripe_stats_sum(link->stats, STRIPE_LINK_NSTATS, (u64 *)c);
}

static inline void stripe_master_stats_read(const struct stripe_master *m,
					    struct stripe_master_counters *c)
{
	stripe_stats_sum(m->stats, STRIPE_MASTER_NSTATS, (u64 *)c);
}

int stripe_dump_master_xstats(struct stripe_master *m, struct sk_buff *skb);
int stripe_dump_link_xstats(struct stripe_link *link, struct sk_buff *skb);

#endif /* _STRIPE_H */
