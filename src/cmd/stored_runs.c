/* cmd/stored_runs.c: the database opened for reading, runs loaded (see stored_runs.h). */
#include "cmd/stored_runs.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/commands.h"
#include "cmd/runctx.h"

int stored_open(const char *command, const struct global_opts *g, struct store **ret, char *db_path, size_t len)
{
	struct run_ctx rc;
	if (run_ctx_paths(&rc, g) < 0) {
		cmd_error(command, "the database path is too long");
		return -1;
	}
	snprintf(db_path, len, "%s", rc.db_path);
	/* store_open() would create a missing file: a read must not. */
	if (access(rc.db_path, F_OK) < 0) {
		if (errno == ENOENT)
			return 1;
		cmd_error(command, "cannot open '%s': %s", rc.db_path, strerror(errno));
		return -1;
	}
	int r = store_open(rc.db_path, ret);
	if (r < 0) {
		cmd_error(command, "cannot open results database '%s': %s", rc.db_path, run_ctx_store_error(r));
		return -1;
	}
	return 0;
}

int stored_load_runs(const char *command, struct store *s, char **ids, size_t n, struct run_doc *runs)
{
	char why[1024];
	if (stored_runs_load(s, ids, n, runs, why, sizeof(why)) < 0) {
		cmd_error(command, "%s", why);
		return -1;
	}
	return 0;
}
