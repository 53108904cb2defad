/* Stored runs loaded (see triage/results/stored_runs.h). */
#include "triage/results/stored_runs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/strbuf.h"
#include "report/hosts.h"

int stored_runs_lookup_error(int r, const char *id, char *why, size_t len)
{
	if (r != -ENOENT && r != -EEXIST && r != -EINVAL)
		return 0;
	snprintf(why, len, "%s '%s'%s", r == -EEXIST ? "more than one run starts with" : "no run", id,
		 r == -EEXIST ? "; give more of the id" : " in the database (see 'iotriage history')");
	return 1;
}

/* HOST's document of the fleet run FLEET (loaded) into RET. */
static int fleet_host_doc(const struct run_doc *fleet, const char *host, struct run_doc *ret, char *why, size_t len)
{
	struct host_rows rows;
	if (!run_doc_is_fleet(fleet) || host_rows_load(fleet, &rows) < 0) {
		snprintf(why, len, "run '%s' is a %s run, not a fleet run of hosts: RUN@HOST names a host of a fleet run",
			 fleet->id, fleet->command);
		return -EINVAL;
	}
	size_t k = host_rows_find(&rows, host);
	int r = -ENOENT;
	char err[160];
	if (k == SIZE_MAX) {
		struct strbuf names = STRBUF_INIT;
		for (size_t i = 0; i < rows.n; i++)
			strbuf_addf(&names, "%s%s", i ? ", " : "", rows.r[i].host);
		snprintf(why, len, "fleet run '%s' has no host '%s' (its hosts: %s)", fleet->id, host, names.buf);
		strbuf_release(&names);
	} else if ((r = host_row_run_doc(&rows.r[k], ret, err, sizeof(err))) == -ENOENT) {
		snprintf(why, len, "host '%s' of fleet run '%s' sent back no document (%s%s%s)", host, fleet->id,
			 rows.r[k].status, rows.r[k].reason ? ": " : "", rows.r[k].reason ? rows.r[k].reason : "");
	} else if (r < 0) {
		snprintf(why, len, "host '%s' of fleet run '%s' has an unreadable document: %s", host, fleet->id, err);
	}
	host_rows_release(&rows);
	return r;
}

/* ID, or RUN@HOST (one host's run of a fleet run), into RET. */
static int load_one(struct store *s, const char *want, struct run_doc *ret, char *why, size_t len)
{
	char *at = strrchr(want, '@');
	char *runpart = at ? strndup(want, (size_t)(at - want)) : strdup(want);
	if (!runpart)
		abort();
	char *id = NULL, *doc = NULL, err[160];
	int r = store_get_run(s, runpart, &id, &doc);
	if (r < 0) {
		if (!stored_runs_lookup_error(r, runpart, why, len))
			snprintf(why, len, "cannot read run '%s': %s", runpart, store_errmsg(s));
		free(runpart);
		return r;
	}
	free(runpart);
	r = run_doc_load(doc, strlen(doc), ret, err, sizeof(err));
	free(doc);
	if (r < 0)
		snprintf(why, len, "run '%s' has an unreadable document: %s", id, err);
	free(id);
	if (r < 0 || !at)
		return r;
	struct run_doc fleet = *ret;
	r = fleet_host_doc(&fleet, at + 1, ret, why, len);
	run_doc_release(&fleet);
	return r;
}

int stored_runs_load(struct store *s, char **ids, size_t n, struct run_doc *runs, char *why, size_t len)
{
	memset(runs, 0, n * sizeof(*runs));
	for (size_t i = 0; i < n; i++) {
		int r = load_one(s, ids[i], &runs[i], why, len);
		if (r < 0) {
			stored_runs_release(runs, i);
			return r;
		}
	}
	return 0;
}

void stored_runs_release(struct run_doc *runs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		run_doc_release(&runs[i]);
}
