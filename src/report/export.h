/* report/export.h: measurements as CSV (csv.c) and as Prometheus text
 * format for node_exporter's textfile collector (prom.c).
 *
 * CSV (RFC 4180: a header line, then one row per measurement, fields with
 * a comma, quote or line break quoted, quotes doubled), columns:
 *   run_id, command, started_at, host (a fleet host's run: the fleet's name
 *   for it), test, metric, unit, higher_is_better,
 *   target, value, noise_stddev, noise_samples, status, reason, parameters
 *
 * Prometheus (text format 0.0.4): per family a # HELP and # TYPE gauge line,
 * then one sample per measured value, labelled run_id, command, host (the
 * run's host; a fleet host's run: the fleet's name for it), test, target; label values escaped (\\, \", \n):
 *   iotriage_bandwidth_bytes_per_second, iotriage_latency_p99_seconds,
 *   iotriage_latency_max_seconds, iotriage_run_start_timestamp_seconds.
 * Values that were not measured are left out (no NaN samples).
 */
#ifndef IOTRIAGE_REPORT_EXPORT_H
#define IOTRIAGE_REPORT_EXPORT_H

#include <stddef.h>

#include "basic/strbuf.h"
#include "report/measure.h"

void report_csv(const struct run_doc *runs, size_t n, struct strbuf *out);
void report_prom(const struct run_doc *runs, size_t n, struct strbuf *out);

#endif
