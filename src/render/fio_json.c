/* A run's results in fio's JSON schema (see render/fio_json.h). */
#include "render/fio_json.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "output/json.h"

static const double fio_percentiles[] = { 1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99 };

/* min, max, mean, stddev, N: fio's latency head (zeros for no I/O, as fio). */
static void lat_head(struct json *j, const struct histogram *h)
{
	bool any = h && h->count;
	json_uint(j, "min", any ? h->min : 0);
	json_uint(j, "max", any ? h->max : 0);
	json_double(j, "mean", any ? hist_mean(h) : 0);
	json_double(j, "stddev", any ? hist_stddev(h) : 0);
	json_uint(j, "N", any ? h->count : 0);
}

static void lat_full(struct json *j, const char *key, const struct histogram *h)
{
	json_begin_object(j, key);
	lat_head(j, h);
	if (h && h->count) {
		char name[32];
		json_begin_object(j, "percentile");
		for (size_t i = 0; i < sizeof(fio_percentiles) / sizeof(fio_percentiles[0]); i++) {
			snprintf(name, sizeof(name), "%f", fio_percentiles[i]);
			json_uint(j, name, hist_percentile(h, fio_percentiles[i]));
		}
		json_end_object(j);
		json_begin_object(j, "bins");
		for (unsigned b = 0; b < HIST_BUCKETS; b++) {
			if (!h->buckets[b])
				continue;
			uint64_t lo = 0, hi = 0;
			hist_bucket_range(b, &lo, &hi);
			snprintf(name, sizeof(name), "%llu", (unsigned long long)lo);
			json_uint(j, name, h->buckets[b]);
		}
		json_end_object(j);
	}
	json_end_object(j);
}

static void lat_short(struct json *j, const char *key, const struct histogram *h)
{
	json_begin_object(j, key);
	lat_head(j, h);
	json_end_object(j);
}

/* min, max, mean, sample stddev of N rates, scaled by SCALE (1/1024: KiB/s). */
struct rate_stats {
	double min, max, mean, dev;
	unsigned n;
};

static struct rate_stats rate_stats(const double *v, unsigned n, double scale)
{
	struct rate_stats s = { .n = n };
	for (unsigned i = 0; i < n; i++) {
		double x = v[i] * scale;
		s.min = i == 0 || x < s.min ? x : s.min;
		s.max = i == 0 || x > s.max ? x : s.max;
		s.mean += x / n;
	}
	double var = 0;
	for (unsigned i = 0; n > 1 && i < n; i++)
		var += (v[i] * scale - s.mean) * (v[i] * scale - s.mean) / (n - 1);
	s.dev = sqrt(var);
	return s;
}

/* fio's per-interval figures of one direction, from the job's samples (none
 * when the direction did no I/O; bw_agg is 100: one job per group). */
static void interval_figures(struct json *j, const struct job_result *r, unsigned dir, uint64_t ios)
{
	unsigned n = r && ios ? r->nr_samples : 0;
	struct rate_stats bw = rate_stats(n ? r->samples_dir_bw[dir] : NULL, n, 1.0 / 1024);
	struct rate_stats io = rate_stats(n ? r->samples_dir_iops[dir] : NULL, n, 1.0);
	json_uint(j, "bw_min", (uint64_t)llround(bw.min));
	json_uint(j, "bw_max", (uint64_t)llround(bw.max));
	json_double(j, "bw_agg", n ? 100.0 : 0);
	json_double(j, "bw_mean", bw.mean);
	json_double(j, "bw_dev", bw.dev);
	json_uint(j, "bw_samples", bw.n);
	json_uint(j, "iops_min", (uint64_t)llround(io.min));
	json_uint(j, "iops_max", (uint64_t)llround(io.max));
	json_double(j, "iops_mean", io.mean);
	json_double(j, "iops_stddev", io.dev);
	json_uint(j, "iops_samples", io.n);
}

/* One direction: fio's keys; bandwidth and IOPS over the job's time. */
static void direction(struct json *j, const char *key, const struct job_result *r, unsigned dir, uint64_t bytes,
		      uint64_t ios, const struct histogram *lat, const struct histogram *slat, double seconds)
{
	double bw = seconds > 0 ? (double)bytes / seconds : 0, iops = seconds > 0 ? (double)ios / seconds : 0;
	json_begin_object(j, key);
	json_uint(j, "io_bytes", bytes);
	json_uint(j, "io_kbytes", bytes >> 10);
	json_uint(j, "bw_bytes", (uint64_t)bw);
	json_uint(j, "bw", (uint64_t)(bw / 1024));
	json_double(j, "iops", iops);
	json_uint(j, "runtime", ios ? (uint64_t)llround(seconds * 1000) : 0);
	json_uint(j, "total_ios", ios);
	json_uint(j, "short_ios", 0);
	json_uint(j, "drop_ios", 0);
	lat_short(j, "slat_ns", slat);
	lat_full(j, "clat_ns", lat);
	lat_short(j, "lat_ns", lat);
	interval_figures(j, r, dir, ios);
	json_end_object(j);
}

static void job_options(struct json *j, const struct fio_json_job *job)
{
	const struct run_settings *s = job->settings;
	char v[32];
	json_begin_object(j, "job options");
	json_string(j, "name", job->name);
	json_string(j, "filename", job->target);
	if (s) {
		json_string(j, "rw", s->rw);
		snprintf(v, sizeof(v), "%u", s->spec.bs);
		json_string(j, "bs", v);
		snprintf(v, sizeof(v), "%u", s->spec.iodepth);
		json_string(j, "iodepth", v);
		snprintf(v, sizeof(v), "%u", s->spec.numjobs);
		json_string(j, "numjobs", v);
		json_string(j, "ioengine", s->engine ? s->engine : "auto");
		json_string(j, "direct", s->direct ? "1" : "0");
	}
	json_end_object(j);
}

