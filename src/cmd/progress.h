/* cmd/progress.h: the progress line on the terminal, redrawn in place and
 * erased when the work ends (or a log line is printed; the next update
 * draws it again). Two sources: bench/job.h's callback for one job ("run:
 * 1.2 GiB of 4.0 GiB, 512 MB/s, 3 s"), and basic/progress.h's struct that
 * triage/ procedures fill ("readdisks: reading /dev/sdb (disk 2 of 5), 40%,
 * 400 MiB of 1000 MiB, ETA 12 s"). Shown only when stderr is a terminal and
 * the output is not JSON. */
#ifndef IOTRIAGE_CMD_PROGRESS_H
#define IOTRIAGE_CMD_PROGRESS_H

#include <stdbool.h>

#include "basic/progress.h"
#include "bench/job.h"

void cmd_progress_line(const struct job_progress *p);

/* The callback a command passes down: the line when stderr is a terminal
 * and the output is not JSON, else NULL. */
job_progress_fn cmd_progress(bool json);

/* Makes P draw on the terminal as TASK's line (when stderr is one and the
 * output is not JSON); returns P, ready for triage/'s progress_* calls
 * either way. */
struct progress *cmd_progress_attach(struct progress *p, bool json, const char *task);

/* The line for P at NOW, as drawn (exposed for the unit test). */
void cmd_progress_format(const struct progress *p, uint64_t now, char *buf, size_t len);

#endif
