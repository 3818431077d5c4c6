// SPDX-License-Identifier: GPL-2.0
/* The pattern is one pseudo-random table of SP_PAT_PERIOD bytes, extended by
 * SP_PAT_MAXLEN so any slice is contiguous: senders transmit straight from
 * it and receivers memcmp() against it, so checking costs about as much as
 * a copy. A stream starts at its own place in the table; a UDP datagram
 * starts at a hash of (stream, seq).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pattern.h"

static uint8_t *sp_pat;

static uint64_t sp_mix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

int sp_pattern_init(void)
{
	size_t i, n = SP_PAT_PERIOD + SP_PAT_MAXLEN;
	uint64_t w = 0;

	if (sp_pat)
		return 0;
	sp_pat = malloc(n);
	if (!sp_pat)
		return -ENOMEM;
	for (i = 0; i < SP_PAT_PERIOD; i++) {
		if (!(i & 7))
			w = sp_mix64(i >> 3);
		sp_pat[i] = (uint8_t)(w >> ((i & 7) * 8));
	}
	for (; i < n; i++)
		sp_pat[i] = sp_pat[i - SP_PAT_PERIOD];
	return 0;
}

static size_t sp_idx_tcp(uint32_t stream, uint64_t off)
{
	uint64_t base = sp_mix64(0x5350544350ULL ^ stream) % SP_PAT_PERIOD;

	return (size_t)((base + off % SP_PAT_PERIOD) % SP_PAT_PERIOD);
}

static size_t sp_idx_udp(uint32_t stream, uint64_t seq)
{
	return (size_t)(sp_mix64(sp_mix64(stream) ^ seq) % SP_PAT_PERIOD);
}

const uint8_t *sp_pattern_tcp(uint32_t stream, uint64_t off, size_t len)
{
	(void)len;
	return sp_pat + sp_idx_tcp(stream, off);
}

const uint8_t *sp_pattern_udp(uint32_t stream, uint64_t seq, size_t len)
{
	(void)len;
	return sp_pat + sp_idx_udp(stream, seq);
}

/* Slow path, only once memcmp() found a difference. */
static size_t sp_count_diff(const uint8_t *a, const uint8_t *b, size_t len,
			    size_t *first_bad)
{
	size_t i, bad = 0;

	for (i = 0; i < len; i++) {
		if (a[i] == b[i])
			continue;
		if (!bad && first_bad)
			*first_bad = i;
		bad++;
	}
	return bad;
}

static size_t sp_check(const uint8_t *buf, size_t len, size_t idx,
		       size_t *first_bad)
{
	size_t done = 0, n, bad = 0, fb;

	while (done < len) {
		n = len - done;
		if (n > SP_PAT_MAXLEN)
			n = SP_PAT_MAXLEN;
		if (memcmp(buf + done, sp_pat + idx, n)) {
			fb = 0;
			if (!bad && first_bad) {
				bad = sp_count_diff(buf + done, sp_pat + idx,
						    n, &fb);
				*first_bad = done + fb;
			} else {
				bad += sp_count_diff(buf + done, sp_pat + idx,
						     n, NULL);
			}
		}
		done += n;
		idx = (idx + n) % SP_PAT_PERIOD;
	}
	return bad;
}

size_t sp_pattern_check_tcp(const void *buf, size_t len, uint32_t stream,
			    uint64_t off, size_t *first_bad)
{
	return sp_check(buf, len, sp_idx_tcp(stream, off), first_bad);
}

size_t sp_pattern_check_udp(const void *buf, size_t len, uint32_t stream,
			    uint64_t seq, size_t *first_bad)
{
	return sp_check(buf, len, sp_idx_udp(stream, seq), first_bad);
}
