/* pool/zpool_iostat.c: `zpool iostat -v` reports parsed. */
#include "pool/zpool_iostat.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/strbuf.h"

#define MAX_DEPTH 8

enum state { OUTSIDE, HEADER, ROWS };

struct row {
	char name[256];
	size_t depth;
	double f[4]; /* read ops, write ops, read bytes/s, write bytes/s */
};

struct parser {
	const char *pool;
	enum state state;
	bool ours;                    /* rows under POOL's row (not another pool's) */
	bool pool_seen;               /* POOL's row in this block */
	char path[MAX_DEPTH][256];    /* the names above the current row */
	bool have_pending;
	struct row pending;           /* a row not yet known to be a device */
	struct zpool_iostat_dev *cur; /* this block's devices */
	size_t ncur, cap;
	double cur_pool[2];
	struct zpool_iostat_dev *first; /* the first block's devices */
	size_t nfirst;
	double first_pool[2];
	struct zpool_iostat *ret;     /* sums of the later blocks */
};

static bool section_name(const char *s)
{
	static const char *const names[] = { "logs", "cache", "spares", "special", "dedup" };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(s, names[i]))
			return true;
	return false;
}

/* "40.9K" -> 41881.6; "-" -> 0. */
static int figure(const char *s, double *ret)
{
	if (!strcmp(s, "-")) {
		*ret = 0;
		return 0;
	}
	if (!isdigit((unsigned char)s[0]))
		return -EINVAL;
	char *end;
	double v = strtod(s, &end);
	static const char units[] = "KMGTPE";
	const char *u = *end ? strchr(units, *end) : NULL;
	if (u) {
		v *= pow(1024, (double)(u - units + 1));
		end++;
	}
	if (*end || !isfinite(v))
		return -EINVAL;
	*ret = v;
	return 0;
}

static int add_dev(struct parser *p, const struct row *r)
{
	if (p->ncur == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 8;
		struct zpool_iostat_dev *n = xreallocarray(p->cur, cap, sizeof(*n));
		p->cur = n;
		p->cap = cap;
	}
	struct zpool_iostat_dev *d = &p->cur[p->ncur++];
	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", r->name);
	/* A device's vdev is the row at depth 1 above it; a device at depth 1
	 * stripes the pool. Under a section it is the section, as in
	 * pool/zfs.h (logs, cache and spares are never judged as data). */
	bool section = section_name(p->path[0]);
	snprintf(d->vdev, sizeof(d->vdev), "%s", p->path[r->depth >= 2 && !section ? 1 : 0]);
	d->read_ops = r->f[0];
	d->write_ops = r->f[1];
	d->read_bps = r->f[2];
	d->write_bps = r->f[3];
	return 0;
}

/* The pending row is a device when the row after it is not deeper. */
static int settle_pending(struct parser *p, size_t next_depth)
{
	if (!p->have_pending)
		return 0;
	p->have_pending = false;
	if (next_depth > p->pending.depth)
		return 0; /* a vdev: its devices follow */
	return add_dev(p, &p->pending);
}

static int row(struct parser *p, const char *line)
{
	size_t indent = strspn(line, " ");
	char fields[8][256];
	int n = sscanf(line, "%255s %255s %255s %255s %255s %255s %255s %255s", fields[0], fields[1], fields[2],
		       fields[3], fields[4], fields[5], fields[6], fields[7]);
	if (n != 7 || indent % 2 || indent / 2 >= MAX_DEPTH)
		return -EINVAL;
	struct row r = { .depth = indent / 2 };
	snprintf(r.name, sizeof(r.name), "%s", fields[0]);
	double alloc, free_;
	if (figure(fields[1], &alloc) < 0 || figure(fields[2], &free_) < 0)
		return -EINVAL;
	for (int i = 0; i < 4; i++)
		if (figure(fields[3 + i], &r.f[i]) < 0)
			return -EINVAL;
	if (r.depth == 0) {
		int e = settle_pending(p, 0);
		if (e < 0)
			return e;
		if (!strcmp(r.name, p->pool)) {
			p->ours = p->pool_seen = true;
			p->cur_pool[0] = r.f[2];
			p->cur_pool[1] = r.f[3];
		} else if (!section_name(r.name)) {
			p->ours = false; /* another pool's rows */
		}
		snprintf(p->path[0], sizeof(p->path[0]), "%s", r.name);
		return 0;
	}
	if (!p->ours)
		return 0;
	if (p->have_pending && r.depth > p->pending.depth + 1)
		return -EINVAL; /* skipped a level */
	if (!p->have_pending && r.depth > 1 && !p->path[r.depth - 1][0])
		return -EINVAL;
	int e = settle_pending(p, r.depth);
	if (e < 0)
		return e;
	snprintf(p->path[r.depth], sizeof(p->path[0]), "%s", r.name);
	for (size_t d = r.depth + 1; d < MAX_DEPTH; d++)
		p->path[d][0] = '\0';
	p->pending = r;
	p->have_pending = true;
	return 0;
}

static bool same_devices(const struct zpool_iostat_dev *a, const struct zpool_iostat_dev *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(a[i].name, b[i].name) || strcmp(a[i].vdev, b[i].vdev))
			return false;
	return true;
}

