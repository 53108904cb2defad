/* render/compare.c: compare's tables, sentences and document (see compare.h). */
#include "render/compare.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "output/table.h"

static void side_heading(const struct compare_side *s, char letter, char *buf, size_t len)
{
	if (s->nruns == 1)
		snprintf(buf, len, "%c %.8s", letter, s->runs[0].id);
	else
		snprintf(buf, len, "%c (%zu runs)", letter, s->nruns);
}

void compare_json_head(struct json *j, const struct compare_side *sides, size_t nsides)
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
	json_double(j, "noise_limit_percent", row->v.noise_pct);
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

void compare_side_render(const struct compare_side *sides, size_t k, const struct compare_row *rows, size_t n,
			 bool json, struct json *j, size_t *counts)
{
	const struct compare_side *base = &sides[0], *other = &sides[k];
	struct table t;
	char head_a[40], head_b[40];
	side_heading(base, 'A', head_a, sizeof(head_a));
	side_heading(other, 'B', head_b, sizeof(head_b));
	const char *headers[] = { "TEST", "METRIC", "TARGET", head_a, head_b, "CHANGE", "NOISE LIMIT", "VERDICT" };
	table_init(&t, 8, headers, "lllrrrrl");
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
}

void compare_summary_print(struct json *j, const size_t *counts, bool json)
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
