/* bench/histogram.h: a log-linear latency histogram (HdrHistogram's idea).
 *
 * Values below 64 ns get a bucket each; above that, every power of two is
 * split into 64 buckets, so a reported percentile is within 1.6% of the true
 * value. Recording is one branch, a count-leading-zeros and an increment;
 * the whole histogram is ~30 KiB and lives in the worker that fills it.
 * Merge the workers' histograms at the end with hist_merge().
 */
#ifndef IOTRIAGE_BENCH_HISTOGRAM_H
#define IOTRIAGE_BENCH_HISTOGRAM_H

#include <stdint.h>

#define HIST_SUB_BITS 6
#define HIST_BUCKETS ((64 - HIST_SUB_BITS + 1) << HIST_SUB_BITS)

struct histogram {
	uint64_t count;
	uint64_t min, max;
	uint64_t sum;
	uint64_t buckets[HIST_BUCKETS];
};

void hist_init(struct histogram *h);

static inline unsigned hist_bucket_of(uint64_t v)
{
	if (v < (1u << HIST_SUB_BITS))
		return (unsigned)v;
	unsigned msb = 63u - (unsigned)__builtin_clzll(v);
	unsigned shift = msb - HIST_SUB_BITS;
	return ((shift + 1) << HIST_SUB_BITS) | (unsigned)((v >> shift) & ((1u << HIST_SUB_BITS) - 1));
}

static inline void hist_record(struct histogram *h, uint64_t v)
{
	h->buckets[hist_bucket_of(v)]++;
	h->count++;
	h->sum += v;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

void hist_merge(struct histogram *into, const struct histogram *from);
/* The value at percentile P (0 < P <= 100), 0 for an empty histogram. */
uint64_t hist_percentile(const struct histogram *h, double p);
double hist_mean(const struct histogram *h);
/* The sample standard deviation, from the bucket midpoints (within the
 * buckets' 1.6%); 0 below two samples. */
double hist_stddev(const struct histogram *h);
/* A histogram's figures, small enough to keep with every result. */
struct hist_summary {
	uint64_t count, min, max;
	double mean, stdev;
	uint64_t p50, p90, p99, p999, p9999;
};

void hist_summarize(const struct histogram *h, struct hist_summary *ret);

/* Lowest and highest value that land in bucket B (for tests). */
void hist_bucket_range(unsigned b, uint64_t *ret_lo, uint64_t *ret_hi);

#endif
