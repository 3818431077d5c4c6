/* SPDX-License-Identifier: GPL-2.0 */
/* Control channel framing. A message is text:
 *
 *   VERB\n
 *   key value\n
 *   ...
 *   \n
 *
 * Keys have no spaces, values no newlines; unknown keys are ignored by the
 * reader so either end may be newer.
 */
#ifndef SP_CTRL_H
#define SP_CTRL_H

#include <stddef.h>
#include <stdint.h>

#define SP_CTRL_MAX_MSG	(8u << 20)
/* What a server reads from a client: parameters, DONE, ERROR. A remote
 * peer must not make it buffer megabytes per connection.
 */
#define SP_CTRL_MAX_REQ	(64u << 10)

struct sp_buf {
	char *p;
	size_t len;
	size_t cap;
	int oom;
};

void sp_buf_init(struct sp_buf *b);
void sp_buf_free(struct sp_buf *b);
void sp_buf_printf(struct sp_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

void sp_msg_begin(struct sp_buf *b, const char *verb);
void sp_msg_kv(struct sp_buf *b, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void sp_msg_end(struct sp_buf *b);

struct sp_msg {
	char *text;	/* owned; keys and values point into it */
	const char *verb;
	unsigned int n;
	unsigned int cap;
	const char **key;
	const char **val;
};

/* Takes ownership of text (malloc'ed, NUL terminated). */
int sp_msg_parse(char *text, struct sp_msg *m);
void sp_msg_free(struct sp_msg *m);
const char *sp_msg_get(const struct sp_msg *m, const char *key);
int sp_msg_u64(const struct sp_msg *m, const char *key, uint64_t *v);
/* A finite number only: "nan" and "inf" are -EINVAL. */
int sp_msg_dbl(const struct sp_msg *m, const char *key, double *v);

struct sp_ctrl {
	int fd;
	size_t max_msg;	/* longest message accepted */
	char *in;
	size_t len;
	size_t cap;
};

void sp_ctrl_init(struct sp_ctrl *c, int fd);
void sp_ctrl_close(struct sp_ctrl *c);
/* fd must be non-blocking; -ETIMEDOUT past the deadline (CLOCK_MONOTONIC) */
int sp_ctrl_send(struct sp_ctrl *c, const struct sp_buf *b,
		 int64_t deadline_ns);
/* 1: m holds a message; 0: not complete yet; -ECONNRESET on EOF */
int sp_ctrl_try(struct sp_ctrl *c, struct sp_msg *m);
int sp_ctrl_recv(struct sp_ctrl *c, struct sp_msg *m, int64_t deadline_ns);

#endif /* SP_CTRL_H */
