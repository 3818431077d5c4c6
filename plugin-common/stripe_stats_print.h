/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stripe_stats_print.h: the statistics as "tc -s qdisc show" and
 * "ip -s -d link show" print them, through iproute2's print_*() helpers
 * (iproute2_abi.h): one printer, so both give the same text lines and
 * the same JSON (keys from include/stripe_stats_names.h, counters as
 * numbers, link flags as an array of names).
 */
#ifndef _STRIPE_STATS_PRINT_H
#define _STRIPE_STATS_PRINT_H

#include <linux/types.h>
#include <linux/rtnetlink.h>

/*
 * The attributes of TCA_STATS_APP (tc) or IFLA_INFO_XSTATS (ip): text
 * lines that begin with @indent (the first on the current line), and in
 * JSON "role", the object "master" and the arrays "links" and "peers",
 * in the object open.
 */
void stripe_stats_print(const struct rtattr *xstats, const char *indent);

/* "flags up,carrier" ("flags none"), or the array "flags" in JSON */
void stripe_link_flags_print(__u32 flags);

#endif /* _STRIPE_STATS_PRINT_H */
