/* Stored runs loaded (see triage/stored_runs.h). */
#include "triage/stored_runs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int stored_runs_lookup_error(int r, const char *id, char *why, size_t len)
{
	if (r != -ENOENT && r != -EEXIST && r != -EINVAL)
		return 0;
	snprintf(why, len, "%s '%s'%s", r == -EEXIST ? "more than one run starts with" : "no run", id,
		 r == -EEXIST ? "; give more of the id" : " in the database (see 'iotriage history')");
	return 1;
}

int stored_runs_load(struct store *s, char **ids, size_t n, struct run_doc *runs, char *why, size_t len)
{
	memset(runs, 0, n * sizeof(*runs));
	for (size_t i = 0; i < n; i++) {
		char *id = NULL, *doc = NULL, err[160];
		int r = store_get_run(s, ids[i], &id, &doc);
		if (r < 0) {
			if (!stored_runs_lookup_error(r, ids[i], why, len))
				snprintf(why, len, "cannot read run '%s': %s", ids[i], store_errmsg(s));
			stored_runs_release(runs, i);
			return r;
		}
		r = run_doc_load(doc, strlen(doc), &runs[i], err, sizeof(err));
		free(doc);
		if (r < 0) {
			snprintf(why, len, "run '%s' has an unreadable document: %s", id, err);
			free(id);
			stored_runs_release(runs, i);
			return r;
		}
		free(id);
	}
	return 0;
}

void stored_runs_release(struct run_doc *runs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		run_doc_release(&runs[i]);
}
