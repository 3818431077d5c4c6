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
 *   every CPU at once.  It reads master->table with rcu_dereference_bh(); a
 *   link that leaves is first removed from the table, and freed only after
 *   a grace period (call_rcu).  It takes no lock of ours, but
 *   master->tx_space_lock for a next hop it has not seen (with reorder
 *   on, stripe_tx_space(): once per next hop).  With reorder on,
 *   a frame is numbered as it enters its link's FIFO, under the link's
 *   root qdisc lock (stripe_link_number(), from stripe_enqueue()): that
 *   lock, which the core takes anyway, is what orders a link's frames.
 * - The receive side (rx.c) keeps everything under rx->lock (BH): the
 *   resequencer, the NAPI queue, the timer's queued state.
 * - Flags and estimates read without a lock on the hot path (link->rx_silent,
 *   rx->skew_ns, the stripe-min byte counts) use READ_ONCE/WRITE_ONCE; a
 *   stale value costs a packet's placement, never memory safety.
 * - Per-CPU data needs no lock: the SRR state (cursor, credits) and the
 *   counters, which are u64_stats and summed when dumped.
 * - link->master is written under RTNL and read under RCU (the link qdisc's
 *   receive and dump paths).  A master that is deleted first detaches all its
 *   links; they stay as plain FIFO qdiscs until removed.
 */
#ifndef _STRIPE_H
#define _STRIPE_H

#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/u64_stats_sync.h>
#include <net/sch_generic.h>
#include <linux/stripe.h>

#include "reseq.h"

#define STRIPE_MAX_LINKS	64
/* Peers a link remembers sending data to, for its markers (marker.c) */
#define STRIPE_TX_PEERS		8
#define STRIPE_HOLD_DEFAULT_US	5000
#define STRIPE_FLOW_LIMIT_DEFAULT	1024
#define STRIPE_BUFFER_LIMIT_DEFAULT	8192

/* Per-CPU counters are structs of N u64_stats_t followed by their
 * u64_stats_sync; each has a plain snapshot struct of N u64 in the same
 * order, filled by stripe_stats_sum() (stats.c checks the layouts).
 */
#define STRIPE_LINK_NSTATS	8
#define STRIPE_MASTER_NSTATS	8

/* Per-CPU counters of a link */
struct stripe_link_stats {
	u64_stats_t tx_packets;
	u64_stats_t tx_bytes;
	u64_stats_t tx_busy;
	u64_stats_t tx_drops;
	u64_stats_t neigh_fail;
	u64_stats_t rx_packets;
	u64_stats_t rx_bytes;
	u64_stats_t tx_markers;
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
	u64 tx_markers;
};

struct stripe_master;

/* Frames sent and lost on a link, and on the other links over the same
 * time (share.c's loss rule)
 */
struct stripe_loss_count {
	u64 sent;
	u64 lost;
	u64 other_sent;
	u64 other_lost;
};

/* A peer's address on one link, and when it was last seen there */
struct stripe_peer_addr {
	u8 addr[ETH_ALEN];
	u16 spaces;		/* tx_peer: its next hops' fseq spaces */
	u64 at;					/* ns, 0 = unused */
};

/* Next hops with fseq spaces of their own (stripe_tx_space()) */
#define STRIPE_TX_SPACES	16

/* A peer we sent data to this recently is one we talk to: its reports are
 * taken (feedback.c), and a link left for it is probed (marker.c)
 */
#define STRIPE_TALK_NS		NSEC_PER_SEC

/* Destinations a link numbers its frames for (stripe_link_dest_lseq()) */
#define STRIPE_TX_DESTS		16

/* A destination's count of the frames a link carried to it: each peer
 * counts the numbers it missed on a link as lost (reseq.c), so each needs
 * numbers of its own, not the link's, which the other peers' frames take
 */
struct stripe_tx_dest {
	u8 addr[ETH_ALEN];
	u8 lseq;				/* the last one sent */
	bool used;
} __aligned(2);

