/* SPDX-License-Identifier: GPL-2.0 */
/* Read a device's stripe qdisc statistics over rtnetlink. */
#ifndef SP_STRIPE_NL_H
#define SP_STRIPE_NL_H

#include <stdbool.h>
#include <stddef.h>

#include "results.h"
#include "xstats.h"

/* 0 on success; -ENODEV: no such device; -ENOENT: no stripe qdisc on it;
 * other negative errno on netlink failure. err gets a readable reason.
 */
int sp_stripe_read(const char *dev, struct sp_xstats *x, char *err,
		   size_t errlen);

/* The dump's reader, apart for the unit tests: the first stripe qdisc on
 * ifindex goes to *x and sets found; bad counts malformed ones.
 */
struct sp_dump {
	int ifindex;
	int found;
	int bad;
	struct sp_xstats *x;
};

/* One datagram of the dump (len bytes at buf): 1 for more, 0 at its end,
 * or -errno: from the kernel, or of a foreign port or sequence number.
 */
int sp_dump_batch(const void *buf, int len, unsigned int seq,
		  unsigned int portid, struct sp_dump *d);

/* --stripe-dev: read before the run (a failure is a warning), then after
 * it, and leave the difference, or why there is none, in side->stripe*.
 */
void sp_stripe_begin(const char *dev, struct sp_xstats *before, bool *ok,
		     char *msg, size_t msglen, bool quiet);
void sp_stripe_end(const char *dev, const struct sp_xstats *before,
		   bool before_ok, const char *before_msg,
		   struct sp_side *side, bool quiet);

#endif /* SP_STRIPE_NL_H */
