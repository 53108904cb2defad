/* report/hosts.c: a fleet run's hosts as rows (see hosts.h). */
#include "report/hosts.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "basic/strbuf.h"
#include "output/json.h"

bool run_doc_is_fleet(const struct run_doc *d)
{
	const struct jv *hosts = jv_get(d->doc, "hosts");
	return strcmp(d->command, "fleet") == 0 && hosts && hosts->type == JV_ARRAY && !jv_get(d->doc, "clients");
}

int host_row_run_doc(const struct host_row *row, struct run_doc *ret, char *err, size_t errlen)
{
	if (!row->document || row->document->type != JV_OBJECT) {
		memset(ret, 0, sizeof(*ret));
		return -ENOENT;
	}
	/* The document is written back out and read as a run of its own, so
	 * it gives exactly what its stored copy would. */
	struct json j;
	json_init(&j);
	json_value(&j, NULL, row->document);
	int r = run_doc_load(j.out.buf, j.out.len, ret, err, errlen);
	json_release(&j);
	if (r < 0)
		return r;
	free(ret->host);
	ret->host = xstrdup(row->host);
	return 0;
}

/* The first ok bandwidth of the host's own document, or NAN. */
static double document_figure(const struct host_row *row, char **test)
{
	struct run_doc d;
	char err[128];
	double v = NAN;
	if (host_row_run_doc(row, &d, err, sizeof(err)) < 0)
		return NAN;
	for (size_t i = 0; i < d.n; i++) {
		const struct measure *m = &d.m[i];
		if (m->unit == MU_BYTES_PER_S && strcmp(m->metric, "bandwidth") == 0 && isfinite(m->value) &&
		    strcmp(m->status, "ok") == 0) {
			v = m->value;
			*test = xstrdup(m->test);
			break;
		}
	}
	run_doc_release(&d);
	return v;
}

static bool flagged_by_fleet(const struct jv *fleet, const char *host)
{
	const struct jv *hosts = jv_get(jv_get(fleet, "outliers"), "hosts");
	for (size_t i = 0; hosts && i < hosts->count; i++) {
		const struct jv *v = jv_at(hosts, i);
		if (strcmp(jv_string(jv_get(v, "host"), ""), host) == 0 && jv_bool(jv_get(v, "confirmed"), false))
			return true;
	}
	return false;
}

