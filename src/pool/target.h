/* pool/target.h: what a pool-level test writes into. A ZFS pool (by
 * name or GUID: its root dataset and mount point), a mounted btrfs file
 * system (by label or UUID: where it is mounted), or a directory (any
 * file system). Errors are logged here (cmd/ code). */
#ifndef IOTRIAGE_CMD_BENCH_TARGET_H
#define IOTRIAGE_CMD_BENCH_TARGET_H

#include <limits.h>
#include <stddef.h>

#include "basic/strbuf.h"
#include "pool/scratch.h"

struct pool_target {
	enum scratch_kind kind;
	char fstype[16];          /* "zfs", "btrfs" or "dir" */
	char pool[256];           /* the pool's name, the file system's label (else UUID), or the directory */
	char parent[PATH_MAX];    /* ZFS: the root dataset; else the directory areas are made in */
	char mountpoint[PATH_MAX];
	char fs_name[32];         /* what the kernel calls the file system (zfs-fuse's "fuse.zfs", "ext4"...) */
};

/* Resolves ID. FSTYPE is "zfs", "btrfs", "dir" or NULL to detect (a path
 * is a directory; else a ZFS pool; else a btrfs label or UUID). Returns 0,
 * or -errno after logging what went wrong and what to pass instead. */
int pool_target_resolve(const char *id, const char *fstype, struct pool_target *ret);

/* Every ZFS pool with a mount point and every mounted btrfs file system.
 * *RET is malloc'd. Returns the count. */
size_t pool_target_list_all(struct pool_target **ret);

/* The pool's state as its tools print it, for the results file:
 * zpool status -v (-P where supported), or btrfs filesystem show and usage. */
void pool_target_status(const struct pool_target *t, struct strbuf *out);

#endif
