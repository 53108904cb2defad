/* output/latency.h: a latency histogram as the "lat_ns" JSON object every
 * command uses: count, min, mean, p50, p90, p99, p99.9, max (nanoseconds). */
#ifndef IOTRIAGE_OUTPUT_LATENCY_H
#define IOTRIAGE_OUTPUT_LATENCY_H

#include "bench/histogram.h"
#include "output/json.h"

void json_latency(struct json *j, const char *key, const struct histogram *h);

#endif
