/* compare: stored runs side by side, each later side against the first,
 * with every change judged against the runs' own noise
 * (report/significance.h). A side is one run, or repeat runs of the same
 * workload written ID+ID+ID, whose spread between runs is their noise
 * (triage/compare.h). Reads the database only. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/commands.h"
#include "cmd/hosts_render.h"
#include "cmd/stored_runs.h"
#include "output/json.h"
#include "output/table.h"
#include "report/significance.h"
#include "triage/compare.h"

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

static void side_heading(const struct compare_side *s, char letter, char *buf, size_t len)
{
	if (s->nruns == 1)
		snprintf(buf, len, "%c %.8s", letter, s->runs[0].id);
	else
		snprintf(buf, len, "%c (%zu runs)", letter, s->nruns);
}

static void json_head(struct json *j, const struct compare_side *sides, size_t nsides)
{
	json_begin_object(j, NULL);
	json_uint(j, "schema_version", 1);
	json_string(j, "command", "compare");
	json_begin_object(j, "rule");
	json_double(j, "noise_multiplier", 2.0);
	json_double(j, "floor_percent", SIG_FLOOR_PCT);
	json_double(j, "repeat_floor_percent", SIG_REPEAT_FLOOR_PCT);
	json_double(j, "no_noise_percent", SIG_NO_NOISE_PCT);
	json_end_object(j);
	json_begin_array(j, "runs");
	for (size_t k = 0; k < nsides; k++)
		for (size_t i = 0; i < sides[k].nruns; i++) {
			const struct run_doc *run = &sides[k].runs[i];
			json_begin_object(j, NULL);
			json_string(j, "run_id", run->id);
			json_uint(j, "side", k);
			json_string(j, "command", run->command);
			json_string(j, "started_at", run->started_at);
			json_string(j, "argv", run->argv);
			json_end_object(j);
		}
	json_end_array(j);
}

static void json_row(struct json *j, const struct compare_side *base, const struct compare_side *other,
		     const struct compare_row *row)
{
	const struct measure *a = row->a, *b = row->b;
	json_begin_object(j, NULL);
	json_string(j, "test", a->test);
	json_string(j, "metric", a->metric);
	json_string(j, "unit", measure_unit_name(a->unit));
	json_bool(j, "higher_is_better", a->higher_is_better);
	json_string(j, "run_a", base->label);
	json_string(j, "run_b", other->label);
	json_uint(j, "repeats_a", base->nruns);
	json_uint(j, "repeats_b", other->nruns);
	json_string(j, "target_a", a->target);
	json_string(j, "target_b", b->target);
	json_double(j, "value_a", a->value);
	json_double(j, "value_b", b->value);
	json_double(j, "noise_sd_a", a->noise_sd);
	json_double(j, "noise_sd_b", b->noise_sd);
	json_uint(j, "noise_samples_a", a->noise_n);
	json_uint(j, "noise_samples_b", b->noise_n);
	json_string(j, "noise_basis_a", a->noise_basis);
	json_string(j, "noise_basis_b", b->noise_basis);
	json_double(j, "change_percent", row->v.change_pct);
	json_double(j, "threshold_percent", row->v.threshold_pct);
	json_string(j, "basis", row->v.basis);
	json_string(j, "verdict", sig_verdict_name(row->v.verdict));
	json_end_object(j);
}

static void table_row(struct table *t, const struct compare_row *row)
{
	const struct measure *a = row->a, *b = row->b;
	char va[48], vb[48], change[32] = "-", limit[32] = "-", target[512];
	measure_format(a->unit, a->value, va, sizeof(va));
	measure_format(b->unit, b->value, vb, sizeof(vb));
	if (isfinite(row->v.change_pct))
		snprintf(change, sizeof(change), "%+.1f%%", row->v.change_pct);
	if (isfinite(row->v.change_pct) && isfinite(row->v.threshold_pct)) /* none for a row not judged */
		snprintf(limit, sizeof(limit), "+-%.1f%%", row->v.threshold_pct);
	if (strcmp(a->target, b->target) == 0)
		snprintf(target, sizeof(target), "%s", a->target);
	else
		snprintf(target, sizeof(target), "%s / %s", a->target, b->target);
	const char *cells[] = { a->test, a->metric, target, va, vb, change, limit, sig_verdict_name(row->v.verdict) };
	table_add_row(t, cells);
}

