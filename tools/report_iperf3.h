/* SPDX-License-Identifier: GPL-2.0 */
/* -J output in iperf3's shape, for the tools that read iperf3's. */
#ifndef SP_REPORT_IPERF3_H
#define SP_REPORT_IPERF3_H

#include "json.h"
#include "report.h"

/* Members of the "start" object (already open). */
void sp_iperf3_start(struct sp_json *j, const struct sp_test_info *t);
/* "intervals": this end's rows, per stream and summed. */
void sp_iperf3_intervals(struct sp_json *j, const struct sp_side *local);
/* "end": whole-test figures of the sending and the receiving side. */
void sp_iperf3_end(struct sp_json *j, const struct sp_test_info *t,
		   const struct sp_side *snd, const struct sp_side *rcv);

#endif /* SP_REPORT_IPERF3_H */
