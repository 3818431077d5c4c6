// SPDX-License-Identifier: GPL-2.0
/* Control channel: text messages over the control TCP connection. Every
 * wait is bounded by a deadline so a dead peer cannot hang either side.
 */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "clock.h"
#include "ctrl.h"

void sp_buf_init(struct sp_buf *b)
{
	memset(b, 0, sizeof(*b));
}

void sp_buf_free(struct sp_buf *b)
{
	free(b->p);
	sp_buf_init(b);
}

static void sp_buf_vprintf(struct sp_buf *b, const char *fmt, va_list ap)
{
	va_list aq;
	size_t need;
	char *p;
	int n;

	if (b->oom)
		return;
	va_copy(aq, ap);
	n = vsnprintf(b->p ? b->p + b->len : NULL,
		      b->p ? b->cap - b->len : 0, fmt, aq);
	va_end(aq);
	if (n < 0) {
		b->oom = 1;
		return;
	}
	need = b->len + (size_t)n + 1;
	if (need > b->cap) {
		size_t cap = b->cap ? b->cap : 1024;

		while (cap < need)
			cap *= 2;
		p = realloc(b->p, cap);
		if (!p) {
			b->oom = 1;
			return;
		}
		b->p = p;
		b->cap = cap;
		vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
	}
	b->len += (size_t)n;
}

void sp_buf_printf(struct sp_buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sp_buf_vprintf(b, fmt, ap);
	va_end(ap);
}

void sp_msg_begin(struct sp_buf *b, const char *verb)
{
	b->len = 0;
	if (b->p)
		b->p[0] = '\0';
	sp_buf_printf(b, "%s\n", verb);
}

