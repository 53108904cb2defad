/* run --fio-job: a fio job file's jobs with the built-in engine (see
 * triage/workload/fiojob_run.h). */
#include "triage/workload/fiojob_run.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "basic/checksum.h"
#include "basic/fsutil.h"
#include "basic/log.h"
#include "basic/strbuf.h"
#include "bench/target.h"
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

/* The options of fio's that the engine runs natively (bench/job.h). */
static void job_settings_fio(const struct fiojob *job, struct job_spec *spec)
{
	spec->offset = job->offset;
	spec->offset_increment = job->offset_increment;
	spec->number_ios = job->number_ios;
	spec->loops = job->loops;
	spec->startdelay_ns = job->startdelay_ns;
	spec->thinktime_ns = job->thinktime_ns;
	spec->thinktime_blocks = job->thinktime_blocks;
	spec->sync_every = job->fsync ? job->fsync : job->fdatasync;
	spec->datasync = !job->fsync && job->fdatasync;
	spec->end_fsync = job->end_fsync;
	spec->seq_hole = job->seq_hole;
	int kind = job->verify[0] ? checksum_find(job->verify) : CHECKSUM_NONE;
	spec->verify = kind < 0 ? CHECKSUM_NONE : (enum checksum_kind)kind;
	spec->verify_read = job->do_verify;
	spec->verify_fatal = job->verify_fatal;
	spec->verify_backlog = job->verify_backlog;
	spec->verify_batch = job->verify_batch;
	for (int d = 0; d < IO_DIRS; d++)
		spec->ba[d] = job->ba[d];
	spec->dist = job->dist;
	spec->compress_pct = job->compress_pct;
	spec->compress_chunk = job->compress_chunk;
	spec->dedupe_pct = job->dedupe_pct;
	spec->refill = job->refill_buffers;
	spec->bs_min = job->bs_min;
	spec->nr_split = job->nr_split;
	for (unsigned i = 0; i < job->nr_split && i < JOB_MAX_SPLIT; i++)
		spec->split[i] = (struct job_bs_share){ job->split[i].bs, job->split[i].pct };
}

/* A job's settings in run's terms; the target's own size when none is given. */
static void job_settings(const struct fiojob *job, const struct run_settings *base, struct run_settings *s)
{
	*s = *base;
	s->guard = (struct inuse_report){ .excl_fd = -1 };
	s->rw = run_rw_find(job->rw);
	s->mix = job->rwmixread;
	s->engine = job->ioengine;
	if (!s->rw)
		s->rw = job->rw; /* one of the trim modes (fio's own, not run's --rw) */
	s->direct = job->direct;
	s->size_given = job->size != 0 || job->filesize != 0;
	s->random_map = job->norandommap ? "uniform" : "once"; /* fio's random map is on by default */
	s->spec.bs = job->bs;
	s->spec.iodepth = job->iodepth;
	s->spec.numjobs = job->numjobs;
	s->spec.size = job->size;
	s->spec.io_limit = job->io_size;
	if (job->filesize) { /* the file's size; size is only io_size's default then, as in fio */
		s->spec.size = job->filesize;
		s->spec.io_limit = job->io_size ? job->io_size : job->size;
	}
	if (job->nrfiles > 1) { /* fio's: every file filesize, or size / nrfiles; all of them the area */
		s->spec.nr_files = job->nrfiles;
		s->spec.size = (job->filesize ? job->filesize : job->size / job->nrfiles) * job->nrfiles;
	}
	s->spec.runtime_ns = job->runtime_ns;
	s->spec.ramp_ns = job->ramp_ns;
	s->spec.time_based = job->time_based;
	s->spec.rate_bps = job->rate_bps;
	s->spec.rate_iops = job->rate_iops;
	job_settings_fio(job, &s->spec);
	/* randrepeat=1 (fio's default): the same offsets every run; 0: new ones. */
	s->spec.seed = job->randrepeat ? 1 : (uint64_t)time(NULL) ^ ((uint64_t)clock() << 32);
	s->spec.progress_label = job->name;
	run_apply_rw(s);
	if (strstr(job->rw, "trim")) { /* trim, randtrim, trimwrite */
		s->spec.trim = strstr(job->rw, "trimwrite") ? JOB_TRIM_WRITE : JOB_TRIM_ONLY;
		s->spec.random = strncmp(job->rw, "rand", 4) == 0;
		s->spec.read_pct = 0;
		s->direct = false; /* fio opens a trim job's file without O_DIRECT whatever direct= says
				    * (filesetup.c: td_trim skips the flags): trimwrite's writes are buffered */
	}
}

