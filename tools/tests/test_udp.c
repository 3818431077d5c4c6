// SPDX-License-Identifier: GPL-2.0
/* The UDP receive path end to end on loopback: real datagrams from the
 * real sender code, delivered out of order, duplicated and damaged, must
 * come out as the metrics say.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../flags.h"
#include "../net.h"
#include "../pattern.h"
#include "../session.h"
#include "tap.h"

static int udp_pair(int *rx, int *tx)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof(a);

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	*rx = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, 0);
	*tx = socket(AF_INET, SOCK_DGRAM, 0);
	if (*rx < 0 || *tx < 0 || bind(*rx, (void *)&a, sizeof(a)) ||
	    getsockname(*rx, (void *)&a, &len) ||
	    connect(*tx, (void *)&a, sizeof(a)))
		return -1;
	return 0;
}

static void send_seq(struct sp_sess *s, unsigned int id, uint64_t seq)
{
	s->st[id].seq = seq;
	sp_udp_send(s, &s->st[id]);
}

/* Issue 15, defect 1: datagrams without this test's cookie, or from an
 * address other than the control connection's peer, are not the test's.
 */
static void test_udp_foreign(void)
{
	struct sp_sess *s = calloc(1, sizeof(*s));
	struct sockaddr_in *peer;
	struct sp_udp_rx *rx = NULL;
	int rxfd, txfd;

	sp_sess_init(s);
	ok(udp_pair(&rxfd, &txfd) == 0, "loopback UDP sockets");
	s->nstreams = 1;
	s->len = 100;
	s->udp_fd = rxfd;
	s->st[0].fd = txfd;
	sp_side_init(&s->res, false, false, true, 1);
	sp_reorder_init(&s->st[0].ro);
	sp_owd_init(&s->st[0].owd);
	memset(s->cookie, 0x11, sizeof(s->cookie));
	peer = (struct sockaddr_in *)&s->udp_peer;
	peer->sin_family = AF_INET;
	peer->sin_addr.s_addr = htonl(INADDR_LOOPBACK);

	send_seq(s, 0, 0);			/* ours */
	memset(s->cookie, 0x22, sizeof(s->cookie));
	send_seq(s, 0, 1ULL << 30);		/* another cookie */
	memset(s->cookie, 0x11, sizeof(s->cookie));
	usleep(20000);
	s->st[0].packets = 0;
	s->st[0].bytes = 0;
	sp_udp_rx_open(&rx);
	sp_udp_recv(s, rx);
	ok(s->st[0].ro.s.received == 1 && s->udp_foreign == 1 &&
	   s->st[0].ro.s.max_seq == 1,
	   "a datagram with another test's cookie is foreign, not counted");

	/* right cookie, but the test's peer is elsewhere */
	peer->sin_addr.s_addr = htonl(INADDR_LOOPBACK + 1);
	send_seq(s, 0, 1);
	usleep(20000);
	sp_udp_recv(s, rx);
	ok(s->st[0].ro.s.received == 1 && s->udp_foreign == 2,
	   "a datagram from another address is foreign, not counted");
	sp_udp_finish(s);
	ok(s->res.sum.udp.foreign == 2 && s->res.sum.udp.received == 1,
	   "foreign datagrams are reported on their own");

	sp_udp_rx_close(rx);
	sp_sess_free(s);
	free(s);
}

/* Issue 15, defect 5: the default datagram fits the path. */
static void test_udp_len_for_mtu(void)
{
	struct sp_addr v4 = { .len = sizeof(struct sockaddr_in) };
	struct sp_addr v6 = { .len = sizeof(struct sockaddr_in6) };
	struct sp_addr mapped = { .len = sizeof(struct sockaddr_in6) };
	struct sockaddr_in6 *m6 = (struct sockaddr_in6 *)&mapped.ss;

	v4.ss.ss_family = AF_INET;
	v6.ss.ss_family = AF_INET6;
	m6->sin6_family = AF_INET6;
	inet_pton(AF_INET6, "::ffff:10.0.0.1", &m6->sin6_addr);
	ok(sp_udp_len_for_mtu(1476, &v6, SP_DEFAULT_UDP_LEN) == 1428 &&
	   sp_udp_len_for_mtu(1476, &v4, SP_DEFAULT_UDP_LEN) == 1448 &&
	   sp_udp_len_for_mtu(1476, &mapped, SP_DEFAULT_UDP_LEN) == 1448,
	   "1476-byte MTU (reorder on over 1500): IPv6 1428, IPv4 1448");
	ok(sp_udp_len_for_mtu(1280, &v6, SP_DEFAULT_UDP_LEN) == 1232 &&
	   sp_udp_len_for_mtu(65536, &v6, SP_DEFAULT_UDP_LEN) == 1448 &&
	   sp_udp_len_for_mtu(0, &v4, SP_DEFAULT_UDP_LEN) == 0,
	   "1280: 1232; a large MTU keeps the default; unknown: 0");
}

