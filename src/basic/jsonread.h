/* basic/jsonread.h: a small JSON reader for other programs' structured
 * output (smartctl --json, fio --output-format=json). It builds a tree:
 *
 *   struct jv *doc; char err[128];
 *   if (jv_parse(text, len, &doc, err, sizeof(err)) < 0) ... err says where;
 *   double t = jv_number(jv_path(doc, "temperature.current"), -1);
 *   jv_free(doc);
 *
 * Lookups never fail hard: a missing member or a value of another type
 * gives NULL (jv_get, jv_path, jv_at) or the caller's default (jv_number,
 * jv_bool, jv_string), so optional fields need no checks of their own.
 * Numbers are doubles (exact to 2^53, which covers every counter read here).
 * Nesting deeper than JV_MAX_DEPTH is refused rather than recursed into.
 */
#ifndef IOTRIAGE_BASIC_JSONREAD_H
#define IOTRIAGE_BASIC_JSONREAD_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

#define JV_MAX_DEPTH 64

enum jv_type { JV_NULL, JV_BOOL, JV_NUMBER, JV_STRING, JV_ARRAY, JV_OBJECT };

struct jv {
	enum jv_type type;
	bool boolean;
	double number;
	char *string;        /* JV_STRING: NUL-terminated UTF-8 (an embedded \u0000 ends it) */
	struct jv *items;    /* JV_ARRAY and JV_OBJECT: COUNT values */
	char **keys;         /* JV_OBJECT: COUNT member names */
	size_t count;
};

/* Parses TEXT (LEN bytes, one JSON value with optional surrounding white
 * space). Returns 0 and *RET (free with jv_free), or -EINVAL with a message
 * naming the byte offset in ERR. */
int jv_parse(const char *text, size_t len, struct jv **ret, char *err, size_t errlen);
void jv_free(struct jv *v);

/* Member KEY of an object (the first, if repeated), else NULL. */
const struct jv *jv_get(const struct jv *obj, const char *key);
/* Dotted member path, e.g. "smart_status.passed", else NULL. */
const struct jv *jv_path(const struct jv *v, const char *path);
/* Element I of an array, else NULL. */
const struct jv *jv_at(const struct jv *arr, size_t i);

double jv_number(const struct jv *v, double fallback);
/* A number as an integer type: truncated toward zero and saturated at the
 * type's limits (another program's 1e300 must not be undefined behaviour);
 * FALLBACK when V is not a number or is NaN. */
int jv_int(const struct jv *v, int fallback);
uint64_t jv_u64(const struct jv *v, uint64_t fallback);
/* The same conversions for a double from elsewhere. */
int jv_double_to_int(double d, int fallback);
uint64_t jv_double_to_u64(double d, uint64_t fallback);
bool jv_bool(const struct jv *v, bool fallback);
const char *jv_string(const struct jv *v, const char *fallback);

#endif
