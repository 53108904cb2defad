#include "output/latency.h"

void json_latency_summary(struct json *j, const char *key, const struct hist_summary *s)
{
	json_begin_object(j, key);
	json_uint(j, "count", s->count);
	json_uint(j, "min", s->min);
	json_double(j, "mean", s->mean);
	json_double(j, "stdev", s->stdev);
	json_uint(j, "p50", s->p50);
	json_uint(j, "p90", s->p90);
	json_uint(j, "p99", s->p99);
	json_uint(j, "p99.9", s->p999);
	json_uint(j, "p99.99", s->p9999);
	json_uint(j, "max", s->max);
	json_end_object(j);
}

void json_latency(struct json *j, const char *key, const struct histogram *h)
{
	struct hist_summary s;
	hist_summarize(h, &s);
	json_latency_summary(j, key, &s);
}

void json_latency_or_null(struct json *j, const char *key, const struct histogram *h)
{
	if (h)
		json_latency(j, key, h);
	else
		json_null(j, key);
}
