/* SPDX-License-Identifier: GPL-2.0 */
/* The sk_buff and sk_buff_head operations reseq.c uses, same semantics. */
#ifndef _KSHIM_SKBUFF_H
#define _KSHIM_SKBUFF_H
#include "../kshim.h"
#include "rbtree.h"

/* As in the kernel, the rbtree node overlays next, prev and dev. */
struct sk_buff {
	union {
		struct {
			struct sk_buff *next;
			struct sk_buff *prev;
			void *dev;
		};
		struct rb_node rbnode;
	};
	unsigned int len;
	unsigned int truesize;
	char cb[48] __attribute__((aligned(8)));
	u64 tag;		/* the tests' own: what this frame was */
};

struct sk_buff_head {
	struct sk_buff *next;
	struct sk_buff *prev;
	u32 qlen;
};

#define rb_to_skb(rb) rb_entry_safe(rb, struct sk_buff, rbnode)

static inline void kfree_skb(struct sk_buff *skb)
{
	if (skb)
		kshim_skbs--;
	free(skb);
}

static inline void __skb_queue_head_init(struct sk_buff_head *list)
{
	list->prev = list->next = (struct sk_buff *)list;
	list->qlen = 0;
}

static inline u32 skb_queue_len(const struct sk_buff_head *list)
{
	return list->qlen;
}

static inline bool skb_queue_empty(const struct sk_buff_head *list)
{
	return list->next == (const struct sk_buff *)list;
}

static inline struct sk_buff *skb_peek(const struct sk_buff_head *list)
{
	struct sk_buff *skb = list->next;

	return skb == (const struct sk_buff *)list ? NULL : skb;
}

static inline struct sk_buff *skb_peek_tail(const struct sk_buff_head *list)
{
	struct sk_buff *skb = list->prev;

	return skb == (const struct sk_buff *)list ? NULL : skb;
}

static inline void __skb_insert(struct sk_buff *n, struct sk_buff *prev,
				struct sk_buff *next, struct sk_buff_head *list)
{
	n->next = next;
	n->prev = prev;
	next->prev = n;
	prev->next = n;
	list->qlen++;
}

static inline void __skb_queue_after(struct sk_buff_head *list,
				     struct sk_buff *prev, struct sk_buff *n)
{
	__skb_insert(n, prev, prev->next, list);
}

static inline void __skb_queue_head(struct sk_buff_head *list,
				    struct sk_buff *n)
{
	__skb_queue_after(list, (struct sk_buff *)list, n);
}

static inline void __skb_queue_tail(struct sk_buff_head *list,
				    struct sk_buff *n)
{
	__skb_insert(n, list->prev, (struct sk_buff *)list, list);
}

static inline struct sk_buff *__skb_dequeue(struct sk_buff_head *list)
{
	struct sk_buff *skb = skb_peek(list);

	if (skb) {
		list->qlen--;
		skb->next->prev = skb->prev;
		skb->prev->next = skb->next;
		skb->next = skb->prev = NULL;
	}
	return skb;
}

static inline void __skb_queue_purge(struct sk_buff_head *list)
{
	struct sk_buff *skb;

	while ((skb = __skb_dequeue(list)))
		kfree_skb(skb);
}

#define skb_queue_reverse_walk(queue, skb) \
	for (skb = (queue)->prev; skb != (struct sk_buff *)(queue); \
	     skb = skb->prev)
#define skb_queue_walk(queue, skb) \
	for (skb = (queue)->next; skb != (struct sk_buff *)(queue); \
	     skb = skb->next)
#endif