static void row_from(const struct jv *fleet, const struct jv *h, struct host_row *row)
{
	const struct jv *doc = jv_get(h, "document");
	row->host = xstrdup(jv_string(jv_get(h, "host"), "?"));
	row->hostname = xstrdup(jv_string(jv_get(jv_get(h, "identity"), "hostname"), ""));
	row->status = xstrdup(jv_string(jv_get(h, "status"), "?"));
	const char *reason = jv_string(jv_get(h, "reason"), NULL);
	row->reason = reason ? xstrdup(reason) : NULL;
	row->document = doc && doc->type == JV_OBJECT ? doc : NULL;
	row->run_id = xstrdup(jv_string(jv_get(row->document, "run_id"), ""));
	row->command = xstrdup(jv_string(jv_get(row->document, "command"), ""));
	row->figure = jv_number(jv_get(h, "read_bw_bytes_per_s"), NAN);
	row->pct_of_median = NAN;
	if (isfinite(row->figure) && row->figure > 0)
		row->figure_test = xstrdup("read");
	else
		row->figure = document_figure(row, &row->figure_test);
	row->flagged = flagged_by_fleet(fleet, row->host);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median_of(const struct host_rows *rows)
{
	double *v = xcalloc(rows->n ? rows->n : 1, sizeof(*v));
	size_t k = 0;
	for (size_t i = 0; i < rows->n; i++)
		if (isfinite(rows->r[i].figure))
			v[k++] = rows->r[i].figure;
	double m = NAN;
	if (k) {
		qsort(v, k, sizeof(*v), cmp_double);
		m = k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
	}
	free(v);
	return m;
}

/* The median host (base) and the host furthest from the median (outlier). */
static void choose_base_and_outlier(struct host_rows *rows)
{
	double best = INFINITY, worst = -1;
	rows->base = rows->outlier = SIZE_MAX;
	for (size_t i = 0; i < rows->n; i++) {
		const struct host_row *h = &rows->r[i];
		if (!isfinite(h->figure) || !isfinite(rows->median) || rows->median <= 0)
			continue;
		double d = fabs(h->figure - rows->median), ratio = fabs(log(h->figure / rows->median));
		if (d < best) {
			best = d;
			rows->base = i;
		}
		if (ratio > worst) {
			worst = ratio;
			rows->outlier = i;
		}
	}
	for (size_t i = 0; rows->base == SIZE_MAX && i < rows->n; i++)
		if (rows->r[i].document)
			rows->base = i;
	if (rows->n_figures < 3 || rows->outlier == rows->base)
		rows->outlier = SIZE_MAX;
}

int host_rows_load(const struct run_doc *d, struct host_rows *ret)
{
	memset(ret, 0, sizeof(*ret));
	const struct jv *hosts = jv_get(d->doc, "hosts");
	if (!hosts || hosts->type != JV_ARRAY)
		return -EINVAL;
	ret->r = xcalloc(hosts->count ? hosts->count : 1, sizeof(*ret->r));
	ret->n = hosts->count;
	for (size_t i = 0; i < hosts->count; i++) {
		row_from(d->doc, jv_at(hosts, i), &ret->r[i]);
		ret->n_figures += isfinite(ret->r[i].figure);
	}
	ret->median = median_of(ret);
	for (size_t i = 0; i < ret->n; i++)
		if (isfinite(ret->r[i].figure) && isfinite(ret->median) && ret->median > 0)
			ret->r[i].pct_of_median = 100.0 * ret->r[i].figure / ret->median;
	choose_base_and_outlier(ret);
	return 0;
}

size_t host_rows_find(const struct host_rows *rows, const char *host)
{
	for (size_t i = 0; i < rows->n; i++)
		if (strcmp(rows->r[i].host, host) == 0)
			return i;
	return SIZE_MAX;
}

void host_rows_release(struct host_rows *rows)
{
	for (size_t i = 0; i < rows->n; i++) {
		struct host_row *h = &rows->r[i];
		free(h->host);
		free(h->hostname);
		free(h->status);
		free(h->reason);
		free(h->run_id);
		free(h->command);
		free(h->figure_test);
	}
	free(rows->r);
	memset(rows, 0, sizeof(*rows));
}

size_t host_rows_run_docs(const struct host_rows *rows, size_t first, struct run_doc **ret)
{
	struct run_doc *docs = xcalloc(rows->n ? rows->n : 1, sizeof(*docs));
	size_t n = 0;
	char err[160];
	if (first < rows->n && host_row_run_doc(&rows->r[first], &docs[n], err, sizeof(err)) == 0)
		n++;
	for (size_t i = 0; i < rows->n; i++)
		if (i != first && host_row_run_doc(&rows->r[i], &docs[n], err, sizeof(err)) == 0)
			n++;
	*ret = docs;
	return n;
}

size_t host_runs_expand(struct run_doc *runs, size_t n, struct run_doc **ret)
{
	size_t cap = n, count = 0;
	struct run_doc *out = xcalloc(cap ? cap : 1, sizeof(*out));
	for (size_t i = 0; i < n; i++) {
		struct host_rows rows;
		struct run_doc *docs = NULL;
		size_t nd = 0;
		if (run_doc_is_fleet(&runs[i]) && host_rows_load(&runs[i], &rows) == 0) {
			nd = host_rows_run_docs(&rows, SIZE_MAX, &docs);
			host_rows_release(&rows);
		}
		if (count + 1 + nd > cap) {
			cap = count + 1 + nd + n;
			out = xreallocarray(out, cap, sizeof(*out));
		}
		out[count++] = runs[i];
		for (size_t k = 0; k < nd; k++)
			out[count++] = docs[k];
		free(docs);
	}
	*ret = out;
	return count;
}
