// SPDX-License-Identifier: GPL-2.0
/* Test parameters and the data connection greeting. The server trusts
 * nothing: every parameter is range-checked as the client's flags are.
 */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "clock.h"
#include "flags.h"
#include "proto.h"

static const uint8_t sp_greet_magic[4] = { 'S', 'P', 'D', '1' };

void sp_params_put(const struct sp_params *p, struct sp_buf *b)
{
	char hex[2 * SP_COOKIE_BYTES + 1];
	unsigned int i;

	for (i = 0; i < SP_COOKIE_BYTES; i++)
		snprintf(hex + 2 * i, 3, "%02x", p->cookie[i]);
	sp_msg_begin(b, "PARAMS");
	sp_msg_kv(b, "version", "%u", p->version);
	sp_msg_kv(b, "protocol", "%s", p->udp ? "udp" : "tcp");
	sp_msg_kv(b, "mptcp", "%d", p->mptcp);
	sp_msg_kv(b, "reverse", "%d", p->reverse);
	sp_msg_kv(b, "streams", "%u", p->streams);
	sp_msg_kv(b, "duration", "%.6f", p->duration);
	sp_msg_kv(b, "interval", "%.6f", p->interval);
	sp_msg_kv(b, "length", "%u", p->len);
	sp_msg_kv(b, "rate", "%llu", (unsigned long long)p->rate);
	sp_msg_kv(b, "udp_port", "%u", p->udp_port);
	sp_msg_kv(b, "cookie", "%s", hex);
	if (p->congestion[0])
		sp_msg_kv(b, "congestion", "%s", p->congestion);
	if (p->window)
		sp_msg_kv(b, "window", "%u", p->window);
	/* optional, as a server that does not know them must not run a
	 * different test: it leaves them out of ACCEPT (sp_accept_check)
	 */
	if (p->bidir)
		sp_msg_kv(b, "bidir", "1");
	if (p->omit > 0)
		sp_msg_kv(b, "omit", "%.6f", p->omit);
	sp_msg_end(b);
}

static int sp_bad(char *err, size_t errlen, const char *what)
{
	snprintf(err, errlen, "bad or missing parameter '%s'", what);
	return -EINVAL;
}

int sp_params_get(const struct sp_msg *m, struct sp_params *p, char *err,
		  size_t errlen)
{
	const char *proto, *hex, *cc;
	uint64_t v;
	unsigned int i, byte;

	memset(p, 0, sizeof(*p));
	if (strcmp(m->verb, "PARAMS"))
		return sp_bad(err, errlen, "PARAMS");
	if (sp_msg_u64(m, "version", &v))
		return sp_bad(err, errlen, "version");
	if (v != SP_PROTO_VER) {
		snprintf(err, errlen,
			 "protocol version %llu, this server speaks %u",
			 (unsigned long long)v, SP_PROTO_VER);
		return -EPROTO;
	}
	p->version = (unsigned int)v;
	proto = sp_msg_get(m, "protocol");
	if (!proto || (strcmp(proto, "tcp") && strcmp(proto, "udp")))
		return sp_bad(err, errlen, "protocol");
	p->udp = !strcmp(proto, "udp");
	if (sp_msg_u64(m, "mptcp", &v) || v > 1 || (v && p->udp))
		return sp_bad(err, errlen, "mptcp");
	p->mptcp = v;
	if (sp_msg_u64(m, "reverse", &v) || v > 1)
		return sp_bad(err, errlen, "reverse");
	p->reverse = v;
	if (!sp_msg_u64(m, "bidir", &v)) {
		if (v > 1 || (v && p->reverse))
			return sp_bad(err, errlen, "bidir");
		p->bidir = v;
	}
	/* --bidir: both directions' connections within SP_MAX_STREAMS */
	if (sp_msg_u64(m, "streams", &v) || !v ||
	    v > SP_MAX_STREAMS / (p->bidir ? 2 : 1))
		return sp_bad(err, errlen, "streams");
	p->streams = (unsigned int)v;
	if (sp_msg_dbl(m, "duration", &p->duration) || !(p->duration > 0) ||
	    p->duration > SP_MAX_TIME)
		return sp_bad(err, errlen, "duration");
	if (sp_msg_dbl(m, "interval", &p->interval) || !(p->interval >= 0) ||
	    p->interval > 3600 || (p->interval > 0 && p->interval < 0.1))
		return sp_bad(err, errlen, "interval");
	if (sp_msg_u64(m, "length", &v) || !v ||
	    v > (p->udp ? SP_MAX_UDP_LEN : SP_MAX_TCP_LEN) ||
	    (p->udp && v < SP_MIN_UDP_LEN))
		return sp_bad(err, errlen, "length");
	p->len = (uint32_t)v;
	if (sp_msg_u64(m, "rate", &p->rate))
		return sp_bad(err, errlen, "rate");
	if (sp_msg_get(m, "omit") &&
	    (sp_msg_dbl(m, "omit", &p->omit) || !(p->omit >= 0) ||
	     p->omit > SP_MAX_OMIT))
		return sp_bad(err, errlen, "omit");
	if (sp_msg_u64(m, "udp_port", &v) || v > 65535 ||
	    (p->udp && (p->reverse || p->bidir) && !v))
		return sp_bad(err, errlen, "udp_port");
	p->udp_port = (unsigned int)v;
	/* optional: an older client sends neither */
	cc = sp_msg_get(m, "congestion");
	if (cc && (!sp_cc_name_ok(cc) || p->udp))
		return sp_bad(err, errlen, "congestion");
	if (cc)
		snprintf(p->congestion, sizeof(p->congestion), "%s", cc);
	if (!sp_msg_u64(m, "window", &v)) {
		if (!v || v > SP_MAX_WINDOW || p->udp)
			return sp_bad(err, errlen, "window");
		p->window = (uint32_t)v;
	}
	hex = sp_msg_get(m, "cookie");
	if (!hex || strlen(hex) != 2 * SP_COOKIE_BYTES)
		return sp_bad(err, errlen, "cookie");
	for (i = 0; i < SP_COOKIE_BYTES; i++) {
		if (sscanf(hex + 2 * i, "%2x", &byte) != 1)
			return sp_bad(err, errlen, "cookie");
		p->cookie[i] = (uint8_t)byte;
	}
	return 0;
}

