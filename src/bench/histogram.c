#include "bench/histogram.h"

#include <math.h>
#include <string.h>

void hist_init(struct histogram *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

void hist_merge(struct histogram *into, const struct histogram *from)
{
	if (!from->count)
		return;
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		into->buckets[i] += from->buckets[i];
	into->count += from->count;
	into->sum += from->sum;
	if (from->min < into->min)
		into->min = from->min;
	if (from->max > into->max)
		into->max = from->max;
}

void hist_bucket_range(unsigned b, uint64_t *ret_lo, uint64_t *ret_hi)
{
	if (b < (1u << HIST_SUB_BITS)) {
		*ret_lo = *ret_hi = b;
		return;
	}
	unsigned shift = (b >> HIST_SUB_BITS) - 1;
	uint64_t mantissa = (b & ((1u << HIST_SUB_BITS) - 1)) | (1u << HIST_SUB_BITS);
	*ret_lo = mantissa << shift;
	*ret_hi = ((mantissa + 1) << shift) - 1;
}

uint64_t hist_percentile(const struct histogram *h, double p)
{
	if (!h->count)
		return 0;
	if (p >= 100.0)
		return h->max;
	uint64_t rank = (uint64_t)ceil(p / 100.0 * (double)h->count);
	if (rank < 1)
		rank = 1;
	uint64_t seen = 0;
	for (unsigned b = 0; b < HIST_BUCKETS; b++) {
		seen += h->buckets[b];
		if (seen < rank)
			continue;
		uint64_t lo, hi;
		hist_bucket_range(b, &lo, &hi);
		uint64_t mid = lo + (hi - lo) / 2;
		if (mid < h->min)
			mid = h->min;
		if (mid > h->max)
			mid = h->max;
		return mid;
	}
	return h->max;
}

double hist_mean(const struct histogram *h)
{
	return h->count ? (double)h->sum / (double)h->count : 0.0;
}

double hist_stddev(const struct histogram *h)
{
	if (h->count < 2)
		return 0.0;
	double mean = hist_mean(h), sq = 0;
	for (unsigned b = 0; b < HIST_BUCKETS; b++) {
		if (!h->buckets[b])
			continue;
		uint64_t lo, hi;
		hist_bucket_range(b, &lo, &hi);
		double d = (double)lo + (double)(hi - lo) / 2 - mean;
		sq += d * d * (double)h->buckets[b];
	}
	return sqrt(sq / (double)(h->count - 1));
}

void hist_summarize(const struct histogram *h, struct hist_summary *ret)
{
	*ret = (struct hist_summary){
		.count = h->count,
		.min = h->count ? h->min : 0,
		.max = h->count ? h->max : 0,
		.mean = hist_mean(h),
		.stdev = hist_stddev(h),
		.p50 = hist_percentile(h, 50),
		.p90 = hist_percentile(h, 90),
		.p99 = hist_percentile(h, 99),
		.p999 = hist_percentile(h, 99.9),
		.p9999 = hist_percentile(h, 99.99),
	};
}
