// SPDX-License-Identifier: GPL-2.0
/* The stripe counters in the human and JSON reports: the fields of uapi
 * commit 48d50b3 (markers, sender id, senders, hold-time histogram,
 * per-link skew) where the kernel sent them, and nothing of them where it
 * did not. --json-stream's events: -J's parts, text for text.
 */
#include <stdlib.h>
#include <string.h>

#include "../../include/stripe_stats_names.h"
#include "../report.h"
#include "../report_stream.h"
#include "tap.h"

/* A client side with a master of two links; new: the new fields too */
static void stripe_side(struct sp_side *s, bool new)
{
	struct sp_xstats *x = &s->stripe;
	unsigned int k;

	sp_side_init(s, false, true, false, 1);
	s->seconds = 1;
	s->stripe_asked = true;
	s->stripe_ok = true;
	snprintf(s->stripe_dev, sizeof(s->stripe_dev), "stripe0");
	x->has_role = true;
	x->has_master = true;
	snprintf(x->master.name, sizeof(x->master.name), "stripe0");
	x->master.links = 2;
	x->master.active = 2;
	x->master.tx_bytes = 3000;
	x->nlinks = 2;
	snprintf(x->link[0].name, sizeof(x->link[0].name), "eth2");
	snprintf(x->link[1].name, sizeof(x->link[1].name), "eth3");
	x->link[0].tx_bytes = 2000;
	x->link[1].tx_bytes = 1000;
	if (!new)
		return;
	x->has_markers = true;
	x->master.has_sender_id = true;
	x->master.sender_id = 0x0a0b0c0d;
	x->master.has_senders = true;
	x->master.rx_senders = 2;
	x->master.tx_markers = 11;
	x->master.rx_markers = 9;
	x->master.hold_hist_n = STRIPE_HOLD_HIST_BUCKETS;
	for (k = 0; k < STRIPE_HOLD_HIST_BUCKETS; k++)
		x->master.hold_hist[k] = 20 + k;
	x->link[0].tx_markers = 5;
	x->link[1].tx_markers = 6;
	x->link[1].has_skew = true;
	x->link[1].rx_skew_us = 420;
}

typedef void (*report_fn)(FILE *f, const struct sp_test_info *t,
			  const struct sp_side *local,
			  const struct sp_side *remote, const char *error);

/* The report of one side, in a malloc'd string */
static char *report(report_fn fn, const struct sp_side *s)
{
	struct sp_test_info t = { .streams = 1, .duration = 1 };
	size_t len;
	char *out;
	FILE *f;

	f = open_memstream(&out, &len);
	if (!f)
		return strdup("");
	fn(f, &t, s, NULL, NULL);
	fclose(f);
	return out;
}

