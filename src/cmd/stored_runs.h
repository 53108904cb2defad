/* cmd/stored_runs.h: what history, show, compare and report share: the
 * database the global options name, opened for reading (a missing file is
 * "no runs yet", never created), and runs loaded by id or prefix
 * (triage/results/stored_runs.h) with the errors printed as "iotriage COMMAND: ...". */
#ifndef IOTRIAGE_CMD_STORED_RUNS_H
#define IOTRIAGE_CMD_STORED_RUNS_H

#include <stddef.h>

#include "cmd/options.h"
#include "report/measure.h"
#include "store/store.h"
#include "triage/results/stored_runs.h"

/* Opens the database the global options name. Returns 0, 1 when there is
 * no database yet (said by the caller, if at all), or -1 after an error. */
int stored_open(const char *command, const struct global_opts *g, struct store **ret, char *db_path, size_t len);

/* Loads IDS[0..N) into RUNS (caller's array of N; released with
 * stored_runs_release). Returns 0 or -1 after printing the error. */
int stored_load_runs(const char *command, struct store *s, char **ids, size_t n, struct run_doc *runs);

#endif
