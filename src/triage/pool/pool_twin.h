/* triage/pool/pool_twin.h: the doctor's RAM twin of a pool and its pool
 * workload (steps 3 and 4 of the method).
 *
 * The twin is a pool of the same kind and layout as a real one (a ZFS pool
 * with the same data vdevs: each of the pool's data-class vdevs with its
 * kind and width, dRAID with its geometry; the log, special and dedup
 * classes left out, which the twin's workload, asynchronous large writes
 * and reads of file data, does not use, and said so; or a btrfs file system with the same data and
 * metadata profiles) on RAM-backed loop devices (files on /dev/shm): the
 * same workload through the same path, with the media taken out. It carries
 * the run's owner tag (the org.iotriage:owner property, or the
 * .iotriage-owner file in its mount point under /run), so that one left by
 * a killed run is removed by the next (triage/doctor/lab.h: lab_remove_stale).
 *
 * Steps are logged ("DOCTOR: ..."); nothing is written to stdout. */
#ifndef IOTRIAGE_TRIAGE_POOL_TWIN_H
#define IOTRIAGE_TRIAGE_POOL_TWIN_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lab/loopdev.h"
#include "pool/target.h"
#include "pool/zfs.h"
#include "poolbench/poolbench.h"

#define POOL_TWIN_MAX_MEMBERS 16

struct pool_twin {
	struct pool_target target;
	struct loopdev loops[POOL_TWIN_MAX_MEMBERS];
	size_t nloops;
	bool pool_made;          /* ZFS pool created, or btrfs file system mounted */
	char mnt[PATH_MAX];      /* btrfs: its mount point under /run */
	char data_vdevs[512];    /* ZFS: the twin's data vdevs as its zpool status gives them,
				  * "raidz2 6 + mirror 2" (pool/zfs.h: pool_layout_data_vdevs) */
	char pool_data_vdevs[512]; /* ZFS: the real pool's, the same way */
	char left_out[512];      /* ZFS: the classes the twin leaves out, and why; "" for none */
};

/* Builds REAL's twin (LAYOUT from zpool status or btrfs filesystem show),
 * each member MEMBER_SIZE bytes, named "iotriage-twin-<RUN_ID>". Logs;
 * returns 0 or -errno (partial work undone). */
int pool_twin_build(const struct pool_target *real, const struct pool_layout *layout, const char *run_id,
		    uint64_t member_size, struct pool_twin *ret);
/* Destroys the pool (or unmounts the file system) and its loop devices. */
void pool_twin_destroy(struct pool_twin *t);

/* The pool step's workload, run on the twin and on the real pool: a
 * sequential write (+fsync) and read of SIZE bytes in a temporary area of
 * T named after RUN_ID and SUFFIX (recordsize 1M, no ARC data caching),
 * removed afterwards. Two figures in O. Returns 0 or -errno. */
int pool_twin_workload(const struct pool_target *t, const char *run_id, const char *suffix, uint64_t size,
		       unsigned runtime_s, struct pb_outcome *o);

#endif
