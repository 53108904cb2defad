#include "media/readtest.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "basic/humanize.h"
#include "basic/log.h"
#include "basic/proc_args.h"
#include "basic/strbuf.h"
#include "basic/interrupt.h"
#include "basic/timeutil.h"
#include "bench/target.h"

const char *readtest_status_name(enum readtest_status s)
{
	switch (s) {
	case READTEST_OK:
		return "ok";
	case READTEST_ERROR:
		return "error";
	case READTEST_SKIPPED:
		return "skipped";
	}
	return "?";
}

static void set_error(struct disk_read *d, const char *fmt, const char *detail)
{
	d->status = READTEST_ERROR;
	snprintf(d->reason, sizeof(d->reason), fmt, d->info.dev_path, detail);
}

/* Explains a failure to open, in words that say what to do about it. */
static int explain_open_error(struct disk_read *d, int err)
{
	switch (err) {
	case -ENOENT:
		set_error(d, "'%s': no such path%s", "");
		break;
	case -EISDIR:
		set_error(d, "'%s' is a directory, not a block device%s", "");
		break;
	case -ENOTBLK:
		set_error(d, "'%s' is not a block device%s", "");
		break;
	case -EACCES:
	case -EPERM:
		set_error(d, "cannot open '%s': permission refused (%s); raw reads need root, and some "
			     "hypervisors refuse them even to root",
			  strerror(-err));
		break;
	case -ENOMEDIUM:
		set_error(d, "'%s': no medium in the drive%s", "");
		break;
	default:
		set_error(d, "cannot open '%s': %s", strerror(-err));
	}
	return err;
}

/* The status and reason of a read that ran: ok (maybe of a short device),
 * an I/O error with its offset and what was read before it, no response,
 * or interrupted. */
static void record_outcome(struct disk_read *d, uint64_t device_size, uint64_t asked)
{
	char before[32], at[32];
	human_iec((double)d->res->bytes, before, sizeof(before));
	human_iec((double)d->res->error_offset, at, sizeof(at));
	if (d->no_response && d->reader_never_ran) {
		/* Not the device's fault: no read was ever asked of it. */
		d->status = READTEST_ERROR;
		snprintf(d->reason, sizeof(d->reason),
			 "'%s': not read: iotriage's reader process did not start its reads within %u s "
			 "(no request reached the device; please report this)",
			 d->info.dev_path, d->timeout_s);
	} else if (d->no_response && d->stuck_pid) {
		d->status = READTEST_ERROR;
		snprintf(d->reason, sizeof(d->reason),
			 "'%s': no response in %u s at offset %llu (%s), after %llu bytes (%s) read; "
			 "the abandoned read (pid %d) stays in the kernel until the device answers",
			 d->info.dev_path, d->timeout_s, (unsigned long long)d->res->error_offset, at,
			 (unsigned long long)d->res->bytes, before, d->stuck_pid);
	} else if (d->no_response) {
		d->status = READTEST_ERROR;
		snprintf(d->reason, sizeof(d->reason),
			 "'%s': no response in %u s at offset %llu (%s), after %llu bytes (%s) read; "
			 "the read was stopped",
			 d->info.dev_path, d->timeout_s, (unsigned long long)d->res->error_offset, at,
			 (unsigned long long)d->res->bytes, before);
	} else if (d->res->stop == JOB_STOP_ERROR) {
		d->status = READTEST_ERROR;
		d->io_error = true;
		snprintf(d->reason, sizeof(d->reason),
			 "'%s' returned I/O errors at offset %llu (%s): %s; %llu bytes (%s) read before it",
			 d->info.dev_path, (unsigned long long)d->res->error_offset, at,
			 strerror(-d->res->error), (unsigned long long)d->res->bytes, before);
	} else if (d->res->stop == JOB_STOP_INTERRUPTED) {
		d->status = READTEST_ERROR;
		snprintf(d->reason, sizeof(d->reason), "interrupted after %llu bytes%s", (unsigned long long)d->res->bytes,
			 d->stuck_pid ? "; the abandoned read stays in the kernel until the device answers" : "");
	} else {
		d->status = READTEST_OK;
		if (d->truncated)
			snprintf(d->reason, sizeof(d->reason),
				 "device holds %llu bytes, less than the %llu asked for; read all of it",
				 (unsigned long long)device_size, (unsigned long long)asked);
	}
}

