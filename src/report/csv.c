/* report/csv.c: one CSV row per measurement (see export.h). */
#include <math.h>
#include <string.h>

#include "report/export.h"

static void field(struct strbuf *out, const char *s, bool last)
{
	s = s ? s : "";
	if (strpbrk(s, ",\"\r\n")) {
		strbuf_addch(out, '"');
		for (; *s; s++) {
			if (*s == '"')
				strbuf_addch(out, '"');
			strbuf_addch(out, *s);
		}
		strbuf_addch(out, '"');
	} else {
		strbuf_adds(out, s);
	}
	strbuf_adds(out, last ? "\r\n" : ",");
}

static void number(struct strbuf *out, double v)
{
	if (isfinite(v))
		strbuf_addf(out, "%.17g", v);
	strbuf_addch(out, ',');
}

void report_csv(const struct run_doc *runs, size_t n, struct strbuf *out)
{
	strbuf_adds(out, "run_id,command,started_at,host,test,metric,unit,higher_is_better,target,value,"
			 "noise_stddev,noise_samples,status,reason,parameters\r\n");
	for (size_t r = 0; r < n; r++)
		for (size_t i = 0; i < runs[r].n; i++) {
			const struct measure *m = &runs[r].m[i];
			field(out, runs[r].id, false);
			field(out, runs[r].command, false);
			field(out, runs[r].started_at, false);
			field(out, runs[r].host, false);
			field(out, m->test, false);
			field(out, m->metric, false);
			field(out, measure_unit_name(m->unit), false);
			field(out, m->higher_is_better ? "true" : "false", false);
			field(out, m->target, false);
			number(out, m->value);
			number(out, m->noise_sd);
			strbuf_addf(out, "%u,", m->noise_n);
			field(out, m->status, false);
			field(out, m->reason, false);
			field(out, m->params, true);
		}
}
