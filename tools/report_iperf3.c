// SPDX-License-Identifier: GPL-2.0
/* iperf3's tree of -J output, key for key as iperf3 3.12 writes it:
 * start, intervals[] (streams, sum) and end (streams, sum_sent,
 * sum_received, sum for UDP, cpu_utilization_percent). Units and
 * meanings are iperf3's: bits_per_second, snd_cwnd in bytes, rtt in us
 * (smoothed), max/min/mean over the interval samples, jitter_ms,
 * lost_percent. stripe-perf's own figures are in one object of its own,
 * "summary", written by report.c.
 */
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "report_iperf3.h"

static double sp_i3_bps(uint64_t bytes, double seconds)
{
	return seconds > 0 ? (double)bytes * 8 / seconds : 0;
}

void sp_iperf3_start(struct sp_json *j, const struct sp_test_info *t)
{
	char when[64];
	struct utsname u;
	struct tm tm;
	time_t now = time(NULL);
	unsigned int i;

	/* one per data connection, numbered as the streams are */
	sp_json_arr_begin(j, "connected");
	for (i = 0; i < t->nconn; i++) {
		sp_json_obj_begin(j, NULL);
		sp_json_u64(j, "socket", i);
		sp_json_str(j, "local_host", t->local_host);
		sp_json_u64(j, "local_port", t->conn_lport[i]);
		sp_json_str(j, "remote_host", t->remote_host);
		sp_json_u64(j, "remote_port", t->conn_rport[i]);
		sp_json_obj_end(j);
	}
	sp_json_arr_end(j);
	sp_json_str(j, "version", "stripe-perf " SP_VERSION);
	if (!uname(&u)) {
		char sys[5 * sizeof(u.sysname)];

		snprintf(sys, sizeof(sys), "%s %s %s %s %s", u.sysname,
			 u.nodename, u.release, u.version, u.machine);
		sp_json_str(j, "system_info", sys);
	}
	gmtime_r(&now, &tm);
	strftime(when, sizeof(when), "%a, %d %b %Y %H:%M:%S GMT", &tm);
	sp_json_obj_begin(j, "timestamp");
	sp_json_str(j, "time", when);
	sp_json_u64(j, "timesecs", (uint64_t)now);
	sp_json_obj_end(j);
	if (!t->server) {
		sp_json_obj_begin(j, "connecting_to");
		sp_json_str(j, "host", t->remote_host);
		sp_json_u64(j, "port", t->remote_port);
		sp_json_obj_end(j);
	}
	sp_json_str(j, "cookie", t->cookie);
	if (!t->udp)
		sp_json_u64(j, "tcp_mss_default", t->tcp_mss_default);
	sp_json_u64(j, "target_bitrate", t->rate);
	sp_json_u64(j, "sock_bufsize", t->sock_bufsize);
	sp_json_u64(j, "sndbuf_actual", t->sndbuf_actual);
	sp_json_u64(j, "rcvbuf_actual", t->rcvbuf_actual);
	sp_json_obj_begin(j, "test_start");
	sp_json_str(j, "protocol", t->udp ? "UDP" : "TCP");
	sp_json_u64(j, "num_streams", t->streams);
	sp_json_u64(j, "blksize", t->len);
	sp_json_dbl(j, "omit", t->omit);
	sp_json_dbl(j, "duration", t->duration);
	sp_json_u64(j, "bytes", 0);
	sp_json_u64(j, "blocks", 0);
	sp_json_u64(j, "reverse", t->reverse);
	sp_json_u64(j, "tos", 0);
	sp_json_u64(j, "target_bitrate", t->rate);
	sp_json_u64(j, "bidir", t->bidir);
	sp_json_obj_end(j);
}

/* iperf3's socket numbers: the reverse direction's after the forward's */
static int sp_i3_socket(const struct sp_side *s, unsigned int i)
{
	return (int)(s->bidir && s->server == s->sender ? s->nstreams + i : i);
}

