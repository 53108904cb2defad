/* The run command's workload (see triage/workload/run.h). */
#include "triage/workload/run.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "basic/humanize.h"
#include "basic/log.h"
#include "basic/strbuf.h"
#include "bench/layout.h"
#include "bench/target.h"
#include "output/latency.h"

static const struct {
	const char *name;
	bool random;
	int read_pct; /* -1: from --rwmixread */
} rw_modes[] = {
	{ "read", false, 100 },	  { "write", false, 0 },     { "randread", true, 100 },
	{ "randwrite", true, 0 }, { "rw", false, -1 },	     { "readwrite", false, -1 },
	{ "randrw", true, -1 },
};

/* The same names, as a constant array for the option row. */
const char *const run_rw_choices[] = { "read", "write", "randread", "randwrite", "rw", "readwrite", "randrw", NULL };

const char *run_rw_find(const char *name)
{
	for (size_t i = 0; i < sizeof(rw_modes) / sizeof(rw_modes[0]); i++)
		if (strcmp(name, rw_modes[i].name) == 0)
			return rw_modes[i].name;
	return NULL;
}

const char *const run_random_maps[] = { "uniform", "once", NULL };

void run_apply_rw(struct run_settings *s)
{
	s->spec.random_map = s->random_map && strcmp(s->random_map, "once") == 0 ? JOB_MAP_ONCE : JOB_MAP_UNIFORM;
	unsigned mix = s->mix;
	for (size_t i = 0; i < sizeof(rw_modes) / sizeof(rw_modes[0]); i++)
		if (strcmp(s->rw, rw_modes[i].name) == 0) {
			s->spec.random = rw_modes[i].random;
			s->spec.read_pct = rw_modes[i].read_pct < 0 ? mix : (unsigned)rw_modes[i].read_pct;
		}
}

static const char *open_error_text(int r, bool direct)
{
	switch (r) {
	case -ENOENT:
		return "no such path (give --size to create a file)";
	case -EISDIR:
		return "is a directory; give a file or a block device";
	case -ENOTBLK:
		return "is neither a regular file nor a block device";
	case -EINVAL:
		return direct ? "the file system does not support O_DIRECT here; use --direct 0 and read the figures as cache-influenced"
			      : strerror(-r);
	default:
		return strerror(-r);
	}
}

/* One direction's figures. SLAT is null when the engine finishes the I/O
 * inside its submit call (psync, null): no submission apart from completion. */
static void json_direction(struct json *j, const char *key, uint64_t bytes, uint64_t ios,
			   const struct histogram *h, const struct histogram *slat, double seconds)
{
	json_begin_object(j, key);
	json_uint(j, "bytes", bytes);
	json_uint(j, "ios", ios);
	json_double(j, "bw_bytes_per_s", seconds > 0 ? (double)bytes / seconds : 0);
	json_double(j, "iops", seconds > 0 ? (double)ios / seconds : 0);
	json_latency(j, "lat_ns", h);
	json_latency_or_null(j, "slat_ns", slat);
	json_end_object(j);
}

void run_json_parameters(struct json *j, const struct run_settings *s, const char *path)
{
	json_begin_object(j, "parameters");
	json_string(j, "target", path);
	json_string(j, "rw", s->rw);
	json_uint(j, "rwmixread", s->spec.read_pct);
	json_uint(j, "bs_bytes", s->spec.bs);
	json_uint(j, "iodepth", s->spec.iodepth);
	json_uint(j, "numjobs", s->spec.numjobs);
	json_uint(j, "size_bytes", s->spec.size);
	json_uint(j, "io_size_bytes", s->spec.io_limit ? s->spec.io_limit : s->spec.size);
	json_double(j, "runtime_cap_seconds", (double)s->spec.runtime_ns / 1e9);
	json_string(j, "engine", s->engine);
	json_bool(j, "direct", s->direct);
	json_string(j, "pattern", pattern_name(s->spec.pattern));
	json_bool(j, "pin", !s->spec.no_pin);
	json_double(j, "sample_interval_seconds", (double)s->spec.sample_ns / 1e9);
	json_double(j, "ramp_seconds", (double)s->spec.ramp_ns / 1e9);
	json_bool(j, "time_based", s->spec.time_based);
	json_uint(j, "rate_bytes_per_s", s->spec.rate_bps);
	json_uint(j, "rate_iops", s->spec.rate_iops);
	json_string(j, "random_map", job_random_map_name(s->spec.random_map));
	json_string(j, "scramble", s->spec.pattern == PATTERN_RANDOM ? "every 512-byte sector of every write"
								     : "none");
	json_end_object(j);
}

