/* cmd/stored_runs.c: the database opened for reading, runs loaded (see stored_runs.h). */
#include "cmd/stored_runs.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/runctx.h"

int stored_open(const char *command, const struct global_opts *g, struct store **ret, char *db_path, size_t len)
{
	struct run_ctx rc;
	if (run_ctx_paths(&rc, g) < 0) {
		fprintf(stderr, "iotriage %s: the database path is too long\n", command);
		return -1;
	}
	snprintf(db_path, len, "%s", rc.db_path);
	/* store_open() would create a missing file: a read must not. */
	if (access(rc.db_path, F_OK) < 0) {
		if (errno == ENOENT)
			return 1;
		fprintf(stderr, "iotriage %s: cannot open '%s': %s\n", command, rc.db_path, strerror(errno));
		return -1;
	}
	int r = store_open(rc.db_path, ret);
	if (r < 0) {
		fprintf(stderr, "iotriage %s: cannot open results database '%s': %s\n", command, rc.db_path,
			run_ctx_store_error(r));
		return -1;
	}
	return 0;
}

int stored_load_runs(const char *command, struct store *s, char **ids, size_t n, struct run_doc *runs)
{
	memset(runs, 0, n * sizeof(*runs));
	for (size_t i = 0; i < n; i++) {
		char *id = NULL, *doc = NULL, err[160];
		int r = store_get_run(s, ids[i], &id, &doc);
		if (r == -ENOENT || r == -EEXIST || r == -EINVAL) {
			fprintf(stderr, "iotriage %s: %s '%s'%s\n", command,
				r == -EEXIST ? "more than one run starts with" : "no run", ids[i],
				r == -EEXIST ? "; give more of the id" : " in the database (see 'iotriage history')");
			stored_release_runs(runs, i);
			return -1;
		}
		if (r < 0) {
			fprintf(stderr, "iotriage %s: cannot read run '%s': %s\n", command, ids[i], store_errmsg(s));
			stored_release_runs(runs, i);
			return -1;
		}
		r = run_doc_load(doc, strlen(doc), &runs[i], err, sizeof(err));
		free(doc);
		if (r < 0) {
			fprintf(stderr, "iotriage %s: run '%s' has an unreadable document: %s\n", command, id, err);
			free(id);
			stored_release_runs(runs, i);
			return -1;
		}
		free(id);
	}
	return 0;
}

void stored_release_runs(struct run_doc *runs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		run_doc_release(&runs[i]);
}
