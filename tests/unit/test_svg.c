/* test_svg: report/svg.c's horizontal bar charts and XML escaping.
 *
 * Bars are read back from the rendered text: every <rect class="bar..."> with
 * its width, fill and data-value, in order. Widths are proportional to the
 * values (the largest bar is 420 units long), outliers are red and say so,
 * labels and titles from a document are escaped everywhere they appear, and
 * missing, zero or extreme values never put "nan" or "inf" into the SVG. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>

#include "report/svg.h"
#include "tap.h"

struct rect {
	char cls[32];
	double width;
	char fill[16];
	double value;
};

/* Copies attribute NAME's value from the tag starting at TAG into BUF. */
static bool attr(const char *tag, const char *name, char *buf, size_t len)
{
	const char *end = strchr(tag, '>');
	char key[40];
	snprintf(key, sizeof(key), " %s=\"", name);
	const char *p = strstr(tag, key);
	if (!p || (end && p > end))
		return false;
	p += strlen(key);
	const char *q = strchr(p, '"');
	if (!q || (size_t)(q - p) >= len)
		return false;
	memcpy(buf, p, (size_t)(q - p));
	buf[q - p] = '\0';
	return true;
}

/* The bars in SVG, up to MAX; returns how many there are. */
static size_t rects(const char *svg, struct rect *out, size_t max)
{
	size_t n = 0;
	for (const char *p = svg; (p = strstr(p, "<rect ")); p++) {
		if (n < max) {
			struct rect *r = &out[n];
			char w[32] = "", v[32] = "";
			attr(p, "class", r->cls, sizeof(r->cls));
			attr(p, "fill", r->fill, sizeof(r->fill));
			attr(p, "width", w, sizeof(w));
			attr(p, "data-value", v, sizeof(v));
			r->width = w[0] ? strtod(w, NULL) : -1;
			r->value = v[0] ? strtod(v, NULL) : NAN;
		}
		n++;
	}
	return n;
}

