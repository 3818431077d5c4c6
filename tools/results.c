// SPDX-License-Identifier: GPL-2.0
/* Result records and their wire form. Every stream field is described once
 * in a table, so the writer and reader cannot drift apart; zero values are
 * not sent and read back as zero.
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results.h"

enum sp_ftype { SP_U64, SP_DBL, SP_ARR };

struct sp_field {
	const char *name;
	size_t off;
	enum sp_ftype type;
	unsigned int n;		/* SP_ARR: elements */
};

#define U(f)		{ #f, offsetof(struct sp_stream_res, f), SP_U64, 1 }
#define D(f)		{ #f, offsetof(struct sp_stream_res, f), SP_DBL, 1 }
#define A(f, cnt)	{ #f, offsetof(struct sp_stream_res, f), SP_ARR, cnt }

static const struct sp_field sp_stream_fields[] = {
	U(id), U(bytes), U(packets), D(seconds), U(corrupt_bytes),
	U(first_corrupt), U(omitted_bytes),
	U(tcp.valid), U(tcp.rtt_us), U(tcp.rttvar_us), U(tcp.min_rtt_us),
	U(tcp.cwnd), U(tcp.snd_wnd), U(tcp.mss), U(tcp.pmtu), U(tcp.reordering),
	U(tcp.reord_seen), U(tcp.total_retrans), U(tcp.bytes_retrans),
	U(tcp.dsack_dups), U(tcp.rcv_ooopack), U(tcp.lost), U(tcp.mptcp),
	U(tcp.mptcp_subflows), U(tcp.mptcp_fallback),
	U(smp.n), U(smp.max_snd_cwnd), U(smp.max_snd_wnd), U(smp.max_rtt_us),
	U(smp.min_rtt_us), U(smp.sum_rtt_us),
	U(udp.sent), U(udp.received), U(udp.lost), U(udp.dup),
	U(udp.corrupt), U(udp.foreign), U(udp.reordered), U(udp.max_extent),
	A(udp.extent, SP_HIST_N), A(udp.degree, SP_HIST_N),
	A(udp.nreord, SP_NREORD_MAX + 1), A(udp.rbd, SP_HIST_N),
	U(udp.rbd_max), U(udp.rbd_lost), U(udp.rbd_late), U(udp.owd_count),
	U(udp.owd_negative), D(udp.owd_min_us), D(udp.owd_mean_us),
	D(udp.owd_p50_us), D(udp.owd_p90_us), D(udp.owd_p99_us),
	D(udp.owd_max_us), D(udp.jitter_us), U(udp.clocks_synced),
	D(udp.pdv_p50_us), D(udp.pdv_p90_us), D(udp.pdv_p99_us),
	D(udp.pdv_max_us),
};

#undef U
#undef D
#undef A
#define U(f)	{ #f, offsetof(struct sp_ival, f), SP_U64, 1 }
#define D(f)	{ #f, offsetof(struct sp_ival, f), SP_DBL, 1 }

static const struct sp_field sp_ival_fields[] = {
	D(start), D(end), U(bytes), U(packets), U(retrans), U(reord_seen),
	U(reordering), U(rcv_ooopack), U(rtt_us), U(cwnd), U(omitted),
};

#undef U
#undef D
#define U(f)	{ #f, offsetof(struct sp_xlink, f), SP_U64, 1 }

/* the u64 link counters; the u32 ones and the levels are sent by name */
static const struct sp_field sp_xlink_fields[] = {
	U(tx_packets), U(tx_bytes), U(tx_busy), U(tx_drops), U(neigh_fail),
	U(rx_packets), U(rx_bytes), U(tx_markers),
};

#undef U
#define U(f)		{ #f, offsetof(struct sp_xmaster, f), SP_U64, 1 }
#define A(f, cnt)	{ #f, offsetof(struct sp_xmaster, f), SP_ARR, cnt }

static const struct sp_field sp_xmaster_fields[] = {
	U(tx_packets), U(tx_bytes), U(tx_busy), U(tx_drops), U(rx_packets),
	U(rx_bytes), U(tx_markers), U(rx_markers),
	A(hold_hist, STRIPE_HOLD_HIST_BUCKETS),
};

#undef U
#undef A
#define NFIELDS(t)	(sizeof(t) / sizeof(t[0]))

