/* poolbench/builtin.c: the built-in engine (bench/job.h) as a benchpool
 * test: a sequential write and read of one file in the large-record area,
 * then 4 KiB random mixed I/O with eight jobs in the small-record area; on a
 * zvol both passes on its block device.
 * Needs nothing installed, so a benchpool always has at least this. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "basic/interrupt.h"
#include "basic/timeutil.h"
#include "bench/job.h"
#include "bench/layout.h"
#include "poolbench/poolbench.h"

#define SEQ_BS (1U << 20)
#define RANDOM_BS 4096U
#define RANDOM_JOBS 8U

/* Runs SPEC on PATH (opened for writing when the job writes). */
static int run_job(const char *path, const struct job_spec *spec, bool write, bool direct, bool layout,
		   struct job_result **ret, int *ret_fd_for_sync, char *err, size_t errlen)
{
	struct target t = TARGET_INIT;
	int r = target_open(path, write, direct, write, &t);
	if (r < 0) {
		snprintf(err, errlen, "cannot open '%s': %s", path, strerror(-r));
		return r;
	}
	if (layout && (r = layout_file(&t, spec->size, spec->pattern, NULL, NULL, NULL)) < 0) {
		snprintf(err, errlen, "cannot lay out '%s': %s", path, strerror(-r));
		target_close(&t);
		return r;
	}
	if (layout)
		progress_part_restart(spec->live); /* the runtime caps the I/O, not the layout */
	r = job_validate(spec, &t, err, errlen);
	char reason[160];
	struct engine_target_traits traits = { 0 };
	const struct engine_ops *engine = r == 0 ? engine_select("auto", spec->iodepth, &traits, reason, sizeof(reason)) : NULL;
	if (r == 0 && !engine) {
		snprintf(err, errlen, "%s", reason);
		r = -EINVAL;
	}
	if (r == 0 && (r = job_run(spec, &t, engine, ret)) < 0)
		snprintf(err, errlen, "cannot run: %s", strerror(-r));
	if (r == 0 && (*ret)->stop == JOB_STOP_ERROR) {
		snprintf(err, errlen, "%s '%s' at byte %llu, after %llu bytes %s: %s", write ? "writing" : "reading",
			 path, (unsigned long long)(*ret)->error_offset, (unsigned long long)(*ret)->bytes,
			 write ? "written" : "read", strerror(-(*ret)->error));
		r = (*ret)->error;
	}
	if (ret_fd_for_sync && r == 0) {
		*ret_fd_for_sync = t.fd;
		t.fd = -1; /* the caller syncs and closes it */
	}
	target_close(&t);
	return r;
}

static void fill(struct pb_figure *f, const struct job_result *res, uint64_t bytes, double seconds,
		 const char *pattern)
{
	f->bytes = bytes;
	f->seconds = seconds;
	f->bw_bytes_per_s = seconds > 0 ? (double)bytes / seconds : 0;
	f->iops = seconds > 0 ? (double)(f->is_read ? res->read_ios : res->write_ios) / seconds : 0;
	f->pattern = pattern;
	f->first_done_seconds = res->first_done_seconds;
	f->last_done_seconds = res->last_done_seconds;
	hist_summarize(f->is_read ? &res->lat_read : &res->lat_write, &f->lat);
	if (res->has_slat)
		hist_summarize(f->is_read ? &res->slat_read : &res->slat_write, &f->slat);
}

static int fail(struct pb_outcome *o, int r, const char *err)
{
	o->state = r == -EINTR || interrupt_requested() ? PB_INTERRUPTED : PB_FAILED;
	if (o->state == PB_INTERRUPTED)
		snprintf(o->reason, sizeof(o->reason), "interrupted");
	else
		pb_failure_reason(r, err, o->reason, sizeof(o->reason));
	return r;
}

/* A pass's units in C's progress: its cap in milliseconds in a timed
 * plan (benchpool), else its bytes (rwpool). */
static uint64_t pass_span(const struct pb_context *c)
{
	return c->progress && c->progress->timed ? (uint64_t)c->runtime_s * 1000 : c->size;
}

/* A pass's target: FILE_NAME in DIR, or C's block device. */
static void pass_path(const struct pb_context *c, const char *dir, const char *file_name, char *path, size_t len)
{
	if (c->block_device)
		snprintf(path, len, "%s", c->block_device);
	else
		snprintf(path, len, "%s/%s", dir, file_name);
}

/* Removes a pass's file; a block device stays. */
static void pass_done(const struct pb_context *c, const char *path)
{
	if (!c->block_device)
		unlink(path);
}

int pb_fill_device(const struct pb_context *c, char *err, size_t len)
{
	struct job_spec spec = { .read_pct = 0, .bs = SEQ_BS, .iodepth = 1, .numjobs = 1, .size = c->size,
				 .pattern = c->pattern, .seed = 3, .no_pin = true };
	struct job_result *res = NULL;
	int fd = -1;
	int r = run_job(c->block_device, &spec, true, true, false, &res, &fd, err, len);
	if (r == 0 && res->stop == JOB_STOP_INTERRUPTED)
		r = -EINTR;
	if (r == 0 && fsync(fd) < 0) {
		r = -errno;
		snprintf(err, len, "fsync: %s", strerror(errno));
	}
	if (fd >= 0)
		close(fd);
	free(res);
	return r;
}

