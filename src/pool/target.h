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
#include "pool/kind.h" /* struct pool_target */
#include "pool/scratch.h"


/* Resolves ID through the rows of pool/kind.h. FSTYPE is a row's --fstype
 * word ("zfs", "btrfs", "ceph", "dir"), or NULL to detect, row by row (a
 * path is a directory, a CephFS when mounted as one (ceph-fuse or the
 * kernel's ceph); else a ZFS pool; else a btrfs label or UUID; else a Ceph
 * pool (RBD) when a Ceph configuration exists). Returns 0, or -errno after
 * logging what went wrong and what to pass instead (a Ceph pool that does
 * not exist: the pools that do). */
int pool_target_resolve(const char *id, const char *fstype, struct pool_target *ret);

/* Every ZFS pool with a mount point and every mounted btrfs file system.
 * *RET is malloc'd. Returns the count. */
size_t pool_target_list_all(struct pool_target **ret);

/* The pool's state as its tools print it, for the results file (its row's
 * status: zpool status -v (-P where supported), btrfs filesystem show and
 * usage, the Ceph cluster's (pool/ceph.h: ceph_capture), a directory's
 * free space). */
void pool_target_status(const struct pool_target *t, struct strbuf *out);
/* The same, and on Ceph what the tools' JSON says in *CEPH (ceph->read
 * false elsewhere, or when the cluster did not answer). */
void pool_target_status_ceph(const struct pool_target *t, struct strbuf *out, struct ceph_state *ceph);

#endif
