/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stripe: the resequencer -- the receive logic of "reorder on", apart from
 * the network device around it.
 *
 * It parses stripe headers and decides, frame by frame, what goes up, what
 * waits and what is dropped.  It knows nothing of devices, locks, timers or
 * time sources: the caller (rx.c) passes the time in and serialises every
 * call.  That keeps it small enough to be built on the host as well, from
 * this same file, for unit tests and fuzzing (tests/unit/).
 *
 * Memory is bounded whatever arrives: STRIPE_RX_SENDERS senders, each with
 * STRIPE_FLOW_BUCKETS flows; held frames bounded per flow and in all.  A
 * sender's state is not allocated on the receive path: a new sender takes
 * one from a small pool the caller refills where it may sleep
 * (stripe_reseq_pool_put()), or the place of one that gave it up.
 */
#ifndef _STRIPE_RESEQ_H
#define _STRIPE_RESEQ_H

#include <linux/bitmap.h>
#include <linux/if_ether.h>
#include <linux/rbtree.h>
#include <linux/siphash.h>
#include <linux/skbuff.h>
#include <linux/stripe.h>

/* Peers a master keeps order for (a gateway's hosts); the frames of more
 * go up unordered, counted no_state
 */
#define STRIPE_RX_SENDERS	1024
#define STRIPE_RX_HASH_SIZE	256	/* chains of the senders' table */
#define STRIPE_RX_POOL		8	/* states kept ready for new senders */
/* Once the table is full, a new sender takes the place of one idle for
 * STRIPE_RX_IDLE_NS, or of one still new (fewer frames than
 * STRIPE_RX_NEW_FRAMES: a made-up id sends one) quiet for
 * STRIPE_RX_NEW_IDLE_NS; looking at STRIPE_RX_EVICT_SCAN places a frame,
 * so a flood of ids costs bounded work and never takes a busy peer's place.
 */
#define STRIPE_RX_NEW_FRAMES	16
#define STRIPE_RX_NEW_IDLE_NS	(10ULL * 1000 * 1000)
#define STRIPE_RX_EVICT_SCAN	8
/* Senders still new get at most this many reports per interval in all */
#define STRIPE_RX_FB_NEW_MAX	4
#define STRIPE_RX_FB_NEW_NS	(STRIPE_FEEDBACK_INTERVAL_MS * 1000ULL * 1000)
#define STRIPE_RX_LINKS		64	/* link ids, STRIPE_MAX_LINKS */
/* An lseq number a link skipped is reported lost once it waited this long,
 * twice over at most: a frame late on its own link (frames of one link put
 * on the backlogs of two CPUs by veth, a busy receiver) takes it back
 * meanwhile.  The sender cannot take back a loss it was told of: it judges
 * the link by it (share.c).
 */
#define STRIPE_RX_LOSS_WAIT_NS	(STRIPE_FEEDBACK_INTERVAL_MS * 1000ULL * 1000)
/* Longer runs of lseq numbers skipped are not counted as lost */
#define STRIPE_RX_LSEQ_RUN_MAX	64
/* A sender idle this long may give its slot to a new one when the table is
 * full: long enough to outlast a pause, short enough that made-up ids
 * cannot keep a returning peer out for long.
 */
#define STRIPE_RX_IDLE_NS	(1000ULL * 1000 * 1000)
/* A sender's source address on a link binds it until quiet this long */
#define STRIPE_RX_REBIND_NS	(10000ULL * 1000 * 1000)
/* A sender quiet this long paused: feedback counts links' silence anew */
#define STRIPE_RX_FB_PAUSE_NS	(STRIPE_FEEDBACK_LOST_MS * 1000ULL * 1000)
/* ... and a link quiet this long is lost whatever gaps it showed before
 * (down to about 100 kbit/s at MTU 1500 fits below it)
 */