/* Per worker: its figures and its CPU time (user, system, context switches). */
static void json_jobs(struct json *j, const struct job_result *r)
{
	double user = 0, sys = 0;
	json_begin_array(j, "jobs");
	for (unsigned i = 0; i < r->nr_workers; i++) {
		const struct job_worker_result *w = &r->workers[i];
		json_begin_object(j, NULL);
		json_uint(j, "bytes", w->bytes);
		json_uint(j, "ios", w->ios);
		json_double(j, "done_seconds", w->done_seconds);
		json_int(j, "cpu", w->cpu);
		json_double(j, "user_seconds", w->user_seconds);
		json_double(j, "system_seconds", w->system_seconds);
		json_double(j, "busy_seconds", w->busy_seconds);
		json_uint(j, "voluntary_context_switches", w->voluntary_switches);
		json_uint(j, "involuntary_context_switches", w->involuntary_switches);
		json_end_object(j);
		user += w->user_seconds;
		sys += w->system_seconds;
	}
	json_end_array(j);
	double most = job_max_worker_cpu(r);
	json_begin_object(j, "cpu");
	json_double(j, "user_seconds", user);
	json_double(j, "system_seconds", sys);
	json_double(j, "cpu_ns_per_io", r->ios ? (user + sys) * 1e9 / (double)r->ios : 0);
	json_double(j, "busiest_worker_fraction", most);
	json_bool(j, "worker_bound", most > JOB_CPU_BOUND_FRACTION);
	json_end_object(j);
}

void run_json_result(struct json *j, const struct job_result *r, const char *engine_reason, bool direct)
{
	json_begin_object(j, "result");
	json_string(j, "engine", r->engine->name);
	json_string(j, "engine_reason", engine_reason);
	json_uint(j, "iodepth", r->iodepth);
	json_uint(j, "span_bytes", r->span);
	json_uint(j, "bytes", r->bytes);
	json_uint(j, "ios", r->ios);
	json_double(j, "seconds", r->seconds);
	json_double(j, "bw_bytes_per_s", job_bw_bytes_per_s(r));
	json_double(j, "iops", job_iops(r));
	json_double(j, "first_done_seconds", r->first_done_seconds);
	json_double(j, "last_done_seconds", r->last_done_seconds);
	json_string(j, "stopped_by", job_stop_name(r->stop));
	json_string(j, "cache", direct ? "bypassed" : "page cache may serve reads");
	json_direction(j, "read", r->read_bytes, r->read_ios, &r->lat_read, r->has_slat ? &r->slat_read : NULL,
		       r->seconds);
	json_direction(j, "write", r->write_bytes, r->write_ios, &r->lat_write,
		       r->has_slat ? &r->slat_write : NULL, r->seconds);
	json_direction(j, "trim", r->trim_bytes, r->trim_ios, &r->lat_trim, NULL, r->seconds); /* done in queue(): no slat */
	json_begin_object(j, "sync");
	json_uint(j, "ios", r->sync_ios);
	json_latency_or_null(j, "lat_ns", r->sync_ios ? &r->lat_sync : NULL);
	json_end_object(j);
	json_begin_object(j, "verify");
	json_uint(j, "blocks_checked", r->verify_blocks);
	json_uint(j, "blocks_checked_during_writes", r->verify_backlog_blocks); /* verify_backlog */
	json_uint(j, "errors", r->verify_errors);
	if (r->verify_errors)
		json_uint(j, "first_error_offset", r->verify_offset);
	else
		json_null(j, "first_error_offset");
	json_string(j, "first_error", r->verify_errors ? r->verify_why : NULL);
	json_end_object(j);
	json_double(j, "ramp_seconds", r->ramp_seconds);
	json_string(j, "random_map", job_random_map_name(r->random_map));
	json_string(j, "random_map_text", job_random_map_text(r->random_map));
	json_jobs(j, r);
	/* The run's own noise: bandwidth over each whole interval (compare). */
	double mean = 0, var = 0;
	for (unsigned i = 0; i < r->nr_samples; i++)
		mean += r->samples_bw[i] / r->nr_samples;
	for (unsigned i = 0; i < r->nr_samples; i++)
		var += (r->samples_bw[i] - mean) * (r->samples_bw[i] - mean);
	json_begin_object(j, "samples");
	json_double(j, "interval_seconds", r->sample_seconds);
	json_uint(j, "count", r->nr_samples);
	json_double(j, "mean_bw_bytes_per_s", r->nr_samples ? mean : 0);
	if (r->nr_samples > 1)
		json_double(j, "stddev_bw_bytes_per_s", sqrt(var / (r->nr_samples - 1)));
	else
		json_null(j, "stddev_bw_bytes_per_s");
	json_begin_array(j, "bw_bytes_per_s");
	for (unsigned i = 0; i < r->nr_samples; i++)
		json_double(j, NULL, r->samples_bw[i]);
	json_end_array(j);
	json_end_object(j);
	json_end_object(j);
}

