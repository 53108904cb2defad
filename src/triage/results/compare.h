/* triage/results/compare.h: compare's sides and judgement. A side is one stored
 * run, or repeat runs of the same workload written ID+ID+ID, whose spread
 * between runs is their noise; each later side is judged against the first,
 * test by test, by report/significance's rule. Nothing is printed. */
#ifndef IOTRIAGE_TRIAGE_COMPARE_H
#define IOTRIAGE_TRIAGE_COMPARE_H

#include <stddef.h>

#include "report/hosts.h"
#include "report/measure.h"
#include "report/significance.h"

/* One side of the comparison: its runs (within the loaded array) and its
 * measurements, combined across the runs when there are several. */
struct compare_side {
	struct run_doc *runs;
	size_t nruns;
	char *label;            /* the run ids joined by '+' */
	struct measure *m;      /* strings borrowed from runs[0] */
	size_t n;
};

/* Splits each of OPERANDS[0..NSIDES) on '+' into *RET_IDS (allocated, the
 * ids of every side in order) and each side's nruns. Returns the number of
 * ids, or -EINVAL for an empty id (nothing allocated). */
int compare_sides_split(char **operands, size_t nsides, char ***ret_ids, struct compare_side *sides);
void compare_ids_free(char **ids, size_t n);

/* Points the sides at their runs in RUNS (loaded in the order of the ids),
 * labels them and fills their (combined) measurements. */
void compare_sides_attach(struct compare_side *sides, size_t nsides, struct run_doc *runs);
void compare_sides_release(struct compare_side *sides, size_t nsides);

/* One judged pair: A of the first side, B of the other. */
struct compare_row {
	const struct measure *a, *b;
	struct sig_judgement v;
};

/* Every measurement of BASE that OTHER has too (same test, metric and
 * target; or, when each side has exactly one target for that test, that
 * one), judged. *RET is malloc'd; returns the count. */
size_t compare_sides_judge(const struct compare_side *base, const struct compare_side *other,
			   struct compare_row **ret);

/* compare --hosts: the sides of a fleet run's hosts in ROWS, the BASE host
 * first, each labelled RUN@HOST; their runs in *RET_RUNS and the sides in
 * *RET_SIDES (both malloc'd). Returns the count. */
size_t compare_sides_of_hosts(const char *fleet_id, const struct host_rows *rows, size_t base, struct run_doc **ret_runs,
			      struct compare_side **ret_sides);

#endif
