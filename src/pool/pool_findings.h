/* pool/pool_findings.h: the pool's own settings and state that cost
 * performance, each a finding with its fix and evidence (pool/finding.h).
 * Pure: judged on parsed output (pool/pool_state.h, pool/zfs.h).
 *
 * ZFS, with the thresholds:
 *   recordsize      the dataset's recordsize and the workload's I/O size
 *                   differ by 16x or more either way (1 MiB sequential on
 *                   4K records; 4K random on 128K records: read-modify-write).
 *                   The default 128K under 1 MiB I/O (8x) is not a finding.
 *   volblocksize    the same for a zvol (pool_findings_volblocksize)
 *   sync-no-log     sync=always and no log device in the layout
 *   sync-disabled   sync=disabled: acknowledged writes can be lost (data safety)
 *   logbias         logbias=throughput on a pool with a log: a note (the
 *                   dataset's sync writes skip the log)
 *   dedup           dedup is not off (every write looks up the dedup table)
 *   compression     not off: a note (it costs CPU; whether the CPU is the
 *                   bottleneck is judged elsewhere)
 *   capacity        over 80% full (ZFS's allocator slows as it fills)
 *   fragmentation   50% or more (OpenZFS only; zfs-fuse does not report it)
 *   ashift          2^ashift below a member's physical sector size
 *                   (read-modify-write inside the disk); ashift 0 (zfs-fuse's
 *                   "auto") is unknown, not judged
 *   scan            a scrub or resilver running now
 *   vdev-state      a vdev or device DEGRADED, FAULTED, OFFLINE, UNAVAIL,
 *                   REMOVED
 * btrfs:
 *   btrfs-sizes     a raid0/1/10/5/6 data profile over devices whose sizes
 *                   differ by 2x or more (the stripe narrows or space goes
 *                   unused, and I/O concentrates on the larger devices)
 *
 * A property that is missing is not judged; a property that is present but
 * not understood makes the whole call fail (-EINVAL, no findings).
 */
#ifndef IOTRIAGE_POOL_POOL_FINDINGS_H
#define IOTRIAGE_POOL_POOL_FINDINGS_H

#include <stdint.h>

#include "pool/finding.h"
#include "pool/pool_state.h"
#include "pool/zfs.h"

#define POOL_RECORDSIZE_FACTOR 16.0
#define POOL_CAPACITY_PCT 80.0
#define POOL_FRAGMENTATION_PCT 50.0
#define POOL_BTRFS_SIZE_FACTOR 2.0

struct pool_findings_input {
	const char *pool;
	const struct zfs_props *pool_props;    /* `zpool get all`; NULL: not read */
	const struct zfs_props *dataset_props; /* `zfs get -H -p all DATASET`; NULL */
	const char *dataset;                   /* NULL: the first dataset in dataset_props */
	const struct zfs_health *health;       /* `zpool status`; NULL */
	const struct pool_layout *layout;      /* for the log device and members; NULL */
	uint64_t io_size;                      /* the workload's I/O size; 0: not judged */
	unsigned ashift;                       /* from `zdb -C` (vdev ashift); 0: from pool_props */
	const unsigned *phys_sector;           /* per layout member, bytes; NULL: unknown */
};

/* Appends to OUT. Returns 0 or -EINVAL (OUT released). */
int pool_findings_zfs(const struct pool_findings_input *in, struct pool_findings *out);
/* A zvol's VOLBLOCKSIZE against the workload's IO_SIZE, as recordsize for a
 * dataset: POOL_RECORDSIZE_FACTOR apart or more is the finding "volblocksize"
 * on ZVOL (fixed at creation: the fix is a new zvol). Returns 1 when added. */
int pool_findings_volblocksize(const char *zvol, uint64_t volblocksize, uint64_t io_size, struct pool_findings *out);
int pool_findings_btrfs(const char *fs, const struct btrfs_usage *u, struct pool_findings *out);

#endif
