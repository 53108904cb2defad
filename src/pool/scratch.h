/* pool/scratch.h: temporary places to benchmark in, and their removal.
 *
 * A scratch area is a ZFS dataset (zfs create, with properties such as
 * recordsize), a btrfs subvolume, or a plain subdirectory, named
 * "iotriage-<run id>-<suffix>" and tagged with its owner:
 *   - ZFS: the user property org.iotriage:owner, set in the same zfs create;
 *   - btrfs and directories: a file ".iotriage-owner" inside.
 * The owner tag is "<run id>:<boot id>:<pid>:<process start time>", so a
 * later run can tell an area whose owner died (SIGKILL, power loss) from one
 * another iotriage is still using. scratch_find_stale() returns only areas
 * that carry the iotriage- prefix AND a tag whose owner is gone: a look-alike
 * name without the tag is never touched.
 *
 * Programs (zfs, btrfs) run by argv through basic/spawn. Library code:
 * returns -errno, with the tool's message in ERR where one exists.
 */
#ifndef IOTRIAGE_POOL_SCRATCH_H
#define IOTRIAGE_POOL_SCRATCH_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "basic/strbuf.h"

/* SCRATCH_CEPHFS is a directory on a mounted CephFS (made and removed as
 * one); SCRATCH_RBD an image in a Ceph pool (pool/rbd_images.h: made and
 * removed there, never by scratch_create or scratch_destroy). */
enum scratch_kind { SCRATCH_ZFS, SCRATCH_BTRFS, SCRATCH_DIR, SCRATCH_CEPHFS, SCRATCH_RBD };

#define SCRATCH_PREFIX "iotriage-"
#define SCRATCH_OWNER_PROPERTY "org.iotriage:owner"
#define SCRATCH_OWNER_FILE ".iotriage-owner"

struct scratch {
	enum scratch_kind kind;
	char name[512];       /* ZFS: the dataset ("tank/iotriage-…-1m"); RBD: "pool/image"; else the directory */
	char path[PATH_MAX];  /* the directory files go in; a zvol's block device; "" for an RBD image */
	char owner[160];      /* the tag it carries */
};

/* This process's owner tag for RUN_ID. */
void scratch_owner_tag(const char *run_id, char *buf, size_t len);
/* Whether TAG names an owner that no longer runs (basic/procowner: another
 * boot, a dead or zombie process, or a pid reused by another process). A
 * malformed tag is not stale:
 * it is not ours to judge, so it is left alone. */
bool scratch_owner_gone(const char *tag);

/* Creates "<PARENT>/iotriage-<RUN_ID>-<SUFFIX>": PARENT is a ZFS dataset
 * (ZFS_PROPS are "name=value" strings for zfs create -o, NULL-terminated;
 * may be NULL) or a directory (btrfs: a subvolume is created in it).
 * Returns 0, or -errno with the tool's message in ERR. */
int scratch_create(enum scratch_kind kind, const char *parent, const char *run_id, const char *suffix,
		   const char *const *zfs_props, struct scratch *ret, struct strbuf *err);

/* Creates the ZFS volume "<PARENT>/iotriage-<RUN_ID>-<SUFFIX>" of BYTES
 * (ZFS_PROPS as above: volblocksize=...), tagged like a dataset (kind
 * SCRATCH_ZFS: removed and swept as one), its block device in RET->path
 * (/dev/zvol/NAME, waited for up to SCRATCH_ZVOL_WAIT_MS). Returns 0, or
 * -ENODEV when no device appeared (zfs-fuse; OpenZFS without udev: the
 * volume is removed again), or -errno with the tool's message in ERR. */
#define SCRATCH_ZVOL_WAIT_MS 10000
int scratch_create_zvol(const char *parent, const char *run_id, const char *suffix, uint64_t bytes,
			const char *const *zfs_props, struct scratch *ret, struct strbuf *err);

/* Removes S and everything in it. Returns 0 or -errno (message in ERR). */
int scratch_destroy(const struct scratch *s, struct strbuf *err);

/* Areas directly under PARENT that carry the prefix and a tag whose owner
 * is gone. Fills up to MAX entries of RET; returns how many (or -errno). */
int scratch_find_stale(enum scratch_kind kind, const char *parent, struct scratch *ret, size_t max);

/* Sets a ZFS property on a dataset (zfs set NAME=VALUE DATASET). */
int scratch_zfs_set(const char *dataset, const char *assignment, struct strbuf *err);
/* Reads one ZFS property's value (zfs get -H -o value). */
int scratch_zfs_get(const char *dataset, const char *property, char *buf, size_t len);

#endif