void sp_msg_kv(struct sp_buf *b, const char *key, const char *fmt, ...)
{
	size_t start;
	va_list ap;
	char *p;

	sp_buf_printf(b, "%s ", key);
	start = b->len;
	va_start(ap, fmt);
	sp_buf_vprintf(b, fmt, ap);
	va_end(ap);
	if (b->oom)
		return;
	/* a value must not end the line or the message early */
	for (p = b->p + start; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	sp_buf_printf(b, "\n");
}

void sp_msg_end(struct sp_buf *b)
{
	sp_buf_printf(b, "\n");
}

int sp_msg_parse(char *text, struct sp_msg *m)
{
	char *line, *next, *sp;

	memset(m, 0, sizeof(*m));
	m->text = text;
	line = text;
	next = strchr(line, '\n');
	if (!next || next == line)
		return -EPROTO;
	*next = '\0';
	m->verb = line;
	for (line = next + 1; *line; line = next + 1) {
		next = strchr(line, '\n');
		if (!next)
			return -EPROTO;
		*next = '\0';
		if (!*line)
			break;
		sp = strchr(line, ' ');
		if (sp)
			*sp = '\0';
		if (m->n == m->cap) {
			unsigned int cap = m->cap ? m->cap * 2 : 32;
			const char **k, **v;

			k = realloc(m->key, cap * sizeof(*k));
			if (!k)
				return -ENOMEM;
			m->key = k;
			v = realloc(m->val, cap * sizeof(*v));
			if (!v)
				return -ENOMEM;
			m->val = v;
			m->cap = cap;
		}
		m->key[m->n] = line;
		m->val[m->n] = sp ? sp + 1 : "";
		m->n++;
	}
	return 0;
}

void sp_msg_free(struct sp_msg *m)
{
	free(m->text);
	free(m->key);
	free(m->val);
	memset(m, 0, sizeof(*m));
}

const char *sp_msg_get(const struct sp_msg *m, const char *key)
{
	unsigned int i;

	for (i = 0; i < m->n; i++)
		if (!strcmp(m->key[i], key))
			return m->val[i];
	return NULL;
}

int sp_msg_u64(const struct sp_msg *m, const char *key, uint64_t *v)
{
	const char *s = sp_msg_get(m, key);
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -ENOENT;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno || *end ? -EINVAL : 0;
}

int sp_msg_dbl(const struct sp_msg *m, const char *key, double *v)
{
	const char *s = sp_msg_get(m, key);
	char *end;
	double d;

	if (!s || !*s)
		return -ENOENT;
	/* strtod() takes "nan" and "inf", which pass no range check */
	d = strtod(s, &end);
	if (*end || !isfinite(d))
		return -EINVAL;
	*v = d;
	return 0;
}

void sp_ctrl_init(struct sp_ctrl *c, int fd)
{
	memset(c, 0, sizeof(*c));
	c->fd = fd;
	c->max_msg = SP_CTRL_MAX_MSG;
}

void sp_ctrl_close(struct sp_ctrl *c)
{
	if (c->fd >= 0)
		close(c->fd);
	free(c->in);
	memset(c, 0, sizeof(*c));
	c->fd = -1;
}

static int sp_wait(int fd, short ev, int64_t deadline_ns)
{
	struct pollfd p = { .fd = fd, .events = ev };
	int64_t left = deadline_ns - sp_now_ns();
	int ret;

	if (left <= 0)
		return -ETIMEDOUT;
	ret = poll(&p, 1, (int)((left + SP_NSEC_PER_MSEC - 1) /
				SP_NSEC_PER_MSEC));
	if (ret < 0)
		return errno == EINTR ? 0 : -errno;
	return ret ? 0 : -ETIMEDOUT;
}

int sp_ctrl_send(struct sp_ctrl *c, const struct sp_buf *b,
		 int64_t deadline_ns)
{
	size_t off = 0;
	ssize_t n;
	int ret;

	if (b->oom)
		return -ENOMEM;
	while (off < b->len) {
		n = send(c->fd, b->p + off, b->len - off, MSG_NOSIGNAL);
		if (n > 0) {
			off += (size_t)n;
			continue;
		}
		if (n < 0 && errno != EAGAIN && errno != EINTR)
			return -errno;
		ret = sp_wait(c->fd, POLLOUT, deadline_ns);
		if (ret)
			return ret;
	}
	return 0;
}

/* A message is complete at the first blank line: "\n\n". */
static int sp_ctrl_extract(struct sp_ctrl *c, struct sp_msg *m)
{
	char *end, *text;
	size_t n;
	int ret;

	if (c->len < 2)
		return 0;
	end = memmem(c->in, c->len, "\n\n", 2);
	if (!end)
		return c->len > c->max_msg ? -EMSGSIZE : 0;
	n = (size_t)(end - c->in) + 2;
	text = malloc(n + 1);
	if (!text)
		return -ENOMEM;
	memcpy(text, c->in, n);
	text[n] = '\0';
	memmove(c->in, c->in + n, c->len - n);
	c->len -= n;
	ret = sp_msg_parse(text, m);
	if (ret) {
		sp_msg_free(m);
		return ret;
	}
	return 1;
}

int sp_ctrl_try(struct sp_ctrl *c, struct sp_msg *m)
{
	ssize_t n;
	char *p;
	int ret;

	ret = sp_ctrl_extract(c, m);
	if (ret)
		return ret;
	for (;;) {
		if (c->cap - c->len < 4096) {
			size_t cap = c->cap ? c->cap * 2 : 16384;

			if (cap > c->max_msg + 16384)
				return -EMSGSIZE;
			p = realloc(c->in, cap);
			if (!p)
				return -ENOMEM;
			c->in = p;
			c->cap = cap;
		}
		n = recv(c->fd, c->in + c->len, c->cap - c->len, 0);
		if (n == 0)
			return -ECONNRESET;
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				return 0;
			return -errno;
		}
		c->len += (size_t)n;
		ret = sp_ctrl_extract(c, m);
		if (ret)
			return ret;
	}
}

int sp_ctrl_recv(struct sp_ctrl *c, struct sp_msg *m, int64_t deadline_ns)
{
	int ret;

	for (;;) {
		ret = sp_ctrl_try(c, m);
		if (ret)
			return ret < 0 ? ret : 0;
		ret = sp_wait(c->fd, POLLIN, deadline_ns);
		if (ret)
			return ret;
	}
}
