/* run --fio-job: a fio job file's jobs with the built-in engine (see
 * triage/fiojob_run.h). */
#include "triage/fiojob_run.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "basic/log.h"
#include "store/params.h"
#include "store/store.h"

/* The job file's text, at most FIOJOB_MAX_TEXT bytes (one more is read to
 * tell a longer file, which the parser then refuses). */
static int read_job_file(const char *file, char **ret, size_t *ret_len, char *err, size_t errlen)
{
	FILE *fp = fopen(file, "re");
	if (!fp) {
		int e = errno;
		snprintf(err, errlen, "cannot read the fio job file '%s': %s", file, strerror(e));
		return -e;
	}
	char *buf = malloc(FIOJOB_MAX_TEXT + 2);
	if (!buf) {
		fclose(fp);
		return -ENOMEM;
	}
	size_t n = fread(buf, 1, FIOJOB_MAX_TEXT + 1, fp);
	int failed = ferror(fp);
	fclose(fp);
	if (failed) {
		free(buf);
		snprintf(err, errlen, "cannot read the fio job file '%s' (is it a directory?)", file);
		return -EIO;
	}
	buf[n] = '\0';
	*ret = buf;
	*ret_len = n;
	return 0;
}

/* A job's settings in run's terms; the target's own size when none is given. */
static void job_settings(const struct fiojob *job, const struct run_settings *base, struct run_settings *s)
{
	*s = *base;
	s->guard = (struct inuse_report){ .excl_fd = -1 };
	s->rw = run_rw_find(job->rw);
	s->mix = job->rwmixread;
	s->engine = job->ioengine;
	s->direct = job->direct;
	s->size_given = job->size != 0;
	s->random_map = job->norandommap ? "uniform" : "once"; /* fio's random map is on by default */
	s->spec.bs = job->bs;
	s->spec.iodepth = job->iodepth;
	s->spec.numjobs = job->numjobs;
	s->spec.size = job->size;
	s->spec.io_limit = job->io_size;
	s->spec.runtime_ns = job->runtime_ns;
	s->spec.ramp_ns = job->ramp_ns;
	s->spec.time_based = job->time_based;
	s->spec.rate_bps = job->rate_bps;
	s->spec.rate_iops = job->rate_iops;
	/* randrepeat=1 (fio's default): the same offsets every run; 0: new ones. */
	s->spec.seed = job->randrepeat ? 1 : (uint64_t)time(NULL) ^ ((uint64_t)clock() << 32);
	s->spec.progress_label = job->name;
	run_apply_rw(s);
}

static int check_jobs(const char *file, const char *target, struct fiojob_outcome *out, char *err, size_t errlen)
{
	for (size_t i = 0; i < out->jobs.njobs; i++) {
		const struct fiojob *job = &out->jobs.jobs[i];
		const char *path = target ? target : job->filename;
		if (!path[0]) {
			snprintf(err, errlen, "%s: job [%s] names no filename= and no TARGET was given", file, job->name);
			return -EINVAL;
		}
		snprintf(out->target[i], sizeof(out->target[i]), "%s", path);
		struct run_settings base = { .rw = "read" };
		job_settings(job, &base, &out->settings[i]);
		char msg[160];
		if (job_validate_timing(&out->settings[i].spec, msg, sizeof(msg)) < 0) {
			snprintf(err, errlen, "%s: job [%s]: %s", file, job->name, msg);
			return -EINVAL;
		}
	}
	return 0;
}

int fiojob_load(const char *file, const char *target, struct fiojob_outcome *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	out->file = file;
	char *text = NULL;
	size_t len = 0;
	int r = read_job_file(file, &text, &len, err, errlen);
	if (r < 0)
		return r;
	char why[512];
	r = fiojob_parse(text, len, &out->jobs, why, sizeof(why));
	free(text);
	if (r < 0) {
		snprintf(err, errlen, "%s: %s", file, why);
		return r;
	}
	return check_jobs(file, target, out, err, errlen);
}

