// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_parse.c: libFuzzer targets for the tc plugin, built on the host
 * (make fuzz).  q_stripe.c itself is #included below, with the code it
 * shares with the ip plugin (../plugin-common/: the options, and the
 * printers of the options and the statistics), so the code fuzzed is the
 * plugin's own, not a copy; this file supplies the few
 * tc helpers the plugin imports (tc_abi.h), each a minimal copy of
 * iproute2 6.1's behaviour.
 *
 * FUZZ_PARSE (fuzz_parse): the input is split at spaces into argv words
 *   for parse_qopt ("tc qdisc add dev X root stripe <words>").  The request
 *   buffer is exactly the 1024 bytes the plugin claims as maxlen, so a write
 *   past its bound is an ASan report.  When parsing succeeds, the TCA_OPTIONS
 *   nest is checked (well formed, each known type at most once, the sizes
 *   and ranges of stripe_opts[]) and fed back through print_qopt.
 *
 * FUZZ_PRINT (fuzz_print): byte 0 picks text or JSON output; the rest is
 *   the payload of one attribute, in a heap buffer of exactly that size,
 *   handed to print_qopt and print_xstats as tc hands them TCA_OPTIONS and
 *   TCA_STATS_APP from a dump.
 *
 * The print_* stubs format into a scratch buffer (so a bad string or format
 * argument is caught) and check that the JSON the plugin asks for is well
 * formed: keys only inside objects, none inside arrays, every object and
 * array closed.  fprintf() in the plugin is redirected to a formatter that
 * discards, so error paths run without flooding the fuzzer's output.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/gen_stats.h>

