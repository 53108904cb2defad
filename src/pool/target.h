/* pool/target.h: what a pool-level test writes into. A ZFS pool (by
 * name or GUID: its root dataset and mount point), a mounted btrfs file
 * system (by label or UUID: where it is mounted), or a directory (any
 * file system). Errors are logged here (cmd/ code). */
#ifndef IOTRIAGE_CMD_BENCH_TARGET_H
#define IOTRIAGE_CMD_BENCH_TARGET_H

#include <limits.h>
#include <stddef.h>

#include "basic/strbuf.h"
#include "pool/ceph.h"
#include "pool/scratch.h"

struct pool_target {
	enum scratch_kind kind;
	char fstype[16];          /* "zfs", "btrfs", "ceph" or "dir" */
	char pool[256];           /* the pool's name, the file system's label (else UUID), or the directory */
	char parent[PATH_MAX];    /* ZFS: the root dataset; else the directory areas are made in */
	char mountpoint[PATH_MAX];
	char fs_name[32];         /* what the kernel calls the file system (zfs-fuse's "fuse.zfs", "ext4"...) */
	char ceph_pool[128];      /* Ceph: the pool whose settings are captured (RBD's, CephFS's data pool) */
};

/* Resolves ID. FSTYPE is "zfs", "btrfs", "ceph", "dir" or NULL to detect
 * (a path is a directory, a CephFS when mounted as one (ceph-fuse or the
 * kernel's ceph); else a ZFS pool; else a btrfs label or UUID; else a Ceph
 * pool (RBD) when a Ceph configuration exists). Returns 0, or -errno after
 * logging what went wrong and what to pass instead (a Ceph pool that does
 * not exist: the pools that do). */
int pool_target_resolve(const char *id, const char *fstype, struct pool_target *ret);

/* Every ZFS pool with a mount point and every mounted btrfs file system.
 * *RET is malloc'd. Returns the count. */
size_t pool_target_list_all(struct pool_target **ret);

/* The pool's state as its tools print it, for the results file:
 * zpool status -v (-P where supported), btrfs filesystem show and usage, or
 * the Ceph cluster's (pool/ceph.h: ceph_capture). */
void pool_target_status(const struct pool_target *t, struct strbuf *out);
/* The same, and on Ceph what the tools' JSON says in *CEPH (ceph->read
 * false elsewhere, or when the cluster did not answer). */
void pool_target_status_ceph(const struct pool_target *t, struct strbuf *out, struct ceph_state *ceph);

#endif