/* Side K against the first: its table (unless JSON) and its comparisons in
 * J; each verdict counted in COUNTS. */
static void compare_one(const struct compare_side *sides, size_t k, bool json, struct json *j, size_t *counts)
{
	const struct compare_side *base = &sides[0], *other = &sides[k];
	struct table t;
	char head_a[40], head_b[40];
	side_heading(base, 'A', head_a, sizeof(head_a));
	side_heading(other, 'B', head_b, sizeof(head_b));
	const char *headers[] = { "TEST", "METRIC", "TARGET", head_a, head_b, "CHANGE", "NOISE LIMIT", "VERDICT" };
	table_init(&t, 8, headers, "lllrrrrl");
	struct compare_row *rows = NULL;
	size_t n = compare_sides_judge(base, other, &rows);
	for (size_t i = 0; i < n; i++) {
		counts[rows[i].v.verdict]++;
		table_row(&t, &rows[i]);
		json_row(j, base, other, &rows[i]);
	}
	if (!json) {
		printf("%s%s (%s) against %s (%s):\n", k > 1 ? "\n" : "", other->label, other->runs[0].command,
		       base->label, base->runs[0].command);
		if (n)
			table_print(&t, stdout);
		else
			printf("  no test in common\n");
	}
	table_release(&t);
	free(rows);
}

static void print_summary(struct json *j, const size_t *counts, bool json)
{
	json_begin_object(j, "summary");
	json_uint(j, "better", counts[SIG_BETTER]);
	json_uint(j, "worse", counts[SIG_WORSE]);
	json_uint(j, "not_significant", counts[SIG_NOT_SIGNIFICANT]);
	json_uint(j, "no_data", counts[SIG_NO_DATA]);
	json_uint(j, "not_judged", counts[SIG_NOT_JUDGED]);
	json_end_object(j);
	json_end_object(j);
	if (json)
		fputs(j->out.buf, stdout);
	else
		printf("\n%zu better, %zu worse, %zu not significant (within the runs' noise), %zu without data, "
		       "%zu not judged (a latency without samples)\n",
		       counts[SIG_BETTER], counts[SIG_WORSE], counts[SIG_NOT_SIGNIFICANT], counts[SIG_NO_DATA],
		       counts[SIG_NOT_JUDGED]);
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
	size_t n = host_rows_run_docs(&rows, base, &runs);
	struct compare_side *sides = xcalloc(n, sizeof(*sides));
	for (size_t k = 0; k < n; k++)
		sides[k].nruns = 1;
	compare_sides_attach(sides, n, runs);
	for (size_t k = 0; k < n; k++) { /* each side named as compare accepts it: RUN@HOST */
		free(sides[k].label);
		struct strbuf l = STRBUF_INIT;
		strbuf_addf(&l, "%.8s@%s", fleet->id, runs[k].host);
		sides[k].label = strbuf_detach(&l);
	}
	struct json j;
	json_init(&j);
	json_head(&j, sides, n);
	json_string(&j, "fleet_run_id", fleet->id);
	json_string(&j, "base_host", rows.r[base].host);
	json_begin_array(&j, "comparisons");
	size_t counts[SIG_NVERDICTS] = { 0 };
	for (size_t k = 1; k < n; k++)
		compare_one(sides, k, g->json, &j, counts);
	json_end_array(&j);
	hosts_json(&j, &rows);
	if (!g->json) {
		printf("%s", n > 1 ? "\n" : "only the base host has a document: nothing to compare\n");
		hosts_print(&rows, stdout);
	}
	print_summary(&j, counts, g->json);
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
	"samples, and at least 40% between single runs; 40% when neither run has\n"
	"samples) is \"not significant\", never a win or loss;\n"
	"a latency without samples of its own is \"not judged\".\n"
	"A side may be repeat runs of one workload, written ID+ID+ID: their mean is\n"
	"compared and the spread between them is the noise, so the 40% floor drops to\n"
	"15% when both sides are repeats (three runs a side or more is what makes a\n"
	"20-40% change stand out).\n"
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
	json_head(&j, sides, nsides);
	json_begin_array(&j, "comparisons");
	size_t counts[SIG_NVERDICTS] = { 0 };
	for (size_t k = 1; k < nsides; k++)
		compare_one(sides, k, g->json, &j, counts);
	json_end_array(&j);
	print_summary(&j, counts, g->json);
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
