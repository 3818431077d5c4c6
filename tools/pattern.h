/* SPDX-License-Identifier: GPL-2.0 */
/* Payload pattern: every byte a stream carries is a function of (stream id,
 * byte offset) for TCP and (stream id, sequence number) for UDP, so the
 * receiver can prove that nothing was lost, duplicated or corrupted.
 */
#ifndef SP_PATTERN_H
#define SP_PATTERN_H

#include <stddef.h>
#include <stdint.h>

/* Prime period: no write size or MSS divides it, so a segment shifted by
 * any realistic amount does not match its new place.
 */
#define SP_PAT_PERIOD	1048573u
#define SP_PAT_MAXLEN	(1024u * 1024u)	/* longest slice handed out */

int sp_pattern_init(void);

/* Pointer to len (<= SP_PAT_MAXLEN) pattern bytes for that position. */
const uint8_t *sp_pattern_tcp(uint32_t stream, uint64_t off, size_t len);
const uint8_t *sp_pattern_udp(uint32_t stream, uint64_t seq, size_t len);

/* Compare buf to the pattern; returns the number of differing bytes and, if
 * any differ and first_bad is set, the offset of the first one within buf.
 */
size_t sp_pattern_check_tcp(const void *buf, size_t len, uint32_t stream,
			    uint64_t off, size_t *first_bad);
size_t sp_pattern_check_udp(const void *buf, size_t len, uint32_t stream,
			    uint64_t seq, size_t *first_bad);

#endif /* SP_PATTERN_H */
