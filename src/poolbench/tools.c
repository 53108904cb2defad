/* poolbench/tools.c: the external engines, run by argv (basic/spawn):
 * fio (two passes, JSON), elbencho (sequential write then read, four
 * threads), dd (a single stream, fdatasync, then a read back) and iozone
 * (automatic mode). A missing tool is a skipped test, never a failure. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "basic/interrupt.h"
#include "basic/spawn.h"
#include "basic/timeutil.h"
#include "poolbench/parse.h"
#include "poolbench/poolbench.h"

/* The caps are the engines' own (fio --runtime); this only guards against
 * a hung tool. */
#define TOOL_TIMEOUT_MS (4 * 3600 * 1000)

/* Runs ARGV for O, ticking C's progress while it runs; returns 0 when it ran and exited 0. A missing program
 * marks O skipped; a failure or an interrupt marks it so with the reason. */
static int run_engine(const struct pb_context *c, const char *const *argv, int stdin_fd, struct pb_outcome *o,
		      struct spawn_result *res)
{
	struct spawn_opts opts = { .timeout_ms = TOOL_TIMEOUT_MS, .stdin_fd = stdin_fd, .interruptible = true,
				   .tick = c->progress };
	strbuf_adds(&o->raw, "$");
	for (size_t i = 0; argv[i]; i++)
		strbuf_addf(&o->raw, " %s", argv[i]);
	strbuf_addch(&o->raw, '\n');
	int r = spawn_run_opts(argv, &opts, res);
	if (r == -ENOENT) {
		o->state = PB_SKIPPED;
		snprintf(o->reason, sizeof(o->reason), "%s is not installed", argv[0]);
		return r;
	}
	if (r == -EINTR) {
		o->state = PB_INTERRUPTED;
		snprintf(o->reason, sizeof(o->reason), "interrupted");
		return r;
	}
	if (r < 0) {
		o->state = PB_FAILED;
		snprintf(o->reason, sizeof(o->reason), "cannot run %s: %s", argv[0], strerror(-r));
		return r;
	}
	strbuf_adds(&o->raw, res->out.buf);
	strbuf_adds(&o->raw, res->err.buf);
	if (res->status != 0) {
		o->state = PB_FAILED;
		const char *msg = res->err.len ? res->err.buf : res->out.buf;
		bool full = pb_pool_full(0, res->err.buf) || pb_pool_full(0, res->out.buf);
		snprintf(o->reason, sizeof(o->reason), "%s%s exited with status %d: %.*s", full ? "the pool is full: " : "",
			 argv[0], res->status, (int)strcspn(msg, "\n"), msg);
		return full ? -ENOSPC : -EIO;
	}
	return 0;
}

/* ---- fio ---- */

/* A figure's latency from fio's document: the one job group_reporting
 * gives, direction DIRECTION (completion; submission where fio has one). */
static void fio_figure_latency(const struct jv *doc, const char *direction, struct pb_figure *f)
{
	const struct jv *dir = jv_get(jv_at(jv_get(doc, "jobs"), 0), direction);
	/* Where fio gave none, the figure's zeroed summaries stay (count 0). */
	fio_latency(dir, "clat_ns", &f->lat);
	fio_latency(dir, "slat_ns", &f->slat);
}

/* fio's target: a directory, a zvol's block device, or the RBD image
 * through librbd (one job: several would pass the image's exclusive lock
 * back and forth). */
