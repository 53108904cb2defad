/* poolbench/parse.c: fio JSON, dd's summary line, elbencho's table. */
#include "poolbench/parse.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void add_direction(const struct jv *d, bool modern, struct fio_direction *sum)
{
	if (!d)
		return;
	double bytes, bw;
	if (modern) {
		bytes = jv_number(jv_get(d, "io_bytes"), 0);
		bw = jv_number(jv_get(d, "bw_bytes"), 0);
	} else {
		/* fio 2.x: io_bytes (or io_kbytes) and bw are KiB and KiB/s. */
		bytes = 1024.0 * jv_number(jv_get(d, "io_kbytes"), jv_number(jv_get(d, "io_bytes"), 0));
		bw = 1024.0 * jv_number(jv_get(d, "bw"), 0);
	}
	sum->bytes += jv_double_to_u64(bytes, 0);
	sum->bw_bytes_per_s += bw;
	sum->iops += jv_number(jv_get(d, "iops"), 0);
	double runtime = jv_number(jv_get(d, "runtime"), 0) / 1000.0;
	if (runtime > sum->runtime_s)
		sum->runtime_s = runtime;
}

int fio_parse(const char *text, size_t len, struct fio_summary *ret, struct jv **ret_doc, char *err,
	      size_t errlen)
{
	*ret = (struct fio_summary){ .jobs = 0 };
	const char *start = memchr(text, '{', len);
	if (!start) {
		snprintf(err, errlen, "fio printed no JSON document");
		return -EINVAL;
	}
	struct jv *doc;
	if (jv_parse(start, len - (size_t)(start - text), &doc, err, errlen) < 0)
		return -EINVAL;
	const struct jv *jobs = jv_get(doc, "jobs");
	if (!jobs || jobs->type != JV_ARRAY) {
		snprintf(err, errlen, "fio's document has no jobs");
		jv_free(doc);
		return -EINVAL;
	}
	snprintf(ret->version, sizeof(ret->version), "%s", jv_string(jv_get(doc, "fio version"), "unknown"));
	for (size_t i = 0; i < jobs->count; i++) {
		const struct jv *job = &jobs->items[i];
		const struct jv *rd = jv_get(job, "read"), *wr = jv_get(job, "write");
		bool modern = jv_get(rd, "bw_bytes") || jv_get(wr, "bw_bytes");
		add_direction(rd, modern, &ret->read);
		add_direction(wr, modern, &ret->write);
		int e = jv_int(jv_get(job, "error"), 0);
		if (e && !ret->error)
			ret->error = e;
		ret->jobs++;
	}
	if (ret_doc)
		*ret_doc = doc;
	else
		jv_free(doc);
	return 0;
}

bool fio_latency(const struct jv *dir, const char *key, struct hist_summary *ret)
{
	const struct jv *lat = jv_get(dir, key);
	const struct jv *pct = jv_get(lat, "percentile");
	if (!lat || !pct)
		return false;
	*ret = (struct hist_summary){
		.count = jv_u64(jv_get(lat, "N"), 0),
		.min = jv_u64(jv_get(lat, "min"), 0),
		.max = jv_u64(jv_get(lat, "max"), 0),
		.mean = jv_number(jv_get(lat, "mean"), 0),
		.stdev = jv_number(jv_get(lat, "stddev"), 0),
		.p50 = jv_u64(jv_get(pct, "50.000000"), 0),
		.p90 = jv_u64(jv_get(pct, "90.000000"), 0),
		.p99 = jv_u64(jv_get(pct, "99.000000"), 0),
		.p999 = jv_u64(jv_get(pct, "99.900000"), 0),
		.p9999 = jv_u64(jv_get(pct, "99.990000"), 0),
	};
	return ret->count > 0;
}

/* json+'s "bins": {"latency in ns": count, ...} into H. */
static void add_bins(const struct jv *bins, struct histogram *h)
{
	for (size_t i = 0; bins && bins->type == JV_OBJECT && i < bins->count; i++) {
		char *end;
		unsigned long long v = strtoull(bins->keys[i], &end, 10);
		uint64_t n = jv_u64(&bins->items[i], 0);
		if (*end || !n)
			continue;
		h->buckets[hist_bucket_of(v)] += n;
		h->count += n;
		h->sum += v * n;
		if (v < h->min)
			h->min = v;
		if (v > h->max)
			h->max = v;
	}
}

static void job_direction(const struct jv *d, uint64_t *bytes, uint64_t *ios, struct histogram *h, double *secs)
{
	hist_init(h);
	*bytes = jv_u64(jv_get(d, "io_bytes"), 0);
	*ios = jv_u64(jv_get(d, "total_ios"), 0);
	const struct jv *bins = jv_path(d, "lat_ns.bins");
	add_bins(bins ? bins : jv_path(d, "clat_ns.bins"), h);
	double s = jv_number(jv_get(d, "runtime"), 0) / 1000.0;
	if (s > *secs)
		*secs = s;
}

