/* run TARGET: one fio-like workload with the built-in engine. */
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
#include "basic/parse.h"
#include "basic/strbuf.h"
#include "bench/job.h"
#include "bench/target.h"
#include "cmd/commands.h"
#include "cmd/runctx.h"
#include "output/latency.h"
#include "disk/inuse.h"

enum {
	OPT_RW = OPT_COMMAND_BASE,
	OPT_RWMIXREAD,
	OPT_BS,
	OPT_IODEPTH,
	OPT_NUMJOBS,
	OPT_SIZE,
	OPT_RUNTIME,
	OPT_ENGINE,
	OPT_DIRECT,
	OPT_PATTERN,
	OPT_IO_SIZE,
	OPT_FORCE,
	OPT_PIN,
	OPT_SAMPLE_INTERVAL,
};

static const struct opt_def run_opts[] = {
	{ "rw", 0, "MODE", "read, write, randread, randwrite, rw (mixed sequential) or randrw (default read)", OPT_RW, { 0 } },
	{ "rwmixread", 0, "PCT", "reads as a percentage of a mixed workload (default 50)", OPT_RWMIXREAD, { 0 } },
	{ "bs", 0, "SIZE", "block size (default 4K)", OPT_BS, { 0 } },
	{ "iodepth", 0, "N", "I/O in flight per job (default 1)", OPT_IODEPTH, { 0 } },
	{ "numjobs", 0, "N", "worker threads, each doing the whole workload (default 1)", OPT_NUMJOBS, { 0 } },
	{ "size", 0, "SIZE", "bytes each job moves at most, and the span addressed (default: the target's size)", OPT_SIZE, { 0 } },
	{ "io-size", 0, "SIZE", "bytes each job moves at most, when different from --size (fio's io_size)", OPT_IO_SIZE, { 0 } },
	{ "runtime", 0, "TIME", "time cap, e.g. 30s, 5m (default none); a cap, not a duration", OPT_RUNTIME, { 0 } },
	{ "engine", 0, "NAME", "auto, psync, libaio, io_uring or null (default auto)", OPT_ENGINE, { 0 } },
	{ "direct", 0, "0|1", "O_DIRECT, bypassing the page cache (default 1)", OPT_DIRECT, { 0 } },
	{ "force", 0, "DEVICE", "write to a block device that carries a signature; DEVICE must name the target again", OPT_FORCE, { 0 } },
	{ "pin", 0, "0|1", "pin each job to its own CPU, round robin over the allowed ones (default 1)", OPT_PIN, { 0 } },
	{ "pattern", 0, "KIND", "data written: random (incompressible, default) or zeros", OPT_PATTERN, { 0 } },
	{ "sample-interval", 0, "TIME", "bandwidth sample interval, the run's noise for compare (default 1s; 10ms to 1h)", OPT_SAMPLE_INTERVAL, { 0 } },
	OPT_END,
};

struct run_settings {
	struct job_spec spec;
	const char *rw;
	const char *engine;
	bool direct;
	bool size_given;
	unsigned mix;            /* --rwmixread */
	const char *force;       /* --force: the device named a second time */
	struct inuse_report guard; /* holds the O_EXCL claim on a device being written */
};

static const struct {
	const char *name;
	bool random;
	int read_pct; /* -1: from --rwmixread */
} rw_modes[] = {
	{ "read", false, 100 },	  { "write", false, 0 },     { "randread", true, 100 },
	{ "randwrite", true, 0 }, { "rw", false, -1 },	     { "readwrite", false, -1 },
	{ "randrw", true, -1 },
};

