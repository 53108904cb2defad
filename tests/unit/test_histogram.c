/* test_histogram.c: unit tests for bench/histogram.c (log-linear latency histogram). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/histogram.h"
#include "tap.h"

/* True when bucket hist_bucket_of(v) is in range and its [lo, hi] holds v. */
static int maps_into_range(uint64_t v, unsigned *ret_b, uint64_t *ret_lo, uint64_t *ret_hi)
{
	unsigned b = hist_bucket_of(v);
	uint64_t lo = 1, hi = 0;

	*ret_b = b;
	if (b >= HIST_BUCKETS)
		return 0;
	hist_bucket_range(b, &lo, &hi);
	*ret_lo = lo;
	*ret_hi = hi;
	return lo <= v && v <= hi;
}

static void check_value(uint64_t v)
{
	char name[128];
	unsigned b = 0;
	uint64_t lo = 0, hi = 0;

	snprintf(name, sizeof(name), "value %llu lies in the range of its bucket",
		 (unsigned long long)v);
	if (!ok(maps_into_range(v, &b, &lo, &hi), name))
		printf("#   bucket %u, range [%llu, %llu]\n", b, (unsigned long long)lo,
		       (unsigned long long)hi);
}

static void test_bucket_mapping(void)
{
	static const uint64_t named[] = {
		0, 1, 2, 62, 63, 64, 65, 66, 126, 127, 128, 129, 130, 255, 256, 257,
		1000, 1023, 1024, 1025, 1000000, 1000000000ULL, 1ULL << 32, (1ULL << 32) - 1,
		1ULL << 62, (1ULL << 63) - 1, 1ULL << 63, UINT64_MAX - 1, UINT64_MAX,
	};

	for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++)
		check_value(named[i]);

	/* Exact buckets below 64 ns. */
	int exact = 1;
	for (uint64_t v = 0; v < 64; v++) {
		uint64_t lo, hi;
		hist_bucket_range(hist_bucket_of(v), &lo, &hi);
		if (hist_bucket_of(v) != v || lo != v || hi != v)
			exact = 0;
	}
	ok(exact, "values 0..63 each have their own one-value bucket");
	is_int(hist_bucket_of(64), 64, "64 lands in bucket 64");
	is_int(hist_bucket_of(UINT64_MAX), HIST_BUCKETS - 1, "UINT64_MAX lands in the last bucket");

	/* Every magnitude: powers of two, their neighbours, and powers of ten. */
	int all_in = 1, monotonic = 1;
	unsigned prev_b = 0;
	for (unsigned shift = 0; shift < 64; shift++) {
		uint64_t p = 1ULL << shift;
		uint64_t vs[] = { p - 1, p, p + 1, p + p / 3, p + p / 2, p | (p - 1) };
		for (size_t i = 0; i < sizeof(vs) / sizeof(vs[0]); i++) {
			unsigned b;
			uint64_t lo, hi;
			if (!maps_into_range(vs[i], &b, &lo, &hi)) {
				if (all_in)
					printf("#   first failure: v=%llu bucket %u [%llu, %llu]\n",
					       (unsigned long long)vs[i], b, (unsigned long long)lo,
					       (unsigned long long)hi);
				all_in = 0;
			}
		}
	}
	uint64_t ten = 1;
	for (int i = 0; i <= 19; i++, ten *= 10) {
		unsigned b;
		uint64_t lo, hi;
		if (!maps_into_range(ten, &b, &lo, &hi) || !maps_into_range(ten - 1, &b, &lo, &hi) ||
		    !maps_into_range(ten + 1, &b, &lo, &hi))
			all_in = 0;
	}
	/* Pseudo-random values of every bit length (xorshift, fixed seed). */
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	for (int i = 0; i < 200000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		uint64_t v = x >> (i % 64);
		unsigned b;
		uint64_t lo, hi;
		if (!maps_into_range(v, &b, &lo, &hi))
			all_in = 0;
	}
	ok(all_in, "values of every magnitude lie in the range of their bucket");

	/* A dense sweep: buckets never decrease as the value grows. */
	for (uint64_t v = 0; v < 1u << 20; v++) {
		unsigned b = hist_bucket_of(v);
		if (v && b < prev_b)
			monotonic = 0;
		prev_b = b;
	}
	ok(monotonic, "bucket index is monotonic in the value (0..2^20)");
}

