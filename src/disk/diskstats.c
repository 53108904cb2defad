/* disk/diskstats.c: /proc/diskstats snapshots, deltas and a sampling thread. */
#include "disk/diskstats.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "basic/fsutil.h"
#include "basic/strbuf.h"
#include "basic/timeutil.h"

static const char *strip_dev(const char *name)
{
	return strncmp(name, "/dev/", 5) == 0 ? name + 5 : name;
}

/* One line: "MAJ MIN NAME c1 .. c11 [more]". Returns 1 when it is NAME's
 * (filled), 0 when another device's, -EINVAL when NAME's and malformed. */
static int parse_line(const char *line, const char *name, struct diskstat *d)
{
	char dev[64];
	unsigned maj, min;
	int used = 0;
	if (sscanf(line, " %u %u %63s%n", &maj, &min, dev, &used) != 3)
		return 0;
	if (strcmp(dev, name) != 0)
		return 0;
	uint64_t v[11];
	const char *p = line + used;
	for (size_t i = 0; i < 11; i++) {
		char *end;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p < '0' || *p > '9')
			return -EINVAL;
		errno = 0;
		v[i] = strtoull(p, &end, 10);
		if (errno || end == p)
			return -EINVAL;
		p = end;
	}
	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", dev);
	d->major = maj;
	d->minor = min;
	d->rd_ios = v[0], d->rd_merges = v[1], d->rd_sectors = v[2], d->rd_ticks_ms = v[3];
	d->wr_ios = v[4], d->wr_merges = v[5], d->wr_sectors = v[6], d->wr_ticks_ms = v[7];
	d->in_flight = v[8], d->io_ticks_ms = v[9], d->time_in_queue_ms = v[10];
	return 1;
}

static int parse_one(const char *text, const char *name, struct diskstat *ret)
{
	for (const char *line = text; line && *line;) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		char buf[512];
		if (len < sizeof(buf)) {
			memcpy(buf, line, len);
			buf[len] = '\0';
			int r = parse_line(buf, name, ret);
			if (r != 0)
				return r < 0 ? r : 0;
		}
		line = nl ? nl + 1 : NULL;
	}
	return -ENOENT;
}

int diskstats_parse(const char *text, const char *const *names, size_t n, struct diskstat *ret)
{
	if (!text)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		int r = parse_one(text, strip_dev(names[i]), &ret[i]);
		if (r < 0)
			return r;
	}
	return 0;
}

static int sub(uint64_t a, uint64_t b, uint64_t *ret)
{
	if (b < a)
		return -ERANGE;
	*ret = b - a;
	return 0;
}

int diskstats_delta(const struct diskstat *a, const struct diskstat *b, double seconds,
		    struct diskstat_delta *ret)
{
	if (strcmp(a->name, b->name) != 0)
		return -EINVAL;
	if (!(seconds > 0))
		return -ERANGE;
	uint64_t rs, ws, rt, wt;
	memset(ret, 0, sizeof(*ret));
	if (sub(a->rd_ios, b->rd_ios, &ret->reads) || sub(a->wr_ios, b->wr_ios, &ret->writes) ||
	    sub(a->rd_sectors, b->rd_sectors, &rs) || sub(a->wr_sectors, b->wr_sectors, &ws) ||
	    sub(a->rd_ticks_ms, b->rd_ticks_ms, &rt) || sub(a->wr_ticks_ms, b->wr_ticks_ms, &wt) ||
	    sub(a->io_ticks_ms, b->io_ticks_ms, &ret->busy_ms))
		return -ERANGE;
	snprintf(ret->name, sizeof(ret->name), "%s", a->name);
	ret->seconds = seconds;
	ret->read_bytes = rs * 512;
	ret->write_bytes = ws * 512;
	ret->busy = (double)ret->busy_ms / (seconds * 1000.0);
	if (ret->busy > 1)
		ret->busy = 1;
	ret->read_wait_ms = ret->reads ? (double)rt / (double)ret->reads : 0;
	ret->write_wait_ms = ret->writes ? (double)wt / (double)ret->writes : 0;
	uint64_t ios = ret->reads + ret->writes;
	ret->wait_ms = ios ? (double)(rt + wt) / (double)ios : 0;
	return 0;
}

int diskstats_read(const char *path, const char *const *names, size_t n, struct diskstat *ret)
{
	/* /proc/diskstats is ~150 bytes a device: 1 MiB holds thousands. */
	size_t cap = 1 << 20;
	char *buf = malloc(cap);
	if (!buf)
		return -ENOMEM;
	int r = read_small_file(path ? path : DISKSTATS_PATH, buf, cap);
	if (r >= 0)
		r = diskstats_parse(buf, names, n, ret);
	free(buf);
	return r;
}

/* Records the interval PREV -> NOW (locked by the caller). */
static void record_interval(struct diskstats_sampler *s, const struct diskstat *now, uint64_t t)
{
	if (s->intervals >= DISKSTATS_MAX_SAMPLES || t <= s->prev_ns)
		return;
	double sec = (double)(t - s->prev_ns) / 1e9;
	struct diskstat_delta *row = s->samples + s->intervals * s->n;
	for (size_t i = 0; i < s->n; i++) {
		int r = diskstats_delta(&s->prev[i], &now[i], sec, &row[i]);
		if (r < 0 && !s->error)
			s->error = r;
	}
	s->intervals++;
	memcpy(s->prev, now, s->n * sizeof(*now));
	s->prev_ns = t;
}

static int snapshot(struct diskstats_sampler *s, struct diskstat *out)
{
	const char **names = xcalloc(s->n ? s->n : 1, sizeof(*names));
	for (size_t i = 0; i < s->n; i++)
		names[i] = s->names[i];
	int r = diskstats_read(s->path, names, s->n, out);
	free(names);
	return r;
}

