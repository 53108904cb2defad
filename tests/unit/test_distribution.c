/* test_distribution.c: bench/distribution.c, fio's random_distribution. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/distribution.h"
#include "tap.h"

static char why[256];

static void parses(const char *text, enum dist_kind kind, double value, const char *formatted)
{
	struct dist_spec s;
	char name[160], buf[200];
	int r = dist_parse(text, &s, why, sizeof(why));
	dist_format(&s, buf, sizeof(buf));
	snprintf(name, sizeof(name), "'%s' reads as %s", text, formatted);
	if (!ok(r == 0 && s.kind == kind && (kind == DIST_ZONED || s.value == value) && strcmp(buf, formatted) == 0,
		name))
		printf("#   r=%d why='%s' kind=%d value=%g formatted='%s'\n", r, why, s.kind, s.value, buf);
}

static void refused(const char *text, int err, const char *want)
{
	struct dist_spec s;
	char name[160];
	why[0] = '\0';
	int r = dist_parse(text, &s, why, sizeof(why));
	snprintf(name, sizeof(name), "'%s' %s: %s", text, err == -EINVAL ? "refused" : "is fio's", want);
	if (!ok(r == err && strstr(why, want), name))
		printf("#   r=%d why='%s'\n", r, why);
}

static void test_parse(void)
{
	parses("random", DIST_RANDOM, 0, "random");
	parses("zipf:1.2", DIST_ZIPF, 1.2, "zipf:1.2");
	parses("zipf", DIST_ZIPF, 1.1, "zipf:1.1");
	parses("zipf:0.8:0.25", DIST_ZIPF, 0.8, "zipf:0.8:0.25");
	parses("pareto", DIST_PARETO, 0.2, "pareto:0.2");
	parses("pareto:0.9", DIST_PARETO, 0.9, "pareto:0.9");
	parses("normal", DIST_NORMAL, 0, "normal:0");
	parses("normal:10", DIST_NORMAL, 10, "normal:10");
	parses("zoned:60/10:30/20:8/30:2/40", DIST_ZONED, 0, "zoned:60/10:30/20:8/30:2/40");
	parses("zoned:100/50", DIST_ZONED, 0, "zoned:100/50");
	refused("zipf:1", -EINVAL, "differ from 1");
	refused("zipf:x", -EINVAL, "expected a number");
	refused("pareto:1.5", -EINVAL, "between 0 and 1");
	refused("normal:100", -EINVAL, "under 100");
	refused("zipf:1.2:2", -EINVAL, "center");
	refused("gauss:10", -EINVAL, "expected random, zipf, pareto, normal, zoned");
	refused("random:3", -EINVAL, "no value");
	refused("zoned:60/10:30/20", -EINVAL, "add up to 100");
	refused("zoned:60/80:40/80", -EINVAL, "add up to 100");
	refused("zoned:60/x:40/10", -EINVAL, "ACCESS/SIZE");
	refused("zoned_abs:60/10m:40/1g", -ENOTSUP, "zoned_abs");
	parses("zoned:50/5:30/15:20/", DIST_ZONED, 0, "zoned:50/5:30/15:20/80");
	parses("zoned:60/:40/", DIST_ZONED, 0, "zoned:60/50:40/50");
	parses("zoned:100/", DIST_ZONED, 0, "zoned:100/100");
	refused("zoned:100/10:/20", -EINVAL, "ACCESS/SIZE");
	refused("zoned:/50", -EINVAL, "ACCESS/SIZE");
	refused("zipf:1.2,zipf:0.8", -ENOTSUP, "separate read and write");
	refused("zipf:0", -ENOTSUP, "0 or less");
}

static int cmp_desc(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
	return x < y ? 1 : x > y ? -1 : 0;
}

/* The share of DRAWS draws that land on the hottest tenth of N ranges,
 * averaged over 5 seeds; every draw must be inside the area. */
static double top_tenth(const char *text, uint64_t n, unsigned draws, bool *inside)
{
	struct dist_spec s;
	struct dist_state d;
	unsigned *hits = calloc(n, sizeof(*hits));
	double share = 0;
	*inside = true;
	dist_parse(text, &s, why, sizeof(why));
	for (uint64_t seed = 1; seed <= 5; seed++) {
		struct prng r;
		prng_seed(&r, seed);
		memset(hits, 0, n * sizeof(*hits));
		dist_init(&d, &s, n, &r, NULL);
		for (unsigned i = 0; i < draws; i++) {
			uint64_t b = dist_next(&d, &r);
			if (b >= n) {
				*inside = false;
				continue;
			}
			hits[b]++;
		}
		qsort(hits, n, sizeof(*hits), cmp_desc);
		unsigned sum = 0;
		for (uint64_t i = 0; i < n / 10; i++)
			sum += hits[i];
		share += (double)sum / draws / 5;
	}
	free(hits);
	return share;
}

