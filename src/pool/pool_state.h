/* pool/pool_state.h: a pool's settings and state as data, from the tools'
 * own output. Pure parsers, tested on output captured from zfs-fuse and
 * btrfs on loop devices (the captured files in tests/data) and on OpenZFS output
 * composed from its documentation.
 *
 * Truncated or garbled output is an error (-EINVAL), never a partial
 * result: a finding drawn from half a table would be wrong.
 */
#ifndef IOTRIAGE_POOL_POOL_STATE_H
#define IOTRIAGE_POOL_POOL_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* `zpool get all POOL` (zfs-fuse: a "NAME PROPERTY VALUE SOURCE" table;
 * OpenZFS's `-H -p`: tab-separated) or `zfs get -H -p [-r] all DATASET`. */
struct zfs_prop {
	char object[256];   /* pool or dataset */
	char name[64];
	char value[256];
	char source[64];
};

struct zfs_props {
	struct zfs_prop *items;
	size_t count;
};

/* Returns 0, or -EINVAL: no property line, a line without its four columns,
 * a table whose header is missing. */
int zfs_props_parse(const char *text, struct zfs_props *ret);
/* VALUE of PROPERTY of OBJECT (NULL: the first object), or NULL. */
const char *zfs_props_get(const struct zfs_props *p, const char *object, const char *property);
void zfs_props_release(struct zfs_props *p);

/* Sizes as ZFS prints them: "131072", "128K", "1.23G", "81%" (percent: the
 * number). Returns 0 or -EINVAL ("-", "none", garbage). */
int zfs_parse_number(const char *s, double *ret);

/* `zpool status POOL`: the pool's state, a running scan, the vdevs and
 * devices that are not healthy. */
enum zfs_scan { ZFS_SCAN_NONE, ZFS_SCAN_SCRUB, ZFS_SCAN_RESILVER };

struct zfs_bad_vdev {
	char name[256];
	char state[16];     /* DEGRADED, FAULTED, OFFLINE, UNAVAIL, REMOVED */
};

struct zfs_health {
	char pool[256];
	char state[16];     /* ONLINE, DEGRADED, ... */
	enum zfs_scan scan; /* running now */
	double scan_done_pct; /* -1 when not printed */
	char scan_line[256];
	struct zfs_bad_vdev bad[32];
	size_t bad_count;
};

/* Returns 0, or -EINVAL when the text lacks the pool, state, config or the
 * closing "errors:" line (truncated). zfs-fuse's " scrub:" line and
 * OpenZFS's " scan:" line are both read. */
int zfs_parse_health(const char *text, struct zfs_health *ret);

/* `btrfs filesystem usage -b MOUNT`: the data profile and each device's size
 * (its allocations in every profile plus its unallocated space). */
struct btrfs_dev_usage {
	char path[256];
	uint64_t size;
};

struct btrfs_usage {
	uint64_t device_size, used;
	char data_profile[16];   /* "RAID1", "single", ... */
	char meta_profile[16];
	struct btrfs_dev_usage devs[64];
	size_t dev_count;
};

/* Returns 0, or -EINVAL when "Overall:", the sizes, a Data profile or the
 * "Unallocated:" section is missing or malformed. */
int btrfs_parse_usage(const char *text, struct btrfs_usage *ret);

#endif
