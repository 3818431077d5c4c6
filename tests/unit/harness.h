/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by the resequencer's unit tests and its fuzzer: build frames the
 * way the wire carries them and feed them to kernel/reseq.c.
 */
#ifndef _RESEQ_HARNESS_H
#define _RESEQ_HARNESS_H

#include <linux/if_ether.h>

#include "reseq.h"

/* The header a sender would put on the wire. */
static inline struct stripe_wire_hdr wire_hdr(u32 sender, u16 flow, u32 gseq,
					       u32 fseq, bool marker)
{
	struct stripe_wire_hdr h = {
		.version = STRIPE_WIRE_VERSION,
		.flags = marker ? STRIPE_WIRE_F_MARKER : 0,
		.proto = marker ? 0 : htons(ETH_P_IP),
		.sender = htonl(sender),
		.flow = htons(marker ? 0 : flow),
		.gseq = htonl(gseq),
		.fseq = htonl(marker ? 0 : fseq),
	};
	return h;
}

/* What a frame's buffer takes beyond its data, as truesize counts it */
#define FRAME_OVERHEAD	1024

static inline struct sk_buff *frame_skb(unsigned int len, u64 tag)
{
	struct sk_buff *skb = calloc(1, sizeof(*skb));

	assert(skb);
	skb->len = len;
	skb->truesize = len + FRAME_OVERHEAD;
	skb->tag = tag;
	kshim_skbs++;
	return skb;
}

/* What rx.c's pool work does where it may sleep: the resequencer gets
 * the states new senders take
 */
static inline void fill_pool(struct stripe_reseq *r)
{
	while (!kshim_fail_alloc && r->pool_n < STRIPE_RX_POOL) {
		struct stripe_rx_sender *s = kvzalloc(sizeof(*s), GFP_KERNEL);

		assert(s && stripe_reseq_pool_put(r, s));
	}
}

/* Parse @h as the receive path does, then hand it to the resequencer.
 * Returns the parse result; on error the frame is dropped and counted,
 * as rx.c does.
 */
static inline int feed(struct stripe_reseq *r, const struct stripe_reseq_cfg *cfg,
		       u32 link, const void *hdr, unsigned int hlen, u64 tag,
		       u64 now_ns, s32 owd_us)
{
	struct stripe_reseq_now now = { .ns = now_ns, .owd_us = owd_us };
	struct stripe_wire_info wi;
	int err = stripe_wire_parse(hdr, hlen, &wi);

	if (err) {
		r->stats.malformed++;
		return err;
	}
	stripe_reseq_frame(r, cfg, link, &wi, frame_skb(1000, tag), &now);
	fill_pool(r);
	return 0;
}

#endif
