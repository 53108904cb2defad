/* pool/zpool_lat.h: `zpool iostat -v -l -H -p POOL INTERVAL` (OpenZFS) as
 * each vdev's and device's latency.
 *
 * Each report is one tab-separated row per pool, top-level vdev and device,
 * without a header or indentation (-H); a blank line separates the classes
 * (data, then logs, special, dedup, cache: which is which comes from the
 * pool's layout, pool/zfs.h, whose vdev names are unique). Numbers are exact
 * (-p): operations and bytes per second, waits in nanoseconds, "-" for none.
 * Columns: name, alloc, free, read and write operations, read and write
 * bandwidth, total_wait read and write, disk_wait read and write, syncq_wait
 * read and write, asyncq_wait read and write, scrub wait, trim wait, and
 * (OpenZFS 2.2 and later) rebuild wait. A report begins with the pool's own
 * row. The first report is the average since import: with later ones it is
 * skipped. Per row, the operations are summed over the reports used and each
 * wait is their mean weighted by the report's operations, so an interval
 * with no writes does not pull a write wait toward zero.
 *
 * Pure; tested on output captured from OpenZFS 2.3.2 in the VM. A row with
 * fewer columns, a figure that is not a number or "-", reports that differ
 * in their rows, or no report for POOL: -EINVAL, never a partial answer;
 * with ALLOW_CUT_TAIL a last report cut short (the command stopped while
 * writing it) is dropped when a whole one came before.
 */
#ifndef IOTRIAGE_POOL_ZPOOL_LAT_H
#define IOTRIAGE_POOL_ZPOOL_LAT_H

#include <stdbool.h>
#include <stddef.h>

struct zpool_lat_row {
	char name[256];               /* as zpool names it: the pool, "mirror-1", a device */
	double read_ops, write_ops;   /* per second, summed over the reports used */
	double read_disk_wait_ns, write_disk_wait_ns;   /* mean time at the disk; -1: no I/O */
	double write_total_wait_ns;   /* disk and queues; -1: no writes */
};

struct zpool_lat {
	char pool[256];
	size_t reports;               /* reports used */
	struct zpool_lat_row *rows;
	size_t count;
};

int zpool_lat_parse(const char *text, const char *pool, bool allow_cut_tail, struct zpool_lat *ret);
/* The row named NAME, or NULL. */
const struct zpool_lat_row *zpool_lat_row(const struct zpool_lat *l, const char *name);
void zpool_lat_release(struct zpool_lat *l);

#endif