#define STRIPE_RX_LOST_MAX_NS	(256ULL * 1000 * 1000)
/* A link quiet this long starts afresh on its next frame (its newest gseq
 * and lseq tell nothing after so long), and every 2^28 of a sender's gseq
 * its quiet links' newest are kept within 2^30 of it: seq_before() wraps
 * at 2^31, after which a dead link's newest would look ahead (review K5).
 */
#define STRIPE_RX_REBASE_NS	(1000ULL * 1000 * 1000)
#define STRIPE_RX_REBASE_GSEQ	BIT(28)
#define STRIPE_RX_GAP_BUCKETS	9	/* < 1, 2, 4 .. 128 ms, and longer */
/* A sender heard on no link for this long was quiet: its gaps are not its
 * links' (an active sender marks every link each millisecond)
 */
#define STRIPE_RX_QUIET_NS	(2ULL * 1000 * 1000)
/* The base one-way delay of a link is its least over one to two windows */
#define STRIPE_RX_OWD_WINDOW_NS	(1000ULL * 1000 * 1000)
/* ... and the base its queueing delay is measured from, over longer ones */
#define STRIPE_RX_QUEUE_WINDOW_NS	(10000ULL * 1000 * 1000)

/* A frame may arrive after its gap was given up on: on a link that is not
 * strictly FIFO (a veth without NAPI queues on each sending CPU's backlog),
 * or after a stall longer than the hold bound.  The wait such a frame would
 * have needed is remembered as the largest over one to two windows, and
 * from then on gaps wait that long (see stripe_reseq_late_ns()).
 */
#define STRIPE_RX_LATE_WINDOW_NS	(10000ULL * 1000 * 1000)
/* A frame late because its link was out of the link rule (silent, or
 * stale after a timeout) measures that link's queue, not the links'
 * order: a path that stands slower (unequal links) keeps sending such
 * frames, one slowed for a while (its queue drains) stops.  Its wait is
 * kept only this long after the last one: learnt for ten seconds, a
 * slowed link's 700 ms queue held every gap of a lossy link that long.
 */
#define STRIPE_RX_LATE_OUT_NS	(2000ULL * 1000 * 1000)
/* A frame later than this teaches no wait at all: it was behind a queue
 * (a path slowed to a quarter queued 500 ms and more), which the sender's
 * shares must drain; gaps held that long stall TCP (its RTO is 200 ms,
 * its window runs out) worse than the reordering would.
 */
#define STRIPE_RX_LATE_MAX_NS	(100ULL * 1000 * 1000)

/* A stripe header, checked and in host order */
struct stripe_wire_info {
	u8 flags;		/* STRIPE_WIRE_F_* */
	__be16 proto;		/* of the packet that follows; 0 in a marker */
	u32 sender;
	u16 flow;
	u8 link;		/* the sender's link id */
	u8 lseq;		/* its frames' sequence on that link */
	u32 gseq;
	u32 fseq;
	u32 tstamp;		/* sender's clock, us */
};

/* Limits, from the master's configuration; read once per call */
struct stripe_reseq_cfg {
	u64 hold_ns;		/* upper bound on any hold */
	u64 silent_ns;		/* a link silent this long leaves the rule */
	u32 flow_limit;		/* frames held per flow */
	u32 buffer_limit;	/* frames held in all */
	u32 memory_limit;	/* truesize held in all */
};

/* Time as the caller read it, under its lock, and where the frame came
 * from
 */
struct stripe_reseq_now {
	u64 ns;			/* monotonic */
	s32 owd_us;		/* this frame: arrival minus tstamp, in us */
	const u8 *src;		/* its source address (ETH_ALEN), or NULL */
	bool group;		/* sent to a group address, not to us alone */
};

/* A link report of a feedback frame (struct stripe_wire_link_report), in
 * host order
 */
struct stripe_link_report {
	u8 link;		/* the sender's link id */
	u8 state;		/* enum stripe_wire_link_state */
	u16 age_ms;
	u32 frames;
	u32 bytes;
	u32 queue_us;
	u32 lost;
};