void sp_accept_put(const struct sp_params *p, unsigned int udp_port,
		   struct sp_buf *b)
{
	sp_msg_begin(b, "ACCEPT");
	sp_msg_kv(b, "udp_port", "%u", udp_port);
	if (p->bidir)
		sp_msg_kv(b, "bidir", "1");
	/* an older server sends TCP unpaced */
	if (!p->udp && p->rate)
		sp_msg_kv(b, "tcp_rate", "%llu", (unsigned long long)p->rate);
	if (p->omit > 0)
		sp_msg_kv(b, "omit", "%.6f", p->omit);
	sp_msg_end(b);
}

int sp_accept_check(const struct sp_msg *m, const struct sp_params *p,
		    char *err, size_t errlen)
{
	uint64_t v = 0;

	sp_msg_u64(m, "bidir", &v);
	if (p->bidir && !v) {
		snprintf(err, errlen, "the server does not know --bidir");
		return -EPROTO;
	}
	if (p->omit > 0 && !sp_msg_get(m, "omit")) {
		snprintf(err, errlen, "the server does not know -O/--omit");
		return -EPROTO;
	}
	/* only a sending server paces; ours does it ourselves */
	if (!p->udp && p->rate && (p->reverse || p->bidir) &&
	    !sp_msg_get(m, "tcp_rate")) {
		snprintf(err, errlen,
			 "the server does not pace TCP (-b without -u)");
		return -EPROTO;
	}
	return 0;
}

void sp_greeting_build(uint8_t *out, const uint8_t *cookie, uint32_t id)
{
	uint32_t be = htobe32(id);

	memcpy(out, sp_greet_magic, 4);
	memcpy(out + 4, cookie, SP_COOKIE_BYTES);
	memcpy(out + 4 + SP_COOKIE_BYTES, &be, 4);
}

int sp_greeting_parse(const uint8_t *in, const uint8_t *cookie,
		      uint32_t *id)
{
	uint32_t be;

	if (memcmp(in, sp_greet_magic, 4) ||
	    memcmp(in + 4, cookie, SP_COOKIE_BYTES))
		return -1;
	memcpy(&be, in + 4 + SP_COOKIE_BYTES, 4);
	*id = be32toh(be);
	return 0;
}

void sp_refuse_busy(int fd)
{
	static const char busy[] =
		"ERROR\nmsg server busy: a test is running\n\n";

	/* a fresh socket has room; the client times out otherwise */
	send(fd, busy, sizeof(busy) - 1, MSG_NOSIGNAL | MSG_DONTWAIT);
	close(fd);
}

void sp_send_error(struct sp_ctrl *c, const char *msg)
{
	struct sp_buf b;

	sp_buf_init(&b);
	sp_msg_begin(&b, "ERROR");
	sp_msg_kv(&b, "msg", "%s", msg);
	sp_msg_end(&b);
	sp_ctrl_send(c, &b, sp_now_ns() + SP_NSEC_PER_SEC);
	sp_buf_free(&b);
}
