/* compare: stored runs side by side, each later side against the first,
 * with every change judged against the runs' own noise
 * (report/significance.h). A side is one run, or repeat runs of the same
 * workload written ID+ID+ID, whose spread between runs is their noise
 * (triage/results/compare.h). Reads the database only. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/commands.h"
#include "cmd/stored_runs.h"
#include "render/compare.h"
#include "render/hosts.h"

enum { OPT_HOSTS = OPT_COMMAND_BASE, OPT_BASE };

struct compare_settings {
	bool hosts;
	const char *base;
};

static const struct opt_def compare_opts[] = {
	{ "hosts", 0, NULL, "RUN is a fleet run: every host against the base host, and the outlier host named", OPT_HOSTS,
	  OPT_V_FLAG(struct compare_settings, hosts) },
	{ "base", 0, "HOST", "with --hosts: the host the others are compared with (default: the median host)", OPT_BASE,
	  OPT_V_STRING(struct compare_settings, base) },
	OPT_END,
};

/* Warns when the runs of a side were not started with the same arguments:
 * repeat runs are repeats of one workload. */
static void side_check_repeats(const struct compare_side *s)
{
	for (size_t r = 1; r < s->nruns; r++) {
		const char *a = s->runs[0].argv ? s->runs[0].argv : "", *b = s->runs[r].argv ? s->runs[r].argv : "";
		if (strcmp(a, b) != 0)
			cmd_error("compare", "warning: runs %s and %s are combined as repeats but were started "
				  "differently ('%s' and '%s')", s->runs[0].id, s->runs[r].id, a, b);
	}
}

/* Each side after the first judged against it and rendered. */
static void compare_all(const struct compare_side *sides, size_t n, bool json, struct json *j, size_t *counts)
{
	for (size_t k = 1; k < n; k++) {
		struct compare_row *rows = NULL;
		size_t nrows = compare_sides_judge(&sides[0], &sides[k], &rows);
		compare_side_render(sides, k, rows, nrows, json, j, counts);
		free(rows);
	}
}

/* Opens the database and loads IDS[0..N) into *RET (malloc'd). Returns 0 or 1. */
static int load_runs(const struct global_opts *g, char **ids, size_t n, struct run_doc **ret)
{
	struct store *s = NULL;
	char db[4096];
	int r = stored_open("compare", g, &s, db, sizeof(db));
	if (r == 1)
		cmd_error("compare", "there is no database at '%s' yet", db);
	if (r != 0)
		return 1;
	struct run_doc *runs = xcalloc(n, sizeof(*runs));
	r = stored_load_runs("compare", s, ids, n, runs);
	store_close(s);
	if (r != 0) {
		free(runs);
		return 1;
	}
	*ret = runs;
	return 0;
}

/* compare --hosts' base host in ROWS: WANT (--base) or the median host.
 * Returns 0, or 1 after printing why there is none. */
static int hosts_base(const char *fleet_id, const struct host_rows *rows, const char *want, size_t *ret)
{
	size_t k = want ? host_rows_find(rows, want) : rows->base;
	if (want && k == SIZE_MAX)
		return cmd_error("compare", "fleet run '%s' has no host '%s'", fleet_id, want);
	if (k == SIZE_MAX || !rows->r[k].document)
		return cmd_error("compare", "fleet run '%s': %s%s has no document to compare with", fleet_id,
				 want ? "host " : "no host", want ? want : "");
	*ret = k;
	return 0;
}

/* compare --hosts FLEET_RUN: every host's run against the base host's, then
 * the hosts with the outlier named. */
static int compare_hosts_of(const struct global_opts *g, const struct run_doc *fleet, const char *want)
{
	struct host_rows rows;
	size_t base = SIZE_MAX;
	if (host_rows_load(fleet, &rows) < 0 || hosts_base(fleet->id, &rows, want, &base) != 0) {
		host_rows_release(&rows);
		return 1;
	}
	struct run_doc *runs = NULL;
	struct compare_side *sides = NULL;
	size_t n = compare_sides_of_hosts(fleet->id, &rows, base, &runs, &sides);
	struct json j;
	json_init(&j);
	compare_json_head(&j, sides, n);
	json_string(&j, "fleet_run_id", fleet->id);
	json_string(&j, "base_host", rows.r[base].host);
	json_begin_array(&j, "comparisons");
	size_t counts[SIG_NVERDICTS] = { 0 };
	compare_all(sides, n, g->json, &j, counts);
	json_end_array(&j);
	hosts_json(&j, &rows);
	if (!g->json) {
		printf("%s", n > 1 ? "\n" : "only the base host has a document: nothing to compare\n");
		hosts_print(&rows, stdout);
	}
	compare_summary_print(&j, counts, g->json);
	json_release(&j);
	compare_sides_release(sides, n);
	free(sides);
	stored_runs_release(runs, n);
	free(runs);
	host_rows_release(&rows);
	return 0;
}

