// SPDX-License-Identifier: GPL-2.0
/* Reports. Field names are the interface for scripts: the JSON keys are
 * listed in Documentation/stripe-perf.1 and must not change meaning.
 * Bytes are shown in binary units, rates in decimal bit/s.
 */
#include <inttypes.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>
#include <sys/utsname.h>

#include <linux/stripe.h>

#include "json.h"
#include "../include/stripe_stats_names.h"
#include "net.h"
#include "proto.h"
#include "report.h"
#include "report_iperf3.h"
#include "session.h"

static const char *sp_fmt_bytes(uint64_t b, char *buf, size_t len)
{
	static const char *const unit[] = { "Bytes", "KBytes", "MBytes",
					    "GBytes", "TBytes" };
	double v = (double)b;
	unsigned int u = 0;

	while (v >= 1024 && u < 4) {
		v /= 1024;
		u++;
	}
	snprintf(buf, len, u ? "%.2f %s" : "%.0f %s", v, unit[u]);
	return buf;
}

static const char *sp_fmt_rate(double bps, char *buf, size_t len)
{
	static const char *const unit[] = { "bits/sec", "Kbits/sec",
					    "Mbits/sec", "Gbits/sec",
					    "Tbits/sec" };
	unsigned int u = 0;

	/* three digits as iperf3 prints them, never "1e+03": 999.6 of a
	 * unit rounds up into the next one
	 */
	while (bps >= 999.5 && u < 4) {
		bps /= 1000;
		u++;
	}
	snprintf(buf, len, bps < 9.995 ? "%.2f %s" : bps < 99.95 ?
		 "%.1f %s" : "%.0f %s", bps, unit[u]);
	return buf;
}

static double sp_bps(uint64_t bytes, double seconds)
{
	return seconds > 0 ? (double)bytes * 8 / seconds : 0;
}

static double sp_ratio(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : 0;
}

/* "[  2]", "[SUM]"; with --bidir iperf3's direction tag follows:
 * "[  3][RX-C]" (TX/RX: this side sends/receives; C/S: client/server),
 * and the reverse direction's streams are numbered after the forward's
 */
static void sp_id(char *buf, size_t len, const struct sp_side *s,
		  unsigned int i)
{
	unsigned int base = s->bidir && s->server == s->sender ?
			    s->nstreams : 0;
	int n;

	if (i >= s->nstreams && s->nstreams > 1)
		n = snprintf(buf, len, "[SUM]");
	else
		n = snprintf(buf, len, "[%3u]", base + (i < s->nstreams ? i :
								     0));
	if (s->bidir && n > 0 && (size_t)n < len)
		snprintf(buf + n, len - n, "[%s-%s]",
			 s->sender ? "TX" : "RX", s->server ? "S" : "C");
}

static void sp_ival_line(FILE *f, const struct sp_side *s,
			 const struct sp_ival *iv, unsigned int i)
{
	char id[24], b[32], r[32];
	double secs = iv->end - iv->start;

	sp_id(id, sizeof(id), s, i);
	fprintf(f, "%s %6.2f-%-6.2f sec  %11s  %14s", id, iv->start, iv->end,
		sp_fmt_bytes(iv->bytes, b, sizeof(b)),
		sp_fmt_rate(sp_bps(iv->bytes, secs), r, sizeof(r)));
	if (s->udp)
		fprintf(f, "  %8" PRIu64 " datagrams", iv->packets);
	else if (s->sender)
		fprintf(f, "  retr %-4" PRIu64 " reord %" PRIu64 "/%-3" PRIu64
			" cwnd %-5" PRIu64 " rtt %" PRIu64 " us",
			iv->retrans, iv->reord_seen, iv->reordering, iv->cwnd,
			iv->rtt_us);
	else
		fprintf(f, "  ooo %" PRIu64, iv->rcv_ooopack);
	fputs(iv->omitted ? "  (omitted)\n" : "\n", f);
}

void sp_report_ival(FILE *f, const struct sp_side *s, unsigned int k)
{
	unsigned int i;

	/* --bidir: one heading over both directions' lines */
	if (k == 0 && !(s->bidir && s->server == s->sender))
		fprintf(f, "[ ID] Interval           Transfer     Bitrate\n");
	if (s->nstreams > 1)
		for (i = 0; i < s->nstreams; i++)
			sp_ival_line(f, s, &s->iv[k * s->ivw + i], i);
	sp_ival_line(f, s, &s->iv[k * s->ivw + s->ivw - 1], s->nstreams);
	fflush(f);
}

static void sp_hist_text(FILE *f, const uint64_t *h)
{
	unsigned int b;
	uint64_t lo, hi;

	for (b = 0; b < SP_HIST_N; b++) {
		if (!h[b])
			continue;
		lo = sp_hist_lo(b);
		hi = sp_hist_hi(b);
		if (hi == UINT64_MAX)
			fprintf(f, " >%" PRIu64 ":%" PRIu64, lo - 1, h[b]);
		else if (lo == hi)
			fprintf(f, " %" PRIu64 ":%" PRIu64, lo, h[b]);
		else
			fprintf(f, " %" PRIu64 "-%" PRIu64 ":%" PRIu64, lo, hi,
				h[b]);
	}
	fputc('\n', f);
}

