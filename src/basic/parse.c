#include "basic/parse.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Reads the leading unsigned decimal integer; *end gets the first unread char. */
static int parse_leading_u64(const char *s, uint64_t *ret, const char **end)
{
	if (!s || !isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	char *e;
	unsigned long long v = strtoull(s, &e, 10);
	if (errno == ERANGE)
		return -ERANGE;
	*ret = v;
	*end = e;
	return 0;
}

static int multiply_checked(uint64_t v, uint64_t mult, uint64_t *ret)
{
	if (mult && v > UINT64_MAX / mult)
		return -ERANGE;
	*ret = v * mult;
	return 0;
}

int parse_size(const char *s, uint64_t *ret)
{
	const char *unit;
	uint64_t v;
	int r = parse_leading_u64(s, &v, &unit);
	if (r < 0)
		return r;

	static const char units[] = "KMGTP";
	uint64_t mult = 1;
	if (*unit) {
		const char *u = strchr(units, toupper((unsigned char)*unit));
		if (!u)
			return -EINVAL;
		for (const char *p = units; p <= u; p++)
			mult *= 1024;
		unit++;
		if (*unit == 'i' || *unit == 'I')
			unit++;
		if (*unit == 'b' || *unit == 'B')
			unit++;
		if (*unit)
			return -EINVAL;
	}
	return multiply_checked(v, mult, ret);
}

int parse_duration_ns(const char *s, uint64_t *ret)
{
	static const struct {
		const char *name;
		uint64_t ns;
	} units[] = {
		{ "ns", 1ULL },
		{ "us", 1000ULL },
		{ "ms", 1000000ULL },
		{ "s", 1000000000ULL },
		{ "m", 60000000000ULL },
		{ "h", 3600000000000ULL },
	};
	const char *unit;
	uint64_t v;
	int r = parse_leading_u64(s, &v, &unit);
	if (r < 0)
		return r;
	if (!*unit)
		return multiply_checked(v, 1000000000ULL, ret);
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strcasecmp(unit, units[i].name) == 0)
			return multiply_checked(v, units[i].ns, ret);
	return -EINVAL;
}

int parse_uint(const char *s, uint64_t min, uint64_t max, uint64_t *ret)
{
	const char *end;
	uint64_t v;
	int r = parse_leading_u64(s, &v, &end);
	if (r < 0)
		return r;
	if (*end)
		return -EINVAL;
	if (v < min || v > max)
		return -ERANGE;
	*ret = v;
	return 0;
}

int parse_key_values(const char *text, void (*each)(const char *key, const char *value, void *arg), void *arg)
{
	for (const char *line = text; line && *line;) {
		const char *nl = strchr(line, '\n');
		size_t n = nl ? (size_t)(nl - line) : strlen(line);
		char buf[512];
		if (n >= sizeof(buf))
			return -EINVAL;
		memcpy(buf, line, n);
		buf[n] = '\0';
		line = nl ? nl + 1 : NULL;
		char *eq = strchr(buf, '=');
		if (!eq)
			continue;
		*eq = '\0';
		each(buf, eq + 1, arg);
	}
	return 0;
}
