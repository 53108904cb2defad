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