static void sp_udp_text(FILE *f, const struct sp_udp_stats *u)
{
	unsigned int n;

	fprintf(f, "      datagrams: %" PRIu64 " sent, %" PRIu64
		" received, %" PRIu64 " lost (%.3f%%), %" PRIu64
		" duplicate, %" PRIu64 " corrupt",
		u->sent, u->received, u->lost,
		100 * sp_ratio(u->lost, u->sent), u->dup, u->corrupt);
	if (u->foreign)
		fprintf(f, ", %" PRIu64 " foreign (ignored)", u->foreign);
	fputc('\n', f);
	fprintf(f, "      reordering (RFC 4737): %" PRIu64
		" reordered (%.3f%%), max extent %" PRIu64 ", n-reordering",
		u->reordered, 100 * sp_ratio(u->reordered, u->received),
		u->max_extent);
	for (n = 1; n <= 3 || (n <= SP_NREORD_MAX && u->nreord[n]); n++)
		fprintf(f, " %u:%" PRIu64, n, u->nreord[n]);
	fputc('\n', f);
	if (u->reordered) {
		fprintf(f, "      extent histogram:");
		sp_hist_text(f, u->extent);
	}
	fprintf(f, "      reorder buffer occupancy (RFC 5236 RBD):");
	sp_hist_text(f, u->rbd);
	fprintf(f, "      delay variation (RFC 5481 PDV): p50 %.1f p90 %.1f p99 %.1f max %.1f us, jitter %.1f us\n",
		u->pdv_p50_us, u->pdv_p90_us, u->pdv_p99_us, u->pdv_max_us,
		u->jitter_us);
	if (u->clocks_synced)
		fprintf(f, "      one-way delay: min %.1f p50 %.1f p90 %.1f p99 %.1f max %.1f us\n",
			u->owd_min_us, u->owd_p50_us, u->owd_p90_us,
			u->owd_p99_us, u->owd_max_us);
}

static void sp_side_line(FILE *f, const struct sp_side *s,
			 const struct sp_stream_res *r, unsigned int i)
{
	char id[24], b[32], rt[32];
	const struct sp_tcp_stats *t = &r->tcp;

	sp_id(id, sizeof(id), s, i);
	fprintf(f, "%s %6.2f-%-6.2f sec  %11s  %14s  %-8s (%s)", id, 0.0,
		r->seconds, sp_fmt_bytes(r->bytes, b, sizeof(b)),
		sp_fmt_rate(sp_bps(r->bytes, r->seconds), rt, sizeof(rt)),
		s->sender ? "sender" : "receiver",
		s->server ? "server" : "client");
	if (!s->udp && t->valid && s->sender)
		fprintf(f, "  retr %" PRIu64 " reord %" PRIu64 "/%" PRIu64
			" rtt %" PRIu64 " us cwnd %" PRIu64, t->total_retrans,
			t->reord_seen, t->reordering, t->rtt_us, t->cwnd);
	if (!s->udp && t->valid && !s->sender)
		fprintf(f, "  ooo %" PRIu64, t->rcv_ooopack);
	if (t->mptcp)
		fprintf(f, "  mptcp %s%" PRIu64 " subflows",
			t->mptcp_fallback ? "FALLBACK " : "",
			t->mptcp_subflows);
	fputc('\n', f);
}

static void sp_side_text(FILE *f, const struct sp_side *s)
{
	unsigned int i;
	char b[32];

	if (s->nstreams > 1)
		for (i = 0; i < s->nstreams; i++)
			sp_side_line(f, s, &s->st[i], i);
	sp_side_line(f, s, &s->sum, s->nstreams);
	if (s->sender)
		return;
	if (s->udp)
		sp_udp_text(f, &s->sum.udp);
	else
		fprintf(f, "      integrity: %s, %" PRIu64
			" corrupt bytes in %s\n",
			s->sum.corrupt_bytes ? "FAILED" : "ok",
			s->sum.corrupt_bytes,
			sp_fmt_bytes(s->sum.bytes, b, sizeof(b)));
}

/* "up" or "down", then the other flags set, by their one spelling */
static void sp_flags_text(char *buf, size_t len, uint32_t fl)
{
	int n = snprintf(buf, len, "%s", fl & STRIPE_LINK_F_UP ? "up" : "down");
	size_t i;

	for (i = 0; i < STRIPE_LINK_NFLAGS && n >= 0 && (size_t)n < len; i++) {
		const struct stripe_flag_name *f = &stripe_link_flag_names[i];

		if (f->bit != STRIPE_LINK_F_UP && (fl & f->bit))
			n += snprintf(buf + n, len - n, ",%s", f->name);
	}
}