static size_t count(const char *s, const char *needle)
{
	size_t n = 0;
	for (const char *p = s; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/* "nan" or "inf" anywhere, in any case, as printf writes them. */
static bool has_nonfinite(const char *s)
{
	for (const char *p = s; *p; p++)
		if (strncasecmp(p, "nan", 3) == 0 || strncasecmp(p, "inf", 3) == 0)
			return true;
	return false;
}

static void test_proportional(void)
{
	struct svg_bar bars[] = {
		{ .label = "sda", .value = 200e6, .series = 0 },
		{ .label = "sdb", .value = 100e6, .series = 0 },
		{ .label = "sdc", .value = 50e6, .series = 1 },
		{ .label = "sdd", .value = 300e6, .series = 0 },
	};
	struct strbuf sb = STRBUF_INIT;
	svg_bar_chart(&sb, "Sequential read", true, MU_BYTES_PER_S, bars, 4);
	struct rect r[8];
	is_int(rects(sb.buf, r, 8), 4, "one rect per bar");
	ok(fabs(r[3].width - 420.0) < 0.05, "the largest value gets the full 420-unit bar");
	ok(fabs(r[0].width - 280.0) < 0.05, "two thirds of the largest: 280 units");
	ok(fabs(r[1].width - 140.0) < 0.05, "one third: 140 units");
	ok(fabs(r[2].width - 70.0) < 0.05, "one sixth: 70 units");
	ok(r[0].width > r[1].width && r[1].width > r[2].width, "a larger value never draws a shorter bar");
	is_str(r[0].cls, "bar", "a bar that is not an outlier has class bar");
	is_str(r[0].fill, "#3b6ea5", "series 0 has the first colour");
	is_str(r[2].fill, "#e08a1e", "series 1 has the second colour");
	ok(fabs(r[1].value - 100e6) < 1, "data-value carries the value");
	ok(strstr(sb.buf, "&gt; Higher is better (B/s)") != NULL, "marked higher is better, with the unit");
	ok(!strstr(sb.buf, "Lower is better"), "and not lower is better");
	ok(strstr(sb.buf, "height=\"") && strstr(sb.buf, "height=\"150\""), "height: 44 + 4 rows of 24 + 10");
	ok(strncmp(sb.buf, "<svg class=\"chart\"", 18) == 0 && strstr(sb.buf, "</svg>\n"),
	   "one svg element, closed");
	ok(!has_nonfinite(sb.buf), "no nan or inf");
	strbuf_release(&sb);
}

static void test_lower_is_better_and_outlier(void)
{
	struct svg_bar bars[] = {
		{ .label = "loop0", .value = 1.5e6, .series = 0 },
		{ .label = "loop1", .value = 6e6, .outlier = true, .series = 0 },
		{ .label = "loop2", .value = 1.5e6, .series = 7 },
	};
	struct strbuf sb = STRBUF_INIT;
	svg_bar_chart(&sb, "Latency", false, MU_NS, bars, 3);
	struct rect r[4];
	is_int(rects(sb.buf, r, 4), 3, "three bars");
	ok(strstr(sb.buf, "&lt; Lower is better (ns)") != NULL, "marked lower is better, with the unit");
	ok(!strstr(sb.buf, "Higher is better"), "and not higher is better");
	is_str(r[1].cls, "bar outlier", "the outlier's rect has class \"bar outlier\"");
	is_str(r[1].fill, "#c62828", "the outlier is red");
	is_str(r[0].fill, "#3b6ea5", "the others keep their series colour");
	is_str(r[2].fill, "#e08a1e", "series 7 wraps around the six-colour palette to the second");
	is_int(count(sb.buf, "(outlier)"), 2, "the outlier says so in its tooltip and its value text");
	ok(strstr(sb.buf, "6.00 ms (outlier)</text>") != NULL, "the value text is formatted in the unit");
	ok(fabs(r[1].width - 420.0) < 0.05 && fabs(r[0].width - 105.0) < 0.05,
	   "lower-is-better bars are still proportional to the value");
	strbuf_release(&sb);
}

static void test_escaping(void)
{
	const char *hostile = "<script>alert(\"x\")</script> & 'q'";
	struct svg_bar bars[] = {
		{ .label = hostile, .value = 10, .series = 0 },
		{ .label = "a&b", .value = 5, .outlier = true, .series = 0 },
	};
	struct strbuf sb = STRBUF_INIT;
	svg_bar_chart(&sb, "<b>\"title\"</b> & 'x'", true, MU_IOPS, bars, 2);
	ok(!strstr(sb.buf, "<script") && !strstr(sb.buf, "</script") && !strstr(sb.buf, "<b>"),
	   "no element from a label or the title gets through");
	const char *esc = "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;";
	is_int(count(sb.buf, esc), 2, "the hostile label is escaped in its label text and its tooltip");
	is_int(count(sb.buf, "&lt;b&gt;&quot;title&quot;&lt;/b&gt; &amp; &#39;x&#39;"), 2,
	       "the title is escaped in aria-label and in the title text");
	ok(strstr(sb.buf, "aria-label=\"&lt;b&gt;") != NULL, "the attribute value cannot be closed by a quote");
	ok(strstr(sb.buf, ">a&amp;b: 5 IOPS (outlier)</title>") != NULL, "ampersands escaped in tooltips");
	/* Every & in the output starts an entity. */
	bool entities = true;
	for (const char *p = strchr(sb.buf, '&'); p; p = strchr(p + 1, '&'))
		if (strncmp(p, "&amp;", 5) && strncmp(p, "&lt;", 4) && strncmp(p, "&gt;", 4) &&
		    strncmp(p, "&quot;", 6) && strncmp(p, "&#39;", 5))
			entities = false;
	ok(entities, "no bare ampersand anywhere");
	strbuf_release(&sb);

	struct strbuf e = STRBUF_INIT;
	xml_escape(&e, "a<b>c&d\"e'f");
	is_str(e.buf, "a&lt;b&gt;c&amp;d&quot;e&#39;f", "xml_escape: all five characters");
	strbuf_reset(&e);
	xml_escape(&e, NULL);
	is_str(e.buf, "", "xml_escape of NULL appends nothing");
	strbuf_release(&e);
}

static void test_missing_and_zero(void)
{
	struct svg_bar bars[] = {
		{ .label = "missing", .value = NAN },
		{ .label = "zero", .value = 0 },
		{ .label = "inf", .value = INFINITY },
		{ .label = "ok", .value = 1000 },
	};
	struct strbuf sb = STRBUF_INIT;
	svg_bar_chart(&sb, "Mixed", true, MU_IOPS, bars, 4);
	struct rect r[8];
	is_int(rects(sb.buf, r, 8), 2, "no bar for a missing (NaN) or infinite value");
	is_int(count(sb.buf, ">not measured</text>"), 2, "both say \"not measured\"");
	ok(fabs(r[0].width - 1.0) < 0.05, "a zero value still draws a 1-unit stub");
	ok(fabs(r[1].width - 420.0) < 0.05, "the only finite non-zero value is the full bar");
	/* The label "inf" is in the output on purpose; look at numbers only. */
	ok(!strstr(sb.buf, "\"nan") && !strstr(sb.buf, "\"inf") && !strstr(sb.buf, "\"-nan") &&
	   !strstr(sb.buf, "\"-inf"),
	   "no attribute holds nan or inf");
	strbuf_release(&sb);

	struct svg_bar zeros[] = { { .label = "a", .value = 0 }, { .label = "b", .value = 0 } };
	svg_bar_chart(&sb, "Zeros", true, MU_BYTES_PER_S, zeros, 2);
	is_int(rects(sb.buf, r, 8), 2, "all-zero values: two bars");
	ok(fabs(r[0].width - 1.0) < 0.05 && fabs(r[1].width - 1.0) < 0.05, "all-zero values: stubs, no division by zero");
	ok(!has_nonfinite(sb.buf), "all-zero values: no nan or inf");
	strbuf_release(&sb);

	struct svg_bar none[] = { { .label = "a", .value = NAN } };
	svg_bar_chart(&sb, "Nothing", true, MU_NS, none, 1);
	is_int(rects(sb.buf, r, 8), 0, "all values missing: no bar");
	ok(!has_nonfinite(sb.buf), "all values missing: no nan or inf");
	strbuf_release(&sb);

	svg_bar_chart(&sb, "Empty", true, MU_NS, NULL, 0);
	is_int(rects(sb.buf, r, 8), 0, "no bars: an empty chart");
	ok(strstr(sb.buf, "height=\"54\"") && strstr(sb.buf, "</svg>"), "no bars: header height only, closed");
	strbuf_release(&sb);
}

static void test_extreme_values(void)
{
	/* 420 * 1e307 overflows a double; the bar must still be 420 long. */
	struct svg_bar bars[] = { { .label = "huge", .value = 1e307 }, { .label = "half", .value = 5e306 } };
	struct strbuf sb = STRBUF_INIT;
	svg_bar_chart(&sb, "Huge", true, MU_IOPS, bars, 2);
	struct rect r[4];
	is_int(rects(sb.buf, r, 4), 2, "huge values: two bars");
	ok(fabs(r[0].width - 420.0) < 0.05 && fabs(r[1].width - 210.0) < 0.05, "huge values: still proportional");
	ok(!strstr(sb.buf, "\"inf") && !strstr(sb.buf, "\"nan") && !strstr(sb.buf, "=\"inf") &&
	   !strstr(sb.buf, "x=\"inf"),
	   "huge values: no inf in widths or positions");
	strbuf_release(&sb);

	struct svg_bar neg[] = { { .label = "neg", .value = -5 }, { .label = "pos", .value = 10 } };
	svg_bar_chart(&sb, "Negative", true, MU_IOPS, neg, 2);
	is_int(rects(sb.buf, r, 4), 2, "a negative value: two bars");
	ok(r[0].width >= 1.0 && r[0].width < 1.05, "a negative value draws a stub, never a negative width");
	strbuf_release(&sb);
}

static size_t count_of(const char *s, const char *needle)
{
	size_t n = 0;
	for (const char *p = s; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/* The latency percentile curve: a point per percentile present, higher
 * latency drawn higher up (smaller y), missing and zero points left out,
 * labels escaped, curves past SVG_CURVES_MAX counted in a note. */
static void test_curves(void)
{
	char a[] = "run <a> on /dev/x", b[] = "b";
	struct lat_curve c[2] = {
		{ .label = a, .ns = { 1000, 5000, 20000, 400000, 3000000 }, .max_ns = 4e6 },
		{ .label = b, .ns = { 2000, NAN, 0, 90000, NAN }, .max_ns = 1e5 },
	};
	struct strbuf sb = STRBUF_INIT;
	svg_curve_chart(&sb, "Latency", c, 2);
	ok(strstr(sb.buf, "<svg class=\"curve\"") != NULL, "a curve chart");
	is_int((int)count_of(sb.buf, "<polyline class=\"curve-line\""), 2, "one line per curve");
	is_int((int)count_of(sb.buf, "<circle class=\"point\""), 7, "5 points and 2: missing and zero left out");
	double y[5];
	const char *p = sb.buf;
	for (int i = 0; i < 5; i++) {
		p = strstr(p, "<circle class=\"point\" cx=\"");
		y[i] = p ? strtod(strstr(p, "cy=\"") + 4, NULL) : NAN;
		p = p ? p + 1 : sb.buf + sb.len;
	}
	ok(y[0] > y[1] && y[1] > y[2] && y[2] > y[3] && y[3] > y[4], "a higher latency is drawn higher");
	ok(!strstr(sb.buf, "<a>") && strstr(sb.buf, "run &lt;a&gt; on /dev/x"), "labels escaped");
	ok(!has_nonfinite(sb.buf), "no nan or inf");
	ok(strstr(sb.buf, "Lower is better") != NULL, "marked lower is better");
	strbuf_release(&sb);

	struct lat_curve many[SVG_CURVES_MAX + 3];
	for (size_t i = 0; i < SVG_CURVES_MAX + 3; i++)
		many[i] = (struct lat_curve){ .label = b, .ns = { 1e3, 2e3, 3e3, 4e3, 5e3 } };
	svg_curve_chart(&sb, "Many", many, SVG_CURVES_MAX + 3);
	is_int((int)count_of(sb.buf, "<polyline class=\"curve-line\""), SVG_CURVES_MAX, "at most SVG_CURVES_MAX lines");
	ok(strstr(sb.buf, "and 3 more (CSV)") != NULL, "the rest counted");
	strbuf_release(&sb);

	struct lat_curve empty = { .label = b, .ns = { NAN, NAN, NAN, NAN, NAN } };
	svg_curve_chart(&sb, "Empty", &empty, 1);
	ok(!has_nonfinite(sb.buf) && count_of(sb.buf, "<circle") == 0 && strstr(sb.buf, "</svg>"),
	   "a curve without a value: no point, no nan, closed");
	strbuf_release(&sb);
}

int main(void)
{
	test_proportional();
	test_lower_is_better_and_outlier();
	test_escaping();
	test_missing_and_zero();
	test_extreme_values();
	test_curves();
	return tap_done();
}
