/* pool/member_load.h: which member of a vdev works harder or slower than its
 * siblings while the pool is under load (telemetry from disk/diskstats.h,
 * member names and vdevs from pool/zfs.h).
 *
 * Each member is compared with the median of its SIBLINGS (the other data
 * members of its vdev; logs, cache and spares are never judged): with two
 * or three members a median that includes the member itself would hide it.
 * Judged only when the member completed MEMBER_LOAD_MIN_IOS requests; the
 * thresholds (findings, pool/finding.h):
 *   member-busy   busy >= 50% of the run, >= 1.5x the siblings' median busy
 *                 and at least 20 points above it
 *   member-slow   average wait >= 2x the siblings' median and >= 5 ms more
 *                 (neither for a member that read >= 1.5x its siblings'
 *                 median bytes or requests: it was given more work, as a raidz's
 *                 same-sized records keep the parity on the same columns;
 *                 measured in the OpenZFS VM: two members of a raidz1 of
 *                 four with 4 KiB records read 12 MB, the other two 6-7 MB,
 *                 and were busy 70% against 25%)
 *   member-share  a mirror side that read <= half the siblings' median bytes
 *                 while they read >= 16 MiB: ZFS sends mirror reads to the
 *                 least busy side, so a side slowed where diskstats cannot
 *                 see (a cgroup throttle, a slow path above the device) gets
 *                 fewer reads. Not judged for a member whose pool keeps
 *                 a reader on one side (LOCALITY_READS: OpenZFS on rotating
 *                 disks adds a seek penalty to the side whose last read is
 *                 not next to this one, so one stream stays on one side and
 *                 a healthy side serves a small share; measured in the
 *                 OpenZFS VM: 3 MiB against 20 MiB)
 * The evidence gives the siblings' range and their MAD (media/outlier.h).
 * Pure.
 */
#ifndef IOTRIAGE_POOL_MEMBER_LOAD_H
#define IOTRIAGE_POOL_MEMBER_LOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pool/finding.h"

#define MEMBER_LOAD_MIN_IOS 32
#define MEMBER_LOAD_BUSY_MIN 0.5
#define MEMBER_LOAD_BUSY_RATIO 1.5
#define MEMBER_LOAD_BUSY_POINTS 0.2
#define MEMBER_LOAD_WAIT_RATIO 2.0
#define MEMBER_LOAD_WAIT_MS 5.0
#define MEMBER_LOAD_SHARE_RATIO 0.5
#define MEMBER_LOAD_SHARE_MIN_BYTES (16.0 * 1048576)
#define MEMBER_LOAD_WORK_RATIO 1.5

struct member_load {
	const char *name;   /* as the pool names it ("loop3") */
	const char *vdev;   /* "raidz1-0", "mirror-1", the pool name, "logs"... */
	double busy;        /* 0..1 (diskstat_delta.busy) */
	double wait_ms;     /* diskstat_delta.wait_ms */
	uint64_t ios;       /* reads + writes during the run */
	double read_bytes;
	uint64_t reads;      /* read requests completed */
	bool locality_reads; /* its pool keeps a stream on one mirror side: no member-share */
};

/* Appends a finding per member out of line to OUT. Returns how many, or
 * -EINVAL (a NULL name or vdev, a busy fraction outside 0..1). */
int member_load_judge(const struct member_load *m, size_t n, struct pool_findings *out);

#endif
