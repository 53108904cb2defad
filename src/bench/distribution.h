/* bench/distribution.h: fio's random_distribution, the shape of random
 * offsets (pure: text in, block numbers out).
 *
 * A worker's area is N ranges of the smallest block size; each random I/O
 * draws one. fio's models, by fio's methods:
 *   random        uniform (the default; the random map applies)
 *   zipf:THETA    Zipf's law by Gray et al.'s approximation ("Quickly
 *                 generating billion-record synthetic databases", 1994), with
 *                 zeta(N) summed over at most 10 million terms, as fio does
 *   pareto:H      the rank (N - 1) * u^(log H / log(1 - H))
 *   normal:DEV    the mean of 12 uniform draws over [0, N] (nearly normal,
 *                 sd N/12), plus a uniform deviation of DEV percent of N
 *                 (fio's gauss)
 *   zoned:A/S:... A percent of the I/Os in the next S percent of the area,
 *                 uniform within each zone
 * For zipf, pareto and normal the drawn rank is hashed and taken modulo N,
 * as fio does, so the hot blocks lie scattered over the area (and some
 * ranks share a block, as in fio: the share of I/Os on the hottest blocks,
 * the shape that matters to a cache, is fio's). An optional second number
 * (zipf:1.2:0.25) moves the hashed ranks by that fraction of the area, fio's
 * center. Without a value zipf is 1.1, pareto 0.2 and normal 0, fio's
 * defaults. fio turns its random map off with any model but random, and so
 * does iotriage (fiojob.c). */
#ifndef IOTRIAGE_BENCH_DISTRIBUTION_H
#define IOTRIAGE_BENCH_DISTRIBUTION_H

#include <stddef.h>
#include <stdint.h>

#include "bench/pattern.h"

#define DIST_MAX_ZONES 64

enum dist_kind { DIST_RANDOM, DIST_ZIPF, DIST_PARETO, DIST_NORMAL, DIST_ZONED };

struct dist_spec {
	enum dist_kind kind;
	double value;            /* zipf's theta, pareto's h, normal's deviation (percent) */
	double center;           /* 0..1, or -1: none given */
	unsigned nr_zones;
	struct dist_zone {
		unsigned access_pct, size_pct;
	} zones[DIST_MAX_ZONES];
};

#define DIST_SPEC_INIT { .kind = DIST_RANDOM, .center = -1 }

/* Reads fio's value ("zipf:1.2", "normal:5:0.5", "zoned:60/10:40/90",
 * "random"). Returns 0; -EINVAL with WHY for a value fio refuses too (a
 * theta of 1, h outside (0, 1), percentages that do not add up to 100, ...);
 * -ENOTSUP with WHY for one of fio's that is not run natively (zoned_abs,
 * separate read and write models). */
int dist_parse(const char *text, struct dist_spec *out, char *why, size_t len);

/* The value as fio writes it ("zipf:1.2"), for the document. */
void dist_format(const struct dist_spec *spec, char *buf, size_t len);
const char *dist_kind_name(enum dist_kind kind);

struct dist_state {
	struct dist_spec spec;
	uint64_t n;
	double zetan, zeta2, eta, alpha; /* zipf */
	double pareto_pow;
	uint64_t deviation;      /* normal: the deviation's width in ranges */
	uint64_t shift;          /* added to the hashed rank (center, or drawn) */
	uint8_t zone_of[100];    /* zoned: the zone of each percent of the I/Os */
};

/* Ready to draw from N ranges (N >= 1) with SPEC, the shift and hash key
 * drawn from R. LIKE, when not NULL, is a state of the same model and N
 * whose zeta sum is taken instead of summed again (one per job, not per
 * worker). */
void dist_init(struct dist_state *d, const struct dist_spec *spec, uint64_t n, struct prng *r,
	       const struct dist_state *like);

/* The next range, 0 to N - 1. */
uint64_t dist_next(const struct dist_state *d, struct prng *r);

#endif
