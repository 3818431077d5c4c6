/* SPDX-License-Identifier: GPL-2.0 */
/* The two roles; each returns the process exit code. */
#ifndef SP_RUNNER_H
#define SP_RUNNER_H

#include <signal.h>
#include <stdbool.h>

#include "flags.h"

extern volatile sig_atomic_t sp_interrupted;

int sp_client_run(const struct sp_opts *o);
int sp_server_run(const struct sp_opts *o);

#endif /* SP_RUNNER_H */
