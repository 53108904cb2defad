/* run TARGET: one fio-like workload with the built-in engine. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "basic/humanize.h"
#include "basic/parse.h"
#include "bench/job.h"
#include "cmd/commands.h"
#include "cmd/runctx.h"
#include "triage/run.h"

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
	OPT_RAMP_TIME,
	OPT_TIME_BASED,
	OPT_RATE,
	OPT_RATE_IOPS,
	OPT_RANDOM_MAP,
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
	{ "ramp-time", 0, "TIME", "run this long before statistics start, e.g. 30s", OPT_RAMP_TIME,
	  OPT_V_DURATION(struct run_settings, spec.ramp_ns, 0, 0, "0") },
	{ "time-based", 0, NULL, "keep going over the area until --runtime", OPT_TIME_BASED,
	  OPT_V_FLAG(struct run_settings, spec.time_based) },
	{ "rate", 0, "SIZE", "bytes per second per job at most, e.g. 100M (default no cap)", OPT_RATE,
	  OPT_V_SIZE(struct run_settings, spec.rate_bps, 1, 0, NULL) },
	{ "rate-iops", 0, "N", "I/Os per second per job at most (default no cap)", OPT_RATE_IOPS,
	  OPT_V_UINT(struct run_settings, spec.rate_iops, 1, 100000000, NULL) },
	{ "random-map", 0, "KIND", "random offsets: uniform (with replacement) or once (every block once per pass)",
	  OPT_RANDOM_MAP, OPT_V_CHOICE(struct run_settings, random_map, run_random_maps, "uniform") },
	OPT_END,
};

/* --NAME 0|1. Returns 0 with *RET, or 2 after a usage error. */
static int parse_01(const char *name, const char *arg, bool *ret)
{
	if (strcmp(arg, "0") && strcmp(arg, "1"))
		return opts_usage_error("run", "invalid --%s '%s': expected 0 or 1", name, arg);
	*ret = arg[0] == '1';
	return 0;
}

/* --NAME SIZE, more than 0. Returns 0 with *RET, or 2 after a usage error. */
static int parse_nonzero_size(const char *name, const char *arg, uint64_t *ret)
{
	if (parse_size(arg, ret) < 0 || *ret == 0)
		return opts_usage_error("run", "invalid --%s '%s': expected a number greater than 0 with an optional K, "
					"M, G, T or P suffix", name, arg);
	return 0;
}

static int parse_run_option(int id, const char *arg, void *state)
{
	struct run_settings *s = state;
	uint64_t v;
	bool pin;
	int r;
	switch (id) {
	case OPT_RW:
		if (run_rw_find(arg)) {
			s->rw = run_rw_find(arg);
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
		if ((r = parse_nonzero_size("size", arg, &v)))
			return r;
		s->spec.size = v;
		s->size_given = true;
		return 0;
	case OPT_IO_SIZE:
		if ((r = parse_nonzero_size("io-size", arg, &v)))
			return r;
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
		return parse_01("direct", arg, &s->direct);
	case OPT_PIN:
		r = parse_01("pin", arg, &pin);
		s->spec.no_pin = r == 0 ? !pin : s->spec.no_pin;
		return r;
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
	printf("        lat (us): mean=%.1f stdev=%.1f p50=%.1f p90=%.1f p99=%.1f p99.9=%.1f p99.99=%.1f max=%.1f\n",
	       hist_mean(h) / 1e3, hist_stddev(h) / 1e3, hist_percentile(h, 50) / 1e3, hist_percentile(h, 90) / 1e3,
	       hist_percentile(h, 99) / 1e3, hist_percentile(h, 99.9) / 1e3, hist_percentile(h, 99.99) / 1e3,
	       h->max / 1e3);
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

static const struct command_doc run_doc = {
	"run", "run [options] TARGET",
	"Runs one workload on a file or block device with the built-in engine and reports\n"
	"bandwidth, IOPS and latency percentiles. Option names follow fio.\n"
	"Writes to a block device are refused while it is mounted, swapped on, held\n"
	"(holders, O_EXCL) or carries a signature (file system, ZFS, LVM, md, partition\n"
	"table). --force DEVICE, naming the target again, overrides a signature only.",
	run_opts,
};

static void print_result(const struct job_result *res)
{
	print_direction("read:", res->read_bytes, res->read_ios, &res->lat_read, res->seconds);
	print_direction("write:", res->write_bytes, res->write_ios, &res->lat_write, res->seconds);
	printf("  jobs: %u, first done %.3f s, last done %.3f s; engine %s at queue depth %u\n",
	       res->nr_workers, res->first_done_seconds, res->last_done_seconds, res->engine->name,
	       res->iodepth);
	double user = 0, sys = 0;
	for (unsigned i = 0; i < res->nr_workers; i++) {
		user += res->workers[i].user_seconds;
		sys += res->workers[i].system_seconds;
	}
	printf("  cpu: user %.2f s, system %.2f s, %.0f ns per I/O, busiest job %.0f%%; random map: %s\n", user, sys,
	       res->ios ? (user + sys) * 1e9 / (double)res->ios : 0, 100 * job_max_worker_cpu(res),
	       job_random_map_text(res->random_map));
}

int cmd_run(int argc, char **argv, struct global_opts *g)
{
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
	int first = opts_parse_settings(&run_doc, argc, argv, g, parse_run_option, &s);
	if (first < 0)
		return opts_command_status(first);
	if (argc - first != 1)
		return opts_usage_error("run", "expected exactly one target (a file or block device)");
	run_apply_rw(&s);
	const char *path = argv[first];

	struct run_ctx rc;
	if (run_ctx_begin(&rc, "run", argc, argv, g))
		return 1;
	struct job_result *res = NULL;
	char err[512] = "", engine_reason[160] = "";
	int status = run_workload(path, &s, &res, err, sizeof(err), engine_reason, sizeof(engine_reason)) < 0 ? 1 : 0;
	if (res && !rc.json)
		print_result(res);
	int sig_status = run_ctx_interrupted_status();
	if (sig_status)
		status = sig_status;

	struct json j;
	json_init(&j);
	run_ctx_json_head(&rc, &j);
	run_json_parameters(&j, &s, path);
	if (res)
		run_json_result(&j, res, engine_reason, s.direct);
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
