// SPDX-License-Identifier: GPL-2.0
/* Control channel framing and the results wire form. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../clock.h"
#include "../ctrl.h"
#include "../proto.h"
#include "../results.h"
#include "tap.h"

static void test_framing(void)
{
	struct sp_ctrl a, b;
	struct sp_msg m;
	struct sp_buf buf;
	uint64_t u;
	double d;
	int sv[2], ret;
	int64_t t0;

	sp_buf_init(&buf);
	sp_msg_begin(&buf, "PARAMS");
	sp_msg_kv(&buf, "streams", "%u", 4);
	sp_msg_kv(&buf, "time", "%.3f", 2.5);
	sp_msg_kv(&buf, "note", "two\nlines");
	sp_msg_end(&buf);

	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	fcntl(sv[0], F_SETFL, O_NONBLOCK);
	fcntl(sv[1], F_SETFL, O_NONBLOCK);
	sp_ctrl_init(&a, sv[0]);
	sp_ctrl_init(&b, sv[1]);

	/* half a message is not a message */
	ret = (int)write(sv[0], buf.p, 10);
	ok(ret == 10 && sp_ctrl_try(&b, &m) == 0,
	   "partial message: not complete yet");
	ret = (int)write(sv[0], buf.p + 10, buf.len - 10);
	ret = sp_ctrl_try(&b, &m);
	ok(ret == 1 && !strcmp(m.verb, "PARAMS") && m.n == 3 &&
	   !sp_msg_u64(&m, "streams", &u) && u == 4 &&
	   !sp_msg_dbl(&m, "time", &d) && d == 2.5 &&
	   !strcmp(sp_msg_get(&m, "note"), "two lines") &&
	   !sp_msg_get(&m, "missing"),
	   "message parsed; a newline inside a value cannot split it");
	sp_msg_free(&m);

	/* two messages in one read */
	sp_ctrl_send(&a, &buf, sp_now_ns() + SP_NSEC_PER_SEC);
	sp_msg_begin(&buf, "START");
	sp_msg_end(&buf);
	sp_ctrl_send(&a, &buf, sp_now_ns() + SP_NSEC_PER_SEC);
	ret = sp_ctrl_recv(&b, &m, sp_now_ns() + SP_NSEC_PER_SEC);
	ok(ret == 0 && !strcmp(m.verb, "PARAMS"), "first of two messages");
	sp_msg_free(&m);
	ret = sp_ctrl_recv(&b, &m, sp_now_ns() + SP_NSEC_PER_SEC);
	ok(ret == 0 && !strcmp(m.verb, "START") && m.n == 0,
	   "second of two messages");
	sp_msg_free(&m);

	t0 = sp_now_ns();
	ret = sp_ctrl_recv(&b, &m, t0 + 100 * SP_NSEC_PER_MSEC);
	t0 = sp_now_ns() - t0;
	ok(ret == -ETIMEDOUT && t0 >= 90 * SP_NSEC_PER_MSEC &&
	   t0 < 1000 * SP_NSEC_PER_MSEC, "silent peer: -ETIMEDOUT on time");

	sp_ctrl_close(&a);
	ret = sp_ctrl_recv(&b, &m, sp_now_ns() + SP_NSEC_PER_SEC);
	ok(ret == -ECONNRESET, "closed peer: -ECONNRESET");
	sp_ctrl_close(&b);
	sp_buf_free(&buf);
}