bool run_same_device(const char *a, const char *b)
{
	struct stat sa, sb;
	return stat(a, &sa) == 0 && stat(b, &sb) == 0 && S_ISBLK(sa.st_mode) && S_ISBLK(sb.st_mode) &&
	       sa.st_rdev == sb.st_rdev;
}

static void join_findings(const struct inuse_report *g, char *buf, size_t len)
{
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < g->count; i++)
		strbuf_addf(&sb, "%s%s", i ? "; " : "", g->findings[i]);
	snprintf(buf, len, "%s", sb.buf);
	strbuf_release(&sb);
}

int run_guard_device_write(const char *path, const char *force, struct inuse_report *guard, const char *tag,
			   char *err, size_t errlen)
{
	struct stat st;
	if (stat(path, &st) < 0)
		return -errno;
	int r = inuse_check(path, st.st_rdev, &inuse_default_paths, guard);
	if (r < 0) {
		snprintf(err, errlen, "cannot check whether '%s' is in use: %s", path, strerror(-r));
		return r;
	}
	char found[INUSE_MAX_FINDINGS * 330];
	join_findings(guard, found, sizeof(found));
	if (guard->in_use) {
		snprintf(err, errlen, "refusing to write to '%s', it is in use: %s", path, found);
		return -EBUSY;
	}
	if (guard->has_signature && !(force && run_same_device(force, path))) {
		snprintf(err, errlen, "refusing to write to '%s', it holds data: %s; to overwrite it, "
			 "name the device again with --force %s", path, found, path);
		return -EEXIST;
	}
	if (guard->has_signature)
		log_msg(LOG_WARN, "%s (%s): overwriting because of --force: %s", tag, path, found);
	return 0;
}

/* The null engine touches nothing: TARGET is opened read-only when it
 * exists (for its size) and never created, laid out or written; a missing
 * TARGET is a name only, and the job's size is the span. */
static int open_diskless_target(const char *path, struct run_settings *s, struct target *t, char *err,
				size_t errlen)
{
	int r = target_open(path, false, false, false, t);
	if (r == -ENOENT) {
		if (!s->size_given) {
			snprintf(err, errlen, "'%s' does not exist and the null engine creates nothing: give a size", path);
			return -EINVAL;
		}
		*t = (struct target)TARGET_INIT;
		snprintf(t->path, sizeof(t->path), "%s", path);
		t->kind = TARGET_REGULAR_FILE;
		t->offset_align = t->mem_align = 4096;
		t->size = s->spec.size;
		log_msg(LOG_INFO, "RUN (%s): the null engine runs without the file; nothing is created", path);
		return 0;
	}
	if (r < 0) {
		snprintf(err, errlen, "'%s': %s", path, open_error_text(r, false));
		return r;
	}
	if (!s->size_given)
		s->spec.size = t->size;
	return 0;
}

/* Grows a short regular file to the job's size, as fio lays out a file:
 * the free space checked first, interruptible, shown, logged. */
