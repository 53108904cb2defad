/* pool/zfs_datasets.h: ZFS datasets and the properties the volume table
 * needs, from
 *   zfs get -H -p -o name,property,value guid,mountpoint,mounted,compression,recordsize,primarycache
 * (one "name<TAB>property<TAB>value" line each; zfs-fuse's `zfs list` has
 * no -p, and without it the GUID is abbreviated, while `zfs get -p` gives
 * exact values on zfs-fuse and OpenZFS alike). Pure; tested on captures.
 */
#ifndef IOTRIAGE_POOL_ZFS_DATASETS_H
#define IOTRIAGE_POOL_ZFS_DATASETS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The argv that produces the text zfs_parse_datasets() reads. */
extern const char *const zfs_datasets_argv[];

struct zfs_dataset {
	char name[256];          /* "tank/data" */
	char guid[24];           /* decimal, "" when not reported */
	char mountpoint[1024];   /* "/tank/data", "legacy", "none" */
	bool mounted;
	char compression[32];    /* "off", "lz4", "on", ... */
	uint64_t recordsize;     /* bytes; 0 when not reported */
	char primarycache[16];   /* "all", "metadata", "none" */
};

struct zfs_datasets {
	struct zfs_dataset *sets;
	size_t count;
};

/* Parses TEXT; lines for snapshots ("@") and unknown properties are
 * ignored. Returns 0 or -EINVAL for a line without three fields. */
int zfs_parse_datasets(const char *text, struct zfs_datasets *ret);
const struct zfs_dataset *zfs_datasets_find(const struct zfs_datasets *d, const char *name);
void zfs_datasets_release(struct zfs_datasets *d);

/* The pool of dataset NAME ("tank" for "tank/a/b") into BUF. */
void zfs_dataset_pool(const char *name, char *buf, size_t len);

#endif
