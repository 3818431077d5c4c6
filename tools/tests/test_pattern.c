// SPDX-License-Identifier: GPL-2.0
/* The payload pattern: what a sender writes checks clean, a flipped byte,
 * a shifted segment or another stream's bytes are caught.
 */
#include <stdlib.h>
#include <string.h>

#include "../pattern.h"
#include "tap.h"

void test_pattern(void)
{
	size_t len = 3 * SP_PAT_PERIOD, off, n, first = 0;
	uint8_t *buf = malloc(len);

	ok(sp_pattern_init() == 0 && buf, "pattern table built");
	/* build 3 periods piecewise, like a sender's successive writes */
	for (off = 0; off < len; off += n) {
		n = len - off < 100000 ? len - off : 100000;
		memcpy(buf + off, sp_pattern_tcp(7, off, n), n);
	}
	ok(sp_pattern_check_tcp(buf, len, 7, 0, NULL) == 0,
	   "TCP pattern written in pieces checks clean across the period");
	ok(sp_pattern_check_tcp(buf + 12345, 54321, 7, 12345, NULL) == 0,
	   "TCP pattern checks clean from any offset");
	buf[1234567] ^= 0x10;
	ok(sp_pattern_check_tcp(buf, len, 7, 0, &first) == 1 &&
	   first == 1234567, "a flipped byte is caught at its offset");
	buf[1234567] ^= 0x10;
	ok(sp_pattern_check_tcp(buf, 1448, 8, 0, NULL) > 1400,
	   "another stream's bytes do not match");
	ok(sp_pattern_check_tcp(buf + 1448, 1448, 7, 0, NULL) > 1400,
	   "a segment at the wrong offset does not match");

	memcpy(buf, sp_pattern_udp(3, 99, 1416), 1416);
	ok(sp_pattern_check_udp(buf, 1416, 3, 99, NULL) == 0,
	   "UDP payload of (stream 3, seq 99) checks clean");
	ok(sp_pattern_check_udp(buf, 1416, 3, 100, NULL) > 1300,
	   "UDP payload checked as another seq does not match");
	ok(sp_pattern_check_udp(buf, 1416, 4, 99, NULL) > 1300,
	   "UDP payload checked as another stream does not match");
	buf[0] ^= 1;
	ok(sp_pattern_check_udp(buf, 1416, 3, 99, &first) == 1 && first == 0,
	   "UDP flipped first byte is caught");
	free(buf);
}