static void test_side_roundtrip(void)
{
	static struct sp_side s, r;
	struct sp_buf buf;
	struct sp_ival *iv;
	struct sp_msg m;
	char *text;
	int ret;

	sp_side_init(&s, true, false, true, 3);
	s.seconds = 2.0001;
	s.st[1].bytes = 123456789012ULL;
	s.st[1].udp.extent[3] = 7;
	s.st[1].udp.nreord[SP_NREORD_MAX] = 9;
	s.st[2].udp.owd_p99_us = 12.5;
	s.st[2].tcp.reord_seen = 4;
	s.sum.udp.lost = 11;
	iv = sp_side_add_ival(&s);
	iv[3].bytes = 555;
	iv[3].end = 1.0;
	s.stripe_asked = true;
	s.stripe_ok = true;
	snprintf(s.stripe_dev, sizeof(s.stripe_dev), "stripe0");
	snprintf(s.stripe.master.name, 16, "stripe0");
	s.stripe.master.tx_bytes = 1000;
	s.stripe.nlinks = 2;
	snprintf(s.stripe.link[1].name, 16, "veth1");
	s.stripe.link[1].tx_bytes = 400;
	s.stripe.link[1].ifindex = 9;
	s.stripe.has_markers = true;
	s.stripe.master.has_sender_id = true;
	s.stripe.master.sender_id = 0xfedcba98;
	s.stripe.master.has_senders = true;
	s.stripe.master.rx_markers = 33;
	s.stripe.master.hold_hist_n = STRIPE_HOLD_HIST_BUCKETS;
	s.stripe.master.hold_hist[1] = 5;
	s.stripe.master.hold_hist[STRIPE_HOLD_HIST_BUCKETS - 1] = 6;
	s.stripe.link[0].has_skew = true;	/* 0 us: the fastest */
	s.stripe.link[1].has_skew = true;
	s.stripe.link[1].rx_skew_us = 420;
	s.stripe.link[1].tx_markers = 8;

	sp_buf_init(&buf);
	sp_msg_begin(&buf, "RESULTS");
	sp_side_put(&s, &buf);
	sp_msg_end(&buf);
	text = strdup(buf.p);
	ret = sp_msg_parse(text, &m);
	ok(ret == 0 && sp_side_get(&m, &r) == 0, "results parse back");
	ok(r.server && !r.sender && r.udp && r.nstreams == 3 &&
	   r.seconds > 2.0 && r.st[1].bytes == 123456789012ULL &&
	   r.st[1].udp.extent[3] == 7 &&
	   r.st[1].udp.nreord[SP_NREORD_MAX] == 9 &&
	   r.st[2].udp.owd_p99_us == 12.5 && r.st[2].tcp.reord_seen == 4 &&
	   r.sum.udp.lost == 11, "stream and total fields survive");
	ok(r.niv == 1 && r.ivw == 1 && r.iv[0].bytes == 555 &&
	   r.iv[0].end == 1.0, "interval sums survive");
	ok(r.stripe_asked && r.stripe_ok && r.stripe.nlinks == 2 &&
	   !strcmp(r.stripe.master.name, "stripe0") &&
	   r.stripe.master.tx_bytes == 1000 &&
	   !strcmp(r.stripe.link[1].name, "veth1") &&
	   r.stripe.link[1].tx_bytes == 400 && r.stripe.link[1].ifindex == 9,
	   "stripe counters survive");
	ok(r.stripe.has_markers && r.stripe.master.has_sender_id &&
	   r.stripe.master.sender_id == 0xfedcba98 &&
	   r.stripe.master.has_senders && r.stripe.master.rx_senders == 0 &&
	   r.stripe.master.rx_markers == 33 &&
	   r.stripe.master.hold_hist_n == STRIPE_HOLD_HIST_BUCKETS &&
	   r.stripe.master.hold_hist[1] == 5 &&
	   r.stripe.master.hold_hist[STRIPE_HOLD_HIST_BUCKETS - 1] == 6 &&
	   r.stripe.link[0].has_skew && r.stripe.link[0].rx_skew_us == 0 &&
	   r.stripe.link[1].has_skew && r.stripe.link[1].rx_skew_us == 420 &&
	   r.stripe.link[1].tx_markers == 8,
	   "markers, sender, senders, histogram and skew survive, 0 included");
	sp_msg_free(&m);
	sp_side_free(&s);
	sp_side_free(&r);
	sp_buf_free(&buf);
}

/* Issue 15, defect 3: a 24-hour run with 1 s intervals, as the sending
 * server of -R records it, must still fit one RESULTS message, and keep
 * its whole time line and totals.
 */
