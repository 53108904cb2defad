/* fio's random_distribution (see bench/distribution.h). */
#include "bench/distribution.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ZIPF_MAX_TERMS 10000000ULL
#define NORMAL_DRAWS 12
/* Knuth's multiplicative hash (the golden ratio in 64 bits), as fio
 * scatters ranks: odd, so a bijection on every power-of-two area. */
#define SCATTER_MULTIPLIER 0x61C8864680B583EBULL

static const char *const names[] = { "random", "zipf", "pareto", "normal", "zoned" };

const char *dist_kind_name(enum dist_kind kind)
{
	return (unsigned)kind < sizeof(names) / sizeof(names[0]) ? names[kind] : "?";
}

static int bad(char *why, size_t len, int err, const char *fmt, const char *text)
{
	snprintf(why, len, fmt, text);
	return err;
}

/* A number as fio's str_to_float reads one: the whole text. */
static int read_double(const char *s, size_t n, double *ret)
{
	char buf[64], *end = NULL;
	if (n == 0 || n >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, n);
	buf[n] = '\0';
	*ret = strtod(buf, &end);
	return end && *end == '\0' && isfinite(*ret) ? 0 : -EINVAL;
}

#define PCT_MISSING 255U

/* A percentage, or nothing (PCT_MISSING). */
static int read_pct(const char *s, size_t n, unsigned *ret)
{
	unsigned v = 0;
	*ret = PCT_MISSING;
	if (n == 0)
		return 0;
	if (n > 3)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -EINVAL;
		v = v * 10 + (unsigned)(s[i] - '0');
	}
	*ret = v;
	return v <= 100 ? 0 : -EINVAL;
}

/* fio's sizes for the zones given none: the rest of 100 divided among them. */
static void share_out(struct dist_spec *out, unsigned size)
{
	unsigned no_size = 0;
	for (unsigned i = 0; i < out->nr_zones; i++)
		no_size += out->zones[i].size_pct == PCT_MISSING;
	for (unsigned i = 0; i < out->nr_zones; i++)
		if (out->zones[i].size_pct == PCT_MISSING)
			out->zones[i].size_pct = out->nr_zones == 1 ? 100 : (100 - size) / no_size;
}

/* "A/S:A/S:...", as fio reads it: an empty S is a share of the rest. */
static int parse_zones(const char *p, struct dist_spec *out, char *why, size_t len)
{
	unsigned access = 0, size = 0;
	out->nr_zones = 0;
	while (*p) {
		size_t n = strcspn(p, ":");
		const char *slash = memchr(p, '/', n);
		if (out->nr_zones == DIST_MAX_ZONES)
			return bad(why, len, -ENOTSUP, "%s: more than 64 zones are not run natively", "zoned");
		struct dist_zone *z = &out->zones[out->nr_zones];
		if (!slash || read_pct(p, (size_t)(slash - p), &z->access_pct) < 0 || z->access_pct == PCT_MISSING ||
		    read_pct(slash + 1, (size_t)(p + n - slash - 1), &z->size_pct) < 0)
			return bad(why, len, -EINVAL, "%s: expected ACCESS/SIZE percentages such as 60/10:40/90", "zoned");
		access += z->access_pct;
		size += z->size_pct == PCT_MISSING ? 0 : z->size_pct;
		out->nr_zones++;
		p += n + (p[n] == ':');
	}
	if (!out->nr_zones || access != 100 || size > 100)
		return bad(why, len, -EINVAL, "%s: the accesses must add up to 100%% and the sizes to 100%% or less "
			   "(fio refuses it too)", "zoned");
	share_out(out, size);
	return 0;
}