struct stripe_link {
	struct net_device *dev;
	netdevice_tracker dev_tracker;
	struct Qdisc *sch;			/* the link's root qdisc */
	struct stripe_master __rcu *master;	/* NULL once detached */
	struct list_head node;			/* master->links, RTNL */
	u32 id;					/* index in the master, RTNL */
	u32 weight;				/* configured, 0 = auto */
	u32 weight_auto;			/* from the link speed */
	u32 speed;				/* Mbit/s, RTNL */
	u32 limit;				/* packets in sch */
	u32 queue_max;				/* bytes in sch to send more */
	struct stripe_link_stats __percpu *stats;
	/* reorder on: written as the link's FIFO takes a frame of the master
	 * (stripe_link_number()), under the link's root qdisc lock; read
	 * without it.  So the link carries gseq and lseq in rising order --
	 * the loss rule of the receiver (reseq.c) depends on it.
	 */
	u32 tx_gseq;				/* last numbered */
	u32 tx_frames;				/* frames numbered on it */
	u64 tx_last;				/* ns of it */
	/* Each destination's lseq, the latest first (only the numbering
	 * reads and writes it)
	 */
	struct stripe_tx_dest tx_dest[STRIPE_TX_DESTS];
	/* The peers data went to on this link (their addresses here), the
	 * latest first: markers go to each of them (marker.c).  Written under
	 * the root qdisc lock, a new peer inside tx_peer_seq; read under it.
	 */
	seqcount_t tx_peer_seq;
	struct stripe_peer_addr tx_peer[STRIPE_TX_PEERS];
	/* The peer's frames stopped arriving here: the transmit path
	 * avoids the link until they come back (marker.c sets it, rx.c
	 * clears it; read without a lock).
	 */
	bool rx_silent;
	/* The peer reports that nothing arrives on the link: the transmit
	 * path avoids it, the marker timer probes it (feedback.c writes it
	 * under the master's fb_lock, with the fb_* fields; read without)
	 */
	bool peer_lost;
	u64 fb_good_since;	/* ns, first report of delivering since lost */
	u64 fb_up_at;		/* ns, when it last came back */
	u32 fb_flaps;		/* losses soon after coming back */
	u32 fb_left_after_ms;	/* the last loss: ms since it delivered */
	u64 fb_left;		/* times taken out */
	u64 fb_back;		/* times brought back */
	/* ns, the peer's last report that the link delivers (read without
	 * fb_lock by the marker timer: while recent, the peer's silence on
	 * the link is the other direction's fault, not a reason to leave it)
	 */
	u64 fb_delivering_at;
	u32 fb_reporter;	/* sender id of the last peer to report it */
	u32 fb_delivering_by;	/* ... and of the last to report delivering */
	u64 fb_delivering_other_at;	/* ns, the last such report of another */
	/* Each next hop's view of the link (fseq space i, xmit.c), under
	 * fb_lock: one whose peer reports it lost while others get what it
	 * carries leaves it alone (m->tx_space[i].left), and comes back as
	 * the whole link does
	 */
	struct stripe_space_fb {
		u32 reporter;		/* the sender id of its peer */
		u64 reported_at;	/* ns, its last report of the link */
		u64 delivering_at;	/* ... that said it delivers */
		u64 lost_since;	/* ns, first report of it LOST in a row */
		u64 good_since;	/* ns, first report of delivering since */
		u64 up_at;	/* ns, when it last came back */
		u8 flaps;	/* losses soon after coming back */
	} fb_space[STRIPE_TX_SPACES];
	u64 space_probe_at;	/* ns, the marker timer's: probed for them */
	u64 fb_omitted_since;	/* ns, first report of it that left it out */
	/* ns, the first data frame sent on it since a report of the peer
	 * last mentioned it, 0 if none: written by the transmit path when 0
	 * (once per report, not per frame), cleared by feedback.c
	 */
	u64 fb_unanswered_since;
	/* Where the reports on this link come from (written under fb_lock,
	 * read by the marker timer under fb_peer_seq): markers go to these
	 * peers too, when no data went to them here lately
	 */
	seqcount_t fb_peer_seq;
	struct stripe_peer_addr fb_peer[STRIPE_TX_PEERS];
	/* probe.c: jiffies of the last reply to this link's probes (written
	 * by its receive path); the rest is the probe timer's own
	 */
	unsigned long probe_rx;
	unsigned long probe_rx_seen;	/* probe_rx at the last tick */
	unsigned long probe_from;	/* probed since, without a break */
	unsigned long probe_at;		/* last probed */
	/* share.c, under the master's fb_lock; read without it */
	u32 pace;		/* part of its weight's share, STRIPE_PACE_ONE */
	u32 queue_us;		/* the peer's last report, U32_MAX: none */
	u32 share_bytes;	/* bytes the peer last reported it delivered */
	u32 share_rate;		/* bytes it delivers per step, averaged */
	u32 loss_sent;		/* tx_frames at the start of the loss window */
	u32 loss_lost;		/* the peer's lost count then */
	u16 loss_windows;	/* the last 16 windows: bit set, it stood out */
	u8 loss_seen;		/* windows averaged, up to 4 */
	u8 loss_streak;		/* window ends in a row its average stood out */
	/* its queue stands out by more than twice hold-max: next to no data
	 * till it no longer does (STRIPE_LINK_F_DRAINING)
	 */
	bool draining;
	struct stripe_loss_count loss_win;	/* the last window */
	struct stripe_loss_count loss_avg;	/* averaged, 1/256 of a frame */
	struct stripe_loss_count loss_all_at;	/* m->loss_all at its end */
	u64 lossy_until;	/* ns: it lost too much, least pace till then */
	u64 frames_lost;	/* frames the peer reported lost, in all */
	bool enslaved;		/* joined by ip link: released the same way */
	u32 notified_flags;	/* RTNL: STRIPE_LINK_F_* last announced */
	struct rcu_head rcu;
};