void sp_side_init(struct sp_side *s, bool server, bool sender, bool udp,
		  unsigned int nstreams)
{
	unsigned int i;

	memset(s, 0, sizeof(*s));
	s->server = server;
	s->sender = sender;
	s->udp = udp;
	s->nstreams = nstreams;
	s->max_entries = SP_IVAL_MAX_ENTRIES;
	s->ivw = nstreams + 1;
	for (i = 0; i < nstreams; i++)
		s->st[i].id = i;
}

void sp_side_free(struct sp_side *s)
{
	free(s->iv);
	s->iv = NULL;
	s->niv = 0;
	s->ivcap = 0;
}

/* Rows a side keeps: a server's go to the client in one message, so they
 * must fit SP_CTRL_MAX_MSG whatever the client asked for.
 */
static unsigned int sp_side_max_rows(const struct sp_side *s)
{
	unsigned int rows = s->max_entries / s->ivw;

	if (s->server && rows > SP_IVAL_MAX_ROWS_SERVER)
		rows = SP_IVAL_MAX_ROWS_SERVER;
	return rows & ~1u;
}

/* b follows a: one row for both. Counters add up, levels are b's. */
static void sp_ival_merge(struct sp_ival *a, const struct sp_ival *b)
{
	a->end = b->end;
	a->bytes += b->bytes;
	a->packets += b->packets;
	a->retrans += b->retrans;
	a->reord_seen += b->reord_seen;
	a->rcv_ooopack += b->rcv_ooopack;
	a->reordering = b->reordering;
	a->rtt_us = b->rtt_us;
	a->cwnd = b->cwnd;
	a->mss = b->mss;
	a->snd_wnd = b->snd_wnd;
	a->rttvar_us = b->rttvar_us;
	a->pmtu = b->pmtu;
}

/* Full: every two neighbouring rows become one, so a run of any length
 * keeps its whole time line in bounded memory, older rows coarser.
 */
static void sp_side_halve(struct sp_side *s)
{
	unsigned int k, i, w = s->ivw;

	for (k = 0; k < s->niv / 2; k++)
		for (i = 0; i < w; i++) {
			s->iv[k * w + i] = s->iv[2 * k * w + i];
			sp_ival_merge(&s->iv[k * w + i],
				      &s->iv[(2 * k + 1) * w + i]);
		}
	if (s->niv & 1)
		memmove(&s->iv[k * w], &s->iv[(s->niv - 1) * w],
			w * sizeof(*s->iv));
	s->niv = (s->niv + 1) / 2;
	s->iv_merged++;
}

/* The omitted rows (-O) lead the table and are warm-up, not results:
 * they make room before any measured row is merged, and are never merged
 * with one (their times count from the test's start, not the results').
 */
static bool sp_side_drop_omitted(struct sp_side *s)
{
	unsigned int k = 0, w = s->ivw;

	while (k < s->niv && s->iv[k * w + w - 1].omitted)
		k++;
	if (!k)
		return false;
	memmove(s->iv, &s->iv[k * w], (size_t)(s->niv - k) * w *
		sizeof(*s->iv));
	s->niv -= k;
	return true;
}

struct sp_ival *sp_side_add_ival(struct sp_side *s)
{
	unsigned int cap, max = sp_side_max_rows(s);
	struct sp_ival *p;

	if (max < 2)
		return NULL;
	if (s->niv >= max && !sp_side_drop_omitted(s))
		sp_side_halve(s);
	if (s->niv == s->ivcap) {
		cap = s->ivcap ? s->ivcap * 2 : 64;
		if (cap > max)
			cap = max;
		p = realloc(s->iv, (size_t)cap * s->ivw * sizeof(*p));
		if (!p)
			return NULL;
		s->iv = p;
		s->ivcap = cap;
	}
	p = &s->iv[(size_t)s->niv * s->ivw];
	memset(p, 0, s->ivw * sizeof(*p));
	s->niv++;
	return p;
}

