/* SPDX-License-Identifier: GPL-2.0 */
/* Socket helpers: resolution, bounded connect, listen. All sockets come
 * back non-blocking.
 */
#ifndef SP_NET_H
#define SP_NET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

struct sp_addr {
	struct sockaddr_storage ss;
	socklen_t len;
};

int sp_set_nonblock(int fd);
/* "127.0.0.1 port 5301" / "::1 port 5301" */
const char *sp_addr_str(const struct sp_addr *a, char *buf, size_t len);
unsigned int sp_addr_port(const struct sp_addr *a);
/* The address alone: "127.0.0.1", "::1" */
const char *sp_addr_host(const struct sp_addr *a, char *buf, size_t len);
void sp_addr_set_port(struct sp_addr *a, unsigned int port);
int sp_local_addr(int fd, struct sp_addr *a);
/* The largest UDP payload that crosses a path of MTU pmtu to peer
 * unfragmented, at most cap: IPv4 (also IPv4-mapped IPv6) takes 28 bytes
 * of headers, IPv6 48. 0 if pmtu is too small to tell.
 */
unsigned int sp_udp_len_for_mtu(unsigned int pmtu, const struct sp_addr *peer,
				unsigned int cap);
/* The path MTU of a connected TCP socket, 0 if unknown. */
unsigned int sp_path_mtu(int fd);
/* -C and -w on a TCP data socket ("" and 0: leave as is). */
int sp_tune_tcp(int fd, const char *congestion, uint32_t window, char *err,
		size_t errlen);
/* Same IP address (ports aside): both ends on one host, one clock. */
bool sp_addr_same_host(const struct sp_addr *a, const struct sp_addr *b);
int sp_peer_addr(int fd, struct sp_addr *a);

/* Connect a stream socket to host:port, trying every address the name
 * resolves to, within timeout_ms in all. Returns the fd or -1 with err set.
 */
int sp_connect_host(const char *host, unsigned int port, int family,
		    const char *bind, bool mptcp, int timeout_ms,
		    struct sp_addr *peer, char *err, size_t errlen);
/* Connect a socket of type/proto to a known address. */
int sp_connect_addr(const struct sp_addr *to, int type, int proto,
		    const struct sp_addr *from, int timeout_ms, char *err,
		    size_t errlen);
int sp_listen(const char *bind, unsigned int port, int family, bool mptcp,
	      char *err, size_t errlen);
/* accept4() of a non-blocking fd. When the process or system is out of
 * descriptors or memory the listening socket stays readable: *pause_until
 * (CLOCK_MONOTONIC ns) is then set SP_ACCEPT_PAUSE_MS ahead, and the
 * caller leaves the socket unpolled until then instead of spinning.
 */
#define SP_ACCEPT_PAUSE_MS	100
int sp_accept(int lfd, int64_t *pause_until);
/* A UDP socket bound to the address of `like`, on an ephemeral port. */
int sp_udp_bind_like(const struct sp_addr *like, char *err, size_t errlen);

#endif /* SP_NET_H */
