/* A fio job file run by fio itself (see triage/workload/fiojob_fio.h). */
#include "triage/workload/fiojob_fio.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "basic/log.h"
#include "basic/parse.h"
#include "basic/spawn.h"
#include "disk/inuse.h"
#include "poolbench/parse.h"
#include "triage/workload/run.h"

#define FIO_TIMEOUT_MS (24 * 3600 * 1000)

static const struct engine_ops fio_label = {
	.name = "fio", .summary = "fio itself: the job file handed to fio",
};

int fiojob_fio_version(char *version, size_t len)
{
	const char *argv[] = { "fio", "--version", NULL };
	struct spawn_result res;
	int r = spawn_run(argv, 10000, &res);
	if (r == 0 && res.status == 0)
		snprintf(version, len, "%.*s", (int)strcspn(res.out.buf, "\n"), res.out.buf);
	else if (r == 0)
		r = -EIO;
	spawn_result_release(&res);
	return r;
}

/* A block device PATH that fio would write passes run's guard; a file
 * needs none (fio creates or writes it as a native run would). */
static int guard_one(const char *path, const char *force, struct inuse_report *g, char *err, size_t errlen)
{
	struct stat st;
	if (stat(path, &st) < 0 || !S_ISBLK(st.st_mode))
		return 0;
	return run_guard_device_write(path, force, g, "FIO-JOB", err, errlen);
}

/* Every block device a job that writes would write: TARGET, or its files. */
static int guard_writes(const struct fiojob_file *f, const char *target, const char *force,
			struct inuse_report *guards, size_t *nguards, char *err, size_t errlen)
{
	if (force && target && !run_same_device(force, target)) {
		snprintf(err, errlen, "--force names '%s', which is not the target '%s'", force, target);
		return -EINVAL;
	}
	for (size_t i = 0; i < f->njobs; i++) {
		if (!f->jobs[i].may_write)
			continue;
		const char *cursor = target ? target : f->jobs[i].files;
		char one[512];
		if (target) {
			snprintf(one, sizeof(one), "%s", target);
			cursor = "";
		} else if (!fiojob_next_file(&cursor, one, sizeof(one))) {
			continue;
		}
		do {
			if (*nguards == FIOJOB_MAX_JOBS)
				return 0;
			struct inuse_report *g = &guards[(*nguards)++];
			*g = (struct inuse_report){ .excl_fd = -1 };
			int r = guard_one(one, force, g, err, errlen);
			if (r < 0)
				return r;
		} while (fiojob_next_file(&cursor, one, sizeof(one)));
	}
	return 0;
}

static int write_temp_job(const struct fiojob_file *f, const char *target, char *path, size_t len)
{
	const char *dir = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	snprintf(path, len, "%s/iotriage-fiojob-XXXXXX", dir);
	int fd = mkstemp(path);
	if (fd < 0)
		return -errno;
	struct strbuf text = STRBUF_INIT;
	fiojob_fio_text(f, target, &text);
	ssize_t n = write(fd, text.buf, text.len);
	int r = n == (ssize_t)text.len ? 0 : -EIO;
	strbuf_release(&text);
	if (close(fd) < 0 && r == 0)
		r = -errno;
	if (r < 0)
		unlink(path);
	return r;
}

/* A reported job's name and options (fio writes them as strings). */
static void job_from_fio(const struct jv *job, const struct fiojob_file *f, struct fiojob *ret)
{
	const char *name = jv_string(jv_get(job, "jobname"), "?");
	*ret = f->jobs[0];
	for (size_t i = 0; i < f->njobs; i++)
		if (strcmp(f->jobs[i].name, name) == 0) {
			*ret = f->jobs[i];
			break;
		}
	snprintf(ret->name, sizeof(ret->name), "%s", name);
	const struct jv *o = jv_get(job, "job options");
	uint64_t v = 0;
	if (jv_get(o, "rw"))
		snprintf(ret->rw, sizeof(ret->rw), "%.*s", (int)strcspn(jv_string(jv_get(o, "rw"), ""), ":"),
			 jv_string(jv_get(o, "rw"), ""));
	if (parse_size(jv_string(jv_get(o, "bs"), ""), &v) == 0 && v && v <= UINT32_MAX)
		ret->bs = (uint32_t)v;
	if (parse_uint(jv_string(jv_get(o, "iodepth"), ""), 1, 1U << 20, &v) == 0)
		ret->iodepth = (unsigned)v;
	if (jv_get(o, "ioengine"))
		snprintf(ret->ioengine, sizeof(ret->ioengine), "%s", jv_string(jv_get(o, "ioengine"), ""));
}

