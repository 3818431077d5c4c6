/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * stripe: aggregate several links into one master device and stripe
 * packets across them.
 *
 * This header is the single definition of the netlink interface, shared by
 * the kernel module (kernel/), the tc plugin (tc-plugin/) and the userspace
 * tools (tools/).
 *
 * Configuration
 * -------------
 * A master is created with rtnetlink:  ip link add stripe0 type stripe
 * and takes its options there too, as IFLA_INFO_DATA (IFLA_STRIPE_*,
 * below); a link joins with  ip link set eth2 master stripe0  and takes
 * its options as IFLA_INFO_SLAVE_DATA (IFLA_STRIPE_LINK_*).
 *
 * The same is possible with a qdisc of kind "stripe" (TCA_KIND ==
 * STRIPE_KIND), as with teql.  Its role follows from the device it is
 * attached to:
 *
 *   on a stripe master:  master-wide options (reorder mode, quantum, the
 *                        receive hold limits) and the master's statistics,
 *                        including every link's;
 *   on any other device: that device joins a master as a link
 *                        (TCA_STRIPE_MASTER is then required on creation).
 *
 * TCA_OPTIONS attribute tree (all attributes optional unless noted):
 *
 *   TCA_STRIPE_MASTER        string  link: name of the master to join, in the
 *                                    link's own network namespace
 *   TCA_STRIPE_WEIGHT        u32     link: share of bytes, 1..STRIPE_WEIGHT_MAX;
 *                                    absent: derived from the link speed
 *   TCA_STRIPE_LIMIT         u32     link: packets queued on the link's own
 *                                    qdisc (traffic sent to the link directly)
 *   TCA_STRIPE_QUANTUM       u32     master: bytes a weight-1 link may send per
 *                                    round, STRIPE_QUANTUM_MIN..MAX
 *   TCA_STRIPE_REORDER       u8      master: enum stripe_reorder_mode
 *   TCA_STRIPE_HOLD_MAX_US   u32     master: upper bound on how long the
 *                                    receiver holds a packet behind a gap
 *   TCA_STRIPE_FLOW_LIMIT    u32     master: packets held per flow
 *   TCA_STRIPE_BUFFER_LIMIT  u32     master: packets held in all
 *   TCA_STRIPE_STRIPE_MIN    u32     master: bytes a flow sends before it is
 *                                    striped; below, it stays on one link
 *   TCA_STRIPE_HOLD_AUTO     u8      master: 1 = the hold bound is hold-max
 *                                    plus twice the largest measured skew
 *   TCA_STRIPE_PROBE_TARGET  be32    master: with reorder off, an IPv4
 *                                    address each link sends ARP requests to
 *                                    (sender address 0, as RFC 5227's
 *                                    probes); a link that had no reply for
 *                                    STRIPE_PROBE_MISSED intervals leaves
 *                                    rotation (flag "lost"), as bonding's
 *                                    arp_ip_target.  0: no probing
 *   TCA_STRIPE_PROBE_INTERVAL_US u32 master: time between probes,
 *                                    STRIPE_PROBE_INTERVAL_US_MIN..MAX
 *   TCA_STRIPE_PROBE_TARGET6 16 bytes master: the same with an IPv6
 *                                    address and neighbour solicitations
 *                                    (from the link's link-local address),
 *                                    as bonding's ns_ip6_target; :: none.
 *                                    With both targets set, a reply to
 *                                    either counts
 *   TCA_STRIPE_MEMORY_LIMIT  u32     master: bytes (truesize) held in all,
 *                                    STRIPE_MEMORY_LIMIT_MIN..MAX
 *
 * Statistics
 * ----------
 * The qdisc's application statistics (TCA_STATS_APP) are a stream of nested
 * attributes, not a binary struct, so old tools can read new kernels:
 *
 *   TCA_STRIPE_XSTATS_ROLE     u8      enum stripe_role
 *   TCA_STRIPE_XSTATS_MASTER   nest    TCA_STRIPE_MSTAT_* master totals
 *   TCA_STRIPE_XSTATS_LINKS    nest    one TCA_STRIPE_XSTATS_LINK per link
 *     TCA_STRIPE_XSTATS_LINK   nest    TCA_STRIPE_LSTAT_* for one link
 *   TCA_STRIPE_XSTATS_PEERS    nest    one TCA_STRIPE_XSTATS_PEER per peer
 *     TCA_STRIPE_XSTATS_PEER   nest    TCA_STRIPE_PSTAT_* for one peer
 *
 * On a link only that link's TCA_STRIPE_XSTATS_LINK is sent (inside
 * TCA_STRIPE_XSTATS_LINKS) with the master's name in TCA_STRIPE_MSTAT_NAME.
 */