/* The closing line of dashes: the block's devices kept or added up. */
static int close_block(struct parser *p)
{
	int e = settle_pending(p, 0);
	if (e < 0)
		return e;
	if (!p->pool_seen || !p->ncur)
		return -EINVAL;
	struct zpool_iostat *s = p->ret;
	if (s->blocks++ == 0) {
		p->first = p->cur;
		p->nfirst = p->ncur;
		p->first_pool[0] = p->cur_pool[0];
		p->first_pool[1] = p->cur_pool[1];
		p->cur = NULL;
		p->ncur = p->cap = 0;
		return 0;
	}
	if (p->ncur != p->nfirst || !same_devices(p->cur, p->first, p->ncur))
		return -EINVAL;
	if (!s->devs) {
		s->devs = calloc(p->ncur, sizeof(*s->devs));
		if (!s->devs)
			return -ENOMEM;
		memcpy(s->devs, p->cur, p->ncur * sizeof(*s->devs));
		s->count = p->ncur;
	} else {
		for (size_t i = 0; i < p->ncur; i++) {
			s->devs[i].read_ops += p->cur[i].read_ops;
			s->devs[i].write_ops += p->cur[i].write_ops;
			s->devs[i].read_bps += p->cur[i].read_bps;
			s->devs[i].write_bps += p->cur[i].write_bps;
		}
	}
	s->pool_read_bps += p->cur_pool[0];
	s->pool_write_bps += p->cur_pool[1];
	p->ncur = 0;
	return 0;
}

static bool dashes(const char *line)
{
	return line[0] == '-' && strspn(line, "- ") == strlen(line);
}

static int line_of(struct parser *p, const char *line)
{
	if (!line[strspn(line, " \t")])
		return p->state == ROWS ? -EINVAL : 0; /* blank lines only between blocks */
	if (p->state != ROWS && strstr(line, "capacity") && strstr(line, "operations")) {
		p->state = HEADER;
		return 0;
	}
	if (p->state == HEADER && !strncmp(line, "pool", 4) && strstr(line, "alloc"))
		return 0;
	if (dashes(line)) {
		if (p->state == HEADER) {
			p->state = ROWS;
			p->pool_seen = p->ours = p->have_pending = false;
			memset(p->path, 0, sizeof(p->path));
			p->ncur = 0;
			return 0;
		}
		if (p->state == ROWS) {
			p->state = OUTSIDE;
			return close_block(p);
		}
		return -EINVAL;
	}
	return p->state == ROWS ? row(p, line) : -EINVAL;
}

/* The later blocks' sums as means, or the only block. */
static int finish(struct parser *p)
{
	struct zpool_iostat *s = p->ret;
	if (!s->blocks)
		return -EINVAL;
	if (s->blocks == 1) {
		s->devs = p->first;
		s->count = p->nfirst;
		p->first = NULL;
		s->pool_read_bps = p->first_pool[0];
		s->pool_write_bps = p->first_pool[1];
		return 0;
	}
	double n = (double)(s->blocks - 1);
	for (size_t i = 0; i < s->count; i++) {
		s->devs[i].read_ops /= n;
		s->devs[i].write_ops /= n;
		s->devs[i].read_bps /= n;
		s->devs[i].write_bps /= n;
	}
	s->pool_read_bps /= n;
	s->pool_write_bps /= n;
	return 0;
}

int zpool_iostat_parse(const char *text, const char *pool, bool allow_cut_tail, struct zpool_iostat *ret)
{
	memset(ret, 0, sizeof(*ret));
	if (!text || !pool || !pool[0])
		return -EINVAL;
	snprintf(ret->pool, sizeof(ret->pool), "%s", pool);
	struct parser p = { .pool = pool, .ret = ret };
	int r = 0;
	const char *s = text;
	char line[1024];
	while (r == 0 && *s) {
		const char *nl = strchr(s, '\n');
		if (!nl && allow_cut_tail)
			break; /* a line cut mid-way */
		size_t len = nl ? (size_t)(nl - s) : strlen(s);
		if (len >= sizeof(line)) {
			r = -EINVAL;
			break;
		}
		memcpy(line, s, len);
		line[len] = '\0';
		r = line_of(&p, line);
		s = nl ? nl + 1 : s + len;
	}
	if (r == 0 && p.state != OUTSIDE && !(allow_cut_tail && ret->blocks))
		r = -EINVAL; /* a block without its closing line */
	if (r == 0)
		r = finish(&p);
	free(p.cur);
	free(p.first);
	if (r < 0)
		zpool_iostat_release(ret);
	return r;
}

const struct zpool_iostat_dev *zpool_iostat_dev(const struct zpool_iostat *s, const char *name)
{
	for (size_t i = 0; i < s->count; i++)
		if (!strcmp(s->devs[i].name, name))
			return &s->devs[i];
	return NULL;
}

void zpool_iostat_release(struct zpool_iostat *s)
{
	free(s->devs);
	s->devs = NULL;
	s->count = 0;
	s->blocks = 0;
}
