/* fio's substitutions in an option line (see bench/fiojob_value.h). */
#include "bench/fiojob_value.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

int fiojob_expand_env(const char *line, const struct fiojob_env *env, char *out, size_t outlen, char *why,
		      size_t whylen)
{
	size_t n = 0;
	for (const char *p = line; *p;) {
		const char *add = p;
		size_t addlen = 1;
		if (p[0] == '$' && p[1] == '{') {
			const char *close = strchr(p + 2, '}');
			if (!close || close == p + 2) {
				snprintf(why, whylen, "'${' without a variable name and '}'");
				return -EINVAL;
			}
			char name[128];
			snprintf(name, sizeof(name), "%.*s", (int)(close - p - 2), p + 2);
			add = env && env->getenv ? env->getenv(name, env->arg) : NULL;
			if (!add) {
				snprintf(why, whylen, "${%s}: the environment variable %s is not set (fio would put an "
					 "empty value)", name, name);
				return -EINVAL;
			}
			addlen = strlen(add);
			p = close + 1;
		} else {
			p++;
		}
		if (n + addlen >= outlen)
			return -E2BIG;
		memcpy(out + n, add, addlen);
		n += addlen;
	}
	out[n] = '\0';
	return 0;
}

/* ---- arithmetic: a recursive descent over the text ---- */

struct expr {
	const char *p;
	bool suffixes;
	int bad;
};

static int64_t expr_sum(struct expr *e);

static void skip_space(struct expr *e)
{
	while (isspace((unsigned char)*e->p))
		e->p++;
}

static int64_t suffix_of(struct expr *e)
{
	static const char units[] = "kmgtp";
	const char *u = e->suffixes ? strchr(units, tolower((unsigned char)*e->p)) : NULL;
	if (!u || !*e->p)
		return 1;
	e->p++;
	if (tolower((unsigned char)*e->p) == 'i')
		e->p++;
	if (tolower((unsigned char)*e->p) == 'b')
		e->p++;
	return (int64_t)1 << (10 * (u - units + 1));
}

static int64_t expr_atom(struct expr *e)
{
	skip_space(e);
	if (*e->p == '(') {
		e->p++;
		int64_t v = expr_sum(e);
		skip_space(e);
		if (*e->p != ')')
			e->bad = 1;
		else
			e->p++;
		return v;
	}
	if (*e->p == '-') {
		e->p++;
		return -expr_atom(e);
	}
	if (!isdigit((unsigned char)*e->p)) {
		e->bad = 1;
		return 0;
	}
	int64_t v = 0;
	while (isdigit((unsigned char)*e->p)) {
		if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, *e->p - '0', &v))
			e->bad = 1;
		e->p++;
	}
	if (__builtin_mul_overflow(v, suffix_of(e), &v))
		e->bad = 1;
	return v;
}

static int64_t expr_product(struct expr *e)
{
	int64_t v = expr_atom(e);
	for (;;) {
		skip_space(e);
		char op = *e->p;
		if (op != '*' && op != '/' && op != '%')
			return v;
		e->p++;
		int64_t r = expr_atom(e);
		if (op == '*' && __builtin_mul_overflow(v, r, &v))
			e->bad = 1;
		else if (op != '*' && r == 0)
			e->bad = 1;
		else if (op == '/')
			v /= r;
		else if (op == '%')
			v %= r;
	}
}

static int64_t expr_sum(struct expr *e)
{
	int64_t v = expr_product(e);
	for (;;) {
		skip_space(e);
		char op = *e->p;
		if (op != '+' && op != '-')
			return v;
		e->p++;
		int64_t r = expr_product(e);
		if (op == '+' ? __builtin_add_overflow(v, r, &v) : __builtin_sub_overflow(v, r, &v))
			e->bad = 1;
	}
}

int fiojob_eval(const char *expr, bool suffixes, int64_t *ret)
{
	struct expr e = { .p = expr, .suffixes = suffixes };
	int64_t v = expr_sum(&e);
	skip_space(&e);
	if (e.bad || *e.p)
		return -EINVAL;
	*ret = v;
	return 0;
}

int fiojob_expand_keywords(const char *value, const struct fiojob_env *env, char *out, size_t outlen,
			   char *why, size_t whylen)
{
	const struct { const char *word; uint64_t v; } kw[] = {
		{ "$pagesize", env ? env->pagesize : 4096 }, { "$mb_memory", env ? env->mb_memory : 0 },
		{ "$ncpus", env ? env->ncpus : 1 },
	};
	char buf[1024];
	snprintf(buf, sizeof(buf), "%s", value);
	bool replaced = false;
	for (size_t i = 0; i < sizeof(kw) / sizeof(kw[0]); i++) {
		char *s;
		while ((s = strstr(buf, kw[i].word)) != NULL) {
			char rest[1024];
			snprintf(rest, sizeof(rest), "%s", s + strlen(kw[i].word));
			snprintf(s, sizeof(buf) - (size_t)(s - buf), "%" PRIu64 "%s", kw[i].v, rest);
			replaced = true;
		}
	}
	bool math = strpbrk(buf, "+-*/") && !strchr(buf, '\'');
	if (replaced && math) {
		int64_t v = 0;
		if (fiojob_eval(buf, false, &v) < 0) {
			snprintf(why, whylen, "'%s' (from '%s'): fio computes it with bc, which takes whole numbers, "
				 "+ - * / %% and parentheses only", buf, value);
			return -EINVAL;
		}
		snprintf(buf, sizeof(buf), "%" PRId64, v);
	}
	if (strlen(buf) >= outlen)
		return -E2BIG;
	snprintf(out, outlen, "%s", buf);
	return 0;
}