/* Bucket k of the hold-time histogram: [lo, hi) us; false: no hi */
static bool sp_hold_bucket(unsigned int k, uint32_t *lo, uint32_t *hi)
{
	*lo = k ? STRIPE_HOLD_HIST_BOUND_US(k - 1) : 0;
	*hi = STRIPE_HOLD_HIST_BOUND_US(k);
	return k + 1 < STRIPE_HOLD_HIST_BUCKETS;
}

/* What the receiver did: sender id, markers received, senders, holds */
static void sp_stripe_rx_text(FILE *f, const struct sp_xstats *x)
{
	const struct sp_xmaster *m = &x->master;
	const char *sep = "  ";
	uint32_t lo, hi;
	unsigned int k;

	if (m->has_sender_id) {
		fprintf(f, "%ssender 0x%08x", sep, m->sender_id);
		sep = ", ";
	}
	if (x->has_markers) {
		fprintf(f, "%smarkers received %" PRIu64, sep, m->rx_markers);
		sep = ", ";
	}
	if (m->has_senders) {
		fprintf(f, "%ssenders %u", sep, m->rx_senders);
		sep = ", ";
	}
	if (sep[0] == ',')
		fprintf(f, "\n");
	if (!m->hold_hist_n)
		return;
	fprintf(f, "  hold-us");
	for (k = 0; k < m->hold_hist_n; k++) {
		if (sp_hold_bucket(k, &lo, &hi))
			fprintf(f, " <%u:%" PRIu64, hi, m->hold_hist[k]);
		else
			fprintf(f, " >=%u:%" PRIu64, lo, m->hold_hist[k]);
	}
	fprintf(f, "\n");
}

static void sp_stripe_text(FILE *f, const struct sp_side *s)
{
	const struct sp_xstats *x = &s->stripe;
	const struct sp_xlink *l;
	uint64_t tx = 0, rx = 0;
	char b[32], b2[32], fl[48];
	bool skew = false;
	unsigned int i;

	if (!s->stripe_asked)
		return;
	fprintf(f, "stripe counters on %s (%s):", s->stripe_dev,
		s->server ? "server" : "client");
	if (!s->stripe_ok) {
		fprintf(f, " unavailable: %s\n", s->stripe_msg);
		return;
	}
	fprintf(f, " %s %s, %u links, %u active; change during the test\n",
		x->role == STRIPE_ROLE_LINK ? "link of" : "master",
		x->master.name[0] ? x->master.name : s->stripe_dev,
		x->master.links, x->master.active);
	for (i = 0; i < x->nlinks; i++) {
		tx += x->link[i].tx_bytes;
		rx += x->link[i].rx_bytes;
		skew |= x->link[i].has_skew;
	}
	/* receive columns only where something was received; markers and
	 * skew only from a kernel that reports them
	 */
	fprintf(f, "  %-15s %13s %6s %10s", "", "tx", "share", "tx pkts");
	if (rx || x->master.rx_bytes)
		fprintf(f, " %13s %6s", "rx", "share");
	fprintf(f, " %6s %-17s %6s %6s %6s", "weight", "state", "busy",
		"drops", "neigh");
	if (x->has_markers)
		fprintf(f, " %7s", "markers");
	if (skew)
		fprintf(f, " %9s", "skew");
	fprintf(f, "\n");
	fprintf(f, "  %-15s %13s %6s %10" PRIu64, "master",
		sp_fmt_bytes(x->master.tx_bytes, b, sizeof(b)), "",
		x->master.tx_packets);
	if (rx || x->master.rx_bytes)
		fprintf(f, " %13s %6s",
			sp_fmt_bytes(x->master.rx_bytes, b2, sizeof(b2)), "");
	fprintf(f, " %6s %-17s %6" PRIu64 " %6" PRIu64, "", "",
		x->master.tx_busy, x->master.tx_drops);
	if (x->has_markers)
		fprintf(f, " %6s %7" PRIu64, "", x->master.tx_markers);
	fprintf(f, "\n");
	for (i = 0; i < x->nlinks; i++) {
		l = &x->link[i];
		sp_flags_text(fl, sizeof(fl), l->flags);
		fprintf(f, "  %-15s %13s %5.1f%% %10" PRIu64,
			l->name[0] ? l->name : "?",
			sp_fmt_bytes(l->tx_bytes, b, sizeof(b)),
			100 * sp_ratio(l->tx_bytes, tx), l->tx_packets);
		if (rx || x->master.rx_bytes)
			fprintf(f, " %13s %5.1f%%",
				sp_fmt_bytes(l->rx_bytes, b2, sizeof(b2)),
				100 * sp_ratio(l->rx_bytes, rx));
		fprintf(f, " %6u %-17s %6" PRIu64 " %6" PRIu64 " %6" PRIu64,
			l->weight, fl, l->tx_busy, l->tx_drops,
			l->neigh_fail);
		if (x->has_markers)
			fprintf(f, " %7" PRIu64, l->tx_markers);
		if (l->has_skew)
			fprintf(f, " %7uus", l->rx_skew_us);
		else if (skew)
			fprintf(f, " %9s", "-");
		fprintf(f, "\n");
	}
	if (x->truncated)
		fprintf(f, "  (%u more links not shown)\n", x->truncated);
	sp_stripe_rx_text(f, x);
}