static size_t fio_target_args(const struct pb_context *c, bool random, char *dir, size_t len, const char **argv,
			      char *rbd, size_t rbd_len)
{
	size_t n = 0;
	if (c->block_device) { /* eight jobs on their own eighths of the device, as eight files of SIZE/8 */
		snprintf(dir, len, "--filename=%s", c->block_device);
		snprintf(rbd, rbd_len, "--offset_increment=%" PRIu64, c->size / 8);
		argv[n++] = dir;
		argv[n++] = random ? "--numjobs=8" : "--numjobs=1";
		if (random)
			argv[n++] = rbd;
		argv[n++] = "--ioengine=psync";
		argv[n++] = "--direct=1";
		argv[n++] = "--end_fsync=1";
		return n;
	}
	if (!c->rbd_image) {
		snprintf(dir, len, "--directory=%s", random ? c->random_dir : c->throughput_dir);
		argv[n++] = dir;
		argv[n++] = random ? "--numjobs=8" : "--numjobs=1";
		argv[n++] = "--ioengine=psync";
		argv[n++] = c->direct_ok ? "--direct=1" : "--direct=0";
		argv[n++] = "--end_fsync=1";
		return n;
	}
	snprintf(dir, len, "--pool=%s", c->rbd_pool);
	snprintf(rbd, rbd_len, "--rbdname=%s", c->rbd_image);
	argv[n++] = "--ioengine=rbd";
	argv[n++] = "--clientname=admin";
	argv[n++] = dir;
	argv[n++] = rbd;
	argv[n++] = "--numjobs=1";
	argv[n++] = random ? "--iodepth=32" : "--iodepth=4";
	return n;
}

static void fio_pass(const struct pb_context *c, struct pb_outcome *o, int pass)
{
	bool random = pass == 1;
	char dir[PATH_MAX + 16], rbd[160], size[32], runtime[32];
	/* The random pass: eight jobs sharing SIZE, eight concurrent jobs, as an appliance's pool test runs them
	 * (on an RBD image one job, 32 deep, over the whole image). */
	snprintf(size, sizeof(size), "--size=%" PRIu64, random && !c->rbd_image ? c->size / 8 : c->size);
	snprintf(runtime, sizeof(runtime), "--runtime=%u", c->runtime_s);
	const char *argv[24];
	size_t n = 0;
	argv[n++] = "fio";
	argv[n++] = "--output-format=json";
	argv[n++] = random ? "--name=random" : "--name=throughput";
	n += fio_target_args(c, random, dir, sizeof(dir), argv + n, rbd, sizeof(rbd));
	argv[n++] = random ? "--rw=randrw" : "--rw=rw";
	argv[n++] = random ? "--bs=4k" : "--bs=1M";
	argv[n++] = size;
	argv[n++] = runtime;
	argv[n++] = "--group_reporting=1";
	if (c->pattern == PATTERN_ZEROS) {
		argv[n++] = "--zero_buffers=1";
	} else { /* fresh incompressible data in every buffer */
		argv[n++] = "--refill_buffers=1";
		argv[n++] = "--buffer_compress_percentage=0";
	}
	argv[n] = NULL;
	struct spawn_result res;
	if (random)
		pb_random_mark(c, true);
	int r = run_engine(c, argv, -1, o, &res);
	if (random)
		pb_random_mark(c, false);
	if (r == 0) {
		struct fio_summary s;
		char err[160];
		if (fio_parse(res.out.buf, res.out.len, &s, &o->fio_docs[pass], err, sizeof(err)) < 0) {
			o->state = PB_FAILED;
			snprintf(o->reason, sizeof(o->reason), "cannot read fio's output: %s", err);
		} else {
			const char *name = random ? "random" : "throughput";
			char label[48];
			snprintf(label, sizeof(label), "%s read", name);
			struct pb_figure *f = pb_add_figure(o, label, true);
			*f = (struct pb_figure){ .is_read = true, .bytes = s.read.bytes, .seconds = s.read.runtime_s,
						 .bw_bytes_per_s = s.read.bw_bytes_per_s, .iops = s.read.iops,
						 .cache = pb_read_cache_label(c, c->direct_ok) };
			snprintf(f->label, sizeof(f->label), "%s", label);
			fio_figure_latency(o->fio_docs[pass], "read", f);
			snprintf(label, sizeof(label), "%s write", name);
			f = pb_add_figure(o, label, false);
			*f = (struct pb_figure){ .bytes = s.write.bytes, .seconds = s.write.runtime_s,
						 .bw_bytes_per_s = s.write.bw_bytes_per_s, .iops = s.write.iops,
						 .pattern = pattern_name(c->pattern) };
			snprintf(f->label, sizeof(f->label), "%s", label);
			fio_figure_latency(o->fio_docs[pass], "write", f);
		}
	}
	spawn_result_release(&res);
}