/* The whole number at the start of S (decimal, or hex with 0x), its end in *END. */
static int leading_number(const char *s, uint64_t *ret, const char **end, char *why, size_t whylen)
{
	bool hex = strncmp(s, "0x", 2) == 0 || strncmp(s, "0X", 2) == 0;
	const char *p = hex ? s + 2 : s;
	const char *digits = p;
	uint64_t v = 0;
	for (; hex ? isxdigit((unsigned char)*p) : isdigit((unsigned char)*p); p++) {
		unsigned d = isdigit((unsigned char)*p) ? (unsigned)(*p - '0') : (unsigned)(tolower((unsigned char)*p) - 'a' + 10);
		if (__builtin_mul_overflow(v, hex ? 16 : 10, &v) || __builtin_add_overflow(v, d, &v)) {
			snprintf(why, whylen, "'%s' is too large", s);
			return -EINVAL;
		}
	}
	if (p == digits) {
		snprintf(why, whylen, "'%s' does not start with a whole number", s);
		return -EINVAL;
	}
	if (*p == '.' && isdigit((unsigned char)p[1])) {
		snprintf(why, whylen, "'%s': fio reads a fraction as its whole part alone, with no unit after it "
			 "(%llu); write a whole number in a smaller unit", s, (unsigned long long)v);
		return -EINVAL;
	}
	*ret = v;
	*end = p;
	return 0;
}

int fiojob_size(const char *s, uint64_t *ret, char *why, size_t whylen)
{
	static const char units[] = "kmgtp";
	uint64_t v = 0;
	const char *p = NULL;
	if (leading_number(s, &v, &p, why, whylen) < 0)
		return -EINVAL;
	uint64_t base = 1024, mult = 1;
	const char *u = *p ? strchr(units, tolower((unsigned char)*p)) : NULL;
	if (u) {
		p++;
		if (tolower((unsigned char)p[0]) == 'i' && tolower((unsigned char)p[1]) == 'b') {
			base = 1000; /* fio's compatibility mode: an IEC prefix is a power of 10 */
			p += 2;
		} else if (tolower((unsigned char)*p) == 'i') {
			p++; /* "ki" without b: fio reads the k alone */
		} else if (tolower((unsigned char)*p) == 'b') {
			p++;
		}
		for (long n = u - units + 1; n > 0; n--)
			mult *= base;
	} else if (tolower((unsigned char)*p) == 'b') {
		p++;
	}
	if (*p) {
		snprintf(why, whylen, "'%s': unexpected '%s' after the number (fio would ignore it)", s, p);
		return -EINVAL;
	}
	if (__builtin_mul_overflow(v, mult, ret)) {
		snprintf(why, whylen, "'%s' is too large", s);
		return -EINVAL;
	}
	return 0;
}

int fiojob_time(const char *s, uint64_t *ret_ns, char *why, size_t whylen)
{
	static const struct { const char *unit; uint64_t ns; bool prefix; } units[] = {
		{ "usec", 1000, true }, { "us", 1000, true }, { "msec", 1000000, true }, { "ms", 1000000, true },
		{ "s", 1000000000ULL, false }, { "m", 60000000000ULL, false }, { "h", 3600000000000ULL, false },
		{ "d", 86400000000000ULL, false }, { "", 1000000000ULL, false },
	};
	uint64_t v = 0;
	const char *p = NULL;
	if (leading_number(s, &v, &p, why, whylen) < 0)
		return -EINVAL;
	char unit[16];
	size_t n = 0;
	for (; p[n] && n + 1 < sizeof(unit); n++)
		unit[n] = (char)tolower((unsigned char)p[n]);
	unit[n] = '\0';
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		size_t len = strlen(units[i].unit);
		if (units[i].prefix ? strncmp(unit, units[i].unit, len) == 0 : strcmp(unit, units[i].unit) == 0) {
			if (units[i].prefix && unit[len] && strcmp(unit + len, "ec") != 0)
				break;
			if (__builtin_mul_overflow(v, units[i].ns, ret_ns))
				break;
			return 0;
		}
	}
	if (isalpha((unsigned char)*p))
		snprintf(why, whylen, "'%s': fio reads '%s' as microseconds (its units are us, ms, s, m, h and d)", s, p);
	else
		snprintf(why, whylen, "'%s': expected a time such as 30, 30s, 500ms or 2m", s);
	return -EINVAL;
}