void sp_side_sum_streams(struct sp_side *s)
{
	struct sp_stream_res *t = &s->sum;
	struct sp_tcp_stats *tt = &t->tcp;
	unsigned int i, nvalid = 0;
	uint64_t rtt = 0, rttvar = 0;

	memset(t, 0, offsetof(struct sp_stream_res, udp));
	t->id = s->nstreams;
	t->seconds = s->seconds;
	for (i = 0; i < s->nstreams; i++) {
		const struct sp_stream_res *r = &s->st[i];
		const struct sp_tcp_stats *rt = &r->tcp;

		t->bytes += r->bytes;
		t->packets += r->packets;
		t->corrupt_bytes += r->corrupt_bytes;
		t->omitted_bytes += r->omitted_bytes;
		if (r->first_corrupt && !t->first_corrupt)
			t->first_corrupt = r->first_corrupt;
		if (!rt->valid)
			continue;
		nvalid++;
		rtt += rt->rtt_us;
		rttvar += rt->rttvar_us;
		if (!tt->min_rtt_us || rt->min_rtt_us < tt->min_rtt_us)
			tt->min_rtt_us = rt->min_rtt_us;
		tt->cwnd += rt->cwnd;
		if (rt->mss > tt->mss)
			tt->mss = rt->mss;
		if (rt->pmtu > tt->pmtu)
			tt->pmtu = rt->pmtu;
		if (rt->reordering > tt->reordering)
			tt->reordering = rt->reordering;
		tt->reord_seen += rt->reord_seen;
		tt->total_retrans += rt->total_retrans;
		tt->bytes_retrans += rt->bytes_retrans;
		tt->dsack_dups += rt->dsack_dups;
		tt->rcv_ooopack += rt->rcv_ooopack;
		tt->lost += rt->lost;
		tt->mptcp |= rt->mptcp;
		tt->mptcp_subflows += rt->mptcp_subflows;
		tt->mptcp_fallback += rt->mptcp_fallback;
	}
	if (nvalid) {
		tt->valid = 1;
		tt->rtt_us = rtt / nvalid;	/* mean over streams */
		tt->rttvar_us = rttvar / nvalid;
	}
}

static void sp_put_fields(struct sp_buf *b, const char *prefix,
			  const void *base, const struct sp_field *f,
			  unsigned int nf)
{
	const char *p = base;
	const uint64_t *a;
	unsigned int i, k, last;
	char key[64];
	double d;
	uint64_t u;

	for (i = 0; i < nf; i++, f++) {
		snprintf(key, sizeof(key), "%s%s", prefix, f->name);
		switch (f->type) {
		case SP_U64:
			memcpy(&u, p + f->off, sizeof(u));
			if (u)
				sp_msg_kv(b, key, "%" PRIu64, u);
			break;
		case SP_DBL:
			memcpy(&d, p + f->off, sizeof(d));
			if (d != 0)
				sp_msg_kv(b, key, "%.17g", d);
			break;
		case SP_ARR:
			a = (const uint64_t *)(p + f->off);
			for (last = f->n; last && !a[last - 1]; last--)
				;
			if (!last)
				break;
			sp_buf_printf(b, "%s", key);
			for (k = 0; k < last; k++)
				sp_buf_printf(b, " %" PRIu64, a[k]);
			sp_buf_printf(b, "\n");
			break;
		}
	}
}

/* Store one value into the field named name; unknown names are ignored. */
static void sp_get_field(void *base, const struct sp_field *f,
			 unsigned int nf, const char *name, const char *val)
{
	char *p = base, *end;
	unsigned int i, k;
	uint64_t u;
	double d;

	for (i = 0; i < nf; i++, f++) {
		if (strcmp(f->name, name))
			continue;
		switch (f->type) {
		case SP_U64:
			u = strtoull(val, NULL, 10);
			memcpy(p + f->off, &u, sizeof(u));
			break;
		case SP_DBL:
			d = strtod(val, NULL);
			memcpy(p + f->off, &d, sizeof(d));
			break;
		case SP_ARR:
			for (k = 0; k < f->n && *val; k++) {
				u = strtoull(val, &end, 10);
				if (end == val)
					break;
				memcpy(p + f->off + k * sizeof(u), &u,
				       sizeof(u));
				val = end;
			}
			break;
		}
		return;
	}
}