void test_udp(void)
{
	static const uint64_t order[] = { 0, 1, 3, 2, 4 };
	struct sp_sess *s = calloc(1, sizeof(*s));
	struct sp_udp_rx *rx = NULL;
	uint8_t dgram[200];
	int rxfd, txfd, capfd, capt, i;

	sp_pattern_init();
	sp_sess_init(s);
	ok(udp_pair(&rxfd, &txfd) == 0 && udp_pair(&capfd, &capt) == 0,
	   "loopback UDP sockets");
	s->nstreams = 2;
	s->len = sizeof(dgram);
	s->udp_fd = rxfd;
	s->st[0].fd = txfd;
	s->st[1].fd = txfd;
	sp_side_init(&s->res, false, false, true, 2);
	for (i = 0; i < 2; i++) {
		sp_reorder_init(&s->st[i].ro);
		sp_owd_init(&s->st[i].owd);
	}

	for (i = 0; i < 5; i++)
		send_seq(s, 0, order[i]);
	send_seq(s, 1, 0);
	send_seq(s, 1, 0);
	send_seq(s, 1, 1);
	/* a datagram of stream 0 with one payload byte flipped */
	s->st[0].fd = capt;
	send_seq(s, 0, 5);
	s->st[0].fd = txfd;
	ok(recv(capfd, dgram, sizeof(dgram), 0) == sizeof(dgram),
	   "captured a datagram");
	dgram[150] ^= 0x40;
	send(txfd, dgram, sizeof(dgram), 0);
	/* and one nobody could have sent */
	memset(dgram, 0xa5, 64);
	send(txfd, dgram, 64, 0);

	/* one struct plays sender and receiver: forget what was sent */
	for (i = 0; i < 2; i++) {
		s->st[i].packets = 0;
		s->st[i].bytes = 0;
	}
	usleep(20000);
	ok(sp_udp_rx_open(&rx) == 0 && sp_udp_recv(s, rx) == 0,
	   "receive path runs");
	ok(s->st[0].ro.s.received == 5 && s->st[0].ro.s.reordered == 1 &&
	   s->st[0].ro.s.extent[1] == 1 && s->st[0].ro.s.nreord[1] == 1,
	   "0 1 3 2 4 on the wire: one reordered, extent 1");
	ok(s->st[1].ro.s.received == 2 && s->st[1].ro.s.dup == 1,
	   "stream 1: duplicate counted, not received twice");
	ok(s->st[0].bad_dgrams == 1 && s->udp_unknown == 1,
	   "damaged payload and garbage datagram are caught");
	ok(s->st[0].owd.count == 5 && s->st[0].owd.max_ns < 1000000000LL,
	   "one-way delay measured for every good datagram");
	ok(s->st[0].packets == 5 && s->st[0].bytes == 5 * sizeof(dgram),
	   "goodput counts distinct good datagrams only");

	s->st[0].sent = 7;	/* 0..6: 5 lost the damaged one and 6 */
	s->st[0].sent_known = true;
	s->st[1].sent = 2;
	s->st[1].sent_known = true;
	sp_udp_finish(s);
	ok(s->res.st[0].udp.lost == 2 && s->res.st[1].udp.lost == 0 &&
	   s->res.sum.udp.lost == 2 && s->res.sum.udp.sent == 9,
	   "loss from the sender's counts");
	ok(s->res.sum.udp.reordered == 1 && s->res.sum.udp.dup == 1 &&
	   s->res.sum.udp.corrupt == 2 && s->res.sum.udp.received == 7,
	   "totals over streams");

	sp_udp_rx_close(rx);
	close(capfd);
	close(capt);
	s->st[1].fd = -1;	/* shared with stream 0 */
	sp_sess_free(s);
	free(s);
	test_udp_foreign();
	test_udp_len_for_mtu();
}
