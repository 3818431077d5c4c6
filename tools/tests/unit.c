// SPDX-License-Identifier: GPL-2.0
/* Host unit tests: every suite links the tool's own object files. */
#include "tap.h"

int tap_n, tap_failed;

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	test_reorder();
	test_pattern();
	test_owd();
	test_flags();
	test_json();
	test_xstats();
	test_ctrl();
	test_udp();
	test_report();
	printf("1..%d\n", tap_n);
	printf("unit: %d passed, %d failed\n", tap_n - tap_failed, tap_failed);
	return tap_failed ? 1 : 0;
}