int fio_job_result(const struct jv *job, const struct engine_ops *engine, struct job_result *ret)
{
	if (!job || job->type != JV_OBJECT)
		return -EINVAL;
	memset(ret, 0, sizeof(*ret));
	ret->engine = engine;
	const char *qd = jv_string(jv_path(job, "job options.iodepth"), "1"); /* fio writes options as strings */
	ret->iodepth = (unsigned)strtoul(qd, NULL, 10) ? (unsigned)strtoul(qd, NULL, 10) : 1;
	double secs = 0;
	job_direction(jv_get(job, "read"), &ret->read_bytes, &ret->read_ios, &ret->lat_read, &secs);
	job_direction(jv_get(job, "write"), &ret->write_bytes, &ret->write_ios, &ret->lat_write, &secs);
	uint64_t trim_bytes = 0, trim_ios = 0;
	struct histogram trim;
	job_direction(jv_get(job, "trim"), &trim_bytes, &trim_ios, &trim, &secs);
	hist_init(&ret->slat_read);
	hist_init(&ret->slat_write);
	ret->bytes = ret->read_bytes + ret->write_bytes + trim_bytes;
	ret->ios = ret->read_ios + ret->write_ios + trim_ios;
	if (secs <= 0)
		secs = jv_number(jv_get(job, "job_runtime"), 0) / 1000.0;
	ret->seconds = ret->first_done_seconds = ret->last_done_seconds = secs;
	/* fio's job as one worker: its CPU time from usr_cpu and sys_cpu, percentages of its runtime. */
	double run_s = jv_number(jv_get(job, "job_runtime"), secs * 1000.0) / 1000.0;
	ret->nr_workers = 1;
	ret->workers[0] = (struct job_worker_result){
		.bytes = ret->bytes, .ios = ret->ios, .done_seconds = secs, .cpu = -1,
		.user_seconds = jv_number(jv_get(job, "usr_cpu"), 0) / 100.0 * run_s,
		.system_seconds = jv_number(jv_get(job, "sys_cpu"), 0) / 100.0 * run_s,
		.busy_seconds = run_s, .voluntary_switches = jv_u64(jv_get(job, "ctx"), 0),
	};
	int e = jv_int(jv_get(job, "error"), 0);
	ret->stop = e ? JOB_STOP_ERROR : JOB_STOP_SIZE;
	ret->error = -e;
	if (!e && jv_get(jv_get(job, "job options"), "time_based"))
		ret->stop = JOB_STOP_TIME;
	return 0;
}

int dd_parse_summary(const char *text, uint64_t *ret_bytes, double *ret_seconds)
{
	const char *found = NULL;
	for (const char *p = strstr(text, " copied, "); p; p = strstr(p + 1, " copied, "))
		found = p;
	if (!found)
		return -EINVAL;
	const char *line = found;
	while (line > text && line[-1] != '\n')
		line--;
	char *end;
	unsigned long long bytes = strtoull(line, &end, 10);
	if (end == line || strncmp(end, " bytes", 6) != 0)
		return -EINVAL;
	double seconds = strtod(found + strlen(" copied, "), &end);
	if (strncmp(end, " s", 2) != 0)
		return -EINVAL;
	*ret_bytes = bytes;
	*ret_seconds = seconds;
	return 0;
}

int elbencho_parse_throughput(const char *text, const char *operation, double *ret_first_done,
			      double *ret_last_done)
{
	/* "WRITE       Throughput MiB/s :         290         247": the
	 * operation starts a block; its throughput row may be on that line or
	 * a following one (without the operation name). */
	bool in_block = false;
	for (const char *line = text; line && *line;) {
		const char *next = strchr(line, '\n');
		size_t n = next ? (size_t)(next - line) : strlen(line);
		char buf[256];
		snprintf(buf, sizeof(buf), "%.*s", (int)(n < sizeof(buf) ? n : sizeof(buf) - 1), line);
		size_t oplen = strlen(operation);
		if (strncmp(buf, operation, oplen) == 0 && (buf[oplen] == ' ' || buf[oplen] == '\t'))
			in_block = true;
		else if (buf[0] != ' ' && buf[0] != '\t' && buf[0] != '\0')
			in_block = false;
		const char *row = strstr(buf, "Throughput MiB/s");
		const char *colon = row ? strchr(row, ':') : NULL;
		double first, last;
		if (in_block && colon && sscanf(colon + 1, "%lf %lf", &first, &last) == 2) {
			*ret_first_done = first * 1048576.0;
			*ret_last_done = last * 1048576.0;
			return 0;
		}
		line = next ? next + 1 : NULL;
	}
	return -ENOENT;
}
