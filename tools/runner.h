/* SPDX-License-Identifier: GPL-2.0 */
/* The two roles; each returns the process exit code. */
#ifndef SP_RUNNER_H
#define SP_RUNNER_H

#include <signal.h>
#include <stdbool.h>

#include "flags.h"
#include "results.h"

extern volatile sig_atomic_t sp_interrupted;

int sp_client_run(const struct sp_opts *o);
int sp_server_run(const struct sp_opts *o);

/* Fill side->stripe* from --stripe-dev readings (stripe_nl.c). */
void sp_stripe_begin(const char *dev, struct sp_xstats *before, bool *ok,
		     char *msg, size_t msglen, bool quiet);
void sp_stripe_end(const char *dev, const struct sp_xstats *before,
		   bool before_ok, const char *before_msg,
		   struct sp_side *side, bool quiet);

#endif /* SP_RUNNER_H */
