/* pool/zfs.h: what `zpool status` says about a pool's layout, as data.
 *
 * zfs_parse_status() reads the "config:" section of `zpool status POOL`
 * (zfs-fuse's format and OpenZFS's, with or without -P) and returns every
 * leaf device with the top-level vdev it belongs to ("mirror-0", "raidz1-1",
 * "draid1:2d:6c:1s-0", the pool name for a plain striped member, or the
 * class header for a single disk of a class), its allocation class, its
 * state, the replacing/spare nesting it is in, and every top-level vdev with
 * its kind and width. A device that shows twice (a hot spare in use, under
 * its vdev's spare-N and under "spares") is listed once, where it serves.
 * Member names are kept as the pool writes them ("sde1", "loop0",
 * "/dev/disk/by-id/...-part1"); `path` is the device node to read (a member
 * known only by GUID: the path after "was"). Pure functions, tested on
 * output captured from zfs-fuse and from OpenZFS 2.3 in the VM.
 */
#ifndef IOTRIAGE_POOL_ZFS_H
#define IOTRIAGE_POOL_ZFS_H

#include <stdbool.h>
#include <stddef.h>

/* The allocation class a vdev serves (OpenZFS 0.8+; zfs-fuse has data, logs,
 * cache and spares). Only data vdevs hold the pool's file data. */
enum pool_class {
	POOL_CLASS_DATA,
	POOL_CLASS_LOG,      /* "logs": the ZIL, sync writes only */
	POOL_CLASS_SPECIAL,  /* metadata (and small blocks with special_small_blocks) */
	POOL_CLASS_DEDUP,    /* the dedup table */
	POOL_CLASS_CACHE,    /* L2ARC */
	POOL_CLASS_SPARE,    /* hot spares */
};

struct pool_member {
	char name[256];
	char path[512];
	char vdev[64];         /* the top-level vdev ("mirror-1", "draid1:2d:6c:1s-0"), the pool
				* for a data disk of its own, the class header ("logs",
				* "cache", "spares", "special", "dedup") for a disk of its own there */
	enum pool_class klass;
	char state[16];        /* the STATE column: ONLINE, DEGRADED, OFFLINE, FAULTED, UNAVAIL,
				* REMOVED, AVAIL, INUSE; "" when not printed */
	char group[64];        /* a nesting inside the vdev: "replacing-1", "spare-0"; "" */
	char was[512];         /* a member shown by GUID: the path zpool says it had */
	bool virtual_spare;    /* a dRAID distributed spare ("draid1-0-0"): space spread over the
				* dRAID's disks, never a disk to read */
	char not_read[256];    /* why its kind does not read it (a Ceph OSD down, or without a
				* device); "" */
	char host[64];         /* the host it is read on over ssh when not this one (a Ceph OSD
				* elsewhere); "" */
};

/* The kind of a top-level vdev, with dRAID's geometry. */
enum pool_vdev_type { POOL_VDEV_DISK, POOL_VDEV_MIRROR, POOL_VDEV_RAIDZ, POOL_VDEV_DRAID };

struct pool_vdev {
	char name[64];         /* as in pool_member.vdev */
	enum pool_class klass;
	enum pool_vdev_type type;
	unsigned parity;       /* raidz and dRAID */
	unsigned draid_data, draid_children, draid_spares; /* "draid2:4d:12c:1s" */
	unsigned width;        /* its children (a replacing or spare nesting counts once) */
	char state[16];
};

struct pool_layout {
	char pool[256];
	struct pool_member *members;
	size_t count;
	struct pool_vdev *vdevs;   /* ZFS only; btrfs leaves them empty */
	char fstype[8];            /* "ceph" for a Ceph pool's OSDs (pool/ceph_osd.h); "" for ZFS and btrfs */
	size_t nvdevs;
};

/* "data", "log", "special", "dedup", "cache", "spare". */
const char *pool_class_name(enum pool_class c);

/* Why a member is not read, or NULL when it is a device to read: a
 * distributed spare, a hot spare not in use, a state that is not ONLINE or
 * DEGRADED (OFFLINE, FAULTED, UNAVAIL, REMOVED), its kind's not_read. Pure: whether the device
 * node exists is the caller's to check. */
const char *pool_member_unread_reason(const struct pool_member *m);

/* Appends a top-level vdev NAME of class KLASS with WIDTH children (0: a
 * disk of its own) and STATE to L, its kind and geometry read from the name.
 * Returns 0, -ENOMEM, or -EINVAL for a name of no kind ZFS has (for the
 * parsers: pool/zfs.c's text, pool/zpool_json.c's JSON). */
int pool_vdev_record(struct pool_layout *l, const char *name, enum pool_class klass, unsigned width,
		     const char *state);

/* V's kind as zpool create takes it: "" for a disk of its own, "mirror",
 * "raidzP", "draidP:Dd:Cc:Ss". */
void pool_vdev_kind_word(const struct pool_vdev *v, char *buf, size_t len);

/* The data vdevs as "KIND WIDTH" joined by " + " ("raidz2 6 + mirror 2",
 * "draid1:2d:6c:1s 6", "disk 1"), in the pool's order, into BUF. */
void pool_layout_data_vdevs(const struct pool_layout *l, char *buf, size_t len);

/* Whether member I is one of its vdev's working members for the layout: it
 * is read (pool_member_unread_reason is NULL) and, inside a replacing or
 * spare nesting, the first such of its nesting (the nesting stands for one
 * child of the vdev). */
bool pool_layout_member_counts(const struct pool_layout *l, size_t i);

/* Returns 0, or -EINVAL when TEXT has no config section for a pool. */
int zfs_parse_status(const char *text, struct pool_layout *ret);
void pool_layout_release(struct pool_layout *l);

/* ZFS's rule: a letter, then letters, digits, '_', '-', '.', ':' (no '/'). */
bool zfs_valid_pool_name(const char *name);

/* From `zpool list -H -o name,guid` output: the pool whose name or GUID is
 * ID, copied into RET_NAME. Returns 0 or -ENOENT. */
int zfs_find_pool(const char *list_output, const char *id, char *ret_name, size_t len);

#endif
