/* triage/workload/fiojob_run.h: run --fio-job FILE: every job of a fio job file
 * (bench/fiojob.h) run with the built-in engine, one after another, each
 * through run_workload() (so writes to a block device pass the raw-device
 * write guard); or, when the file has an option or a value iotriage does not
 * run natively, the whole file handed to fio (triage/workload/fiojob_fio.h), its
 * figures kept as the jobs' results with engine "fio" and the reason in the
 * log. Refusals come first: the file is read and every job checked (a
 * malformed value, an unset ${VAR}, no target, a ramp over the runtime; a
 * file that needs fio with --native, without fio installed, or that fio's
 * --parse-only refuses) before anything runs. A native job's fio logs
 * (write_bw_log, ...) are written after it in fio's names and formats
 * (bench/joblog.h), in the current directory as fio's, and their series are
 * in the job's document object ("series"). Logs; prints nothing.
 */
#ifndef IOTRIAGE_TRIAGE_FIOJOB_RUN_H
#define IOTRIAGE_TRIAGE_FIOJOB_RUN_H

#include <stdbool.h>
#include <stddef.h>

#include "bench/fiojob.h"
#include "bench/joblog.h"
#include "output/json.h"
#include "triage/workload/fiojob_fio.h"
#include "triage/workload/run.h"

struct fiojob_outcome {
	const char *file;
	struct fiojob_file jobs;
	size_t ndone;                               /* jobs run (with or without an error) */
	char target[FIOJOB_MAX_JOBS][256];
	struct run_settings settings[FIOJOB_MAX_JOBS]; /* as run */
	struct job_result *results[FIOJOB_MAX_JOBS];   /* NULL when the job could not start */
	char engine_reason[FIOJOB_MAX_JOBS][160];
	char error[FIOJOB_MAX_JOBS][256];
	const char *target_arg;                     /* TARGET, or NULL */
	bool through_fio;                           /* the file is fio's to run (jobs.fio_reason) */
	char fio_version[32];
	struct fiojob_fio fio;                      /* fio's run, before its jobs become the outcome's */
	struct joblog *logs[FIOJOB_MAX_JOBS];        /* fio's logs a native job wrote (NULL: none asked) */
};

/* Reads FILE into OUT->jobs and checks every job against TARGET (NULL: each
 * job's filename= is its target). A file that needs fio is refused with
 * NATIVE, or when fio is not installed (naming the option and how to install
 * fio). Returns 0, or -errno with ERR (a usage error: nothing has run). */
int fiojob_load(const char *file, const char *target, bool native, struct fiojob_outcome *out, char *err,
		size_t errlen);

/* Runs the loaded jobs with BASE's settings that a job file does not carry
 * (pattern, pin, force, sample interval, progress). Every job runs even when
 * one before failed; returns 0 when all ran cleanly, else the first -errno
 * (its message in ERR), -EINTR when interrupted (the rest not run). */
int fiojob_run(struct fiojob_outcome *out, const struct run_settings *base, char *err, size_t errlen);

/* The document's "fio_job" object: the file, and per job its options, the
 * "parameters" and "result" a run has, and its status. */
void fiojob_json(struct json *j, const struct fiojob_outcome *o);

struct store;
/* One results row per job run ("fio-job NAME"). */
int fiojob_store(struct store *s, const char *run_id, const struct fiojob_outcome *o);

void fiojob_release(struct fiojob_outcome *o);

#endif
