/* run TARGET: one fio-like workload with the built-in engine. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/job.h"
#include "cmd/commands.h"
#include "cmd/progress.h"
#include "cmd/read_options.h"
#include "cmd/runctx.h"
#include "basic/fsutil.h"
#include "render/fio_json.h"
#include "render/run.h"
#include "store/params.h"
#include "triage/workload/fiojob_run.h"
#include "triage/workload/run.h"

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
	OPT_FIO_JOB,
	OPT_NATIVE,
	OPT_PARSE_ONLY,
	OPT_FIO_JSON,
};

struct run_record {
	const char *path;
	const struct job_result *res;
	const char *status;
	const char *reason;
	const char *params;
};

/* The workload's settings, the options kept in another form, and the
 * outcome, which the run's database row reads after main. */
struct run_cmd {
	struct run_settings run;
	uint64_t bs;
	bool pin;
	const char *pattern;
	struct job_result *res;
	char err[512];
	char engine_reason[160];
	struct store_params params;
	struct run_record rec;
	const char *fio_job;     /* --fio-job FILE */
	bool native;             /* --native: refuse a job file that needs fio */
	bool parse_only;         /* --parse-only: say how the file would run, run nothing */
	struct fiojob_outcome fio;
	const char *fio_json;    /* --fio-json FILE */
};

#define R(FIELD) offsetof(struct run_cmd, FIELD)
#define NONZERO_SIZE_EXPECT "a number greater than 0 with an optional K, M, G, T or P suffix"

static const char *const pattern_choices[] = { "random", "zeros", NULL };

/* The workload's block size, 1 byte to 64M: the one --bs rule for a
 * workload (run; matrix takes its sizes from its tests). */
#define WORKLOAD_BS_OPT_V(STRUCT, FIELD)                                                           \
	{ .type = OPT_TYPE_SIZE, .offset = offsetof(STRUCT, FIELD), .min = 1, .max = 64U << 20,          \
	  .def = "4K", .expect = "1 byte to 64M, with an optional K or M suffix" }

