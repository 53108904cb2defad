/* pool/member_load.c: a member against its vdev siblings. */
#include "pool/member_load.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "media/outlier.h"

struct sibling_stats {
	size_t n;
	double median, mad, lo, hi;
};

static bool support_vdev(const char *v)
{
	return !strcmp(v, "logs") || !strcmp(v, "cache") || !strcmp(v, "spares");
}

/* FIELD of every other data member of M[I]'s vdev. */
static void siblings(const struct member_load *m, size_t n, size_t i, double (*field)(const struct member_load *),
		     double *buf, struct sibling_stats *ret)
{
	size_t k = 0;
	for (size_t j = 0; j < n; j++)
		if (j != i && !strcmp(m[j].vdev, m[i].vdev))
			buf[k++] = field(&m[j]);
	memset(ret, 0, sizeof(*ret));
	ret->n = k;
	if (!k)
		return;
	ret->median = median_of(buf, k); /* sorted now */
	ret->lo = buf[0];
	ret->hi = buf[k - 1];
	for (size_t j = 0; j < k; j++)
		buf[j] = fabs(buf[j] - ret->median);
	ret->mad = median_of(buf, k);
}

static double f_busy(const struct member_load *m) { return m->busy; }
static double f_wait(const struct member_load *m) { return m->wait_ms; }
static double f_read(const struct member_load *m) { return m->read_bytes; }
static double f_reads(const struct member_load *m) { return (double)m->reads; }

static void add(struct pool_findings *out, const struct member_load *m, const char *code,
		const char *what, const struct sibling_stats *s, double v, double scale, const char *unit)
{
	struct pool_finding *f = pool_findings_add(out, code, "finding", m->name);
	snprintf(f->text, sizeof(f->text), "member %s of %s %s: %.0f%s against %.0f-%.0f%s for its %zu sibling%s",
		 m->name, m->vdev, what, v * scale, unit, s->lo * scale, s->hi * scale, unit, s->n, s->n > 1 ? "s" : "");
	snprintf(f->fix, sizeof(f->fix), "read %s alone (iotriage readdisk), check its health (smartctl) and its path (cable, controller, backing store)",
		 m->name);
	snprintf(f->evidence, sizeof(f->evidence), "%s=%.3f, siblings median %.3f, MAD %.3f, %llu requests",
		 code, v, s->median, s->mad, (unsigned long long)m->ios);
}

static int judge_one(const struct member_load *m, size_t n, size_t i, double *buf, struct pool_findings *out)
{
	struct sibling_stats s, reads, count;
	const struct member_load *x = &m[i];
	int found = 0;
	siblings(m, n, i, f_read, buf, &reads);
	siblings(m, n, i, f_reads, buf, &count);
	/* A member given more to read than its siblings, in bytes or in requests, is busier and waits longer
	 * for that alone (a raidz whose same-sized records keep the parity on the same columns): not slow. */
	bool more_work = (reads.median > 0 && x->read_bytes >= MEMBER_LOAD_WORK_RATIO * reads.median) ||
			 (count.median > 0 && (double)x->reads >= MEMBER_LOAD_WORK_RATIO * count.median);
	siblings(m, n, i, f_busy, buf, &s);
	if (!s.n || x->ios < MEMBER_LOAD_MIN_IOS)
		return 0;
	if (!more_work && x->busy >= MEMBER_LOAD_BUSY_MIN && x->busy >= MEMBER_LOAD_BUSY_RATIO * s.median &&
	    x->busy - s.median >= MEMBER_LOAD_BUSY_POINTS)
		add(out, x, "member-busy", "is busy", &s, x->busy, 100, "%"), found++;
	siblings(m, n, i, f_wait, buf, &s);
	if (!more_work && x->wait_ms >= MEMBER_LOAD_WAIT_RATIO * s.median && x->wait_ms - s.median >= MEMBER_LOAD_WAIT_MS)
		add(out, x, "member-slow", "waits per request", &s, x->wait_ms, 1, " ms"), found++;
	if (!strncmp(x->vdev, "mirror", 6) && !x->locality_reads && reads.median >= MEMBER_LOAD_SHARE_MIN_BYTES &&
	    x->read_bytes <= MEMBER_LOAD_SHARE_RATIO * reads.median)
		add(out, x, "member-share", "serves fewer of the mirror's reads", &reads, x->read_bytes, 1.0 / 1048576,
		    " MiB"),
			found++;
	return found;
}

int member_load_judge(const struct member_load *m, size_t n, struct pool_findings *out)
{
	for (size_t i = 0; i < n; i++)
		if (!m[i].name || !m[i].vdev || !(m[i].busy >= 0 && m[i].busy <= 1) || !(m[i].wait_ms >= 0))
			return -EINVAL;
	double *buf = calloc(n ? n : 1, sizeof(*buf));
	if (!buf)
		return -ENOMEM;
	int found = 0;
	for (size_t i = 0; i < n; i++)
		if (!support_vdev(m[i].vdev))
			found += judge_one(m, n, i, buf, out);
	free(buf);
	return found;
}
