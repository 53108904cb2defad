/* output/json.h: a streaming JSON writer into a strbuf, pretty-printed with
 * two-space indentation. Keys are given for members of objects and NULL for
 * elements of arrays; commas and nesting are tracked for the caller.
 *
 *   struct json j; json_init(&j);
 *   json_begin_object(&j, NULL);
 *     json_string(&j, "path", "/dev/sda");
 *     json_begin_array(&j, "devices"); ... json_end_array(&j);
 *   json_end_object(&j);
 *   fputs(j.out.buf, stdout); json_release(&j);
 *
 * Non-finite doubles are written as null (JSON has no NaN).
 */
#ifndef IOTRIAGE_OUTPUT_JSON_H
#define IOTRIAGE_OUTPUT_JSON_H

#include <stdbool.h>
#include <stdint.h>

#include "basic/strbuf.h"

#define JSON_MAX_DEPTH 32

struct json {
	struct strbuf out;
	int depth;
	bool has_members[JSON_MAX_DEPTH];
};

void json_init(struct json *j);
void json_release(struct json *j);

void json_begin_object(struct json *j, const char *key);
void json_end_object(struct json *j);
void json_begin_array(struct json *j, const char *key);
void json_end_array(struct json *j);

void json_string(struct json *j, const char *key, const char *value); /* NULL -> null */
void json_uint(struct json *j, const char *key, uint64_t value);
void json_int(struct json *j, const char *key, int64_t value);
void json_double(struct json *j, const char *key, double value);
void json_bool(struct json *j, const char *key, bool value);
void json_null(struct json *j, const char *key);

struct jv;
/* Writes a value read by basic/jsonread (another program's document, such
 * as fio's) under KEY. Integral numbers up to 2^53 are written exactly. */
void json_value(struct json *j, const char *key, const struct jv *v);

/* Appends S as a quoted, escaped JSON string. */
void json_quote(struct strbuf *sb, const char *s);

#endif
