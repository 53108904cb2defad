/* report/svg.h: inline SVG bar charts for the HTML report, and the
 * escaping every report uses for text that came from a document.
 *
 * A chart is one <svg class="chart"> with one <rect class="bar"> per bar
 * (class "bar outlier" for a highlighted one), horizontal like the
 * published benchmark's, titled and marked "higher is better" or "lower
 * is better". Tests count these elements in the rendered page.
 */
#ifndef IOTRIAGE_REPORT_SVG_H
#define IOTRIAGE_REPORT_SVG_H

#include <stdbool.h>
#include <stddef.h>

#include "basic/strbuf.h"
#include "report/measure.h"

struct svg_bar {
	const char *label;
	double value;          /* NAN: drawn as "not measured" with no bar */
	bool outlier;
	unsigned series;       /* colour index (the run) */
};

/* Appends S with &, <, >, " and ' escaped (for text and attribute values). */
void xml_escape(struct strbuf *out, const char *s);

void svg_bar_chart(struct strbuf *out, const char *title, bool higher_is_better, enum measure_unit unit,
		   const struct svg_bar *bars, size_t n);

/* A latency percentile curve: <svg class="curve">, the percentiles
 * p50..p99.99 across (evenly), latency up on a log scale (decades), one
 * <polyline class="curve-line"> per curve through a <circle class="point">
 * per percentile it has (data-value in ns), and a legend. At most
 * SVG_CURVES_MAX curves; the rest are counted in a note. */
#define SVG_CURVES_MAX 12
void svg_curve_chart(struct strbuf *out, const char *title, const struct lat_curve *curves, size_t n);

/* A figure over time (a fio_job's series: bandwidth, latency):
 * <svg class="series">, time in seconds across, the value up on a linear
 * scale from 0, one <polyline class="series-line"> per line (data-points:
 * how many), a legend. At most SVG_CURVES_MAX lines; the rest are counted. */
struct svg_series {
	char label[96];
	double *t_ms, *v;        /* N points, in time order */
	size_t n;
};
void svg_series_chart(struct strbuf *out, const char *title, enum measure_unit unit, const struct svg_series *s,
		      size_t n);

#endif
