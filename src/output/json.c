#include "output/json.h"

#include "basic/jsonread.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>

void json_init(struct json *j)
{
	*j = (struct json){ .out = STRBUF_INIT };
}

void json_release(struct json *j)
{
	strbuf_release(&j->out);
}

void json_quote(struct strbuf *sb, const char *s)
{
	strbuf_addch(sb, '"');
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"':
			strbuf_adds(sb, "\\\"");
			break;
		case '\\':
			strbuf_adds(sb, "\\\\");
			break;
		case '\n':
			strbuf_adds(sb, "\\n");
			break;
		case '\t':
			strbuf_adds(sb, "\\t");
			break;
		case '\r':
			strbuf_adds(sb, "\\r");
			break;
		default:
			if (*p < 0x20)
				strbuf_addf(sb, "\\u%04x", *p);
			else
				strbuf_addch(sb, (char)*p);
		}
	}
	strbuf_addch(sb, '"');
}

static void indent(struct json *j)
{
	strbuf_addch(&j->out, '\n');
	for (int i = 0; i < j->depth; i++)
		strbuf_adds(&j->out, "  ");
}

/* Writes the separator, indentation and key that precede any value. */
static void begin_value(struct json *j, const char *key)
{
	if (j->depth > 0) {
		if (j->has_members[j->depth])
			strbuf_addch(&j->out, ',');
		j->has_members[j->depth] = true;
		indent(j);
	}
	if (key) {
		json_quote(&j->out, key);
		strbuf_adds(&j->out, ": ");
	}
}

static void open_container(struct json *j, const char *key, char c)
{
	begin_value(j, key);
	strbuf_addch(&j->out, c);
	if (j->depth + 1 < JSON_MAX_DEPTH)
		j->depth++;
	j->has_members[j->depth] = false;
}

static void close_container(struct json *j, char c)
{
	bool had = j->has_members[j->depth];
	if (j->depth > 0)
		j->depth--;
	if (had)
		indent(j);
	strbuf_addch(&j->out, c);
	if (j->depth == 0)
		strbuf_addch(&j->out, '\n');
}

void json_begin_object(struct json *j, const char *key)
{
	open_container(j, key, '{');
}

void json_end_object(struct json *j)
{
	close_container(j, '}');
}

void json_begin_array(struct json *j, const char *key)
{
	open_container(j, key, '[');
}

void json_end_array(struct json *j)
{
	close_container(j, ']');
}

void json_string(struct json *j, const char *key, const char *value)
{
	begin_value(j, key);
	if (value)
		json_quote(&j->out, value);
	else
		strbuf_adds(&j->out, "null");
}

void json_uint(struct json *j, const char *key, uint64_t value)
{
	begin_value(j, key);
	strbuf_addf(&j->out, "%" PRIu64, value);
}

void json_int(struct json *j, const char *key, int64_t value)
{
	begin_value(j, key);
	strbuf_addf(&j->out, "%" PRId64, value);
}

void json_double(struct json *j, const char *key, double value)
{
	begin_value(j, key);
	if (isfinite(value))
		strbuf_addf(&j->out, "%.9g", value);
	else
		strbuf_adds(&j->out, "null");
}

void json_bool(struct json *j, const char *key, bool value)
{
	begin_value(j, key);
	strbuf_adds(&j->out, value ? "true" : "false");
}

void json_null(struct json *j, const char *key)
{
	begin_value(j, key);
	strbuf_adds(&j->out, "null");
}

void json_value(struct json *j, const char *key, const struct jv *v)
{
	if (!v) {
		json_null(j, key);
		return;
	}
	switch (v->type) {
	case JV_NULL:
		json_null(j, key);
		return;
	case JV_BOOL:
		json_bool(j, key, v->boolean);
		return;
	case JV_NUMBER:
		if (v->number == (double)(int64_t)v->number && v->number < 9007199254740992.0 &&
		    v->number > -9007199254740992.0)
			json_int(j, key, (int64_t)v->number);
		else
			json_double(j, key, v->number);
		return;
	case JV_STRING:
		json_string(j, key, v->string);
		return;
	case JV_ARRAY:
		json_begin_array(j, key);
		for (size_t i = 0; i < v->count; i++)
			json_value(j, NULL, &v->items[i]);
		json_end_array(j);
		return;
	case JV_OBJECT:
		json_begin_object(j, key);
		for (size_t i = 0; i < v->count; i++)
			json_value(j, v->keys[i], &v->items[i]);
		json_end_object(j);
		return;
	}
}