/* The sending and the receiving side of one direction, from this end's
 * side and the peer's
 */
static struct sp_i3_dir sp_dir(const struct sp_side *local,
			       const struct sp_side *remote)
{
	struct sp_i3_dir d;

	d.snd = local && local->sender ? local : remote;
	d.rcv = local && !local->sender ? local : remote;
	if (d.snd && !d.snd->sender)
		d.snd = NULL;
	if (d.rcv && d.rcv->sender)
		d.rcv = NULL;
	return d;
}

static void sp_dir_text(FILE *f, const struct sp_side *local,
			const struct sp_side *remote)
{
	struct sp_i3_dir d = sp_dir(local, remote);

	if (d.snd)
		sp_side_text(f, d.snd);
	if (d.rcv)
		sp_side_text(f, d.rcv);
}

void sp_report_human2(FILE *f, const struct sp_test_info *t,
		      const struct sp_side *local,
		      const struct sp_side *remote,
		      const struct sp_side *local_rev,
		      const struct sp_side *remote_rev, const char *error)
{
	fprintf(f, "- - - - - - - - - - - - - - - - - - - - - - - - -\n");
	fprintf(f, "[ ID] Interval           Transfer     Bitrate\n");
	sp_dir_text(f, local, remote);
	if (local_rev || remote_rev)
		sp_dir_text(f, local_rev, remote_rev);
	if (local)
		sp_stripe_text(f, local);
	if (remote)
		sp_stripe_text(f, remote);
	if (error && *error)
		fprintf(f, "error: %s\n", error);
	(void)t;
	fflush(f);
}

void sp_report_human(FILE *f, const struct sp_test_info *t,
		     const struct sp_side *local, const struct sp_side *remote,
		     const char *error)
{
	sp_report_human2(f, t, local, remote, NULL, NULL, error);
}

/* ---- JSON ---- */

static void sp_json_hist(struct sp_json *j, const char *key,
			 const uint64_t *h)
{
	unsigned int b;
	uint64_t hi;

	sp_json_arr_begin(j, key);
	for (b = 0; b < SP_HIST_N; b++) {
		if (!h[b])
			continue;
		hi = sp_hist_hi(b);
		sp_json_obj_begin(j, NULL);
		sp_json_u64(j, "min", sp_hist_lo(b));
		if (hi == UINT64_MAX)
			sp_json_null(j, "max");
		else
			sp_json_u64(j, "max", hi);
		sp_json_u64(j, "count", h[b]);
		sp_json_obj_end(j);
	}
	sp_json_arr_end(j);
}

/* A receiver's datagrams, of one stream or all: what iperf3's
 * end.streams[].udp and end.sum lack (their packets, lost_packets,
 * lost_percent, out_of_order and jitter_ms are sent, lost, the loss
 * ratio, reordered and jitter here)
 */
static void sp_json_udp(struct sp_json *j, const struct sp_udp_stats *u)
{
	unsigned int n;

	sp_json_obj_begin(j, "udp");
	sp_json_u64(j, "received", u->received);
	sp_json_u64(j, "duplicates", u->dup);
	sp_json_u64(j, "corrupt", u->corrupt);
	sp_json_u64(j, "foreign", u->foreign);
	sp_json_dbl(j, "reordered_ratio", sp_ratio(u->reordered, u->received));
	sp_json_u64(j, "max_extent", u->max_extent);
	sp_json_hist(j, "extent_hist", u->extent);
	sp_json_arr_begin(j, "n_reordering");
	for (n = 1; n <= SP_NREORD_MAX; n++) {
		if (n > 3 && !u->nreord[n])
			break;
		sp_json_obj_begin(j, NULL);
		sp_json_u64(j, "n", n);
		sp_json_u64(j, "count", u->nreord[n]);
		sp_json_dbl(j, "ratio", sp_ratio(u->nreord[n], u->received));
		sp_json_obj_end(j);
	}
	sp_json_arr_end(j);
	sp_json_hist(j, "degree_hist", u->degree);
	sp_json_hist(j, "rbd_hist", u->rbd);
	sp_json_u64(j, "rbd_max", u->rbd_max);
	sp_json_u64(j, "rbd_lost", u->rbd_lost);
	sp_json_u64(j, "rbd_late", u->rbd_late);
	sp_json_obj_begin(j, "owd_us");
	sp_json_u64(j, "count", u->owd_count);
	sp_json_dbl(j, "min", u->owd_min_us);
	sp_json_dbl(j, "mean", u->owd_mean_us);
	sp_json_dbl(j, "p50", u->owd_p50_us);
	sp_json_dbl(j, "p90", u->owd_p90_us);
	sp_json_dbl(j, "p99", u->owd_p99_us);
	sp_json_dbl(j, "max", u->owd_max_us);
	sp_json_u64(j, "negative", u->owd_negative);
	sp_json_bool(j, "clocks_synced", u->clocks_synced);
	sp_json_obj_end(j);
	sp_json_obj_begin(j, "pdv_us");
	sp_json_dbl(j, "p50", u->pdv_p50_us);
	sp_json_dbl(j, "p90", u->pdv_p90_us);
	sp_json_dbl(j, "p99", u->pdv_p99_us);
	sp_json_dbl(j, "max", u->pdv_max_us);
	sp_json_obj_end(j);
	sp_json_obj_end(j);
}

