/* compare: stored runs side by side, each later run against the first,
 * with every change judged against the runs' own noise
 * (report/significance.h). Reads the database only. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/commands.h"
#include "cmd/stored_runs.h"
#include "output/json.h"
#include "output/table.h"
#include "report/significance.h"

static const struct opt_def compare_opts[] = { OPT_END };

/* The measure of RUN matching M: same test, metric and target; else, when
 * each run has exactly one target for that test, that one (two pools, two
 * devices compared with each other). */
static const struct measure *match(const struct run_doc *run, const struct run_doc *base, const struct measure *m)
{
	const struct measure *only = NULL;
	size_t in_run = 0, in_base = 0;
	for (size_t i = 0; i < run->n; i++) {
		if (!measure_same_test(&run->m[i], m))
			continue;
		if (strcmp(run->m[i].target, m->target) == 0)
			return &run->m[i];
		only = &run->m[i];
		in_run++;
	}
	for (size_t i = 0; i < base->n; i++)
		in_base += measure_same_test(&base->m[i], m);
	return in_run == 1 && in_base == 1 ? only : NULL;
}

int cmd_compare(int argc, char **argv, struct global_opts *g)
{
	static const struct command_doc doc = {
		"compare", "compare RUN_A RUN_B [RUN...]",
		"Shows the same tests of stored runs side by side: every later run against the\n"
		"first, with the change in percent. A change within the runs' own noise (twice\n"
		"the combined standard deviation of their bandwidth samples, Student's t for few\n"
		"samples, and at least 25% between single runs; 25% when neither run has\n"
		"samples) is \"not significant\", never a win or loss;\n"
		"a latency without samples of its own is \"not judged\".\n"
		"Runs are ids or unique prefixes (see 'iotriage history').",
		compare_opts,
	};
	int first = opts_parse_command(&doc, argc, argv, g, NULL, NULL);
	if (first < 0)
		return opts_command_status(first);
	size_t n = (size_t)(argc - first);
	if (n < 2)
		return opts_usage_error("compare", "expected two or more run ids (see 'iotriage history')");

	struct store *s = NULL;
	char db[4096];
	int r = stored_open("compare", g, &s, db, sizeof(db));
	if (r < 0)
		return 1;
	if (r == 1) {
		fprintf(stderr, "iotriage compare: there is no database at '%s' yet\n", db);
		return 1;
	}
	struct run_doc *runs = calloc(n, sizeof(*runs));
	if (!runs)
		abort();
	r = stored_load_runs("compare", s, argv + first, n, runs);
	store_close(s);
	if (r < 0) {
		free(runs);
		return 1;
	}

	struct json j;
	json_init(&j);
	json_begin_object(&j, NULL);
	json_uint(&j, "schema_version", 1);
	json_string(&j, "command", "compare");
	json_begin_object(&j, "rule");
	json_double(&j, "noise_multiplier", 2.0);
	json_double(&j, "floor_percent", SIG_FLOOR_PCT);
	json_double(&j, "no_noise_percent", SIG_NO_NOISE_PCT);
	json_end_object(&j);
	json_begin_array(&j, "runs");
	for (size_t i = 0; i < n; i++) {
		json_begin_object(&j, NULL);
		json_string(&j, "run_id", runs[i].id);
		json_string(&j, "command", runs[i].command);
		json_string(&j, "started_at", runs[i].started_at);
		json_string(&j, "argv", runs[i].argv);
		json_end_object(&j);
	}
	json_end_array(&j);
	json_begin_array(&j, "comparisons");
	size_t counts[SIG_NVERDICTS] = { 0 };
	for (size_t k = 1; k < n; k++) {
		struct table t;
		char head_a[40], head_b[40];
		snprintf(head_a, sizeof(head_a), "A %.8s", runs[0].id);
		snprintf(head_b, sizeof(head_b), "B %.8s", runs[k].id);
		const char *headers[] = { "TEST", "METRIC", "TARGET", head_a, head_b, "CHANGE", "NOISE LIMIT", "VERDICT" };
		table_init(&t, 8, headers, "lllrrrrl");
		size_t rows = 0;
		for (size_t i = 0; i < runs[0].n; i++) {
			const struct measure *a = &runs[0].m[i], *b = match(&runs[k], &runs[0], a);
			if (!b)
				continue;
			struct sig_judgement v;
			sig_judge(a, b, &v);
			counts[v.verdict]++;
			char va[48], vb[48], change[32] = "-", limit[32] = "-", target[512];
			measure_format(a->unit, a->value, va, sizeof(va));
			measure_format(b->unit, b->value, vb, sizeof(vb));
			if (isfinite(v.change_pct)) {
				snprintf(change, sizeof(change), "%+.1f%%", v.change_pct);
				snprintf(limit, sizeof(limit), "+-%.1f%%", v.threshold_pct);
			}
			if (strcmp(a->target, b->target) == 0)
				snprintf(target, sizeof(target), "%s", a->target);
			else
				snprintf(target, sizeof(target), "%s / %s", a->target, b->target);
			const char *cells[] = { a->test, a->metric, target, va, vb, change, limit, sig_verdict_name(v.verdict) };
			table_add_row(&t, cells);
			rows++;

			json_begin_object(&j, NULL);
			json_string(&j, "test", a->test);
			json_string(&j, "metric", a->metric);
			json_string(&j, "unit", measure_unit_name(a->unit));
			json_bool(&j, "higher_is_better", a->higher_is_better);
			json_string(&j, "run_a", runs[0].id);
			json_string(&j, "run_b", runs[k].id);
			json_string(&j, "target_a", a->target);
			json_string(&j, "target_b", b->target);
			json_double(&j, "value_a", a->value);
			json_double(&j, "value_b", b->value);
			json_double(&j, "noise_sd_a", a->noise_sd);
			json_double(&j, "noise_sd_b", b->noise_sd);
			json_uint(&j, "noise_samples_a", a->noise_n);
			json_uint(&j, "noise_samples_b", b->noise_n);
			json_double(&j, "change_percent", v.change_pct);
			json_double(&j, "threshold_percent", v.threshold_pct);
			json_string(&j, "basis", v.basis);
			json_string(&j, "verdict", sig_verdict_name(v.verdict));
			json_end_object(&j);
		}
		if (!g->json) {
			printf("%s%s (%s) against %s (%s):\n", k > 1 ? "\n" : "", runs[k].id, runs[k].command, runs[0].id,
			       runs[0].command);
			if (rows)
				table_print(&t, stdout);
			else
				printf("  no test in common\n");
		}
		table_release(&t);
	}
	json_end_array(&j);
	json_begin_object(&j, "summary");
	json_uint(&j, "better", counts[SIG_BETTER]);
	json_uint(&j, "worse", counts[SIG_WORSE]);
	json_uint(&j, "not_significant", counts[SIG_NOT_SIGNIFICANT]);
	json_uint(&j, "no_data", counts[SIG_NO_DATA]);
	json_uint(&j, "not_judged", counts[SIG_NOT_JUDGED]);
	json_end_object(&j);
	json_end_object(&j);
	if (g->json)
		fputs(j.out.buf, stdout);
	else
		printf("\n%zu better, %zu worse, %zu not significant (within the runs' noise), %zu without data, "
		       "%zu not judged (a latency without samples)\n",
		       counts[SIG_BETTER], counts[SIG_WORSE], counts[SIG_NOT_SIGNIFICANT], counts[SIG_NO_DATA],
		       counts[SIG_NOT_JUDGED]);
	json_release(&j);
	stored_release_runs(runs, n);
	free(runs);
	return 0;
}
