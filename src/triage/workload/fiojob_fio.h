/* triage/workload/fiojob_fio.h: a fio job file that iotriage does not run natively
 * (bench/fiojob.h: fio_reason), handed to fio itself:
 * `fio --output-format=json+ FILE`, FILE being the job file as fio is to
 * read it (includes inlined, ${VAR} resolved) with TARGET in place of the
 * files it names. Writes to a block device pass the same raw-device write
 * guard as a native run first (refused while the device is mounted, swapped
 * on, held or opened O_EXCL, or while it carries a signature unless FORCE
 * names it again; the O_EXCL claim is held while fio runs). fio's figures
 * come back per job as iotriage's results, engine "fio"
 * (poolbench/parse.h: fio_job_result). Logs; prints nothing.
 */
#ifndef IOTRIAGE_TRIAGE_FIOJOB_FIO_H
#define IOTRIAGE_TRIAGE_FIOJOB_FIO_H

#include <stddef.h>

#include "bench/fiojob.h"
#include "bench/job.h"

struct fiojob_fio {
	char version[32];                        /* "fio-3.33" */
	size_t njobs;                            /* the jobs fio reported */
	struct fiojob jobs[FIOJOB_MAX_JOBS];     /* each one's name and options as fio reported them */
	struct job_result *results[FIOJOB_MAX_JOBS];
	char error[FIOJOB_MAX_JOBS][256];
};

/* Whether fio is installed: 0 with its version, or -ENOENT. */
int fiojob_fio_version(char *version, size_t len);

/* fio --parse-only on F's copy for TARGET: 0 when fio accepts it, -EINVAL
 * with ERR holding fio's first complaint, or another -errno. */
int fiojob_fio_check(const struct fiojob_file *f, const char *target, char *err, size_t errlen);

/* Runs F through fio on TARGET (NULL: the files it names). Returns 0 when
 * fio ran and every job is in RET (a job's own error in RET->error), -EINTR
 * when interrupted, or another -errno with ERR (a guard's refusal, fio's
 * failure, its output unreadable). */
int fiojob_fio_run(const struct fiojob_file *f, const char *target, const char *force, struct fiojob_fio *ret,
		   char *err, size_t errlen);

void fiojob_fio_release(struct fiojob_fio *r);

#endif
