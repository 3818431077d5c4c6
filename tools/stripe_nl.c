// SPDX-License-Identifier: GPL-2.0
/* RTM_GETQDISC dump. The kernel dumps every qdisc of the namespace; the
 * ones that are not "stripe" on the wanted device are dropped by the
 * parser. A bounded receive timeout keeps a stuck dump from hanging a run.
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

#include <libmnl/libmnl.h>
#include <linux/rtnetlink.h>

#include "stripe_nl.h"

struct sp_dump {
	int ifindex;
	int found;
	int bad;
	struct sp_xstats *x;
};

static int sp_dump_cb(const struct nlmsghdr *nlh, void *data)
{
	struct sp_dump *d = data;
	struct sp_xstats tmp;
	int ret;

	if (d->found)
		return MNL_CB_OK;
	ret = sp_xstats_from_qdisc(nlh, d->ifindex, &tmp);
	if (ret < 0) {
		d->bad++;
	} else if (ret > 0) {
		*d->x = tmp;
		d->found = 1;
	}
	return MNL_CB_OK;
}

int sp_stripe_read(const char *dev, struct sp_xstats *x, char *err,
		   size_t errlen)
{
	char buf[MNL_SOCKET_BUFFER_SIZE > 32768 ? MNL_SOCKET_BUFFER_SIZE :
		 32768];
	struct timeval tv = { .tv_sec = 2 };
	struct sp_dump d = { .x = x };
	struct mnl_socket *nl;
	struct nlmsghdr *nlh;
	struct tcmsg *tcm;
	unsigned int seq, portid;
	int ret;

	memset(x, 0, sizeof(*x));
	d.ifindex = (int)if_nametoindex(dev);
	if (!d.ifindex) {
		snprintf(err, errlen, "device %s not found", dev);
		return -ENODEV;
	}
	nl = mnl_socket_open(NETLINK_ROUTE);
	if (!nl) {
		snprintf(err, errlen, "netlink socket: %s", strerror(errno));
		return -errno;
	}
	if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		ret = -errno;
		snprintf(err, errlen, "netlink bind: %s", strerror(errno));
		goto out;
	}
	setsockopt(mnl_socket_get_fd(nl), SOL_SOCKET, SO_RCVTIMEO, &tv,
		   sizeof(tv));
	portid = mnl_socket_get_portid(nl);
	seq = (unsigned int)time(NULL);

	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_GETQDISC;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	nlh->nlmsg_seq = seq;
	tcm = mnl_nlmsg_put_extra_header(nlh, sizeof(*tcm));
	tcm->tcm_family = AF_UNSPEC;
	/* a kernel may filter on it; the parser filters anyway */
	tcm->tcm_ifindex = d.ifindex;

	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0) {
		ret = -errno;
		snprintf(err, errlen, "netlink send: %s", strerror(errno));
		goto out;
	}
	for (;;) {
		ret = mnl_socket_recvfrom(nl, buf, sizeof(buf));
		if (ret < 0) {
			ret = -errno;
			snprintf(err, errlen, "netlink receive: %s",
				 strerror(errno));
			goto out;
		}
		ret = mnl_cb_run(buf, ret, seq, portid, sp_dump_cb, &d);
		if (ret <= MNL_CB_STOP)
			break;
	}
	if (ret < 0) {
		ret = -errno;
		snprintf(err, errlen, "netlink dump: %s", strerror(errno));
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
	mnl_socket_close(nl);
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
