/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stripe_opts_print.h: the options as "tc qdisc show" and "ip -d link
 * show" print them, from the tables both parse with (stripe_plugin.h):
 * the same words in text, the same keys and types in JSON.
 */
#ifndef _STRIPE_OPTS_PRINT_H
#define _STRIPE_OPTS_PRINT_H

#include <stddef.h>
#include <linux/rtnetlink.h>

#include "stripe_plugin.h"

/*
 * Option @o if @tb (@max + 1 attributes by type, as tc and ip parse them)
 * holds it: "NAME VALUE " in text, as the option is typed; in JSON NAME
 * with '_' for '-' ("hold-max": "hold_max_us", a time in microseconds),
 * a number, a string (a device, an address) or a boolean (on/off).
 * "weight auto" is text only: JSON has no weight then, as tc's kernel
 * sends none.  An address of zeros (none) is not printed.
 */
void stripe_opt_print(const struct stripe_opt *o, struct rtattr *const tb[],
		      int max);

/* Each of @opts, in their order */
void stripe_opts_print(const struct stripe_opt *opts, size_t nopts,
		       struct rtattr *const tb[], int max);

#endif /* _STRIPE_OPTS_PRINT_H */