static int lay_out_target(const char *path, struct run_settings *s, struct target *t, char *err, size_t errlen)
{
	char label[64];
	snprintf(label, sizeof(label), "%s: laying out", s->spec.progress_label ? s->spec.progress_label : "run");
	struct layout_report rep;
	int r = layout_file(t, job_file_bytes(&s->spec), s->spec.pattern, s->spec.progress, label, &rep);
	char need[32], avail[32], summary[160];
	if (r == -ENOSPC && rep.written_bytes == 0 && rep.free_bytes < rep.to_bytes - rep.from_bytes) {
		human_iec((double)(rep.to_bytes - rep.from_bytes), need, sizeof(need));
		human_iec((double)rep.free_bytes, avail, sizeof(avail));
		snprintf(err, errlen, "cannot lay out '%s' to %" PRIu64 " bytes: it needs %s more and the file system "
			 "has %s free; nothing was written", path, s->spec.size, need, avail);
	} else if (r == -EINTR) {
		snprintf(err, errlen, "interrupted while laying out '%s'; %s", path,
			 t->created ? "the file it created is removed" : "the file is back to its size before");
	} else if (r < 0) {
		snprintf(err, errlen, "cannot lay out '%s' to %" PRIu64 " bytes: %s", path, s->spec.size, strerror(-r));
	}
	if (r < 0)
		return r;
	human_dd_summary(rep.written_bytes, rep.seconds, summary, sizeof(summary));
	log_msg(LOG_INFO, "RUN (%s): laid out from %" PRIu64 " to %" PRIu64 " bytes: %s", path, rep.from_bytes,
		rep.to_bytes, summary);
	return 0;
}

/* Opens the target for the workload; writes to a block device pass the guard first. */
static int open_run_target(const char *path, struct run_settings *s, struct target *t, char *err,
			   size_t errlen)
{
	bool writes = s->spec.read_pct < 100;
	enum target_kind kind = TARGET_REGULAR_FILE;
	int r = target_classify(path, &kind);
	if (s->force && !run_same_device(s->force, path)) {
		snprintf(err, errlen, "--force names '%s', which is not the target '%s'", s->force, path);
		return -EINVAL;
	}
	const struct engine_ops *named = s->engine ? engine_find(s->engine) : NULL;
	if (named && named->diskless)
		return open_diskless_target(path, s, t, err, errlen);
	if (r == 0 && kind == TARGET_BLOCK_DEVICE && writes) {
		r = run_guard_device_write(path, s->force, &s->guard, "RUN", err, errlen);
		if (r < 0)
			return r;
	}
	if (r == -ENOENT && s->size_given)
		writes = true; /* a new file is created, then laid out */
	else if (r < 0) {
		snprintf(err, errlen, "'%s': %s", path, open_error_text(r, s->direct));
		return r;
	}
	/* Reads open read-only; a short file is laid out through a second descriptor. */
	r = target_open(path, writes, s->direct, writes, t);
	if (r < 0) {
		snprintf(err, errlen, "'%s': %s", path, open_error_text(r, s->direct));
		return r;
	}
	if (!s->size_given)
		s->spec.size = (s->spec.offset || s->spec.offset_increment) ? 0 : t->size;
	if (t->kind == TARGET_REGULAR_FILE && s->size_given && t->size < job_file_bytes(&s->spec)) {
		r = lay_out_target(path, s, t, err, errlen);
		if (r < 0) {
			if (t->created)
				unlink(path);
			target_close(t);
			return r;
		}
	}
	return 0;
}

/* fio's nrfiles: files 2 to N opened (created and laid out) each to its
 * share of the size, their descriptors after the first's in FDS. */
static int open_more_files(const struct run_settings *s, const struct target *first, struct target *more,
			   int *fds, char *err, size_t errlen)
{
	fds[0] = first->fd;
	for (unsigned k = 1; k < s->spec.nr_files; k++) {
		struct run_settings one = *s;
		one.spec.size = s->spec.size / s->spec.nr_files;
		one.spec.nr_files = 0;
		one.guard = (struct inuse_report){ .excl_fd = -1 };
		int r = open_run_target(s->file_paths[k], &one, &more[k - 1], err, errlen);
		inuse_report_release(&one.guard);
		if (r < 0)
			return r;
		if (more[k - 1].kind != TARGET_REGULAR_FILE) {
			snprintf(err, errlen, "'%s': several files (nrfiles) are regular files only", more[k - 1].path);
			return -EINVAL;
		}
		fds[k] = more[k - 1].fd;
	}
	return 0;
}

