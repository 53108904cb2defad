/* test_parse.c: unit tests for basic/parse.c (sizes, durations, bounded integers). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "basic/keyrecord.h"
#include "basic/parse.h"
#include "tap.h"

/* Checks that parse_size(S) succeeds with WANT. */
static void size_ok(const char *s, uint64_t want)
{
	char name[128];
	uint64_t v = 0xdeadbeef;
	int r = parse_size(s, &v);

	snprintf(name, sizeof(name), "parse_size(\"%s\") returns 0", s);
	is_int(r, 0, name);
	snprintf(name, sizeof(name), "parse_size(\"%s\") = %llu", s, (unsigned long long)want);
	if (!ok(r == 0 && v == want, name))
		printf("#   got %llu\n", (unsigned long long)v);
}

/* Checks that parse_size(S) fails with WANT_ERR (-EINVAL or -ERANGE). */
static void size_err(const char *s, int want_err)
{
	char name[128];
	uint64_t v = 0;

	snprintf(name, sizeof(name), "parse_size(\"%s\") -> %s", s,
		 want_err == -EINVAL ? "-EINVAL" : "-ERANGE");
	is_int(parse_size(s, &v), want_err, name);
}

static void dur_ok(const char *s, uint64_t want)
{
	char name[128];
	uint64_t v = 0xdeadbeef;
	int r = parse_duration_ns(s, &v);

	snprintf(name, sizeof(name), "parse_duration_ns(\"%s\") returns 0", s);
	is_int(r, 0, name);
	snprintf(name, sizeof(name), "parse_duration_ns(\"%s\") = %llu ns", s,
		 (unsigned long long)want);
	if (!ok(r == 0 && v == want, name))
		printf("#   got %llu\n", (unsigned long long)v);
}

static void dur_err(const char *s, int want_err)
{
	char name[128];
	uint64_t v = 0;

	snprintf(name, sizeof(name), "parse_duration_ns(\"%s\") -> %s", s,
		 want_err == -EINVAL ? "-EINVAL" : "-ERANGE");
	is_int(parse_duration_ns(s, &v), want_err, name);
}

static void uint_ok(const char *s, uint64_t min, uint64_t max, uint64_t want)
{
	char name[160];
	uint64_t v = 0xdeadbeef;
	int r = parse_uint(s, min, max, &v);

	snprintf(name, sizeof(name), "parse_uint(\"%s\", %llu, %llu) = %llu", s,
		 (unsigned long long)min, (unsigned long long)max, (unsigned long long)want);
	if (!ok(r == 0 && v == want, name))
		printf("#   got r=%d v=%llu\n", r, (unsigned long long)v);
}

static void uint_err(const char *s, uint64_t min, uint64_t max, int want_err)
{
	char name[160];
	uint64_t v = 0;

	snprintf(name, sizeof(name), "parse_uint(\"%s\", %llu, %llu) -> %s", s,
		 (unsigned long long)min, (unsigned long long)max,
		 want_err == -EINVAL ? "-EINVAL" : "-ERANGE");
	is_int(parse_uint(s, min, max, &v), want_err, name);
}

static void test_size(void)
{
	/* Binary suffixes, case-insensitive, optional "i" and/or "B". */
	size_ok("4k", 4096);
	size_ok("4K", 4096);
	size_ok("4KB", 4096);
	size_ok("4KiB", 4096);
	size_ok("4kib", 4096);
	size_ok("1000M", 1048576000ULL);
	size_ok("1GiB", 1073741824ULL);
	size_ok("1gb", 1ULL << 30);
	size_ok("1Gi", 1ULL << 30);
	size_ok("2T", 2ULL << 40);
	size_ok("3p", 3ULL << 50);
	size_ok("512", 512);
	size_ok("0", 0);
	size_ok("0K", 0);
	size_ok("18446744073709551615", UINT64_MAX);
	/* Largest value that still fits with a suffix: 16383P = 2^64 - 2^50. */
	size_ok("16383P", 16383ULL << 50);

	size_err("", -EINVAL);
	size_err("10Q", -EINVAL);
	size_err("-1", -EINVAL);
	size_err("+1", -EINVAL);
	size_err(" 1", -EINVAL);
	size_err("1 ", -EINVAL);
	size_err("3.5G", -EINVAL);
	size_err("1MX", -EINVAL);
	size_err("1MiBB", -EINVAL);
	size_err("1BK", -EINVAL);
	size_err("K", -EINVAL);
	size_err("0x10", -EINVAL);
	/* E (exa) is not among the documented suffixes K, M, G, T, P, so "16E" is
	 * malformed rather than an overflow (see the report). */
	size_err("16E", -EINVAL);
	/* Overflow while scaling, and overflow of the number itself. */
	size_err("16384P", -ERANGE); /* exactly 2^64 */
	size_err("99999999999P", -ERANGE);
	size_err("17179869184T", -ERANGE); /* 2^34 * 2^40 = 2^74 */
	size_err("18446744073709551616", -ERANGE);
	size_err("99999999999999999999999K", -ERANGE);

	uint64_t v = 0;
	is_int(parse_size(NULL, &v), -EINVAL, "parse_size(NULL) -> -EINVAL");
}

