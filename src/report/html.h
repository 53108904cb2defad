/* report/html.h: one self-contained HTML page for a set of stored runs.
 *
 * No scripts and no network fetches (a Content-Security-Policy of
 * default-src 'none' says so to the browser too): inline CSS and inline SVG.
 * Sections: a summary of the runs (and, with two or more, each change
 * against the first run under the noise rule of report/significance.h),
 * one bar chart per test and metric (marked higher or lower is better;
 * disks of a read test as a per-disk chart with outliers highlighted), a
 * table under each chart, and the exact parameters of every test. Every
 * string from a document is escaped.
 */
#ifndef IOTRIAGE_REPORT_HTML_H
#define IOTRIAGE_REPORT_HTML_H

#include <stddef.h>

#include "basic/strbuf.h"
#include "report/measure.h"

void report_html(const struct run_doc *runs, size_t n, const char *generated_at, struct strbuf *out);

/* The charts a set of runs gives: each distinct (test, metric) in the
 * order first seen. Fills RET (malloc'd) with the index in RUNS[r].m of a
 * representative measure; returns the count. Shared with the CSV order. */
struct report_group {
	size_t run, index;   /* the first measure of the group */
};
size_t report_groups(const struct run_doc *runs, size_t n, struct report_group **ret);

#endif