static const struct opt_def run_opts[] = {
	{ "rw", 0, "MODE", "read, write, randread, randwrite, rw (mixed sequential) or randrw", OPT_RW,
	  { .type = OPT_TYPE_CHOICE, .offset = R(run.rw), .choices = run_rw_choices, .def = "read",
	    .expect = "read, write, randread, randwrite, rw or randrw" } },
	{ "rwmixread", 0, "PCT", "reads as a percentage of a mixed workload", OPT_RWMIXREAD,
	  OPT_V_UINT(struct run_cmd, run.mix, 0, 100, "50") },
	{ "bs", 0, "SIZE", "block size", OPT_BS, WORKLOAD_BS_OPT_V(struct run_cmd, bs) },
	{ "iodepth", 0, "N", "I/O in flight per job", OPT_IODEPTH,
	  OPT_V_UINT(struct run_cmd, run.spec.iodepth, 1, JOB_MAX_IODEPTH, "1") },
	{ "numjobs", 0, "N", "worker threads, each doing the whole workload", OPT_NUMJOBS,
	  OPT_V_UINT(struct run_cmd, run.spec.numjobs, 1, JOB_MAX_THREADS, "1") },
	{ "size", 0, "SIZE", "bytes each job moves at most, and the span addressed (default: the target's size)", OPT_SIZE,
	  { .type = OPT_TYPE_SIZE, .offset = R(run.spec.size), .min = 1, .expect = NONZERO_SIZE_EXPECT,
	    .given_offset = OPT_GIVEN(struct run_cmd, run.size_given) } },
	{ "io-size", 0, "SIZE", "bytes each job moves at most, when different from --size (fio's io_size)", OPT_IO_SIZE,
	  { .type = OPT_TYPE_SIZE, .offset = R(run.spec.io_limit), .min = 1, .expect = NONZERO_SIZE_EXPECT } },
	{ "runtime", 0, "TIME", "time cap, e.g. 30s, 5m (default none); a cap, not a duration", OPT_RUNTIME,
	  OPT_V_DURATION(struct run_cmd, run.spec.runtime_ns, 1, 0, NULL) },
	{ "engine", 0, "NAME", "auto, psync, libaio, io_uring or null", OPT_ENGINE, ENGINE_OPT_V },
	{ "direct", 0, "0|1", "O_DIRECT, bypassing the page cache", OPT_DIRECT,
	  OPT_V_BOOL01(struct run_cmd, run.direct, "1") },
	{ "force", 0, "DEVICE", "write to a block device that carries a signature; DEVICE must name the target again", OPT_FORCE,
	  OPT_V_STRING(struct run_cmd, run.force) },
	{ "pin", 0, "0|1", "pin each job to its own CPU, round robin over the allowed ones (not on a disk whose one interrupt some CPUs share)", OPT_PIN,
	  OPT_V_BOOL01(struct run_cmd, pin, "1") },
	{ "pattern", 0, "KIND", "data written: random (incompressible) or zeros", OPT_PATTERN,
	  OPT_V_CHOICE(struct run_cmd, pattern, pattern_choices, "random") },
	{ "sample-interval", 0, "TIME", "bandwidth sample interval, the run's noise for compare (10ms to 1h)", OPT_SAMPLE_INTERVAL,
	  { .type = OPT_TYPE_DURATION, .offset = R(run.spec.sample_ns), .min = 10000000ULL, .max = 3600000000000ULL,
	    .def = "1s", .expect = "10ms to 1h, e.g. 1s or 250ms" } },
	{ "ramp-time", 0, "TIME", "run this long before statistics start, e.g. 30s", OPT_RAMP_TIME,
	  OPT_V_DURATION(struct run_cmd, run.spec.ramp_ns, 0, 0, "0") },
	{ "time-based", 0, NULL, "keep going over the area until --runtime", OPT_TIME_BASED,
	  OPT_V_FLAG(struct run_cmd, run.spec.time_based) },
	{ "rate", 0, "SIZE", "bytes per second per job at most, e.g. 100M", OPT_RATE,
	  OPT_V_SIZE(struct run_cmd, run.spec.rate_bps, 1, 0, NULL) },
	{ "rate-iops", 0, "N", "I/Os per second per job at most", OPT_RATE_IOPS,
	  OPT_V_UINT(struct run_cmd, run.spec.rate_iops, 1, 100000000, NULL) },
	{ "random-map", 0, "KIND", "random offsets: uniform (with replacement) or once (every block once per pass)",
	  OPT_RANDOM_MAP, OPT_V_CHOICE(struct run_cmd, run.random_map, run_random_maps, "uniform") },
	{ "fio-job", 0, "FILE", "run a fio job file's jobs instead (its workload options replace these; TARGET, if given, "
	  "replaces filename=)", OPT_FIO_JOB, OPT_V_STRING(struct run_cmd, fio_job) },
	{ "native", 0, NULL, "with --fio-job: refuse a job file iotriage does not run natively instead of handing it to fio",
	  OPT_NATIVE, OPT_V_FLAG(struct run_cmd, native) },
	{ "parse-only", 0, NULL, "with --fio-job: read and check the file, say how each job would run, run nothing",
	  OPT_PARSE_ONLY, OPT_V_FLAG(struct run_cmd, parse_only) },
	{ "fio-json", 0, "FILE", "also write the results in fio's JSON schema (json+) to FILE, for fio's tools",
	  OPT_FIO_JSON, OPT_V_STRING(struct run_cmd, fio_json) },
	OPT_END,
};

static int parse_run_option(int id, const char *arg, void *state)
{
	struct run_cmd *c = state;
	return id == OPT_ENGINE ? engine_option("run", arg, &c->run.engine) : 2;
}

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

/* The settings the options do not carry, and those they carry in another form. */
static void run_settings_complete(struct run_cmd *c, bool json)
{
	struct run_settings *s = &c->run;
	s->spec.bs = (uint32_t)c->bs;
	s->spec.no_pin = !c->pin;
	s->spec.pattern = strcmp(c->pattern, "zeros") == 0 ? PATTERN_ZEROS : PATTERN_RANDOM;
	s->spec.read_pct = 100;
	s->spec.seed = 1;
	s->spec.progress = cmd_progress(json);
	s->spec.progress_label = "run";
	s->guard = (struct inuse_report){ .excl_fd = -1 };
	run_apply_rw(s);
}