static void test_duration(void)
{
	dur_ok("30", 30ULL * 1000000000ULL);
	dur_ok("0", 0);
	dur_ok("30s", 30ULL * 1000000000ULL);
	dur_ok("500ms", 500ULL * 1000000ULL);
	dur_ok("5m", 5ULL * 60 * 1000000000ULL);
	dur_ok("1h", 3600ULL * 1000000000ULL);
	dur_ok("10us", 10000ULL);
	dur_ok("7ns", 7);
	dur_ok("2MS", 2000000ULL);
	dur_ok("18446744073709551615ns", UINT64_MAX);

	dur_err("5x", -EINVAL);
	dur_err("", -EINVAL);
	dur_err("-5", -EINVAL);
	dur_err("5 s", -EINVAL);
	dur_err("5sec", -EINVAL);
	dur_err("5mss", -EINVAL);
	dur_err("1.5s", -EINVAL);
	dur_err("ms", -EINVAL);
	/* 2^64 ns is about 584 years. */
	dur_err("18446744074", -ERANGE);
	dur_err("5124096h", -ERANGE);
	dur_err("18446744073709551616ns", -ERANGE);
}

static void test_uint(void)
{
	uint_ok("5", 1, 10, 5);
	uint_ok("1", 1, 10, 1);	  /* lower bound inclusive */
	uint_ok("10", 1, 10, 10); /* upper bound inclusive */
	uint_ok("0", 0, 0, 0);
	uint_ok("007", 0, 100, 7);
	uint_ok("18446744073709551615", 0, UINT64_MAX, UINT64_MAX);

	uint_err("0", 1, 10, -ERANGE);
	uint_err("11", 1, 10, -ERANGE);
	uint_err("99999", 1, 10, -ERANGE);
	uint_err("18446744073709551616", 0, UINT64_MAX, -ERANGE);
	uint_err("12a", 0, 100, -EINVAL);
	uint_err("", 0, 100, -EINVAL);
	uint_err("-1", 0, 100, -EINVAL);
	uint_err(" 5", 0, 100, -EINVAL);
	uint_err("5k", 0, 100000, -EINVAL); /* no suffixes */
}

/* Collects "key:value;" for each pair parse_key_values gives. */
static void collect(const char *key, const char *value, void *arg)
{
	char *out = arg;
	size_t n = strlen(out);
	snprintf(out + n, 256 - n, "%s:%s;", key, value);
}

static void test_key_values(void)
{
	char got[256] = "";
	is_int(parse_key_values("a=1\nno equals sign\nb=x=y\n\nc=", collect, got), 0, "key=value lines: 0");
	is_str(got, "a:1;b:x=y;c:;", "every pair in order, the value up to the line's end, lines without '=' passed over");
	got[0] = '\0';
	is_int(parse_key_values("last=no newline", collect, got), 0, "a last line without a newline: 0");
	is_str(got, "last:no newline;", "and it is read");
	char long_line[600];
	memset(long_line, 'k', sizeof(long_line) - 1);
	long_line[sizeof(long_line) - 1] = '\0';
	long_line[10] = '=';
	got[0] = '\0';
	is_int(parse_key_values(long_line, collect, got), -EINVAL, "a line of 512 bytes or more: -EINVAL");
	is_int(parse_key_values("", collect, got), 0, "an empty text: 0, nothing given");
}

struct sample {
	char name[8];
	unsigned port;
	long pid;
	bool on;
};

static const struct keyrecord_field sample_fields[] = {
	KEYRECORD_FIELD(struct sample, name, KEYRECORD_STR),
	KEYRECORD_FIELD(struct sample, port, KEYRECORD_UINT),
	KEYRECORD_FIELD(struct sample, pid, KEYRECORD_LONG),
	KEYRECORD_FIELD(struct sample, on, KEYRECORD_BOOL),
};

static void test_keyrecord(void)
{
	const size_t n = sizeof(sample_fields) / sizeof(sample_fields[0]);
	struct sample a = { .name = "tgt", .port = 4420, .pid = -7, .on = true }, b = { 0 };
	char text[128];
	size_t len = keyrecord_format(sample_fields, n, &a, text, sizeof(text));
	is_str(text, "name=tgt\nport=4420\npid=-7\non=1\n", "a record: a line per field, in the table's order");
	is_int((int)len, (int)strlen(text), "its length returned");
	ok(keyrecord_set(sample_fields, n, &b, "name", "tgt") && keyrecord_set(sample_fields, n, &b, "port", "4420") &&
		   keyrecord_set(sample_fields, n, &b, "pid", "-7") && keyrecord_set(sample_fields, n, &b, "on", "1"),
	   "each field is set by its key");
	ok(strcmp(a.name, b.name) == 0 && a.port == b.port && a.pid == b.pid && a.on == b.on,
	   "and the record reads back as it was written");
	ok(!keyrecord_set(sample_fields, n, &b, "device", "/dev/x"), "a key of no field: false (the caller's own lines)");
	keyrecord_set(sample_fields, n, &b, "name", "a-name-too-long");
	is_str(b.name, "a-name-", "a string longer than its field is cut to fit");
	keyrecord_set(sample_fields, n, &b, "on", "yes");
	ok(!b.on, "a bool is true only for \"1\"");
	len = keyrecord_format(sample_fields, n, &a, text, 12);
	ok(len == 11 && strlen(text) == 11, "a short buffer: cut, terminated, and the length written said");
}

int main(void)
{
	test_keyrecord();
	test_key_values();
	test_size();
	test_duration();
	test_uint();
	return tap_done();
}