/* What the receiver tells one sender: its reports, and where to send them
 * (the local links the sender was heard on, and its address on each)
 */
struct stripe_feedback_msg {
	u32 peer;
	u32 n;
	struct stripe_link_report report[STRIPE_RX_LINKS];
	DECLARE_BITMAP(links, STRIPE_RX_LINKS);
	u8 addr[STRIPE_RX_LINKS][ETH_ALEN];
};

/* What the resequencer keeps of a frame it took, in skb->cb */
struct stripe_rx_cb {
	u32 gseq;
	u32 fseq;
	u64 arrived;	/* ns */
};

/* One flow bucket of one sender */
struct stripe_rx_flow {
	u32 next;			/* fseq expected next */
	bool synced;
	/* Nothing of the flow went up yet: its first frame here need not be
	 * its first (earlier ones may be on a slower link), so next is the
	 * least fseq held, and the head waits as behind a gap of unknown
	 * length, which is no loss when given up.
	 */
	bool fresh;
	/* The last gap given up on: its first fseq, its length, when the
	 * frame after it had arrived, whether the link rule gave it up (not
	 * the hold bound or a limit), and whether it left out of the rule a
	 * link that had not passed it (silent or stale)
	 */
	u32 skip_from;
	u32 skip_len;
	u64 skip_arrived;
	bool skip_by_link;
	bool skip_behind_out;
	/* Early frames: an rbtree on fseq through skb->rbnode, as TCP's
	 * out-of-order queue, so that frames sent in any order (a forger's
	 * descending fseqs) cost O(log n) each to place, not O(n).  The
	 * node overlays skb->dev: rx.c sets it again on the way up.
	 */
	struct rb_root_cached held;
	u32 nheld;
};

