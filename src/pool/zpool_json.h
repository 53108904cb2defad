/* pool/zpool_json.h: `zpool status -j POOL` (OpenZFS 2.3 and later) as the
 * same pool_layout as pool/zfs.h's text parser, with each leaf's real device
 * path from the JSON (the text without -P has only names). Pure; tested on
 * output captured from OpenZFS 2.3.2 in the VM (tests/data/openzfs232_*).
 *
 * What the JSON says differently from the text, and how it is read:
 *   - classes are members of the pool object: "vdevs" (the root, whose
 *     children are the data vdevs), "logs", "special", "dedup", "l2cache",
 *     "spares";
 *   - a raidz vdev's vdev_type is "raidz" for every parity and a dRAID vdev
 *     has none: the kind comes from the name, as in the text;
 *   - a device that cannot be opened is "CANT_OPEN" (the text's UNAVAIL) and
 *     carries "was";
 *   - a distributed spare's vdev_type is "dspare".
 * Truncated or unknown output is an error (-EINVAL), never a partial layout.
 */
#ifndef IOTRIAGE_POOL_ZPOOL_JSON_H
#define IOTRIAGE_POOL_ZPOOL_JSON_H

#include <stddef.h>

#include "pool/zfs.h"

/* POOL's layout from TEXT (LEN bytes). Returns 0, or -EINVAL (not JSON, no
 * such pool in it, no data vdevs, a vdev kind not known, nesting deeper than
 * ZFS's). */
int zfs_parse_status_json(const char *text, size_t len, const char *pool, struct pool_layout *ret);

#endif
