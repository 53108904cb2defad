/* pool/lookup.h: pools as their own tools see them. ZFS pools from
 * zpool (list, status), btrfs file systems from btrfs filesystem show;
 * both run by argv (basic/spawn). A missing tool means "no pools of that
 * kind", not an error. Errors go to the log (basic/log.h: the log file and
 * stderr), never to stdout. */
#ifndef IOTRIAGE_POOL_LOOKUP_H
#define IOTRIAGE_POOL_LOOKUP_H

#include <stddef.h>

#include "pool/zfs.h"

struct pool_kind; /* pool/kind.h */

/* One pool by ZFS name or GUID, or btrfs label or UUID, or else a Ceph
 * pool's OSDs (pool/ceph_osd.h: ceph_pool_layout, when a Ceph configuration
 * is there). Returns 0 with LAYOUT and *RET_KIND (pool/kind.h's row: its
 * members_from says where the members came from; pool_kind_rbd for a Ceph
 * pool, whose layout's fstype is "ceph"), or -ENOENT after logging which
 * pools do exist, or another -errno after logging. */
int pool_find(const char *id, struct pool_layout *layout, const struct pool_kind **ret_kind);

/* Which pool and device group each whole disk belongs to. */
struct pool_disk {
	char kname[64];      /* the whole disk ("sdb" for a member named sdb1) */
	char pool[256];
	char vdev[64];       /* "mirror-0", "raidz1-0", a single disk's own name, or "btrfs" */
};
struct pool_disks {
	struct pool_disk *disks;
	size_t count;
};

/* Every ZFS pool's and btrfs file system's members, mapped to their whole
 * disks through their device numbers. Pools whose tool is missing or fails
 * are left out (logged). */
void pool_disks_collect(struct pool_disks *ret);
const struct pool_disk *pool_disks_find(const struct pool_disks *p, const char *kname);
void pool_disks_release(struct pool_disks *p);

#endif
