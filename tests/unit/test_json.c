/* test_json.c: unit tests for output/json.c (streaming, pretty-printed JSON writer). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "basic/strbuf.h"
#include "output/json.h"
#include "tap.h"

static void quote_is(const char *in, const char *want, const char *name)
{
	struct strbuf sb = STRBUF_INIT;

	json_quote(&sb, in);
	is_str(sb.buf, want, name);
	strbuf_release(&sb);
}

static void test_document(void)
{
	struct json j;

	json_init(&j);
	json_begin_object(&j, NULL);
	json_string(&j, "path", "/dev/sda");
	json_uint(&j, "size", UINT64_MAX);
	json_int(&j, "offset", -42);
	json_int(&j, "lowest", INT64_MIN);
	json_begin_array(&j, "devices");
	json_uint(&j, NULL, 1);
	json_begin_object(&j, NULL);
	json_string(&j, "name", "nvme0n1");
	json_bool(&j, "rotational", false);
	json_end_object(&j);
	json_begin_array(&j, NULL);
	json_double(&j, NULL, 1.5);
	json_double(&j, NULL, NAN);
	json_end_array(&j);
	json_end_array(&j);
	json_begin_object(&j, "empty_object");
	json_end_object(&j);
	json_begin_array(&j, "empty_array");
	json_end_array(&j);
	json_double(&j, "nan", NAN);
	json_double(&j, "inf", INFINITY);
	json_double(&j, "ninf", -INFINITY);
	json_double(&j, "ratio", 0.25);
	json_bool(&j, "ok", true);
	json_null(&j, "nothing");
	json_string(&j, "model", NULL);
	json_string(&j, "tricky \"key\"", "a\"b\\c\nd\x01" "e\tf\rg");
	json_end_object(&j);

	static const char want[] =
		"{\n"
		"  \"path\": \"/dev/sda\",\n"
		"  \"size\": 18446744073709551615,\n"
		"  \"offset\": -42,\n"
		"  \"lowest\": -9223372036854775808,\n"
		"  \"devices\": [\n"
		"    1,\n"
		"    {\n"
		"      \"name\": \"nvme0n1\",\n"
		"      \"rotational\": false\n"
		"    },\n"
		"    [\n"
		"      1.5,\n"
		"      null\n"
		"    ]\n"
		"  ],\n"
		"  \"empty_object\": {},\n"
		"  \"empty_array\": [],\n"
		"  \"nan\": null,\n"
		"  \"inf\": null,\n"
		"  \"ninf\": null,\n"
		"  \"ratio\": 0.25,\n"
		"  \"ok\": true,\n"
		"  \"nothing\": null,\n"
		"  \"model\": null,\n"
		"  \"tricky \\\"key\\\"\": \"a\\\"b\\\\c\\nd\\u0001e\\tf\\rg\"\n"
		"}\n";
	is_str(j.out.buf, want, "nested document: exact text");
	is_int(j.out.len, sizeof(want) - 1, "nested document: length matches the text");
	is_int(j.depth, 0, "nested document: depth back to 0");
	json_release(&j);

	/* A top-level array, and reuse of a released writer. */
	json_init(&j);
	json_begin_array(&j, NULL);
	json_string(&j, NULL, "x");
	json_int(&j, NULL, 0);
	json_end_array(&j);
	is_str(j.out.buf, "[\n  \"x\",\n  0\n]\n", "top-level array");
	json_release(&j);

	json_init(&j);
	json_begin_object(&j, NULL);
	json_end_object(&j);
	is_str(j.out.buf, "{}\n", "empty top-level object");
	json_release(&j);

	/* Two sibling objects one level down: the comma goes after the first '}'. */
	json_init(&j);
	json_begin_object(&j, NULL);
	json_begin_object(&j, "a");
	json_uint(&j, "n", 1);
	json_end_object(&j);
	json_begin_object(&j, "b");
	json_uint(&j, "n", 2);
	json_end_object(&j);
	json_end_object(&j);
	is_str(j.out.buf,
	       "{\n"
	       "  \"a\": {\n"
	       "    \"n\": 1\n"
	       "  },\n"
	       "  \"b\": {\n"
	       "    \"n\": 2\n"
	       "  }\n"
	       "}\n",
	       "sibling objects");
	json_release(&j);
}

static void test_doubles(void)
{
	struct json j;

	json_init(&j);
	json_begin_array(&j, NULL);
	json_double(&j, NULL, 0.1);
	json_double(&j, NULL, -2.0);
	json_double(&j, NULL, 123456789.0);
	json_double(&j, NULL, 1e21);
	json_double(&j, NULL, NAN);
	json_double(&j, NULL, -NAN);
	json_end_array(&j);
	is_str(j.out.buf, "[\n  0.1,\n  -2,\n  123456789,\n  1e+21,\n  null,\n  null\n]\n",
	       "doubles: short forms, exponent, non-finite as null");
	json_release(&j);
}

static void test_quote(void)
{
	quote_is("", "\"\"", "quote: empty string");
	quote_is("plain /dev/sda", "\"plain /dev/sda\"", "quote: plain text unchanged");
	quote_is("say \"hi\"", "\"say \\\"hi\\\"\"", "quote: double quotes escaped");
	quote_is("C:\\dir", "\"C:\\\\dir\"", "quote: backslash escaped");
	quote_is("a\nb", "\"a\\nb\"", "quote: newline escaped");
	quote_is("a\tb\rc", "\"a\\tb\\rc\"", "quote: tab and CR escaped");
	quote_is("\x01", "\"\\u0001\"", "quote: 0x01 as \\u0001");
	quote_is("\x1f|\x08|\x0c", "\"\\u001f|\\u0008|\\u000c\"", "quote: other controls as \\u00XX");
	quote_is("/", "\"/\"", "quote: slash not escaped");
	quote_is("\x7f", "\"\x7f\"", "quote: DEL passes through");
	quote_is("caf\xc3\xa9", "\"caf\xc3\xa9\"", "quote: UTF-8 passes through unchanged");
}

int main(void)
{
	test_document();
	test_doubles();
	test_quote();
	return tap_done();
}
