/* report/html.c: the self-contained HTML report (see html.h). */
#include "report/html.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/strbuf.h"
#include "report/hosts.h"
#include "report/significance.h"
#include "report/svg.h"

size_t report_groups(const struct run_doc *runs, size_t n, struct report_group **ret)
{
	size_t count = 0, cap = 0;
	struct report_group *g = NULL;
	for (size_t r = 0; r < n; r++)
		for (size_t i = 0; i < runs[r].n; i++) {
			const struct measure *m = &runs[r].m[i];
			bool seen = false;
			for (size_t k = 0; k < count && !seen; k++)
				seen = measure_same_test(&runs[g[k].run].m[g[k].index], m);
			if (seen)
				continue;
			if (count == cap) {
				cap = cap ? 2 * cap : 16;
				g = xreallocarray(g, cap, sizeof(*g));
			}
			g[count++] = (struct report_group){ r, i };
		}
	*ret = g;
	return count;
}

static void esc(struct strbuf *out, const char *s)
{
	xml_escape(out, s);
}

static void short_id(const char *id, char *buf, size_t len)
{
	snprintf(buf, len, "%.8s", id);
}

static const char style[] =
	"body{font-family:sans-serif;margin:24px;color:#222;max-width:1100px}"
	"table{border-collapse:collapse;margin:8px 0 20px}"
	"th,td{border:1px solid #ccc;padding:3px 8px;font-size:13px;text-align:left;vertical-align:top}"
	"td.num{text-align:right;white-space:nowrap}"
	".better{color:#2e7d32;font-weight:bold}.worse{color:#c62828;font-weight:bold}"
	".not-significant{color:#666}.outlier-row td{background:#fdecea}"
	"section.test{margin-bottom:28px}code{font-size:12px}"
	"svg.chart{display:block;margin:6px 0}";

static void summary_section(const struct run_doc *runs, size_t n, struct strbuf *out)
{
	strbuf_adds(out, "<section id=\"summary\"><h2>Summary</h2>\n<table class=\"runs\"><tr><th>run</th>"
			 "<th>command</th><th>host</th><th>started</th><th>exit</th><th>measurements</th>"
			 "<th>command line</th></tr>\n");
	for (size_t r = 0; r < n; r++) {
		strbuf_adds(out, "<tr><td><code>");
		esc(out, runs[r].id);
		strbuf_adds(out, "</code></td><td>");
		esc(out, runs[r].command);
		strbuf_adds(out, "</td><td>");
		esc(out, runs[r].host);
		strbuf_adds(out, "</td><td>");
		esc(out, runs[r].started_at);
		strbuf_addf(out, "</td><td class=\"num\">%d</td><td class=\"num\">%zu</td><td><code>", runs[r].exit_status,
			    runs[r].n);
		esc(out, runs[r].argv);
		strbuf_adds(out, "</code></td></tr>\n");
	}
	strbuf_adds(out, "</table>\n");
	if (n < 2) {
		strbuf_adds(out, "</section>\n");
		return;
	}
	/* Each later run against the first, measure by measure (same test, metric and target). */
	strbuf_addf(out, "<h3>Changes against the first run</h3>\n<p>A change within the runs' own noise "
			 "(twice the combined standard deviation of their samples, Student's t for few samples, and "
			 "at least %.0f%% between single runs; %.0f%% when neither run has samples) is not significant.</p>\n"
			 "<table class=\"changes\"><tr><th>test</th><th>metric</th><th>target</th><th>run</th><th>first run</th><th>this run</th><th>change</th>"
			 "<th>needed</th><th>verdict</th></tr>\n", SIG_FLOOR_PCT, SIG_NO_NOISE_PCT);
	for (size_t r = 1; r < n; r++)
		for (size_t i = 0; i < runs[r].n; i++) {
			const struct measure *b = &runs[r].m[i], *a = NULL;
			for (size_t k = 0; k < runs[0].n && !a; k++)
				if (measure_same_test(&runs[0].m[k], b) && strcmp(runs[0].m[k].target, b->target) == 0)
					a = &runs[0].m[k];
			if (!a)
				continue;
			struct sig_judgement j;
			sig_judge(a, b, &j);
			char va[48], vb[48], id[16];
			measure_format(a->unit, a->value, va, sizeof(va));
			measure_format(b->unit, b->value, vb, sizeof(vb));
			short_id(runs[r].id, id, sizeof(id));
			const char *v = sig_verdict_name(j.verdict);
			strbuf_adds(out, "<tr><td>");
			esc(out, b->test);
			strbuf_addf(out, "</td><td>%s</td><td>", b->metric);
			esc(out, b->target);
			strbuf_adds(out, "</td><td><code>");
			esc(out, id);
			strbuf_addf(out, "</code></td><td class=\"num\">%s</td><td class=\"num\">%s</td>", va, vb);
			if (isfinite(j.change_pct))
				strbuf_addf(out, "<td class=\"num\">%+.1f%%</td><td class=\"num\">&#177;%.1f%%</td>", j.change_pct,
					    j.threshold_pct);
			else
				strbuf_adds(out, "<td>-</td><td>-</td>");
			strbuf_adds(out, "<td class=\"");
			for (const char *c = v; *c; c++)
				strbuf_addch(out, *c == ' ' ? '-' : *c);
			strbuf_addf(out, "\">%s</td></tr>\n", v);
		}
	strbuf_adds(out, "</table></section>\n");
}