/* What the reader child and the waiting side share. */
struct shared_read {
	struct job_result res;
	uint64_t progress;   /* bytes done, stored by the job about every 50 ms */
	int rc;              /* job_run's return */
	int done;            /* res and rc are set */
	int go;              /* set by readtest_release: the child starts reading */
	int running;         /* set by the job once its workers run */
};

enum wait_end { WAIT_DONE, WAIT_NO_RESPONSE, WAIT_INTERRUPTED };

/* Tells D's progress (LIVE, and live_bytes) how far it is: BYTES, or in a
 * time-based read planned for PLANNED_MS the milliseconds since STARTED. */
static void tell_progress(struct disk_read *d, struct progress *live, uint64_t bytes, uint64_t planned_ms,
			  uint64_t started, uint64_t now)
{
	uint64_t units = bytes;
	if (planned_ms) {
		units = (now - started) / 1000000;
		units = units < planned_ms ? units : planned_ms;
	}
	__atomic_store_n(&d->live_bytes, units, __ATOMIC_RELAXED);
	progress_part(live, units);
}

/* Waits for the reader child PID: done, no byte completed for TIMEOUT_NS,
 * or a second after an interrupt. Sets *LAST_NS to when bytes last moved.
 * PLANNED_MS: the read is time-based, its progress in milliseconds. */
static enum wait_end wait_reader(pid_t pid, struct shared_read *sh, uint64_t timeout_ns, uint64_t *last_ns,
				 struct disk_read *d, struct progress *live, uint64_t planned_ms)
{
	const struct timespec tick = { 0, 20 * 1000 * 1000 };
	uint64_t last_bytes = 0, interrupted_at = 0;
	uint64_t started = *last_ns = now_ns();
	for (;;) {
		int status;
		pid_t got = waitpid(pid, &status, WNOHANG);
		if (got == pid || (got < 0 && errno == ECHILD))
			return WAIT_DONE;
		uint64_t now = now_ns();
		uint64_t bytes = __atomic_load_n(&sh->progress, __ATOMIC_RELAXED);
		if (bytes != last_bytes) {
			last_bytes = bytes;
			*last_ns = now;
		}
		tell_progress(d, live, bytes, planned_ms, started, now);
		if (interrupt_requested() && !interrupted_at) {
			interrupted_at = now;
			kill(pid, SIGTERM); /* a signal sent to us alone reaches the reader too */
		}
		if (interrupted_at && now - interrupted_at >= 1000000000ULL)
			return WAIT_INTERRUPTED;
		if (!interrupted_at && now - *last_ns >= timeout_ns)
			return WAIT_NO_RESPONSE;
		nanosleep(&tick, NULL);
	}
}

/* The result of an abandoned read: what was read before it stopped. */
static struct job_result *abandoned_result(const struct shared_read *sh, const struct engine_ops *engine,
					   uint64_t start_ns, uint64_t last_ns, enum wait_end end)
{
	struct job_result *res = calloc(1, sizeof(*res));
	if (!res)
		return NULL;
	res->engine = engine;
	res->bytes = res->read_bytes = __atomic_load_n(&sh->progress, __ATOMIC_RELAXED);
	res->seconds = res->last_done_seconds = (double)(last_ns - start_ns) / 1e9;
	res->stop = end == WAIT_INTERRUPTED ? JOB_STOP_INTERRUPTED : JOB_STOP_ERROR;
	res->error = end == WAIT_INTERRUPTED ? 0 : -ETIMEDOUT;
	res->error_offset = res->bytes; /* a sequential read: the first block not returned */
	res->nr_workers = 1;
	hist_init(&res->lat_read);
	hist_init(&res->lat_write);
	hist_init(&res->slat_read);
	hist_init(&res->slat_write);
	return res;
}