void sp_side_put(const struct sp_side *s, struct sp_buf *b)
{
	const struct sp_xstats *x = &s->stripe;
	unsigned int i, k;
	char prefix[32];

	sp_msg_kv(b, "side.server", "%d", s->server);
	sp_msg_kv(b, "side.sender", "%d", s->sender);
	sp_msg_kv(b, "side.udp", "%d", s->udp);
	sp_msg_kv(b, "side.streams", "%u", s->nstreams);
	sp_msg_kv(b, "side.seconds", "%.9f", s->seconds);
	sp_msg_kv(b, "side.cpu_user", "%.6f", s->cpu_user);
	sp_msg_kv(b, "side.cpu_system", "%.6f", s->cpu_system);
	if (s->congestion[0])
		sp_msg_kv(b, "side.congestion", "%s", s->congestion);
	for (i = 0; i < s->nstreams; i++) {
		snprintf(prefix, sizeof(prefix), "s%u.", i);
		sp_put_fields(b, prefix, &s->st[i], sp_stream_fields,
			      NFIELDS(sp_stream_fields));
	}
	sp_put_fields(b, "t.", &s->sum, sp_stream_fields,
		      NFIELDS(sp_stream_fields));
	sp_msg_kv(b, "side.intervals", "%u", s->niv);
	for (k = 0; k < s->niv; k++) {
		snprintf(prefix, sizeof(prefix), "i%u.", k);
		sp_put_fields(b, prefix, &s->iv[k * s->ivw + s->ivw - 1],
			      sp_ival_fields, NFIELDS(sp_ival_fields));
	}
	if (!s->stripe_asked)
		return;
	sp_msg_kv(b, "x.dev", "%s", s->stripe_dev);
	sp_msg_kv(b, "x.ok", "%d", s->stripe_ok);
	if (s->stripe_msg[0])
		sp_msg_kv(b, "x.msg", "%s", s->stripe_msg);
	if (!s->stripe_ok)
		return;
	sp_msg_kv(b, "x.role", "%u", x->role);
	sp_msg_kv(b, "x.m.name", "%s", x->master.name[0] ?
		  x->master.name : "-");
	sp_msg_kv(b, "x.m.links", "%u", x->master.links);
	sp_msg_kv(b, "x.m.active", "%u", x->master.active);
	/* what the kernel did not send is not sent either */
	if (x->has_markers)
		sp_msg_kv(b, "x.markers", "1");
	if (x->master.has_sender_id)
		sp_msg_kv(b, "x.m.sender_id", "%u", x->master.sender_id);
	if (x->master.has_senders)
		sp_msg_kv(b, "x.m.rx_senders", "%u", x->master.rx_senders);
	if (x->master.hold_hist_n)
		sp_msg_kv(b, "x.m.hold_hist_n", "%u", x->master.hold_hist_n);
	sp_put_fields(b, "x.m.", &x->master, sp_xmaster_fields,
		      NFIELDS(sp_xmaster_fields));
	sp_msg_kv(b, "x.links", "%u", x->nlinks);
	for (i = 0; i < x->nlinks; i++) {
		const struct sp_xlink *l = &x->link[i];

		snprintf(prefix, sizeof(prefix), "x.l%u.", i);
		sp_buf_printf(b, "%sname %s\n", prefix,
			      l->name[0] ? l->name : "-");
		sp_buf_printf(b, "%sifindex %u\n", prefix, l->ifindex);
		sp_buf_printf(b, "%sweight %u\n", prefix, l->weight);
		sp_buf_printf(b, "%sflags %u\n", prefix, l->flags);
		if (l->has_skew)
			sp_buf_printf(b, "%srx_skew_us %u\n", prefix,
				      l->rx_skew_us);
		sp_put_fields(b, prefix, l, sp_xlink_fields,
			      NFIELDS(sp_xlink_fields));
	}
}

static void sp_copy_name(char *dst, const char *src, size_t size)
{
	if (!strcmp(src, "-"))
		src = "";
	snprintf(dst, size, "%s", src);
}

