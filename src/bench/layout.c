/* Laying out a job's file and writing pattern data (see bench/layout.h). */
#include "bench/layout.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "basic/cleanup.h"
#include "basic/interrupt.h"
#include "basic/timeutil.h"

#define CHUNK (1u << 20)
#define WINDOW (32ull << 20) /* written back and dropped from the cache at a time */

/* Starts writeback of the window just written and waits for the one before
 * it: dirty data stays under two windows, so an interrupt is never stuck
 * behind gigabytes of flushing. Advisory: a file system without it (FUSE)
 * still gets the final fsync. */
static void flush_window(int fd, uint64_t win_start, uint64_t win_end)
{
	sync_file_range(fd, (off_t)win_start, (off_t)(win_end - win_start), SYNC_FILE_RANGE_WRITE);
	if (win_start >= WINDOW) {
		uint64_t prev = win_start - WINDOW;
		sync_file_range(fd, (off_t)prev, (off_t)WINDOW,
				SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE | SYNC_FILE_RANGE_WAIT_AFTER);
		posix_fadvise(fd, (off_t)prev, (off_t)WINDOW, POSIX_FADV_DONTNEED);
	}
}

struct write_progress {
	job_progress_fn fn;
	const char *label;
	uint64_t start_ns, last_ns, total;
};

static void tell(struct write_progress *p, uint64_t done, bool finished)
{
	if (!p || !p->fn)
		return;
	uint64_t now = now_ns();
	if (!finished && now - p->last_ns < 1000000000ULL)
		return;
	p->last_ns = now;
	struct job_progress jp = { .label = p->label, .done_bytes = done, .total_bytes = p->total,
				   .elapsed_ns = now - p->start_ns, .finished = finished };
	p->fn(&jp);
}

static int write_range(int fd, uint64_t from, uint64_t to, enum data_pattern pattern, uint64_t seed,
		       struct write_progress *progress)
{
	_cleanup_free_ char *buf = malloc(CHUNK);
	if (!buf)
		return -ENOMEM;
	struct prng rng;
	prng_seed(&rng, seed);
	uint64_t win_start = from;
	int r = 0;
	for (uint64_t off = from; off < to && r == 0;) {
		if (interrupt_requested()) {
			r = -EINTR;
			break;
		}
		size_t n = to - off < CHUNK ? (size_t)(to - off) : CHUNK;
		pattern_fill(buf, n, pattern, &rng);
		ssize_t w = pwrite(fd, buf, n, (off_t)off);
		if (w < 0) {
			if (errno != EINTR)
				r = -errno;
			continue;
		}
		off += (uint64_t)w;
		if (off - win_start >= WINDOW || off == to) {
			flush_window(fd, win_start, off);
			win_start = off;
		}
		tell(progress, off - from, false);
	}
	tell(progress, 0, true);
	if (r < 0)
		return r;
	if (fsync(fd) < 0)
		return -errno;
	/* The data is for reading back from the device, not from the cache. */
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	return 0;
}

int pattern_write_file(int fd, uint64_t from, uint64_t to, enum data_pattern pattern, uint64_t seed)
{
	return write_range(fd, from, to, pattern, seed, NULL);
}

int layout_file(struct target *t, uint64_t size, enum data_pattern pattern, job_progress_fn progress,
		const char *label, struct layout_report *ret)
{
	struct layout_report rep = { .from_bytes = t->size, .to_bytes = size };
	if (ret)
		*ret = rep;
	if (t->kind != TARGET_REGULAR_FILE || t->size >= size)
		return 0;
	/* A second descriptor without O_DIRECT: layout needs no alignment. */
	_cleanup_close_ int fd = open(t->path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	struct statvfs vfs;
	if (fstatvfs(fd, &vfs) == 0) {
		rep.free_bytes = (uint64_t)vfs.f_bavail * vfs.f_frsize;
		if (ret)
			*ret = rep;
		if (size - t->size > rep.free_bytes)
			return -ENOSPC;
	}
	struct write_progress p = { .fn = progress, .label = label ? label : "laying out", .total = size - t->size };
	p.start_ns = p.last_ns = now_ns();
	/* Seeded per call: two files laid out alike would deduplicate. */
	int r = write_range(fd, t->size, size, pattern, p.start_ns ^ size ^ 0x696f747269616765ULL, &p);
	rep.seconds = (double)(now_ns() - p.start_ns) / 1e9;
	if (r < 0) {
		/* Nothing of the layout is kept: the file is as it was. */
		if (ftruncate(fd, (off_t)t->size) < 0)
			r = r == -EINTR ? r : -errno;
		if (ret)
			*ret = rep;
		return r;
	}
	rep.written_bytes = size - t->size;
	t->size = size;
	if (ret)
		*ret = rep;
	return 0;
}
