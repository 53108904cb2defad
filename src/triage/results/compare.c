/* compare's sides and judgement (see triage/results/compare.h). */
#include "triage/results/compare.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "basic/strbuf.h"

/* The measure of SIDE matching BASE's M: same test, metric and target;
 * else, when each side has exactly one target for that test, that one (two
 * pools, two devices compared with each other). */
static const struct measure *match(const struct compare_side *side, const struct compare_side *base, const struct measure *m)
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
static void side_measure(struct compare_side *s)
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

int compare_sides_split(char **operands, size_t nsides, char ***ret_ids, struct compare_side *sides)
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
				compare_ids_free(ids, n);
				return -EINVAL;
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

void compare_ids_free(char **ids, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(ids[i]);
	free(ids);
}

void compare_sides_attach(struct compare_side *sides, size_t nsides, struct run_doc *runs)
{
	for (size_t k = 0, next = 0; k < nsides; k++) {
		sides[k].runs = runs + next;
		next += sides[k].nruns;
		struct strbuf label = STRBUF_INIT;
		for (size_t i = 0; i < sides[k].nruns; i++)
			strbuf_addf(&label, "%s%s", i ? "+" : "", sides[k].runs[i].id);
		sides[k].label = strbuf_detach(&label);
		side_measure(&sides[k]);
	}
}

void compare_sides_release(struct compare_side *sides, size_t nsides)
{
	for (size_t k = 0; k < nsides; k++) {
		free(sides[k].label);
		free(sides[k].m);
	}
}

size_t compare_sides_judge(const struct compare_side *base, const struct compare_side *other,
			   struct compare_row **ret)
{
	struct compare_row *rows = xcalloc(base->n ? base->n : 1, sizeof(*rows));
	size_t n = 0;
	for (size_t i = 0; i < base->n; i++) {
		const struct measure *a = &base->m[i], *b = match(other, base, a);
		if (!b)
			continue;
		rows[n].a = a;
		rows[n].b = b;
		sig_judge(a, b, &rows[n].v);
		n++;
	}
	*ret = rows;
	return n;
}

size_t compare_sides_of_hosts(const char *fleet_id, const struct host_rows *rows, size_t base, struct run_doc **ret_runs,
			      struct compare_side **ret_sides)
{
	size_t n = host_rows_run_docs(rows, base, ret_runs);
	struct compare_side *sides = xcalloc(n, sizeof(*sides));
	for (size_t k = 0; k < n; k++)
		sides[k].nruns = 1;
	compare_sides_attach(sides, n, *ret_runs);
	for (size_t k = 0; k < n; k++) { /* each side named as compare accepts it: RUN@HOST */
		free(sides[k].label);
		struct strbuf l = STRBUF_INIT;
		strbuf_addf(&l, "%.8s@%s", fleet_id, (*ret_runs)[k].host);
		sides[k].label = strbuf_detach(&l);
	}
	*ret_sides = sides;
	return n;
}