static void test_bucket_ranges(void)
{
	/* The buckets tile [0, UINT64_MAX] without gaps or overlap, each maps back
	 * to itself at both ends, and above 64 each is at most 1/64 of its lowest
	 * value wide. */
	int tiled = 1, self = 1, narrow = 1;
	uint64_t next = 0;

	for (unsigned b = 0; b < HIST_BUCKETS; b++) {
		uint64_t lo, hi;
		hist_bucket_range(b, &lo, &hi);
		if (lo != next || hi < lo) {
			if (tiled)
				printf("#   bucket %u: [%llu, %llu], expected lo %llu\n", b,
				       (unsigned long long)lo, (unsigned long long)hi,
				       (unsigned long long)next);
			tiled = 0;
		}
		if (hist_bucket_of(lo) != b || hist_bucket_of(hi) != b)
			self = 0;
		if (lo >= 64) {
			/* width / lo <= 1/64, i.e. width * 64 <= lo, without overflow */
			uint64_t width = hi - lo + 1;
			if (width > lo / 64)
				narrow = 0;
		}
		next = hi + 1;
	}
	ok(tiled, "bucket ranges tile 0..UINT64_MAX contiguously");
	is_int(next, 0, "the last bucket ends at UINT64_MAX");
	ok(self, "both ends of each bucket's range map back to that bucket");
	ok(narrow, "relative bucket width <= 1/64 above 64");

	uint64_t lo, hi;
	hist_bucket_range(hist_bucket_of(128), &lo, &hi);
	ok(lo == 128 && hi == 129, "bucket of 128 is [128, 129]");
	hist_bucket_range(hist_bucket_of(1000000), &lo, &hi);
	ok(lo <= 1000000 && hi >= 1000000 && hi - lo + 1 == 8192,
	   "bucket of 1e6 is 8192 wide (2^19..2^20 in 64 steps)");
}

static int within(uint64_t got, double want, double rel)
{
	return fabs((double)got - want) <= want * rel;
}

static void test_percentiles(void)
{
	struct histogram *h = malloc(sizeof(*h));
	if (!h)
		abort();

	hist_init(h);
	is_int(h->count, 0, "init: count 0");
	is_int(hist_percentile(h, 50), 0, "empty histogram: p50 is 0");
	is_int(hist_percentile(h, 99.9), 0, "empty histogram: p99.9 is 0");
	is_int(hist_percentile(h, 100), 0, "empty histogram: p100 is 0");
	ok(hist_mean(h) == 0.0, "empty histogram: mean is 0");

	for (uint64_t v = 1; v <= 100000; v++)
		hist_record(h, v);

	is_int(h->count, 100000, "count after recording 1..100000");
	is_int(h->min, 1, "min exact");
	is_int(h->max, 100000, "max exact");
	is_int(hist_percentile(h, 100), 100000, "p100 is the exact max");
	ok(hist_mean(h) == 50000.5, "mean is exactly 50000.5");

	uint64_t p50 = hist_percentile(h, 50);
	uint64_t p90 = hist_percentile(h, 90);
	uint64_t p99 = hist_percentile(h, 99);
	uint64_t p999 = hist_percentile(h, 99.9);
	uint64_t p1 = hist_percentile(h, 1);
	uint64_t plow = hist_percentile(h, 0.0001);
	if (!ok(within(p50, 50000, 0.016), "p50 within 1.6% of 50000"))
		printf("#   got %llu\n", (unsigned long long)p50);
	if (!ok(within(p90, 90000, 0.016), "p90 within 1.6% of 90000"))
		printf("#   got %llu\n", (unsigned long long)p90);
	if (!ok(within(p99, 99000, 0.016), "p99 within 1.6% of 99000"))
		printf("#   got %llu\n", (unsigned long long)p99);
	if (!ok(within(p999, 99900, 0.016), "p99.9 within 1.6% of 99900"))
		printf("#   got %llu\n", (unsigned long long)p999);
	if (!ok(within(p1, 1000, 0.016), "p1 within 1.6% of 1000"))
		printf("#   got %llu\n", (unsigned long long)p1);
	is_int(plow, 1, "lowest percentile is the exact min (exact buckets below 64)");
	ok(p50 <= p90 && p90 <= p99 && p99 <= p999 && p999 <= 100000,
	   "percentiles are non-decreasing and at most max");

	/* A single value: every percentile is that value, clamped to min/max. */
	hist_init(h);
	hist_record(h, 123456789);
	is_int(hist_percentile(h, 0.1), 123456789, "single value: p0.1 is the value");
	is_int(hist_percentile(h, 50), 123456789, "single value: p50 is the value");
	is_int(hist_percentile(h, 100), 123456789, "single value: p100 is the value");
	ok(hist_mean(h) == 123456789.0, "single value: mean is the value");

	/* Two clusters: 90% at 100 ns, 10% at 1 ms. */
	hist_init(h);
	for (int i = 0; i < 900; i++)
		hist_record(h, 100);
	for (int i = 0; i < 100; i++)
		hist_record(h, 1000000);
	ok(within(hist_percentile(h, 90), 100, 0.016), "bimodal: p90 is in the fast cluster");
	ok(within(hist_percentile(h, 90.1), 1000000, 0.016), "bimodal: p90.1 is in the slow cluster");
	ok(within(hist_percentile(h, 99), 1000000, 0.016), "bimodal: p99 is in the slow cluster");

	free(h);
}