/* One interval entry, of a stream (id >= 0) or a sum (key). */
static void sp_i3_ival(struct sp_json *j, const struct sp_side *s,
		       const struct sp_ival *iv, int id, const char *key)
{
	double secs = iv->end - iv->start;

	sp_json_obj_begin(j, id >= 0 ? NULL : key);
	if (id >= 0)
		sp_json_u64(j, "socket", (uint64_t)id);
	sp_json_dbl(j, "start", iv->start);
	sp_json_dbl(j, "end", iv->end);
	sp_json_dbl(j, "seconds", secs);
	sp_json_u64(j, "bytes", iv->bytes);
	sp_json_dbl(j, "bits_per_second", sp_i3_bps(iv->bytes, secs));
	if (s->udp) {
		sp_json_u64(j, "packets", iv->packets);
	} else if (s->sender) {
		sp_json_u64(j, "retransmits", iv->retrans);
		if (id >= 0) {
			/* iperf3: tcpi_snd_cwnd * tcpi_snd_mss */
			sp_json_u64(j, "snd_cwnd", iv->cwnd * iv->mss);
			sp_json_u64(j, "snd_wnd", iv->snd_wnd);
			sp_json_u64(j, "rtt", iv->rtt_us);
			sp_json_u64(j, "rttvar", iv->rttvar_us);
			sp_json_u64(j, "pmtu", iv->pmtu);
		}
	}
	sp_json_bool(j, "omitted", iv->omitted);
	sp_json_bool(j, "sender", s->sender);
	sp_json_obj_end(j);
}

static const struct sp_ival *sp_i3_row(const struct sp_side *s,
				       unsigned int k)
{
	return s && k < s->niv ? &s->iv[(size_t)k * s->ivw] : NULL;
}

/* The sum of s's row, as key; a row the other direction has and s not
 * yet (its last one) is a zero row of the other's times.
 */
static void sp_i3_sum(struct sp_json *j, const struct sp_side *s,
		      const struct sp_ival *row, const struct sp_ival *other,
		      const char *key)
{
	struct sp_ival zero = { 0 };

	if (row) {
		sp_i3_ival(j, s, &row[s->ivw - 1], -1, key);
		return;
	}
	zero.start = other->start;
	zero.end = other->end;
	zero.omitted = other->omitted;
	sp_i3_ival(j, s, &zero, -1, key);
}

static void sp_i3_streams(struct sp_json *j, const struct sp_side *s,
			  const struct sp_ival *row)
{
	unsigned int i;

	for (i = 0; row && i + 1 < s->ivw; i++)
		sp_i3_ival(j, s, &row[i], sp_i3_socket(s, i), NULL);
}

void sp_iperf3_interval(struct sp_json *j, const char *key,
			const struct sp_side *local, const struct sp_ival *a,
			const struct sp_side *rev, const struct sp_ival *b)
{
	sp_json_obj_begin(j, key);
	sp_json_arr_begin(j, "streams");
	sp_i3_streams(j, local, a);
	sp_i3_streams(j, rev, b);
	sp_json_arr_end(j);
	if (local)
		sp_i3_sum(j, local, a, b ? &b[rev->ivw - 1] : NULL, "sum");
	if (rev)
		sp_i3_sum(j, rev, b, a ? &a[local->ivw - 1] : NULL,
			  "sum_bidir_reverse");
	sp_json_obj_end(j);
}

void sp_iperf3_intervals(struct sp_json *j, const struct sp_side *local,
			 const struct sp_side *rev)
{
	unsigned int k, n;

	n = local ? local->niv : 0;
	if (rev && rev->niv > n)
		n = rev->niv;
	sp_json_arr_begin(j, "intervals");
	for (k = 0; k < n; k++)
		sp_iperf3_interval(j, NULL, local, sp_i3_row(local, k), rev,
				   sp_i3_row(rev, k));
	sp_json_arr_end(j);
}

/* A whole-test entry of one side: sum_sent, sum_received, a stream's.
 * sender: whether this process sends in the entry's direction, as
 * iperf3 gives it (false in a -R client's sum_sent).
 */
static void sp_i3_total(struct sp_json *j, const char *key,
			const struct sp_side *s, const struct sp_stream_res *r,
			int id, bool sender)
{
	const struct sp_udp_stats *u = &r->udp;
	const struct sp_tcp_samples *m = &r->smp;
	double secs = r->seconds > 0 ? r->seconds : s->seconds;

	sp_json_obj_begin(j, key);
	if (id >= 0)
		sp_json_u64(j, "socket", (uint64_t)id);
	sp_json_dbl(j, "start", 0);
	sp_json_dbl(j, "end", secs);
	sp_json_dbl(j, "seconds", secs);
	sp_json_u64(j, "bytes", r->bytes);
	sp_json_dbl(j, "bits_per_second", sp_i3_bps(r->bytes, secs));
	if (!s->udp && s->sender && r->tcp.valid) {
		sp_json_u64(j, "retransmits", r->tcp.total_retrans);
		if (id >= 0) {
			sp_json_u64(j, "max_snd_cwnd", m->max_snd_cwnd);
			sp_json_u64(j, "max_snd_wnd", m->max_snd_wnd);
			sp_json_u64(j, "max_rtt", m->max_rtt_us);
			sp_json_u64(j, "min_rtt", m->min_rtt_us);
			sp_json_u64(j, "mean_rtt",
				    m->n ? m->sum_rtt_us / m->n : 0);
		}
	}
	if (s->udp && !s->sender) {
		sp_json_dbl(j, "jitter_ms", u->jitter_us / 1e3);
		sp_json_u64(j, "lost_packets", u->lost);
		sp_json_u64(j, "packets", u->sent);
		sp_json_dbl(j, "lost_percent",
			    u->sent ? 100.0 * (double)u->lost / u->sent : 0);
		sp_json_u64(j, "out_of_order", u->reordered);
	} else if (s->udp) {
		sp_json_u64(j, "packets", r->packets);
	}
	sp_json_bool(j, "sender", sender);
	sp_json_obj_end(j);
}