/* The first of several files opened with its own share of the size. */
static int open_first_file(const char *path, struct run_settings *s, struct target *t, char *err, size_t errlen)
{
	if (!s->file_paths || s->spec.nr_files < 2)
		return open_run_target(path, s, t, err, errlen);
	uint64_t size = s->spec.size;
	unsigned n = s->spec.nr_files;
	s->spec.size = size / n;
	s->spec.nr_files = 0;
	int r = open_run_target(path, s, t, err, errlen);
	s->spec.size = size;
	s->spec.nr_files = n;
	if (r == 0 && t->kind != TARGET_REGULAR_FILE) {
		snprintf(err, errlen, "'%s': several files (nrfiles) are regular files only", path);
		r = -EINVAL;
	}
	return r;
}

int run_workload(const char *path, struct run_settings *s, struct job_result **ret, char *err, size_t errlen,
		 char *engine_reason, size_t reason_len)
{
	struct target t = TARGET_INIT;
	struct job_result *res = NULL;
	unsigned nmore = s->file_paths && s->spec.nr_files > 1 ? s->spec.nr_files - 1 : 0;
	struct target *more = xcalloc(nmore + 1, sizeof(*more));
	int *fds = xcalloc(nmore + 1, sizeof(*fds));
	for (unsigned k = 0; k < nmore; k++)
		more[k] = (struct target)TARGET_INIT;
	int r = open_first_file(path, s, &t, err, errlen);
	if (r == 0 && nmore)
		r = open_more_files(s, &t, more, fds, err, errlen);
	s->spec.file_fds = nmore ? fds : NULL;
	if (!nmore)
		s->spec.nr_files = 0;
	if (r == 0)
		r = job_validate(&s->spec, &t, err, errlen);
	const struct engine_ops *engine = NULL;
	if (r == 0) {
		struct engine_target_traits traits = { .synchronous_device = t.bio_based };
		engine = engine_select(s->engine, s->spec.iodepth, &traits, engine_reason, reason_len);
		if (!engine) {
			snprintf(err, errlen, "%s", engine_reason);
			r = -EINVAL;
		}
	}
	if (r == 0) {
		char bs[32];
		human_size_exact(s->spec.bs, bs, sizeof(bs));
		log_msg(LOG_INFO, "RUN (%s): starting: %s, %s blocks, queue depth %u, %u job(s), engine %s (%s), %s",
			path, s->rw, bs, s->spec.iodepth, s->spec.numjobs, engine->name, engine_reason,
			s->direct ? "O_DIRECT" : "buffered");
		r = job_run(&s->spec, &t, engine, &res);
		if (r < 0)
			snprintf(err, errlen, "cannot run the workload: %s", strerror(-r));
	}
	target_close(&t);
	for (unsigned k = 0; k < nmore; k++)
		target_close(&more[k]);
	free(more);
	free(fds);
	s->spec.file_fds = NULL;
	inuse_report_release(&s->guard);
	*ret = res;
	if (r < 0) {
		log_msg(LOG_ERR, "RUN (%s): failed: %s", path, err);
		return r;
	}
	if (res->stop == JOB_STOP_ERROR && res->verify_errors) {
		snprintf(err, errlen, "verify failed: %" PRIu64 " of %" PRIu64 " blocks checked are wrong; the first at "
			 "byte %" PRIu64 ": %s", res->verify_errors, res->verify_blocks, res->verify_offset,
			 res->verify_why);
		log_msg(LOG_ERR, "RUN (%s): failed: %s", path, err);
		return -EIO;
	}
	if (res->stop == JOB_STOP_ERROR) {
		snprintf(err, errlen, "I/O error at byte %" PRIu64 ": %s", res->error_offset, strerror(-res->error));
		log_msg(LOG_ERR, "RUN (%s): failed: %s", path, err);
		return -EIO;
	}
	char summary_text[160];
	human_dd_summary(res->bytes, res->seconds, summary_text, sizeof(summary_text));
	log_msg(LOG_INFO, "RUN (%s): completed: %s, stopped by the %s cap", path, summary_text,
		job_stop_name(res->stop));
	if (job_max_worker_cpu(res) > JOB_CPU_BOUND_FRACTION)
		log_msg(LOG_WARN, "RUN (%s): a worker thread was busy %.0f%% of its time: the figure may measure "
			"iotriage's CPU, not the storage; add --numjobs", path, 100 * job_max_worker_cpu(res));
	return 0;
}
