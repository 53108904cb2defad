/* render/run.h: run's result on the terminal, fio-style: per direction
 * IOPS, bandwidth and latency (completion, and submission where the engine
 * separates it), the jobs, the CPU time and the random map. */
#ifndef IOTRIAGE_RENDER_RUN_H
#define IOTRIAGE_RENDER_RUN_H

#include "bench/job.h"
#include "triage/workload/fiojob_run.h"

/* RES's figures, to stdout. */
void run_result_print(const struct job_result *res);

/* --parse-only: how each job of a fio job file would run, a line each. */
void run_fio_job_plan_print(const struct fiojob_outcome *o);

#endif
