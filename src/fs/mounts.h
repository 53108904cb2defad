/* fs/mounts.h: the mount table as /proc/self/mountinfo gives it, and which
 * mounts are volumes worth a throughput test.
 *
 * mounts_parse() reads mountinfo text (proc(5): ID PARENT MAJ:MIN ROOT
 * MOUNTPOINT OPTIONS [OPTIONAL...] - FSTYPE SOURCE SUPER_OPTIONS), undoing
 * the kernel's octal escapes (\040 for a space). mount_classify() says
 * whether a mount is a volume or why it is not: a pseudo file system
 * (proc, sysfs, tmpfs, cgroup, overlay, ...), the root file system, or a
 * second mount of a file system already listed (a bind mount; btrfs
 * subvolumes are told apart by their subvolid). Pure functions: tested on
 * captured text in tests/data.
 */
#ifndef IOTRIAGE_FS_MOUNTS_H
#define IOTRIAGE_FS_MOUNTS_H

#include <stdbool.h>
#include <stddef.h>

struct mount_entry {
	unsigned id, parent_id;
	unsigned major, minor;  /* st_dev of the file system */
	char *root;             /* the directory of the file system that is mounted */
	char *mountpoint;
	char *mount_opts;       /* per-mount options: "rw,relatime" */
	char *fstype;           /* "ext4", "btrfs", "zfs", "fuse.zfs" */
	char *source;           /* "/dev/loop3", "tank/data" */
	char *super_opts;       /* file-system options: "rw,subvolid=256,subvol=/data" */
	bool readonly;          /* "ro" in either option list */
};

struct mount_table {
	struct mount_entry *entries;
	size_t count;
};

/* Parses TEXT. Returns 0, or -EINVAL on a malformed line (with the 1-based
 * line number in *RET_LINE when RET_LINE is not NULL). */
int mounts_parse(const char *text, struct mount_table *ret, size_t *ret_line);
void mount_table_release(struct mount_table *t);

struct strbuf;
/* The only two functions here that read: /proc/self/mountinfo's text, and
 * that text parsed. Return 0 or -errno. */
int mounts_read_proc(struct strbuf *out);
int mounts_load(struct mount_table *ret);

enum mount_class {
	MOUNT_VOLUME,           /* a file system to test */
	MOUNT_PSEUDO,           /* no storage behind it, or a read-only system image */
	MOUNT_ROOT,             /* the root file system (tested only when --match names it) */
	MOUNT_DUPLICATE,        /* the same file system (and subvolume) as an earlier entry */
};

/* What entry I of T is. For MOUNT_DUPLICATE, *RET_FIRST is the index of
 * the earlier entry. */
enum mount_class mount_classify(const struct mount_table *t, size_t i, size_t *ret_first);

bool mount_is_zfs(const struct mount_entry *m);   /* "zfs" (OpenZFS) or "fuse.zfs" (zfs-fuse) */
bool mount_is_btrfs(const struct mount_entry *m);

/* The value of KEY in a comma-separated option list ("subvol" in
 * "rw,subvolid=5,subvol=/"), copied into BUF. Returns true when present
 * (a flag without "=" gives ""). */
bool mount_option(const char *opts, const char *key, char *buf, size_t len);

#endif