/* A stream's TCP_INFO at its end; a sender's retransmits are iperf3's */
static void sp_json_tcp(struct sp_json *j, const struct sp_tcp_stats *t,
			bool sender)
{
	sp_json_obj_begin(j, "tcp");
	if (!sender)
		sp_json_u64(j, "retransmits", t->total_retrans);
	sp_json_u64(j, "bytes_retrans", t->bytes_retrans);
	sp_json_u64(j, "reordering", t->reordering);
	sp_json_u64(j, "reord_seen", t->reord_seen);
	sp_json_u64(j, "dsack_dups", t->dsack_dups);
	sp_json_u64(j, "rcv_ooopack", t->rcv_ooopack);
	sp_json_u64(j, "lost", t->lost);
	sp_json_u64(j, "rtt_us", t->rtt_us);
	sp_json_u64(j, "rttvar_us", t->rttvar_us);
	sp_json_u64(j, "min_rtt_us", t->min_rtt_us);
	sp_json_u64(j, "cwnd", t->cwnd);
	sp_json_u64(j, "mss", t->mss);
	sp_json_u64(j, "pmtu", t->pmtu);
	if (t->mptcp) {
		sp_json_u64(j, "mptcp_subflows", t->mptcp_subflows);
		sp_json_bool(j, "mptcp_fallback", t->mptcp_fallback != 0);
	}
	sp_json_obj_end(j);
}

/* What a stream has beyond iperf3's end.streams[] (bytes, rates, times,
 * a sender's retransmits and RTTs are there): a TCP receiver's corrupt
 * bytes, TCP_INFO at the end, a UDP receiver's datagrams when there are
 * two streams or more (one stream's are the summary's udp)
 */
static void sp_json_stream(struct sp_json *j, const struct sp_side *s,
			   const struct sp_stream_res *r)
{
	sp_json_obj_begin(j, NULL);
	sp_json_u64(j, "id", r->id);
	if (!s->udp && !s->sender)
		sp_json_u64(j, "corrupt_bytes", r->corrupt_bytes);
	if (r->first_corrupt)
		sp_json_u64(j, "first_corrupt_offset", r->first_corrupt - 1);
	if (!s->udp && r->tcp.valid)
		sp_json_tcp(j, &r->tcp, s->sender);
	if (s->udp && !s->sender && s->nstreams > 1)
		sp_json_udp(j, &r->udp);
	sp_json_obj_end(j);
}

/* A side's interval sums. This process's are iperf3's intervals[] (sum,
 * or sum_bidir_reverse), element for element: here only what they lack,
 * for TCP. The peer's are nowhere else: all of them, with the keys of
 * iperf3's sum, so that scripts read either side's alike.
 */
static void sp_json_ival(struct sp_json *j, const struct sp_side *s,
			 const struct sp_ival *iv, bool remote)
{
	sp_json_obj_begin(j, NULL);
	if (remote) {
		sp_json_dbl(j, "start", iv->start);
		sp_json_dbl(j, "end", iv->end);
		sp_json_u64(j, "bytes", iv->bytes);
		sp_json_dbl(j, "bits_per_second",
			    sp_bps(iv->bytes, iv->end - iv->start));
		if (s->udp)
			sp_json_u64(j, "packets", iv->packets);
		else if (s->sender)
			sp_json_u64(j, "retransmits", iv->retrans);
	}
	if (!s->udp && s->sender) {
		sp_json_u64(j, "reord_seen", iv->reord_seen);
		sp_json_u64(j, "reordering", iv->reordering);
	} else if (!s->udp) {
		sp_json_u64(j, "rcv_ooopack", iv->rcv_ooopack);
	}
	/* this process's are in iperf3's intervals[].streams[] */
	if (remote && !s->udp && s->sender) {
		sp_json_u64(j, "rtt_us", iv->rtt_us);
		sp_json_u64(j, "cwnd", iv->cwnd);
	}
	if (remote)
		sp_json_bool(j, "omitted", iv->omitted);
	sp_json_obj_end(j);
}

static void sp_json_intervals(struct sp_json *j, const struct sp_side *s,
			      bool remote)
{
	unsigned int k;

	if (!remote && s->udp)
		return;
	sp_json_arr_begin(j, "intervals");
	for (k = 0; k < s->niv; k++)
		sp_json_ival(j, s, &s->iv[k * s->ivw + s->ivw - 1], remote);
	sp_json_arr_end(j);
}

