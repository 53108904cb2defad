/* report/svg.c: horizontal bar charts as inline SVG (see svg.h). */
#include "report/svg.h"

#include <math.h>
#include <stdio.h>

void xml_escape(struct strbuf *out, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&':
			strbuf_adds(out, "&amp;");
			break;
		case '<':
			strbuf_adds(out, "&lt;");
			break;
		case '>':
			strbuf_adds(out, "&gt;");
			break;
		case '"':
			strbuf_adds(out, "&quot;");
			break;
		case '\'':
			strbuf_adds(out, "&#39;");
			break;
		default:
			strbuf_addch(out, *s);
		}
	}
}

/* Colours for series (runs); an outlier is always red. */
static const char *const palette[] = { "#3b6ea5", "#e08a1e", "#3d9b54", "#8a5cb8", "#6b6b6b", "#1f9bb0" };
#define OUTLIER_COLOUR "#c62828"

#define LABEL_W 330
#define BAR_W 420
#define VALUE_W 110
#define ROW_H 24
#define TOP 44

void svg_bar_chart(struct strbuf *out, const char *title, bool higher_is_better, enum measure_unit unit,
		   const struct svg_bar *bars, size_t n)
{
	double max = 0;
	for (size_t i = 0; i < n; i++)
		if (isfinite(bars[i].value) && bars[i].value > max)
			max = bars[i].value;
	unsigned width = LABEL_W + BAR_W + VALUE_W, height = TOP + (unsigned)n * ROW_H + 10;
	strbuf_addf(out, "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%u\" height=\"%u\" "
			 "viewBox=\"0 0 %u %u\" role=\"img\" aria-label=\"", width, height, width, height);
	xml_escape(out, title);
	strbuf_adds(out, "\">\n<text class=\"title\" x=\"4\" y=\"16\" font-weight=\"bold\">");
	xml_escape(out, title);
	strbuf_addf(out, "</text>\n<text class=\"direction\" x=\"4\" y=\"34\" font-size=\"12\">%s (%s)</text>\n",
		    higher_is_better ? "&gt; Higher is better" : "&lt; Lower is better", measure_unit_name(unit));
	for (size_t i = 0; i < n; i++) {
		const struct svg_bar *b = &bars[i];
		unsigned y = TOP + (unsigned)i * ROW_H;
		char value[48];
		measure_format(unit, b->value, value, sizeof(value));
		strbuf_addf(out, "<text class=\"label\" x=\"%u\" y=\"%u\" text-anchor=\"end\" font-size=\"12\">",
			    LABEL_W - 6, y + 15);
		xml_escape(out, b->label);
		strbuf_adds(out, "</text>\n");
		/* Divide first: BAR_W * value overflows to inf for values near DBL_MAX. */
		double w = isfinite(b->value) && max > 0 ? (double)BAR_W * (b->value / max) : 0;
		if (isfinite(b->value)) {
			strbuf_addf(out, "<rect class=\"bar%s\" x=\"%u\" y=\"%u\" width=\"%.1f\" height=\"%u\" fill=\"%s\" "
					 "data-value=\"%.6g\"><title>",
				    b->outlier ? " outlier" : "", LABEL_W, y + 3, w < 1 ? 1 : w, ROW_H - 6,
				    b->outlier ? OUTLIER_COLOUR : palette[b->series % (sizeof(palette) / sizeof(palette[0]))],
				    b->value);
			xml_escape(out, b->label);
			strbuf_addf(out, ": %s%s</title></rect>\n", value, b->outlier ? " (outlier)" : "");
		}
		strbuf_addf(out, "<text class=\"value\" x=\"%.1f\" y=\"%u\" font-size=\"12\">%s%s</text>\n",
			    LABEL_W + (w < 1 ? 1 : w) + 4, y + 15, isfinite(b->value) ? value : "not measured",
			    b->outlier ? " (outlier)" : "");
	}
	strbuf_adds(out, "</svg>\n");
}

#define CURVE_X0 80
#define CURVE_X1 520
#define CURVE_PLOT_H 220
#define LEGEND_X 550
#define LEGEND_ROW 16

/* The decades that hold every positive value of CURVES: [*LO, *HI]. False
 * when there is none. */