static int read_fio_document(const struct fiojob_file *f, const struct spawn_result *res, struct fiojob_fio *ret,
			     char *err, size_t errlen)
{
	struct fio_summary sum;
	struct jv *doc = NULL;
	char why[200];
	if (fio_parse(res->out.buf, res->out.len, &sum, &doc, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "cannot read fio's output: %s", why);
		return -EIO;
	}
	snprintf(ret->version, sizeof(ret->version), "%s", sum.version);
	const struct jv *jobs = jv_get(doc, "jobs");
	for (size_t i = 0; i < jobs->count && ret->njobs < FIOJOB_MAX_JOBS; i++) {
		size_t k = ret->njobs++;
		job_from_fio(&jobs->items[i], f, &ret->jobs[k]);
		ret->results[k] = xcalloc(1, sizeof(*ret->results[k]));
		fio_job_result(&jobs->items[i], &fio_label, ret->results[k]);
		/* fio's random map is on unless norandommap, as iotriage's "once". */
		ret->results[k]->random_map = ret->jobs[k].norandommap ? JOB_MAP_UNIFORM : JOB_MAP_ONCE;
		if (ret->results[k]->error)
			snprintf(ret->error[k], sizeof(ret->error[k]), "fio: %s", strerror(-ret->results[k]->error));
	}
	jv_free(doc);
	return 0;
}

int fiojob_fio_check(const struct fiojob_file *f, const char *target, char *err, size_t errlen)
{
	char job_path[512];
	int r = write_temp_job(f, target, job_path, sizeof(job_path));
	if (r < 0) {
		snprintf(err, errlen, "cannot write fio's copy of the job file: %s", strerror(-r));
		return r;
	}
	const char *argv[] = { "fio", "--parse-only", job_path, NULL };
	struct spawn_result res;
	r = spawn_run(argv, 60000, &res);
	unlink(job_path);
	if (r == 0 && res.status != 0) {
		const char *msg = res.err.len ? res.err.buf : res.out.buf;
		snprintf(err, errlen, "fio refuses the file: %.*s", (int)strcspn(msg, "\n"), msg);
		r = -EINVAL;
	} else if (r < 0) {
		snprintf(err, errlen, "cannot run fio --parse-only: %s", strerror(-r));
	}
	spawn_result_release(&res);
	return r;
}

/* Removes the files fio left in its state directory DIR (verify state of
 * an interrupted job, ...), then DIR. */
static void remove_aux_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			unlinkat(dirfd(d), e->d_name, 0);
	if (d)
		closedir(d);
	rmdir(dir);
}

static int run_fio(const char *job_path, struct spawn_result *res, char *err, size_t errlen)
{
	/* fio writes state files (verify state, ...) into its working directory
	 * unless told where: a directory of the run's own, removed after it. */
	char aux[PATH_MAX], aux_opt[PATH_MAX + 16];
	snprintf(aux, sizeof(aux), "%s.aux-XXXXXX", job_path);
	if (!mkdtemp(aux)) {
		snprintf(err, errlen, "cannot make fio's state directory: %s", strerror(errno));
		return -errno;
	}
	snprintf(aux_opt, sizeof(aux_opt), "--aux-path=%s", aux);
	const char *argv[] = { "fio", "--output-format=json+", aux_opt, job_path, NULL };
	struct spawn_opts opts = { .timeout_ms = FIO_TIMEOUT_MS, .stdin_fd = -1, .interruptible = true };
	log_msg(LOG_INFO, "FIO-JOB: running fio --output-format=json+ %s %s", aux_opt, job_path);
	int r = spawn_run_opts(argv, &opts, res);
	remove_aux_dir(aux);
	if (r == -ENOENT)
		snprintf(err, errlen, "fio is not installed (apt-get install fio)");
	else if (r == -EINTR)
		snprintf(err, errlen, "interrupted");
	else if (r < 0)
		snprintf(err, errlen, "cannot run fio: %s", strerror(-r));
	else if (res->status != 0) {
		const char *msg = res->err.len ? res->err.buf : res->out.buf;
		snprintf(err, errlen, "fio exited with status %d: %.*s", res->status, (int)strcspn(msg, "\n"), msg);
		r = -EIO;
	}
	return r;
}

int fiojob_fio_run(const struct fiojob_file *f, const char *target, const char *force, struct fiojob_fio *ret,
		   char *err, size_t errlen)
{
	memset(ret, 0, sizeof(*ret));
	struct inuse_report guards[FIOJOB_MAX_JOBS];
	size_t nguards = 0;
	int r = guard_writes(f, target, force, guards, &nguards, err, errlen);
	char job_path[512] = "";
	if (r == 0 && (r = write_temp_job(f, target, job_path, sizeof(job_path))) < 0)
		snprintf(err, errlen, "cannot write fio's copy of the job file: %s", strerror(-r));
	struct spawn_result res = { 0 };
	bool ran = false;
	if (r == 0) {
		ran = true;
		r = run_fio(job_path, &res, err, errlen);
		unlink(job_path);
	}
	for (size_t i = 0; i < nguards; i++)
		inuse_report_release(&guards[i]);
	/* fio's JSON is complete even when a job failed (status 1): read it whenever there is one. */
	if (ran && (r == 0 || r == -EIO) && memchr(res.out.buf ? res.out.buf : "", '{', res.out.len)) {
		char why[256];
		int p = read_fio_document(f, &res, ret, why, sizeof(why));
		if (p < 0 && r == 0) {
			snprintf(err, errlen, "%s", why);
			r = p;
		}
	}
	if (ran)
		spawn_result_release(&res);
	if (r < 0)
		log_msg(LOG_ERR, "FIO-JOB: fio: %s", err);
	return r;
}

void fiojob_fio_release(struct fiojob_fio *r)
{
	for (size_t i = 0; i < FIOJOB_MAX_JOBS; i++) {
		free(r->results[i]);
		r->results[i] = NULL;
	}
}