/* fio 3.33's figures: randread, bs=4k, size=32m (8192 ranges, 8192 I/Os),
 * write_iolog, the share of I/Os on the hottest 10% of blocks, the mean of 5
 * runs with randrepeat=0 (runs differ by under 0.01). bench/fiojob_vs_fio.sh
 * measures both tools again on a device. */
static void test_shape_against_fio(void)
{
	static const struct {
		const char *dist;
		double fio_share;
	} cases[] = {
		{ "zipf:1.2", 0.943 }, { "zipf", 0.884 },    { "zipf:0.8", 0.628 },
		{ "pareto:0.9", 0.918 }, { "pareto", 0.788 }, { "normal:10", 0.538 },
		{ "normal", 0.556 },   { "zoned:60/10:30/20:8/30:2/40", 0.627 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		bool inside;
		double share = top_tenth(cases[i].dist, 8192, 8192, &inside);
		char name[160];
		snprintf(name, sizeof(name), "%s: the hottest 10%% take %.3f of the I/Os, fio's %.3f (+-0.02)",
			 cases[i].dist, share, cases[i].fio_share);
		ok(share > cases[i].fio_share - 0.02 && share < cases[i].fio_share + 0.02, name);
		snprintf(name, sizeof(name), "%s: every draw is inside the area", cases[i].dist);
		ok(inside, name);
	}
}

/* Areas that are not a power of two, a single range, and a huge one. */
static void test_odd_areas(void)
{
	bool inside;
	top_tenth("zipf:1.2", 7680, 7680, &inside);
	ok(inside, "zipf on 7680 ranges stays inside");
	top_tenth("normal:40", 1001, 5000, &inside);
	ok(inside, "normal:40 on 1001 ranges stays inside");
	top_tenth("zoned:50/33:50/67", 97, 5000, &inside);
	ok(inside, "zoned on 97 ranges stays inside");
	const char *all[] = { "zipf:1.2", "pareto:0.5", "normal:99", "zoned:100/100" };
	for (size_t i = 0; i < 4; i++) {
		struct dist_spec s;
		struct dist_state d;
		struct prng r;
		prng_seed(&r, 7);
		dist_parse(all[i], &s, why, sizeof(why));
		dist_init(&d, &s, 1, &r, NULL);
		bool zero = true;
		for (int k = 0; k < 1000; k++)
			zero = zero && dist_next(&d, &r) == 0;
		char name[100];
		snprintf(name, sizeof(name), "%s on one range draws range 0", all[i]);
		ok(zero, name);
	}
	struct dist_spec s;
	struct dist_state d, like;
	struct prng r;
	prng_seed(&r, 3);
	dist_parse("zipf:1.2", &s, why, sizeof(why));
	dist_init(&like, &s, 1ULL << 40, &r, NULL);
	dist_init(&d, &s, 1ULL << 40, &r, &like);
	ok(d.zetan == like.zetan && d.zetan > 1, "a second worker takes the first's zeta sum");
	bool big = true;
	for (int k = 0; k < 10000; k++)
		big = big && dist_next(&d, &r) < (1ULL << 40);
	ok(big, "zipf on 2^40 ranges stays inside");
}

/* zoned puts each zone's share of the I/Os in its part of the area. */
static void test_zones(void)
{
	struct dist_spec s;
	struct dist_state d;
	struct prng r;
	prng_seed(&r, 11);
	dist_parse("zoned:60/10:30/20:10/70", &s, why, sizeof(why));
	dist_init(&d, &s, 1000, &r, NULL);
	unsigned in[3] = { 0, 0, 0 };
	for (int k = 0; k < 100000; k++) {
		uint64_t b = dist_next(&d, &r);
		in[b < 100 ? 0 : b < 300 ? 1 : 2]++;
	}
	ok(in[0] > 59000 && in[0] < 61000, "zoned: 60% of the I/Os in the first 10%");
	ok(in[1] > 29000 && in[1] < 31000, "zoned: 30% in the next 20%");
	ok(in[2] > 9000 && in[2] < 11000, "zoned: 10% in the last 70%");
}

int main(void)
{
	test_parse();
	test_shape_against_fio();
	test_odd_areas();
	test_zones();
	return tap_done();
}
