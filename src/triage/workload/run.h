/* triage/workload/run.h: the run command's workload: one fio-like job on a file or
 * block device with the built-in engine. Writes to a block device pass the
 * raw-device write guard (disk/inuse.h) first: refused while the device is
 * mounted, swapped on, held or opened O_EXCL, or while it carries a
 * signature unless --force names the same device again. Logs the start and
 * the end; prints nothing. */
#ifndef IOTRIAGE_TRIAGE_RUN_H
#define IOTRIAGE_TRIAGE_RUN_H

#include <stdbool.h>
#include <stddef.h>

#include "bench/job.h"
#include "disk/inuse.h"
#include "output/json.h"

struct run_settings {
	struct job_spec spec;
	const char *rw;
	const char *engine;
	bool direct;
	bool size_given;
	unsigned mix;            /* --rwmixread */
	const char *force;       /* --force: the device named a second time */
	const char *random_map;  /* "uniform" or "once" (run_random_maps) */
	struct inuse_report guard; /* holds the O_EXCL claim on a device being written */
	/* fio's nrfiles: the job's NR_FILES regular files (spec.nr_files),
	 * each created and laid out to spec.size / NR_FILES; the first is the
	 * PATH run_workload is given. NULL: PATH alone. */
	const char *const *file_paths;
};

/* The --rw modes' names, NULL-terminated: the option's choices. */
extern const char *const run_rw_choices[];
/* The --rw mode NAME as it is spelled in the table (read, write, randread,
 * randwrite, rw, readwrite, randrw), or NULL when unknown. */
const char *run_rw_find(const char *name);
/* The --random-map choices, NULL-terminated. */
extern const char *const run_random_maps[];
/* Sets spec.random and spec.read_pct from s->rw (and s->mix for the mixes),
 * and spec.random_map from s->random_map. */
void run_apply_rw(struct run_settings *s);

/* Runs S on PATH: opens it (creating and laying out a file when --size is
 * given; the guard for device writes), validates, picks the engine (its
 * reason in ENGINE_REASON), runs. Returns 0 with *RET (malloc'd; also set
 * for an I/O error, which returns -EIO), or -errno with ERR; logs the
 * outcome. */
int run_workload(const char *path, struct run_settings *s, struct job_result **ret, char *err, size_t errlen,
		 char *engine_reason, size_t reason_len);

/* The document's "parameters" object, and its "result" object for R. */
void run_json_parameters(struct json *j, const struct run_settings *s, const char *path);
void run_json_result(struct json *j, const struct job_result *r, const char *engine_reason, bool direct);

/* Whether A and B are the same block device (by device number). */
bool run_same_device(const char *a, const char *b);

/* The raw-device write guard, for every writer of a block device (run, a
 * job file's jobs, fio's hand-off): refuses PATH when it is in use
 * (mounted, swapped on, held, opened O_EXCL) and when it holds data
 * (a signature) unless FORCE names it again; logs an override under TAG.
 * On success GUARD holds the device O_EXCL until inuse_report_release().
 * Returns 0, -EBUSY, -EEXIST or another -errno, with ERR set. */
int run_guard_device_write(const char *path, const char *force, struct inuse_report *guard, const char *tag,
			   char *err, size_t errlen);

#endif
