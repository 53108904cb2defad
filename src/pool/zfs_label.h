/* pool/zfs_label.h: the ashift a ZFS member really has, from its label.
 *
 * The pool's `ashift` property says only what was asked at creation (0:
 * "let ZFS choose"); the sector size ZFS then wrote with is in each vdev's
 * label, which `zdb -l DEVICE` prints (OpenZFS and zfs-fuse alike: LABEL 0..3,
 * each with a vdev_tree holding "ashift: N"). zfs-fuse, for one, chooses 12
 * on loop devices with 512-byte sectors.
 */
#ifndef IOTRIAGE_POOL_ZFS_LABEL_H
#define IOTRIAGE_POOL_ZFS_LABEL_H

#include <stddef.h>

/* The ashift of the first label's vdev_tree in TEXT (zdb -l's output).
 * Returns 9..16, or -EINVAL when TEXT has no label with a vdev tree and an
 * ashift in that range. Pure. */
int zfs_label_ashift(const char *text, size_t len);

/* Runs `zdb -l DEVICE` and parses it. Returns the ashift, -ENOENT when zdb
 * is not installed, -EIO when it failed, -EINVAL as above. */
int zfs_member_ashift(const char *device);

#endif
