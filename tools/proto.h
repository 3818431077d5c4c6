/* SPDX-License-Identifier: GPL-2.0 */
/* The test protocol on top of the control framing (ctrl.h):
 *
 *   client                         server
 *   PARAMS (what to run)   ->
 *                          <-      ACCEPT (UDP port; bidir, omit and a
 *                                  TCP rate echoed) or ERROR (msg)
 *   data connections, each opening with a greeting (TCP only)
 *                          <-      START
 *   ... data phase; the sender ends it with DONE (counts sent) ...
 *                          <-      RESULTS (the server's side)
 *                          <-      RESULTS (--bidir: its reverse side)
 *
 * With --bidir both ends send and receive at once, each direction with
 * its own streams, and each end's sending direction ends with its DONE.
 */
#ifndef SP_PROTO_H
#define SP_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ctrl.h"
#include "flags.h"

#define SP_PROTO_VER	2	/* 2: cookie in every datagram */
#define SP_COOKIE_BYTES	16
#define SP_GREET_LEN	24	/* "SPD1", cookie, stream id (BE) */

struct sp_params {
	unsigned int version;
	bool udp;
	bool mptcp;
	bool reverse;
	bool bidir;		/* both ways: the reverse's ids follow */
	unsigned int streams;
	double duration;
	double interval;
	double omit;		/* seconds before the results start */
	uint32_t len;
	uint64_t rate;
	unsigned int udp_port;	/* reverse UDP: the client's receive port */
	char congestion[SP_CC_NAME_MAX + 1];	/* "": the system's */
	uint32_t window;	/* socket buffers, 0: the system's */
	uint8_t cookie[SP_COOKIE_BYTES];
};

void sp_params_put(const struct sp_params *p, struct sp_buf *b);
/* Validates every field; err names the bad one. */
int sp_params_get(const struct sp_msg *m, struct sp_params *p, char *err,
		  size_t errlen);

/* ACCEPT, echoing what an older server would not have run; the client
 * checks the echo (-EPROTO, err says which option).
 */
void sp_accept_put(const struct sp_params *p, unsigned int udp_port,
		   struct sp_buf *b);
int sp_accept_check(const struct sp_msg *m, const struct sp_params *p,
		    char *err, size_t errlen);

void sp_greeting_build(uint8_t *out, const uint8_t *cookie, uint32_t id);
/* 0 and *id on a match; -1 if it is not a greeting for this test */
int sp_greeting_parse(const uint8_t *in, const uint8_t *cookie,
		      uint32_t *id);

/* Best-effort "server busy" ERROR on a fresh connection, then close it. */
void sp_refuse_busy(int fd);

/* Best-effort ERROR message before closing. */
void sp_send_error(struct sp_ctrl *c, const char *msg);

#endif /* SP_PROTO_H */