/* VALUE[:CENTER] after the model's name, both optional. */
static int parse_value(const char *p, struct dist_spec *out, char *why, size_t len)
{
	static const double defaults[] = { 0, 1.1, 0.2, 0 };
	out->value = defaults[out->kind];
	out->center = -1;
	if (!*p)
		return 0;
	size_t n = strcspn(p, ":");
	if (n && read_double(p, n, &out->value) < 0)
		return bad(why, len, -EINVAL, "%s: expected a number", dist_kind_name(out->kind));
	if (p[n] && (read_double(p + n + 1, strlen(p + n + 1), &out->center) < 0 || out->center < 0 ||
		     out->center > 1))
		return bad(why, len, -EINVAL, "%s: the center is a number from 0 to 1", dist_kind_name(out->kind));
	if (out->kind == DIST_ZIPF && out->value == 1.0)
		return bad(why, len, -EINVAL, "%s: theta must differ from 1 (fio refuses 1 too)", "zipf");
	if (out->kind == DIST_ZIPF && out->value <= 0)
		return bad(why, len, -ENOTSUP, "%s: a theta of 0 or less is not run natively", "zipf");
	if (out->kind == DIST_PARETO && (out->value <= 0 || out->value >= 1))
		return bad(why, len, -EINVAL, "%s: h is a number between 0 and 1", "pareto");
	if (out->kind == DIST_NORMAL && (out->value < 0 || out->value >= 100))
		return bad(why, len, -EINVAL, "%s: the deviation is a percentage from 0 to under 100", "normal");
	return 0;
}

int dist_parse(const char *text, struct dist_spec *out, char *why, size_t len)
{
	*out = (struct dist_spec)DIST_SPEC_INIT;
	if (strchr(text, ','))
		return bad(why, len, -ENOTSUP, "%s: separate read and write distributions are not run natively", text);
	size_t n = strcspn(text, ":");
	if (n == 9 && strncmp(text, "zoned_abs", 9) == 0)
		return bad(why, len, -ENOTSUP, "%s: zoned_abs is not run natively (zoned is)", text);
	for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
		if (strlen(names[k]) != n || strncmp(text, names[k], n) != 0)
			continue;
		out->kind = (enum dist_kind)k;
		const char *rest = text + n + (text[n] == ':');
		if (out->kind == DIST_ZONED)
			return parse_zones(rest, out, why, len);
		if (out->kind == DIST_RANDOM)
			return *rest ? bad(why, len, -EINVAL, "%s: random takes no value", text) : 0;
		return parse_value(rest, out, why, len);
	}
	return bad(why, len, -EINVAL, "%s: expected random, zipf, pareto, normal, zoned or zoned_abs", text);
}

void dist_format(const struct dist_spec *spec, char *buf, size_t len)
{
	size_t at = (size_t)snprintf(buf, len, "%s", dist_kind_name(spec->kind));
	if (spec->kind == DIST_ZONED) {
		for (unsigned i = 0; i < spec->nr_zones && at < len; i++)
			at += (size_t)snprintf(buf + at, len - at, ":%u/%u", spec->zones[i].access_pct,
					       spec->zones[i].size_pct);
	} else if (spec->kind != DIST_RANDOM) {
		at += (size_t)snprintf(buf + at, len - at, ":%g", spec->value);
		if (spec->center >= 0 && at < len)
			snprintf(buf + at, len - at, ":%g", spec->center);
	}
}

/* zeta(N, theta), over at most ZIPF_MAX_TERMS terms (fio's cap: the rest
 * changes little and would cost seconds on a large device). */
static double zeta(uint64_t n, double theta)
{
	uint64_t terms = n < ZIPF_MAX_TERMS ? n : ZIPF_MAX_TERMS;
	double sum = 0;
	for (uint64_t i = 1; i <= terms; i++)
		sum += pow(1.0 / (double)i, theta);
	return sum;
}

