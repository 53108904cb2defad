/* fio's time-series and histogram logs (see bench/joblog.h). */
#include "bench/joblog.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/fsutil.h"
#include "basic/strbuf.h"
#include "bench/histogram.h"

/* An interval's latencies: fio's avg_window. */
struct window {
	uint64_t sum, max, n;
};

struct joblog_worker {
	struct joblog_series series[JOBLOG_HIST];
	struct window win[JOBLOG_HIST][2];    /* lat, clat, slat */
	uint64_t avg_last[JOBLOG_HIST][2];    /* where the interval began, ms */
	uint64_t rate_last_ms;                /* bw and iops: the interval's start */
	uint64_t bytes[2], ios[2], bytes_at[2], ios_at[2];
	uint64_t (*plat)[JOBLOG_PLAT_NR];     /* [2]: each direction's clat since its last line */
	uint64_t hist_last[2];
	uint64_t *hist;                       /* lines: time, ddir, bs, then the buckets */
	size_t hist_n, hist_cap;              /* in uint64_t */
};

static const char *const kind_names[JOBLOG_KINDS] = { "bw", "iops", "lat", "clat", "slat", "clat_hist" };

bool joblog_wanted(const struct joblog_spec *spec)
{
	return spec->bw[0] || spec->iops[0] || spec->lat[0] || spec->hist[0];
}

int joblog_begin(struct joblog *log, unsigned nr)
{
	log->workers = calloc(nr, sizeof(*log->workers));
	if (!log->workers)
		return -ENOMEM;
	log->nr_workers = nr;
	for (unsigned i = 0; log->spec.hist[0] && i < nr; i++) {
		log->workers[i].plat = calloc(2, sizeof(*log->workers[i].plat));
		if (!log->workers[i].plat)
			return -ENOMEM;
	}
	return 0;
}

static void add(struct joblog_series *s, uint64_t time_ms, uint64_t value, int ddir, uint32_t bs, uint64_t offset)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 256;
		s->v = xreallocarray(s->v, s->cap, sizeof(*s->v));
	}
	s->v[s->n++] = (struct joblog_sample){ .time_ms = time_ms, .value = value, .offset = offset, .bs = bs,
					       .ddir = (uint8_t)ddir };
}

/* fio's __add_stat_to_log: the interval's mean (rounded) or max, bs 0. */
static void flush_window(const struct joblog *log, struct joblog_worker *w, int kind, int ddir, uint64_t t)
{
	struct window *win = &w->win[kind][ddir];
	if (win->n) {
		uint64_t v = log->spec.log_max ? win->max : (uint64_t)((double)win->sum / (double)win->n + 0.5);
		add(&w->series[kind], t, v, ddir, 0, 0);
	}
	*win = (struct window){ 0 };
}

/* fio's add_log_sample for a latency: a line per I/O, or into the
 * interval, which is logged once it is avg_msec long. */
static void latency_sample(const struct joblog *log, struct joblog_worker *w, int kind, const struct joblog_io *io,
			   uint64_t t, uint64_t value)
{
	unsigned avg = log->spec.avg_msec;
	if (!avg) {
		add(&w->series[kind], t, value, io->ddir, io->bytes, io->offset);
		return;
	}
	struct window *win = &w->win[kind][io->ddir];
	win->sum += value;
	win->n++;
	if (value > win->max)
		win->max = value;
	uint64_t *last = &w->avg_last[kind][io->ddir];
	if (t < *last || t - *last < avg)
		return;
	flush_window(log, w, kind, io->ddir, t);
	*last = t - t % avg;
}

/* fio's __add_samples (its helper thread's, here at the completion that
 * ends the interval, with fio's 1 ms of slack): each direction that moved
 * data in it. */