/* As tc -s -j: [ { "ge_us": 0, "lt_us": 16, "packets": N }, ... ] */
static void sp_json_hold_hist(struct sp_json *j, const struct sp_xmaster *m)
{
	uint32_t lo, hi;
	unsigned int k;
	bool bounded;

	sp_json_arr_begin(j, STRIPE_MSTAT_KEY(RX_HOLD_HIST));
	for (k = 0; k < m->hold_hist_n; k++) {
		bounded = sp_hold_bucket(k, &lo, &hi);
		sp_json_obj_begin(j, NULL);
		sp_json_u64(j, "ge_us", lo);
		if (bounded)
			sp_json_u64(j, "lt_us", hi);
		sp_json_u64(j, "packets", m->hold_hist[k]);
		sp_json_obj_end(j);
	}
	sp_json_arr_end(j);
}

static void sp_json_stripe(struct sp_json *j, const char *key,
			   const struct sp_side *s)
{
	const struct sp_xstats *x = &s->stripe;
	const struct sp_xlink *l;
	uint64_t tx = 0, rx = 0;
	unsigned int i;

	sp_json_obj_begin(j, key);
	sp_json_str(j, "device", s->stripe_dev);
	sp_json_str(j, "host", s->server ? "server" : "client");
	sp_json_bool(j, "ok", s->stripe_ok);
	if (s->stripe_msg[0])
		sp_json_str(j, "message", s->stripe_msg);
	if (!s->stripe_ok) {
		sp_json_obj_end(j);
		return;
	}
	sp_json_str(j, "role", x->role == STRIPE_ROLE_LINK ? "link" :
							    "master");
	sp_json_obj_begin(j, "master");
	sp_json_str(j, STRIPE_MSTAT_KEY(NAME), x->master.name);
	sp_json_u64(j, STRIPE_MSTAT_KEY(LINKS), x->master.links);
	sp_json_u64(j, STRIPE_MSTAT_KEY(ACTIVE), x->master.active);
	sp_json_u64(j, STRIPE_MSTAT_KEY(TX_PACKETS), x->master.tx_packets);
	sp_json_u64(j, STRIPE_MSTAT_KEY(TX_BYTES), x->master.tx_bytes);
	sp_json_u64(j, STRIPE_MSTAT_KEY(TX_BUSY), x->master.tx_busy);
	sp_json_u64(j, STRIPE_MSTAT_KEY(TX_DROPS), x->master.tx_drops);
	sp_json_u64(j, STRIPE_MSTAT_KEY(RX_PACKETS), x->master.rx_packets);
	sp_json_u64(j, STRIPE_MSTAT_KEY(RX_BYTES), x->master.rx_bytes);
	if (x->master.has_sender_id)
		sp_json_u64(j, STRIPE_MSTAT_KEY(SENDER_ID),
			    x->master.sender_id);
	if (x->has_markers) {
		sp_json_u64(j, STRIPE_MSTAT_KEY(TX_MARKERS),
			    x->master.tx_markers);
		sp_json_u64(j, STRIPE_MSTAT_KEY(RX_MARKERS),
			    x->master.rx_markers);
	}
	if (x->master.has_senders)
		sp_json_u64(j, STRIPE_MSTAT_KEY(RX_SENDERS),
			    x->master.rx_senders);
	if (x->master.hold_hist_n)
		sp_json_hold_hist(j, &x->master);
	sp_json_obj_end(j);
	for (i = 0; i < x->nlinks; i++) {
		tx += x->link[i].tx_bytes;
		rx += x->link[i].rx_bytes;
	}
	sp_json_arr_begin(j, "links");
	for (i = 0; i < x->nlinks; i++) {
		l = &x->link[i];
		sp_json_obj_begin(j, NULL);
		sp_json_str(j, STRIPE_LSTAT_KEY(NAME), l->name);
		sp_json_u64(j, STRIPE_LSTAT_KEY(IFINDEX), l->ifindex);
		sp_json_u64(j, STRIPE_LSTAT_KEY(WEIGHT), l->weight);
		sp_json_u64(j, STRIPE_LSTAT_KEY(FLAGS), l->flags);
		sp_json_u64(j, STRIPE_LSTAT_KEY(TX_PACKETS), l->tx_packets);
		sp_json_u64(j, STRIPE_LSTAT_KEY(TX_BYTES), l->tx_bytes);
		sp_json_dbl(j, "tx_share", sp_ratio(l->tx_bytes, tx));
		sp_json_u64(j, STRIPE_LSTAT_KEY(TX_BUSY), l->tx_busy);
		sp_json_u64(j, STRIPE_LSTAT_KEY(TX_DROPS), l->tx_drops);
		sp_json_u64(j, STRIPE_LSTAT_KEY(NEIGH_FAIL), l->neigh_fail);
		sp_json_u64(j, STRIPE_LSTAT_KEY(RX_PACKETS), l->rx_packets);
		sp_json_u64(j, STRIPE_LSTAT_KEY(RX_BYTES), l->rx_bytes);
		sp_json_dbl(j, "rx_share", sp_ratio(l->rx_bytes, rx));
		if (x->has_markers)
			sp_json_u64(j, STRIPE_LSTAT_KEY(TX_MARKERS),
				    l->tx_markers);
		if (l->has_skew)
			sp_json_u64(j, STRIPE_LSTAT_KEY(RX_SKEW_US),
				    l->rx_skew_us);
		sp_json_obj_end(j);
	}
	sp_json_arr_end(j);
	sp_json_u64(j, "links_truncated", x->truncated);
	sp_json_obj_end(j);
}