struct stripe_slot {
	struct stripe_link *link;
	s32 base;		/* bytes of credit per SRR visit, by weight */
	/* ... at the link's pace (share.c): written in place with
	 * WRITE_ONCE, read by the transmit path with READ_ONCE
	 */
	s32 share;
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
	/* The link this CPU is handing a frame to: a frame that comes back
	 * to the master from inside that link's transmit (a tunnel link
	 * whose underlay routes through the master) must not pick it again
	 */
	const struct stripe_link *sending;
	s32 credit[STRIPE_MAX_LINKS];
};

struct stripe_master_stats {
	u64_stats_t tx_packets;
	u64_stats_t tx_bytes;
	u64_stats_t tx_busy;
	u64_stats_t tx_drops;
	u64_stats_t rx_packets;
	u64_stats_t rx_bytes;
	u64_stats_t tx_markers;
	/* frames that failed stripe_wire_parse(): counted here, not under the
	 * receive lock, so that a flood of them takes no lock
	 */
	u64_stats_t rx_malformed;
	struct u64_stats_sync syncp;
};

struct stripe_master_counters {
	u64 tx_packets;
	u64 tx_bytes;
	u64 tx_busy;
	u64 tx_drops;
	u64 rx_packets;
	u64 rx_bytes;
	u64 tx_markers;
	u64 rx_malformed;
};

/* Master-wide options: written under RTNL, read with READ_ONCE() */
struct stripe_config {
	u32 quantum;
	u8 reorder;
	u32 hold_max_us;
	u32 flow_limit;
	u32 buffer_limit;
	u32 memory_limit;
	u32 stripe_min;
	u8 hold_auto;
	__be32 probe_target;		/* 0: no probing */
	u32 probe_interval_us;
	/* ::, no probing; read outside RTNL under master->probe_seq */
	struct in6_addr probe_target6;
};

