/* SPDX-License-Identifier: GPL-2.0 */
/* Tiny TAP producer shared by the unit tests. */
#ifndef SP_TAP_H
#define SP_TAP_H

#include <stdio.h>

extern int tap_n, tap_failed;

#define ok(cond, ...)							\
	do {								\
		int ok_ = !!(cond);					\
		tap_n++;						\
		if (!ok_)						\
			tap_failed++;					\
		printf("%sok %d - ", ok_ ? "" : "not ", tap_n);		\
		printf(__VA_ARGS__);					\
		printf("\n");						\
		if (!ok_)						\
			printf("#   failed at %s:%d: %s\n", __FILE__,	\
			       __LINE__, #cond);			\
	} while (0)

#define diag(...)							\
	do {								\
		printf("# ");						\
		printf(__VA_ARGS__);					\
		printf("\n");						\
	} while (0)

void test_reorder(void);
void test_pattern(void);
void test_flags(void);
void test_xstats(void);
void test_json(void);
void test_owd(void);
void test_ctrl(void);
void test_udp(void);
void test_report(void);

#endif /* SP_TAP_H */
