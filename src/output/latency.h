/* output/latency.h: a latency histogram as the "lat_ns" JSON object every
 * command uses: count, min, mean, stdev, p50, p90, p99, p99.9, p99.99, max
 * (nanoseconds, completion latency: submit to completion). "slat_ns"
 * (submission latency) is the same object. */
#ifndef IOTRIAGE_OUTPUT_LATENCY_H
#define IOTRIAGE_OUTPUT_LATENCY_H

#include "bench/histogram.h"
#include "output/json.h"

void json_latency(struct json *j, const char *key, const struct histogram *h);
/* The same object, or null when H is NULL: a submission latency ("slat_ns")
 * where the engine finishes each I/O inside its submit call (psync, null). */
void json_latency_or_null(struct json *j, const char *key, const struct histogram *h);
/* The same object from a summary kept with a result. */
void json_latency_summary(struct json *j, const char *key, const struct hist_summary *s);

#endif