static void sp_get_stripe(struct sp_side *s, const char *key,
			  const char *val)
{
	struct sp_xstats *x = &s->stripe;
	struct sp_xlink *l;
	unsigned long i;
	char *end;

	if (!strcmp(key, "dev")) {
		sp_copy_name(s->stripe_dev, val, sizeof(s->stripe_dev));
		s->stripe_asked = true;
	} else if (!strcmp(key, "ok")) {
		s->stripe_ok = atoi(val) != 0;
	} else if (!strcmp(key, "msg")) {
		snprintf(s->stripe_msg, sizeof(s->stripe_msg), "%s", val);
	} else if (!strcmp(key, "role")) {
		x->role = (uint8_t)atoi(val);
		x->has_role = true;
	} else if (!strcmp(key, "markers")) {
		x->has_markers = atoi(val) != 0;
	} else if (!strncmp(key, "m.", 2)) {
		key += 2;
		x->has_master = true;
		if (!strcmp(key, "name")) {
			sp_copy_name(x->master.name, val,
				     sizeof(x->master.name));
		} else if (!strcmp(key, "links")) {
			x->master.links = (uint32_t)strtoul(val, NULL, 10);
		} else if (!strcmp(key, "active")) {
			x->master.active = (uint32_t)strtoul(val, NULL, 10);
		} else if (!strcmp(key, "sender_id")) {
			x->master.sender_id = (uint32_t)strtoul(val, NULL, 10);
			x->master.has_sender_id = true;
		} else if (!strcmp(key, "rx_senders")) {
			x->master.rx_senders = (uint32_t)strtoul(val, NULL, 10);
			x->master.has_senders = true;
		} else if (!strcmp(key, "hold_hist_n")) {
			i = strtoul(val, NULL, 10);
			x->master.hold_hist_n = i < STRIPE_HOLD_HIST_BUCKETS ?
						(unsigned int)i :
						STRIPE_HOLD_HIST_BUCKETS;
		} else {
			sp_get_field(&x->master, sp_xmaster_fields,
				     NFIELDS(sp_xmaster_fields), key, val);
		}
	} else if (key[0] == 'l' && key[1] >= '0' && key[1] <= '9') {
		i = strtoul(key + 1, &end, 10);
		if (*end != '.' || i >= SP_XSTATS_MAX_LINKS)
			return;
		if (i + 1 > x->nlinks)
			x->nlinks = (unsigned int)i + 1;
		l = &x->link[i];
		key = end + 1;
		if (!strcmp(key, "name")) {
			sp_copy_name(l->name, val, sizeof(l->name));
		} else if (!strcmp(key, "ifindex")) {
			l->ifindex = (uint32_t)strtoul(val, NULL, 10);
		} else if (!strcmp(key, "weight")) {
			l->weight = (uint32_t)strtoul(val, NULL, 10);
		} else if (!strcmp(key, "flags")) {
			l->flags = (uint32_t)strtoul(val, NULL, 10);
		} else if (!strcmp(key, "rx_skew_us")) {
			l->rx_skew_us = (uint32_t)strtoul(val, NULL, 10);
			l->has_skew = true;
		} else {
			sp_get_field(l, sp_xlink_fields,
				     NFIELDS(sp_xlink_fields), key, val);
		}
	}
}

int sp_side_get(const struct sp_msg *m, struct sp_side *s)
{
	uint64_t server = 0, sender = 0, udp = 0, n = 0, niv = 0;
	const char *key, *val, *cc;
	unsigned long idx;
	unsigned int i;
	char *end;

	if (sp_msg_u64(m, "side.streams", &n) || n > SP_MAX_STREAMS)
		return -EPROTO;
	sp_msg_u64(m, "side.server", &server);
	sp_msg_u64(m, "side.sender", &sender);
	sp_msg_u64(m, "side.udp", &udp);
	sp_side_init(s, server, sender, udp, (unsigned int)n);
	sp_msg_dbl(m, "side.seconds", &s->seconds);
	sp_msg_dbl(m, "side.cpu_user", &s->cpu_user);
	sp_msg_dbl(m, "side.cpu_system", &s->cpu_system);
	cc = sp_msg_get(m, "side.congestion");
	if (cc && sp_cc_name_ok(cc))
		snprintf(s->congestion, sizeof(s->congestion), "%s", cc);
	/* remote intervals arrive as sums only: one entry per row */
	s->ivw = 1;
	if (!sp_msg_u64(m, "side.intervals", &niv) && niv < 1000000)
		for (i = 0; i < niv; i++)
			if (!sp_side_add_ival(s))
				return -ENOMEM;
	for (i = 0; i < m->n; i++) {
		key = m->key[i];
		val = m->val[i];
		if (key[0] == 's' && key[1] >= '0' && key[1] <= '9') {
			idx = strtoul(key + 1, &end, 10);
			if (*end == '.' && idx < n)
				sp_get_field(&s->st[idx], sp_stream_fields,
					     NFIELDS(sp_stream_fields),
					     end + 1, val);
		} else if (!strncmp(key, "t.", 2)) {
			sp_get_field(&s->sum, sp_stream_fields,
				     NFIELDS(sp_stream_fields), key + 2, val);
		} else if (key[0] == 'i' && key[1] >= '0' && key[1] <= '9') {
			idx = strtoul(key + 1, &end, 10);
			if (*end == '.' && idx < s->niv)
				sp_get_field(&s->iv[idx], sp_ival_fields,
					     NFIELDS(sp_ival_fields),
					     end + 1, val);
		} else if (!strncmp(key, "x.", 2)) {
			sp_get_stripe(s, key + 2, val);
		}
	}
	return 0;
}
