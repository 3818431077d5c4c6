// SPDX-License-Identifier: GPL-2.0
/* JSON writer. Non-finite doubles become null: JSON has no NaN. */
#include <inttypes.h>
#include <math.h>

#include "json.h"

void sp_json_init(struct sp_json *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->first[0] = true;
	j->error = false;
	j->line = false;
}

void sp_json_init_line(struct sp_json *j, FILE *f)
{
	sp_json_init(j, f);
	j->line = true;
}

static void sp_json_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', f);
	for (; *p; p++) {
		switch (*p) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		default:
			if (*p < 0x20)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
		}
	}
	fputc('"', f);
}

/* A new line indented to depth, unless all is on one line. */
static void sp_json_indent(struct sp_json *j, int depth)
{
	int i;

	if (j->line)
		return;
	fputc('\n', j->f);
	for (i = 0; i < depth; i++)
		fputs("  ", j->f);
}

/* Separator, indentation and key before any value. */
static void sp_json_pre(struct sp_json *j, const char *key)
{
	if (j->depth > 0) {
		if (!j->first[j->depth])
			fputc(',', j->f);
		sp_json_indent(j, j->depth);
	} else if (!j->first[0]) {
		j->error = true;	/* two top-level values */
	}
	j->first[j->depth] = false;
	if (key) {
		sp_json_string(j->f, key);
		fputs(j->line ? ":" : ": ", j->f);
	}
}

static void sp_json_open(struct sp_json *j, const char *key, char c)
{
	sp_json_pre(j, key);
	fputc(c, j->f);
	if (j->depth + 1 >= SP_JSON_DEPTH) {
		j->error = true;
		return;
	}
	j->depth++;
	j->first[j->depth] = true;
}

static void sp_json_close(struct sp_json *j, char c)
{
	if (j->depth <= 0) {
		j->error = true;
		return;
	}
	if (!j->first[j->depth])
		sp_json_indent(j, j->depth - 1);
	j->depth--;
	fputc(c, j->f);
}

void sp_json_obj_begin(struct sp_json *j, const char *key)
{
	sp_json_open(j, key, '{');
}

void sp_json_obj_end(struct sp_json *j)
{
	sp_json_close(j, '}');
}

void sp_json_arr_begin(struct sp_json *j, const char *key)
{
	sp_json_open(j, key, '[');
}

void sp_json_arr_end(struct sp_json *j)
{
	sp_json_close(j, ']');
}

void sp_json_str(struct sp_json *j, const char *key, const char *v)
{
	sp_json_pre(j, key);
	if (v)
		sp_json_string(j->f, v);
	else
		fputs("null", j->f);
}

void sp_json_u64(struct sp_json *j, const char *key, uint64_t v)
{
	sp_json_pre(j, key);
	fprintf(j->f, "%" PRIu64, v);
}

void sp_json_i64(struct sp_json *j, const char *key, int64_t v)
{
	sp_json_pre(j, key);
	fprintf(j->f, "%" PRId64, v);
}

void sp_json_dbl(struct sp_json *j, const char *key, double v)
{
	sp_json_pre(j, key);
	if (isfinite(v))
		fprintf(j->f, "%.10g", v);
	else
		fputs("null", j->f);
}

void sp_json_bool(struct sp_json *j, const char *key, bool v)
{
	sp_json_pre(j, key);
	fputs(v ? "true" : "false", j->f);
}

void sp_json_null(struct sp_json *j, const char *key)
{
	sp_json_pre(j, key);
	fputs("null", j->f);
}

int sp_json_finish(struct sp_json *j)
{
	fputc('\n', j->f);
	fflush(j->f);
	return j->error || j->depth ? -1 : 0;
}