#ifndef _UAPI_LINUX_STRIPE_H
#define _UAPI_LINUX_STRIPE_H

#include <linux/types.h>

#define STRIPE_KIND		"stripe"

#define STRIPE_WEIGHT_MAX	1000
#define STRIPE_QUANTUM_MIN	256
#define STRIPE_QUANTUM_MAX	(1U << 20)
#define STRIPE_QUANTUM_DEFAULT	1514
#define STRIPE_HOLD_MAX_US_MAX	1000000
#define STRIPE_LIMIT_MAX	(1U << 20)	/* limit, flow-limit, buffer-limit */
#define STRIPE_PROBE_INTERVAL_US_MIN	10000
#define STRIPE_PROBE_INTERVAL_US_MAX	60000000
#define STRIPE_PROBE_INTERVAL_US_DEFAULT	100000
#define STRIPE_PROBE_MISSED	2	/* intervals without a reply: left */
#define STRIPE_MEMORY_LIMIT_MIN	(1U << 16)
#define STRIPE_MEMORY_LIMIT_MAX	(1U << 31)
#define STRIPE_MEMORY_LIMIT_DEFAULT	(1U << 26)	/* 64 MiB */

enum stripe_reorder_mode {
	STRIPE_REORDER_OFF,	/* plain frames: any receiver, even teql */
	STRIPE_REORDER_ON,	/* stripe header, receiver resequences */
	__STRIPE_REORDER_MAX
};

#define STRIPE_REORDER_MAX	(__STRIPE_REORDER_MAX - 1)

enum stripe_role {
	STRIPE_ROLE_MASTER,
	STRIPE_ROLE_LINK,
};

/* TCA_OPTIONS */
enum {
	TCA_STRIPE_UNSPEC,
	TCA_STRIPE_MASTER,		/* string, < IFNAMSIZ */
	TCA_STRIPE_WEIGHT,		/* u32 */
	TCA_STRIPE_LIMIT,		/* u32 */
	TCA_STRIPE_QUANTUM,		/* u32 */
	TCA_STRIPE_REORDER,		/* u8 */
	TCA_STRIPE_HOLD_MAX_US,		/* u32 */
	TCA_STRIPE_FLOW_LIMIT,		/* u32 */
	TCA_STRIPE_BUFFER_LIMIT,	/* u32 */
	TCA_STRIPE_STRIPE_MIN,		/* u32 */
	TCA_STRIPE_HOLD_AUTO,		/* u8, 0 or 1 */
	TCA_STRIPE_PROBE_TARGET,	/* be32, IPv4 address; 0: none */
	TCA_STRIPE_PROBE_INTERVAL_US,	/* u32 */
	TCA_STRIPE_PROBE_TARGET6,	/* struct in6_addr; :: none */
	TCA_STRIPE_MEMORY_LIMIT,	/* u32 */
	__TCA_STRIPE_MAX
};

#define TCA_STRIPE_MAX	(__TCA_STRIPE_MAX - 1)

/* IFLA_INFO_DATA of a master: the same options as the TCA_STRIPE_* of the
 * qdisc on the master, with the same ranges
 */