void pb_run_fio(const struct pb_context *c, struct pb_outcome *o)
{
	fio_pass(c, o, 0);
	if (o->state == PB_RAN && (c->random_dir || c->rbd_image || c->block_device) && !interrupt_requested())
		fio_pass(c, o, 1);
	/* fio leaves its data files behind: they go with the area, but a
	 * directory area is removed file by file anyway. */
}

/* ---- dd ---- */

/* Feeds incompressible data into a pipe that dd reads as its stdin, so the
 * source costs no memory and no disk, and is faster than any pool. */
struct feeder {
	int fd;
	uint64_t bytes;
	pthread_t thread;
};

static void *feed(void *arg)
{
	struct feeder *f = arg;
	/* SIGPIPE when dd stops early: blocked here, write() returns EPIPE. */
	sigset_t pipe_set;
	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_set, NULL);
	size_t len = 1U << 20;
	char *buf = malloc(len);
	struct prng rng;
	prng_seed(&rng, now_ns()); /* another run writes other data: nothing to deduplicate */
	for (uint64_t done = 0; buf && done < f->bytes;) {
		pattern_fill(buf, len, PATTERN_RANDOM, &rng);
		size_t off = 0;
		while (off < len) {
			ssize_t n = write(f->fd, buf + off, len - off);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				goto out;
			off += (size_t)n;
		}
		done += len;
	}
out:
	free(buf);
	close(f->fd);
	return NULL;
}

static void dd_figure(struct pb_outcome *o, const char *label, bool is_read, const struct spawn_result *res,
		      const char *pattern, const char *cache)
{
	uint64_t bytes;
	double seconds;
	if (dd_parse_summary(res->err.buf, &bytes, &seconds) < 0) {
		o->state = PB_FAILED;
		snprintf(o->reason, sizeof(o->reason), "cannot read dd's summary line");
		return;
	}
	struct pb_figure *f = pb_add_figure(o, label, is_read);
	f->bytes = bytes;
	f->seconds = seconds;
	f->bw_bytes_per_s = seconds > 0 ? (double)bytes / seconds : 0;
	f->pattern = pattern;
	f->cache = cache;
}

/* dd of=FILE from PATTERN (incompressible through the feeder, or /dev/zero). */
static int dd_write(const struct pb_context *c, const char *file, enum data_pattern pattern, const char *label,
		    struct pb_outcome *o)
{
	char of[PATH_MAX + 8], count[32];
	snprintf(of, sizeof(of), "of=%s", file);
	snprintf(count, sizeof(count), "count=%" PRIu64, c->size >> 20);
	const char *zeros_argv[] = { "dd", "if=/dev/zero", of, "bs=1M", count, "conv=fdatasync", NULL };
	const char *fed_argv[] = { "dd", of, "bs=1M", count, "iflag=fullblock", "conv=fdatasync", NULL };
	struct spawn_result res;
	int r;
	if (pattern == PATTERN_ZEROS) {
		r = run_engine(c, zeros_argv, -1, o, &res);
	} else {
		int p[2];
		if (pipe2(p, O_CLOEXEC) < 0) {
			o->state = PB_FAILED;
			snprintf(o->reason, sizeof(o->reason), "pipe: %s", strerror(errno));
			return -errno;
		}
		struct feeder f = { .fd = p[1], .bytes = c->size };
		if (pthread_create(&f.thread, NULL, feed, &f) != 0) {
			close(p[0]);
			close(p[1]);
			o->state = PB_FAILED;
			snprintf(o->reason, sizeof(o->reason), "cannot start the data feeder");
			return -EAGAIN;
		}
		r = run_engine(c, fed_argv, p[0], o, &res);
		close(p[0]); /* the feeder sees EPIPE if dd stopped early */
		pthread_join(f.thread, NULL);
	}
	if (r == 0)
		dd_figure(o, label, false, &res, pattern_name(pattern), NULL);
	spawn_result_release(&res);
	return r;
}

