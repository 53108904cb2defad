/* pool/zpool_hist.c: zpool iostat -w's latency histograms (see zpool_hist.h). */
#include "pool/zpool_hist.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/spawn.h"
#include "basic/strbuf.h"

/* One bucket line: the bound and at least ZH_NCOLS counts. Returns 0 or -EINVAL. */
static int parse_line(const char *line, size_t len, uint64_t *bound, uint64_t *counts)
{
	char buf[512];
	if (len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, line, len);
	buf[len] = '\0';
	char *save = NULL, *tok = strtok_r(buf, " \t", &save);
	for (int field = -1; field < ZH_NCOLS; field++, tok = strtok_r(NULL, " \t", &save)) {
		char *end;
		if (!tok || *tok < '0' || *tok > '9')
			return -EINVAL;
		unsigned long long v = strtoull(tok, &end, 10);
		if (*end)
			return -EINVAL;
		if (field < 0)
			*bound = v;
		else
			counts[field] = v;
	}
	return 0;
}

int zpool_hist_parse(const char *text, size_t len, struct zpool_hist *ret)
{
	memset(ret, 0, sizeof(*ret));
	for (size_t at = 0; at < len;) {
		const char *line = text + at, *nl = memchr(line, '\n', len - at);
		size_t n = nl ? (size_t)(nl - line) : len - at;
		at += n + 1;
		if (n == 0)
			continue;
		if (ret->nbuckets == ZPOOL_HIST_MAX_BUCKETS)
			return -EINVAL;
		size_t b = ret->nbuckets;
		if (parse_line(line, n, &ret->bound_ns[b], ret->count[b]) < 0 ||
		    (b && ret->bound_ns[b] <= ret->bound_ns[b - 1]))
			return -EINVAL;
		ret->nbuckets++;
	}
	return ret->nbuckets ? 0 : -EINVAL;
}

int zpool_hist_diff(const struct zpool_hist *after, const struct zpool_hist *before, struct zpool_hist *ret)
{
	if (after->nbuckets != before->nbuckets)
		return -EINVAL;
	*ret = *after;
	for (size_t b = 0; b < after->nbuckets; b++) {
		if (after->bound_ns[b] != before->bound_ns[b])
			return -EINVAL;
		for (int c = 0; c < ZH_NCOLS; c++) {
			if (after->count[b][c] < before->count[b][c])
				return -EINVAL;
			ret->count[b][c] = after->count[b][c] - before->count[b][c];
		}
	}
	return 0;
}

uint64_t zpool_hist_total(const struct zpool_hist *h, enum zpool_hist_col col)
{
	uint64_t n = 0;
	for (size_t b = 0; b < h->nbuckets; b++)
		n += h->count[b][col];
	return n;
}

uint64_t zpool_hist_percentile(const struct zpool_hist *h, enum zpool_hist_col col, double pct)
{
	uint64_t total = zpool_hist_total(h, col), seen = 0;
	if (!total)
		return 0;
	double want = pct / 100.0 * (double)total;
	for (size_t b = 0; b < h->nbuckets; b++) {
		seen += h->count[b][col];
		if ((double)seen >= want && h->count[b][col])
			return h->bound_ns[b];
	}
	return h->bound_ns[h->nbuckets - 1];
}

int zpool_hist_read(const char *pool, struct zpool_hist *ret, char *why, size_t len)
{
	const char *argv[] = { "zpool", "iostat", "-w", "-H", "-p", pool, NULL };
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	int r = spawn_check(argv, 15000, &out, &err);
	if (r < 0)
		snprintf(why, len, "%.*s", (int)strcspn(err.buf, "\n"), err.buf);
	else if ((r = zpool_hist_parse(out.buf, out.len, ret)) < 0)
		snprintf(why, len, "zpool iostat -w printed no latency histogram");
	strbuf_release(&out);
	strbuf_release(&err);
	return r;
}
