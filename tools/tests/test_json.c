// SPDX-License-Identifier: GPL-2.0
/* JSON writer output, byte for byte. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../json.h"
#include "tap.h"

/* The same document, written by a writer set up by init */
static char *sample(void (*init)(struct sp_json *j, FILE *f), int *ret)
{
	struct sp_json j;
	size_t len;
	char *buf;
	FILE *f;

	f = open_memstream(&buf, &len);
	init(&j, f);
	sp_json_obj_begin(&j, NULL);
	sp_json_str(&j, "s", "a\"b\\c\n\x01");
	sp_json_u64(&j, "n", UINT64_MAX);
	sp_json_i64(&j, "i", -5);
	sp_json_dbl(&j, "d", 0.125);
	sp_json_dbl(&j, "nan", NAN);
	sp_json_bool(&j, "t", true);
	sp_json_arr_begin(&j, "a");
	sp_json_u64(&j, NULL, 1);
	sp_json_obj_begin(&j, NULL);
	sp_json_obj_end(&j);
	sp_json_arr_begin(&j, NULL);
	sp_json_arr_end(&j);
	sp_json_arr_end(&j);
	sp_json_obj_end(&j);
	*ret = sp_json_finish(&j);
	fclose(f);
	return buf;
}

void test_json(void)
{
	static const char want[] =
		"{\n"
		"  \"s\": \"a\\\"b\\\\c\\n\\u0001\",\n"
		"  \"n\": 18446744073709551615,\n"
		"  \"i\": -5,\n"
		"  \"d\": 0.125,\n"
		"  \"nan\": null,\n"
		"  \"t\": true,\n"
		"  \"a\": [\n"
		"    1,\n"
		"    {},\n"
		"    []\n"
		"  ]\n"
		"}\n";
	/* as cJSON_PrintUnformatted, which iperf3's --json-stream uses */
	static const char want_line[] =
		"{\"s\":\"a\\\"b\\\\c\\n\\u0001\",\"n\":18446744073709551615,"
		"\"i\":-5,\"d\":0.125,\"nan\":null,\"t\":true,"
		"\"a\":[1,{},[]]}\n";
	struct sp_json j;
	size_t len;
	char *buf;
	FILE *f;
	int ret;

	buf = sample(sp_json_init, &ret);
	ok(ret == 0 && !strcmp(buf, want),
	   "JSON writer: escaping, numbers, NaN as null, nesting");
	if (strcmp(buf, want))
		diag("got:\n%s", buf);
	free(buf);

	buf = sample(sp_json_init_line, &ret);
	ok(ret == 0 && !strcmp(buf, want_line),
	   "JSON writer, one line: the same document, no blanks, one newline");
	if (strcmp(buf, want_line))
		diag("got:\n%s", buf);
	free(buf);

	f = open_memstream(&buf, &len);
	sp_json_init(&j, f);
	sp_json_obj_begin(&j, NULL);
	ret = sp_json_finish(&j);
	fclose(f);
	ok(ret != 0, "unbalanced document is reported");
	free(buf);
}
