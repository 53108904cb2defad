/* render/run.h: run's result on the terminal, fio-style: per direction
 * IOPS, bandwidth and latency (completion, and submission where the engine
 * separates it), the jobs, the CPU time and the random map. */
#ifndef IOTRIAGE_RENDER_RUN_H
#define IOTRIAGE_RENDER_RUN_H

#include "bench/job.h"

/* RES's figures, to stdout. */
void run_result_print(const struct job_result *res);

#endif
