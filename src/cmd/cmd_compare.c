/* compare: stored runs side by side, each later side against the first,
 * with every change judged against the runs' own noise
 * (report/significance.h). A side is one run, or repeat runs of the same
 * workload written ID+ID+ID, whose spread between runs is their noise.
 * Reads the database only. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/strbuf.h"
#include "cmd/commands.h"
#include "cmd/stored_runs.h"
#include "output/json.h"
#include "output/table.h"
#include "report/significance.h"

static const struct opt_def compare_opts[] = { OPT_END };

/* One side of the comparison: its runs (within the loaded array) and its
 * measurements, combined across the runs when there are several. */
struct side {
	struct run_doc *runs;
	size_t nruns;
	char *label;            /* the run ids joined by '+' */
	struct measure *m;      /* strings borrowed from runs[0] */
	size_t n;
};

/* The measure of SIDE matching BASE's M: same test, metric and target;
 * else, when each side has exactly one target for that test, that one (two
 * pools, two devices compared with each other). */
static const struct measure *match(const struct side *side, const struct side *base, const struct measure *m)
{
	const struct measure *only = NULL;
	size_t in_side = 0, in_base = 0;
	for (size_t i = 0; i < side->n; i++) {
		if (!measure_same_test(&side->m[i], m))
			continue;
		if (strcmp(side->m[i].target, m->target) == 0)
			return &side->m[i];
		only = &side->m[i];
		in_side++;
	}
	for (size_t i = 0; i < base->n; i++)
		in_base += measure_same_test(&base->m[i], m);
	return in_side == 1 && in_base == 1 ? only : NULL;
}

/* The same test, metric and target in RUN, or NULL. */
static const struct measure *same_in_run(const struct run_doc *run, const struct measure *m)
{
	for (size_t i = 0; i < run->n; i++)
		if (measure_same_test(&run->m[i], m) && strcmp(run->m[i].target, m->target) == 0)
			return &run->m[i];
	return NULL;
}

/* Fills S's measurements: the first run's, each combined with the same
 * measurement of the other runs (one that some run lacks is left out). */
static void side_measure(struct side *s)
{
	s->m = calloc(s->runs[0].n ? s->runs[0].n : 1, sizeof(*s->m));
	const struct measure **set = calloc(s->nruns, sizeof(*set));
	if (!s->m || !set)
		abort();
	for (size_t i = 0; i < s->runs[0].n; i++) {
		set[0] = &s->runs[0].m[i];
		size_t found = 1;
		for (size_t r = 1; r < s->nruns && (set[found] = same_in_run(&s->runs[r], set[0])); r++)
			found++;
		if (found < s->nruns)
			continue;
		if (s->nruns == 1)
			s->m[s->n++] = *set[0];
		else
			measure_combine_repeats(set, s->nruns, &s->m[s->n++]);
	}
	free(set);
}

/* Splits each operand on '+' into IDS (allocated) and SIDES (runs set
 * later). Returns the number of ids, or -1 after a usage message. */
static int split_sides(char **operands, size_t nsides, char ***ret_ids, struct side *sides)
{
	size_t cap = 0;
	for (size_t k = 0; k < nsides; k++) {
		cap++;
		for (const char *c = operands[k]; *c; c++)
			cap += *c == '+';
	}
	char **ids = calloc(cap, sizeof(*ids));
	if (!ids)
		abort();
	size_t n = 0;
	for (size_t k = 0; k < nsides; k++) {
		const char *start = operands[k];
		sides[k].nruns = 0;
		for (;;) {
			size_t len = strcspn(start, "+");
			if (len == 0) {
				for (size_t i = 0; i < n; i++)
					free(ids[i]);
				free(ids);
				opts_usage_error("compare", "an empty run id in a '+' set (write ID+ID+ID)");
				return -1;
			}
			if (!(ids[n++] = strndup(start, len)))
				abort();
			sides[k].nruns++;
			if (!start[len])
				break;
			start += len + 1;
		}
	}
	*ret_ids = ids;
	return (int)n;
}

/* Warns when the runs of a side were not started with the same arguments:
 * repeat runs are repeats of one workload. */
static void side_check_repeats(const struct side *s)
{
	for (size_t r = 1; r < s->nruns; r++) {
		const char *a = s->runs[0].argv ? s->runs[0].argv : "", *b = s->runs[r].argv ? s->runs[r].argv : "";
		if (strcmp(a, b) != 0)
			fprintf(stderr, "iotriage compare: warning: runs %s and %s are combined as repeats but were started "
				"differently ('%s' and '%s')\n", s->runs[0].id, s->runs[r].id, a, b);
	}
}

static void side_heading(const struct side *s, char letter, char *buf, size_t len)
{
	if (s->nruns == 1)
		snprintf(buf, len, "%c %.8s", letter, s->runs[0].id);
	else
		snprintf(buf, len, "%c (%zu runs)", letter, s->nruns);
}

