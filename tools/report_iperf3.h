/* SPDX-License-Identifier: GPL-2.0 */
/* -J output in iperf3's shape, for the tools that read iperf3's. */
#ifndef SP_REPORT_IPERF3_H
#define SP_REPORT_IPERF3_H

#include "json.h"
#include "report.h"

/* Members of the "start" object (already open). */
void sp_iperf3_start(struct sp_json *j, const struct sp_test_info *t);
/* "intervals": this end's rows, per stream and summed; with --bidir the
 * reverse direction's (rev) too, as sum_bidir_reverse.
 */
void sp_iperf3_intervals(struct sp_json *j, const struct sp_side *local,
			 const struct sp_side *rev);
/* One element of "intervals", as key: a row of local's (a) and, with
 * --bidir, the reverse direction's row of the same time (b). A row is
 * the side's ivw entries, the sum last; either may be NULL, the other's
 * times then stand for it.
 */
void sp_iperf3_interval(struct sp_json *j, const char *key,
			const struct sp_side *local, const struct sp_ival *a,
			const struct sp_side *rev, const struct sp_ival *b);
/* The sending and receiving sides of one direction (either may be NULL) */
struct sp_i3_dir {
	const struct sp_side *snd;
	const struct sp_side *rcv;
};

/* Members of "end" (already open): whole-test figures of the forward
 * direction, and with --bidir (rev not NULL) of the reverse one as the
 * *_bidir_reverse sums; CPU use of this end (local) and the peer
 * (remote, NULL: not known).
 */
void sp_iperf3_end(struct sp_json *j, const struct sp_test_info *t,
		   const struct sp_i3_dir *fwd, const struct sp_i3_dir *rev,
		   const struct sp_side *local, const struct sp_side *remote);

#endif /* SP_REPORT_IPERF3_H */