/* One end's side of a direction; its totals are iperf3's end */
static void sp_json_side(struct sp_json *j, const char *key,
			 const struct sp_side *s, bool remote)
{
	unsigned int i;

	sp_json_obj_begin(j, key);
	sp_json_str(j, "role", s->sender ? "sender" : "receiver");
	sp_json_arr_begin(j, "streams");
	for (i = 0; i < s->nstreams; i++)
		sp_json_stream(j, s, &s->st[i]);
	sp_json_arr_end(j);
	sp_json_intervals(j, s, remote);
	sp_json_obj_end(j);
}

static uint64_t sp_all_bytes(const struct sp_side *s)
{
	return s->sum.bytes + s->sum.omitted_bytes;
}

/* One direction's own figures: the verdict, a UDP receiver's datagrams
 * over all streams, this end's and the peer's sides. Bytes, rates,
 * seconds and retransmits are iperf3's end.sum_sent and sum_received
 * (end.sum for UDP), and are not repeated here.
 */
static void sp_json_summary(struct sp_json *j, const struct sp_test_info *t,
			    const struct sp_side *local,
			    const struct sp_side *remote)
{
	struct sp_i3_dir dir = sp_dir(local, remote);
	const struct sp_side *snd = dir.snd, *rcv = dir.rcv;
	uint64_t corrupt;

	if (rcv) {
		corrupt = t->udp ? rcv->sum.udp.corrupt :
				   rcv->sum.corrupt_bytes;
		/* complete: every byte sent arrived, and intact (TCP: the
		 * omitted time's bytes too, whose split differs by what
		 * was in flight when it ended)
		 */
		sp_json_bool(j, "integrity_ok", !corrupt &&
			     (t->udp ? !rcv->sum.udp.lost &&
				       !rcv->sum.udp.dup :
				       !snd || sp_all_bytes(snd) ==
						       sp_all_bytes(rcv)));
		if (t->udp)
			sp_json_udp(j, &rcv->sum.udp);
	}
	if (local)
		sp_json_side(j, "local", local, false);
	if (remote)
		sp_json_side(j, "remote", remote, true);
}

void sp_info_addrs(struct sp_test_info *t, const struct sp_addr *local,
		   const struct sp_addr *peer)
{
	sp_addr_str(local, t->local, sizeof(t->local));
	sp_addr_str(peer, t->remote, sizeof(t->remote));
	sp_addr_host(local, t->local_host, sizeof(t->local_host));
	t->local_port = sp_addr_port(local);
	sp_addr_host(peer, t->remote_host, sizeof(t->remote_host));
	t->remote_port = sp_addr_port(peer);
	t->family = peer->ss.ss_family;
}

void sp_info_ctrl(struct sp_test_info *t, int fd)
{
	socklen_t len = sizeof(int);
	int mss = 0;

	if (!getsockopt(fd, IPPROTO_TCP, TCP_MAXSEG, &mss, &len) && mss > 0)
		t->tcp_mss_default = (unsigned int)mss;
}

static void sp_info_stream(struct sp_test_info *t, int fd)
{
	struct sp_addr a;
	socklen_t len = sizeof(int);
	unsigned int i = t->nconn;
	int v;

	if (i >= 2 * SP_MAX_STREAMS)
		return;
	t->nconn++;
	t->conn_lport[i] = 0;
	t->conn_rport[i] = 0;
	if (fd < 0)
		return;
	if (!sp_local_addr(fd, &a))
		t->conn_lport[i] = (uint16_t)sp_addr_port(&a);
	if (!sp_peer_addr(fd, &a))
		t->conn_rport[i] = (uint16_t)sp_addr_port(&a);
	if (i)
		return;
	if (!getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &v, &len) && v > 0)
		t->sndbuf_actual = (unsigned int)v;
	len = sizeof(v);
	if (!getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &v, &len) && v > 0)
		t->rcvbuf_actual = (unsigned int)v;
}

void sp_info_streams(struct sp_test_info *t, const struct sp_sess *s)
{
	unsigned int i;

	/* a UDP receiver has one socket for all streams */
	for (i = 0; i < s->nstreams; i++)
		sp_info_stream(t, s->st[i].fd >= 0 ? s->st[i].fd : s->udp_fd);
}

