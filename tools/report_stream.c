// SPDX-License-Identifier: GPL-2.0
/* --json-stream events. The data of each comes from the code that writes
 * -J's document, so the two cannot differ.
 */
#include <string.h>

#include "json.h"
#include "report_iperf3.h"
#include "report_stream.h"

void sp_jstream_init(struct sp_jstream *js, FILE *f)
{
	js->f = f;
	js->side[0] = NULL;
	js->side[1] = NULL;
	js->held = -1;
	js->ended = false;
}

/* {"event":name,"data": ...: the caller writes data's value */
static void sp_jstream_begin(struct sp_jstream *js, struct sp_json *j,
			     const char *name)
{
	sp_json_init_line(j, js->f);
	sp_json_obj_begin(j, NULL);
	sp_json_str(j, "event", name);
}

/* ...}: the line ends and is flushed, for a reader following it */
static void sp_jstream_finish(struct sp_json *j)
{
	sp_json_obj_end(j);
	sp_json_finish(j);
}

void sp_jstream_start(struct sp_jstream *js, const struct sp_test_info *t,
		      const struct sp_side *fwd, const struct sp_side *rev)
{
	struct sp_json j;

	js->side[0] = fwd;
	js->side[1] = rev;
	sp_jstream_begin(js, &j, "start");
	sp_json_obj_begin(&j, "data");
	sp_iperf3_start(&j, t);
	sp_json_obj_end(&j);
	sp_jstream_finish(&j);
}

/* One element of intervals: the forward direction's row a, the reverse
 * one's b (either may be NULL)
 */
static void sp_jstream_interval(struct sp_jstream *js,
				const struct sp_ival *a,
				const struct sp_ival *b)
{
	struct sp_json j;

	sp_jstream_begin(js, &j, "interval");
	sp_iperf3_interval(&j, "data", js->side[0], a, js->side[1], b);
	sp_jstream_finish(&j);
}

/* A held row whose pair never came goes alone, as -J gives a row the
 * other direction has not (a zero row of its times).
 */
static void sp_jstream_flush(struct sp_jstream *js)
{
	if (js->held == 0)
		sp_jstream_interval(js, js->row, NULL);
	else if (js->held == 1)
		sp_jstream_interval(js, NULL, js->row);
	js->held = -1;
}

void sp_jstream_ival(struct sp_jstream *js, const struct sp_side *s,
		     unsigned int k)
{
	const struct sp_ival *row = &s->iv[(size_t)k * s->ivw];
	int d = s == js->side[1];

	if (!d && s != js->side[0])
		return;		/* not a side of the started test */
	if (!js->side[1]) {
		sp_jstream_interval(js, row, NULL);
		return;
	}
	/* --bidir: -J pairs the directions' rows by their order, and both
	 * run on one clock, so the other's row of this time is the held
	 * one or the next to come
	 */
	if (js->held == !d) {
		if (d)
			sp_jstream_interval(js, js->row, row);
		else
			sp_jstream_interval(js, row, js->row);
		js->held = -1;
		return;
	}
	sp_jstream_flush(js);
	if (s->ivw > SP_MAX_STREAMS + 1)
		return;
	memcpy(js->row, row, s->ivw * sizeof(*row));
	js->held = d;
}

static void sp_jstream_error(struct sp_jstream *js, const char *error)
{
	struct sp_json j;

	if (!error || !*error)
		return;
	sp_jstream_begin(js, &j, "error");
	sp_json_str(&j, "data", error);
	sp_jstream_finish(&j);
}

void sp_jstream_end(struct sp_jstream *js, const struct sp_test_info *t,
		    const struct sp_side *local, const struct sp_side *remote,
		    const struct sp_side *local_rev,
		    const struct sp_side *remote_rev, const char *error)
{
	struct sp_json j;

	if (js->ended)
		return;
	sp_jstream_flush(js);
	/* iperf3's order: the error, what else the document has, the end */
	sp_jstream_error(js, error);
	sp_jstream_begin(js, &j, "summary");
	sp_json_obj_begin(&j, "data");
	sp_report_json_summary(&j, t, local, remote, local_rev, remote_rev);
	sp_json_obj_end(&j);
	sp_jstream_finish(&j);
	sp_jstream_begin(js, &j, "end");
	sp_json_obj_begin(&j, "data");
	sp_report_json_end(&j, t, local, remote, local_rev, remote_rev);
	sp_json_obj_end(&j);
	sp_jstream_finish(&j);
	js->ended = true;
}

void sp_jstream_fail(struct sp_jstream *js, const char *error)
{
	struct sp_json j;

	if (js->ended)
		return;
	sp_jstream_flush(js);
	sp_jstream_error(js, error);
	sp_jstream_begin(js, &j, "end");
	sp_json_obj_begin(&j, "data");
	sp_json_obj_end(&j);
	sp_jstream_finish(&j);
	js->ended = true;
}
