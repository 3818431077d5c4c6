// SPDX-License-Identifier: GPL-2.0
/* Socket helpers. Connects are non-blocking with poll() so an unreachable
 * host costs at most the timeout, and the error names what failed.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "net.h"

int sp_set_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0)
		return -errno;
	return 0;
}

const char *sp_addr_host(const struct sp_addr *a, char *buf, size_t len)
{
	const struct sockaddr_in *in4 = (const void *)&a->ss;
	const struct sockaddr_in6 *in6 = (const void *)&a->ss;

	snprintf(buf, len, "?");
	if (a->ss.ss_family == AF_INET)
		inet_ntop(AF_INET, &in4->sin_addr, buf, len);
	else if (a->ss.ss_family == AF_INET6)
		inet_ntop(AF_INET6, &in6->sin6_addr, buf, len);
	return buf;
}

const char *sp_addr_str(const struct sp_addr *a, char *buf, size_t len)
{
	char host[INET6_ADDRSTRLEN];

	snprintf(buf, len, "%s port %u", sp_addr_host(a, host, sizeof(host)),
		 sp_addr_port(a));
	return buf;
}

unsigned int sp_addr_port(const struct sp_addr *a)
{
	const struct sockaddr_in *in4 = (const void *)&a->ss;
	const struct sockaddr_in6 *in6 = (const void *)&a->ss;

	if (a->ss.ss_family == AF_INET)
		return ntohs(in4->sin_port);
	if (a->ss.ss_family == AF_INET6)
		return ntohs(in6->sin6_port);
	return 0;
}

void sp_addr_set_port(struct sp_addr *a, unsigned int port)
{
	struct sockaddr_in *in4 = (void *)&a->ss;
	struct sockaddr_in6 *in6 = (void *)&a->ss;

	if (a->ss.ss_family == AF_INET)
		in4->sin_port = htons(port);
	else if (a->ss.ss_family == AF_INET6)
		in6->sin6_port = htons(port);
}

unsigned int sp_udp_len_for_mtu(unsigned int pmtu, const struct sp_addr *peer,
				unsigned int cap)
{
	const struct sockaddr_in6 *in6 = (const void *)&peer->ss;
	unsigned int hdr = 28;

	if (peer->ss.ss_family == AF_INET6 &&
	    !IN6_IS_ADDR_V4MAPPED(&in6->sin6_addr))
		hdr = 48;
	if (pmtu <= hdr)
		return 0;
	return pmtu - hdr < cap ? pmtu - hdr : cap;
}

unsigned int sp_path_mtu(int fd)
{
	struct tcp_info ti;
	socklen_t len = sizeof(ti);

	memset(&ti, 0, sizeof(ti));
	if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len))
		return 0;
	return ti.tcpi_pmtu;
}

int sp_tune_tcp(int fd, const char *congestion, uint32_t window, char *err,
		size_t errlen)
{
	int w = (int)window;

	if (window && (setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &w, sizeof(w)) ||
		       setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &w, sizeof(w)))) {
		snprintf(err, errlen, "window %u: %s", window, strerror(errno));
		return -1;
	}
	if (congestion[0] &&
	    setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, congestion,
		       (socklen_t)strlen(congestion))) {
		snprintf(err, errlen,
			 "congestion control '%s': %s (see net.ipv4.tcp_available_congestion_control)",
			 congestion, strerror(errno));
		return -1;
	}
	return 0;
}

bool sp_addr_same_host(const struct sp_addr *a, const struct sp_addr *b)
{
	const struct sockaddr_in *a4 = (const void *)&a->ss;
	const struct sockaddr_in *b4 = (const void *)&b->ss;
	const struct sockaddr_in6 *a6 = (const void *)&a->ss;
	const struct sockaddr_in6 *b6 = (const void *)&b->ss;

	if (a->ss.ss_family != b->ss.ss_family)
		return false;
	if (a->ss.ss_family == AF_INET)
		return a4->sin_addr.s_addr == b4->sin_addr.s_addr;
	if (a->ss.ss_family == AF_INET6)
		return !memcmp(&a6->sin6_addr, &b6->sin6_addr,
			       sizeof(a6->sin6_addr));
	return false;
}

int sp_local_addr(int fd, struct sp_addr *a)
{
	a->len = sizeof(a->ss);
	return getsockname(fd, (struct sockaddr *)&a->ss, &a->len) ? -errno :
									0;
}

int sp_peer_addr(int fd, struct sp_addr *a)
{
	a->len = sizeof(a->ss);
	return getpeername(fd, (struct sockaddr *)&a->ss, &a->len) ? -errno :
									0;
}

static int sp_resolve(const char *host, unsigned int port, int family,
		      bool passive, struct addrinfo **res, char *err,
		      size_t errlen)
{
	struct addrinfo hints = { 0 };
	char svc[8];
	int ret;

	hints.ai_family = family;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = passive ? AI_PASSIVE : 0;
	snprintf(svc, sizeof(svc), "%u", port);
	ret = getaddrinfo(host, svc, &hints, res);
	if (ret) {
		snprintf(err, errlen, "cannot resolve '%s': %s",
			 host ? host : "*", gai_strerror(ret));
		return -1;
	}
	return 0;
}

int sp_connect_addr(const struct sp_addr *to, int type, int proto,
		    const struct sp_addr *from, int timeout_ms, char *err,
		    size_t errlen)
{
	struct pollfd p;
	int fd, ret, soerr = 0;
	socklen_t sl = sizeof(soerr);
	char abuf[80];

	fd = socket(to->ss.ss_family, type | SOCK_NONBLOCK | SOCK_CLOEXEC,
		    proto);
	if (fd < 0) {
		if (proto == IPPROTO_MPTCP)
			snprintf(err, errlen,
				 "MPTCP socket: %s (is net.mptcp.enabled=1?)",
				 strerror(errno));
		else
			snprintf(err, errlen, "socket: %s", strerror(errno));
		return -1;
	}
	if (from && from->len &&
	    bind(fd, (const struct sockaddr *)&from->ss, from->len)) {
		snprintf(err, errlen, "bind to %s: %s",
			 sp_addr_str(from, abuf, sizeof(abuf)),
			 strerror(errno));
		goto fail;
	}
	ret = connect(fd, (const struct sockaddr *)&to->ss, to->len);
	if (ret && errno != EINPROGRESS) {
		soerr = errno;
		goto conn_fail;
	}
	if (ret) {
		p.fd = fd;
		p.events = POLLOUT;
		ret = poll(&p, 1, timeout_ms);
		if (ret == 0) {
			snprintf(err, errlen,
				 "connect to %s: timed out after %d ms",
				 sp_addr_str(to, abuf, sizeof(abuf)),
				 timeout_ms);
			goto fail;
		}
		if (ret < 0 ||
		    getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl))
			soerr = errno;
		if (soerr)
			goto conn_fail;
	}
	return fd;
conn_fail:
	snprintf(err, errlen, "connect to %s: %s",
		 sp_addr_str(to, abuf, sizeof(abuf)), strerror(soerr));
fail:
	close(fd);
	return -1;
}

int sp_connect_host(const char *host, unsigned int port, int family,
		    const char *bind, bool mptcp, int timeout_ms,
		    struct sp_addr *peer, char *err, size_t errlen)
{
	struct addrinfo *res, *ai, *bres = NULL;
	struct sp_addr to, from = { .len = 0 };
	int64_t deadline = sp_now_ns() + timeout_ms * SP_NSEC_PER_MSEC;
	int fd = -1, left;

	if (sp_resolve(host, port, family, false, &res, err, errlen))
		return -1;
	for (ai = res; ai; ai = ai->ai_next) {
		left = (int)((deadline - sp_now_ns()) / SP_NSEC_PER_MSEC);
		if (left <= 0)
			break;
		if (bind) {
			if (sp_resolve(bind, 0, ai->ai_family, true, &bres,
				       err, errlen))
				continue;
			memcpy(&from.ss, bres->ai_addr, bres->ai_addrlen);
			from.len = bres->ai_addrlen;
			freeaddrinfo(bres);
		}
		memcpy(&to.ss, ai->ai_addr, ai->ai_addrlen);
		to.len = ai->ai_addrlen;
		fd = sp_connect_addr(&to, SOCK_STREAM,
				     mptcp ? IPPROTO_MPTCP : IPPROTO_TCP,
				     bind ? &from : NULL, left, err, errlen);
		if (fd >= 0) {
			*peer = to;
			break;
		}
	}
	freeaddrinfo(res);
	return fd;
}

int sp_listen(const char *bind_addr, unsigned int port, int family,
	      bool mptcp, char *err, size_t errlen)
{
	struct addrinfo *res, *ai;
	int fd = -1, one = 1, zero = 0;
	char abuf[80];
	struct sp_addr a;

	/* wildcard: prefer one dual-stack IPv6 socket unless -4 */
	if (!bind_addr && family == AF_UNSPEC)
		bind_addr = "::";
	if (sp_resolve(bind_addr, port, family, true, &res, err, errlen)) {
		if (strcmp(bind_addr ? bind_addr : "", "::"))
			return -1;
		if (sp_resolve("0.0.0.0", port, AF_INET, true, &res, err,
			       errlen))
			return -1;
	}
	for (ai = res; ai; ai = ai->ai_next) {
		fd = socket(ai->ai_family,
			    SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
			    mptcp ? IPPROTO_MPTCP : IPPROTO_TCP);
		if (fd < 0) {
			snprintf(err, errlen, "%ssocket: %s",
				 mptcp ? "MPTCP " : "", strerror(errno));
			continue;
		}
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (ai->ai_family == AF_INET6)
			setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY,
				   family == AF_INET6 ? &one : &zero,
				   sizeof(one));
		memcpy(&a.ss, ai->ai_addr, ai->ai_addrlen);
		a.len = ai->ai_addrlen;
		/* a deep backlog: all -P streams connect at once, and a
		 * dropped SYN costs a second
		 */
		if (bind(fd, ai->ai_addr, ai->ai_addrlen) || listen(fd, 1024)) {
			snprintf(err, errlen, "listen on %s: %s",
				 sp_addr_str(&a, abuf, sizeof(abuf)),
				 strerror(errno));
			close(fd);
			fd = -1;
			continue;
		}
		break;
	}
	freeaddrinfo(res);
	return fd;
}

int sp_udp_bind_like(const struct sp_addr *like, char *err, size_t errlen)
{
	struct sp_addr a = *like;
	int fd, size = 4 << 20;
	char abuf[80];

	sp_addr_set_port(&a, 0);
	fd = socket(a.ss.ss_family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
		    0);
	if (fd < 0) {
		snprintf(err, errlen, "UDP socket: %s", strerror(errno));
		return -1;
	}
	/* a deep queue so a scheduling hiccup does not read as loss; the
	 * forced variant needs CAP_NET_ADMIN, the plain one is capped
	 */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size)))
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
	if (bind(fd, (struct sockaddr *)&a.ss, a.len)) {
		snprintf(err, errlen, "UDP bind to %s: %s",
			 sp_addr_str(&a, abuf, sizeof(abuf)), strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

int sp_accept(int lfd, int64_t *pause_until)
{
	int fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);

	if (fd < 0 && (errno == EMFILE || errno == ENFILE ||
		       errno == ENOBUFS || errno == ENOMEM))
		*pause_until = sp_now_ns() +
			       SP_ACCEPT_PAUSE_MS * SP_NSEC_PER_MSEC;
	return fd;
}
