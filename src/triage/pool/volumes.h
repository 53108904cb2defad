/* triage/pool/volumes.h: the per-volume read test. Which mounts are volumes and
 * what each one is (volumes_discover.c: mountinfo, zfs get, libblkid); on
 * each, a tagged test file written, dropped from the caches and read back,
 * the figure labelled media, pool or cache (volumes_test.c); the stored
 * forms of the results, JSON members and database rows (volumes_record.c).
 * Nothing here prints: the volumes command draws the table. */
#ifndef IOTRIAGE_TRIAGE_VOLUMES_H
#define IOTRIAGE_TRIAGE_VOLUMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "basic/progress.h"
#include "bench/job.h"
#include "fs/mounts.h"
#include "output/json.h"
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
	size_t counts[3];           /* volumes by enum volume_status, after volumes_run */
};

#define VOLUMES_MAX_MATCH 32

/* What the test does on each volume. */
struct volumes_settings {
	uint64_t size;              /* the test file, capped at 90% of the free space */
	uint32_t bs;                /* read block size */
	unsigned iodepth;
	uint64_t runtime_ns;        /* each read's time cap */
	const char *globs[VOLUMES_MAX_MATCH]; /* --match: mount point or source */
	size_t nglobs;
	struct progress *progress;  /* told the bytes written and read over every volume; NULL: none */
};

/* Reads /proc/self/mountinfo (and, when ZFS is mounted, zfs get) and
 * fills LIST: a volume for each mount to test, a skipped entry (with its
 * reason) for the others. GLOBS (NGLOBS of them) select mounts by mount
 * point or source; the root file system is a volume only when one names it.
 * Returns 0, or -errno after logging. */
int volumes_discover(const char *const *globs, size_t nglobs, struct volume_list *list);
void volume_list_release(struct volume_list *list);

/* Discovers the volumes (as above, with S's globs) and tests each one in
 * turn: stale test files of runs that are gone swept, the size planned,
 * the test file (tagged with RUN_ID) written, the caches dropped (as
 * root), the file read back with the job engine (O_DIRECT, else
 * buffered), the figure labelled, the file removed. Logs one line per
 * volume, and an error when there is no volume to test. After a signal
 * the volumes left are errors ("not tested: interrupted"). Fills
 * LIST->counts. Returns 0 (whatever each volume's status), or the
 * discovery's -errno; LIST is to be released either way. */
int volumes_run(const struct volumes_settings *s, const char *run_id, struct volume_list *list);

/* "ok", "error" or "skipped". */
const char *volume_status_name(enum volume_status s);

/* The document's members: parameters, volumes, skipped, summary. */
void volumes_json(struct json *j, const struct volume_list *list, const struct volumes_settings *s);

struct store;
/* One database row per volume, under run RUN_ID. Returns 0 or -errno. */
int volumes_store(struct store *st, const char *run_id, const struct volume_list *list);

#endif
