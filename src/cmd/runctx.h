/* cmd/runctx.h: what every command run shares: its id, where its log,
 * results file and database live, and the common head and tail of its
 * JSON document.
 *
 * Paths: the global options win; then $IOTRIAGE_STATE_DIR (log, results
 * and database all under it); then, as root, /var/log/iotriage and
 * /var/lib/iotriage; otherwise $XDG_STATE_HOME/iotriage or
 * ~/.local/state/iotriage.
 */
#ifndef IOTRIAGE_CMD_RUNCTX_H
#define IOTRIAGE_CMD_RUNCTX_H

#include <limits.h>
#include <stdbool.h>
#include <time.h>

#include "cmd/options.h"
#include "output/json.h"
#include "store/store.h"

struct run_ctx {
	char id[17];
	const char *command;
	time_t started;
	bool json;
	char log_path[PATH_MAX];
	char results_dir[PATH_MAX];
	char db_path[PATH_MAX];
	char results_file[PATH_MAX];
	char argv_text[2048];
};

/* Resolves paths, opens the log, makes the run id. Prints and returns 1 on
 * failure (a log file that cannot be opened is an error, not a silence). */
int run_ctx_begin(struct run_ctx *rc, const char *command, int argc, char **argv,
		  const struct global_opts *g);

/* Only resolves the paths (log, results directory, database) the way
 * run_ctx_begin() does, for commands that read stored runs and record
 * nothing (history, show, compare, report). Returns 0 or -ENAMETOOLONG. */
int run_ctx_paths(struct run_ctx *rc, const struct global_opts *g);

/* A sentence for store_open()'s errors (newer schema, corrupt, locked). */
const char *run_ctx_store_error(int r);

/* Opens the document's top-level object and writes the fields every
 * command has: schema_version, iotriage_version, command, run_id, host,
 * started_at, argv, results_file. */
void run_ctx_json_head(struct run_ctx *rc, struct json *j);

/* A command's rows for the database, written inside the run's transaction. */
typedef int (*run_ctx_store_fn)(struct store *s, const struct run_ctx *rc, void *arg);

/* Closes the document with finished_at and exit_status, writes the results
 * file (temporary name, then rename), records the run in the database,
 * prints the document on stdout with --json, and closes the log. Returns
 * EXIT_STATUS, or 1 when the results could not be saved. */
int run_ctx_finish(struct run_ctx *rc, struct json *j, int exit_status, run_ctx_store_fn store_fn,
		   void *arg);

/* The schema_version every document of this build carries. */
int run_ctx_schema_version(void);

/* The exit status for an interrupted run (128 + signal), or 0. */
int run_ctx_interrupted_status(void);

#endif