static bool curve_range(const struct lat_curve *curves, size_t n, double *lo, double *hi)
{
	double min = INFINITY, max = 0;
	for (size_t c = 0; c < n; c++)
		for (size_t i = 0; i < LAT_CURVE_POINTS; i++)
			if (isfinite(curves[c].ns[i]) && curves[c].ns[i] > 0) {
				min = fmin(min, curves[c].ns[i]);
				max = fmax(max, curves[c].ns[i]);
			}
	if (!(max > 0))
		return false;
	*lo = pow(10, floor(log10(min)));
	*hi = pow(10, ceil(log10(max)));
	if (*hi <= *lo)
		*hi = *lo * 10;
	return true;
}

static double curve_y(double v, double lo, double hi)
{
	return TOP + CURVE_PLOT_H * (1 - (log10(v) - log10(lo)) / (log10(hi) - log10(lo)));
}

/* A plot's <svg> (curves, series: the same size) with its title. */
static void plot_open(struct strbuf *out, const char *cls, const char *title)
{
	unsigned width = LABEL_W + BAR_W + VALUE_W, height = TOP + CURVE_PLOT_H + 40;
	strbuf_addf(out, "<svg class=\"%s\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%u\" height=\"%u\" "
			 "viewBox=\"0 0 %u %u\" role=\"img\" aria-label=\"", cls, width, height, width, height);
	xml_escape(out, title);
	strbuf_adds(out, "\">\n<text class=\"title\" x=\"4\" y=\"16\" font-weight=\"bold\">");
	xml_escape(out, title);
	strbuf_adds(out, "</text>\n");
}

/* The lines left out of the legend counted, and the end of the plot. */
static void plot_close(struct strbuf *out, size_t shown, size_t n, const char *where)
{
	if (n > shown)
		strbuf_addf(out, "<text class=\"more\" x=\"%d\" y=\"%u\" font-size=\"11\">and %zu more%s</text>\n",
			    LEGEND_X, TOP + (unsigned)shown * LEGEND_ROW + 9, n - shown, where);
	strbuf_adds(out, "</svg>\n");
}

static void curve_axes(struct strbuf *out, double lo, double hi)
{
	for (double v = lo; v <= hi * 1.0001; v *= 10) {
		char t[48];
		measure_format(MU_NS, v, t, sizeof(t));
		double y = curve_y(v, lo, hi);
		strbuf_addf(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>\n"
				 "<text class=\"tick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\" font-size=\"11\">%s</text>\n",
			    CURVE_X0, y, CURVE_X1, y, CURVE_X0 - 6, y + 4, t);
	}
	for (size_t i = 0; i < LAT_CURVE_POINTS; i++) {
		double x = CURVE_X0 + (CURVE_X1 - CURVE_X0) * (double)i / (LAT_CURVE_POINTS - 1);
		strbuf_addf(out, "<text class=\"tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"11\">%s</text>\n",
			    x, TOP + CURVE_PLOT_H + 16, lat_curve_names[i]);
	}
}

static void curve_line(struct strbuf *out, const struct lat_curve *c, size_t k, double lo, double hi)
{
	const char *colour = palette[k % (sizeof(palette) / sizeof(palette[0]))];
	struct strbuf pts = STRBUF_INIT, dots = STRBUF_INIT;
	for (size_t i = 0; i < LAT_CURVE_POINTS; i++) {
		if (!isfinite(c->ns[i]) || c->ns[i] <= 0)
			continue;
		double x = CURVE_X0 + (CURVE_X1 - CURVE_X0) * (double)i / (LAT_CURVE_POINTS - 1);
		double y = curve_y(c->ns[i], lo, hi);
		char t[48];
		measure_format(MU_NS, c->ns[i], t, sizeof(t));
		strbuf_addf(&pts, "%s%.1f,%.1f", pts.len ? " " : "", x, y);
		strbuf_addf(&dots, "<circle class=\"point\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\" "
				   "data-percentile=\"%s\" data-value=\"%.6g\"><title>", x, y, colour, lat_curve_names[i], c->ns[i]);
		xml_escape(&dots, c->label);
		strbuf_addf(&dots, ": %s %s</title></circle>\n", lat_curve_names[i], t);
	}
	strbuf_addf(out, "<polyline class=\"curve-line\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"%s\">"
			 "<title>", colour, pts.buf ? pts.buf : "");
	xml_escape(out, c->label);
	strbuf_adds(out, "</title></polyline>\n");
	strbuf_adds(out, dots.buf ? dots.buf : "");
	unsigned ly = TOP + (unsigned)k * LEGEND_ROW;
	strbuf_addf(out, "<rect class=\"swatch\" x=\"%d\" y=\"%u\" width=\"10\" height=\"10\" fill=\"%s\"/>"
			 "<text class=\"legend\" x=\"%d\" y=\"%u\" font-size=\"11\">", LEGEND_X, ly, colour, LEGEND_X + 14, ly + 9);
	xml_escape(out, c->label);
	strbuf_adds(out, "</text>\n");
	strbuf_release(&pts);
	strbuf_release(&dots);
}

