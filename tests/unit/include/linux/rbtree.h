/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The rbtree calls reseq.c uses, same semantics, as a plain binary search
 * tree: the tests need the order, not the balance (the kernel's own
 * lib/rbtree.c keeps that).
 */
#ifndef _KSHIM_RBTREE_H
#define _KSHIM_RBTREE_H
#include "../kshim.h"

struct rb_node {
	struct rb_node *rb_parent;
	struct rb_node *rb_right;
	struct rb_node *rb_left;
};

struct rb_root {
	struct rb_node *rb_node;
};

struct rb_root_cached {
	struct rb_root rb_root;
	struct rb_node *rb_leftmost;
};

#define RB_ROOT_CACHED ((struct rb_root_cached){ { NULL }, NULL })
#define rb_entry(ptr, type, member) container_of(ptr, type, member)
#define rb_entry_safe(ptr, type, member) \
	({ typeof(ptr) ____ptr = (ptr); \
	   ____ptr ? rb_entry(____ptr, type, member) : NULL; })

static inline struct rb_node *rb_first(const struct rb_root *root)
{
	struct rb_node *n = root->rb_node;

	while (n && n->rb_left)
		n = n->rb_left;
	return n;
}

static inline struct rb_node *rb_last(const struct rb_root *root)
{
	struct rb_node *n = root->rb_node;

	while (n && n->rb_right)
		n = n->rb_right;
	return n;
}

static inline struct rb_node *rb_next(const struct rb_node *n)
{
	struct rb_node *p;

	if (n->rb_right) {
		n = n->rb_right;
		while (n->rb_left)
			n = n->rb_left;
		return (struct rb_node *)n;
	}
	while ((p = n->rb_parent) && n == p->rb_right)
		n = p;
	return p;
}

#define rb_first_cached(root) ((root)->rb_leftmost)

static inline void rb_link_node(struct rb_node *node, struct rb_node *parent,
				struct rb_node **link)
{
	node->rb_parent = parent;
	node->rb_left = node->rb_right = NULL;
	*link = node;
}

static inline void rb_insert_color_cached(struct rb_node *node,
					  struct rb_root_cached *root,
					  bool leftmost)
{
	if (leftmost)
		root->rb_leftmost = node;
}

/* Put @new where @old hangs from its parent (or the root) */
static inline void kshim_rb_replace(struct rb_root *root, struct rb_node *old,
				    struct rb_node *new)
{
	struct rb_node *p = old->rb_parent;

	if (!p)
		root->rb_node = new;
	else if (p->rb_left == old)
		p->rb_left = new;
	else
		p->rb_right = new;
	if (new)
		new->rb_parent = p;
}

static inline void rb_erase_cached(struct rb_node *n,
				   struct rb_root_cached *root)
{
	struct rb_root *r = &root->rb_root;
	struct rb_node *s;

	if (root->rb_leftmost == n)
		root->rb_leftmost = rb_next(n);
	if (!n->rb_left) {
		kshim_rb_replace(r, n, n->rb_right);
	} else if (!n->rb_right) {
		kshim_rb_replace(r, n, n->rb_left);
	} else {
		s = n->rb_right;
		while (s->rb_left)
			s = s->rb_left;
		if (s->rb_parent != n) {
			kshim_rb_replace(r, s, s->rb_right);
			s->rb_right = n->rb_right;
			s->rb_right->rb_parent = s;
		}
		kshim_rb_replace(r, n, s);
		s->rb_left = n->rb_left;
		s->rb_left->rb_parent = s;
	}
	n->rb_parent = n->rb_left = n->rb_right = NULL;
}
#endif