/* A fleet run's hosts: one bar per host (its rate; the outlier host in red)
 * and a row per host with its status. */
static void hosts_section(const struct run_doc *fleet, struct strbuf *out)
{
	struct host_rows rows;
	if (host_rows_load(fleet, &rows) < 0)
		return;
	struct svg_bar *bars = xcalloc(rows.n ? rows.n : 1, sizeof(*bars));
	for (size_t i = 0; i < rows.n; i++)
		bars[i] = (struct svg_bar){ rows.r[i].host, rows.r[i].figure, i == rows.outlier || rows.r[i].flagged, 0 };
	strbuf_adds(out, "<section class=\"hosts\"><h2>Hosts of fleet run <code>");
	esc(out, fleet->id);
	strbuf_adds(out, "</code></h2>\n");
	struct strbuf title = STRBUF_INIT;
	strbuf_addf(&title, "fleet %.8s: rate per host", fleet->id);
	svg_bar_chart(out, title.buf, true, MU_BYTES_PER_S, bars, rows.n);
	strbuf_release(&title);
	strbuf_adds(out, "<table class=\"hosts\"><tr><th>host</th><th>host name</th><th>status</th><th>run</th>"
			 "<th>test</th><th>rate</th><th>% of median</th></tr>\n");
	for (size_t i = 0; i < rows.n; i++) {
		const struct host_row *h = &rows.r[i];
		char v[48], pct[16] = "-";
		measure_format(MU_BYTES_PER_S, h->figure, v, sizeof(v));
		if (isfinite(h->pct_of_median))
			snprintf(pct, sizeof(pct), "%.0f%%", h->pct_of_median);
		strbuf_addf(out, "<tr%s><td>", bars[i].outlier ? " class=\"outlier-row\"" : "");
		esc(out, h->host);
		strbuf_adds(out, "</td><td>");
		esc(out, h->hostname);
		strbuf_adds(out, "</td><td>");
		esc(out, h->status);
		if (h->reason) {
			strbuf_adds(out, ": ");
			esc(out, h->reason);
		}
		strbuf_addf(out, "</td><td><code>%.8s</code></td><td>", h->run_id);
		esc(out, h->figure_test ? h->figure_test : "-");
		strbuf_addf(out, "</td><td class=\"num\">%s</td><td class=\"num\">%s</td></tr>\n", v, pct);
	}
	strbuf_adds(out, "</table>\n");
	if (rows.outlier != SIZE_MAX) {
		strbuf_adds(out, "<p>Outlier host: ");
		esc(out, rows.r[rows.outlier].host);
		strbuf_addf(out, ", %.0f%% of the median of %zu hosts.</p>\n", rows.r[rows.outlier].pct_of_median,
			    rows.n_figures);
	}
	strbuf_adds(out, "</section>\n");
	free(bars);
	host_rows_release(&rows);
}