void dist_init(struct dist_state *d, const struct dist_spec *spec, uint64_t n, struct prng *r,
	       const struct dist_state *like)
{
	memset(d, 0, sizeof(*d));
	d->spec = *spec;
	d->n = n ? n : 1;
	double theta = spec->value;
	if (spec->kind == DIST_ZIPF) {
		bool same = like && like->spec.kind == DIST_ZIPF && like->n == d->n && like->spec.value == theta;
		d->zetan = same ? like->zetan : zeta(d->n, theta);
		d->zeta2 = 1.0 + pow(0.5, theta);
		d->alpha = 1.0 / (1.0 - theta);
		d->eta = (1.0 - pow(2.0 / (double)d->n, 1.0 - theta)) / (1.0 - d->zeta2 / d->zetan);
	} else if (spec->kind == DIST_PARETO) {
		d->pareto_pow = log(theta) / log(1.0 - theta);
	} else if (spec->kind == DIST_NORMAL && spec->value > 0) {
		d->deviation = (uint64_t)ceil((double)d->n * spec->value / 100.0);
		if (d->deviation > d->n / 2)
			d->deviation = d->n / 2;
	}
	/* The ranks' shift: the center when given (for normal, from the middle),
	 * else drawn for zipf and pareto, none for normal (fio's). */
	if (spec->center >= 0)
		d->shift = spec->kind == DIST_NORMAL
				   ? (uint64_t)((double)d->n * (spec->center + 0.5))
				   : (uint64_t)((double)d->n * spec->center);
	else if (spec->kind == DIST_ZIPF || spec->kind == DIST_PARETO)
		d->shift = prng_below(r, d->n);
	unsigned at = 0;
	for (unsigned z = 0; z < spec->nr_zones; z++)
		for (unsigned k = 0; k < spec->zones[z].access_pct && at < 100; k++)
			d->zone_of[at++] = (uint8_t)z;
}

static double uniform01(struct prng *r)
{
	return (double)(prng_next(r) >> 11) * 0x1.0p-53;
}

/* Gray et al.: the two most popular ranks exactly, the rest by the closed form. */
static uint64_t zipf_rank(const struct dist_state *d, double u)
{
	double z = u * d->zetan;
	if (z < 1.0)
		return 0;
	if (z < d->zeta2)
		return 1;
	double v = (double)d->n * pow(d->eta * u - d->eta + 1.0, d->alpha);
	return v >= (double)d->n ? d->n - 1 : (uint64_t)v;
}

static uint64_t normal_rank(const struct dist_state *d, struct prng *r)
{
	uint64_t sum = 0;
	for (int i = 0; i < NORMAL_DRAWS; i++)
		sum += prng_below(r, d->n + 1);
	sum = (sum + NORMAL_DRAWS - 1) / NORMAL_DRAWS;
	if (d->deviation) {
		/* A uniform deviation of the given width about the mean, halved
		 * until it stays inside the area. */
		int64_t dev = (int64_t)prng_below(r, d->deviation) - (int64_t)(d->deviation / 2);
		while (dev && ((int64_t)sum + dev < 0 || (uint64_t)((int64_t)sum + dev) >= d->n))
			dev /= 2;
		sum = (uint64_t)((int64_t)sum + dev);
	}
	return sum < d->n ? sum : d->n - 1;
}

static uint64_t zoned_range(const struct dist_state *d, struct prng *r)
{
	unsigned z = d->zone_of[prng_below(r, 100)], start = 0;
	for (unsigned i = 0; i < z; i++)
		start += d->spec.zones[i].size_pct;
	uint64_t first = d->n * start / 100, width = d->n * d->spec.zones[z].size_pct / 100;
	return first + (width ? prng_below(r, width) : 0);
}

uint64_t dist_next(const struct dist_state *d, struct prng *r)
{
	uint64_t rank;
	switch (d->spec.kind) {
	case DIST_ZIPF:
		rank = zipf_rank(d, uniform01(r));
		break;
	case DIST_PARETO:
		rank = (uint64_t)((double)(d->n - 1) * pow(uniform01(r), d->pareto_pow));
		break;
	case DIST_NORMAL:
		rank = normal_rank(d, r);
		break;
	case DIST_ZONED:
		return zoned_range(d, r);
	default:
		return prng_below(r, d->n);
	}
	return (rank * SCATTER_MULTIPLIER + d->shift) % d->n;
}