/* The text of the line of out that starts with prefix (after blanks) */
static const char *line_of(const char *out, const char *prefix,
			   char *buf, size_t size)
{
	const char *p = out, *end;

	while (*p) {
		end = strchrnul(p, '\n');
		while (*p == ' ')
			p++;
		if (!strncmp(p, prefix, strlen(prefix))) {
			snprintf(buf, size, "%.*s", (int)(end - p), p);
			return buf;
		}
		p = *end ? end + 1 : end;
	}
	buf[0] = '\0';
	return buf;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

static void test_report_text(void)
{
	struct sp_side s;
	char l[512];
	char *out;

	stripe_side(&s, true);
	out = report(sp_report_human, &s);
	line_of(out, "tx  share", l, sizeof(l));
	ok(ends_with(l, " markers      skew"),
	   "text: markers and skew columns");
	line_of(out, "master", l, sizeof(l));
	ok(ends_with(l, " 11"), "text: master markers sent [%s]", l);
	line_of(out, "eth2", l, sizeof(l));
	ok(ends_with(l, "  5         -"), "text: eth2 markers, no skew [%s]", l);
	line_of(out, "eth3", l, sizeof(l));
	ok(ends_with(l, "  6     420us"), "text: eth3 markers and skew [%s]", l);
	ok(!strcmp(line_of(out, "sender", l, sizeof(l)),
		   "sender 0x0a0b0c0d, markers received 9, senders 2"),
	   "text: sender id, markers received, senders [%s]", l);
	ok(!strcmp(line_of(out, "hold-us", l, sizeof(l)),
		   "hold-us <16:20 <64:21 <256:22 <1024:23 <4096:24 <16384:25 <65536:26 >=65536:27"),
	   "text: hold-time histogram [%s]", l);
	free(out);

	s.stripe.master.hold_hist_n = 2;
	s.stripe.link[1].has_skew = false;
	out = report(sp_report_human, &s);
	ok(!strcmp(line_of(out, "hold-us", l, sizeof(l)),
		   "hold-us <16:20 <64:21") && !strstr(out, "skew"),
	   "text: short histogram, no skew column without a skew");
	free(out);
	sp_side_free(&s);

	stripe_side(&s, false);
	out = report(sp_report_human, &s);
	ok(!strstr(out, "markers") && !strstr(out, "skew") &&
	   !strstr(out, "hold-us") && !strstr(out, "sender 0x"),
	   "text: an older kernel's counters show none of the new fields");
	line_of(out, "master", l, sizeof(l));
	ok(!ends_with(l, " "), "text: no trailing blanks [%s]", l);
	free(out);
	sp_side_free(&s);
}

/* Issue 15: the stripe statistics keep the one spelling of
 * include/stripe_stats_names.h, and stripe-perf.1 documents each it writes.
 */
static void test_report_stat_names(void)
{
	const char *const *tables[] = { stripe_mstat_names, stripe_lstat_names };
	const unsigned int sizes[] = { TCA_STRIPE_MSTAT_MAX + 1,
				       TCA_STRIPE_LSTAT_MAX + 1 };
	char key[64], missing[512] = "", *out, *man = NULL;
	unsigned int t, k, written = 0;
	struct sp_side s;
	size_t len = 0;
	FILE *f;

	f = fopen("../Documentation/stripe-perf.1", "r");
	if (f) {
		if (getdelim(&man, &len, '\0', f) < 0) {
			free(man);
			man = NULL;
		}
		fclose(f);
	}
	stripe_side(&s, true);
	out = report(sp_report_json, &s);
	for (t = 0; t < 2; t++)
		for (k = 0; k < sizes[t]; k++) {
			if (!tables[t][k])
				continue;
			snprintf(key, sizeof(key), "\"%s\":", tables[t][k]);
			if (!strstr(out, key))
				continue;
			written++;
			if (!man || !strstr(man, tables[t][k]))
				snprintf(missing + strlen(missing),
					 sizeof(missing) - strlen(missing),
					 " %s", tables[t][k]);
		}
	ok(man && written >= 15 && !missing[0],
	   "stripe-perf.1 documents the %u statistics -J writes%s%s",
	   written, missing[0] ? "; missing:" : "", missing);
	free(man);
	free(out);
	sp_side_free(&s);
}

/* Issue 15, defect 6: 999.6 Mbit/s is "1.00 Gbits/sec", not "1e+03". */
static void test_report_rate(void)
{
	struct sp_side s;
	char *out;

	sp_side_init(&s, false, true, false, 1);
	s.seconds = 1;
	s.st[0].seconds = 1;
	s.st[0].bytes = 124950000;	/* 999.6 Mbit */
	s.sum = s.st[0];
	out = report(sp_report_human, &s);
	ok(!strstr(out, "e+") && strstr(out, "1.00 Gbits/sec"),
	   "text: 999.6 Mbit/s reads 1.00 Gbits/sec");
	free(out);
	s.st[0].bytes = 1543210;	/* 12.35 Mbit */
	s.sum = s.st[0];
	out = report(sp_report_human, &s);
	ok(strstr(out, "12.3 Mbits/sec") != NULL,
	   "text: 12.35 Mbit/s reads 12.3 Mbits/sec");
	free(out);
	sp_side_free(&s);
}

static void test_report_json(void)
{
	const char *last, *eth3, *skew;
	struct sp_side s;
	char *out;

	stripe_side(&s, true);
	out = report(sp_report_json, &s);
	ok(strstr(out, "\"sender_id\": 168496141,") &&
	   strstr(out, "\"tx_markers\": 11,") &&
	   strstr(out, "\"rx_markers\": 9,") &&
	   strstr(out, "\"rx_senders\": 2,"),
	   "json: sender_id, tx_markers, rx_markers, rx_senders");
	ok(strstr(out, "\"rx_hold_hist\": [\n") &&
	   strstr(out, "\"ge_us\": 0,\n") &&
	   strstr(out, "\"lt_us\": 16,\n") &&
	   strstr(out, "\"ge_us\": 16384,\n") &&
	   strstr(out, "\"lt_us\": 65536,\n") &&
	   strstr(out, "\"packets\": 26\n"),
	   "json: rx_hold_hist buckets with ge_us, lt_us, packets");
	last = strstr(out, "\"ge_us\": 65536,\n");
	ok(last && strstr(last, "\"packets\": 27\n") &&
	   strstr(last, "\"packets\": 27\n") < strstr(last, "}") &&
	   !strstr(last, "lt_us"),
	   "json: the last bucket has no lt_us");
	eth3 = strstr(out, "\"name\": \"eth3\"");
	skew = strstr(out, "\"rx_skew_us\": 420\n");
	ok(strstr(out, "\"tx_markers\": 5") &&
	   strstr(out, "\"tx_markers\": 6") && eth3 && skew > eth3 &&
	   !strstr(skew + strlen("\"rx_skew_us\""), "rx_skew_us"),
	   "json: per-link tx_markers; rx_skew_us on eth3 only");
	free(out);
	s.stripe.link[1].has_skew = false;
	out = report(sp_report_json, &s);
	ok(!strstr(out, "rx_skew_us"), "json: no rx_skew_us when not measured");
	free(out);
	sp_side_free(&s);

	stripe_side(&s, false);
	out = report(sp_report_json, &s);
	ok(!strstr(out, "markers") && !strstr(out, "rx_skew_us") &&
	   !strstr(out, "rx_hold_hist") && !strstr(out, "sender_id") &&
	   !strstr(out, "rx_senders"),
	   "json: an older kernel's counters give none of the new keys");
	free(out);
	sp_side_free(&s);
}

/* A side of n streams with rows rows; bytes tell rows and streams apart */
static void stream_side(struct sp_side *s, bool sender, unsigned int n,
			unsigned int rows, uint64_t base)
{
	struct sp_ival *row;
	unsigned int k, i;

	sp_side_init(s, false, sender, false, n);
	s->seconds = rows;
	for (k = 0; k < rows; k++) {
		row = sp_side_add_ival(s);
		for (i = 0; i <= n; i++) {
			row[i].start = k;
			row[i].end = k + 1;
			row[i].bytes = base + 100 * k + i;
			row[i].rtt_us = 50 + i;
		}
	}
	for (i = 0; i < n; i++) {
		s->st[i].bytes = base + i;
		s->st[i].seconds = rows;
	}
	sp_side_sum_streams(s);
}

/* -J's document without its blanks, as the events write it */
static void squeeze(char *p)
{
	bool in_str = false, esc = false;
	char *q = p;

	for (; *p; p++) {
		if (!in_str && (*p == ' ' || *p == '\n'))
			continue;
		if (in_str && !esc && *p == '"')
			in_str = false;
		else if (!in_str && *p == '"')
			in_str = true;
		esc = in_str && !esc && *p == '\\';
		*q++ = *p;
	}
	*q = '\0';
}

/* The data of line n of the events if it is event ev, else NULL */
static char *event_data(const char *out, unsigned int n, const char *ev,
			char *buf, size_t size)
{
	char head[64];
	const char *end;
	size_t len;

	while (n-- && out)
		out = strchr(out, '\n') ? strchr(out, '\n') + 1 : NULL;
	end = out ? strchr(out, '\n') : NULL;
	len = snprintf(head, sizeof(head), "{\"event\":\"%s\",\"data\":", ev);
	if (!end || strncmp(out, head, len) || end[-1] != '}' ||
	    (size_t)(end - out) - len >= size)
		return NULL;
	snprintf(buf, size, "%.*s", (int)(end - out - len - 1), out + len);
	return buf;
}

/* The events of a test of sides fwd (and with --bidir rev), their rows
 * told in the order of order[] (0: fwd's next, 1: rev's next); and -J's
 * document of the same, squeezed.
 */
static char *stream_of(const struct sp_side *fwd, const struct sp_side *rev,
		       const struct sp_side *remote, const int *order,
		       unsigned int n, const char *error, char **doc)
{
	struct sp_test_info t = { .streams = fwd->nstreams, .duration = 3,
				  .interval = 1, .bidir = rev != NULL };
	unsigned int k[2] = { 0, 0 }, i;
	struct sp_jstream js;
	char *out;
	size_t len;
	FILE *f;

	f = open_memstream(doc, &len);
	sp_report_json2(f, &t, fwd, remote, rev, NULL, error);
	fclose(f);
	squeeze(*doc);
	f = open_memstream(&out, &len);
	sp_jstream_init(&js, f);
	sp_jstream_start(&js, &t, fwd, rev);
	for (i = 0; i < n; i++) {
		const struct sp_side *s = order[i] ? rev : fwd;

		sp_jstream_ival(&js, s, k[order[i]]++);
	}
	sp_jstream_end(&js, &t, fwd, remote, rev, NULL, error);
	fclose(f);
	return out;
}

/* The interval events from line first on, joined by commas as they are
 * in -J's intervals
 */
static void join_intervals(const char *out, unsigned int first,
			   unsigned int n, char *buf, size_t size)
{
	char d[4096];
	size_t len = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < n && len < size; i++) {
		if (!event_data(out, first + i, "interval", d, sizeof(d)))
			d[0] = '\0';
		len += snprintf(buf + len, size - len, "%s%s", i ? "," : "",
				d);
	}
}