/* size=N% and io_size=N%: of the target's size (rounded down to the block
 * size, as fio does), and of the size. */
static int resolve_percentages(const char *file, const char *path, struct fiojob *job, char *err, size_t errlen)
{
	if (!job->size_pct && !job->io_size_pct)
		return 0;
	struct target t = TARGET_INIT;
	int r = target_open(path, false, false, false, &t);
	uint64_t whole = t.size;
	target_close(&t);
	if (r < 0) {
		snprintf(err, errlen, "%s: job [%s]: size=%u%%: cannot read the size of '%s': %s", file, job->name,
			 job->size_pct ? job->size_pct : job->io_size_pct, path, strerror(-r));
		return r;
	}
	if (job->size_pct) {
		job->size = whole * job->size_pct / 100;
		job->size -= job->size % job->bs;
	}
	if (job->io_size_pct)
		job->io_size = (job->size ? job->size : whole) * job->io_size_pct / 100;
	if ((job->size_pct && !job->size) || (job->io_size_pct && !job->io_size)) {
		snprintf(err, errlen, "%s: job [%s]: %u%% of '%s' (%llu bytes) is less than one block", file, job->name,
			 job->size_pct ? job->size_pct : job->io_size_pct, path, (unsigned long long)whole);
		return -EINVAL;
	}
	return 0;
}

/* The logs JOB asks for (NULL: none), its first worker fio's number FIRST. */
static struct joblog *job_logs(const struct fiojob *job, unsigned first)
{
	const struct fiojob_logs *l = &job->logs;
	if (!l->bw && !l->iops && !l->lat && !l->hist)
		return NULL;
	struct joblog *log = xcalloc(1, sizeof(*log));
	struct joblog_spec *s = &log->spec;
	snprintf(s->bw, sizeof(s->bw), "%s", l->bw ? l->bw_name : "");
	snprintf(s->iops, sizeof(s->iops), "%s", l->iops ? l->iops_name : "");
	snprintf(s->lat, sizeof(s->lat), "%s", l->lat ? l->lat_name : "");
	snprintf(s->hist, sizeof(s->hist), "%s", l->hist ? l->hist_name : "");
	s->avg_msec = l->avg_msec;
	s->hist_msec = l->hist_msec;
	s->hist_coarseness = l->hist_coarseness;
	s->log_max = l->log_max;
	s->log_offset = l->log_offset;
	s->first_jobnum = first;
	return log;
}

/* The job's log files can be written where they go (the current
 * directory, or the directory in their prefix): checked before anything runs. */
static int check_logs(const char *file, const struct fiojob *job, char *err, size_t errlen)
{
	struct joblog *log = job_logs(job, 1);
	int r = 0;
	for (int kind = 0; log && kind < JOBLOG_KINDS && r == 0; kind++) {
		char path[512], why[600];
		if (!joblog_asked(log, (enum joblog_kind)kind))
			continue;
		joblog_path(log, (enum joblog_kind)kind, 0, path, sizeof(path));
		r = check_file_writable(path, why, sizeof(why));
		if (r < 0)
			snprintf(err, errlen, "%s: job [%s]: the fio log %s", file, job->name, why);
	}
	free(log);
	return r;
}

