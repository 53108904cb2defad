#include "output/latency.h"

void json_latency(struct json *j, const char *key, const struct histogram *h)
{
	json_begin_object(j, key);
	json_uint(j, "count", h->count);
	json_uint(j, "min", h->count ? h->min : 0);
	json_double(j, "mean", hist_mean(h));
	json_double(j, "stdev", hist_stddev(h));
	json_uint(j, "p50", hist_percentile(h, 50));
	json_uint(j, "p90", hist_percentile(h, 90));
	json_uint(j, "p99", hist_percentile(h, 99));
	json_uint(j, "p99.9", hist_percentile(h, 99.9));
	json_uint(j, "p99.99", hist_percentile(h, 99.99));
	json_uint(j, "max", h->count ? h->max : 0);
	json_end_object(j);
}