enum {
	IFLA_STRIPE_UNSPEC,
	IFLA_STRIPE_REORDER,		/* u8: enum stripe_reorder_mode */
	IFLA_STRIPE_HOLD_MAX_US,	/* u32: 1..STRIPE_HOLD_MAX_US_MAX */
	IFLA_STRIPE_HOLD_AUTO,		/* u8: 0 or 1 */
	IFLA_STRIPE_QUANTUM,		/* u32: STRIPE_QUANTUM_MIN..MAX */
	IFLA_STRIPE_FLOW_LIMIT,		/* u32: 1..STRIPE_LIMIT_MAX */
	IFLA_STRIPE_BUFFER_LIMIT,	/* u32: 1..STRIPE_LIMIT_MAX */
	IFLA_STRIPE_STRIPE_MIN,		/* u32: bytes */
	IFLA_STRIPE_PROBE_TARGET,	/* be32: IPv4 address; 0: none */
	IFLA_STRIPE_PROBE_INTERVAL_US,	/* u32: STRIPE_PROBE_INTERVAL_US_MIN..MAX */
	IFLA_STRIPE_PROBE_TARGET6,	/* struct in6_addr; :: none */
	IFLA_STRIPE_MEMORY_LIMIT,	/* u32: STRIPE_MEMORY_LIMIT_MIN..MAX */
	__IFLA_STRIPE_MAX
};

#define IFLA_STRIPE_MAX	(__IFLA_STRIPE_MAX - 1)

/* IFLA_INFO_SLAVE_DATA of a link */
enum {
	IFLA_STRIPE_LINK_UNSPEC,
	IFLA_STRIPE_LINK_WEIGHT,	/* u32: 0 = from the link speed,
					 * else 1..STRIPE_WEIGHT_MAX
					 */
	IFLA_STRIPE_LINK_LIMIT,		/* u32: packets, 1..STRIPE_LIMIT_MAX */
	IFLA_STRIPE_LINK_ID,		/* u32, read only: id on the wire */
	IFLA_STRIPE_LINK_FLAGS,		/* u32, read only: STRIPE_LINK_F_* */
	IFLA_STRIPE_LINK_WEIGHT_USED,	/* u32, read only: weight in force */
	IFLA_STRIPE_LINK_SPEED,		/* u32, read only: Mbit/s */
	__IFLA_STRIPE_LINK_MAX
};

#define IFLA_STRIPE_LINK_MAX	(__IFLA_STRIPE_LINK_MAX - 1)

/* TCA_STATS_APP */
enum {
	TCA_STRIPE_XSTATS_UNSPEC,
	TCA_STRIPE_XSTATS_ROLE,		/* u8 */
	TCA_STRIPE_XSTATS_MASTER,	/* nest */
	TCA_STRIPE_XSTATS_LINKS,	/* nest */
	TCA_STRIPE_XSTATS_LINK,		/* nest, inside XSTATS_LINKS */
	TCA_STRIPE_XSTATS_PEERS,	/* nest, on a master */
	TCA_STRIPE_XSTATS_PEER,		/* nest, inside XSTATS_PEERS */
	__TCA_STRIPE_XSTATS_MAX
};

#define TCA_STRIPE_XSTATS_MAX	(__TCA_STRIPE_XSTATS_MAX - 1)

