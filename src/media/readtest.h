/* media/readtest.h: step 1 of the method, the media read test.
 *
 * readtest_run() reads one block device the way readdisk does
 * (O_DIRECT, sequential, 1000 MiB in 1 MiB blocks by default) with the
 * built-in engine, opened read-only, and fills a struct disk_read with the
 * outcome: "ok" with the figures, or "error"/"skipped" with a reason a
 * person can act on. It never prints; cmd/ does.
 *
 * The read runs in a child process that can be abandoned: a disk that
 * stops answering leaves its read stuck in the kernel (uninterruptible,
 * and it holds up the exit of every thread of its process), so the waiting
 * side gives up when no I/O has completed for IO_TIMEOUT, or a second after
 * an interrupt, kills the child and reports "no response in N s" (or
 * "interrupted") with what was read before. The killed child stays in the
 * kernel until the device completes or fails the I/O; the reason says so,
 * with its pid. An I/O error part way is reported with the offset and how
 * much was read before it.
 *
 * readtest_rank() computes each ok disk's throughput (IOPS for the IOPS
 * pass) as a percentage of the median of all ok disks, and the order for
 * the summary table.
 */
#ifndef IOTRIAGE_MEDIA_READTEST_H
#define IOTRIAGE_MEDIA_READTEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "basic/progress.h"
#include "bench/job.h"
#include "disk/enumerate.h"
#include "disk/link.h"
#include "disk/smart.h"
#include "media/disk_verdict.h"
#include "media/outlier.h"

#define READTEST_DEFAULT_SIZE (1000ULL << 20)
#define READTEST_DEFAULT_BS (1U << 20)
#define READTEST_DEFAULT_IO_TIMEOUT_S 30
#define READTEST_DEFAULT_RANDOM_RUNTIME_S 10 /* the IOPS pass: a short time-based read per disk */

struct readtest_opts {
	uint64_t size;         /* bytes to read; the device's size when smaller */
	uint32_t bs;
	unsigned iodepth;
	const char *engine;    /* "auto" or a name */
	uint64_t runtime_ns;   /* a time cap on each read, 0 for none (doctor's budgets) */
	uint64_t io_timeout_ns; /* no I/O completed for this long: no response; 0 = the default */
	job_progress_fn progress; /* NULL: no progress line */
	/* The IOPS pass (readdisks --rw randread): random reads over the whole
	 * device for runtime_ns (READTEST_DEFAULT_RANDOM_RUNTIME_S when 0),
	 * time-based, judged on IOPS instead of bandwidth. */
	bool random;
	/* The batch's progress, told the bytes of this read as they complete
	 * (progress_part), or in the time-based IOPS pass the milliseconds it
	 * has run (readtest_planned_ms); NULL for none. Only for a read waited for on the
	 * thread that draws it. */
	struct progress *live;
};

enum readtest_status { READTEST_OK, READTEST_ERROR, READTEST_SKIPPED };

struct disk_read {
	struct disk_info info;
	enum readtest_status status;
	char reason[320];
	char engine_reason[160];
	uint64_t requested;     /* bytes asked for */
	bool truncated;         /* the device held less than asked for */
	struct job_result *res; /* NULL unless the read ran; owned */
	bool io_error;          /* the device failed a read part way (error_offset, res->bytes) */
	bool no_response;       /* no I/O completed within the deadline */
	unsigned timeout_s;     /* that deadline */
	int stuck_pid;          /* the abandoned reader, still in the kernel; 0 for none */
	bool reader_never_ran;  /* no_response, but the reader's job never started: not the device */
	double pct_of_median;   /* 0 when not ranked */
	bool by_iops;           /* read by the IOPS pass: its figure is IOPS (disk_read_figure) */
	uint64_t live_bytes;    /* bytes read so far while the read runs, or in the IOPS pass its milliseconds
				 * (atomic; the parallel batch's progress) */

	/* The verdict against its peers and its baseline (read_batch_judge in
	 * triage/), with its reasons; kind VERDICT_NOT_JUDGED before judging. */
	struct disk_verdict verdict;

	char host[64];          /* the host it is read on over ssh (triage/media/read_remote.h: a Ceph
				 * OSD's device elsewhere); "" here */
	char pool[128];         /* readdisks --group-by vdev: the pool it belongs to, "" if none */
	char vdev[64];          /* the pool's device group for this member, "" if none */

	/* Its baseline (readdisks --save-baseline on an earlier run): bytes/s,
	 * or IOPS in the IOPS pass (from the IOPS baselines). */
	bool has_baseline;
	double baseline_bw;
	int64_t baseline_at;

	/* Its links (disk/link.h), read before the read pass (triage/media/read_link.h). */
	bool link_read;
	struct disk_link link;

	/* The health cross-check of a flagged disk (smartctl). */
	bool health_checked;
	bool smartctl_missing;  /* checked, but smartctl is not installed */
	struct smart_health health;

	/* The parallel pass (readdisks --mode both): this disk read while all read. */
	double parallel_bw;     /* 0 when not measured */
	double parallel_pct_of_serial;
	char parallel_failure[320]; /* why the read together failed, "" when it did not */
	/* Its group's pass (--mode both): this disk read while its group's disks
	 * read, and no others. */
	double group_bw;        /* 0 when not measured */
	double group_pct_of_serial;
};

/* Reads the block device at D->info.dev_path. Returns 0 when the read ran
 * (even if it failed part way: see D->status), -errno for bad input with
 * D->reason set. */
int readtest_run(struct disk_read *d, const struct readtest_opts *opts);

/* readtest_run() in parts, for reading many disks at once:
 * readtest_start() opens the device and forks the reader, which waits
 * (NULL, with D's status set, when it cannot start); readtest_release()
 * lets it read, so that readers forked one after another start together;
 * readtest_finish() releases it if that has not been done, waits for it
 * with the deadline and fills D. Start every reader from one thread, and
 * before any other thread runs: a child forked while another thread holds
 * a lock (the log's, an allocator's, the sanitizer's) would inherit it
 * locked and hang; finishing may run in other threads. */
struct readtest_reader;
struct readtest_reader *readtest_start(struct disk_read *d, const struct readtest_opts *opts);
void readtest_release(struct readtest_reader *rd);
void readtest_finish(struct readtest_reader *rd);

/* Fills pct_of_median for ok entries and writes into ORDER the indexes of
 * READS sorted by throughput, fastest first, then errors, then skipped.
 * Returns the median throughput of the ok entries (0 when none). */
double readtest_rank(struct disk_read *reads, size_t n, size_t *order);

const char *readtest_status_name(enum readtest_status s);
/* The figure a disk is judged on: IOPS for the IOPS pass, else bytes per
 * second (0 when it has no result). */
double disk_read_figure(const struct disk_read *d);
void disk_read_release(struct disk_read *d);

/* The IOPS pass's length per disk, in milliseconds (its progress units);
 * 0 for a sequential read, which is planned in bytes. */
uint64_t readtest_planned_ms(const struct readtest_opts *opts);

#endif
