/* pool/zpool_hist.h: OpenZFS's latency histograms (`zpool iostat -w -H -p
 * POOL`): per power-of-two latency bucket, how many I/Os waited that long,
 * counted since the pool was imported, for the whole pool.
 *
 * Each line is a bucket: its bound in nanoseconds (-p: exact), then the
 * counts of total_wait read and write (queued and on the disk), disk_wait
 * read and write (on the disk alone), syncq_wait and asyncq_wait read and
 * write (in ZFS's queues), then scrub, trim and (OpenZFS 2.x, later) rebuild,
 * which are kept out. Two snapshots around a workload, subtracted, are the
 * workload's own histograms; their percentiles are the evidence doctor and
 * benchpool keep beside /proc/diskstats. zfs-fuse has no -w. Pure, but
 * zpool_hist_read, which runs the command.
 */
#ifndef IOTRIAGE_POOL_ZPOOL_HIST_H
#define IOTRIAGE_POOL_ZPOOL_HIST_H

#include <stddef.h>
#include <stdint.h>

enum zpool_hist_col {
	ZH_TOTAL_READ, ZH_TOTAL_WRITE, ZH_DISK_READ, ZH_DISK_WRITE,
	ZH_SYNCQ_READ, ZH_SYNCQ_WRITE, ZH_ASYNCQ_READ, ZH_ASYNCQ_WRITE, ZH_NCOLS
};

#define ZPOOL_HIST_MAX_BUCKETS 48

struct zpool_hist {
	size_t nbuckets;
	uint64_t bound_ns[ZPOOL_HIST_MAX_BUCKETS];             /* each bucket's upper bound */
	uint64_t count[ZPOOL_HIST_MAX_BUCKETS][ZH_NCOLS];
};

/* Parses TEXT (LEN bytes). Returns 0, or -EINVAL when a line is not a
 * bucket of at least the eight wait columns, the bounds do not rise, or
 * there is no bucket at all (a cut or foreign output, never half a
 * histogram). */
int zpool_hist_parse(const char *text, size_t len, struct zpool_hist *ret);

/* AFTER minus BEFORE into RET. Returns 0, or -EINVAL when the buckets
 * differ or a count went down (the pool was exported and imported). */
int zpool_hist_diff(const struct zpool_hist *after, const struct zpool_hist *before, struct zpool_hist *ret);

/* How many I/Os column COL counts. */
uint64_t zpool_hist_total(const struct zpool_hist *h, enum zpool_hist_col col);

/* The bound of the bucket holding the PCT (0..100) percentile of COL, in
 * nanoseconds; 0 when the column counted nothing. */
uint64_t zpool_hist_percentile(const struct zpool_hist *h, enum zpool_hist_col col, double pct);

/* Runs `zpool iostat -w -H -p POOL` and parses it. Returns 0, or -errno
 * with WHY (zpool missing or failing, its output not a histogram). */
int zpool_hist_read(const char *pool, struct zpool_hist *ret, char *why, size_t len);

#endif
