/* SPDX-License-Identifier: GPL-2.0 */
/* Minimal streaming JSON writer: keeps the commas and indentation right so
 * report code only says what to write.
 */
#ifndef SP_JSON_H
#define SP_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define SP_JSON_DEPTH	16

struct sp_json {
	FILE *f;
	int depth;
	bool first[SP_JSON_DEPTH];
	bool error;	/* nesting too deep or unbalanced */
	bool line;	/* all on one line, no blanks (--json-stream) */
};

void sp_json_init(struct sp_json *j, FILE *f);
/* The same document on one line, as iperf3 writes each --json-stream
 * event: a reader of lines gets one value a line
 */
void sp_json_init_line(struct sp_json *j, FILE *f);
/* key is NULL inside arrays and for the outermost value */
void sp_json_obj_begin(struct sp_json *j, const char *key);
void sp_json_obj_end(struct sp_json *j);
void sp_json_arr_begin(struct sp_json *j, const char *key);
void sp_json_arr_end(struct sp_json *j);
void sp_json_str(struct sp_json *j, const char *key, const char *v);
void sp_json_u64(struct sp_json *j, const char *key, uint64_t v);
void sp_json_i64(struct sp_json *j, const char *key, int64_t v);
void sp_json_dbl(struct sp_json *j, const char *key, double v);
void sp_json_bool(struct sp_json *j, const char *key, bool v);
void sp_json_null(struct sp_json *j, const char *key);
/* ends the document; returns 0 when it was well formed */
int sp_json_finish(struct sp_json *j);

#endif /* SP_JSON_H */
