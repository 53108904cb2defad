/* basic/jsonread.c: a recursive-descent JSON reader (RFC 8259). */
#include "basic/jsonread.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/strbuf.h"


struct reader {
	const char *p, *start, *end;
	char *err;
	size_t errlen;
	bool failed;
};

static void fail(struct reader *r, const char *what)
{
	if (!r->failed)
		snprintf(r->err, r->errlen, "%s at byte %zu", what, (size_t)(r->p - r->start));
	r->failed = true;
}

static void skip_space(struct reader *r)
{
	while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r'))
		r->p++;
}

static bool literal(struct reader *r, const char *word)
{
	size_t n = strlen(word);
	if ((size_t)(r->end - r->p) < n || memcmp(r->p, word, n) != 0)
		return false;
	r->p += n;
	return true;
}

static int hex4(struct reader *r, unsigned *ret)
{
	if (r->end - r->p < 4)
		return -1;
	unsigned v = 0;
	for (int i = 0; i < 4; i++) {
		char c = *r->p++;
		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else
			return -1;
	}
	*ret = v;
	return 0;
}

static void add_utf8(struct strbuf *sb, unsigned cp)
{
	if (cp < 0x80) {
		strbuf_addch(sb, (char)cp);
	} else if (cp < 0x800) {
		strbuf_addch(sb, (char)(0xc0 | (cp >> 6)));
		strbuf_addch(sb, (char)(0x80 | (cp & 0x3f)));
	} else if (cp < 0x10000) {
		strbuf_addch(sb, (char)(0xe0 | (cp >> 12)));
		strbuf_addch(sb, (char)(0x80 | ((cp >> 6) & 0x3f)));
		strbuf_addch(sb, (char)(0x80 | (cp & 0x3f)));
	} else {
		strbuf_addch(sb, (char)(0xf0 | (cp >> 18)));
		strbuf_addch(sb, (char)(0x80 | ((cp >> 12) & 0x3f)));
		strbuf_addch(sb, (char)(0x80 | ((cp >> 6) & 0x3f)));
		strbuf_addch(sb, (char)(0x80 | (cp & 0x3f)));
	}
}

/* At the opening quote. Returns a malloc'd string or NULL after fail(). */
static char *parse_string(struct reader *r)
{
	struct strbuf sb = STRBUF_INIT;
	r->p++;
	while (r->p < r->end && *r->p != '"') {
		unsigned char c = (unsigned char)*r->p;
		if (c < 0x20) {
			fail(r, "control character in string");
			goto error;
		}
		if (c != '\\') {
			strbuf_addch(&sb, (char)c);
			r->p++;
			continue;
		}
		if (++r->p == r->end)
			break;
		char e = *r->p++;
		const char *plain = strchr("\"\\/bfnrt", e);
		if (e && plain) {
			static const char decoded[] = "\"\\/\b\f\n\r\t";
			strbuf_addch(&sb, decoded[plain - "\"\\/bfnrt"]);
			continue;
		}
		unsigned cp, low;
		if (e != 'u' || hex4(r, &cp) < 0) {
			fail(r, "bad escape in string");
			goto error;
		}
		if (cp >= 0xd800 && cp < 0xdc00) { /* a surrogate pair */
			if (r->end - r->p < 6 || r->p[0] != '\\' || r->p[1] != 'u') {
				fail(r, "unpaired surrogate in string");
				goto error;
			}
			r->p += 2;
			if (hex4(r, &low) < 0 || low < 0xdc00 || low > 0xdfff) {
				fail(r, "unpaired surrogate in string");
				goto error;
			}
			cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
		} else if (cp >= 0xdc00 && cp < 0xe000) {
			fail(r, "unpaired surrogate in string");
			goto error;
		}
		add_utf8(&sb, cp);
	}
	if (r->p == r->end) {
		fail(r, "unterminated string");
		goto error;
	}
	r->p++;
	return strbuf_detach(&sb);
error:
	strbuf_release(&sb);
	return NULL;
}

static bool parse_number(struct reader *r, double *ret)
{
	const char *s = r->p;
	if (s < r->end && *s == '-')
		s++;
	if (s == r->end || *s < '0' || *s > '9')
		return false;
	if (*s == '0')
		s++;
	else
		while (s < r->end && *s >= '0' && *s <= '9')
			s++;
	if (s < r->end && *s == '.') {
		s++;
		if (s == r->end || *s < '0' || *s > '9')
			return false;
		while (s < r->end && *s >= '0' && *s <= '9')
			s++;
	}
	if (s < r->end && (*s == 'e' || *s == 'E')) {
		s++;
		if (s < r->end && (*s == '+' || *s == '-'))
			s++;
		if (s == r->end || *s < '0' || *s > '9')
			return false;
		while (s < r->end && *s >= '0' && *s <= '9')
			s++;
	}
	/* strtod needs a terminated copy: TEXT need not be NUL-terminated. */
	char buf[64];
	size_t n = (size_t)(s - r->p);
	if (n >= sizeof(buf))
		return false;
	memcpy(buf, r->p, n);
	buf[n] = '\0';
	*ret = strtod(buf, NULL);
	r->p = s;
	return true;
}