/* What a receiver knows of one sending master */
struct stripe_rx_sender {
	u32 id;
	u16 slot;			/* its place in senders[] */
	u16 hash_next;			/* slot + 1 of the next in its chain */
	u64 last_seen;			/* ns, any frame but a probe */
	/* ns, its last data frame or probe: what it sends us, or asks us
	 * about (feedback runs while recent); markers alone are what it
	 * sends other peers, and keep no report going
	 */
	u64 fb_wanted_at;
	/* ns, its last data frame: only a receiver of its data tells a link
	 * lost (a link busy with another peer's frames gets no markers, and
	 * looks silent from here)
	 */
	u64 fb_data_at;
	u64 active_since;		/* ns, end of the last pause */
	DECLARE_BITMAP(links, STRIPE_RX_LINKS);	/* links it was heard on */
	/* links that held a gap to the hold bound, until heard again */
	DECLARE_BITMAP(stale, STRIPE_RX_LINKS);
	u32 newest[STRIPE_RX_LINKS];	/* newest gseq per link */
	u32 rebase_gseq;		/* gseq of the last rebase */
	u64 link_seen[STRIPE_RX_LINKS];	/* ns */
	/* Per local link, for feedback: the sender's id of the link, its
	 * address there, and what arrived (wrapping)
	 */
	u8 wire_link[STRIPE_RX_LINKS];
	u8 addr[STRIPE_RX_LINKS][ETH_ALEN];
	u32 link_frames[STRIPE_RX_LINKS];
	u32 link_lost[STRIPE_RX_LINKS];	/* lseq numbers skipped, reported */
	/* Skipped numbers that wait before they count lost: those since
	 * gap_since, and those of the interval before (stripe_reseq_feedback)
	 */
	u32 gap_new[STRIPE_RX_LINKS];
	u32 gap_old[STRIPE_RX_LINKS];
	u64 gap_since;			/* ns */
	u8 lseq[STRIPE_RX_LINKS];	/* the last frame's on the link */
	/* ... once a frame to us alone came there (a frame to a group
	 * carries none: the sender numbers each destination's frames)
	 */
	DECLARE_BITMAP(lseq_known, STRIPE_RX_LINKS);
	u32 link_bytes[STRIPE_RX_LINKS];
	u64 fb_since;			/* ns, end of the last long pause */
	u32 fb_period_frames;		/* frames since then */
	/* Silence of each link carried over pauses: only across active
	 * periods it had no frame in (see stripe_reseq_fb_pause())
	 */
	u64 fb_silent_before[STRIPE_RX_LINKS];	/* ns */
	bool fb_period_marked;		/* a marker came since fb_since */
	/* Active periods in a row that a link missed: it delivered nothing
	 * while the sender marked and its other links carried newer gseqs
	 */
	u8 fb_missed[STRIPE_RX_LINKS];
	/* Gaps between two frames of a link, by length (bucket k: shorter
	 * than 2^k ms), in this window of the delays and the last; less the
	 * sender's last quiet in them (ns: from its frame before, to the one
	 * after), in which no link had a frame of it
	 */
	u64 gap_window;
	u64 quiet_from, quiet_to;
	u16 gap_hist[STRIPE_RX_LINKS][STRIPE_RX_GAP_BUCKETS];
	u16 gap_hist_last[STRIPE_RX_LINKS][STRIPE_RX_GAP_BUCKETS];
	/* Least one-way delay per link (us) in this window and the last */
	u64 owd_window;			/* ns, start of this window */
	s32 owd_min[STRIPE_RX_LINKS];
	s32 owd_min_last[STRIPE_RX_LINKS];
	/* Least one-way delay per link (us) in this window of the queue's
	 * base and the last: longer windows than the skew's, so that a queue
	 * that stands for a while is still measured from an empty one
	 */
	u64 queue_window;		/* ns, start of this window */
	s32 queue_base[STRIPE_RX_LINKS];
	s32 queue_base_last[STRIPE_RX_LINKS];
	/* Least queueing delay (us: one-way delay minus that base) of each
	 * link since its last report, STRIPE_WIRE_QUEUE_NONE if no frame
	 */
	u32 queue_min[STRIPE_RX_LINKS];
	/* Longest wait a late frame needed (ns), in this window and the last */
	u64 late_window;		/* ns, start of this window */
	u64 late_need;
	u64 late_need_last;
	/* ... and of a gap behind a link out of the rule, while such frames
	 * keep coming (STRIPE_RX_LATE_OUT_NS)
	 */
	u64 late_out_at;		/* ns, when the last one came */
	u64 late_out_need;
	/* What it sent, as TCA_STRIPE_PSTAT_* shows it */
	u64 frames;
	u64 lost_link;
	u64 lost_timeout;
	u64 late;
	DECLARE_BITMAP(pending, STRIPE_FLOW_BUCKETS);
	struct stripe_rx_flow flows[STRIPE_FLOW_BUCKETS];
};

/* One peer as the statistics show it (stripe_reseq_peer()) */
struct stripe_reseq_peer {
	u32 id;
	u32 age_ms;
	u32 links;
	u32 silent;
	u32 skew_us;
	u64 frames;
	u64 held;
	u64 lost_link;
	u64 lost_timeout;
	u64 late;
};

/* Counters; the names follow TCA_STRIPE_MSTAT_RX_* */
struct stripe_reseq_stats {
	u64 in_order;
	u64 resequenced;
	u64 hold_max_us;
	u64 lost_link;
	u64 lost_timeout;
	u64 lost_limit;
	u64 late;
	u64 malformed;
	u64 no_state;
	u64 wrong_addr;
	u64 markers;
	u64 link_reordered;
	u64 hold_hist[STRIPE_HOLD_HIST_BUCKETS];
};

/* The sender last bound to a source address on a link, and that address:
 * a new id from it there is the same host (stripe_reseq_sender_new())
 */
struct stripe_rx_bound {
	u32 id;
	u8 addr[ETH_ALEN];
	bool valid;
};

