/* `zpool iostat -v -l -H -p` into latency per row (see pool/zpool_lat.h). */
#include "pool/zpool_lat.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/strbuf.h"

#define MIN_COLUMNS 17 /* name and 16 figures (OpenZFS 2.1); 2.2+ adds rebuild wait */

enum { C_ROPS = 3, C_WOPS = 4, C_TOTAL_W = 8, C_DISK_R = 9, C_DISK_W = 10 };

struct raw_row {
	char name[256];
	double f[MIN_COLUMNS]; /* -1 for "-" */
};

struct report {
	struct raw_row *rows;
	size_t count;
};

/* One line into ROW. Returns 1, 0 for a blank line, -EINVAL. */
static int parse_line(const char *line, size_t n, struct raw_row *row)
{
	if (n == 0)
		return 0;
	char buf[1024];
	if (n >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, line, n);
	buf[n] = '\0';
	size_t col = 0;
	for (char *save = NULL, *tok = strtok_r(buf, "\t", &save); tok; tok = strtok_r(NULL, "\t", &save), col++) {
		if (col == 0) {
			snprintf(row->name, sizeof(row->name), "%s", tok);
			continue;
		}
		if (col >= MIN_COLUMNS)
			continue; /* rebuild wait and later columns: not used */
		char *end;
		row->f[col] = strcmp(tok, "-") == 0 ? -1 : strtod(tok, &end);
		if (strcmp(tok, "-") != 0 && (*end || end == tok || row->f[col] < 0))
			return -EINVAL;
	}
	return col >= MIN_COLUMNS ? 1 : -EINVAL;
}

static void reports_free(struct report *r, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(r[i].rows);
	free(r);
}

/* Splits TEXT into reports, each starting at POOL's row. */
static int split_reports(const char *text, const char *pool, bool allow_cut_tail, struct report **ret, size_t *ret_n)
{
	struct report *reps = NULL;
	size_t n = 0;
	int r = 0;
	for (const char *line = text; *line && r == 0;) {
		size_t len = strcspn(line, "\n");
		bool last_line = line[len] == '\0';
		struct raw_row row = { .name = "" };
		int k = parse_line(line, len, &row);
		if (k < 0 && last_line && allow_cut_tail && n > 1)
			k = 0; /* cut while it was being written: the report is dropped below */
		if (k < 0)
			r = -EINVAL;
		else if (k > 0 && strcmp(row.name, pool) == 0) {
			reps = xreallocarray(reps, n + 1, sizeof(*reps));
			reps[n++] = (struct report){ NULL, 0 };
		}
		if (r == 0 && k > 0) {
			if (n == 0)
				r = -EINVAL; /* a row before the pool's */
			else {
				struct report *cur = &reps[n - 1];
				cur->rows = xreallocarray(cur->rows, cur->count + 1, sizeof(*cur->rows));
				cur->rows[cur->count++] = row;
			}
		}
		line += len + (last_line ? 0 : 1);
	}
	/* Every report lists the same rows; a shorter last one was cut short. */
	if (r == 0 && n > 1 && reps[n - 1].count != reps[0].count && allow_cut_tail)
		free(reps[--n].rows);
	for (size_t i = 1; r == 0 && i < n; i++)
		if (reps[i].count != reps[0].count)
			r = -EINVAL;
	if (r == 0 && n == 0)
		r = -EINVAL;
	if (r < 0) {
		reports_free(reps, n);
		return r;
	}
	*ret = reps;
	*ret_n = n;
	return 0;
}

/* Adds one report's figures for a row into OUT (sums weighted by ops). */
static void accumulate(struct zpool_lat_row *out, const struct raw_row *in, double sums[3])
{
	double rops = in->f[C_ROPS] > 0 ? in->f[C_ROPS] : 0, wops = in->f[C_WOPS] > 0 ? in->f[C_WOPS] : 0;
	out->read_ops += rops;
	out->write_ops += wops;
	if (in->f[C_DISK_R] >= 0)
		sums[0] += rops * in->f[C_DISK_R];
	if (in->f[C_DISK_W] >= 0)
		sums[1] += wops * in->f[C_DISK_W];
	if (in->f[C_TOTAL_W] >= 0)
		sums[2] += wops * in->f[C_TOTAL_W];
}

int zpool_lat_parse(const char *text, const char *pool, bool allow_cut_tail, struct zpool_lat *ret)
{
	*ret = (struct zpool_lat){ .count = 0 };
	struct report *reps;
	size_t n;
	int r = split_reports(text, pool, allow_cut_tail, &reps, &n);
	if (r < 0)
		return r;
	size_t first = n > 1 ? 1 : 0; /* the first report is the average since import */
	snprintf(ret->pool, sizeof(ret->pool), "%s", pool);
	ret->reports = n - first;
	ret->count = reps[0].count;
	ret->rows = calloc(ret->count, sizeof(*ret->rows));
	double (*sums)[3] = calloc(ret->count, sizeof(*sums));
	if (!ret->rows || !sums) {
		free(sums);
		reports_free(reps, n);
		zpool_lat_release(ret);
		return -ENOMEM;
	}
	for (size_t k = 0; k < ret->count; k++)
		snprintf(ret->rows[k].name, sizeof(ret->rows[k].name), "%s", reps[0].rows[k].name);
	for (size_t i = first; i < n; i++)
		for (size_t k = 0; k < ret->count; k++)
			accumulate(&ret->rows[k], &reps[i].rows[k], sums[k]);
	for (size_t k = 0; k < ret->count; k++) {
		struct zpool_lat_row *row = &ret->rows[k];
		row->read_disk_wait_ns = row->read_ops > 0 ? sums[k][0] / row->read_ops : -1;
		row->write_disk_wait_ns = row->write_ops > 0 ? sums[k][1] / row->write_ops : -1;
		row->write_total_wait_ns = row->write_ops > 0 ? sums[k][2] / row->write_ops : -1;
	}
	free(sums);
	reports_free(reps, n);
	return 0;
}

const struct zpool_lat_row *zpool_lat_row(const struct zpool_lat *l, const char *name)
{
	for (size_t i = 0; i < l->count; i++)
		if (strcmp(l->rows[i].name, name) == 0)
			return &l->rows[i];
	return NULL;
}

void zpool_lat_release(struct zpool_lat *l)
{
	free(l->rows);
	*l = (struct zpool_lat){ .count = 0 };
}