/* Inside TCA_STRIPE_XSTATS_MASTER; counters are u64 unless noted */
enum {
	TCA_STRIPE_MSTAT_UNSPEC,
	TCA_STRIPE_MSTAT_PAD,
	TCA_STRIPE_MSTAT_NAME,		/* string */
	TCA_STRIPE_MSTAT_LINKS,		/* u32: links joined */
	TCA_STRIPE_MSTAT_ACTIVE,	/* u32: links able to send now */
	TCA_STRIPE_MSTAT_TX_PACKETS,
	TCA_STRIPE_MSTAT_TX_BYTES,
	TCA_STRIPE_MSTAT_TX_BUSY,	/* every link busy: back-pressure */
	TCA_STRIPE_MSTAT_TX_DROPS,	/* no link could take the packet */
	TCA_STRIPE_MSTAT_RX_PACKETS,
	TCA_STRIPE_MSTAT_RX_BYTES,
	/* reorder on: what the receiver did */
	TCA_STRIPE_MSTAT_RX_IN_ORDER,	/* delivered at once */
	TCA_STRIPE_MSTAT_RX_RESEQUENCED, /* delivered after being held */
	TCA_STRIPE_MSTAT_RX_HELD,	/* packets held now */
	TCA_STRIPE_MSTAT_RX_HELD_BYTES,	/* bytes held now */
	TCA_STRIPE_MSTAT_RX_HOLD_MAX_US, /* longest hold seen */
	TCA_STRIPE_MSTAT_RX_LOST_LINK,	/* gaps declared lost: every link passed them */
	TCA_STRIPE_MSTAT_RX_LOST_TIMEOUT, /* gaps declared lost: hold-max expired */
	TCA_STRIPE_MSTAT_RX_LOST_LIMIT,	/* gaps skipped: flow, buffer or
					 * memory limit
					 */
	TCA_STRIPE_MSTAT_RX_LATE,	/* late arrivals passed up out of order,
					 * duplicates of held frames dropped
					 */
	TCA_STRIPE_MSTAT_RX_MALFORMED,	/* bad stripe headers dropped */
	TCA_STRIPE_MSTAT_RX_NO_STATE,	/* passed up unordered: too many senders */
	TCA_STRIPE_MSTAT_SENDER_ID,	/* u32: this master's id on the wire */
	TCA_STRIPE_MSTAT_TX_MARKERS,	/* marker frames sent on idle links */
	TCA_STRIPE_MSTAT_RX_MARKERS,	/* marker frames received */
	TCA_STRIPE_MSTAT_RX_SENDERS,	/* u32: peers with receive state now */
	TCA_STRIPE_MSTAT_RX_HOLD_HIST,	/* nest: TCA_STRIPE_HIST_BUCKET, in order */
	TCA_STRIPE_MSTAT_RX_HOLD_US,	/* u32: the hold bound in force now */
	TCA_STRIPE_MSTAT_RX_LINK_REORDERED, /* frames older than one seen before
					     * on their link: it is not FIFO
					     */
	TCA_STRIPE_MSTAT_TX_FEEDBACK,	/* feedback frames sent */
	TCA_STRIPE_MSTAT_RX_FEEDBACK,	/* feedback frames about this master */
	TCA_STRIPE_MSTAT_RX_FEEDBACK_OTHER, /* ... about another master */
	TCA_STRIPE_MSTAT_RX_WRONG_ADDR,	/* frames with a known sender's id from
					 * another source address than the
					 * one it uses on that link, dropped
					 */
	TCA_STRIPE_MSTAT_RX_FEEDBACK_UNSENT, /* reports from a peer sent no
					     * data lately, not applied
					     */
	TCA_STRIPE_MSTAT_RX_HELD_MEM,	/* memory held now: truesize, bytes */
	TCA_STRIPE_MSTAT_RX_FEEDBACK_UNKNOWN, /* reports from an address that
					       * sends us no data on that link
					       * and gets none, dropped
					       */
	TCA_STRIPE_MSTAT_TX_PEER_LEFT,	/* times a link was left for one next
					 * hop whose peer got nothing on it
					 * while others did
					 */
	TCA_STRIPE_MSTAT_TX_PEER_BACK,	/* ... and taken back for it */
	__TCA_STRIPE_MSTAT_MAX
};

#define TCA_STRIPE_MSTAT_MAX	(__TCA_STRIPE_MSTAT_MAX - 1)

/* Inside TCA_STRIPE_MSTAT_RX_HOLD_HIST: STRIPE_HOLD_HIST_BUCKETS u64
 * attributes of type TCA_STRIPE_HIST_BUCKET, bucket 0 first.  Bucket k
 * counts packets released after a hold shorter than
 * STRIPE_HOLD_HIST_BOUND_US(k) (and not shorter than bucket k-1's bound);
 * the last bucket has no upper bound.
 */
enum {
	TCA_STRIPE_HIST_PAD,
	TCA_STRIPE_HIST_BUCKET,		/* u64, repeated */
	__TCA_STRIPE_HIST_MAX
};

#define TCA_STRIPE_HIST_MAX		(__TCA_STRIPE_HIST_MAX - 1)
#define STRIPE_HOLD_HIST_BUCKETS	8
#define STRIPE_HOLD_HIST_BOUND_US(k)	(16U << (2 * (k)))	/* 16 us .. 64 ms */