/* Does this process send in direction d? */
static bool sp_i3_local_sends(const struct sp_test_info *t,
			      const struct sp_i3_dir *d)
{
	if (d->snd)
		return d->snd->server == t->server;
	return d->rcv && d->rcv->server != t->server;
}

static void sp_i3_end_streams(struct sp_json *j,
			      const struct sp_test_info *t,
			      const struct sp_i3_dir *d)
{
	const struct sp_side *snd = d->snd, *rcv = d->rcv;
	bool sends = sp_i3_local_sends(t, d);
	unsigned int i;

	for (i = 0; i < t->streams; i++) {
		sp_json_obj_begin(j, NULL);
		if (t->udp) {
			/* iperf3 gives the receiver's view under "udp" */
			if (rcv && i < rcv->nstreams)
				sp_i3_total(j, "udp", rcv, &rcv->st[i],
					    sp_i3_socket(rcv, i), sends);
		} else {
			if (snd && i < snd->nstreams)
				sp_i3_total(j, "sender", snd, &snd->st[i],
					    sp_i3_socket(snd, i), sends);
			if (rcv && i < rcv->nstreams)
				sp_i3_total(j, "receiver", rcv, &rcv->st[i],
					    sp_i3_socket(rcv, i), sends);
		}
		sp_json_obj_end(j);
	}
}

/* sum_sent, sum_received (and sum for UDP), each name + suffix */
static void sp_i3_end_sums(struct sp_json *j, const struct sp_test_info *t,
			   const struct sp_i3_dir *d, const char *suffix)
{
	bool sends = sp_i3_local_sends(t, d);
	char key[64];

	if (d->snd) {
		snprintf(key, sizeof(key), "sum_sent%s", suffix);
		sp_i3_total(j, key, d->snd, &d->snd->sum, -1, sends);
	}
	if (d->rcv) {
		snprintf(key, sizeof(key), "sum_received%s", suffix);
		sp_i3_total(j, key, d->rcv, &d->rcv->sum, -1, sends);
	}
	if (t->udp && d->rcv) {
		snprintf(key, sizeof(key), "sum%s", suffix);
		sp_i3_total(j, key, d->rcv, &d->rcv->sum, -1, sends);
	}
}

/* iperf3's: CPU time over wall time, this process and the peer's */
static void sp_i3_cpu(struct sp_json *j, const struct sp_side *local,
		      const struct sp_side *remote)
{
	static const struct sp_side none;

	if (!local)
		local = &none;
	if (!remote)
		remote = &none;
	sp_json_obj_begin(j, "cpu_utilization_percent");
	sp_json_dbl(j, "host_total", local->cpu_user + local->cpu_system);
	sp_json_dbl(j, "host_user", local->cpu_user);
	sp_json_dbl(j, "host_system", local->cpu_system);
	sp_json_dbl(j, "remote_total", remote->cpu_user + remote->cpu_system);
	sp_json_dbl(j, "remote_user", remote->cpu_user);
	sp_json_dbl(j, "remote_system", remote->cpu_system);
	sp_json_obj_end(j);
}

void sp_iperf3_end(struct sp_json *j, const struct sp_test_info *t,
		   const struct sp_i3_dir *fwd, const struct sp_i3_dir *rev,
		   const struct sp_side *local, const struct sp_side *remote)
{
	sp_json_arr_begin(j, "streams");
	sp_i3_end_streams(j, t, fwd);
	if (rev)
		sp_i3_end_streams(j, t, rev);
	sp_json_arr_end(j);
	sp_i3_end_sums(j, t, fwd, "");
	if (rev)
		sp_i3_end_sums(j, t, rev, "_bidir_reverse");
	sp_i3_cpu(j, local, remote);
	if (fwd->snd && fwd->snd->congestion[0])
		sp_json_str(j, "sender_tcp_congestion", fwd->snd->congestion);
	if (fwd->rcv && fwd->rcv->congestion[0])
		sp_json_str(j, "receiver_tcp_congestion",
			    fwd->rcv->congestion);
}
