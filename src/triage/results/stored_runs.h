/* triage/results/stored_runs.h: stored runs loaded from the database by id or
 * unique prefix, as report/measure documents, for history, show, compare
 * and report. Errors come back in a why-buffer; the commands print them. */
#ifndef IOTRIAGE_TRIAGE_STORED_RUNS_H
#define IOTRIAGE_TRIAGE_STORED_RUNS_H

#include <stddef.h>

#include "report/measure.h"
#include "store/store.h"

/* Loads IDS[0..N) (ids or unique prefixes; RUN@HOST: the document host
 * HOST sent back in the fleet run RUN, its host set to HOST) into RUNS (the caller's array of
 * N). Returns 0, or -errno with WHY ("no run 'x' in the database (see
 * 'iotriage history')", ...) and nothing left loaded. */
int stored_runs_load(struct store *s, char **ids, size_t n, struct run_doc *runs, char *why, size_t len);
void stored_runs_release(struct run_doc *runs, size_t n);

/* What store_get_run's -ENOENT, -EEXIST or -EINVAL for ID means, as the
 * end of a sentence that starts with the command ("no run 'x' in the
 * database (see 'iotriage history')") in WHY: returns 1, or 0 for any
 * other error (WHY untouched). */
int stored_runs_lookup_error(int r, const char *id, char *why, size_t len);

#endif
