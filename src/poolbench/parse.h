/* poolbench/parse.h: the engines' output, read (pure functions, tested on
 * captured output in tests/data). */
#ifndef IOTRIAGE_POOLBENCH_PARSE_H
#define IOTRIAGE_POOLBENCH_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "basic/jsonread.h"
#include "bench/histogram.h"
#include "bench/job.h"

struct fio_direction {
	uint64_t bytes;
	double bw_bytes_per_s;
	double iops;
	double runtime_s;      /* the longest job's */
};

struct fio_summary {
	char version[32];
	unsigned jobs;
	int error;             /* the first job's non-zero error, else 0 */
	struct fio_direction read, write;
};

/* fio --output-format=json: sums every job's read and write. Tolerates
 * text before the document (fio's warnings go to stdout too) and fio 2.x's
 * schema (no bw_bytes: bw and io_bytes in KiB). Returns 0 with *RET_DOC
 * (free with jv_free; may be NULL to not keep it), or -EINVAL with ERR. */
int fio_parse(const char *text, size_t len, struct fio_summary *ret, struct jv **ret_doc, char *err,
	      size_t errlen);

/* One of fio's latency objects of a job's direction DIR (KEY "clat_ns",
 * "slat_ns" or "lat_ns": N, min, max, mean, stddev and its percentile list)
 * as iotriage's summary. False when fio gave none (no object, no
 * percentiles, or no I/O counted: fio's psync has no submission latency). */
bool fio_latency(const struct jv *dir, const char *key, struct hist_summary *ret);

/* One job of fio's --output-format=json+ document (an element of "jobs") as
 * iotriage's result, labelled ENGINE: bytes, I/Os and runtime per direction
 * (the longer one is the job's), latency from the histogram json+ gives
 * (lat_ns's bins when fio recorded them, lat_percentiles=1, else clat_ns's),
 * fio's error as JOB_STOP_ERROR, and JOB_STOP_TIME when the job's own
 * options have time_based. RET is zeroed first; no samples; one worker, with
 * fio's CPU time (usr_cpu, sys_cpu) and context switches. Returns 0, or
 * -EINVAL when JOB is not a job object. */
int fio_job_result(const struct jv *job, const struct engine_ops *engine, struct job_result *ret);

/* dd's closing line, "1073741824 bytes (1.1 GB, 1.0 GiB) copied, 5.32 s, 202 MB/s"
 * (the last one in TEXT). Returns 0 or -EINVAL. */
int dd_parse_summary(const char *text, uint64_t *ret_bytes, double *ret_seconds);

/* elbencho's result table: for OPERATION ("WRITE", "READ"), the
 * "Throughput MiB/s" row's first-done and last-done values, in bytes/s.
 * Returns 0 or -ENOENT. */
int elbencho_parse_throughput(const char *text, const char *operation, double *ret_first_done,
			      double *ret_last_done);

#endif