/* fio's tables of shares, here empty: iotriage does not keep them per job. */
static void zero_table(struct json *j, const char *key, const char *const *names, size_t n)
{
	json_begin_object(j, key);
	for (size_t i = 0; i < n; i++)
		json_double(j, names[i], 0);
	json_end_object(j);
}

static void job_tables(struct json *j, const struct job_result *r)
{
	static const char *const depth[] = { "1", "2", "4", "8", "16", "32", ">=64" };
	static const char *const submit[] = { "0", "4", "8", "16", "32", "64", ">=64" };
	static const char *const ns[] = { "2", "4", "10", "20", "50", "100", "250", "500", "750", "1000" };
	static const char *const ms[] = { "2", "4", "10", "20", "50", "100", "250", "500", "750", "1000", "2000",
					  ">=2000" };
	json_begin_object(j, "iodepth_level");
	for (size_t i = 0; i < sizeof(depth) / sizeof(depth[0]); i++) {
		unsigned at = 1U << i;
		bool here = r && (i + 1 == sizeof(depth) / sizeof(depth[0]) ? r->iodepth >= at
									   : r->iodepth >= at && r->iodepth < at * 2);
		json_double(j, depth[i], here ? 100.0 : 0); /* the depth the engine ran at */
	}
	json_end_object(j);
	zero_table(j, "iodepth_submit", submit, sizeof(submit) / sizeof(submit[0]));
	zero_table(j, "iodepth_complete", submit, sizeof(submit) / sizeof(submit[0]));
	zero_table(j, "latency_ns", ns, sizeof(ns) / sizeof(ns[0]));
	zero_table(j, "latency_us", ns, sizeof(ns) / sizeof(ns[0]));
	zero_table(j, "latency_ms", ms, sizeof(ms) / sizeof(ms[0]));
	json_uint(j, "latency_depth", r ? r->iodepth : 0);
	json_uint(j, "latency_target", 0);
	json_double(j, "latency_percentile", 100.0);
	json_uint(j, "latency_window", 0);
}

static void one_job(struct json *j, const struct fio_json_job *job, unsigned groupid)
{
	const struct job_result *r = job->res;
	double secs = r ? r->seconds : 0, user = 0, sys = 0, busy = 0;
	uint64_t ctx = 0;
	for (unsigned i = 0; r && i < r->nr_workers; i++) {
		user += r->workers[i].user_seconds;
		sys += r->workers[i].system_seconds;
		busy += r->workers[i].busy_seconds;
		ctx += r->workers[i].voluntary_switches + r->workers[i].involuntary_switches;
	}
	json_begin_object(j, NULL);
	json_string(j, "jobname", job->name);
	json_uint(j, "groupid", groupid);
	json_int(j, "error", job->error && job->error[0] ? (r && r->error ? -r->error : 5) : 0);
	json_uint(j, "eta", 0);
	json_uint(j, "elapsed", (uint64_t)ceil(secs + (r ? r->ramp_seconds : 0)));
	job_options(j, job);
	direction(j, "read", r, IO_READ, r ? r->read_bytes : 0, r ? r->read_ios : 0, r ? &r->lat_read : NULL,
		  r && r->has_slat ? &r->slat_read : NULL, secs);
	direction(j, "write", r, IO_WRITE, r ? r->write_bytes : 0, r ? r->write_ios : 0, r ? &r->lat_write : NULL,
		  r && r->has_slat ? &r->slat_write : NULL, secs);
	direction(j, "trim", r, IO_TRIM, r ? r->trim_bytes : 0, r ? r->trim_ios : 0, r ? &r->lat_trim : NULL, NULL, secs);
	json_begin_object(j, "sync");
	json_uint(j, "total_ios", r ? r->sync_ios : 0);
	lat_full(j, "lat_ns", r ? &r->lat_sync : NULL);
	json_end_object(j);
	json_uint(j, "job_runtime", (uint64_t)llround(secs * 1000));
	json_double(j, "usr_cpu", busy > 0 ? 100 * user / busy : 0);
	json_double(j, "sys_cpu", busy > 0 ? 100 * sys / busy : 0);
	json_uint(j, "ctx", ctx);
	json_uint(j, "majf", 0);
	json_uint(j, "minf", 0);
	job_tables(j, r);
	json_end_object(j);
}

void fio_json_render(const struct fio_json_job *jobs, size_t n, struct strbuf *out)
{
	struct json j;
	json_init(&j);
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	char when[64];
	struct tm tm;
	time_t t = now.tv_sec;
	localtime_r(&t, &tm);
	strftime(when, sizeof(when), "%a %b %e %H:%M:%S %Y", &tm);
	json_begin_object(&j, NULL);
	json_string(&j, "fio version", "iotriage-" IOTRIAGE_VERSION);
	json_uint(&j, "timestamp", (uint64_t)now.tv_sec);
	json_uint(&j, "timestamp_ms", (uint64_t)now.tv_sec * 1000 + (uint64_t)now.tv_nsec / 1000000);
	json_string(&j, "time", when);
	json_begin_object(&j, "global options"); /* each job's options are under its own "job options" */
	json_end_object(&j);
	json_begin_array(&j, "jobs");
	for (size_t i = 0; i < n; i++)
		one_job(&j, &jobs[i], (unsigned)i);
	json_end_array(&j);
	json_begin_array(&j, "disk_util");
	json_end_array(&j);
	json_end_object(&j);
	strbuf_adds(out, j.out.buf);
	strbuf_addch(out, '\n');
	json_release(&j);
}