static void test_day_of_intervals(void)
{
	static struct sp_side s;
	struct sp_ival *row;
	struct sp_buf buf;
	uint64_t bytes = 0;
	unsigned int k, gaps = 0;

	sp_side_init(&s, true, true, false, 1);
	for (k = 0; k < 86400; k++) {
		row = sp_side_add_ival(&s);
		if (!row)
			break;
		row[0].start = row[1].start = k;
		row[0].end = row[1].end = k + 1;
		row[0].bytes = row[1].bytes = 1250000000;
		row[0].packets = row[1].packets = 863000;
		row[0].retrans = row[1].retrans = 12345;
		row[0].reord_seen = row[1].reord_seen = 678;
		row[0].reordering = row[1].reordering = 127;
		row[0].rtt_us = row[1].rtt_us = 12345;
		row[0].cwnd = row[1].cwnd = 4321;
	}
	sp_buf_init(&buf);
	sp_msg_begin(&buf, "RESULTS");
	sp_side_put(&s, &buf);
	sp_msg_end(&buf);
	diag("86400 intervals: %u rows, RESULTS %zu bytes", s.niv, buf.len);
	ok(k == 86400 && !buf.oom && buf.len < SP_CTRL_MAX_MSG / 4,
	   "a day of 1 s intervals fits the RESULTS message");
	for (k = 0; k < s.niv; k++) {
		bytes += s.iv[k * s.ivw + 1].bytes;
		if (k && s.iv[k * s.ivw].start != s.iv[(k - 1) * s.ivw].end)
			gaps++;
	}
	ok(s.niv <= 4096 && s.niv > 1000 && !gaps && s.iv[0].start == 0 &&
	   s.iv[(s.niv - 1) * s.ivw].end == 86400 &&
	   bytes == 86400ULL * 1250000000,
	   "its rows are bounded and still cover 0-86400 s with every byte");
	sp_side_free(&s);
	sp_buf_free(&buf);
}

/* -O: the omitted rows make room first and are never merged into the
 * measured ones (their times count from the test's start).
 */
static void test_omitted_rows(void)
{
	static struct sp_side s;
	struct sp_ival *row;
	unsigned int k, omitted = 0, mixed = 0;

	sp_side_init(&s, true, true, false, 1);
	for (k = 0; k < 3 * 4096; k++) {
		row = sp_side_add_ival(&s);
		if (!row)
			break;
		row[0].omitted = row[1].omitted = k < 5;
		row[0].start = row[1].start = k < 5 ? k : k - 5;
		row[0].end = row[1].end = row[1].start + 1;
		row[0].bytes = row[1].bytes = k < 5 ? 1000 : 1;
	}
	for (k = 0; k < s.niv; k++) {
		omitted += s.iv[k * s.ivw + 1].omitted != 0;
		mixed += s.iv[k * s.ivw + 1].bytes >= 1000 &&
			 !s.iv[k * s.ivw + 1].omitted;
	}
	ok(k && !omitted && !mixed && s.iv[1].start == 0 &&
	   s.iv[(s.niv - 1) * s.ivw + 1].end == 3 * 4096 - 5,
	   "omitted rows go first when full, none merged into results");
	sp_side_free(&s);
}

/* -O and --bidir reach the server, and a server that leaves them out of
 * ACCEPT (one that does not know them) is not taken to have run them.
 */
static void test_params_bidir_omit(void)
{
	struct sp_params p = { .version = SP_PROTO_VER, .streams = 64,
			       .duration = 2, .len = 1000, .bidir = true,
			       .omit = 1.5, .udp = true, .udp_port = 999 };
	struct sp_params q;
	struct sp_buf b;
	struct sp_msg m;
	char err[128] = "";

	sp_buf_init(&b);
	sp_params_put(&p, &b);
	ok(!sp_msg_parse(strdup(b.p), &m) &&
	   !sp_params_get(&m, &q, err, sizeof(err)) && q.bidir &&
	   q.omit == 1.5 && q.streams == 64 && q.udp_port == 999,
	   "PARAMS carries bidir and omit [%s]", err);
	sp_msg_free(&m);
	p.streams = 65;
	sp_params_put(&p, &b);
	ok(!sp_msg_parse(strdup(b.p), &m) &&
	   sp_params_get(&m, &q, err, sizeof(err)) &&
	   strstr(err, "streams"),
	   "--bidir: at most 64 streams each way [%s]", err);
	sp_msg_free(&m);
	p.streams = 1;
	p.reverse = true;
	sp_params_put(&p, &b);
	ok(!sp_msg_parse(strdup(b.p), &m) &&
	   sp_params_get(&m, &q, err, sizeof(err)) && strstr(err, "bidir"),
	   "--bidir with reverse is refused [%s]", err);
	sp_msg_free(&m);
	p.reverse = false;
	sp_accept_put(&p, 5000, &b);
	ok(!sp_msg_parse(strdup(b.p), &m) &&
	   !sp_accept_check(&m, &p, err, sizeof(err)),
	   "ACCEPT echoes bidir and omit");
	sp_msg_free(&m);
	ok(!sp_msg_parse(strdup("ACCEPT\nudp_port 5000\n\n"), &m) &&
	   sp_accept_check(&m, &p, err, sizeof(err)) == -EPROTO &&
	   strstr(err, "--bidir"),
	   "an ACCEPT without the echo: the server does not know [%s]", err);
	sp_msg_free(&m);
	sp_buf_free(&b);
}

