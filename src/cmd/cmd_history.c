/* history and show: stored runs listed and shown again, from the database.
 * Both only read: they record no run of their own and never create the
 * database. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "basic/timeutil.h"
#include "cmd/commands.h"
#include "render/stored.h"
#include "render/hosts.h"
#include "cmd/stored_runs.h"
#include "output/json.h"
#include "output/table.h"

enum { OPT_COMMAND = OPT_COMMAND_BASE, OPT_DEVICE, OPT_POOL, OPT_HOST, OPT_SINCE, OPT_UNTIL };

static const struct opt_def history_opts[] = {
	{ "command", 0, "NAME", "only runs of this command (readdisks, run, matrix, ...)", OPT_COMMAND, { 0 } },
	{ "device", 0, "IDENTITY", "only runs that measured this device: identity key (wwn:..., serial:...), kernel name or path", OPT_DEVICE,
	  OPT_V_STRING(struct store_run_filter, device) },
	{ "pool", 0, "POOL", "only runs about this pool (its name in the run's document)", OPT_POOL,
	  OPT_V_STRING(struct store_run_filter, pool) },
	{ "host", 0, "NAME", "only runs collected from this host by fleet: the fleet's name for it or its host name", OPT_HOST,
	  OPT_V_STRING(struct store_run_filter, host) },
	{ "since", 0, "DATE", "runs started at or after DATE: YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS, UTC", OPT_SINCE, { 0 } },
	{ "until", 0, "DATE", "runs started at or before DATE (a bare day includes the whole day)", OPT_UNTIL, { 0 } },
	OPT_END,
};

/* YYYY-MM-DD (the day's start, or with END_OF_DAY its last second) or
 * YYYY-MM-DDTHH:MM[:SS][Z], UTC. */
static int parse_date(const char *s, bool end_of_day, int64_t *ret)
{
	static const char *const formats[] = { "%Y-%m-%dT%H:%M:%SZ", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%dT%H:%MZ",
						"%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M:%S", "%Y-%m-%d" };
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		struct tm tm = { 0 };
		const char *end = strptime(s, formats[i], &tm);
		if (!end || *end)
			continue;
		time_t t = timegm(&tm);
		if (t == (time_t)-1)
			return -EINVAL;
		*ret = (int64_t)t + (end_of_day && i == sizeof(formats) / sizeof(formats[0]) - 1 ? 86399 : 0);
		return 0;
	}
	return -EINVAL;
}

static int parse_history_option(int id, const char *arg, void *state)
{
	struct store_run_filter *f = state;
	switch (id) {
	case OPT_COMMAND:
		if (!command_find(arg))
			return opts_usage_error("history", "unknown command '%s' for --command", arg);
		f->command = arg;
		return 0;
	case OPT_SINCE:
	case OPT_UNTIL:
		if (parse_date(arg, id == OPT_UNTIL, id == OPT_SINCE ? &f->since : &f->until) < 0)
			return opts_usage_error("history", "invalid %s '%s': expected YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS (UTC)",
						id == OPT_SINCE ? "--since" : "--until", arg);
		return 0;
	}
	return 2;
}

static int history_check(struct command_call *call)
{
	const struct store_run_filter *f = call->settings;
	if (f->since && f->until && f->since > f->until)
		return opts_usage_error("history", "--since is after --until");
	return 0;
}