static void test_merge(void)
{
	struct histogram *a = malloc(sizeof(*a));
	struct histogram *b = malloc(sizeof(*b));
	struct histogram *all = malloc(sizeof(*all));
	struct histogram *empty = malloc(sizeof(*empty));
	if (!a || !b || !all || !empty)
		abort();

	hist_init(a);
	hist_init(b);
	hist_init(all);
	hist_init(empty);

	uint64_t x = 12345;
	for (int i = 0; i < 50000; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		uint64_t v = (x >> 33) % 5000000 + 7;
		hist_record(i % 3 ? a : b, v);
		hist_record(all, v);
	}
	/* Distinct extremes in the second one, so min and max must come from it. */
	hist_record(b, 3);
	hist_record(all, 3);
	hist_record(b, 900000000);
	hist_record(all, 900000000);

	hist_merge(a, b);
	is_int(a->count, all->count, "merge: count");
	is_int(a->sum, all->sum, "merge: sum");
	is_int(a->min, all->min, "merge: min");
	is_int(a->max, all->max, "merge: max");
	ok(memcmp(a->buckets, all->buckets, sizeof(a->buckets)) == 0, "merge: every bucket");
	int same = 1;
	static const double ps[] = { 0.1, 1, 10, 50, 90, 99, 99.9, 99.99, 100 };
	for (size_t i = 0; i < sizeof(ps) / sizeof(ps[0]); i++)
		if (hist_percentile(a, ps[i]) != hist_percentile(all, ps[i]))
			same = 0;
	ok(same, "merge: percentiles equal recording everything in one histogram");

	/* Merging an empty histogram changes nothing (min stays). */
	hist_merge(a, empty);
	is_int(a->count, all->count, "merge of empty: count unchanged");
	is_int(a->min, 3, "merge of empty: min unchanged");
	ok(memcmp(a->buckets, all->buckets, sizeof(a->buckets)) == 0,
	   "merge of empty: buckets unchanged");

	/* Merging into an empty one copies. */
	hist_merge(empty, all);
	is_int(empty->count, all->count, "merge into empty: count");
	is_int(empty->min, 3, "merge into empty: min");
	is_int(empty->max, 900000000, "merge into empty: max");
	ok(memcmp(empty->buckets, all->buckets, sizeof(empty->buckets)) == 0,
	   "merge into empty: buckets");

	free(a);
	free(b);
	free(all);
	free(empty);
}

static void test_stddev(void)
{
	struct histogram h;
	hist_init(&h);
	ok(hist_stddev(&h) == 0, "no spread without samples");
	for (int i = 0; i < 1000; i++) {
		hist_record(&h, 100000);
		hist_record(&h, 200000);
	}
	double sd = hist_stddev(&h);
	ok(sd > 49000 && sd < 51000, "half at 100 us, half at 200 us: stdev about 50 us");
	hist_init(&h);
	for (int i = 0; i < 100; i++)
		hist_record(&h, 5000);
	ok(hist_stddev(&h) < 100, "constant latency: stdev near 0");
	hist_record(&h, 900000);
	struct hist_summary sum;
	hist_summarize(&h, &sum);
	is_int(sum.count, 101, "summary count");
	is_int(sum.max, 900000, "summary max");
	ok(sum.p50 >= 4900 && sum.p50 <= 5100, "summary p50 is the common value");
	ok(sum.p9999 >= 880000, "summary p99.99 reaches the outlier");
}

int main(void)
{
	test_stddev();
	test_bucket_mapping();
	test_bucket_ranges();
	test_percentiles();
	test_merge();
	return tap_done();
}