static void rate_samples(const struct joblog *log, struct joblog_worker *w, uint64_t t)
{
	uint64_t spent = t - w->rate_last_ms;
	if (spent + 1 < log->spec.avg_msec)
		return;
	for (int d = 0; d < 2; d++) {
		uint64_t bytes = w->bytes[d] - w->bytes_at[d], ios = w->ios[d] - w->ios_at[d];
		if (!bytes)
			continue;
		if (log->spec.bw[0])
			add(&w->series[JOBLOG_BW], t, bytes * 1000 / spent / 1024, d, 0, 0);
		if (log->spec.iops[0])
			add(&w->series[JOBLOG_IOPS], t, ios * 1000 / spent, d, 0, 0);
		w->bytes_at[d] = w->bytes[d];
		w->ios_at[d] = w->ios[d];
	}
	w->rate_last_ms = t;
}

static size_t hist_cols(const struct joblog *log)
{
	return JOBLOG_PLAT_NR >> log->spec.hist_coarseness;
}

/* fio's clat histogram window: the line when log_hist_msec has passed
 * since the last (its drift carried into the next). */
static void hist_sample(const struct joblog *log, struct joblog_worker *w, const struct joblog_io *io, uint64_t t)
{
	unsigned b = hist_bucket_of(io->clat_ns);
	uint64_t *plat = w->plat[io->ddir];
	plat[b < JOBLOG_PLAT_NR ? b : JOBLOG_PLAT_NR - 1]++;
	if (!log->spec.hist_msec)
		return;
	uint64_t *last = &w->hist_last[io->ddir];
	if (!*last)
		*last = t;
	uint64_t window = t - *last;
	if (window < log->spec.hist_msec)
		return;
	size_t cols = hist_cols(log), stride = (size_t)1 << log->spec.hist_coarseness;
	if (w->hist_n + 3 + cols > w->hist_cap) {
		w->hist_cap = (w->hist_cap ? w->hist_cap * 2 : 16 * (3 + cols));
		w->hist = xreallocarray(w->hist, w->hist_cap, sizeof(*w->hist));
	}
	uint64_t *line = w->hist + w->hist_n;
	line[0] = t;
	line[1] = (uint64_t)io->ddir;
	line[2] = io->bytes;
	for (size_t c = 0; c < cols; c++) {
		uint64_t sum = 0;
		for (size_t k = 0; k < stride; k++)
			sum += plat[c * stride + k];
		line[3 + c] = sum;
	}
	w->hist_n += 3 + cols;
	memset(plat, 0, sizeof(w->plat[0]));
	*last = t - (window - log->spec.hist_msec);
}

void joblog_io(struct joblog *log, unsigned wi, const struct joblog_io *io)
{
	struct joblog_worker *w = &log->workers[wi];
	const struct joblog_spec *spec = &log->spec;
	uint64_t t = io->done_ns / 1000000;
	int d = io->ddir ? 1 : 0;
	w->bytes[d] += io->bytes;
	w->ios[d]++;
	if (spec->bw[0] && !spec->avg_msec)
		add(&w->series[JOBLOG_BW], t, io->clat_ns ? (uint64_t)io->bytes * 1000000 / io->clat_ns : 0, d,
		    io->bytes, io->offset);
	if (spec->iops[0] && !spec->avg_msec)
		add(&w->series[JOBLOG_IOPS], t, 1, d, io->bytes, io->offset);
	if ((spec->bw[0] || spec->iops[0]) && spec->avg_msec)
		rate_samples(log, w, t);
	if (spec->lat[0]) {
		if (io->has_slat)
			latency_sample(log, w, JOBLOG_SLAT, io, spec->avg_msec ? t : io->submit_ns / 1000000, io->slat_ns);
		latency_sample(log, w, JOBLOG_CLAT, io, t, io->clat_ns);
		latency_sample(log, w, JOBLOG_LAT, io, t, io->lat_ns);
	}
	if (spec->hist[0])
		hist_sample(log, w, io, t);
}

