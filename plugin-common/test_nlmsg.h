/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_nlmsg.h: the netlink message builder of the plugins' test
 * generators (tc-plugin/test-parse.sh and ip-plugin/test-abi.sh write
 * them and build them with -I plugin-common).  One message at a time is
 * built in buf, behind h: begin_msg() starts it and returns its family
 * header for the caller to fill in, put() appends attributes after it;
 * nest() or put(type, NULL, 0) opens a nest that end() closes at the
 * message's end.
 */
#ifndef _STRIPE_TEST_NLMSG_H
#define _STRIPE_TEST_NLMSG_H

#include <stddef.h>
#include <string.h>
#include <linux/types.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

static unsigned char buf[8192];
static struct nlmsghdr *h = (struct nlmsghdr *)buf;

static inline struct rtattr *put(int type, const void *data, int len)
{
	struct rtattr *a = (void *)(buf + NLMSG_ALIGN(h->nlmsg_len));

	a->rta_type = type;
	a->rta_len = RTA_LENGTH(len);
	if (len)
		memcpy(RTA_DATA(a), data, len);
	h->nlmsg_len = NLMSG_ALIGN(h->nlmsg_len) + RTA_ALIGN(a->rta_len);
	return a;
}

static inline struct rtattr *nest(int type)
{
	return put(type | NLA_F_NESTED, NULL, 0);
}

static inline void end(struct rtattr *a)
{
	a->rta_len = buf + h->nlmsg_len - (unsigned char *)a;
}

/* A new message of type type whose family header (hdrlen bytes, zeroed)
 * it returns; the attributes follow it
 */
static inline void *begin_msg(__u16 type, size_t hdrlen)
{
	memset(buf, 0, sizeof(buf));
	h->nlmsg_type = type;
	h->nlmsg_len = NLMSG_LENGTH(hdrlen);
	return NLMSG_DATA(h);
}

static inline void put_u8(int type, __u8 v) { put(type, &v, 1); }
static inline void put_u32(int type, __u32 v) { put(type, &v, 4); }
static inline void put_str(int type, const char *s) { put(type, s, strlen(s) + 1); }

#endif /* _STRIPE_TEST_NLMSG_H */
