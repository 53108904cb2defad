/* basic/parse.h: strict parsers for command-line values.
 *
 * Sizes take binary suffixes, as fio and dd users expect: K, M, G, T, P
 * (optionally followed by "i" and/or "B", case-insensitive), so "4k" = 4096,
 * "1000M" = 1048576000, "1GiB" = 1073741824. A plain number is bytes.
 * Durations take ns, us, ms, s (default), m, h.
 * All return 0 or -EINVAL (malformed, unknown unit, negative) or -ERANGE
 * (overflow). They never print; parse_size_error() etc. are for messages.
 */
#ifndef IOTRIAGE_BASIC_PARSE_H
#define IOTRIAGE_BASIC_PARSE_H

#include <stdint.h>

int parse_size(const char *s, uint64_t *ret);
int parse_duration_ns(const char *s, uint64_t *ret);
/* Decimal unsigned integer in [min, max]; -ERANGE outside. */
int parse_uint(const char *s, uint64_t min, uint64_t max, uint64_t *ret);

/* The "key=value" lines of TEXT (our small state records), each given to
 * EACH(key, value, ARG) in order; a line without '=' is passed over.
 * Returns 0, or -EINVAL when a line is 512 bytes or longer. */
int parse_key_values(const char *text, void (*each)(const char *key, const char *value, void *arg), void *arg);

#endif
