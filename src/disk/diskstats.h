/* disk/diskstats.h: what each block device did during a workload, from
 * /proc/diskstats deltas (Documentation/admin-guide/iostats.rst).
 *
 * Pure part: diskstats_parse() reads the counters of the named devices from
 * the text of /proc/diskstats; diskstats_delta() turns two snapshots into
 * what happened between them: reads, writes, bytes (sectors are always 512
 * bytes there), busy time (io_ticks: time with at least one request in
 * flight) as a fraction of the interval, and the average wait per request
 * (read_ticks / reads, write_ticks / writes, the `r_await`/`w_await` of
 * iostat -x).
 *
 * Note what these counters cannot see: an I/O held back by a cgroup blkio
 * throttle (blk-throttle) is accounted only when it is released to the
 * device, so a member slowed that way looks no busier here; its slowness
 * shows in the pool's own figures (a mirror side serving fewer reads, see
 * pool/member_load.h). A slow device (a failing disk, a saturated backing
 * store, dm-delay) shows as busy time and wait.
 *
 * The sampler: diskstats_sampler_start() takes a first snapshot of the
 * named devices and starts a thread that takes one every INTERVAL_MS;
 * diskstats_sampler_stop() stops it, takes the last snapshot and returns
 * the totals (first to last) and the per-interval deltas, so the caller
 * sees both the run's average and its busiest moment. Start it right before
 * the workload and stop it right after; the thread only reads procfs.
 * -errno returns, no printing.
 */
#ifndef IOTRIAGE_DISK_DISKSTATS_H
#define IOTRIAGE_DISK_DISKSTATS_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DISKSTATS_PATH "/proc/diskstats"

struct diskstat {
	char name[32];
	unsigned major, minor;
	uint64_t rd_ios, rd_merges, rd_sectors, rd_ticks_ms;
	uint64_t wr_ios, wr_merges, wr_sectors, wr_ticks_ms;
	uint64_t in_flight, io_ticks_ms, time_in_queue_ms;
};

struct diskstat_delta {
	char name[32];
	double seconds;          /* the interval */
	uint64_t reads, writes;  /* completed requests */
	uint64_t read_bytes, write_bytes;
	uint64_t busy_ms;        /* io_ticks delta */
	double busy;             /* busy_ms / interval, 0..1 (clamped) */
	double read_wait_ms;     /* average per read; 0 without reads */
	double write_wait_ms;    /* average per write; 0 without writes */
	double wait_ms;          /* average per request, reads and writes together */
};

/* Fills RET[i] with the counters of the device named NAMES[i] ("loop3",
 * "sda"; a "/dev/" prefix is ignored). Returns 0, -ENOENT when a device is
 * not in TEXT, or -EINVAL when its line is malformed (fewer than the 11
 * counters every kernel since 2.6 prints). */
int diskstats_parse(const char *text, const char *const *names, size_t n, struct diskstat *ret);

/* What happened between A and B (B taken SECONDS later). Returns 0, or
 * -ERANGE when a counter went backwards (the device was replaced) or
 * SECONDS is not positive, or -EINVAL when A and B are different devices. */
int diskstats_delta(const struct diskstat *a, const struct diskstat *b, double seconds,
		    struct diskstat_delta *ret);

/* Reads PATH (NULL: /proc/diskstats) and parses the named devices. */
int diskstats_read(const char *path, const char *const *names, size_t n, struct diskstat *ret);

#define DISKSTATS_MAX_SAMPLES 4096

struct diskstats_sampler {
	/* private */
	char path[256];
	char (*names)[32];
	size_t n;
	unsigned interval_ms;
	struct diskstat *first, *prev;
	uint64_t first_ns, prev_ns;
	struct diskstat_delta *samples; /* n per interval, interval-major */
	size_t intervals;
	int error;                      /* first error the thread met */
	bool stop, running;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	pthread_t thread;
};

struct diskstats_result {
	size_t n;                       /* devices */
	struct diskstat_delta *total;   /* n: first snapshot to last */
	struct diskstat_delta *samples; /* intervals x n, interval-major */
	size_t intervals;
};

/* PATH NULL: /proc/diskstats. INTERVAL_MS 0: no thread, first and last
 * snapshots only. Returns 0, or -errno (a device that does not exist:
 * -ENOENT) with nothing left to stop. */
int diskstats_sampler_start(struct diskstats_sampler *s, const char *path,
			    const char *const *names, size_t n, unsigned interval_ms);
/* Stops the thread, takes the last snapshot, fills RET (release with
 * diskstats_result_release) and frees the sampler. Returns 0 or the first
 * -errno met (RET is then empty). */
int diskstats_sampler_stop(struct diskstats_sampler *s, struct diskstats_result *ret);
void diskstats_result_release(struct diskstats_result *r);

/* The highest busy fraction device I reached in any interval (its total
 * when there are no intervals). */
double diskstats_peak_busy(const struct diskstats_result *r, size_t i);

#endif