static void test_section(const struct run_doc *runs, size_t n, const struct measure *first, size_t number,
			 struct strbuf *out)
{
	/* Bars: every run's measures of this test and metric, runs in order. */
	size_t cap = 0, count = 0;
	for (size_t r = 0; r < n; r++)
		cap += runs[r].n;
	struct svg_bar *bars = calloc(cap ? cap : 1, sizeof(*bars));
	const struct measure **ms = calloc(cap ? cap : 1, sizeof(*ms));
	char **labels = calloc(cap ? cap : 1, sizeof(*labels));
	if (!bars || !ms || !labels)
		abort();
	bool any_outlier = false;
	for (size_t r = 0; r < n; r++)
		for (size_t i = 0; i < runs[r].n; i++) {
			const struct measure *m = &runs[r].m[i];
			if (!measure_same_test(m, first))
				continue;
			struct strbuf label = STRBUF_INIT;
			strbuf_adds(&label, m->target);
			if (n > 1)
				strbuf_addf(&label, " (run %.8s)", runs[r].id);
			labels[count] = strbuf_detach(&label);
			bars[count] = (struct svg_bar){ labels[count], m->value, m->outlier, (unsigned)r };
			any_outlier |= m->outlier;
			ms[count++] = m;
		}
	strbuf_addf(out, "<section class=\"test%s\" id=\"test-%zu\">\n<h2>", first->per_disk ? " per-disk" : "", number);
	esc(out, first->test);
	strbuf_addf(out, ": %s</h2>\n", first->metric);
	struct strbuf title = STRBUF_INIT;
	strbuf_addf(&title, "%s: %s%s", first->test, first->metric, first->per_disk ? " per disk" : "");
	svg_bar_chart(out, title.buf, first->higher_is_better, first->unit, bars, count);
	strbuf_release(&title);
	if (any_outlier)
		strbuf_adds(out, "<p>Bars in red are outliers: disks whose read was judged slow or fast against their set.</p>\n");
	strbuf_adds(out, "<table class=\"results\"><tr><th>target</th><th>run</th><th>value</th><th>noise (sd)</th>"
			 "<th>status</th><th>parameters</th></tr>\n");
	for (size_t i = 0; i < count; i++) {
		const struct measure *m = ms[i];
		char v[48], sd[64] = "-";
		measure_format(m->unit, m->value, v, sizeof(v));
		if (isfinite(m->noise_sd)) {
			char s[48];
			measure_format(m->unit, m->noise_sd, s, sizeof(s));
			snprintf(sd, sizeof(sd), "%s, %u samples", s, m->noise_n);
		}
		strbuf_addf(out, "<tr%s><td>", m->outlier ? " class=\"outlier-row\"" : "");
		esc(out, m->target);
		strbuf_addf(out, "</td><td><code>%.8s</code></td><td class=\"num\">%s</td><td class=\"num\">%s</td><td>",
			    runs[bars[i].series].id, v, sd);
		esc(out, m->status);
		if (m->reason) {
			strbuf_adds(out, ": ");
			esc(out, m->reason);
		}
		strbuf_adds(out, "</td><td><code>");
		esc(out, m->params);
		strbuf_adds(out, "</code></td></tr>\n");
	}
	strbuf_adds(out, "</table>\n</section>\n");
	for (size_t i = 0; i < count; i++)
		free(labels[i]);
	free(labels);
	free(bars);
	free(ms);
}

/* A run's latency percentile curves, one line per latency its document
 * carries (none: no section). */
static void curves_section(const struct run_doc *run, struct strbuf *out)
{
	if (!run->ncurves)
		return;
	char id[16];
	short_id(run->id, id, sizeof(id));
	strbuf_addf(out, "<section class=\"latency-curves\" id=\"latency-%s\">\n<h2>Latency percentiles: run %s (",
		    id, id);
	esc(out, run->command);
	strbuf_adds(out, ")</h2>\n");
	struct strbuf title = STRBUF_INIT;
	strbuf_addf(&title, "Latency percentiles of run %s", id);
	svg_curve_chart(out, title.buf, run->curves, run->ncurves);
	strbuf_release(&title);
	strbuf_adds(out, "</section>\n");
}

