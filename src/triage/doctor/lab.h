/* triage/doctor/lab.h: doctor --lab's throwaway system with a known fault: five
 * loop devices (lab/loopdev: unnamed backing files in /var/tmp, cleared by
 * the kernel when closed), a pool on them named "iotriage-lab-<run id>" (a
 * zfs-fuse raidz where ZFS is available, else a btrfs raid1 mounted under
 * /run), and optionally the middle member slowed for this process's reads
 * (lab/throttle: a cgroup v1 blkio rule).
 *
 * The pool carries the run's owner tag (the org.iotriage:owner property,
 * or the .iotriage-owner file in its mount point), so that a lab or a RAM
 * twin (triage/pool/pool_twin.h) left by a killed run is removed by the next,
 * and nothing else is. Steps are logged ("LAB: ..."); nothing is written
 * to stdout. */
#ifndef IOTRIAGE_TRIAGE_LAB_H
#define IOTRIAGE_TRIAGE_LAB_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lab/loopdev.h"
#include "lab/throttle.h"

struct lab {
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

/* Builds the lab for RUN_ID, members of MEMBER_SIZE bytes; with FAULT, one
 * member is slowed to SLOW_RATE bytes/s. Logs; returns 0 or -errno (partial
 * work undone). */
int lab_build(const char *run_id, bool fault, uint64_t member_size, uint64_t slow_rate, struct lab *lab);
/* Removes the throttle, the pool (or mount) and the loop devices. */
void lab_destroy(struct lab *lab);
/* Removes lab and twin pools and mounts whose owner (org.iotriage:owner,
 * or the .iotriage-owner file) is gone, and stale throttle groups. Returns
 * how many. */
int lab_remove_stale(void);

#endif
