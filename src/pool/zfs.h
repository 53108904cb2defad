/* pool/zfs.h: what `zpool status` says about a pool's layout, as data.
 *
 * zfs_parse_status() reads the "config:" section of `zpool status POOL`
 * (zfs-fuse's format and OpenZFS's, with or without -P) and returns every
 * leaf device with the vdev it belongs to: "mirror-0", "raidz1-1", the pool
 * name for a plain striped member, or "logs"/"cache"/"spares"/"special"/
 * "dedup" for the support classes. Member names are kept as the pool writes
 * them ("sde1", "loop0", "/dev/disk/by-id/...-part1"); `path` is the device
 * node to read. Pure functions, tested on captured output.
 */
#ifndef IOTRIAGE_POOL_ZFS_H
#define IOTRIAGE_POOL_ZFS_H

#include <stdbool.h>
#include <stddef.h>

struct pool_member {
	char name[256];
	char path[512];
	char vdev[64];
};

struct pool_layout {
	char pool[256];
	struct pool_member *members;
	size_t count;
};

/* Returns 0, or -EINVAL when TEXT has no config section for a pool. */
int zfs_parse_status(const char *text, struct pool_layout *ret);
void pool_layout_release(struct pool_layout *l);

/* ZFS's rule: a letter, then letters, digits, '_', '-', '.', ':' (no '/'). */
bool zfs_valid_pool_name(const char *name);

/* From `zpool list -H -o name,guid` output: the pool whose name or GUID is
 * ID, copied into RET_NAME. Returns 0 or -ENOENT. */
int zfs_find_pool(const char *list_output, const char *id, char *ret_name, size_t len);

#endif