void joblog_finish(struct joblog *log, unsigned wi, uint64_t end_ns)
{
	struct joblog_worker *w = &log->workers[wi];
	if (!log->spec.lat[0] || !log->spec.avg_msec)
		return;
	for (int kind = JOBLOG_LAT; kind <= JOBLOG_SLAT; kind++)
		for (int d = 0; d < 2; d++)
			flush_window(log, w, kind, d, end_ns / 1000000);
}

const struct joblog_series *joblog_series(const struct joblog *log, unsigned w, enum joblog_kind kind)
{
	return w < log->nr_workers && kind < JOBLOG_HIST ? &log->workers[w].series[kind] : NULL;
}

static const char *prefix_of(const struct joblog *log, enum joblog_kind kind)
{
	switch (kind) {
	case JOBLOG_BW:
		return log->spec.bw;
	case JOBLOG_IOPS:
		return log->spec.iops;
	case JOBLOG_HIST:
		return log->spec.hist;
	default:
		return log->spec.lat;
	}
}

bool joblog_asked(const struct joblog *log, enum joblog_kind kind)
{
	return prefix_of(log, kind)[0] != '\0';
}

void joblog_path(const struct joblog *log, enum joblog_kind kind, unsigned w, char *buf, size_t len)
{
	snprintf(buf, len, "%s_%s.%u.log", prefix_of(log, kind), kind_names[kind], log->spec.first_jobnum + w);
}

void joblog_format(const struct joblog *log, enum joblog_kind kind, unsigned wi, struct strbuf *out)
{
	const struct joblog_worker *w = &log->workers[wi];
	if (kind == JOBLOG_HIST) {
		size_t step = 3 + hist_cols(log);
		for (size_t at = 0; at + step <= w->hist_n; at += step) {
			const uint64_t *line = w->hist + at;
			strbuf_addf(out, "%llu, %llu, %llu", (unsigned long long)line[0], (unsigned long long)line[1],
				    (unsigned long long)line[2]);
			for (size_t c = 3; c < step; c++)
				strbuf_addf(out, ", %llu", (unsigned long long)line[c]);
			strbuf_addch(out, '\n');
		}
		return;
	}
	const struct joblog_series *s = &w->series[kind];
	for (size_t i = 0; i < s->n; i++) {
		const struct joblog_sample *p = &s->v[i];
		strbuf_addf(out, "%llu, %llu, %u, %u, ", (unsigned long long)p->time_ms, (unsigned long long)p->value,
			    p->ddir, p->bs);
		if (log->spec.log_offset)
			strbuf_addf(out, "%llu, ", (unsigned long long)p->offset);
		strbuf_adds(out, "0\n");
	}
}

int joblog_write(const struct joblog *log, char *why, size_t len)
{
	int written = 0;
	for (int kind = 0; kind < JOBLOG_KINDS; kind++) {
		if (!joblog_asked(log, (enum joblog_kind)kind))
			continue;
		for (unsigned w = 0; w < log->nr_workers; w++) {
			char path[512];
			struct strbuf sb = STRBUF_INIT;
			joblog_path(log, (enum joblog_kind)kind, w, path, sizeof(path));
			joblog_format(log, (enum joblog_kind)kind, w, &sb);
			int r = write_file_atomic(path, sb.buf ? sb.buf : "", sb.len, 0644);
			strbuf_release(&sb);
			if (r < 0) {
				snprintf(why, len, "cannot write the log '%s': %s", path, strerror(-r));
				return r;
			}
			written++;
		}
	}
	return written;
}

void joblog_release(struct joblog *log)
{
	for (unsigned i = 0; log->workers && i < log->nr_workers; i++) {
		struct joblog_worker *w = &log->workers[i];
		for (int k = 0; k < JOBLOG_HIST; k++)
			free(w->series[k].v);
		free(w->plat);
		free(w->hist);
	}
	free(log->workers);
	log->workers = NULL;
	log->nr_workers = 0;
}
