/* pool/btrfs.h: a btrfs file system's member devices, from
 * `btrfs filesystem show --raw` (no mount needed). Pure, tested on captures. */
#ifndef IOTRIAGE_POOL_BTRFS_H
#define IOTRIAGE_POOL_BTRFS_H

#include "pool/zfs.h"
#include "basic/strbuf.h"

/* Finds the file system whose label or UUID is ID and fills RET with its
 * devices (vdev "btrfs"). Returns 0 or -ENOENT. */
int btrfs_parse_show(const char *text, const char *id, struct pool_layout *ret);
/* Appends "'label' (uuid)" for every file system in TEXT, comma separated. */
void btrfs_list_names(const char *text, struct strbuf *out);
/* Copies the UUID of each file system in TEXT (at most MAX) into RET.
 * Returns how many. */
size_t btrfs_list_uuids(const char *text, char (*ret)[64], size_t max);

#endif
