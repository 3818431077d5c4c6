/* SPDX-License-Identifier: GPL-2.0 */
/* --json-stream, as iperf3 3.17 has it: -J's document told as it happens,
 * one JSON object a line, each flushed when written:
 *
 *   {"event":"start","data":START}
 *   {"event":"interval","data":INTERVAL}	one per element of intervals
 *   {"event":"error","data":"MESSAGE"}		a failed test
 *   {"event":"summary","data":SUMMARY}		stripe-perf's own object
 *   {"event":"end","data":END}
 *
 * Each data is what -J writes in that place; a test that failed before
 * it ran ends with error and an empty end, as iperf3's does.
 */
#ifndef SP_REPORT_STREAM_H
#define SP_REPORT_STREAM_H

#include <stdbool.h>
#include <stdio.h>

#include "flags.h"
#include "report.h"

struct sp_jstream {
	FILE *f;
	const struct sp_side *side[2];	/* forward, --bidir reverse */
	int held;			/* whose row is in row[]; -1: none */
	bool ended;
	/* --bidir: a direction's row until the other's of that time */
	struct sp_ival row[SP_MAX_STREAMS + 1];
};

/* The events of one test go to f. */
void sp_jstream_init(struct sp_jstream *js, FILE *f);
/* The test starts; its intervals will be those of the sides fwd and,
 * with --bidir, rev (else NULL).
 */
void sp_jstream_start(struct sp_jstream *js, const struct sp_test_info *t,
		      const struct sp_side *fwd, const struct sp_side *rev);
/* Row k of side s is complete (a session's on_interval). */
void sp_jstream_ival(struct sp_jstream *js, const struct sp_side *s,
		     unsigned int k);
/* The results, as sp_report_json2 takes them. */
void sp_jstream_end(struct sp_jstream *js, const struct sp_test_info *t,
		    const struct sp_side *local, const struct sp_side *remote,
		    const struct sp_side *local_rev,
		    const struct sp_side *remote_rev, const char *error);
/* The test failed with no results: error and an empty end, unless the
 * end is written already.
 */
void sp_jstream_fail(struct sp_jstream *js, const char *error);

#endif /* SP_REPORT_STREAM_H */
