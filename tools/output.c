// SPDX-License-Identifier: GPL-2.0
/* Output redirection. Timestamps go through a stdio cookie stream that
 * stands in for stdout, so every printer keeps writing to stdout and each
 * line still gets its prefix, partial writes included.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "output.h"

int sp_output_logfile(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);

	if (fd < 0)
		return -errno;
	fflush(stdout);
	fflush(stderr);
	if (dup2(fd, STDOUT_FILENO) < 0 || dup2(fd, STDERR_FILENO) < 0) {
		close(fd);
		return -errno;
	}
	close(fd);
	return 0;
}

struct sp_stamper {
	int fd;
	const char *fmt;
	bool at_line_start;
};

static struct sp_stamper sp_stamper;

static int sp_write_all(int fd, const char *p, size_t n)
{
	ssize_t w;

	while (n) {
		w = write(fd, p, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static ssize_t sp_stamp_write(void *cookie, const char *buf, size_t size)
{
	struct sp_stamper *st = cookie;
	const char *p = buf, *nl;
	char stamp[128];
	size_t n, left = size;
	struct tm tm;
	time_t now;

	while (left) {
		if (st->at_line_start) {
			now = time(NULL);
			localtime_r(&now, &tm);
			n = strftime(stamp, sizeof(stamp), st->fmt, &tm);
			if (sp_write_all(st->fd, stamp, n))
				return -1;
			st->at_line_start = false;
		}
		nl = memchr(p, '\n', left);
		n = nl ? (size_t)(nl - p) + 1 : left;
		if (sp_write_all(st->fd, p, n))
			return -1;
		if (nl)
			st->at_line_start = true;
		p += n;
		left -= n;
	}
	return (ssize_t)size;
}

int sp_output_timestamps(const char *fmt)
{
	static const cookie_io_functions_t io = { .write = sp_stamp_write };
	FILE *f;

	fflush(stdout);
	sp_stamper.fd = dup(STDOUT_FILENO);
	if (sp_stamper.fd < 0)
		return -errno;
	sp_stamper.fmt = fmt;
	sp_stamper.at_line_start = true;
	f = fopencookie(&sp_stamper, "w", io);
	if (!f) {
		close(sp_stamper.fd);
		return -ENOMEM;
	}
	stdout = f;
	return 0;
}
