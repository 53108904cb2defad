/* history and show: stored runs listed and shown again, from the database.
 * Both only read: they record no run of their own and never create the
 * database. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "basic/timeutil.h"
#include "cmd/commands.h"
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

struct listing {
	struct table table;
	struct json json;
	size_t rows;
};

static void add_run_row(const struct store_run_row *row, void *arg)
{
	struct listing *l = arg;
	char started[32], exit_text[16], results[24];
	time_format_iso8601((time_t)row->started_at, started, sizeof(started));
	snprintf(exit_text, sizeof(exit_text), "%d", row->exit_status);
	snprintf(results, sizeof(results), "%lld", (long long)row->results);
	/* A fleet host's run: the host, and the fleet run that collected it. */
	char host[160];
	if (row->host)
		snprintf(host, sizeof(host), "%s (fleet %.8s)", row->host, row->fleet_run_id ? row->fleet_run_id : "?");
	else
		snprintf(host, sizeof(host), "local");
	const char *cells[] = { row->id, row->command, host, started, exit_text, results, row->argv };
	table_add_row(&l->table, cells);
	l->rows++;
	json_begin_object(&l->json, NULL);
	json_string(&l->json, "run_id", row->id);
	json_string(&l->json, "command", row->command);
	json_string(&l->json, "host", row->host);
	json_string(&l->json, "fleet_run_id", row->fleet_run_id);
	json_string(&l->json, "started_at", started);
	json_int(&l->json, "started_at_unix", row->started_at);
	json_int(&l->json, "finished_at_unix", row->finished_at);
	json_int(&l->json, "exit_status", row->exit_status);
	json_int(&l->json, "results", row->results);
	json_string(&l->json, "argv", row->argv);
	json_end_object(&l->json);
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
	struct listing l = { .rows = 0 };
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
		r = store_list_runs(s, f, add_run_row, &l);
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

/* The run's figures as a table; a fleet run's hosts after them. */
static void show_table(const struct run_doc *d)
{
	printf("run %s: %s on %s, started %s, exit status %d\n  %s\n", d->id, d->command, d->host, d->started_at,
	       d->exit_status, d->argv);
	if (d->n) {
		struct table t;
		static const char *const headers[] = { "TEST", "METRIC", "TARGET", "VALUE", "NOISE (SD)", "STATUS" };
		table_init(&t, 6, headers, "lllrrl");
		for (size_t i = 0; i < d->n; i++) {
			const struct measure *m = &d->m[i];
			char v[48], sd[48] = "-";
			measure_format(m->unit, m->value, v, sizeof(v));
			if (isfinite(m->noise_sd))
				measure_format(m->unit, m->noise_sd, sd, sizeof(sd));
			const char *cells[] = { m->test, m->metric, m->target, v, sd, m->status };
			table_add_row(&t, cells);
		}
		table_print(&t, stdout);
		table_release(&t);
	} else if (!run_doc_is_fleet(d)) {
		printf("  (no figures to show for a %s run; --json prints its whole document)\n", d->command);
	}
	struct host_rows rows;
	if (run_doc_is_fleet(d) && host_rows_load(d, &rows) == 0) {
		hosts_print(&rows, stdout);
		printf("(one host's document: iotriage show %.8s@HOST)\n", d->id);
		host_rows_release(&rows);
	}
}

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
		show_table(&d);
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