void svg_curve_chart(struct strbuf *out, const char *title, const struct lat_curve *curves, size_t n)
{
	size_t shown = n < SVG_CURVES_MAX ? n : SVG_CURVES_MAX;
	double lo = 1, hi = 10;
	bool any = curve_range(curves, shown, &lo, &hi);
	plot_open(out, "curve", title);
	strbuf_adds(out, "<text class=\"direction\" x=\"4\" y=\"34\" font-size=\"12\">&lt; Lower is better "
			 "(ns, log scale)</text>\n");
	if (any) {
		curve_axes(out, lo, hi);
		for (size_t k = 0; k < shown; k++)
			curve_line(out, &curves[k], k, lo, hi);
	}
	plot_close(out, shown, n, " (CSV)");
}

/* The series' extent: the last time and the largest value (0 when none). */
static void series_range(const struct svg_series *s, size_t n, double *t_max, double *v_max)
{
	*t_max = 0;
	*v_max = 0;
	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; i < s[k].n; i++) {
			*t_max = s[k].t_ms[i] > *t_max ? s[k].t_ms[i] : *t_max;
			*v_max = s[k].v[i] > *v_max ? s[k].v[i] : *v_max;
		}
}

static void series_axes(struct strbuf *out, enum measure_unit unit, double t_max, double v_max)
{
	for (int i = 0; i <= 4; i++) {
		char t[48];
		double y = TOP + CURVE_PLOT_H * (1 - i / 4.0), x = CURVE_X0 + (CURVE_X1 - CURVE_X0) * i / 4.0;
		measure_format(unit, v_max * i / 4, t, sizeof(t));
		strbuf_addf(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>\n"
				 "<text class=\"tick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\" font-size=\"11\">%s</text>\n"
				 "<text class=\"tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"11\">%.3g s</text>\n",
			    CURVE_X0, y, CURVE_X1, y, CURVE_X0 - 6, y + 4, t, x, TOP + CURVE_PLOT_H + 16, t_max * i / 4 / 1000);
	}
}

static void series_line(struct strbuf *out, const struct svg_series *s, size_t k, double t_max, double v_max)
{
	const char *colour = palette[k % (sizeof(palette) / sizeof(palette[0]))];
	strbuf_addf(out, "<polyline class=\"series-line\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\" "
			 "data-points=\"%zu\" points=\"", colour, s->n);
	for (size_t i = 0; i < s->n; i++)
		strbuf_addf(out, "%s%.1f,%.1f", i ? " " : "", CURVE_X0 + (CURVE_X1 - CURVE_X0) * s->t_ms[i] / t_max,
			    TOP + CURVE_PLOT_H * (1 - s->v[i] / v_max));
	strbuf_adds(out, "\"><title>");
	xml_escape(out, s->label);
	strbuf_adds(out, "</title></polyline>\n");
	unsigned ly = TOP + (unsigned)k * LEGEND_ROW;
	strbuf_addf(out, "<rect class=\"swatch\" x=\"%d\" y=\"%u\" width=\"10\" height=\"10\" fill=\"%s\"/>"
			 "<text class=\"legend\" x=\"%d\" y=\"%u\" font-size=\"11\">", LEGEND_X, ly, colour, LEGEND_X + 14, ly + 9);
	xml_escape(out, s->label);
	strbuf_adds(out, "</text>\n");
}

void svg_series_chart(struct strbuf *out, const char *title, enum measure_unit unit, const struct svg_series *s,
		      size_t n)
{
	size_t shown = n < SVG_CURVES_MAX ? n : SVG_CURVES_MAX;
	double t_max = 0, v_max = 0;
	series_range(s, shown, &t_max, &v_max);
	plot_open(out, "series", title);
	strbuf_addf(out, "<text class=\"direction\" x=\"4\" y=\"34\" font-size=\"12\">%s over time</text>\n",
		    measure_unit_name(unit));
	if (t_max > 0 && v_max > 0) {
		series_axes(out, unit, t_max, v_max);
		for (size_t k = 0; k < shown; k++)
			series_line(out, &s[k], k, t_max, v_max);
	}
	plot_close(out, shown, n, "");
}