/* Receive side of a master */
struct stripe_rx {
	spinlock_t lock;		/* reseq and up, BH */
	struct stripe_reseq reseq;	/* the resequencer's state */
	struct hrtimer timer;		/* releases with time; queued under lock */
	struct napi_struct napi;	/* hands frames up, in order */
	struct sk_buff_head up;		/* released, waiting for napi */
	u64 up_mem;			/* their truesize, under lock */
	/* Refills the resequencer's pool of sender states: the receive
	 * path takes them, it does not allocate (reseq.h)
	 */
	struct work_struct pool_work;
	u64 skew_ns;			/* largest measured, for hold-auto */
	u64 late_ns;			/* longest late wait, for hold-auto */
	/* ns, when each CPU last took a frame of ours: written by that CPU
	 * only, read by the feedback and marker timers (stripe_rx_caught_up)
	 */
	u64 __percpu *cpu_at;
};

/* Bytes a flow bucket sent lately, for stripe-min.  Written by every CPU
 * without a lock: an estimate, which is all the option needs.
 */
struct stripe_tx_flow {
	u64 bytes;
	unsigned long last;		/* jiffies */
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
	unsigned int mtu_user;			/* set by the user, 0: none */
	bool mtu_following;			/* RTNL: we set the MTU */
	DECLARE_BITMAP(link_ids, STRIPE_MAX_LINKS);	/* RTNL */
	/* reorder on, transmit side */
	u32 sender_id;
	struct hrtimer marker_timer;		/* runs while links lag */
	unsigned long marker_armed;		/* bit 0: timer started */
	/* Written for every frame: on lines of their own, away from the
	 * read-mostly fields above that every CPU reads for every frame
	 * (review K11)
	 */
	atomic_t tx_gseq ____cacheline_aligned_in_smp;
	/* Each next hop's flow buckets (txseq.h): a receiver sees a frame
	 * of its bucket that went to another peer as a gap, which waits
	 * for every link to pass it.  Space i belongs to the next hop
	 * whose keyed hash is tx_space[i].key (0: none yet), used last at
	 * tx_space[i].used (jiffies, written at most once a jiffy); spaces
	 * are handed out under tx_space_lock (xmit.c).
	 */
	atomic64_t tx_fseq[STRIPE_TX_SPACES][STRIPE_FLOW_BUCKETS];
	struct stripe_tx_space {
		u32 key;
		unsigned long used;
		/* The links its peer gets nothing on while other peers get
		 * what they carry: left for this next hop alone (set and
		 * cleared by feedback.c under fb_lock with atomic bitops,
		 * zeroed when the space changes hands; read without a lock)
		 */
		DECLARE_BITMAP(left, STRIPE_MAX_LINKS);
	} tx_space[STRIPE_TX_SPACES] ____cacheline_aligned_in_smp;
	spinlock_t tx_space_lock;	/* hands out tx_space[] (xmit.c) */
	struct stripe_tx_flow tx_flow[STRIPE_FLOW_BUCKETS];
	/* (the receive side, from here on, is another CPU's) */
	struct stripe_rx rx ____cacheline_aligned_in_smp;
	/* feedback.c */
	spinlock_t fb_lock;			/* the links' fb_* fields */
	struct hrtimer fb_timer;		/* runs while senders are heard */
	unsigned long fb_armed;			/* bit 0: timer started */
	struct stripe_feedback_msg fb_msg;	/* the timer's own */
	/* The report being applied, fb_lock: kept here, not on the
	 * softirq stack (1.5 KiB)
	 */
	struct stripe_link_report fb_rep[STRIPE_WIRE_LINKS];
	u64 fb_tx;				/* frames sent, the timer */
	u64 fb_rx;				/* about us, fb_lock */
	u64 fb_rx_at;			/* ns of the last one taken, fb_lock */
	u64 fb_rx_other;			/* about others, racy count */
	u64 fb_rx_unsent;	/* from peers sent nothing lately, fb_lock */
	u64 fb_rx_unknown;	/* from hosts we exchange no data with here,
				 * fb_lock
				 */
	u64 fb_space_left;	/* links left for one next hop, fb_lock */
	u64 fb_space_back;	/* ... taken back for it, fb_lock */
	/* The peers (their ids) whose reports we take: one of their copies
	 * came from where we send data (feedback.c), fb_lock
	 */
	struct stripe_fb_talk {
		u32 id;
		u16 spaces;	/* its next hops' fseq spaces, as known */
		u64 at;				/* ns, 0 = unused */
	} fb_talk[STRIPE_TX_PEERS];
	u64 share_at;				/* share.c: last step, fb_lock */
	u32 share_reporter;			/* ... and whose report */
	u32 share_q[STRIPE_MAX_LINKS];	/* ... each link's queue, us, a step's */
	/* share.c, fb_lock: every link's loss windows (sent, lost) summed */
	struct stripe_loss_count loss_all;
	/* link.c: announces links that left or rejoined rotation */
	struct delayed_work state_work;
	/* probe.c: runs while probing is on; restarts itself */
	struct timer_list probe_timer;
	seqcount_t probe_seq;		/* cfg.probe_target6, BH off */
};