/* PARAMS of p with the value of key replaced by val (review U6) */
static int params_with(const struct sp_params *p, const char *key,
		       const char *val, char *err, size_t errlen)
{
	struct sp_params q;
	struct sp_buf b;
	struct sp_msg m;
	char line[64], *text, *at, *nl;
	int ret = -1;

	sp_buf_init(&b);
	sp_params_put(p, &b);
	snprintf(line, sizeof(line), "\n%s ", key);
	at = strstr(b.p, line);
	text = malloc(b.len + strlen(val) + 1);
	if (at && text) {
		nl = strchr(at + 1, '\n');
		sprintf(text, "%.*s%s%s%s", (int)(at - b.p), b.p, line, val,
			nl);
		if (!sp_msg_parse(text, &m))
			ret = sp_params_get(&m, &q, err, errlen);
		sp_msg_free(&m);	/* owns text */
	} else {
		free(text);
	}
	sp_buf_free(&b);
	return ret;
}

/* Wire numbers that no range check catches: NaN fails every comparison,
 * and an interval of "nan" reached the data phase.
 */
static void test_params_not_finite(void)
{
	static const char *const bad[] = { "nan", "NaN", "-nan", "inf",
					   "-inf", "infinity", "-1", "1e999" };
	static const char *const keys[] = { "interval", "duration", "omit" };
	struct sp_params p = { .version = SP_PROTO_VER, .streams = 1,
			       .duration = 2, .interval = 0.5, .len = 1000,
			       .omit = 1 };
	char err[128] = "";
	unsigned int i, k, refused;

	ok(params_with(&p, "interval", "0.500000", err, sizeof(err)) == 0,
	   "PARAMS as sent are taken [%s]", err);
	for (k = 0; k < 3; k++) {
		refused = 0;
		for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			err[0] = '\0';
			if (params_with(&p, keys[k], bad[i], err,
					sizeof(err)) == -EINVAL &&
			    strstr(err, keys[k]))
				refused++;
			else
				diag("%s %s: taken [%s]", keys[k], bad[i],
				     err);
		}
		ok(refused == sizeof(bad) / sizeof(bad[0]),
		   "PARAMS %s of nan, inf or below 0: refused", keys[k]);
	}
}

/* -b for TCP: a sending server must pace, and says so in ACCEPT. */
static void test_accept_tcp_rate(void)
{
	struct sp_params p = { .version = SP_PROTO_VER, .streams = 1,
			       .duration = 1, .len = 1000, .rate = 1000000 };
	struct sp_buf b;
	struct sp_msg m;
	char err[128] = "";

	sp_buf_init(&b);
	sp_accept_put(&p, 0, &b);
	ok(strstr(b.p, "\ntcp_rate 1000000\n") &&
	   !sp_msg_parse(strdup(b.p), &m) &&
	   !sp_accept_check(&m, &p, err, sizeof(err)),
	   "ACCEPT echoes a TCP rate [%s]", err);
	sp_msg_free(&m);
	p.reverse = true;
	ok(!sp_msg_parse(strdup("ACCEPT\nudp_port 0\n\n"), &m) &&
	   sp_accept_check(&m, &p, err, sizeof(err)) == -EPROTO &&
	   strstr(err, "-b"),
	   "-R -b: a server that does not pace TCP is refused [%s]", err);
	sp_msg_free(&m);
	p.reverse = false;
	ok(!sp_msg_parse(strdup("ACCEPT\nudp_port 0\n\n"), &m) &&
	   !sp_accept_check(&m, &p, err, sizeof(err)),
	   "-b, client sends: it paces itself, any server will do");
	sp_msg_free(&m);
	sp_buf_free(&b);
}

void test_ctrl(void)
{
	test_framing();
	test_side_roundtrip();
	test_day_of_intervals();
	test_omitted_rows();
	test_params_bidir_omit();
	test_params_not_finite();
	test_accept_tcp_rate();
}
