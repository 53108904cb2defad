/* render/hosts.c: a fleet run's hosts rendered (see hosts.h). */
#include "render/hosts.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "output/table.h"

enum { BAR_WIDTH = 30 };

void hosts_outlier_sentence(const struct host_rows *rows, char *buf, size_t len)
{
	if (rows->outlier == SIZE_MAX) {
		snprintf(buf, len, "no outlier host: %zu host%s with a figure (3 or more are needed to name one)",
			 rows->n_figures, rows->n_figures == 1 ? "" : "s");
		if (rows->n_figures >= 3)
			snprintf(buf, len, "no outlier host among %zu hosts", rows->n_figures);
		return;
	}
	const struct host_row *o = &rows->r[rows->outlier];
	snprintf(buf, len, "host %s is the outlier: %.0f%% of the median of %zu hosts (median host %s)%s", o->host,
		 o->pct_of_median, rows->n_figures, rows->r[rows->base].host,
		 o->flagged ? "; the fleet's judgement confirmed it" : "");
}

static void bar(double figure, double max, char *buf, size_t len)
{
	size_t n = 0;
	if (!isfinite(figure) || max <= 0) {
		snprintf(buf, len, "-");
		return;
	}
	n = (size_t)lround(BAR_WIDTH * figure / max);
	if (n >= len)
		n = len - 1;
	memset(buf, '#', n);
	buf[n] = '\0';
}

void hosts_print(const struct host_rows *rows, FILE *out)
{
	double max = 0;
	for (size_t i = 0; i < rows->n; i++)
		if (isfinite(rows->r[i].figure) && rows->r[i].figure > max)
			max = rows->r[i].figure;
	static const char *const headers[] = { "HOST", "HOSTNAME", "STATUS", "RUN", "TEST", "RATE", "% MEDIAN", "BAR" };
	struct table t;
	table_init(&t, 8, headers, "lllllrrl");
	for (size_t i = 0; i < rows->n; i++) {
		const struct host_row *h = &rows->r[i];
		char rate[48] = "-", pct[16] = "-", b[BAR_WIDTH + 1], run[20];
		if (isfinite(h->figure))
			measure_format(MU_BYTES_PER_S, h->figure, rate, sizeof(rate));
		if (isfinite(h->pct_of_median))
			snprintf(pct, sizeof(pct), "%.0f%%", h->pct_of_median);
		bar(h->figure, max, b, sizeof(b));
		snprintf(run, sizeof(run), "%.8s", h->run_id[0] ? h->run_id : "-");
		const char *cells[] = { h->host, h->hostname[0] ? h->hostname : "-", h->status, run,
					h->figure_test ? h->figure_test : "-", rate, pct, b };
		table_add_row(&t, cells);
	}
	fprintf(out, "hosts:\n");
	table_print(&t, out);
	table_release(&t);
	for (size_t i = 0; i < rows->n; i++)
		if (rows->r[i].reason)
			fprintf(out, "  %s: %s\n", rows->r[i].host, rows->r[i].reason);
	char sentence[512];
	hosts_outlier_sentence(rows, sentence, sizeof(sentence));
	fprintf(out, "%s\n", sentence);
}

void hosts_json(struct json *j, const struct host_rows *rows)
{
	json_begin_array(j, "hosts");
	for (size_t i = 0; i < rows->n; i++) {
		const struct host_row *h = &rows->r[i];
		json_begin_object(j, NULL);
		json_string(j, "host", h->host);
		json_string(j, "hostname", h->hostname);
		json_string(j, "status", h->status);
		json_string(j, "reason", h->reason);
		json_string(j, "run_id", h->run_id[0] ? h->run_id : NULL);
		json_string(j, "figure_test", h->figure_test);
		json_double(j, "bw_bytes_per_s", h->figure);
		json_double(j, "percent_of_median", h->pct_of_median);
		json_bool(j, "flagged_by_fleet", h->flagged);
		json_end_object(j);
	}
	json_end_array(j);
	json_string(j, "median_host", rows->base == SIZE_MAX ? NULL : rows->r[rows->base].host);
	json_string(j, "outlier_host", rows->outlier == SIZE_MAX ? NULL : rows->r[rows->outlier].host);
	char sentence[512];
	hosts_outlier_sentence(rows, sentence, sizeof(sentence));
	json_string(j, "outlier", sentence);
}