/* link.c */
void stripe_link_state_init(struct stripe_master *m);
void stripe_link_state_changed(struct stripe_master *m);
void stripe_link_state_stop(struct stripe_master *m);

/* master.c */
extern struct rtnl_link_ops stripe_link_ops;
bool stripe_is_master(const struct net_device *dev);
int stripe_master_rebuild(struct stripe_master *m);
void stripe_master_drop_link(struct stripe_master *m, struct stripe_link *link);
void stripe_master_update(struct stripe_master *m);
bool stripe_link_mtu_ok(unsigned int mtu, u8 reorder);
int stripe_options_read(struct stripe_config *cfg, struct nlattr **tb,
			bool tc, struct netlink_ext_ack *extack);
int stripe_master_configure(struct stripe_master *m,
			    const struct stripe_config *cfg,
			    struct netlink_ext_ack *extack);

/* link.c */
struct stripe_link *stripe_link_of(const struct net_device *dev);
int stripe_link_join(struct stripe_link *link, struct stripe_master *m,
		     struct netlink_ext_ack *extack);
void stripe_link_leave(struct stripe_link *link);
void stripe_link_refresh_speed(struct stripe_link *link);
int stripe_link_configure(struct stripe_link *link, const struct nlattr *weight,
			  const struct nlattr *limit,
			  struct netlink_ext_ack *extack);
u32 stripe_link_weight(const struct stripe_link *link);
u32 stripe_link_flags(const struct stripe_link *link);
bool stripe_link_can_send(const struct stripe_link *link);
int stripe_notifier_register(void);
void stripe_notifier_unregister(void);

/* ethtool.c */
#define STRIPE_VERSION	"1.0"
extern const struct ethtool_ops stripe_ethtool_ops;

/* enslave.c */
int stripe_add_slave(struct net_device *mdev, struct net_device *dev,
		     struct netlink_ext_ack *extack);
int stripe_del_slave(struct net_device *mdev, struct net_device *dev);
void stripe_release(struct stripe_link *link);

/* marker.c */
void stripe_marker_init(struct stripe_master *m);
void stripe_marker_stop(struct stripe_master *m);
void stripe_marker_arm(struct stripe_master *m);
void stripe_marker_add_peer(struct stripe_link *link, const u8 *addr,
			    u8 space, u64 now);
bool stripe_marker_sent_to(struct stripe_link *link, const u8 *addr, u64 now,
			   unsigned long *spaces);

/* feedback.c */
void stripe_feedback_init(struct stripe_master *m);
void stripe_feedback_stop(struct stripe_master *m);
void stripe_feedback_arm(struct stripe_master *m);
bool stripe_feedback_vouches(const struct stripe_link *link, u64 now);
bool stripe_feedback_unanswered(struct stripe_master *m,
				struct stripe_link *link, u64 now, bool stalled);
unsigned int stripe_feedback_peers(struct stripe_link *link, u64 now,
				   u8 dest[][ETH_ALEN], unsigned int n,
				   unsigned int max);
void stripe_feedback_leave(struct stripe_master *m, struct stripe_link *link,
			   u64 now, u32 after_ms, const char *why);
void stripe_feedback_evidence(struct stripe_master *m,
			      struct stripe_link *link, bool delivers, u64 now);