int cmd_compare(int argc, char **argv, struct global_opts *g)
{
	static const struct command_doc doc = {
		"compare", "compare RUN_A RUN_B [RUN...]",
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
		"Runs are ids or unique prefixes (see 'iotriage history').",
		compare_opts,
	};
	int first = opts_parse_command(&doc, argc, argv, g, NULL, NULL);
	if (first < 0)
		return opts_command_status(first);
	size_t nsides = (size_t)(argc - first);
	if (nsides < 2)
		return opts_usage_error("compare", "expected two or more run ids (see 'iotriage history')");
	struct side *sides = calloc(nsides, sizeof(*sides));
	if (!sides)
		abort();
	char **ids = NULL;
	int nids = split_sides(argv + first, nsides, &ids, sides);
	if (nids < 0) {
		free(sides);
		return 2;
	}

	struct store *s = NULL;
	char db[4096];
	struct run_doc *runs = NULL;
	int r = stored_open("compare", g, &s, db, sizeof(db));
	if (r == 1)
		fprintf(stderr, "iotriage compare: there is no database at '%s' yet\n", db);
	if (r == 0) {
		runs = calloc((size_t)nids, sizeof(*runs));
		if (!runs)
			abort();
		r = stored_load_runs("compare", s, ids, (size_t)nids, runs);
		store_close(s);
	}
	for (int i = 0; i < nids; i++)
		free(ids[i]);
	free(ids);
	if (r != 0) {
		free(runs);
		free(sides);
		return 1;
	}
	for (size_t k = 0, next = 0; k < nsides; k++) {
		sides[k].runs = runs + next;
		next += sides[k].nruns;
		struct strbuf label = STRBUF_INIT;
		for (size_t i = 0; i < sides[k].nruns; i++)
			strbuf_addf(&label, "%s%s", i ? "+" : "", sides[k].runs[i].id);
		sides[k].label = strbuf_detach(&label);
		side_check_repeats(&sides[k]);
		side_measure(&sides[k]);
	}

	struct json j;
	json_init(&j);
	json_begin_object(&j, NULL);
	json_uint(&j, "schema_version", 1);
	json_string(&j, "command", "compare");
	json_begin_object(&j, "rule");
	json_double(&j, "noise_multiplier", 2.0);
	json_double(&j, "floor_percent", SIG_FLOOR_PCT);
	json_double(&j, "repeat_floor_percent", SIG_REPEAT_FLOOR_PCT);
	json_double(&j, "no_noise_percent", SIG_NO_NOISE_PCT);
	json_end_object(&j);
	json_begin_array(&j, "runs");
	for (size_t k = 0; k < nsides; k++)
		for (size_t i = 0; i < sides[k].nruns; i++) {
			const struct run_doc *run = &sides[k].runs[i];
			json_begin_object(&j, NULL);
			json_string(&j, "run_id", run->id);
			json_uint(&j, "side", k);
			json_string(&j, "command", run->command);
			json_string(&j, "started_at", run->started_at);
			json_string(&j, "argv", run->argv);
			json_end_object(&j);
		}
	json_end_array(&j);
	json_begin_array(&j, "comparisons");
	size_t counts[SIG_NVERDICTS] = { 0 };
	const struct side *base = &sides[0];
	for (size_t k = 1; k < nsides; k++) {
		const struct side *other = &sides[k];
		struct table t;
		char head_a[40], head_b[40];
		side_heading(base, 'A', head_a, sizeof(head_a));
		side_heading(other, 'B', head_b, sizeof(head_b));
		const char *headers[] = { "TEST", "METRIC", "TARGET", head_a, head_b, "CHANGE", "NOISE LIMIT", "VERDICT" };
		table_init(&t, 8, headers, "lllrrrrl");
		size_t rows = 0;
		for (size_t i = 0; i < base->n; i++) {
			const struct measure *a = &base->m[i], *b = match(other, base, a);
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
			json_string(&j, "run_a", base->label);
			json_string(&j, "run_b", other->label);
			json_uint(&j, "repeats_a", base->nruns);
			json_uint(&j, "repeats_b", other->nruns);
			json_string(&j, "target_a", a->target);
			json_string(&j, "target_b", b->target);
			json_double(&j, "value_a", a->value);
			json_double(&j, "value_b", b->value);
			json_double(&j, "noise_sd_a", a->noise_sd);
			json_double(&j, "noise_sd_b", b->noise_sd);
			json_uint(&j, "noise_samples_a", a->noise_n);
			json_uint(&j, "noise_samples_b", b->noise_n);
			json_string(&j, "noise_basis_a", a->noise_basis);
			json_string(&j, "noise_basis_b", b->noise_basis);
			json_double(&j, "change_percent", v.change_pct);
			json_double(&j, "threshold_percent", v.threshold_pct);
			json_string(&j, "basis", v.basis);
			json_string(&j, "verdict", sig_verdict_name(v.verdict));
			json_end_object(&j);
		}
		if (!g->json) {
			printf("%s%s (%s) against %s (%s):\n", k > 1 ? "\n" : "", other->label, other->runs[0].command,
			       base->label, base->runs[0].command);
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
	for (size_t k = 0; k < nsides; k++) {
		free(sides[k].label);
		free(sides[k].m);
	}
	free(sides);
	stored_release_runs(runs, (size_t)nids);
	free(runs);
	return 0;
}