void pb_run_dd(const struct pb_context *c, struct pb_outcome *o)
{
	char file[PATH_MAX], in[PATH_MAX + 8];
	if (pb_skip_without_files(c, o))
		return;
	snprintf(file, sizeof(file), "%s/iotriage-dd", c->throughput_dir);
	if (dd_write(c, file, c->pattern, "write", o) < 0 || o->state != PB_RAN) {
		unlink(file);
		return;
	}
	int fd = open(file, O_RDONLY | O_CLOEXEC);
	bool dropped = pb_drop_caches(fd);
	if (fd >= 0)
		close(fd);
	snprintf(in, sizeof(in), "if=%s", file);
	const char *direct_argv[] = { "dd", in, "of=/dev/null", "bs=1M", "iflag=direct", NULL };
	const char *plain_argv[] = { "dd", in, "of=/dev/null", "bs=1M", NULL };
	struct spawn_result res;
	if (run_engine(c, c->direct_ok ? direct_argv : plain_argv, -1, o, &res) == 0)
		dd_figure(o, "read", true, &res, NULL, pb_read_cache_label(c, c->direct_ok || dropped));
	spawn_result_release(&res);
	unlink(file);
	/* On a compressing area, the same write with zeros shows how much a
	 * compressible source inflates the figure (a dd of /dev/zero measures the compressor, not the pool). */
	if (c->compression_on && c->pattern == PATTERN_RANDOM && o->state == PB_RAN && !interrupt_requested()) {
		dd_write(c, file, PATTERN_ZEROS, "write (zeros)", o);
		unlink(file);
	}
}

/* ---- elbencho ---- */

void pb_run_elbencho(const struct pb_context *c, struct pb_outcome *o)
{
	char size[32], file[PATH_MAX];
	if (pb_skip_without_files(c, o))
		return;
	snprintf(size, sizeof(size), "%" PRIu64, c->size);
	snprintf(file, sizeof(file), "%s/iotriage-elbencho", c->throughput_dir);
	/* -w then -r on one file, four threads, 1 MiB blocks; --direct when it works. */
	const char *direct_argv[] = { "elbencho", "-w", "-r", "-t", "4", "-b", "1M", "-s", size, "--direct",
				      "--nolive", file, NULL };
	const char *const *argv = direct_argv;
	const char *buffered_argv[] = { "elbencho", "-w", "-r", "-t", "4", "-b", "1M", "-s", size, "--nolive", file, NULL };
	if (!c->direct_ok)
		argv = buffered_argv;
	struct spawn_result res;
	if (run_engine(c, argv, -1, o, &res) == 0) {
		static const char *const ops[] = { "WRITE", "READ" };
		for (int i = 0; i < 2; i++) {
			double first, last;
			if (elbencho_parse_throughput(res.out.buf, ops[i], &first, &last) < 0)
				continue;
			struct pb_figure *f = pb_add_figure(o, i ? "read" : "write", i == 1);
			f->bw_bytes_per_s = last;
			f->first_done_seconds = first > 0 ? (double)c->size / first : 0;
			f->last_done_seconds = last > 0 ? (double)c->size / last : 0;
			f->bytes = c->size;
			f->seconds = f->last_done_seconds;
			f->cache = i ? pb_read_cache_label(c, c->direct_ok) : NULL;
			f->pattern = i ? NULL : "elbencho's own";
		}
	}
	spawn_result_release(&res);
	unlink(file);
}

/* ---- iozone ---- */

void pb_run_iozone(const struct pb_context *c, struct pb_outcome *o)
{
	char max[32], file[PATH_MAX];
	if (pb_skip_without_files(c, o))
		return;
	snprintf(max, sizeof(max), "%" PRIu64 "k", c->size >> 10);
	snprintf(file, sizeof(file), "%s/iotriage-iozone", c->throughput_dir);
	/* Automatic mode up to SIZE; its surface stays as text (raw). */
	const char *argv[] = { "iozone", "-a", "-g", max, "-f", file, NULL };
	struct spawn_result res;
	run_engine(c, argv, -1, o, &res);
	spawn_result_release(&res);
	unlink(file);
}