static void *sampler_thread(void *arg)
{
	struct diskstats_sampler *s = arg;
	struct diskstat *now = xcalloc(s->n, sizeof(*now));
	pthread_mutex_lock(&s->lock);
	while (!s->stop) {
		struct timespec until;
		clock_gettime(CLOCK_MONOTONIC, &until);
		uint64_t ns = (uint64_t)until.tv_nsec + (uint64_t)s->interval_ms * 1000000ULL;
		until.tv_sec += (time_t)(ns / 1000000000ULL);
		until.tv_nsec = (long)(ns % 1000000000ULL);
		int w = 0;
		while (!s->stop && w != ETIMEDOUT)
			w = pthread_cond_timedwait(&s->wake, &s->lock, &until);
		if (s->stop)
			break;
		int r = snapshot(s, now);
		if (r < 0 && !s->error)
			s->error = r;
		if (r >= 0)
			record_interval(s, now, now_ns());
	}
	pthread_mutex_unlock(&s->lock);
	free(now);
	return NULL;
}

static void sampler_free(struct diskstats_sampler *s)
{
	free(s->names);
	free(s->first);
	free(s->prev);
	free(s->samples);
	s->names = NULL, s->first = NULL, s->prev = NULL, s->samples = NULL;
}

static int sampler_init(struct diskstats_sampler *s, const char *path, const char *const *names,
			size_t n, unsigned interval_ms)
{
	memset(s, 0, sizeof(*s));
	snprintf(s->path, sizeof(s->path), "%s", path ? path : DISKSTATS_PATH);
	s->n = n;
	s->interval_ms = interval_ms;
	s->names = xcalloc(n ? n : 1, sizeof(*s->names));
	for (size_t i = 0; i < n; i++) {
		if (strlen(strip_dev(names[i])) >= sizeof(s->names[i]))
			return -ENAMETOOLONG;
		snprintf(s->names[i], sizeof(s->names[i]), "%s", strip_dev(names[i]));
	}
	s->first = xcalloc(n ? n : 1, sizeof(*s->first));
	s->prev = xcalloc(n ? n : 1, sizeof(*s->prev));
	if (interval_ms)
		s->samples = xcalloc(DISKSTATS_MAX_SAMPLES * (n ? n : 1), sizeof(*s->samples));
	return 0;
}

int diskstats_sampler_start(struct diskstats_sampler *s, const char *path,
			    const char *const *names, size_t n, unsigned interval_ms)
{
	int r = sampler_init(s, path, names, n, interval_ms);
	if (r >= 0)
		r = snapshot(s, s->first);
	if (r < 0) {
		sampler_free(s);
		return r;
	}
	s->first_ns = s->prev_ns = now_ns();
	memcpy(s->prev, s->first, n * sizeof(*s->first));
	pthread_mutex_init(&s->lock, NULL);
	pthread_condattr_t attr;
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&s->wake, &attr);
	pthread_condattr_destroy(&attr);
	if (interval_ms) {
		r = -pthread_create(&s->thread, NULL, sampler_thread, s);
		if (r < 0) {
			pthread_cond_destroy(&s->wake);
			pthread_mutex_destroy(&s->lock);
			sampler_free(s);
			return r;
		}
		s->running = true;
	}
	return 0;
}

static int fill_result(struct diskstats_sampler *s, const struct diskstat *last, uint64_t t,
		       struct diskstats_result *ret)
{
	memset(ret, 0, sizeof(*ret));
	double sec = t > s->first_ns ? (double)(t - s->first_ns) / 1e9 : 1e-9;
	struct diskstat_delta *total = xcalloc(s->n ? s->n : 1, sizeof(*total));
	for (size_t i = 0; i < s->n; i++) {
		int r = diskstats_delta(&s->first[i], &last[i], sec, &total[i]);
		if (r < 0) {
			free(total);
			return r;
		}
	}
	ret->n = s->n;
	ret->total = total;
	ret->samples = s->samples;
	ret->intervals = s->intervals;
	s->samples = NULL;
	return 0;
}

int diskstats_sampler_stop(struct diskstats_sampler *s, struct diskstats_result *ret)
{
	memset(ret, 0, sizeof(*ret));
	if (s->running) {
		pthread_mutex_lock(&s->lock);
		s->stop = true;
		pthread_cond_signal(&s->wake);
		pthread_mutex_unlock(&s->lock);
		pthread_join(s->thread, NULL);
		s->running = false;
	}
	struct diskstat *last = xcalloc(s->n ? s->n : 1, sizeof(*last));
	int r = snapshot(s, last);
	uint64_t t = now_ns();
	if (r >= 0 && s->interval_ms)
		record_interval(s, last, t);
	if (r >= 0)
		r = s->error;
	if (r >= 0)
		r = fill_result(s, last, t, ret);
	free(last);
	pthread_cond_destroy(&s->wake);
	pthread_mutex_destroy(&s->lock);
	sampler_free(s);
	return r;
}

void diskstats_result_release(struct diskstats_result *r)
{
	if (!r)
		return;
	free(r->total);
	free(r->samples);
	memset(r, 0, sizeof(*r));
}

double diskstats_peak_busy(const struct diskstats_result *r, size_t i)
{
	if (i >= r->n)
		return 0;
	if (!r->intervals)
		return r->total[i].busy;
	double peak = 0;
	for (size_t k = 0; k < r->intervals; k++)
		if (r->samples[k * r->n + i].busy > peak)
			peak = r->samples[k * r->n + i].busy;
	return peak;
}
