#include "basic/optvalue.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "basic/parse.h"
#include "basic/strbuf.h"

static void join_choices(const char *const *choices, char *buf, size_t len)
{
	struct strbuf sb = STRBUF_INIT;
	size_t n = 0;
	while (choices && choices[n])
		n++;
	for (size_t i = 0; i < n; i++)
		strbuf_addf(&sb, "%s%s", i == 0 ? "" : i + 1 == n ? " or " : ", ", choices[i]);
	snprintf(buf, len, "%s", sb.buf);
	strbuf_release(&sb);
}

void optvalue_expected(const struct opt_value *v, char *buf, size_t len)
{
	if (v->expect) {
		snprintf(buf, len, "%s", v->expect);
		return;
	}
	switch (v->type) {
	case OPT_TYPE_CHOICE:
		join_choices(v->choices, buf, len);
		return;
	case OPT_TYPE_BOOL01:
		snprintf(buf, len, "0 or 1");
		return;
	case OPT_TYPE_SIZE:
		snprintf(buf, len, "a size such as 4K, 256M or 1G (K, M, G, T, P are binary)%s",
			 v->min > 1 ? ", at least the minimum" : "");
		return;
	case OPT_TYPE_DURATION:
		snprintf(buf, len, "a duration such as 30s, 5m or 1h");
		return;
	case OPT_TYPE_UINT:
		if (v->max)
			snprintf(buf, len, "%" PRIu64 " to %" PRIu64, v->min, v->max);
		else
			snprintf(buf, len, "a whole number of at least %" PRIu64, v->min);
		return;
	default:
		snprintf(buf, len, "a value");
	}
}

static bool in_range(const struct opt_value *v, uint64_t x)
{
	return x >= v->min && (v->max == 0 || x <= v->max);
}

/* Parses ARG as row V's type into *RET_NUM or *RET_STR. 0, or -EINVAL. */
static int parse_typed(const struct opt_value *v, const char *arg, uint64_t *ret_num, const char **ret_str)
{
	switch (v->type) {
	case OPT_TYPE_FLAG:
		*ret_num = 1;
		return 0;
	case OPT_TYPE_STRING:
		*ret_str = arg;
		return 0;
	case OPT_TYPE_CHOICE:
		for (const char *const *c = v->choices; c && *c; c++)
			if (strcmp(*c, arg) == 0) {
				*ret_str = *c;
				return 0;
			}
		return -EINVAL;
	case OPT_TYPE_BOOL01:
		if (strcmp(arg, "0") && strcmp(arg, "1"))
			return -EINVAL;
		*ret_num = arg[0] == '1';
		return 0;
	case OPT_TYPE_UINT:
		return parse_uint(arg, v->min, v->max ? v->max : UINT64_MAX, ret_num) < 0 ? -EINVAL : 0;
	case OPT_TYPE_SIZE:
		return parse_size(arg, ret_num) < 0 || !in_range(v, *ret_num) ? -EINVAL : 0;
	case OPT_TYPE_DURATION:
		return parse_duration_ns(arg, ret_num) < 0 || !in_range(v, *ret_num) ? -EINVAL : 0;
	default:
		return -EINVAL;
	}
}

static void store_typed(const struct opt_value *v, void *settings, uint64_t num, const char *str)
{
	char *dst = (char *)settings + v->offset;
	switch (v->type) {
	case OPT_TYPE_FLAG:
	case OPT_TYPE_BOOL01:
		*(bool *)dst = num != 0;
		break;
	case OPT_TYPE_STRING:
	case OPT_TYPE_CHOICE:
		*(const char **)dst = str;
		break;
	case OPT_TYPE_UINT:
		if (v->width == sizeof(unsigned))
			*(unsigned *)dst = (unsigned)num;
		else
			*(uint64_t *)dst = num;
		break;
	default:
		*(uint64_t *)dst = num;
	}
}

int optvalue_parse(const struct opt_value *v, const char *arg, void *settings)
{
	uint64_t num = 0;
	const char *str = NULL;
	if (parse_typed(v, arg, &num, &str) < 0)
		return -EINVAL;
	store_typed(v, settings, num, str);
	if (v->given_offset)
		*(bool *)((char *)settings + v->given_offset - 1) = true;
	return 0;
}

int optvalue_apply_default(const struct opt_value *v, void *settings)
{
	uint64_t num = 0;
	const char *str = NULL;
	if (v->type == OPT_TYPE_HANDLER || !v->def || v->type == OPT_TYPE_FLAG)
		return 0;
	if (parse_typed(v, v->def, &num, &str) < 0)
		return -EINVAL;
	store_typed(v, settings, num, str ? str : v->def);
	return 0;
}
