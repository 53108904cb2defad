/* basic/keyrecord.h: a struct kept as "key=value" lines (our small state
 * records), described once by a table of its fields so that writing and
 * reading the record cannot drift apart. */
#ifndef IOTRIAGE_BASIC_KEYRECORD_H
#define IOTRIAGE_BASIC_KEYRECORD_H

#include <stdbool.h>
#include <stddef.h>

enum keyrecord_kind {
	KEYRECORD_STR,  /* char array: copied, cut to fit */
	KEYRECORD_UINT, /* unsigned */
	KEYRECORD_LONG, /* long */
	KEYRECORD_BOOL, /* bool: "1" or "0" */
};

struct keyrecord_field {
	const char *key;
	enum keyrecord_kind kind;
	size_t offset, size;
};

/* The field MEMBER of struct TYPE, kept under the key "MEMBER". */
#define KEYRECORD_FIELD(type, member, kind) { #member, kind, offsetof(type, member), sizeof(((type *)0)->member) }

/* Writes "key=value\n" for each of the N FIELDS of OBJ into BUF (always
 * terminated); returns the length written. */
size_t keyrecord_format(const struct keyrecord_field *fields, size_t n, const void *obj, char *buf, size_t len);
/* Sets the field of OBJ named KEY from VALUE; false when no field has that key. */
bool keyrecord_set(const struct keyrecord_field *fields, size_t n, void *obj, const char *key, const char *value);

#endif