struct stripe_reseq {
	/* Senders by place, the places in use, and chains by a keyed hash of
	 * the id (slot + 1 of the first; ids are chosen by whoever sends, so
	 * the key keeps them from being made to collide)
	 */
	struct stripe_rx_sender *senders[STRIPE_RX_SENDERS];
	DECLARE_BITMAP(used, STRIPE_RX_SENDERS);
	u16 hash[STRIPE_RX_HASH_SIZE];
	hsiphash_key_t hash_key;
	u32 nr_senders;
	u32 max_senders;		/* STRIPE_RX_SENDERS; tests lower it */
	u32 hand;			/* next place looked at to take back */
	struct stripe_rx_bound bound[STRIPE_RX_LINKS];
	/* States ready for new senders: the receive path does not allocate */
	struct stripe_rx_sender *pool[STRIPE_RX_POOL];
	u32 pool_n;
	/* Reports to senders still new in this interval, and its start */
	u32 fb_new;
	u64 fb_new_window;
	struct sk_buff_head out;	/* released, in order, for the caller */
	u32 held;			/* frames held in all flows */
	u64 held_bytes;
	u64 held_mem;			/* their truesize */
	struct stripe_reseq_stats stats;
};

int stripe_wire_parse(const void *data, unsigned int len,
		      struct stripe_wire_info *wi);
int stripe_wire_check_feedback(const void *data, unsigned int len, u32 *peer);
unsigned int stripe_wire_read_feedback(const void *data,
				       struct stripe_link_report *report);
int stripe_wire_parse_feedback(const void *data, unsigned int len, u32 *peer,
			       struct stripe_link_report *report);

void stripe_reseq_init(struct stripe_reseq *r);
/* Where a feedback frame comes from (stripe_reseq_fb_source()) */
enum stripe_fb_source {
	STRIPE_FB_SRC_BOUND,	/* the reporter's address on the link */
	STRIPE_FB_SRC_UNBOUND,	/* no data of the reporter on the link */
	STRIPE_FB_SRC_WRONG,	/* another address than its data's */
};

enum stripe_fb_source stripe_reseq_fb_source(struct stripe_reseq *r, u32 id,
					     u32 link, const u8 *src);
bool stripe_reseq_frame(struct stripe_reseq *r,
			const struct stripe_reseq_cfg *cfg, u32 link,
			const struct stripe_wire_info *wi, struct sk_buff *skb,
			const struct stripe_reseq_now *now);
void stripe_reseq_tick(struct stripe_reseq *r,
		       const struct stripe_reseq_cfg *cfg, u64 now);
void stripe_reseq_destroy(struct stripe_reseq *r);
bool stripe_reseq_pool_low(const struct stripe_reseq *r);
bool stripe_reseq_pool_put(struct stripe_reseq *r, struct stripe_rx_sender *s);
u32 stripe_reseq_next_slot(const struct stripe_reseq *r, u32 slot);
u32 stripe_reseq_senders(const struct stripe_reseq *r);
bool stripe_reseq_peer(const struct stripe_reseq *r, u32 slot,
		       u64 silent_ns, u64 now, struct stripe_reseq_peer *p);
void stripe_reseq_forget_link(struct stripe_reseq *r, u32 link);
bool stripe_reseq_sends_data(const struct stripe_reseq *r, u32 id, u64 now,
			     u64 window);
bool stripe_reseq_link_silent(const struct stripe_reseq *r,
			      const struct stripe_reseq_cfg *cfg, u32 link,
			      u64 now, u64 caught_up);
bool stripe_reseq_skew(const struct stripe_reseq *r, u32 link, u32 *skew_us);
u32 stripe_reseq_max_skew(const struct stripe_reseq *r);
u64 stripe_reseq_max_late(const struct stripe_reseq *r, u64 now);
bool stripe_reseq_feedback(struct stripe_reseq *r, u32 slot, u64 now,
			   u64 caught_up, u64 lost_ns,
			   struct stripe_feedback_msg *msg);

#endif /* _STRIPE_RESEQ_H */
