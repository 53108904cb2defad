/* bench/layout.h: writing a file's data before a job runs on it (fio's
 * "laying out IO file"), and writing pattern data into any file.
 *
 * Laying out is real writing, often gigabytes, so it behaves like the rest
 * of a run: it checks the free space before the first byte (and refuses
 * with both figures), stops within a window's write of SIGINT, SIGTERM or
 * SIGHUP (basic/interrupt), tells the caller's progress callback, and puts
 * the file back to its size before on any failure. Written data goes to the
 * device in windows as it is written (sync_file_range) and leaves the page
 * cache, so neither a final flush of gigabytes nor a cached read-back can
 * stretch or flatter what follows.
 */
#ifndef IOTRIAGE_BENCH_LAYOUT_H
#define IOTRIAGE_BENCH_LAYOUT_H

#include <stdint.h>

#include "bench/job.h"
#include "bench/pattern.h"
#include "bench/target.h"

/* What a layout did, for the log and for a refusal's message. */
struct layout_report {
	uint64_t from_bytes;    /* the file's size before */
	uint64_t to_bytes;      /* the size asked for */
	uint64_t free_bytes;    /* free space the file system offered when it began */
	uint64_t written_bytes; /* bytes written (kept only on success) */
	double seconds;
};

/* Grows T (a regular file opened for writing) to SIZE bytes of PATTERN data.
 * PROGRESS (may be NULL) is told the bytes written about once a second,
 * under LABEL. Returns 0 (nothing to do when T is a block device or already
 * SIZE or longer), -ENOSPC before writing anything when the file system has
 * less free space than the growth needs, -EINTR when interrupted, or another
 * -errno; on every failure the file is truncated back to its size before. */
int layout_file(struct target *t, uint64_t size, enum data_pattern pattern, job_progress_fn progress,
		const char *label, struct layout_report *ret);

/* Writes PATTERN data to FD from byte FROM to byte TO (buffered), flushed to
 * the device and dropped from the page cache. Stops with -EINTR on an
 * interrupt request. Returns 0 or -errno. */
int pattern_write_file(int fd, uint64_t from, uint64_t to, enum data_pattern pattern, uint64_t seed);

#endif