int pb_write_then_read(const struct pb_context *c, const char *dir, const char *file_name, struct pb_outcome *o)
{
	char path[PATH_MAX], err[400] = "";
	pass_path(c, dir, file_name, path, sizeof(path));
	struct job_spec spec = { .read_pct = 0, .bs = SEQ_BS, .iodepth = 1, .numjobs = 1, .size = c->size,
				 .runtime_ns = (uint64_t)c->runtime_s * 1000000000ULL, .pattern = c->pattern,
				 .seed = 1, .no_pin = true, .live = c->progress };
	struct job_result *res = NULL;
	int fd = -1;
	uint64_t t0 = now_ns();
	progress_part_begin(c->progress, pass_span(c), c->size, spec.runtime_ns);
	progress_what(c->progress, "writing %s", path);
	int r = run_job(path, &spec, true, c->direct_ok, false, &res, &fd, err, sizeof(err));
	if (r == 0 && res->stop == JOB_STOP_INTERRUPTED)
		r = -EINTR;
	if (r == 0 && fsync(fd) < 0) { /* the write is done when it is on stable storage */
		r = -errno;
		snprintf(err, sizeof(err), "fsync: %s", strerror(errno));
	}
	double write_seconds = (double)(now_ns() - t0) / 1e9;
	bool dropped = false;
	if (r == 0) {
		struct pb_figure *f = pb_add_figure(o, "write", false);
		if (f)
			fill(f, res, res->write_bytes, write_seconds, pattern_name(c->pattern));
		dropped = pb_drop_caches(fd);
	}
	if (fd >= 0)
		close(fd);
	uint64_t written = res ? res->write_bytes : 0;
	free(res);
	res = NULL;
	progress_part_end(c->progress, pass_span(c));
	if (r == 0) {
		progress_part_begin(c->progress, pass_span(c), written, spec.runtime_ns);
		progress_what(c->progress, "reading %s back", path);
		spec.read_pct = 100;
		spec.size = written;
		r = run_job(path, &spec, false, c->direct_ok, false, &res, NULL, err, sizeof(err));
		if (r == 0 && res->stop == JOB_STOP_INTERRUPTED)
			r = -EINTR;
		struct pb_figure *f = r == 0 ? pb_add_figure(o, "read", true) : NULL;
		if (f) {
			fill(f, res, res->read_bytes, res->seconds, NULL);
			f->cache = pb_read_cache_label(c, c->direct_ok || dropped);
		}
		free(res);
	}
	progress_part_end(c->progress, pass_span(c));
	pass_done(c, path);
	return r < 0 ? fail(o, r, err) : 0;
}

static int random_pass(const struct pb_context *c, struct pb_outcome *o)
{
	char path[PATH_MAX], err[400] = "";
	pass_path(c, c->random_dir, "iotriage-builtin-random", path, sizeof(path));
	struct job_spec spec = { .random = true, .read_pct = 50, .bs = RANDOM_BS, .iodepth = 1,
				 .numjobs = RANDOM_JOBS, .size = c->size,
				 .io_limit = c->size / RANDOM_JOBS, /* all jobs together move SIZE, as fio's 8 x size/8 */
				 .runtime_ns = (uint64_t)c->runtime_s * 1000000000ULL,
				 .pattern = c->pattern, .seed = 7, .no_pin = true, .live = c->progress };
	struct job_result *res = NULL;
	progress_part_begin(c->progress, pass_span(c), c->size, spec.runtime_ns);
	progress_what(c->progress, "random I/O in %s", path);
	pb_random_mark(c, true);
	int r = run_job(path, &spec, true, c->direct_ok, true, &res, NULL, err, sizeof(err));
	pb_random_mark(c, false);
	progress_part_end(c->progress, pass_span(c));
	if (r == 0 && res->stop == JOB_STOP_INTERRUPTED)
		r = -EINTR;
	if (r == 0) {
		struct pb_figure *f = pb_add_figure(o, "random read", true);
		fill(f, res, res->read_bytes, res->seconds, NULL);
		f->cache = pb_read_cache_label(c, c->direct_ok);
		f = pb_add_figure(o, "random write", false);
		fill(f, res, res->write_bytes, res->seconds, pattern_name(c->pattern));
		strbuf_addf(&o->raw, "random: %u jobs, 4 KiB, 50%% reads, first done %.3f s, last done %.3f s, stopped by the %s cap\n",
			    RANDOM_JOBS, res->first_done_seconds, res->last_done_seconds, job_stop_name(res->stop));
	}
	free(res);
	pass_done(c, path);
	return r < 0 ? fail(o, r, err) : 0;
}

void pb_run_builtin(const struct pb_context *c, struct pb_outcome *o)
{
	if (c->rbd_image && pb_skip_without_files(c, o))
		return;
	if (pb_write_then_read(c, c->throughput_dir, "iotriage-builtin-seq", o) < 0)
		return;
	strbuf_addf(&o->raw, "sequential: 1 MiB blocks, queue depth 1, %s\n", c->direct_ok ? "O_DIRECT" : "buffered");
	if (c->random_dir || c->block_device)
		random_pass(c, o);
}
