/* SPDX-License-Identifier: GPL-2.0 */
/* Where the output goes: --logfile and --timestamps, as iperf3 has them. */
#ifndef SP_OUTPUT_H
#define SP_OUTPUT_H

/* Append stdout and stderr to path. 0, or -errno. */
int sp_output_logfile(const char *path);
/* Start every line of stdout with the time in strftime() format fmt.
 * 0, or -errno.
 */
int sp_output_timestamps(const char *fmt);

#endif /* SP_OUTPUT_H */