/* The runs the filter matches, as a table or (--json) a document. */
static int history_main(struct command_call *call)
{
	const struct store_run_filter *f = call->settings;
	struct store *s = NULL;
	char db[4096];
	int r = stored_open("history", call->g, &s, db, sizeof(db));
	if (r < 0)
		return 1;
	struct run_listing l = { .rows = 0 };
	static const char *const headers[] = { "RUN", "COMMAND", "HOST", "STARTED", "EXIT", "RESULTS", "COMMAND LINE" };
	table_init(&l.table, 7, headers, "llllrrl");
	json_init(&l.json);
	json_begin_object(&l.json, NULL);
	json_uint(&l.json, "schema_version", 1);
	json_string(&l.json, "command", "history");
	json_string(&l.json, "database", db);
	json_begin_array(&l.json, "runs");
	int status = 0;
	if (s) {
		r = store_list_runs(s, f, run_listing_add, &l);
		if (r < 0)
			status = cmd_error("history", "cannot read '%s': %s", db, store_errmsg(s));
		store_close(s);
	}
	json_end_array(&l.json);
	json_end_object(&l.json);
	if (call->g->json)
		fputs(l.json.out.buf, stdout);
	else if (l.rows)
		table_print(&l.table, stdout);
	else if (status == 0)
		printf("No runs%s in '%s'.\n", f->command || f->device || f->pool || f->host || f->since || f->until ? " match" : " recorded yet", db);
	table_release(&l.table);
	json_release(&l.json);
	return status;
}

static const struct command_doc history_doc = {
	"history", "history [options]",
	"Lists the runs in the results database, newest first, with their ids (for show,\n"
	"compare and report) and their host: local, or the host a fleet run collected\n"
	"the run from (and that fleet run). Reads the database only; records nothing.",
	history_opts,
};

const struct command_frame history_frame = {
	.doc = &history_doc,
	.settings_size = sizeof(struct store_run_filter),
	.handle = parse_history_option,
	.check = history_check,
	.main = history_main,
};

static const struct opt_def show_opts[] = { OPT_END };

/* The run's document exactly as stored; closes S. */
static int show_stored_text(struct store *s, const char *want, const char *db)
{
	char *id = NULL, *text = NULL, why[1024];
	int r = store_get_run(s, want, &id, &text);
	if (r < 0) {
		if (stored_runs_lookup_error(r, want, why, sizeof(why)))
			cmd_error("show", "%s", why);
		else
			cmd_error("show", "cannot read '%s': %s", db, store_errmsg(s));
		store_close(s);
		return 1;
	}
	store_close(s);
	fputs(text, stdout);
	free(id);
	free(text);
	return 0;
}

/* "expected exactly one" also for two or more, as before the frame. */
static int show_check(struct command_call *call)
{
	if (call->noperands != 1)
		return opts_usage_error("show", "%s", call->frame->operands_expected);
	return 0;
}

/* One run by id or prefix: its document (--json) or its table. */
static int show_main(struct command_call *call)
{
	const char *want = call->operands[0];
	struct store *s = NULL;
	char db[4096];
	int r = stored_open("show", call->g, &s, db, sizeof(db));
	if (r < 0)
		return 1;
	if (r == 1)
		return cmd_error("show", "no run '%s': there is no database at '%s' yet", want, db);
	if (call->g->json && !strchr(want, '@'))
		return show_stored_text(s, want, db);
	struct run_doc d;
	int status = stored_load_runs("show", s, (char **)&want, 1, &d) < 0;
	store_close(s);
	if (status)
		return 1;
	if (call->g->json) {
		/* The document as stored (RUN@HOST: as the host sent it back). */
		struct json j;
		json_init(&j);
		json_value(&j, NULL, d.doc);
		puts(j.out.buf);
		json_release(&j);
	} else {
		run_doc_print(&d);
	}
	run_doc_release(&d);
	return 0;
}

static const struct command_doc show_doc = {
	"show", "show [--json] RUN",
	"Shows one stored run again: its command line and every figure it measured, as a\n"
	"table; with --json, the run's JSON document. RUN is a run id or a unique prefix\n"
	"of one (at least 4 characters). A fleet run shows one row per host: its status,\n"
	"run, rate, share of the median and a bar, and the outlier host. RUN@HOST shows\n"
	"the document host HOST sent back in the fleet run RUN.",
	show_opts,
};

const struct command_frame show_frame = {
	.doc = &show_doc,
	.min_operands = 1, .max_operands = -1,
	.operands_expected = "expected exactly one run id (see 'iotriage history')",
	.check = show_check,
	.main = show_main,
};