static int parse_run_option(int id, const char *arg, void *state)
{
	struct run_settings *s = state;
	uint64_t v;
	int r;
	switch (id) {
	case OPT_RW:
		for (size_t i = 0; i < sizeof(rw_modes) / sizeof(rw_modes[0]); i++)
			if (strcmp(arg, rw_modes[i].name) == 0) {
				s->rw = rw_modes[i].name;
				return 0;
			}
		return opts_usage_error("run", "unknown --rw '%s': expected read, write, randread, randwrite, rw or randrw", arg);
	case OPT_RWMIXREAD:
		if (parse_uint(arg, 0, 100, &v) < 0)
			return opts_usage_error("run", "invalid --rwmixread '%s': expected 0 to 100", arg);
		s->mix = (unsigned)v;
		return 0;
	case OPT_BS:
		r = parse_size(arg, &v);
		if (r < 0 || v == 0 || v > (64U << 20))
			return opts_usage_error("run", "invalid --bs '%s': expected 1 byte to 64M, with an optional K or M suffix", arg);
		s->spec.bs = (uint32_t)v;
		return 0;
	case OPT_IODEPTH:
		if (parse_uint(arg, 1, JOB_MAX_IODEPTH, &v) < 0)
			return opts_usage_error("run", "invalid --iodepth '%s': expected 1 to %d", arg, JOB_MAX_IODEPTH);
		s->spec.iodepth = (unsigned)v;
		return 0;
	case OPT_NUMJOBS:
		if (parse_uint(arg, 1, JOB_MAX_THREADS, &v) < 0)
			return opts_usage_error("run", "invalid --numjobs '%s': expected 1 to %d", arg, JOB_MAX_THREADS);
		s->spec.numjobs = (unsigned)v;
		return 0;
	case OPT_SIZE:
		r = parse_size(arg, &v);
		if (r < 0 || v == 0)
			return opts_usage_error("run", "invalid --size '%s': expected a number greater than 0 with an optional K, M, G, T or P suffix", arg);
		s->spec.size = v;
		s->size_given = true;
		return 0;
	case OPT_IO_SIZE:
		r = parse_size(arg, &v);
		if (r < 0 || v == 0)
			return opts_usage_error("run", "invalid --io-size '%s': expected a number greater than 0 with an optional K, M, G, T or P suffix", arg);
		s->spec.io_limit = v;
		return 0;
	case OPT_RUNTIME:
		if (parse_duration_ns(arg, &v) < 0 || v == 0)
			return opts_usage_error("run", "invalid --runtime '%s': expected a duration such as 30s, 5m or 1h", arg);
		s->spec.runtime_ns = v;
		return 0;
	case OPT_ENGINE:
		if (strcmp(arg, "auto") != 0 && !engine_find(arg))
			return opts_usage_error("run", "unknown engine '%s': expected auto, psync, libaio, io_uring or null", arg);
		s->engine = arg;
		return 0;
	case OPT_DIRECT:
		if (strcmp(arg, "0") && strcmp(arg, "1"))
			return opts_usage_error("run", "invalid --direct '%s': expected 0 or 1", arg);
		s->direct = arg[0] == '1';
		return 0;
	case OPT_PIN:
		if (strcmp(arg, "0") && strcmp(arg, "1"))
			return opts_usage_error("run", "invalid --pin '%s': expected 0 or 1", arg);
		s->spec.no_pin = arg[0] == '0';
		return 0;
	case OPT_FORCE:
		s->force = arg;
		return 0;
	case OPT_SAMPLE_INTERVAL:
		if (parse_duration_ns(arg, &v) < 0 || v < 10000000ULL || v > 3600000000000ULL)
			return opts_usage_error("run", "invalid --sample-interval '%s': expected 10ms to 1h, e.g. 1s or 250ms", arg);
		s->spec.sample_ns = v;
		return 0;
	case OPT_PATTERN:
		if (strcmp(arg, "random") == 0)
			s->spec.pattern = PATTERN_RANDOM;
		else if (strcmp(arg, "zeros") == 0)
			s->spec.pattern = PATTERN_ZEROS;
		else
			return opts_usage_error("run", "unknown --pattern '%s': expected random or zeros", arg);
		return 0;
	}
	return 2;
}

static void apply_rw(struct run_settings *s)
{
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

static void json_direction(struct json *j, const char *key, uint64_t bytes, uint64_t ios,
			   const struct histogram *h, double seconds)
{
	json_begin_object(j, key);
	json_uint(j, "bytes", bytes);
	json_uint(j, "ios", ios);
	json_double(j, "bw_bytes_per_s", seconds > 0 ? (double)bytes / seconds : 0);
	json_double(j, "iops", seconds > 0 ? (double)ios / seconds : 0);
	json_latency(j, "lat_ns", h);
	json_end_object(j);
}

static void print_direction(const char *name, uint64_t bytes, uint64_t ios, const struct histogram *h,
			    double seconds)
{
	if (!ios)
		return;
	char bw[32], total[32];
	human_rate(seconds > 0 ? (double)bytes / seconds : 0, bw, sizeof(bw));
	human_iec((double)bytes, total, sizeof(total));
	printf("  %-5s IOPS=%.0f, BW=%s, %s in %" PRIu64 " I/Os\n", name,
	       seconds > 0 ? (double)ios / seconds : 0, bw, total, ios);
	printf("        lat (us): p50=%.1f p90=%.1f p99=%.1f p99.9=%.1f max=%.1f\n",
	       hist_percentile(h, 50) / 1e3, hist_percentile(h, 90) / 1e3, hist_percentile(h, 99) / 1e3,
	       hist_percentile(h, 99.9) / 1e3, h->max / 1e3);
}

struct run_record {
	const char *path;
	const struct job_result *res;
	const char *status;
	const char *reason;
	const char *params;
};

static int store_run_result(struct store *s, const struct run_ctx *rc, void *arg)
{
	const struct run_record *rec = arg;
	struct store_result res = {
		.run_id = rc->id,
		.test = "run",
		.path = rec->path,
		.status = rec->status,
		.reason = rec->reason,
		.bytes = rec->res ? rec->res->bytes : 0,
		.seconds = rec->res ? rec->res->seconds : 0,
		.bw_bytes_per_s = rec->res ? job_bw_bytes_per_s(rec->res) : 0,
		.iops = rec->res ? job_iops(rec->res) : 0,
		.params = rec->params,
	};
	return store_add_result(s, &res);
}

static void write_parameters(struct json *j, const struct run_settings *s, const char *path)
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
	json_end_object(j);
}