/* Inside TCA_STRIPE_XSTATS_PEER: what the receiver keeps of one peer (a
 * sending master, reorder on) heard within the last second; counters are
 * u64 unless noted, since the peer was first heard
 */
enum {
	TCA_STRIPE_PSTAT_UNSPEC,
	TCA_STRIPE_PSTAT_PAD,
	TCA_STRIPE_PSTAT_ID,		/* u32: its sender id */
	TCA_STRIPE_PSTAT_AGE_MS,	/* u32: since its last frame */
	TCA_STRIPE_PSTAT_LINKS,		/* u32: links it was heard on */
	TCA_STRIPE_PSTAT_SILENT,	/* u32: ... that are out of the loss
					 * rule now (silent, or stale after a
					 * hold bound)
					 */
	TCA_STRIPE_PSTAT_SKEW_US,	/* u32: its slowest link's one-way
					 * delay minus its fastest's
					 */
	TCA_STRIPE_PSTAT_FRAMES,	/* data frames */
	TCA_STRIPE_PSTAT_HELD,		/* frames held now */
	TCA_STRIPE_PSTAT_LOST_LINK,	/* gaps the link rule gave up */
	TCA_STRIPE_PSTAT_LOST_TIMEOUT,	/* gaps the hold bound gave up */
	TCA_STRIPE_PSTAT_LATE,		/* frames after their gap was given up */
	__TCA_STRIPE_PSTAT_MAX
};

#define TCA_STRIPE_PSTAT_MAX	(__TCA_STRIPE_PSTAT_MAX - 1)

/* Link state flags, TCA_STRIPE_LSTAT_FLAGS */
#define STRIPE_LINK_F_UP	(1U << 0)	/* admin up and running */
#define STRIPE_LINK_F_CARRIER	(1U << 1)
#define STRIPE_LINK_F_ACTIVE	(1U << 2)	/* joined, up, with carrier */
#define STRIPE_LINK_F_SILENT	(1U << 3)	/* reorder on: the peer is not
						 * heard on it, or reports
						 * that it delivers nothing:
						 * it is left (failover) and
						 * only probed
						 */
#define STRIPE_LINK_F_LOST	(1U << 4)	/* the peer reports that it
						 * delivers nothing (feedback)
						 */
#define STRIPE_LINK_F_DRAINING	(1U << 5)	/* the peer reports that its
						 * frames queue longer than
						 * the other links' by more
						 * than twice hold-max: it
						 * carries next to no data
						 * (only its markers) till
						 * they no longer stand out
						 */

/* TCA_STRIPE_LSTAT_PACE of a link that takes its weight's whole share */
#define STRIPE_PACE_ONE		1024

/* Inside TCA_STRIPE_XSTATS_LINK; counters are u64 unless noted */
enum {
	TCA_STRIPE_LSTAT_UNSPEC,
	TCA_STRIPE_LSTAT_PAD,
	TCA_STRIPE_LSTAT_IFINDEX,	/* u32 */
	TCA_STRIPE_LSTAT_NAME,		/* string */
	TCA_STRIPE_LSTAT_WEIGHT,	/* u32: weight in force */
	TCA_STRIPE_LSTAT_FLAGS,		/* u32: STRIPE_LINK_F_* */
	TCA_STRIPE_LSTAT_TX_PACKETS,
	TCA_STRIPE_LSTAT_TX_BYTES,
	TCA_STRIPE_LSTAT_TX_BUSY,	/* skipped: queue stopped or locked */
	TCA_STRIPE_LSTAT_TX_DROPS,	/* driver refused or header failed */
	TCA_STRIPE_LSTAT_NEIGH_FAIL,	/* next hop not resolved on the link */
	TCA_STRIPE_LSTAT_RX_PACKETS,
	TCA_STRIPE_LSTAT_RX_BYTES,
	TCA_STRIPE_LSTAT_RX_SKEW_US,	/* u32: one-way delay minus the fastest
					 * link's, newest sender; absent until
					 * measured
					 */
	TCA_STRIPE_LSTAT_TX_MARKERS,	/* marker frames sent on this link */
	TCA_STRIPE_LSTAT_LEFT,		/* times the peer's feedback took it
					 * out of rotation
					 */
	TCA_STRIPE_LSTAT_BACK,		/* ... and brought it back */
	TCA_STRIPE_LSTAT_LEFT_AFTER_MS,	/* u32: the last time it left, how
					 * long after it last delivered (the
					 * failover time); absent if never
					 */
	TCA_STRIPE_LSTAT_PACE,		/* u32: the part of its weight's share
					 * the link takes now, in 1/1024
					 * (adaptive shares; 1024 = all)
					 */
	TCA_STRIPE_LSTAT_QUEUE_US,	/* u32: its queueing delay, as the
					 * peer last reported it; absent
					 * without reports
					 */
	TCA_STRIPE_LSTAT_FRAMES_LOST,	/* frames sent on it that the peer
					 * reports lost (its lseq skipped)
					 */
	__TCA_STRIPE_LSTAT_MAX
};

