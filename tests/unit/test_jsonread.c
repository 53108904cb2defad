/* The JSON reader: values, escapes, lookups, and malformed input refused
 * with the offset (other programs' output must never crash us). */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "basic/jsonread.h"
#include "tap.h"

static struct jv *parse(const char *text)
{
	struct jv *v = NULL;
	char err[128];
	if (jv_parse(text, strlen(text), &v, err, sizeof(err)) < 0)
		printf("# parse error: %s\n", err);
	return v;
}

static void refused(const char *text, const char *want_in_err, const char *name)
{
	struct jv *v = NULL;
	char err[128] = "";
	int r = jv_parse(text, strlen(text), &v, err, sizeof(err));
	ok(r < 0 && v == NULL && strstr(err, want_in_err), name);
	if (!strstr(err, want_in_err))
		printf("#   error was '%s'\n", err);
}

/* Another program's huge numbers become saturated integers, never UB
 * (fuzz_fio found io_bytes 8.4e65 cast straight to uint64_t). */
static void test_integers(void)
{
	struct jv *v = parse("{\"big\": 8.4e65, \"neg\": -1e300, \"n\": 42.9, \"s\": \"7\", \"m\": -5}");
	ok(v != NULL, "document with huge numbers parses");
	ok(jv_u64(jv_get(v, "big"), 1) == UINT64_MAX, "a number past 2^64 saturates as uint64");
	ok(jv_int(jv_get(v, "big"), 1) == INT_MAX, "and as int");
	ok(jv_int(jv_get(v, "neg"), 1) == INT_MIN, "a huge negative number saturates at INT_MIN");
	ok(jv_u64(jv_get(v, "neg"), 1) == 0, "and is 0 as uint64");
	ok(jv_u64(jv_get(v, "n"), 0) == 42 && jv_int(jv_get(v, "n"), 0) == 42, "a fraction truncates");
	ok(jv_int(jv_get(v, "m"), 0) == -5, "a small negative number is kept");
	ok(jv_int(jv_get(v, "s"), 9) == 9 && jv_u64(jv_get(v, "none"), 9) == 9, "not a number: the fallback");
	ok(jv_double_to_u64(0.0 / 0.0, 3) == 3, "NaN: the fallback");
	jv_free(v);
}

int main(void)
{
	test_integers();
	struct jv *v = parse("{\"a\": {\"b\": [1, 2.5, -3e2, true, false, null, \"x\"]}, \"n\": 0}");
	ok(v && v->type == JV_OBJECT && v->count == 2, "object with two members");
	const struct jv *arr = jv_path(v, "a.b");
	ok(arr && arr->type == JV_ARRAY && arr->count == 7, "dotted path reaches the array");
	ok(jv_number(jv_at(arr, 0), 0) == 1 && jv_number(jv_at(arr, 1), 0) == 2.5 &&
		   jv_number(jv_at(arr, 2), 0) == -300,
	   "integers, fractions and exponents");
	ok(jv_bool(jv_at(arr, 3), false) && !jv_bool(jv_at(arr, 4), true), "true and false");
	ok(jv_at(arr, 5)->type == JV_NULL, "null");
	is_str(jv_string(jv_at(arr, 6), NULL), "x", "string element");
	ok(jv_at(arr, 7) == NULL, "past the end is NULL");
	ok(jv_number(jv_path(v, "a.missing"), 42) == 42, "missing member gives the fallback");
	ok(jv_number(jv_path(v, "a.b"), 7) == 7, "wrong type gives the fallback");
	ok(jv_number(jv_get(v, "n"), 1) == 0, "zero");
	jv_free(v);

	v = parse("\"tab\\there \\\"q\\\" \\u00e9 \\ud83d\\ude00 \\/\"");
	is_str(jv_string(v, NULL), "tab\there \"q\" \xc3\xa9 \xf0\x9f\x98\x80 /", "escapes and UTF-16 surrogates");
	jv_free(v);

	v = parse("  [ ]  ");
	ok(v && v->type == JV_ARRAY && v->count == 0, "empty array with space around");
	jv_free(v);
	v = parse("9007199254740992");
	ok(v && v->number == 9007199254740992.0, "2^53 exactly");
	jv_free(v);

	/* Many members: the container grows past its first allocation. */
	char big[8192] = "[";
	for (int i = 0; i < 1000; i++)
		snprintf(big + strlen(big), sizeof(big) - strlen(big), "%s%d", i ? "," : "", i);
	strcat(big, "]");
	v = parse(big);
	ok(v && v->count == 1000 && jv_number(jv_at(v, 999), 0) == 999, "1000 elements");
	jv_free(v);

	refused("{\"a\": 1", "expected ',' or '}'", "unterminated object");
	refused("[1, 2", "expected ',' or ']'", "unterminated array");
	refused("{\"a\" 1}", "expected ':'", "missing colon");
	refused("{1: 2}", "expected a member name", "non-string key");
	refused("\"abc", "unterminated string", "unterminated string");
	refused("\"a\\qb\"", "bad escape", "unknown escape");
	refused("\"\\ud83d\"", "unpaired surrogate", "lone high surrogate");
	refused("01", "text after the value", "leading zero");
	refused("-", "unexpected character", "lone minus");
	refused("1.", "unexpected character", "fraction without digits");
	refused("tru", "unexpected character", "truncated literal");
	refused("{} {}", "text after the value", "two documents");
	refused("", "unexpected end of input", "empty input");
	refused("\"a\nb\"", "control character", "raw newline in a string");
	char deep[200];
	memset(deep, '[', 100);
	deep[100] = '\0';
	refused(deep, "nesting too deep", "nesting beyond the limit is refused, not recursed");

	struct jv *e = NULL;
	char err[64];
	ok(jv_parse("[1]x", 3, &e, err, sizeof(err)) == 0 && e && e->count == 1,
	   "LEN bounds the text (no NUL needed)");
	jv_free(e);
	return tap_done();
}
