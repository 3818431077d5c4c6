// SPDX-License-Identifier: GPL-2.0
/* stripe-perf: traffic generator and meter for stripe (and teql, bonding,
 * MPTCP for comparison). Exit codes: 0 success, 1 run failed, 2 bad flags.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "flags.h"
#include "output.h"
#include "pattern.h"
#include "report.h"
#include "runner.h"

static void sp_on_signal(int sig)
{
	/* first signal: finish and report; second: default action */
	sp_interrupted = 1;
	signal(sig, SIG_DFL);
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	struct sp_opts o;
	char err[256];
	int ret;

	ret = sp_parse_args(argc, argv, &o, err, sizeof(err));
	switch (ret) {
	case SP_ARGS_OK:
		break;
	case SP_ARGS_HELP:
		sp_usage(stdout);
		return 0;
	case SP_ARGS_VERSION:
		printf("stripe-perf %s\n", SP_VERSION);
		return 0;
	default:
		fprintf(stderr, "stripe-perf: %s\n", err);
		fprintf(stderr, "Try 'stripe-perf -h' for the options.\n");
		return 2;
	}
	if (sp_pattern_init()) {
		fprintf(stderr, "stripe-perf: out of memory\n");
		return 1;
	}
	ret = o.logfile ? sp_output_logfile(o.logfile) : 0;
	if (ret) {
		fprintf(stderr, "stripe-perf: --logfile %s: %s\n", o.logfile,
			strerror(-ret));
		return 1;
	}
	ret = o.timestamps ? sp_output_timestamps(o.timestamps) : 0;
	if (ret) {
		fprintf(stderr, "stripe-perf: --timestamps: %s\n",
			strerror(-ret));
		return 1;
	}
	signal(SIGPIPE, SIG_IGN);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = sp_on_signal;	/* no SA_RESTART: poll wakes up */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	setvbuf(stdout, NULL, _IOLBF, 0);

	if (o.mode == SP_MODE_SERVER)
		return sp_server_run(&o);
	return sp_client_run(&o);
}
