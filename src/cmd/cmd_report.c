/* report: stored runs as a self-contained HTML page, a CSV file and a
 * Prometheus text file (report/). Every file is written to a temporary
 * name and renamed, so node_exporter's textfile collector never reads a
 * half-written file. Reads the database only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "basic/fsutil.h"
#include "basic/strbuf.h"
#include "basic/timeutil.h"
#include "cmd/commands.h"
#include "cmd/stored_runs.h"
#include "report/export.h"
#include "report/hosts.h"
#include "report/html.h"

enum { OPT_HTML = OPT_COMMAND_BASE, OPT_CSV, OPT_PROM };

static const struct opt_def report_opts[] = {
	{ "html", 0, "FILE", "one self-contained HTML page: summary, a bar chart per test, tables, parameters", OPT_HTML, { 0 } },
	{ "csv", 0, "FILE", "one CSV row per measurement", OPT_CSV, { 0 } },
	{ "prom", 0, "FILE", "Prometheus text format, for node_exporter's textfile collector (*.prom)", OPT_PROM, { 0 } },
	OPT_END,
};

struct report_files {
	const char *html, *csv, *prom;
};

static int parse_report_option(int id, const char *arg, void *state)
{
	struct report_files *f = state;
	if (!arg[0])
		return opts_usage_error("report", "an empty file name");
	if (id == OPT_HTML)
		f->html = arg;
	else if (id == OPT_CSV)
		f->csv = arg;
	else if (id == OPT_PROM)
		f->prom = arg;
	return 0;
}

static int write_out(const char *path, const struct strbuf *sb, const char *what)
{
	int r = write_file_atomic(path, sb->buf, sb->len, 0644);
	if (r < 0)
		return cmd_error("report", "cannot write '%s': %s", path, strerror(-r));
	/* A notice, not an error: the same "iotriage report: " prefix. */
	fprintf(stderr, "iotriage report: wrote %s to %s\n", what, path);
	return 0;
}

static int report_check(struct command_call *call)
{
	const struct report_files *f = call->settings;
	if (!f->html && !f->csv && !f->prom)
		return opts_usage_error("report", "expected --html FILE, --csv FILE or --prom FILE");
	return 0;
}

/* The runs the operands name, into *RET (malloc'd). Returns 0 or 1. */
static int load_runs(const struct command_call *call, struct run_doc **ret, size_t *nret)
{
	struct store *s = NULL;
	char db[4096];
	int r = stored_open("report", call->g, &s, db, sizeof(db));
	if (r < 0)
		return 1;
	if (r == 1)
		return cmd_error("report", "there is no database at '%s' yet", db);
	size_t n = (size_t)call->noperands;
	struct run_doc *runs = xcalloc(n, sizeof(*runs));
	r = stored_load_runs("report", s, call->operands, n, runs);
	store_close(s);
	if (r < 0) {
		free(runs);
		return 1;
	}
	/* A fleet run brings its hosts' runs: rows with their host. */
	*nret = host_runs_expand(runs, n, ret);
	free(runs);
	return 0;
}

/* Each file asked for, written atomically; the exit status. */
static int report_main(struct command_call *call)
{
	const struct report_files *f = call->settings;
	struct run_doc *runs = NULL;
	size_t n = 0;
	if (load_runs(call, &runs, &n) != 0)
		return 1;
	int status = 0;
	if (f->html) {
		struct strbuf sb = STRBUF_INIT;
		char now[32];
		time_format_iso8601(time(NULL), now, sizeof(now));
		report_html(runs, n, now, &sb);
		status |= write_out(f->html, &sb, "the HTML report");
		strbuf_release(&sb);
	}
	if (f->csv) {
		struct strbuf sb = STRBUF_INIT;
		report_csv(runs, n, &sb);
		status |= write_out(f->csv, &sb, "the CSV file");
		strbuf_release(&sb);
	}
	if (f->prom) {
		struct strbuf sb = STRBUF_INIT;
		report_prom(runs, n, &sb);
		status |= write_out(f->prom, &sb, "the Prometheus file");
		strbuf_release(&sb);
	}
	stored_runs_release(runs, n);
	free(runs);
	return status;
}

static const struct command_doc report_doc = {
	"report", "report RUN... [--html FILE] [--csv FILE] [--prom FILE]",
	"Turns stored runs (ids or unique prefixes, see 'iotriage history') into files:\n"
	"an HTML page needing nothing else (no scripts, no network; inline SVG charts,\n"
	"each marked higher or lower is better; disks of a read test per disk with the\n"
	"outliers in red; the exact parameters of every test; with several runs, each\n"
	"change against the first judged against the runs' noise), a CSV file (one row per\n"
	"measurement) and a Prometheus text file. Each file is written atomically.\n"
	"A fleet run brings its hosts' runs: per-host bars in the HTML page, each\n"
	"host's rows in the CSV file (host column) and samples labelled host=\"NAME\";\n"
	"RUN@HOST is one host's run of a fleet run.",
	report_opts,
};

const struct command_frame report_frame = {
	.doc = &report_doc,
	.settings_size = sizeof(struct report_files),
	.handle = parse_report_option,
	.min_operands = 1, .max_operands = -1,
	.operands_expected = "expected one or more run ids (see 'iotriage history')",
	.check = report_check,
	.main = report_main,
};
