/* SPDX-License-Identifier: GPL-2.0 */
/* Read a device's stripe qdisc statistics over rtnetlink. */
#ifndef SP_STRIPE_NL_H
#define SP_STRIPE_NL_H

#include <stddef.h>

#include "xstats.h"

/* 0 on success; -ENODEV: no such device; -ENOENT: no stripe qdisc on it;
 * other negative errno on netlink failure. err gets a readable reason.
 */
int sp_stripe_read(const char *dev, struct sp_xstats *x, char *err,
		   size_t errlen);

#endif /* SP_STRIPE_NL_H */