/* A job's series of KEY ([job, time_ms, ddir, value] rows) as one line
 * per fio job number and direction, each value times SCALE. Returns the lines. */
static size_t series_lines(const struct jv *rows, const char *name, double scale, struct svg_series **ret)
{
	struct svg_series *lines = NULL;
	size_t n = 0, cap = 0;
	const struct jv *row;
	for (size_t i = 0; (row = jv_at(rows, i)); i++) {
		char label[sizeof(lines->label)];
		int d = jv_int(jv_at(row, 2), 0);
		snprintf(label, sizeof(label), "[%s] job %d %s", name, jv_int(jv_at(row, 0), 0), d ? "write" : "read");
		size_t k = 0;
		while (k < n && strcmp(lines[k].label, label) != 0)
			k++;
		if (k == n) {
			if (n == cap) {
				cap = cap ? 2 * cap : 4;
				lines = xreallocarray(lines, cap, sizeof(*lines));
			}
			lines[n] = (struct svg_series){ 0 };
			snprintf(lines[n++].label, sizeof(lines->label), "%s", label);
		}
		struct svg_series *l = &lines[k];
		l->t_ms = xreallocarray(l->t_ms, l->n + 1, sizeof(double));
		l->v = xreallocarray(l->v, l->n + 1, sizeof(double));
		l->t_ms[l->n] = jv_number(jv_at(row, 1), 0);
		l->v[l->n++] = jv_number(jv_at(row, 3), 0) * scale;
	}
	*ret = lines;
	return n;
}

/* A run's fio_job series (bandwidth and completion latency over time), a
 * chart of each per job that has them (fio's write_bw_log, write_lat_log). */
static void series_section(const struct run_doc *run, struct strbuf *out)
{
	static const struct { const char *key, *what; double scale; enum measure_unit unit; } kinds[] = {
		{ "bw_kib_per_s", "Bandwidth", 1024, MU_BYTES_PER_S }, { "clat_ns", "Completion latency", 1, MU_NS },
	};
	const struct jv *job;
	for (size_t j = 0; (job = jv_at(jv_path(run->doc, "fio_job.jobs"), j)); j++) {
		const char *name = jv_string(jv_get(job, "name"), "?");
		for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
			struct svg_series *lines = NULL;
			size_t n = series_lines(jv_get(jv_get(job, "series"), kinds[k].key), name, kinds[k].scale, &lines);
			if (n) {
				struct strbuf title = STRBUF_INIT;
				strbuf_addf(&title, "%s over time: [%s]", kinds[k].what, name);
				strbuf_adds(out, "<section class=\"series\">\n");
				svg_series_chart(out, title.buf, kinds[k].unit, lines, n);
				strbuf_adds(out, "</section>\n");
				strbuf_release(&title);
			}
			for (size_t i = 0; i < n; i++) {
				free(lines[i].t_ms);
				free(lines[i].v);
			}
			free(lines);
		}
	}
}

void report_html(const struct run_doc *runs, size_t n, const char *generated_at, struct strbuf *out)
{
	strbuf_adds(out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
			 "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
			 "<title>iotriage report</title>\n<style>");
	strbuf_adds(out, style);
	strbuf_adds(out, "</style></head>\n<body>\n<h1>iotriage report</h1>\n<p>Generated ");
	esc(out, generated_at);
	strbuf_addf(out, " from %zu run%s.</p>\n", n, n == 1 ? "" : "s");
	summary_section(runs, n, out);
	for (size_t r = 0; r < n; r++)
		if (run_doc_is_fleet(&runs[r]))
			hosts_section(&runs[r], out);
	for (size_t r = 0; r < n; r++) {
		curves_section(&runs[r], out);
		series_section(&runs[r], out);
	}
	struct report_group *g = NULL;
	size_t ng = report_groups(runs, n, &g);
	if (ng == 0)
		strbuf_adds(out, "<p>These runs hold no measurements to chart.</p>\n");
	for (size_t k = 0; k < ng; k++)
		test_section(runs, n, &runs[g[k].run].m[g[k].index], k + 1, out);
	free(g);
	strbuf_adds(out, "</body></html>\n");
}