static int fuzz_fprintf(FILE *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
#define fprintf fuzz_fprintf

#include "q_stripe.c"
#include "../plugin-common/stripe_plugin.c"
#include "../plugin-common/stripe_opts_print.c"
#include "../plugin-common/stripe_stats.c"
#include "../plugin-common/stripe_stats_print.c"

#undef fprintf

static int fuzz_fprintf(FILE *f, const char *fmt, ...)
{
	char buf[4096];
	va_list ap;
	int n;

	(void)f;
	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return n;
}

/* --- include/libnetlink.h, lib/libnetlink.c --- */

#define NLMSG_TAIL(nmsg) \
	((struct rtattr *)(((char *)(nmsg)) + NLMSG_ALIGN((nmsg)->nlmsg_len)))

int addattr_l(struct nlmsghdr *n, int maxlen, int type, const void *data,
	      int alen)
{
	int len = RTA_LENGTH(alen);
	struct rtattr *rta;

	if ((int)(NLMSG_ALIGN(n->nlmsg_len) + RTA_ALIGN(len)) > maxlen)
		return -1;
	rta = NLMSG_TAIL(n);
	rta->rta_type = type;
	rta->rta_len = len;
	if (alen)
		memcpy(RTA_DATA(rta), data, alen);
	n->nlmsg_len = NLMSG_ALIGN(n->nlmsg_len) + RTA_ALIGN(len);
	return 0;
}

int addattr8(struct nlmsghdr *n, int maxlen, int type, __u8 data)
{
	return addattr_l(n, maxlen, type, &data, sizeof(__u8));
}

int addattr32(struct nlmsghdr *n, int maxlen, int type, __u32 data)
{
	return addattr_l(n, maxlen, type, &data, sizeof(__u32));
}

struct rtattr *addattr_nest(struct nlmsghdr *n, int maxlen, int type)
{
	struct rtattr *nest = NLMSG_TAIL(n);

	addattr_l(n, maxlen, type, NULL, 0);
	return nest;
}

int addattr_nest_end(struct nlmsghdr *n, struct rtattr *nest)
{
	nest->rta_len = (char *)NLMSG_TAIL(n) - (char *)nest;
	return n->nlmsg_len;
}

/* iproute2 also prints "!!!Deficit" with rta->rta_len, which reads past a
 * deficit shorter than a header; the message is left out here.
 */
int parse_rtattr_flags(struct rtattr *tb[], int max, struct rtattr *rta,
		       int len, unsigned short flags)
{
	unsigned short type;

	memset(tb, 0, sizeof(struct rtattr *) * (max + 1));
	while (RTA_OK(rta, len)) {
		type = rta->rta_type & ~flags;
		if (type <= max && !tb[type])
			tb[type] = rta;
		rta = RTA_NEXT(rta, len);
	}
	return 0;
}

/* --- include/utils.h, lib/utils.c, tc/tc_util.c --- */

bool matches(const char *prefix, const char *string)
{
	if (!*prefix)
		return true;
	while (*string && *prefix == *string) {
		prefix++;
		string++;
	}
	return !!*prefix;
}

char *sprint_time(__u32 time, char *buf)
{
	double tmp = time;
	int len = TC_SPRINT_BSIZE - 1;

	if (tmp >= 1000000)
		snprintf(buf, len, "%.1fs", tmp / 1000000);
	else if (tmp >= 1000)
		snprintf(buf, len, "%.1fms", tmp / 1000);
	else
		snprintf(buf, len, "%uus", time);
	return buf;
}

/* --- include/json_print.h, lib/json_print.c, with a structure check --- */

static bool json;
static char nest[64];	/* 'o' object, 'a' array; [0] is tc's qdisc object */
static int depth;

static void fuzz_bug(const char *what)
{
	fputs("fuzz_parse: ", stderr);
	fputs(what, stderr);
	fputc('\n', stderr);
	abort();
}

#define JSON_CTX(t)	(json && ((t) & (PRINT_JSON | PRINT_ANY)))
#define FP_CTX(t)	(!json && ((t) & (PRINT_FP | PRINT_ANY)))

static void json_value(const char *key)
{
	if (key && nest[depth] != 'o')
		fuzz_bug("JSON: a key inside an array");
	if (!key && nest[depth] != 'a')
		fuzz_bug("JSON: a value without a key inside an object");
}

static void json_open(char kind, const char *key)
{
	json_value(key);
	if (++depth >= (int)sizeof(nest))
		fuzz_bug("JSON: nested too deep");
	nest[depth] = kind;
}

static void json_close(char kind)
{
	if (depth == 0 || nest[depth] != kind)
		fuzz_bug("JSON: closing what is not open");
	depth--;
}

bool is_json_context(void)
{
	return json;
}

void open_json_object(const char *str)
{
	if (json)
		json_open('o', str);
}

void close_json_object(void)
{
	if (json)
		json_close('o');
}

void open_json_array(enum output_type type, const char *str)
{
	char buf[256];

	if (JSON_CTX(type))
		json_open('a', str);
	else if (FP_CTX(type))
		snprintf(buf, sizeof(buf), "%s", str);
}

void close_json_array(enum output_type type, const char *str)
{
	char buf[256];

	if (JSON_CTX(type))
		json_close('a');
	else if (FP_CTX(type))
		snprintf(buf, sizeof(buf), "%s", str);
}

void print_nl(void)
{
}

#define PRINT_STUB(type, value)						\
	do {								\
		char buf[1024];						\
									\
		if (JSON_CTX(type))					\
			json_value(key);				\
		else if (FP_CTX(type) && fmt)				\
			snprintf(buf, sizeof(buf), fmt, value);		\
	} while (0)

#pragma GCC diagnostic ignored "-Wformat-nonliteral"

int print_color_string(enum output_type t, enum color_attr color,
		       const char *key, const char *fmt, const char *value)
{
	(void)color;
	if (JSON_CTX(t) && value)
		(void)strlen(value);
	PRINT_STUB(t, value);
	return 0;
}

int print_color_uint(enum output_type t, enum color_attr color,
		     const char *key, const char *fmt, unsigned int value)
{
	(void)color;
	PRINT_STUB(t, value);
	return 0;
}

int print_color_u64(enum output_type t, enum color_attr color,
		    const char *key, const char *fmt, uint64_t value)
{
	(void)color;
	PRINT_STUB(t, value);
	return 0;
}

int print_color_on_off(enum output_type t, enum color_attr color,
		       const char *key, const char *fmt, bool value)
{
	(void)color;
	PRINT_STUB(t, value ? "on" : "off");
	return 0;
}

static void json_begin(bool on)
{
	json = on;
	depth = 0;
	nest[0] = 'o';
}

static void json_end(void)
{
	if (json && depth != 0)
		fuzz_bug("JSON: an object or array left open");
}

/* --- the targets --- */

#ifdef FUZZ_PARSE

#define MAX_WORDS	256
#define STRIPE_REQ_HDR	(NLMSG_LENGTH(sizeof(struct tcmsg)))

/* What parse_qopt added must be what stripe_opts[] allows */
static void check_options(struct nlmsghdr *n, size_t off)
{
	struct rtattr *nest = (struct rtattr *)((char *)n + off);
	bool sent[TCA_STRIPE_MAX + 1] = { false };
	struct rtattr *rta;
	int len;

	if (n->nlmsg_len > STRIPE_NL_MAXLEN)
		fuzz_bug("request longer than maxlen");
	if (nest->rta_type != (TCA_OPTIONS | NLA_F_NESTED))
		fuzz_bug("no TCA_OPTIONS nest");
	if (off + nest->rta_len != n->nlmsg_len)
		fuzz_bug("TCA_OPTIONS does not end the request");
	len = RTA_PAYLOAD(nest);
	for (rta = RTA_DATA(nest); RTA_OK(rta, len); rta = RTA_NEXT(rta, len)) {
		const struct stripe_opt *o = NULL;
		size_t i;
		__u32 v;

		for (i = 0; i < ARRAY_SIZE(stripe_opts); i++)
			if (stripe_opts[i].attr == rta->rta_type ||
			    (stripe_opts[i].arg == STRIPE_ARG_ADDR &&
			     stripe_opts[i].attr6 == rta->rta_type))
				o = &stripe_opts[i];
		if (!o)
			fuzz_bug("attribute of an unknown type");
		/* An option given twice is refused, never sent twice */
		if (sent[rta->rta_type])
			fuzz_bug("an attribute sent twice");
		sent[rta->rta_type] = true;
		switch (o->arg) {
		case STRIPE_ARG_IFNAME:
			if (RTA_PAYLOAD(rta) < 2 || RTA_PAYLOAD(rta) > IFNAMSIZ ||
			    strnlen(RTA_DATA(rta), RTA_PAYLOAD(rta)) !=
			    RTA_PAYLOAD(rta) - 1)
				fuzz_bug("master: not a NUL-terminated name < IFNAMSIZ");
			break;
		case STRIPE_ARG_ONOFF:
			if (RTA_PAYLOAD(rta) != 1 ||
			    *(__u8 *)RTA_DATA(rta) > STRIPE_REORDER_MAX)
				fuzz_bug("reorder: not a u8 off/on");
			break;
		case STRIPE_ARG_ADDR:
			if (RTA_PAYLOAD(rta) !=
			    (rta->rta_type == o->attr6 ? 16U : 4U))
				fuzz_bug("an address of the wrong size for its family");
			break;
		default:
			if (RTA_PAYLOAD(rta) != 4)
				fuzz_bug("not a u32");
			memcpy(&v, RTA_DATA(rta), 4);
			/* weight auto is sent as 0 */
			if (o->arg == STRIPE_ARG_WEIGHT && v == 0)
				break;
			if (v < o->min || v > o->max)
				fuzz_bug("value outside the option's range");
		}
	}
	if (len != 0)
		fuzz_bug("TCA_OPTIONS payload not a whole number of attributes");
	json_begin(false);
	stripe_qdisc_util.print_qopt(&stripe_qdisc_util, stdout, nest);
	json_end();
	json_begin(true);
	stripe_qdisc_util.print_qopt(&stripe_qdisc_util, stdout, nest);
	json_end();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *argv[MAX_WORDS + 1];
	struct nlmsghdr *n;
	char *text, *p;
	size_t off;
	int argc = 0, ret;

	text = malloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0';
	for (p = text; argc < MAX_WORDS; ) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		argv[argc++] = p;
		p = strchr(p, ' ');
		if (!p)
			break;
		*p++ = '\0';
	}
	argv[argc] = NULL;

	/* As tc builds it: header, tcmsg, TCA_KIND, then the options */
	n = calloc(1, STRIPE_NL_MAXLEN);
	n->nlmsg_len = STRIPE_REQ_HDR;
	n->nlmsg_type = RTM_NEWQDISC;
	/* tc qdisc add's flags */
	n->nlmsg_flags = NLM_F_REQUEST | NLM_F_CREATE | NLM_F_EXCL;
	addattr_l(n, STRIPE_NL_MAXLEN, TCA_KIND, STRIPE_KIND,
		  sizeof(STRIPE_KIND));
	off = n->nlmsg_len;

	json_begin(false);
	ret = stripe_qdisc_util.parse_qopt(&stripe_qdisc_util, argc, argv, n,
					   "eth0");
	if (ret != 0 && ret != -1)
		fuzz_bug("parse_qopt returned neither 0 nor -1");
	if (ret == 0)
		check_options(n, off);
	free(n);
	free(text);
	return 0;
}

#endif /* FUZZ_PARSE */

#ifdef FUZZ_PRINT

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rtattr *rta;
	size_t len;

	if (size < 1)
		return 0;
	len = size - 1;
	if (len > 0xffff - RTA_LENGTH(0))
		return 0;
	/* Exactly the attribute, so a read past it is an ASan report */
	rta = malloc(RTA_LENGTH(len));
	rta->rta_len = RTA_LENGTH(len);
	rta->rta_type = data[0] & 1 ? TCA_STATS_APP : TCA_OPTIONS;
	memcpy(RTA_DATA(rta), data + 1, len);

	json_begin(data[0] & 2);
	if (data[0] & 1)
		stripe_qdisc_util.print_xstats(&stripe_qdisc_util, stdout, rta);
	else
		stripe_qdisc_util.print_qopt(&stripe_qdisc_util, stdout, rta);
	json_end();
	free(rta);
	return 0;
}

#endif /* FUZZ_PRINT */