/* Kills the reader PID. Returns 0 when it is gone within 200 ms, else its
 * pid: it is stuck in the kernel, and goes when the device answers. */
static int abandon_reader(pid_t pid)
{
	const struct timespec tick = { 0, 10 * 1000 * 1000 };
	kill(pid, SIGKILL);
	for (int i = 0; i < 20; i++) {
		if (waitpid(pid, NULL, WNOHANG) == pid)
			return 0;
		nanosleep(&tick, NULL);
	}
	return (int)pid;
}

/* A read started by readtest_start() and not yet finished. */
struct readtest_reader {
	struct disk_read *d;
	struct target t;
	const struct engine_ops *engine;
	struct shared_read *sh;
	pid_t pid;
	uint64_t start_ns, timeout_ns, asked;
	uint64_t planned_ms;  /* the IOPS pass: its runtime, its progress units */
	bool released;
	struct progress *live;
};

/* Forks the reader child of R for SPEC. Returns 0 or -errno. */
static int fork_reader(struct readtest_reader *rd, const struct job_spec *spec0)
{
	rd->sh = mmap(NULL, sizeof(*rd->sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (rd->sh == MAP_FAILED) {
		rd->sh = NULL;
		return -errno;
	}
	struct job_spec spec = *spec0;
	spec.progress_out = &rd->sh->progress;
	spec.running_out = &rd->sh->running;
	spec.fixed_cpu_slot = true;
	spec.cpu_slot = job_reserve_cpu_slots(spec.numjobs);
	rd->start_ns = now_ns();
	pid_t parent = getpid();
	rd->pid = fork();
	if (rd->pid < 0)
		return -errno;
	if (rd->pid == 0) {
		/* A reader dies with the run: one left behind would hold the device
		 * (a loop device would not detach) and its cgroup (not removable). */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(1);
		/* Forks cost up to a second each under a sanitizer in the VM:
		 * readers forked one after another would not read together. */
		const struct timespec wait_tick = { 0, 1000 * 1000 };
		while (!__atomic_load_n(&rd->sh->go, __ATOMIC_ACQUIRE))
			nanosleep(&wait_tick, NULL);
		struct job_result *res = NULL;
		int r = job_run(&spec, &rd->t, rd->engine, &res);
		if (r == 0)
			memcpy(&rd->sh->res, res, sizeof(*res));
		rd->sh->rc = r;
		__atomic_store_n(&rd->sh->done, 1, __ATOMIC_RELEASE);
		_exit(0);
	}
	return 0;
}

/* Waits for RD's child with the deadline (see readtest.h). Returns
 * job_run's return; RD->d->res is set when it ran. */
static int wait_for_reader(struct readtest_reader *rd)
{
	struct disk_read *d = rd->d;
	struct shared_read *sh = rd->sh;
	uint64_t last = rd->start_ns;
	enum wait_end end = wait_reader(rd->pid, sh, rd->timeout_ns, &last, d, rd->live, rd->planned_ms);
	int r = 0;
	if (end == WAIT_DONE && __atomic_load_n(&sh->done, __ATOMIC_ACQUIRE)) {
		r = sh->rc;
		if (r == 0 && (d->res = malloc(sizeof(*d->res))))
			memcpy(d->res, &sh->res, sizeof(*d->res));
	} else if (end == WAIT_DONE) {
		r = -ECHILD; /* the reader died without a result */
	} else {
		if (end == WAIT_NO_RESPONSE) {
			/* Where the reader waits, for whoever reads the log: a read in
			 * the kernel (wchan) or a stall of iotriage's own. */
			char tasks[1024];
			proc_describe_tasks(rd->pid, tasks, sizeof(tasks));
			log_msg(LOG_WARN, "READ-DISK (%s): no response: the reader's threads: %s", d->info.dev_path,
				tasks);
		}
		d->stuck_pid = abandon_reader(rd->pid);
		d->no_response = end == WAIT_NO_RESPONSE;
		d->reader_never_ran = !__atomic_load_n(&sh->running, __ATOMIC_ACQUIRE);
		d->timeout_s = (unsigned)(rd->timeout_ns / 1000000000ULL);
		d->res = abandoned_result(sh, rd->engine, rd->start_ns, last, end);
	}
	if (r == 0 && !d->res)
		r = -ENOMEM;
	return r;
}

static void reader_free(struct readtest_reader *rd)
{
	if (rd->sh)
		munmap(rd->sh, sizeof(*rd->sh));
	target_close(&rd->t);
	free(rd);
}

/* Opens D's device and builds its read; NULL with D's status set when it
 * cannot run (or has nothing to read). */
static struct readtest_reader *prepare_reader(struct disk_read *d, const struct readtest_opts *opts)
{
	d->requested = opts->size;
	enum target_kind kind;
	int r = target_classify(d->info.dev_path, &kind);
	if (r == 0 && kind != TARGET_BLOCK_DEVICE)
		r = -ENOTBLK;
	if (r < 0) {
		explain_open_error(d, r);
		return NULL;
	}
	struct readtest_reader *rd = xcalloc(1, sizeof(*rd));
	rd->d = d;
	rd->asked = opts->size;
	rd->t = (struct target)TARGET_INIT;
	r = target_open(d->info.dev_path, false, true, false, &rd->t);
	if (r < 0) {
		explain_open_error(d, r);
		free(rd);
		return NULL;
	}
	return rd;
}

/* The job of RD's read; false with D's status set when it cannot run. */
static bool plan_read(struct readtest_reader *rd, const struct readtest_opts *opts, struct job_spec *spec)
{
	struct disk_read *d = rd->d;
	uint64_t size = opts->size;
	d->by_iops = opts->random;
	if (opts->random) /* the IOPS pass addresses the whole device */
		size = d->requested = rd->asked = rd->t.size - rd->t.size % rd->t.offset_align;
	if (rd->t.size < size) {
		/* Read what exists, rounded down to whole sectors, and say so. */
		size = rd->t.size - rd->t.size % rd->t.offset_align;
		d->truncated = true;
	}
	if (size == 0) {
		d->status = READTEST_SKIPPED;
		snprintf(d->reason, sizeof(d->reason), "'%s' has size 0", d->info.dev_path);
		return false;
	}
	*spec = (struct job_spec){
		.random = false,
		.read_pct = 100,
		.bs = opts->bs,
		.iodepth = opts->iodepth,
		.numjobs = 1,
		.size = size,
		.runtime_ns = opts->runtime_ns,
		.pattern = PATTERN_RANDOM,
		.seed = 1,
		.progress = opts->progress,
		.progress_label = d->info.dev_path,
	};
	if (opts->random) {
		spec->random = true;
		spec->time_based = true;
		spec->runtime_ns = readtest_planned_ms(opts) * 1000000ULL;
	}
	if (spec->bs > size)
		spec->bs = (uint32_t)size;
	char msg[256];
	if (job_validate(spec, &rd->t, msg, sizeof(msg)) < 0) {
		d->status = READTEST_ERROR;
		snprintf(d->reason, sizeof(d->reason), "%s", msg);
		return false;
	}
	struct engine_target_traits traits = { .synchronous_device = rd->t.bio_based };
	rd->engine = engine_select(opts->engine, spec->iodepth, &traits, d->engine_reason, sizeof(d->engine_reason));
	if (!rd->engine) {
		d->status = READTEST_ERROR;
		snprintf(d->reason, sizeof(d->reason), "%s", d->engine_reason);
		return false;
	}
	rd->live = opts->live;
	rd->planned_ms = readtest_planned_ms(opts);
	rd->timeout_ns = opts->io_timeout_ns ? opts->io_timeout_ns : READTEST_DEFAULT_IO_TIMEOUT_S * 1000000000ULL;
	return true;
}

struct readtest_reader *readtest_start(struct disk_read *d, const struct readtest_opts *opts)
{
	struct readtest_reader *rd = prepare_reader(d, opts);
	struct job_spec spec;
	if (!rd)
		return NULL;
	if (!plan_read(rd, opts, &spec)) {
		reader_free(rd);
		return NULL;
	}
	int r = fork_reader(rd, &spec);
	if (r < 0) {
		set_error(d, "cannot read '%s': %s", strerror(-r));
		reader_free(rd);
		return NULL;
	}
	return rd;
}

void readtest_release(struct readtest_reader *rd)
{
	if (!rd || rd->released)
		return;
	rd->start_ns = now_ns(); /* the deadline runs from here */
	rd->released = true;
	__atomic_store_n(&rd->sh->go, 1, __ATOMIC_RELEASE);
}

void readtest_finish(struct readtest_reader *rd)
{
	if (!rd)
		return;
	readtest_release(rd);
	struct disk_read *d = rd->d;
	int r = wait_for_reader(rd);
	uint64_t device_size = rd->t.size, asked = rd->asked;
	reader_free(rd);
	if (r < 0) {
		set_error(d, "cannot read '%s': %s", strerror(-r));
		return;
	}
	record_outcome(d, device_size, asked);
}

int readtest_run(struct disk_read *d, const struct readtest_opts *opts)
{
	struct readtest_reader *rd = readtest_start(d, opts);
	if (!rd)
		return d->status == READTEST_SKIPPED ? 0 : -EINVAL;
	readtest_finish(rd);
	return 0;
}

static const struct disk_read *sort_base;

static int rank_class(const struct disk_read *d)
{
	return d->status == READTEST_OK ? 0 : d->status == READTEST_ERROR ? 1 : 2;
}

static int compare_reads(const void *a, const void *b)
{
	const struct disk_read *x = &sort_base[*(const size_t *)a];
	const struct disk_read *y = &sort_base[*(const size_t *)b];
	int cx = rank_class(x), cy = rank_class(y);
	if (cx != cy)
		return cx - cy;
	if (cx == 0) {
		double bx = disk_read_figure(x), by = disk_read_figure(y);
		if (bx != by)
			return bx > by ? -1 : 1;
	}
	return strcmp(x->info.kname, y->info.kname);
}

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double readtest_rank(struct disk_read *reads, size_t n, size_t *order)
{
	double *bw = calloc(n ? n : 1, sizeof(*bw));
	size_t ok = 0;
	for (size_t i = 0; i < n; i++) {
		order[i] = i;
		if (reads[i].status == READTEST_OK && bw)
			bw[ok++] = disk_read_figure(&reads[i]);
	}
	double median = 0;
	if (ok && bw) {
		qsort(bw, ok, sizeof(*bw), compare_doubles);
		median = ok % 2 ? bw[ok / 2] : (bw[ok / 2 - 1] + bw[ok / 2]) / 2;
	}
	free(bw);
	for (size_t i = 0; i < n; i++)
		if (reads[i].status == READTEST_OK && median > 0)
			reads[i].pct_of_median = 100.0 * disk_read_figure(&reads[i]) / median;
	/* qsort has no context argument; this runs on the main thread only. */
	sort_base = reads;
	qsort(order, n, sizeof(*order), compare_reads);
	sort_base = NULL;
	return median;
}

double disk_read_figure(const struct disk_read *d)
{
	if (!d->res)
		return 0;
	return d->by_iops ? job_iops(d->res) : job_bw_bytes_per_s(d->res);
}

void disk_read_release(struct disk_read *d)
{
	free(d->res);
	d->res = NULL;
}

uint64_t readtest_planned_ms(const struct readtest_opts *opts)
{
	if (!opts->random)
		return 0;
	return (opts->runtime_ns ? opts->runtime_ns : READTEST_DEFAULT_RANDOM_RUNTIME_S * 1000000000ULL) / 1000000;
}
