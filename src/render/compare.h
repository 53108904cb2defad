/* render/compare.h: compare's output: the document's head, a table per side
 * judged against the first (and its rows in the document), the summary. */
#ifndef IOTRIAGE_RENDER_COMPARE_H
#define IOTRIAGE_RENDER_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "output/json.h"
#include "triage/results/compare.h"

/* The document's head: schema, command, the rule and every side's runs. */
void compare_json_head(struct json *j, const struct compare_side *sides, size_t nsides);
/* Side K's judged ROWS[0..N) against the first: its table (unless JSON) and
 * its comparisons in J; each verdict counted in COUNTS. */
void compare_side_render(const struct compare_side *sides, size_t k, const struct compare_row *rows, size_t n,
			 bool json, struct json *j, size_t *counts);
/* The counts as "summary" closing J, then J on stdout with JSON, else the
 * sentence. */
void compare_summary_print(struct json *j, const size_t *counts, bool json);

#endif
