/* render/fio_json.h: a run's results in fio's JSON schema (fio 3.x's
 * --output-format=json+), so that tools written for fio's output read them:
 * "fio version", "timestamp", "jobs" with, per job, "jobname", "job options",
 * "read", "write", "trim" (io_bytes, bw in KiB/s, bw_bytes, iops, runtime in
 * ms, total_ios, slat_ns, clat_ns with "percentile" at fio's default list
 * and json+'s "bins", lat_ns, and the per-interval bw_min ... iops_samples
 * from the run's samples of that direction, every --sample-interval where
 * fio's are every 500 ms), "sync", job_runtime, CPU and fio's latency and
 * depth tables.
 *
 * What differs, and why: iotriage measures each I/O from submission to
 * completion, which is fio's lat_ns; clat_ns carries the same figures
 * (fio's clat leaves out the submission, which psync and the other
 * synchronous engines do not separate; slat_ns is the engine's submission
 * latency where it has one). A job's workers are one job, as fio's
 * group_reporting makes them. Bins are iotriage's histogram buckets (each
 * named by its lowest value, within 1.6% as fio's are within 3%). "fio
 * version" names iotriage, so a reader can tell. */
#ifndef IOTRIAGE_RENDER_FIO_JSON_H
#define IOTRIAGE_RENDER_FIO_JSON_H

#include <stddef.h>

#include "basic/strbuf.h"
#include "bench/job.h"
#include "triage/workload/run.h"

struct fio_json_job {
	const char *name;
	const char *target;
	const struct run_settings *settings;
	const struct job_result *res; /* NULL: the job did not run (an error) */
	const char *error;            /* "" or why it failed */
};

/* The document for N jobs into OUT. */
void fio_json_render(const struct fio_json_job *jobs, size_t n, struct strbuf *out);

#endif