static void write_result(struct json *j, const struct job_result *r, const char *engine_reason, bool direct)
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
	json_direction(j, "read", r->read_bytes, r->read_ios, &r->lat_read, r->seconds);
	json_direction(j, "write", r->write_bytes, r->write_ios, &r->lat_write, r->seconds);
	json_begin_array(j, "jobs");
	for (unsigned i = 0; i < r->nr_workers; i++) {
		json_begin_object(j, NULL);
		json_uint(j, "bytes", r->workers[i].bytes);
		json_uint(j, "ios", r->workers[i].ios);
		json_double(j, "done_seconds", r->workers[i].done_seconds);
		json_int(j, "cpu", r->workers[i].cpu);
		json_end_object(j);
	}
	json_end_array(j);
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

static bool same_device(const char *a, const char *b)
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

/* The raw-device write guard: refuse a device that is in use, or that holds
 * data unless --force names it again. On success s->guard holds O_EXCL. */
static int guard_device_write(const char *path, struct run_settings *s, char *err, size_t errlen)
{
	struct stat st;
	if (stat(path, &st) < 0)
		return -errno;
	int r = inuse_check(path, st.st_rdev, &inuse_default_paths, &s->guard);
	if (r < 0) {
		snprintf(err, errlen, "cannot check whether '%s' is in use: %s", path, strerror(-r));
		return r;
	}
	char found[INUSE_MAX_FINDINGS * 330];
	join_findings(&s->guard, found, sizeof(found));
	if (s->guard.in_use) {
		snprintf(err, errlen, "refusing to write to '%s', it is in use: %s", path, found);
		return -EBUSY;
	}
	if (s->guard.has_signature && !(s->force && same_device(s->force, path))) {
		snprintf(err, errlen, "refusing to write to '%s', it holds data: %s; to overwrite it, "
			 "name the device again with --force %s", path, found, path);
		return -EEXIST;
	}
	if (s->guard.has_signature)
		log_msg(LOG_WARN, "RUN (%s): overwriting because of --force: %s", path, found);
	return 0;
}