static int compare_hosts(struct command_call *call)
{
	const struct compare_settings *cs = call->settings;
	if (call->noperands != 1)
		return opts_usage_error("compare", "--hosts takes exactly one fleet run id");
	struct run_doc *fleet = NULL;
	if (load_runs(call->g, call->operands, 1, &fleet) != 0)
		return 1;
	int status = run_doc_is_fleet(fleet)
			     ? compare_hosts_of(call->g, fleet, cs->base)
			     : cmd_error("compare", "run '%s' is a %s run, not a fleet run of hosts", fleet->id, fleet->command);
	stored_runs_release(fleet, 1);
	free(fleet);
	return status;
}

static int compare_check(struct command_call *call)
{
	const struct compare_settings *cs = call->settings;
	if (cs->base && !cs->hosts)
		return opts_usage_error("compare", "--base HOST goes with --hosts");
	if (!cs->hosts && call->noperands < 2)
		return opts_usage_error("compare", "%s", call->frame->operands_expected);
	return 0;
}

static const struct command_doc compare_doc = {
	"compare", "compare RUN_A RUN_B [RUN...] | compare --hosts [--base HOST] FLEET_RUN",
	"Shows the same tests of stored runs side by side: every later run against the\n"
	"first, with the change in percent. A change within the runs' own noise (twice\n"
	"the combined standard deviation of their bandwidth samples, Student's t for few\n"
	"samples, and at least " SIG_TEXT(SIG_FLOOR_WHOLE) "% between single runs; "
	SIG_TEXT(SIG_NO_NOISE_WHOLE) "% when neither run has\n"
	"samples) is \"not significant\", never a win or loss;\n"
	"a latency without samples of its own is \"not judged\".\n"
	"A side may be repeat runs of one workload, written ID+ID+ID: their mean is\n"
	"compared and the spread between them is the noise, so the "
	SIG_TEXT(SIG_FLOOR_WHOLE) "% floor drops to\n"
	SIG_TEXT(SIG_REPEAT_FLOOR_WHOLE) "% when both sides are repeats (three runs a side or more is what makes a\n"
	"20-" SIG_TEXT(SIG_FLOOR_WHOLE) "% change stand out).\n"
	"Runs are ids or unique prefixes (see 'iotriage history'); RUN@HOST is the run\n"
	"host HOST made in the fleet run RUN. --hosts FLEET_RUN compares every host of\n"
	"a fleet run with the base host (--base, default the median host: the one whose\n"
	"rate is nearest the median of all hosts') and names the outlier host: the one\n"
	"furthest from the median, as a share of it.",
	compare_opts,
};

/* The sides (runs or ID+ID+ID repeats) loaded, each later one against the first. */
static int compare_main(struct command_call *call)
{
	const struct global_opts *g = call->g;
	if (((const struct compare_settings *)call->settings)->hosts)
		return compare_hosts(call);
	size_t nsides = (size_t)call->noperands;
	struct compare_side *sides = xcalloc(nsides, sizeof(*sides));
	char **ids = NULL;
	int nids = compare_sides_split(call->operands, nsides, &ids, sides);
	if (nids < 0) {
		free(sides);
		return opts_usage_error("compare", "an empty run id in a '+' set (write ID+ID+ID)");
	}
	struct run_doc *runs = NULL;
	int r = load_runs(g, ids, (size_t)nids, &runs);
	compare_ids_free(ids, (size_t)nids);
	if (r != 0) {
		free(sides);
		return 1;
	}
	compare_sides_attach(sides, nsides, runs);
	for (size_t k = 0; k < nsides; k++)
		side_check_repeats(&sides[k]);
	struct json j;
	json_init(&j);
	compare_json_head(&j, sides, nsides);
	json_begin_array(&j, "comparisons");
	size_t counts[SIG_NVERDICTS] = { 0 };
	compare_all(sides, nsides, g->json, &j, counts);
	json_end_array(&j);
	compare_summary_print(&j, counts, g->json);
	json_release(&j);
	compare_sides_release(sides, nsides);
	free(sides);
	stored_runs_release(runs, (size_t)nids);
	free(runs);
	return 0;
}

const struct command_frame compare_frame = {
	.doc = &compare_doc,
	.settings_size = sizeof(struct compare_settings),
	.min_operands = 1, .max_operands = -1,
	.operands_expected = "expected two or more run ids (see 'iotriage history')",
	.check = compare_check,
	.main = compare_main,
};
