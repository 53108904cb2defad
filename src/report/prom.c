/* report/prom.c: Prometheus text format for the textfile collector (see export.h). */
#include <math.h>
#include <string.h>
#include <time.h>

#include "report/export.h"

static void label_value(struct strbuf *out, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '\\' || *s == '"')
			strbuf_addch(out, '\\');
		if (*s == '\n') {
			strbuf_adds(out, "\\n");
			continue;
		}
		strbuf_addch(out, *s);
	}
}

static void labels(struct strbuf *out, const struct run_doc *run, const struct measure *m)
{
	strbuf_adds(out, "{run_id=\"");
	label_value(out, run->id);
	strbuf_adds(out, "\",command=\"");
	label_value(out, run->command);
	strbuf_adds(out, "\",host=\"");
	label_value(out, run->host);
	if (m) {
		strbuf_adds(out, "\",test=\"");
		label_value(out, m->test);
		strbuf_adds(out, "\",target=\"");
		label_value(out, m->target);
	}
	strbuf_adds(out, "\"}");
}

struct family {
	const char *name, *help, *metric;
	double divisor;
};

static const struct family families[] = {
	{ "iotriage_bandwidth_bytes_per_second", "Bandwidth measured by an iotriage test.", "bandwidth", 1 },
	{ "iotriage_iops", "I/O operations per second measured by an iotriage test.", "IOPS", 1 },
	{ "iotriage_latency_p50_seconds", "Median I/O latency of an iotriage test.", "p50 latency", 1e9 },
	{ "iotriage_latency_p99_seconds", "99th percentile I/O latency of an iotriage test.", "p99 latency", 1e9 },
	{ "iotriage_latency_p99_9_seconds", "99.9th percentile I/O latency of an iotriage test.", "p99.9 latency", 1e9 },
	{ "iotriage_latency_max_seconds", "Largest latency an iotriage test reported.", "max latency", 1e9 },
};

/* The first measure of RUN with the same test, metric and target as M, so
 * a repeated series is written once (Prometheus refuses duplicates). */
static bool first_of_its_series(const struct run_doc *run, size_t idx)
{
	const struct measure *m = &run->m[idx];
	for (size_t i = 0; i < idx; i++)
		if (measure_same_test(&run->m[i], m) && strcmp(run->m[i].target, m->target) == 0 &&
		    isfinite(run->m[i].value))
			return false;
	return true;
}

void report_prom(const struct run_doc *runs, size_t n, struct strbuf *out)
{
	for (size_t f = 0; f < sizeof(families) / sizeof(families[0]); f++) {
		bool header = false;
		for (size_t r = 0; r < n; r++)
			for (size_t i = 0; i < runs[r].n; i++) {
				const struct measure *m = &runs[r].m[i];
				if (strcmp(m->metric, families[f].metric) != 0 || !isfinite(m->value) ||
				    !first_of_its_series(&runs[r], i))
					continue;
				if (!header) {
					strbuf_addf(out, "# HELP %s %s\n# TYPE %s gauge\n", families[f].name, families[f].help,
						    families[f].name);
					header = true;
				}
				strbuf_adds(out, families[f].name);
				labels(out, &runs[r], m);
				strbuf_addf(out, " %.15g\n", m->value / families[f].divisor);
			}
	}
	strbuf_adds(out, "# HELP iotriage_run_start_timestamp_seconds When an iotriage run started (unix seconds).\n"
			 "# TYPE iotriage_run_start_timestamp_seconds gauge\n");
	for (size_t r = 0; r < n; r++) {
		struct tm tm = { 0 };
		const char *end = strptime(runs[r].started_at, "%Y-%m-%dT%H:%M:%SZ", &tm);
		strbuf_adds(out, "iotriage_run_start_timestamp_seconds");
		labels(out, &runs[r], NULL);
		strbuf_addf(out, " %lld\n", end ? (long long)timegm(&tm) : 0LL);
	}
}