/* Opens the target for the workload; writes to a block device pass the guard first. */
static int open_run_target(const char *path, struct run_settings *s, struct target *t, char *err,
			   size_t errlen)
{
	bool writes = s->spec.read_pct < 100;
	enum target_kind kind = TARGET_REGULAR_FILE;
	int r = target_classify(path, &kind);
	if (s->force && !same_device(s->force, path)) {
		snprintf(err, errlen, "--force names '%s', which is not the target '%s'", s->force, path);
		return -EINVAL;
	}
	if (r == 0 && kind == TARGET_BLOCK_DEVICE && writes) {
		r = guard_device_write(path, s, err, errlen);
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
		s->spec.size = t->size;
	if (t->kind == TARGET_REGULAR_FILE && t->size < s->spec.size) {
		r = target_layout_file(t, s->spec.size, s->spec.pattern);
		if (r < 0) {
			if (t->created)
				unlink(path);
			snprintf(err, errlen, "cannot lay out '%s' to %" PRIu64 " bytes: %s", path, s->spec.size,
				 strerror(-r));
			return r;
		}
	}
	return 0;
}

int cmd_run(int argc, char **argv, struct global_opts *g)
{
	static const struct command_doc doc = {
		"run", "run [options] TARGET",
		"Runs one workload on a file or block device with the built-in engine and reports\n"
		"bandwidth, IOPS and latency percentiles. Option names follow fio.\n"
		"Writes to a block device are refused while it is mounted, swapped on, held\n"
		"(holders, O_EXCL) or carries a signature (file system, ZFS, LVM, md, partition\n"
		"table). --force DEVICE, naming the target again, overrides a signature only.",
		run_opts,
	};
	struct run_settings s = {
		.spec = { .read_pct = 100, .bs = 4096, .iodepth = 1, .numjobs = 1, .seed = 1,
			  .pattern = PATTERN_RANDOM, .progress = isatty(STDERR_FILENO), .progress_label = "run",
			  .sample_ns = 1000000000ULL },
		.rw = "read",
		.engine = "auto",
		.direct = true,
		.mix = 50,
		.guard = { .excl_fd = -1 },
	};
	int first = opts_parse_command(&doc, argc, argv, g, parse_run_option, &s);
	if (first < 0)
		return opts_command_status(first);
	if (argc - first != 1)
		return opts_usage_error("run", "expected exactly one target (a file or block device)");
	apply_rw(&s);
	const char *path = argv[first];

	struct run_ctx rc;
	if (run_ctx_begin(&rc, "run", argc, argv, g))
		return 1;
	struct target t = TARGET_INIT;
	struct job_result *res = NULL;
	char err[512] = "", engine_reason[160] = "";
	int status = 0;
	int r = open_run_target(path, &s, &t, err, sizeof(err));
	if (r == 0)
		r = job_validate(&s.spec, &t, err, sizeof(err));
	const struct engine_ops *engine = NULL;
	if (r == 0) {
		struct engine_target_traits traits = { .synchronous_device = t.bio_based };
		engine = engine_select(s.engine, s.spec.iodepth, &traits, engine_reason, sizeof(engine_reason));
		if (!engine) {
			snprintf(err, sizeof(err), "%s", engine_reason);
			r = -EINVAL;
		}
	}
	if (r == 0) {
		char bs[32];
		human_size_exact(s.spec.bs, bs, sizeof(bs));
		log_msg(LOG_INFO, "RUN (%s): starting: %s, %s blocks, queue depth %u, %u job(s), engine %s (%s), %s",
			path, s.rw, bs, s.spec.iodepth, s.spec.numjobs, engine->name, engine_reason,
			s.direct ? "O_DIRECT" : "buffered");
		r = job_run(&s.spec, &t, engine, &res);
		if (r < 0)
			snprintf(err, sizeof(err), "cannot run the workload: %s", strerror(-r));
	}
	target_close(&t);
	inuse_report_release(&s.guard);

	if (r < 0) {
		log_msg(LOG_ERR, "RUN (%s): failed: %s", path, err);
		status = 1;
	} else if (res->stop == JOB_STOP_ERROR) {
		snprintf(err, sizeof(err), "I/O error at byte %" PRIu64 ": %s", res->error_offset, strerror(-res->error));
		log_msg(LOG_ERR, "RUN (%s): failed: %s", path, err);
		status = 1;
	} else {
		char summary_text[160];
		human_dd_summary(res->bytes, res->seconds, summary_text, sizeof(summary_text));
		log_msg(LOG_INFO, "RUN (%s): completed: %s, stopped by the %s cap", path, summary_text,
			job_stop_name(res->stop));
	}
	if (res && !rc.json) {
		print_direction("read:", res->read_bytes, res->read_ios, &res->lat_read, res->seconds);
		print_direction("write:", res->write_bytes, res->write_ios, &res->lat_write, res->seconds);
		printf("  jobs: %u, first done %.3f s, last done %.3f s; engine %s at queue depth %u\n",
		       res->nr_workers, res->first_done_seconds, res->last_done_seconds, res->engine->name,
		       res->iodepth);
	}
	int sig_status = run_ctx_interrupted_status();
	if (sig_status)
		status = sig_status;

	struct json j;
	json_init(&j);
	run_ctx_json_head(&rc, &j);
	write_parameters(&j, &s, path);
	if (res)
		write_result(&j, res, engine_reason, s.direct);
	json_string(&j, "status", status ? "error" : "ok");
	json_string(&j, "reason", err[0] ? err : NULL);
	char params[256];
	snprintf(params, sizeof(params), "{\"rw\": \"%s\", \"bs_bytes\": %u, \"iodepth\": %u, \"numjobs\": %u}",
		 s.rw, s.spec.bs, s.spec.iodepth, s.spec.numjobs);
	struct run_record rec = { path, res, status ? "error" : "ok", err[0] ? err : NULL, params };
	status = run_ctx_finish(&rc, &j, status, store_run_result, &rec);
	json_release(&j);
	free(res);
	return status;
}
