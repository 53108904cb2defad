/* cmd/volumes.h: the volumes command's list of mounts, shared between the
 * discovery (volumes_discover.c: mountinfo, zfs get, libblkid) and the
 * command (cmd_volumes.c: the read test, the table, the document). */
#ifndef IOTRIAGE_CMD_VOLUMES_H
#define IOTRIAGE_CMD_VOLUMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bench/job.h"
#include "fs/mounts.h"
#include "pool/zfs_datasets.h"

enum volume_status { VOLUME_OK, VOLUME_ERROR, VOLUME_SKIPPED };

struct volume {
	const struct mount_entry *m;
	char kind[8];               /* "zfs", "btrfs", "fs" */
	char vol_id[96];            /* "zfs:<guid>", "btrfs:<uuid>/<subvolid>", "uuid:<uuid>", "dev:8:3" */
	char vol_id_short[32];      /* the table's VolID */
	char name[256];
	char pool[256];             /* zpool, btrfs label, or "none" */
	char mapping[1024];         /* the dataset or device behind it */
	char subvolume[256];        /* btrfs only */
	char compression[32];       /* ZFS only */
	uint64_t recordsize;        /* ZFS only */
	char primarycache[16];      /* ZFS only */

	enum volume_status status;
	char reason[512];           /* why it errored or was skipped */
	char note[512];             /* what an ok figure needs said next to it */
	const char *temp_file;      /* "O_TMPFILE", "named" or NULL */
	const char *access;         /* "O_DIRECT", "buffered" or NULL */
	const char *read_from;      /* "media", "pool", "cache" or NULL */
	char read_from_reason[256];
	bool caches_dropped;
	uint64_t requested_bytes, free_bytes, file_bytes;
	size_t stale_removed;
	char engine_reason[160];
	struct job_result *res;
};

struct skipped_mount {
	const struct mount_entry *m;
	char reason[320];
};

struct volume_list {
	struct mount_table mounts;
	struct zfs_datasets datasets;
	struct volume *vols;
	size_t count;
	struct skipped_mount *skipped;
	size_t nskipped;
	size_t not_matched;         /* mounts left out by --match */
};

/* Reads /proc/self/mountinfo (and, when ZFS is mounted, zfs get) and
 * fills LIST: a volume for each mount to test, a skipped entry (with its
 * reason) for the others. GLOBS (NGLOBS of them) select mounts by mount
 * point or source; the root file system is a volume only when one names it.
 * Returns 0, or -errno after logging. */
int volumes_discover(const char *const *globs, size_t nglobs, struct volume_list *list);
void volume_list_release(struct volume_list *list);

#endif