/* probe.c */
void stripe_probe_init(struct stripe_master *m);
void stripe_probe_stop(struct stripe_master *m);
void stripe_probe_arm(struct stripe_master *m);
void stripe_probe_rx(struct stripe_master *m, struct stripe_link *link,
		     const struct sk_buff *skb);
void stripe_probe_rx6(struct stripe_master *m, struct stripe_link *link,
		      const struct sk_buff *skb);
void stripe_probe_set_target6(struct stripe_master *m,
			      const struct in6_addr *addr);
void stripe_feedback_rx(struct stripe_master *m, struct stripe_link *link,
			struct sk_buff *skb, const struct stripe_wire_info *wi,
			bool bound);

/* Is the link out of rotation (failover)?  Its peer is not heard on it,
 * or reports that it gets nothing on it.
 */
static inline bool stripe_link_left(const struct stripe_link *link)
{
	return READ_ONCE(link->rx_silent) || READ_ONCE(link->peer_lost);
}

/* ... or left for the next hop whose links out are @left (NULL: none) */
static inline bool stripe_link_left_for(const struct stripe_link *link,
					const unsigned long *left)
{
	return stripe_link_left(link) || (left && test_bit(link->id, left));
}

/* Data went to a peer on @link (reorder on): a report of the peer should
 * mention the link soon (stripe_feedback_unanswered()).  One read per
 * frame, one write per report.
 */
static inline void stripe_feedback_sent(struct stripe_link *link, u64 now)
{
	if (!READ_ONCE(link->fb_unanswered_since))
		WRITE_ONCE(link->fb_unanswered_since, now);
}

/* share.c */
u32 stripe_link_pace(const struct stripe_link *link);
void stripe_share_apply(struct stripe_table *t);
void stripe_share_adapt(struct stripe_master *m, struct stripe_table *t,
			const struct stripe_link_report *rep, int n,
			u32 reporter, u64 now);
void stripe_share_reset(struct stripe_master *m);

/* ndisc.c */
bool stripe_ndisc_answer(struct stripe_master *m, struct sk_buff *skb);

/* rx.c */
void stripe_rx_count_malformed(struct stripe_master *m);
void stripe_rx_frame(struct stripe_master *m, struct stripe_link *link,
		     struct sk_buff *skb);
u64 stripe_rx_caught_up(struct stripe_master *m, u64 now);
bool stripe_rx_link_silent(struct stripe_master *m, struct stripe_link *link,
			   u64 caught_up);
bool stripe_rx_sends_data(struct stripe_master *m, u32 id, u64 now);
u64 stripe_hold_ns(const struct stripe_master *m);
void stripe_rx_update_skew(struct stripe_master *m);
void stripe_rx_init(struct stripe_master *m);
void stripe_rx_destroy(struct stripe_master *m);

/* xmit.c */
netdev_tx_t stripe_master_xmit(struct sk_buff *skb, struct net_device *dev);
bool stripe_link_number(struct stripe_link *link, struct sk_buff *skb);

/* Under @link's root qdisc lock: a data frame went to @addr on @link at
 * @now.  Most frames go where the last one went: one compare.
 */
static inline void stripe_link_note_peer(struct stripe_link *link,
					 const u8 *addr, u8 space, u64 now)
{
	struct stripe_peer_addr *p = &link->tx_peer[0];

	if (likely(p->at && ether_addr_equal(p->addr, addr) &&
		   (p->spaces & BIT(space))))
		WRITE_ONCE(p->at, now);
	else
		stripe_marker_add_peer(link, addr, space, now);
}

/* qdisc.c */
extern struct Qdisc_ops stripe_qdisc_ops;
int stripe_qdisc_join(struct Qdisc *sch, struct stripe_master *m,
		      struct netlink_ext_ack *extack);

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

int stripe_dump_master_xstats(struct stripe_master *m, struct sk_buff *skb,
			      bool peers, bool first);
int stripe_dump_link_xstats(struct stripe_link *link, struct sk_buff *skb);

#endif /* _STRIPE_H */