#define TCA_STRIPE_LSTAT_MAX	(__TCA_STRIPE_LSTAT_MAX - 1)

/*
 * Wire format, reorder on (version 4)
 * -----------------------------------
 * Every frame a master sends carries, after the Ethernet header and with
 * EtherType ETH_P_STRIPE (IEEE 802 local experimental 1), this header and
 * then the packet:
 *
 *   version  STRIPE_WIRE_VERSION; frames of other versions are dropped and
 *            counted malformed (both ends run the same release)
 *   flags    STRIPE_WIRE_F_*: a data frame has none; receivers ignore
 *            unknown flags
 *   proto    EtherType of the packet that follows (IPv4 or IPv6); 0 in
 *            a marker or a feedback frame
 *   sender   random id of the sending master
 *   flow     the sender's flow bucket, < STRIPE_FLOW_BUCKETS
 *   link     the sender's id of the link the frame left on, <
 *            STRIPE_WIRE_LINKS: what a feedback report names it by
 *   lseq     sequence of the frames (data and markers) of this sender on
 *            this link to this destination address, wrapping at 256: a
 *            receiver counts the numbers a link skipped as frames it lost
 *            (the link report's lost); 0, and not read, in a frame to a
 *            group address and in a feedback frame
 *   gseq     sequence over every frame of this sender: each link is FIFO,
 *            so once every live link has delivered a later gseq, a
 *            missing frame is lost
 *   fseq     sequence within the flow bucket: the order to restore
 *   tstamp   sender's clock in microseconds (skew measurement)
 *
 * A marker (STRIPE_WIRE_F_MARKER) is the header alone, sent on a link that
 * has been idle while the sender's gseq moved on: it tells the receivers
 * on that link "nothing sent before this gseq is still on this link", so
 * an idle link does not hold up loss detection.  Its proto, flow and fseq
 * are 0 and nothing follows it.  One copy goes to each peer the
 * sender sent data to on that link within the last second, and to each
 * that sent it feedback there within the last second; none when there is
 * none (the broadcast address on a link without addresses, or to more
 * than four).  A marker
 * with STRIPE_WIRE_F_PROBE is sent now and then on a link the sender left
 * (failover), to the peers it sent data to there within 10 s, else to the
 * broadcast address: it shows the receiver the link works, and is not
 * taken as a sign that the sender is active.
 *
 * Feedback (STRIPE_WIRE_F_FEEDBACK) is the receiver's report to a sender
 * on what each of the sender's links delivers: a struct
 * stripe_wire_feedback and then its n struct stripe_wire_link_report, one
 * per link the sender was heard on.  A receiver sends it every
 * STRIPE_FEEDBACK_INTERVAL_MS on every link the sender was heard on, to
 * the source address the sender used there, for as long as the sender
 * was heard within the last second in a data frame sent to the receiver
 * alone (not to a group address: every host on the segment hears those,
 * and none reports on them) or in a probe; each copy carries every link,
 * so a link cut both ways is reported over the others.  A sender takes a
 * report only from a peer it exchanges data with (one of the report's
 * copies came from an address it sent data to on that link, or the
 * reporter sent it data, within the last second;
 * TCA_STRIPE_MSTAT_RX_FEEDBACK_UNSENT counts the others): a host that
 * heard a probe reports links that carry nothing to it.  Each copy counts
 * only from the address the reporter's data comes from on its link
 * (another: TCA_STRIPE_MSTAT_RX_WRONG_ADDR), or, if none does, from one
 * the sender sent data to there, or whose reports counted there, within
 * the last second (TCA_STRIPE_MSTAT_RX_FEEDBACK_UNKNOWN counts the
 * others).  Its proto, flow, link, gseq and fseq are 0; it moves no
 * sequence state.  A report names a link
 * STRIPE_WIRE_LINK_LOST when that link delivered nothing from the sender
 * for STRIPE_FEEDBACK_LOST_MS while the others did, or missed two of the
 * sender's marked bursts in a row (another link carried a newer gseq, it
 * carried nothing): the sender takes it
 * out of rotation at once, and back after reports of it delivering for a
 * while (the hysteresis is the sender's, see Documentation/design.rst).
 * A sender also leaves a link its data went to a peer on when no report
 * came at all for 500 ms since: nobody gets what it sends there.
 * Each report also gives the link's queueing delay: the least one-way
 * delay a frame of it showed since the last report, minus the least it
 * showed in the last 10 to 20 s (its path's own).  The sender gives
 * less to a link that queues clearly longer than the others (adaptive
 * shares, design.rst), so that without typed weights each link carries
 * what its path takes; and the frames the link lost (the lseq numbers it
 * skipped): a link whose loss stands out of the others' is given next to
 * no share, since for one TCP stream a lossy link costs more than it
 * carries.
 *
 * A receiver believes a sender on each link from one source address (see
 * TCA_STRIPE_MSTAT_RX_WRONG_ADDR).
 *
 * Version 3 added queue_us to the link report (16 bytes, was 12); version 4
 * the header's lseq (was reserved) and lost to the link report (20 bytes).
 *
 * All fields are big-endian.
 */
