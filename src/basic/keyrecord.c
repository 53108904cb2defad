#include "basic/keyrecord.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int format_field(const struct keyrecord_field *f, const char *at, char *buf, size_t len)
{
	switch (f->kind) {
	case KEYRECORD_STR:
		return snprintf(buf, len, "%s=%.*s\n", f->key, (int)f->size, at);
	case KEYRECORD_UINT:
		return snprintf(buf, len, "%s=%u\n", f->key, *(const unsigned *)(const void *)at);
	case KEYRECORD_LONG:
		return snprintf(buf, len, "%s=%ld\n", f->key, *(const long *)(const void *)at);
	case KEYRECORD_BOOL:
		return snprintf(buf, len, "%s=%d\n", f->key, *(const bool *)(const void *)at);
	}
	return 0;
}

size_t keyrecord_format(const struct keyrecord_field *fields, size_t n, const void *obj, char *buf, size_t len)
{
	size_t k = 0;
	if (len)
		buf[0] = '\0';
	for (size_t i = 0; i < n && k + 1 < len; i++) {
		int w = format_field(&fields[i], (const char *)obj + fields[i].offset, buf + k, len - k);
		if (w < 0)
			break;
		k += (size_t)w < len - k ? (size_t)w : len - k - 1;
	}
	return k;
}

bool keyrecord_set(const struct keyrecord_field *fields, size_t n, void *obj, const char *key, const char *value)
{
	for (size_t i = 0; i < n; i++) {
		if (strcmp(fields[i].key, key) != 0)
			continue;
		void *at = (char *)obj + fields[i].offset;
		switch (fields[i].kind) {
		case KEYRECORD_STR:
			snprintf(at, fields[i].size, "%s", value);
			break;
		case KEYRECORD_UINT:
			*(unsigned *)at = (unsigned)strtoul(value, NULL, 10);
			break;
		case KEYRECORD_LONG:
			*(long *)at = strtol(value, NULL, 10);
			break;
		case KEYRECORD_BOOL:
			*(bool *)at = strcmp(value, "1") == 0;
			break;
		}
		return true;
	}
	return false;
}