static void release(struct jv *v)
{
	free(v->string);
	for (size_t i = 0; i < v->count; i++) {
		release(&v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	memset(v, 0, sizeof(*v));
}

static bool parse_value(struct reader *r, struct jv *v, int depth);

/* Appends one slot to a container, growing by doubling. */
static struct jv *append(struct jv *v, size_t *cap, bool keyed)
{
	if (v->count == *cap) {
		*cap = *cap ? *cap * 2 : 4;
		v->items = xreallocarray(v->items, *cap, sizeof(*v->items));
		if (keyed)
			v->keys = xreallocarray(v->keys, *cap, sizeof(*v->keys));
	}
	struct jv *slot = &v->items[v->count];
	memset(slot, 0, sizeof(*slot));
	if (keyed)
		v->keys[v->count] = NULL;
	v->count++;
	return slot;
}

static bool parse_container(struct reader *r, struct jv *v, int depth)
{
	bool object = *r->p == '{';
	char close = object ? '}' : ']';
	size_t cap = 0;
	v->type = object ? JV_OBJECT : JV_ARRAY;
	r->p++;
	skip_space(r);
	if (r->p < r->end && *r->p == close) {
		r->p++;
		return true;
	}
	for (;;) {
		skip_space(r);
		char *key = NULL;
		if (object) {
			if (r->p == r->end || *r->p != '"') {
				fail(r, "expected a member name");
				return false;
			}
			key = parse_string(r);
			if (!key)
				return false;
			skip_space(r);
			if (r->p == r->end || *r->p != ':') {
				free(key);
				fail(r, "expected ':'");
				return false;
			}
			r->p++;
		}
		struct jv *slot = append(v, &cap, object);
		if (object)
			v->keys[v->count - 1] = key;
		if (!parse_value(r, slot, depth + 1))
			return false;
		skip_space(r);
		if (r->p < r->end && *r->p == ',') {
			r->p++;
			continue;
		}
		if (r->p < r->end && *r->p == close) {
			r->p++;
			return true;
		}
		fail(r, object ? "expected ',' or '}'" : "expected ',' or ']'");
		return false;
	}
}

static bool parse_value(struct reader *r, struct jv *v, int depth)
{
	if (depth > JV_MAX_DEPTH) {
		fail(r, "nesting too deep");
		return false;
	}
	skip_space(r);
	if (r->p == r->end) {
		fail(r, "unexpected end of input");
		return false;
	}
	switch (*r->p) {
	case '{':
	case '[':
		return parse_container(r, v, depth);
	case '"':
		v->type = JV_STRING;
		v->string = parse_string(r);
		return v->string != NULL;
	}
	if (literal(r, "true") || literal(r, "false")) {
		v->type = JV_BOOL;
		v->boolean = r->p[-1] == 'e' && r->p[-2] == 'u'; /* "true" ends in "ue", "false" in "se" */
		return true;
	}
	if (literal(r, "null")) {
		v->type = JV_NULL;
		return true;
	}
	v->type = JV_NUMBER;
	if (!parse_number(r, &v->number)) {
		fail(r, "unexpected character");
		return false;
	}
	return true;
}

int jv_parse(const char *text, size_t len, struct jv **ret, char *err, size_t errlen)
{
	struct reader r = { .p = text, .start = text, .end = text + len, .err = err, .errlen = errlen };
	struct jv *v = xcalloc(1, sizeof(*v));
	if (parse_value(&r, v, 0)) {
		skip_space(&r);
		if (r.p != r.end)
			fail(&r, "text after the value");
	}
	if (r.failed) {
		jv_free(v);
		return -EINVAL;
	}
	*ret = v;
	return 0;
}

void jv_free(struct jv *v)
{
	if (!v)
		return;
	release(v);
	free(v);
}

const struct jv *jv_get(const struct jv *obj, const char *key)
{
	if (!obj || obj->type != JV_OBJECT)
		return NULL;
	for (size_t i = 0; i < obj->count; i++)
		if (strcmp(obj->keys[i], key) == 0)
			return &obj->items[i];
	return NULL;
}

const struct jv *jv_path(const struct jv *v, const char *path)
{
	char name[128];
	while (v && *path) {
		size_t n = strcspn(path, ".");
		if (n >= sizeof(name))
			return NULL;
		memcpy(name, path, n);
		name[n] = '\0';
		v = jv_get(v, name);
		path += n + (path[n] == '.');
	}
	return v;
}

const struct jv *jv_at(const struct jv *arr, size_t i)
{
	return arr && arr->type == JV_ARRAY && i < arr->count ? &arr->items[i] : NULL;
}

double jv_number(const struct jv *v, double fallback)
{
	return v && v->type == JV_NUMBER ? v->number : fallback;
}

int jv_double_to_int(double d, int fallback)
{
	if (d != d)
		return fallback;
	if (d >= (double)INT_MAX)
		return INT_MAX;
	if (d <= (double)INT_MIN)
		return INT_MIN;
	return (int)d;
}

uint64_t jv_double_to_u64(double d, uint64_t fallback)
{
	if (d != d)
		return fallback;
	if (d <= 0)
		return 0;
	if (d >= 18446744073709551616.0) /* 2^64 */
		return UINT64_MAX;
	return (uint64_t)d;
}

int jv_int(const struct jv *v, int fallback)
{
	return v && v->type == JV_NUMBER ? jv_double_to_int(v->number, fallback) : fallback;
}

uint64_t jv_u64(const struct jv *v, uint64_t fallback)
{
	return v && v->type == JV_NUMBER ? jv_double_to_u64(v->number, fallback) : fallback;
}

bool jv_bool(const struct jv *v, bool fallback)
{
	return v && v->type == JV_BOOL ? v->boolean : fallback;
}

const char *jv_string(const struct jv *v, const char *fallback)
{
	return v && v->type == JV_STRING ? v->string : fallback;
}