#define ETH_P_STRIPE		0x88B5
#define STRIPE_WIRE_VERSION	4
#define STRIPE_FLOW_BUCKETS	256
#define STRIPE_WIRE_LINKS	64
#define STRIPE_WIRE_F_MARKER	0x01
#define STRIPE_WIRE_F_FEEDBACK	0x02
#define STRIPE_WIRE_F_PROBE	0x04	/* a marker on a link the sender left */

#define STRIPE_WIRE_QUEUE_NONE	0xffffffff
#define STRIPE_FEEDBACK_INTERVAL_MS	10
#define STRIPE_FEEDBACK_LOST_MS		20

struct stripe_wire_hdr {
	__u8	version;
	__u8	flags;
	__be16	proto;
	__be32	sender;
	__be16	flow;
	__u8	link;
	__u8	lseq;
	__be32	gseq;
	__be32	fseq;
	__be32	tstamp;
};

/* After the header of a feedback frame */
struct stripe_wire_feedback {
	__be32	peer;		/* the sender the reports are about */
	__u8	n;		/* reports that follow, <= STRIPE_WIRE_LINKS */
	__u8	reserved[3];
};

enum stripe_wire_link_state {
	STRIPE_WIRE_LINK_DELIVERING = 1,	/* it did lately */
	STRIPE_WIRE_LINK_LOST = 2,	/* nothing while the others did */
	STRIPE_WIRE_LINK_UNKNOWN = 3,	/* nothing since the sender's last
					 * pause, not long enough to tell
					 */
};

struct stripe_wire_link_report {
	__u8	link;		/* the sender's link id (its header's link) */
	__u8	state;		/* enum stripe_wire_link_state */
	__be16	age_ms;		/* since the link last delivered, at most
				 * 0xffff
				 */
	__be32	frames;		/* received on it from the sender, wrapping */
	__be32	bytes;		/* their packets' bytes, wrapping */
	__be32	queue_us;	/* least queueing delay since the last
				 * report, STRIPE_WIRE_QUEUE_NONE if
				 * nothing came
				 */
	__be32	lost;		/* frames the link's lseq skipped, wrapping */
};

#endif /* _UAPI_LINUX_STRIPE_H */