int fiojob_run(struct fiojob_outcome *out, const struct run_settings *base, char *err, size_t errlen)
{
	int first = 0;
	for (size_t i = 0; i < out->jobs.njobs; i++) {
		const struct fiojob *job = &out->jobs.jobs[i];
		struct run_settings *s = &out->settings[i];
		job_settings(job, base, s);
		log_msg(LOG_INFO, "FIO-JOB %s (%s): job [%s], %zu of %zu", out->file, out->target[i], job->name, i + 1,
			out->jobs.njobs);
		int r = run_workload(out->target[i], s, &out->results[i], out->error[i], sizeof(out->error[i]),
				     out->engine_reason[i], sizeof(out->engine_reason[i]));
		out->ndone = i + 1;
		if (r == 0 && out->results[i]->stop == JOB_STOP_INTERRUPTED)
			r = -EINTR;
		if (r < 0 && !first) {
			first = r;
			snprintf(err, errlen, "job [%s]: %s", job->name, r == -EINTR ? "interrupted" : out->error[i]);
		}
		if (r == -EINTR)
			break;
	}
	return first;
}

static void json_job_options(struct json *j, const struct fiojob *job)
{
	json_begin_object(j, "options");
	json_string(j, "rw", job->rw);
	json_uint(j, "rwmixread", job->rwmixread);
	json_uint(j, "bs", job->bs);
	json_uint(j, "iodepth", job->iodepth);
	json_uint(j, "numjobs", job->numjobs);
	json_uint(j, "size", job->size);
	json_uint(j, "io_size", job->io_size);
	json_double(j, "runtime_seconds", (double)job->runtime_ns / 1e9);
	json_double(j, "ramp_time_seconds", (double)job->ramp_ns / 1e9);
	json_bool(j, "time_based", job->time_based);
	json_bool(j, "direct", job->direct);
	json_string(j, "ioengine", job->ioengine);
	json_string(j, "filename", job->filename[0] ? job->filename : NULL);
	json_uint(j, "rate", job->rate_bps);
	json_uint(j, "rate_iops", job->rate_iops);
	json_bool(j, "randrepeat", job->randrepeat);
	json_bool(j, "norandommap", job->norandommap);
	json_end_object(j);
}

void fiojob_json(struct json *j, const struct fiojob_outcome *o)
{
	json_begin_object(j, "fio_job");
	json_string(j, "file", o->file);
	json_string(j, "order", "one job after another (as fio with stonewall)");
	json_begin_array(j, "jobs");
	for (size_t i = 0; i < o->ndone; i++) {
		json_begin_object(j, NULL);
		json_string(j, "name", o->jobs.jobs[i].name);
		json_string(j, "target", o->target[i]);
		json_job_options(j, &o->jobs.jobs[i]);
		run_json_parameters(j, &o->settings[i], o->target[i]);
		if (o->results[i])
			run_json_result(j, o->results[i], o->engine_reason[i], o->settings[i].direct);
		json_string(j, "status", o->error[i][0] ? "error" : "ok");
		json_string(j, "reason", o->error[i][0] ? o->error[i] : NULL);
		json_end_object(j);
	}
	json_end_array(j);
	json_end_object(j);
}

int fiojob_store(struct store *s, const char *run_id, const struct fiojob_outcome *o)
{
	for (size_t i = 0; i < o->ndone; i++) {
		const struct fiojob *job = &o->jobs.jobs[i];
		const struct job_result *res = o->results[i];
		char test[96];
		snprintf(test, sizeof(test), "fio-job %s", job->name);
		struct store_params params = STORE_PARAMS_INIT;
		store_params_workload(&params, job->rw, job->bs, job->iodepth, job->numjobs);
		struct store_result row = {
			.run_id = run_id, .test = test, .path = o->target[i],
			.status = o->error[i][0] ? "error" : "ok", .reason = o->error[i][0] ? o->error[i] : NULL,
			.bytes = res ? res->bytes : 0, .seconds = res ? res->seconds : 0,
			.bw_bytes_per_s = res ? job_bw_bytes_per_s(res) : 0, .iops = res ? job_iops(res) : 0,
			.params = store_params_text(&params),
		};
		int r = store_add_result(s, &row);
		store_params_release(&params);
		if (r < 0)
			return r;
	}
	return 0;
}

void fiojob_release(struct fiojob_outcome *o)
{
	for (size_t i = 0; i < FIOJOB_MAX_JOBS; i++) {
		free(o->results[i]);
		o->results[i] = NULL;
	}
}
