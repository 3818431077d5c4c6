// SPDX-License-Identifier: GPL-2.0
/* RTM_GETQDISC dump. The kernel dumps every qdisc of the namespace; the
 * ones that are not "stripe" on the wanted device are dropped by the
 * parser. A bounded receive timeout keeps a stuck dump from hanging a run.
 * One request and its answers: plain netlink, no library.
 */
#include <errno.h>
#include <net/if.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "stripe_nl.h"

/* A kernel error is -1..-4095: anything else is not one */
static int sp_nl_error(const struct nlmsghdr *nlh)
{
	const struct nlmsgerr *e = NLMSG_DATA(nlh);

	if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(*e)))
		return -EBADMSG;
	if (e->error > 0 || e->error < -4095)
		return -EPROTO;
	return e->error;	/* 0, an ACK, ends the dump as well */
}

/* NLMSG_OK, whose compare of u32 and int clang warns of: a whole header,
 * and nlmsg_len within the len bytes left
 */
static bool sp_nlmsg_ok(const struct nlmsghdr *nlh, int len)
{
	return len >= NLMSG_HDRLEN && nlh->nlmsg_len >= NLMSG_HDRLEN &&
	       nlh->nlmsg_len <= (unsigned int)len;
}

int sp_dump_batch(const void *buf, int len, unsigned int seq,
		  unsigned int portid, struct sp_dump *d)
{
	const struct nlmsghdr *nlh = buf;
	struct sp_xstats tmp;
	int ret;

	/* a message cut short ends the datagram, as in libmnl; NLMSG_NEXT
	 * leaves len < 0 after a last one without its padding
	 */
	for (; sp_nlmsg_ok(nlh, len); nlh = NLMSG_NEXT(nlh, len)) {
		/* libmnl's checks: 0 is no answer to anyone, else ours */
		if (nlh->nlmsg_pid && nlh->nlmsg_pid != portid)
			return -ESRCH;
		if (nlh->nlmsg_seq && nlh->nlmsg_seq != seq)
			return -EPROTO;
		/* the qdiscs changed under the dump: it may have missed ours */
		if (nlh->nlmsg_flags & NLM_F_DUMP_INTR)
			return -EINTR;
		/* DONE's errno, if any, is of a dump cut short: what was
		 * read stands
		 */
		if (nlh->nlmsg_type == NLMSG_DONE)
			return 0;
		if (nlh->nlmsg_type == NLMSG_ERROR)
			return sp_nl_error(nlh);
		if (nlh->nlmsg_type < NLMSG_MIN_TYPE || d->found)
			continue;
		ret = sp_xstats_from_qdisc(nlh, d->ifindex, &tmp);
		if (ret < 0) {
			d->bad++;
		} else if (ret > 0) {
			*d->x = tmp;
			d->found = 1;
		}
	}
	return 1;
}

int sp_stripe_read(const char *dev, struct sp_xstats *x, char *err,
		   size_t errlen)
{
	/* a dump datagram is at most 32 KiB, the most the kernel learns to
	 * send from our receive size; MSG_TRUNC says if it was more (ENOSPC,
	 * as libmnl)
	 */
	char buf[32768];
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	socklen_t salen = sizeof(sa);
	struct timeval tv = { .tv_sec = 2 };
	struct sp_dump d = { .x = x };
	struct {
		struct nlmsghdr nlh;
		struct tcmsg tcm;
	} req = {
		.nlh = {
			.nlmsg_len = NLMSG_LENGTH(sizeof(struct tcmsg)),
			.nlmsg_type = RTM_GETQDISC,
			.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP,
		},
		.tcm.tcm_family = AF_UNSPEC,
	};
	unsigned int seq, portid;
	ssize_t n;
	int fd, ret;

	memset(x, 0, sizeof(*x));
	d.ifindex = (int)if_nametoindex(dev);
	if (!d.ifindex) {
		snprintf(err, errlen, "device %s not found", dev);
		return -ENODEV;
	}
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "netlink socket: %s", strerror(-ret));
		return ret;
	}
	/* nl_pid 0: the kernel picks our port id; getsockname tells it */
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    getsockname(fd, (struct sockaddr *)&sa, &salen) < 0) {
		ret = -errno;
		snprintf(err, errlen, "netlink bind: %s", strerror(-ret));
		goto out;
	}
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	portid = sa.nl_pid;
	seq = (unsigned int)time(NULL);

	req.nlh.nlmsg_seq = seq;
	/* a kernel may filter on it; the parser filters anyway */
	req.tcm.tcm_ifindex = d.ifindex;
	sa = (struct sockaddr_nl){ .nl_family = AF_NETLINK };	/* kernel */
	if (sendto(fd, &req, req.nlh.nlmsg_len, 0, (struct sockaddr *)&sa,
		   sizeof(sa)) < 0) {
		ret = -errno;
		snprintf(err, errlen, "netlink send: %s", strerror(-ret));
		goto out;
	}
	ret = 1;
	while (ret > 0) {
		salen = sizeof(sa);
		n = recvfrom(fd, buf, sizeof(buf), MSG_TRUNC,
			     (struct sockaddr *)&sa, &salen);
		if (n < 0 || n > (ssize_t)sizeof(buf)) {
			ret = n < 0 ? -errno : -ENOSPC;
			snprintf(err, errlen, "netlink receive: %s",
				 strerror(-ret));
			goto out;
		}
		/* the kernel's only: a privileged process may write to us */
		if (salen != sizeof(sa) || sa.nl_pid)
			continue;
		ret = sp_dump_batch(buf, (int)n, seq, portid, &d);
	}
	if (ret < 0) {
		snprintf(err, errlen, "netlink dump: %s", strerror(-ret));
		goto out;
	}
	if (!d.found) {
		ret = -ENOENT;
		snprintf(err, errlen,
			 d.bad ? "malformed stripe statistics on %s" :
				 "no stripe qdisc on %s", dev);
		goto out;
	}
	ret = 0;
out:
	close(fd);
	return ret;
}

/* --stripe-dev: a missing device or qdisc is a warning, never fatal. */
void sp_stripe_begin(const char *dev, struct sp_xstats *before, bool *ok,
		     char *msg, size_t msglen, bool quiet)
{
	*ok = sp_stripe_read(dev, before, msg, msglen) == 0;
	if (!*ok && !quiet)
		fprintf(stderr,
			"stripe-perf: warning: --stripe-dev %s: %s; continuing without per-link counters\n",
			dev, msg);
}

void sp_stripe_end(const char *dev, const struct sp_xstats *before,
		   bool before_ok, const char *before_msg,
		   struct sp_side *side, bool quiet)
{
	struct sp_xstats *after = malloc(sizeof(*after));

	side->stripe_asked = true;
	snprintf(side->stripe_dev, sizeof(side->stripe_dev), "%s", dev);
	if (!before_ok) {
		snprintf(side->stripe_msg, sizeof(side->stripe_msg), "%s",
			 before_msg);
		free(after);
		return;
	}
	if (!after) {
		snprintf(side->stripe_msg, sizeof(side->stripe_msg),
			 "out of memory");
		return;
	}
	if (sp_stripe_read(dev, after, side->stripe_msg,
			   sizeof(side->stripe_msg))) {
		if (!quiet)
			fprintf(stderr,
				"stripe-perf: warning: --stripe-dev %s: %s\n",
				dev, side->stripe_msg);
		free(after);
		return;
	}
	sp_xstats_delta(before, after, &side->stripe);
	side->stripe_ok = true;
	free(after);
}
