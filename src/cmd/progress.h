/* cmd/progress.h: the progress line on the terminal for a running job
 * (bench/job.h's callback): "run: 1.2 GiB of 4.0 GiB, 512 MB/s, 3 s",
 * redrawn in place about once a second, erased when the job ends. */
#ifndef IOTRIAGE_CMD_PROGRESS_H
#define IOTRIAGE_CMD_PROGRESS_H

#include <stdbool.h>

#include "bench/job.h"

void cmd_progress_line(const struct job_progress *p);

/* The callback a command passes down: the line when stderr is a terminal
 * and the output is not JSON, else NULL. */
job_progress_fn cmd_progress(bool json);

#endif