/* The options a job file sets: given with --fio-job they would be ignored,
 * so they are refused (the file says what runs). */
static const char *workload_option_given(const struct command_call *call)
{
	static const char *const names[] = { "rw", "rwmixread", "bs", "iodepth", "numjobs", "size", "io-size",
					     "runtime", "engine", "direct", "ramp-time", "time-based", "rate",
					     "rate-iops", "random-map", NULL };
	for (int i = 1; i < call->argc && strcmp(call->argv[i], "--") != 0; i++)
		for (const char *const *n = names; *n; n++) {
			size_t len = strlen(*n);
			const char *a = call->argv[i];
			if (strncmp(a, "--", 2) == 0 && strncmp(a + 2, *n, len) == 0 && (!a[2 + len] || a[2 + len] == '='))
				return *n;
		}
	return NULL;
}

/* --fio-json FILE: the jobs in fio's schema, written whole or not at all. */
static int write_fio_json(const char *file, const struct fio_json_job *jobs, size_t n, int status)
{
	struct strbuf sb = STRBUF_INIT;
	fio_json_render(jobs, n, &sb);
	int r = write_file_atomic(file, sb.buf, sb.len, 0644);
	strbuf_release(&sb);
	if (r < 0)
		return cmd_error("run", "cannot write --fio-json '%s': %s", file, strerror(-r)), 1;
	return status;
}

/* --fio-job: the file is read and every job checked before anything runs. */
static int check_fio_job(struct command_call *call)
{
	struct run_cmd *c = call->settings;
	const char *given = workload_option_given(call);
	if (given)
		return opts_usage_error("run", "--%s with --fio-job: the job file sets the workload (%s= in it)", given,
					strcmp(given, "engine") == 0 ? "ioengine" : given);
	if (call->noperands > 1)
		return opts_usage_error("run", "--fio-job takes at most one target (it replaces the jobs' filename=)");
	char err[600];
	if (fiojob_load(c->fio_job, call->noperands ? call->operands[0] : NULL, c->native, &c->fio, err, sizeof(err)) < 0)
		return opts_usage_error("run", "%s", err);
	if (c->parse_only) {
		call->answered = true;
		run_fio_job_plan_print(&c->fio);
	}
	return 0;
}

/* One target: more than one is refused the same way as none. */
static int check_one_target(struct command_call *call)
{
	const char *fj = ((const struct run_cmd *)call->settings)->fio_json;
	char why[300];
	if (fj && check_file_writable(fj, why, sizeof(why)) < 0)
		return opts_usage_error("run", "--fio-json %s", why);
	if (((const struct run_cmd *)call->settings)->fio_job)
		return check_fio_job(call);
	if (((const struct run_cmd *)call->settings)->native || ((const struct run_cmd *)call->settings)->parse_only)
		return opts_usage_error("run", "--native and --parse-only go with --fio-job");
	if (call->noperands != 1)
		return opts_usage_error("run", "expected exactly one target (a file or block device)");
	const struct run_cmd *c = call->settings;
	char msg[160];
	if (job_validate_timing(&c->run.spec, msg, sizeof(msg)) < 0)
		return opts_usage_error("run", "%s", msg);
	return 0;
}

static int store_fio_jobs(struct store *s, const struct run_ctx *rc, void *arg)
{
	return fiojob_store(s, rc->id, arg);
}