static void test_report_stream(void)
{
	static const int one[] = { 0, 0, 0 };
	/* --bidir: the reverse direction a row ahead, then the forward
	 * one's last row alone, as a receiver's last one may be
	 */
	static const int two[] = { 0, 1, 1, 0, 0 };
	struct sp_side fwd, rev, remote;
	static char want[20480], got[16384], d[8192];
	struct sp_jstream js;
	char *out, *doc, *p;
	size_t len;
	FILE *f;

	stream_side(&fwd, true, 2, 3, 1000);
	stream_side(&remote, false, 2, 3, 2000);
	remote.server = true;
	out = stream_of(&fwd, NULL, &remote, one, 3, NULL, &doc);
	ok(event_data(out, 0, "start", d, sizeof(d)) &&
	   strstr(d, "\"connected\":[]") &&
	   strstr(d, "\"test_start\":{\"protocol\":\"TCP\",\"num_streams\":2,"),
	   "stream: start first, its data -J's start");
	join_intervals(out, 1, 3, got, sizeof(got));
	snprintf(want, sizeof(want), "\"intervals\":[%s],", got);
	ok(got[0] && strstr(doc, want),
	   "stream: an interval event per element of -J's intervals, as text");
	if (!strstr(doc, want))
		diag("events: %s", got);
	p = event_data(out, 4, "summary", d, sizeof(d));
	snprintf(want, sizeof(want), "\"summary\":%s", p ? p : "?");
	ok(p && strstr(doc, want),
	   "stream: then summary, -J's summary");
	p = event_data(out, 5, "end", d, sizeof(d));
	snprintf(want, sizeof(want), "\"end\":%s,", p ? p : "?");
	ok(p && strstr(doc, want) && strstr(p, "\"sum_received\":"),
	   "stream: end last, -J's end");
	p = strchr(out, '\0');
	ok(p > out && p[-1] == '\n' && !event_data(out, 6, "end", d, sizeof(d)),
	   "stream: nothing after the end");
	free(out);
	free(doc);

	stream_side(&rev, false, 2, 2, 3000);
	rev.bidir = fwd.bidir = true;
	out = stream_of(&fwd, &rev, NULL, two, 5, "peer aborted", &doc);
	join_intervals(out, 1, 3, got, sizeof(got));
	snprintf(want, sizeof(want), "\"intervals\":[%s],", got);
	ok(strstr(doc, want) &&
	   strstr(got, "\"sum_bidir_reverse\":{\"start\":2,\"end\":3,"
		       "\"seconds\":1,\"bytes\":0,"),
	   "stream --bidir: a time's rows in one event, a lone row with zero sums, as -J");
	if (!strstr(doc, want))
		diag("events: %s", got);
	ok(event_data(out, 4, "error", d, sizeof(d)) &&
	   !strcmp(d, "\"peer aborted\"") &&
	   strstr(doc, "\"error\":\"peer aborted\"") &&
	   event_data(out, 5, "summary", d, sizeof(d)) &&
	   event_data(out, 6, "end", d, sizeof(d)),
	   "stream: a failed test's error, then summary and end");
	free(out);
	free(doc);

	f = open_memstream(&out, &len);
	sp_jstream_init(&js, f);
	sp_jstream_fail(&js, "connection refused");
	sp_jstream_fail(&js, "again");
	fclose(f);
	ok(!strcmp(out, "{\"event\":\"error\","
			"\"data\":\"connection refused\"}\n"
			"{\"event\":\"end\",\"data\":{}}\n"),
	   "stream: no test, as iperf3: the error and an empty end, once");
	free(out);
	sp_side_free(&fwd);
	sp_side_free(&rev);
	sp_side_free(&remote);
}

void test_report(void)
{
	test_report_stat_names();
	test_report_rate();
	test_report_text();
	test_report_json();
	test_report_stream();
}