void sp_info_params(struct sp_test_info *t, const struct sp_params *p,
		    bool server, double interval)
{
	unsigned int i;

	t->server = server;
	t->udp = p->udp;
	t->mptcp = p->mptcp;
	t->reverse = p->reverse;
	t->bidir = p->bidir;
	t->streams = p->streams;
	t->duration = p->duration;
	t->omit = p->omit;
	t->interval = interval;
	t->len = p->len;
	t->rate = p->rate;
	t->sock_bufsize = p->window;
	for (i = 0; i < SP_COOKIE_BYTES; i++)
		snprintf(t->cookie + 2 * i, 3, "%02x", p->cookie[i]);
}

/* stripe-perf's one object: what iperf3's tree has no key for */
void sp_report_json_summary(struct sp_json *j, const struct sp_test_info *t,
			    const struct sp_side *local,
			    const struct sp_side *remote,
			    const struct sp_side *local_rev,
			    const struct sp_side *remote_rev)
{
	sp_json_str(j, "host", t->server ? "server" : "client");
	sp_json_str(j, "family", t->family == AF_INET6 ? "ipv6" : "ipv4");
	sp_json_dbl(j, "interval", t->interval);
	sp_json_bool(j, "mptcp", t->mptcp);
	sp_json_summary(j, t, local, remote);
	if (local_rev || remote_rev) {
		sp_json_obj_begin(j, "bidir_reverse");
		sp_json_summary(j, t, local_rev, remote_rev);
		sp_json_obj_end(j);
	}
	if (local && local->stripe_asked)
		sp_json_stripe(j, "stripe", local);
	if (remote && remote->stripe_asked)
		sp_json_stripe(j, "remote_stripe", remote);
}

void sp_report_json_end(struct sp_json *j, const struct sp_test_info *t,
			const struct sp_side *local,
			const struct sp_side *remote,
			const struct sp_side *local_rev,
			const struct sp_side *remote_rev)
{
	struct sp_i3_dir fwd = sp_dir(local, remote);
	struct sp_i3_dir rev = sp_dir(local_rev, remote_rev);
	bool bidir = local_rev || remote_rev;

	sp_iperf3_end(j, t, &fwd, bidir ? &rev : NULL,
		      local ? local : local_rev, remote ? remote : remote_rev);
}

void sp_report_json2(FILE *f, const struct sp_test_info *t,
		     const struct sp_side *local, const struct sp_side *remote,
		     const struct sp_side *local_rev,
		     const struct sp_side *remote_rev, const char *error)
{
	struct sp_json j;

	sp_json_init(&j, f);
	sp_json_obj_begin(&j, NULL);
	sp_json_obj_begin(&j, "start");
	sp_iperf3_start(&j, t);
	sp_json_obj_end(&j);
	sp_iperf3_intervals(&j, local, local_rev);
	sp_json_obj_begin(&j, "end");
	sp_report_json_end(&j, t, local, remote, local_rev, remote_rev);
	sp_json_obj_end(&j);
	sp_json_obj_begin(&j, "summary");
	sp_report_json_summary(&j, t, local, remote, local_rev, remote_rev);
	sp_json_obj_end(&j);
	if (error && *error)
		sp_json_str(&j, "error", error);
	sp_json_obj_end(&j);
	sp_json_finish(&j);
}

void sp_report_json(FILE *f, const struct sp_test_info *t,
		    const struct sp_side *local, const struct sp_side *remote,
		    const char *error)
{
	sp_report_json2(f, t, local, remote, NULL, NULL, error);
}

void sp_report_verbose_host(FILE *f)
{
	char when[64];
	struct utsname u;
	struct tm tm;
	time_t now = time(NULL);

	fprintf(f, "stripe-perf %s\n", SP_VERSION);
	if (!uname(&u))
		fprintf(f, "%s %s %s %s %s\n", u.sysname, u.nodename,
			u.release, u.version, u.machine);
	gmtime_r(&now, &tm);
	strftime(when, sizeof(when), "%a, %d %b %Y %H:%M:%S GMT", &tm);
	fprintf(f, "Time: %s\n", when);
	fflush(f);
}

void sp_report_verbose_test(FILE *f, const struct sp_params *p)
{
	char r[32];

	fprintf(f, "Starting Test: protocol: %s, %u streams%s, %u byte %s, omitting %g seconds, %g second test, %s, bitrate %s per stream",
		p->mptcp ? "MPTCP" : p->udp ? "UDP" : "TCP", p->streams,
		p->bidir ? " each way" : "", p->len,
		p->udp ? "datagrams" : "blocks", p->omit, p->duration,
		p->bidir ? "both send" : p->reverse ? "server sends" :
						      "client sends",
		p->rate ? sp_fmt_rate((double)p->rate, r, sizeof(r)) :
			  "unlimited");
	if (p->congestion[0])
		fprintf(f, ", congestion %s", p->congestion);
	if (p->window)
		fprintf(f, ", window %u bytes", p->window);
	fprintf(f, "\n");
	fflush(f);
}