static int fio_job_main(struct command_call *call)
{
	struct run_cmd *c = call->settings;
	run_settings_complete(c, call->rc->json);
	int status = fiojob_run(&c->fio, &c->run, c->err, sizeof(c->err)) < 0 ? 1 : 0;
	if (c->fio.through_fio && !call->rc->json)
		printf("run by %s: %s\n", c->fio.fio_version, c->fio.jobs.fio_reason);
	for (size_t i = 0; i < c->fio.ndone && !call->rc->json; i++) {
		printf("job [%s] on %s:%s%s\n", c->fio.jobs.jobs[i].name, c->fio.target[i], c->fio.error[i][0] ? " " : "",
		       c->fio.error[i]);
		if (c->fio.results[i])
			run_result_print(c->fio.results[i]);
	}
	int sig_status = run_ctx_interrupted_status();
	if (sig_status)
		status = sig_status;
	fiojob_json(call->doc, &c->fio);
	json_string(call->doc, "status", status ? "error" : "ok");
	json_string(call->doc, "reason", c->err[0] ? c->err : NULL);
	call->store_fn = store_fio_jobs;
	call->store_arg = &c->fio;
	struct fio_json_job fj[FIOJOB_MAX_JOBS];
	for (size_t i = 0; i < c->fio.ndone; i++)
		fj[i] = (struct fio_json_job){ c->fio.jobs.jobs[i].name, c->fio.target[i], &c->fio.settings[i],
					       c->fio.results[i], c->fio.error[i] };
	return c->fio_json ? write_fio_json(c->fio_json, fj, c->fio.ndone, status) : status;
}

static int run_main(struct command_call *call)
{
	struct run_cmd *c = call->settings;
	if (c->fio_job)
		return fio_job_main(call);
	struct run_settings *s = &c->run;
	const char *path = call->operands[0];
	run_settings_complete(c, call->rc->json);
	int status = run_workload(path, s, &c->res, c->err, sizeof(c->err), c->engine_reason,
				  sizeof(c->engine_reason)) < 0 ? 1 : 0;
	if (c->res && !call->rc->json)
		run_result_print(c->res);
	int sig_status = run_ctx_interrupted_status();
	if (sig_status)
		status = sig_status;

	struct json *j = call->doc;
	run_json_parameters(j, s, path);
	if (c->res)
		run_json_result(j, c->res, c->engine_reason, s->direct);
	json_string(j, "status", status ? "error" : "ok");
	json_string(j, "reason", c->err[0] ? c->err : NULL);
	store_params_workload(&c->params, s->rw, s->spec.bs, s->spec.iodepth, s->spec.numjobs);
	c->rec = (struct run_record){ path, c->res, status ? "error" : "ok", c->err[0] ? c->err : NULL,
				      store_params_text(&c->params) };
	call->store_fn = store_run_result;
	call->store_arg = &c->rec;
	struct fio_json_job fj = { "run", path, s, c->res, c->err };
	return c->fio_json ? write_fio_json(c->fio_json, &fj, 1, status) : status;
}

static void run_release(struct command_call *call)
{
	struct run_cmd *c = call->settings;
	free(c->res);
	fiojob_release(&c->fio);
	store_params_release(&c->params);
}

static const struct command_doc run_doc = {
	"run", "run [options] TARGET",
	"Runs one workload on a file or block device with the built-in engine and reports\n"
	"bandwidth, IOPS and latency percentiles. Option names follow fio.\n"
	"Writes to a block device are refused while it is mounted, swapped on, held\n"
	"(holders, O_EXCL) or carries a signature (file system, ZFS, LVM, md, partition\n"
	"table). --force DEVICE, naming the target again, overrides a signature only.\n"
	"--fio-job FILE runs a fio job file, read by fio's rules (comments, ${VAR},\n"
	"$pagesize, include, aliases, escaped colons, N% sizes): natively, one job after\n"
	"another (each job after the first needs stonewall, as fio would run them\n"
	"together otherwise); a file with an option iotriage does not run natively is\n"
	"handed to fio itself (fio --output-format=json+, the same write guard first)\n"
	"and its figures kept as the jobs' results, engine \"fio\"; --native refuses it\n"
	"instead, by name. --parse-only says how each job would run and runs nothing.",
	run_opts,
};

const struct command_frame run_frame = {
	.doc = &run_doc,
	.settings_size = sizeof(struct run_cmd),
	.handle = parse_run_option,
	.flags = CMD_RECORDS_RUN,
	.min_operands = 0,
	.max_operands = -1,
	.operands_expected = "expected exactly one target (a file or block device)",
	.check = check_one_target,
	.main = run_main,
	.release = run_release,
};
