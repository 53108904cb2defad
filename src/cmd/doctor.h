/* cmd/doctor.h: the whole isolation method in one command (cmd_doctor.c),
 * its RAM twin of a pool (doctor_pool.c) and its lab (doctor_lab.c).
 *
 * The spec's method is bottom-up: media, network, the media factored out
 * with a RAM disk, then the pool. doctor runs those steps in that order
 * with a time budget each, stops as soon as one explains the complaint,
 * and ends with a verdict: the layer, the evidence, how sure, what next.
 */
#ifndef IOTRIAGE_CMD_DOCTOR_H
#define IOTRIAGE_CMD_DOCTOR_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "cmd/bench_target.h"
#include "lab/loopdev.h"
#include "lab/throttle.h"
#include "pool/zfs.h"
#include "poolbench/poolbench.h"
#include "triage/doctor_judgement.h"

#define DOCTOR_MAX_MEMBERS 16

/* A pool of the same kind and layout as a real one, on RAM-backed loop
 * devices (files on /dev/shm): the same workload through the same path,
 * with the media taken out. */
struct pool_twin {
	struct bench_target target;
	struct loopdev loops[DOCTOR_MAX_MEMBERS];
	size_t nloops;
	bool pool_made;          /* ZFS pool created, or btrfs file system mounted */
	char mnt[PATH_MAX];      /* btrfs: its mount point under /run */
};

/* Builds REAL's twin (LAYOUT from zpool status or btrfs filesystem show),
 * each member MEMBER_SIZE bytes. Logs; returns 0 or -errno (partial work
 * undone). */
int twin_build(const struct bench_target *real, const struct pool_layout *layout, const char *run_id,
	       uint64_t member_size, struct pool_twin *ret);
void twin_destroy(struct pool_twin *t);

/* The pool step's workload: a sequential write (+fsync) and read of SIZE
 * bytes in a temporary area of T (recordsize 1M, no ARC data caching),
 * removed afterwards. Two figures in O. Returns 0 or -errno. */
int doctor_pool_workload(const struct bench_target *t, const char *run_id, const char *suffix, uint64_t size,
			 unsigned runtime_s, struct pb_outcome *o);


/* zpool destroy, retried while zfs-fuse answers "pool is busy". */
int zpool_destroy_retrying(const char *pool);

/* The lab: loop devices, a pool on them (zfs-fuse, else btrfs raid1), and
 * optionally one member slowed for this process (cgroup blkio). */
struct doctor_lab {
	struct loopdev loops[5];
	size_t nloops;
	char pool[128];
	bool zfs;
	bool pool_made;
	char mnt[PATH_MAX];      /* btrfs: its mount point */
	struct throttle throttle;
	int slowed;              /* index of the slowed member, -1 when none */
	uint64_t slow_rate;
};

int lab_build(const char *run_id, bool fault, uint64_t member_size, uint64_t slow_rate, struct doctor_lab *lab);
void lab_destroy(struct doctor_lab *lab);
/* Removes lab and twin pools and mounts whose owner (org.iotriage:owner,
 * or the .iotriage-owner file) is gone. Returns how many. */
int lab_remove_stale(void);

#endif