static int check_jobs(const char *file, const char *target, struct fiojob_outcome *out, char *err, size_t errlen)
{
	for (size_t i = 0; i < out->jobs.njobs; i++) {
		struct fiojob *job = &out->jobs.jobs[i];
		struct stat st;
		bool into_dir = target && stat(target, &st) == 0 && S_ISDIR(st.st_mode);
		if (into_dir && !fiojob_file_path(job, target, out->target[i], sizeof(out->target[i]))) {
			snprintf(err, errlen, "%s: job [%s]: TARGET '%s' is a directory and the job names no file in it "
				 "(filename=, filename_format= or filesize=)", file, job->name, target);
			return -EINVAL;
		}
		if (!into_dir && target && job->nrfiles > 1) {
			snprintf(err, errlen, "%s: job [%s]: nrfiles=%u lays out its files in a directory: TARGET '%s' is "
				 "not one", file, job->name, job->nrfiles, target);
			return -EINVAL;
		}
		if (!into_dir && target)
			snprintf(out->target[i], sizeof(out->target[i]), "%s", target);
		else if (!into_dir && !fiojob_file_path(job, NULL, out->target[i], sizeof(out->target[i]))) {
			snprintf(err, errlen, "%s: job [%s] names no filename= and no TARGET was given", file, job->name);
			return -EINVAL;
		}
		const char *path = out->target[i];
		int r = resolve_percentages(file, path, job, err, errlen);
		if (r == 0)
			r = check_logs(file, job, err, errlen);
		if (r < 0)
			return r;
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

static const char *env_get(const char *name, void *arg)
{
	(void)arg;
	return getenv(name);
}

/* fio's rule: a relative name not found from here is looked for beside the including file. */
static int env_include(const char *path, const char *from, char **text, size_t *len, char *why, size_t whylen,
		       void *arg)
{
	(void)arg;
	char beside[4096];
	const char *slash = from ? strrchr(from, '/') : NULL;
	if (path[0] != '/' && access(path, F_OK) != 0 && slash) {
		snprintf(beside, sizeof(beside), "%.*s%s", (int)(slash - from + 1), from, path);
		path = beside;
	}
	return read_job_file(path, text, len, why, whylen);
}

/* The job's file as a name (a colon unescaped), or its list as written. */
static const char *job_files(const struct fiojob *job)
{
	return job->filename[0] ? job->filename : job->files;
}

/* A file that needs fio: refused with --native or without fio, else marked for it. */
static int check_fio(const char *file, bool native, struct fiojob_outcome *out, char *err, size_t errlen)
{
	const char *why = out->jobs.fio_reason;
	if (native) {
		snprintf(err, errlen, "%s: %s; --native refuses it (without --native the file runs through fio)", file, why);
		return -EINVAL;
	}
	if (fiojob_fio_version(out->fio_version, sizeof(out->fio_version)) < 0) {
		snprintf(err, errlen, "%s: %s, and fio, which would run it, is not installed (apt-get install fio)", file,
			 why);
		return -ENOENT;
	}
	char refusal[400];
	if (fiojob_fio_check(&out->jobs, out->target_arg, refusal, sizeof(refusal)) < 0) {
		snprintf(err, errlen, "%s: %s; %s", file, why, refusal);
		return -EINVAL;
	}
	out->through_fio = true;
	for (size_t i = 0; i < out->jobs.njobs; i++)
		snprintf(out->target[i], sizeof(out->target[i]), "%s",
			 out->target_arg ? out->target_arg : job_files(&out->jobs.jobs[i]));
	return 0;
}

int fiojob_load(const char *file, const char *target, bool native, struct fiojob_outcome *out, char *err,
		size_t errlen)
{
	memset(out, 0, sizeof(*out));
	out->file = file;
	out->target_arg = target;
	char *text = NULL;
	size_t len = 0;
	int r = read_job_file(file, &text, &len, err, errlen);
	if (r < 0)
		return r;
	long page = sysconf(_SC_PAGESIZE), cpus = sysconf(_SC_NPROCESSORS_CONF), pages = sysconf(_SC_PHYS_PAGES);
	struct fiojob_env env = {
		.getenv = env_get, .read_include = env_include, .path = file,
		.pagesize = page > 0 ? (uint64_t)page : 4096, .ncpus = cpus > 0 ? (uint64_t)cpus : 1,
		.mb_memory = page > 0 && pages > 0 ? (uint64_t)pages * (uint64_t)page >> 20 : 0,
	};
	char why[512];
	r = fiojob_parse_env(text, len, &env, &out->jobs, why, sizeof(why));
	free(text);
	if (r < 0) {
		fiojob_file_release(&out->jobs);
		snprintf(err, errlen, "%s: %s", file, why);
		return r;
	}
	r = out->jobs.fio_reason[0] ? check_fio(file, native, out, err, errlen) : check_jobs(file, target, out, err, errlen);
	if (r < 0)
		fiojob_file_release(&out->jobs);
	return r;
}

/* fio's jobs become the outcome's, with their results (fio may report more
 * jobs than the file has sections: numjobs without group_reporting). */
static int run_through_fio(struct fiojob_outcome *out, const struct run_settings *base, char *err, size_t errlen)
{
	log_msg(LOG_INFO, "FIO-JOB %s: handed to %s: %s", out->file, out->fio_version, out->jobs.fio_reason);
	int r = fiojob_fio_run(&out->jobs, out->target_arg, base->force, &out->fio, err, errlen);
	char reason[sizeof(out->engine_reason[0])];
	snprintf(reason, sizeof(reason), "%s ran the file: %s", out->fio_version, out->jobs.fio_reason);
	for (size_t i = 0; i < out->fio.njobs; i++) {
		struct fiojob *job = &out->jobs.jobs[i];
		*job = out->fio.jobs[i];
		if (i >= out->jobs.njobs || !out->target_arg)
			snprintf(out->target[i], sizeof(out->target[i]), "%s", out->target_arg ? out->target_arg : job_files(job));
		job_settings(job, base, &out->settings[i]);
		out->settings[i].engine = "fio";
		out->results[i] = out->fio.results[i];
		out->fio.results[i] = NULL;
		snprintf(out->error[i], sizeof(out->error[i]), "%s", out->fio.error[i]);
		snprintf(out->engine_reason[i], sizeof(out->engine_reason[i]), "%s", reason);
		if (out->error[i][0] && r == 0) {
			r = -EIO;
			snprintf(err, errlen, "job [%s]: %s", job->name, out->error[i]);
		}
	}
	out->jobs.njobs = out->fio.njobs > out->jobs.njobs ? out->fio.njobs : out->jobs.njobs;
	out->ndone = out->fio.njobs;
	return r;
}

/* The job's logs written once it has run (an error of its own when it ran cleanly). */
static int write_logs(struct fiojob_outcome *out, size_t i, int r)
{
	const struct joblog *log = out->logs[i];
	if (!log || !out->results[i])
		return r;
	char why[sizeof(out->error[i])], first[512];
	int n = joblog_write(log, why, sizeof(why));
	if (n < 0) {
		log_msg(LOG_ERR, "FIO-JOB %s: job [%s]: %s", out->file, out->jobs.jobs[i].name, why);
		if (r == 0)
			snprintf(out->error[i], sizeof(out->error[i]), "%s", why);
		return r ? r : n;
	}
	enum joblog_kind kind = JOBLOG_BW;
	while (kind < JOBLOG_HIST && !joblog_series(log, 0, kind)->n)
		kind++;
	joblog_path(log, kind, 0, first, sizeof(first));
	log_msg(LOG_INFO, "FIO-JOB %s: job [%s]: %d fio log files written (%s, ...)", out->file, out->jobs.jobs[i].name,
		n, first);
	return r;
}

/* Job I's nrfiles= files (fio's filename_format with $filenum), in the
 * directory TARGET names or the job's directory=; NULL for one file. */
static char **job_file_paths(const struct fiojob_outcome *out, size_t i)
{
	const struct fiojob *job = &out->jobs.jobs[i];
	if (job->nrfiles < 2)
		return NULL;
	struct stat st;
	bool into_dir = out->target_arg && stat(out->target_arg, &st) == 0 && S_ISDIR(st.st_mode);
	char **paths = xcalloc(job->nrfiles, sizeof(*paths));
	for (unsigned k = 0; k < job->nrfiles; k++) {
		char buf[4096];
		fiojob_file_path_n(job, into_dir ? out->target_arg : NULL, k, buf, sizeof(buf));
		paths[k] = xstrdup(buf);
	}
	return paths;
}

int fiojob_run(struct fiojob_outcome *out, const struct run_settings *base, char *err, size_t errlen)
{
	if (out->through_fio)
		return run_through_fio(out, base, err, errlen);
	int first = 0;
	unsigned jobnum = 1; /* fio numbers every clone of every job, in order */
	for (size_t i = 0; i < out->jobs.njobs; i++) {
		const struct fiojob *job = &out->jobs.jobs[i];
		struct run_settings *s = &out->settings[i];
		job_settings(job, base, s);
		out->logs[i] = job_logs(job, jobnum);
		jobnum += job->numjobs;
		s->spec.log = out->logs[i];
		log_msg(LOG_INFO, "FIO-JOB %s (%s): job [%s], %zu of %zu", out->file, out->target[i], job->name, i + 1,
			out->jobs.njobs);
		char **paths = job_file_paths(out, i);
		s->file_paths = (const char *const *)paths;
		int r = run_workload(out->target[i], s, &out->results[i], out->error[i], sizeof(out->error[i]),
				     out->engine_reason[i], sizeof(out->engine_reason[i]));
		s->file_paths = NULL;
		for (unsigned k = 0; paths && k < job->nrfiles; k++)
			free(paths[k]);
		free(paths);
		r = write_logs(out, i, r);
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
	json_string(j, "directory", job->directory[0] ? job->directory : NULL);
	json_string(j, "filename_format", job->filename_format[0] ? job->filename_format : NULL);
	json_uint(j, "filesize", job->filesize);
	json_uint(j, "nrfiles", job->nrfiles);
	json_uint(j, "openfiles", job->openfiles);
	json_uint(j, "bs_min", job->bs_min);
	json_begin_array(j, "bssplit");
	for (unsigned i = 0; i < job->nr_split; i++) {
		json_begin_object(j, NULL);
		json_uint(j, "bs", job->split[i].bs);
		json_uint(j, "percent", job->split[i].pct);
		json_end_object(j);
	}
	json_end_array(j);
	json_uint(j, "rate", job->rate_bps);
	json_uint(j, "rate_iops", job->rate_iops);
	json_bool(j, "randrepeat", job->randrepeat);
	json_bool(j, "norandommap", job->norandommap);
	char dist[160];
	dist_format(&job->dist, dist, sizeof(dist));
	json_string(j, "random_distribution", dist);
	json_uint(j, "buffer_compress_percentage", job->compress_pct);
	json_uint(j, "buffer_compress_chunk", job->compress_chunk ? job->compress_chunk : 512);
	json_uint(j, "dedupe_percentage", job->dedupe_pct);
	json_bool(j, "refill_buffers", job->refill_buffers);
	json_uint(j, "offset", job->offset);
	json_uint(j, "offset_increment", job->offset_increment);
	json_uint(j, "number_ios", job->number_ios);
	json_uint(j, "loops", job->loops);
	json_double(j, "startdelay_seconds", (double)job->startdelay_ns / 1e9);
	json_double(j, "thinktime_seconds", (double)job->thinktime_ns / 1e9);
	json_uint(j, "thinktime_blocks", job->thinktime_blocks);
	json_uint(j, "fsync", job->fsync);
	json_uint(j, "fdatasync", job->fdatasync);
	json_bool(j, "end_fsync", job->end_fsync);
	json_uint(j, "rw_skip_bytes", job->seq_hole);
	json_string(j, "verify", job->verify[0] ? job->verify : NULL);
	json_bool(j, "do_verify", job->do_verify);
	json_bool(j, "verify_fatal", job->verify_fatal);
	json_uint(j, "verify_backlog", job->verify_backlog);
	json_uint(j, "verify_backlog_batch", job->verify_batch ? job->verify_batch : job->verify_backlog);
	json_begin_array(j, "ba"); /* reads, writes, trims; the smallest block size when not given */
	for (int d = 0; d < 3; d++)
		json_uint(j, NULL, job->ba[d] ? job->ba[d] : fiojob_grain(job));
	json_end_array(j);
	json_end_object(j);
}

#define SERIES_MAX_ROWS 100000 /* a kind's rows in the document; the log files hold them all */

/* The job's fio logs as the document's "series": per kind, rows of
 * [fio's job number, time_ms, ddir, value] (what the log files hold). */
static void json_series(struct json *j, const struct joblog *log)
{
	static const char *const keys[] = { "bw_kib_per_s", "iops", "lat_ns", "clat_ns", "slat_ns" };
	json_begin_object(j, "series");
	json_uint(j, "interval_ms", log->spec.avg_msec);
	json_string(j, "value", log->spec.log_max ? "max" : log->spec.avg_msec ? "mean" : "each I/O");
	json_begin_array(j, "columns");
	static const char *const cols[] = { "job", "time_ms", "ddir", "value" };
	for (size_t c = 0; c < 4; c++)
		json_string(j, NULL, cols[c]);
	json_end_array(j);
	bool truncated = false;
	for (int kind = JOBLOG_BW; kind < JOBLOG_HIST; kind++) {
		if (!joblog_asked(log, (enum joblog_kind)kind))
			continue;
		size_t rows = 0;
		json_begin_array(j, keys[kind]);
		for (unsigned w = 0; w < log->nr_workers; w++) {
			const struct joblog_series *ser = joblog_series(log, w, kind);
			truncated |= rows + ser->n > SERIES_MAX_ROWS;
			for (size_t i = 0; i < ser->n && rows < SERIES_MAX_ROWS; i++, rows++) {
				json_begin_array(j, NULL);
				json_uint(j, NULL, log->spec.first_jobnum + w);
				json_uint(j, NULL, ser->v[i].time_ms);
				json_uint(j, NULL, ser->v[i].ddir);
				json_uint(j, NULL, ser->v[i].value);
				json_end_array(j);
			}
		}
		json_end_array(j);
	}
	json_bool(j, "truncated", truncated);
	json_end_object(j);
}

void fiojob_json(struct json *j, const struct fiojob_outcome *o)
{
	json_begin_object(j, "fio_job");
	json_string(j, "file", o->file);
	json_string(j, "order", o->through_fio ? "fio's own" : "one job after another (as fio with stonewall)");
	json_string(j, "run_by", o->through_fio ? o->fio_version : "iotriage");
	json_string(j, "fio_reason", o->jobs.fio_reason[0] ? o->jobs.fio_reason : NULL);
	json_begin_array(j, "jobs");
	for (size_t i = 0; i < o->ndone; i++) {
		json_begin_object(j, NULL);
		json_string(j, "name", o->jobs.jobs[i].name);
		json_string(j, "target", o->target[i]);
		json_job_options(j, &o->jobs.jobs[i]);
		run_json_parameters(j, &o->settings[i], o->target[i]);
		if (o->results[i])
			run_json_result(j, o->results[i], o->engine_reason[i], o->settings[i].direct);
		if (o->logs[i] && o->logs[i]->workers)
			json_series(j, o->logs[i]);
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
		store_params_str(&params, "engine", res ? res->engine->name : job->ioengine);
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
	fiojob_fio_release(&o->fio);
	fiojob_file_release(&o->jobs);
	for (size_t i = 0; i < FIOJOB_MAX_JOBS; i++) {
		free(o->results[i]);
		o->results[i] = NULL;
		if (o->logs[i])
			joblog_release(o->logs[i]);
		free(o->logs[i]);
		o->logs[i] = NULL;
	}
}
