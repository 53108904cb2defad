/* pool/areas.h: the temporary areas a pool-level test (benchpool, rwpool,
 * matrix, doctor) writes into, made with pool/scratch under a resolved
 * pool/target: a ZFS dataset, a btrfs subvolume or a directory, tagged with
 * its owner so that a dead run's leftovers are removed by the next run.
 *
 * Every step is logged (basic/log), each line starting with the caller's
 * TAG and the pool: "BENCHPOOL (tank): created temporary ZFS dataset ...".
 * Nothing here writes to stdout. */
#ifndef IOTRIAGE_POOL_AREAS_H
#define IOTRIAGE_POOL_AREAS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pool/scratch.h"
#include "pool/target.h"

/* A kind of tagged test area, a row by scratch_kind: a ZFS dataset, a btrfs
 * subvolume, a directory, a CephFS directory, an RBD image. A pool kind
 * (pool/kind.h) names the area kind it makes; a block area (an image; a
 * zvol would be another row) has no directory to write files in. */
struct pool_area_kind {
	const char *word;         /* "ZFS dataset", in log lines */
	bool block;               /* a block device or image, not a directory */
	bool records;             /* made with a record size (and primarycache=metadata) */
	const char *reads;        /* how reads in it reach the pool, in a sentence */
	int (*destroy)(const struct scratch *s, struct strbuf *err);
	/* Areas under T whose owner is gone: up to MAX. Count or -errno. */
	int (*find_stale)(const struct pool_target *t, struct scratch *ret, size_t max);
	/* The compression on an area (NULL: none that the area can have). */
	void (*compression)(const struct scratch *area, char *buf, size_t len);
};

const struct pool_area_kind *pool_area_kind(enum scratch_kind k);

/* Removes areas under T that carry our tag and whose owner is gone,
 * logging each (TAG starts the log lines: "BENCHPOOL"). Returns how many. */
int pool_areas_remove_stale(const struct pool_target *t, const char *tag);
/* Creates "iotriage-<RUN_ID>-<SUFFIX>" under T: on ZFS with RECORDSIZE
 * (falling back to 128K where larger is refused) and primarycache=metadata,
 * so the ARC keeps no file data and reads come from the pool. Logs. Returns
 * 0 or -errno. */
int pool_area_create(const struct pool_target *t, const char *run_id, const char *suffix, const char *recordsize,
		     struct scratch *ret, const char *tag);
/* Creates the zvol "iotriage-<RUN_ID>-<SUFFIX>" of BYTES in T's pool with
 * VOLBLOCKSIZE and primarycache=metadata (pool/scratch: tagged, its device
 * in RET->path). Logs. Returns 0 or -errno (-ENODEV: this ZFS makes no zvol
 * device). */
int pool_area_create_zvol(const struct pool_target *t, const char *run_id, const char *suffix, uint64_t bytes,
			  const char *volblocksize, struct scratch *ret, const char *tag);
/* Creates the RBD image "iotriage-<RUN_ID>-<SUFFIX>" of BYTES in T's Ceph
 * pool, tagged with its owner (pool/rbd_images). Logs. Returns 0 or -errno. */
int pool_area_create_image(const struct pool_target *t, const char *run_id, const char *suffix, uint64_t bytes,
			   struct scratch *ret, const char *tag);
/* Removes the N AREAS of POOL, logging each removal or failure. */
void pool_areas_destroy(struct scratch *areas, size_t n, const char *pool, const char *tag);
/* The compression on AREA as its file system reports it; "off" when none. */
void pool_area_compression(const struct pool_target *t, const struct scratch *area, char *buf, size_t len);
/* Whether a compression property VALUE means compression is on (not "",
 * "off", "none" or "-"). */
bool pool_compression_is_on(const char *value);

#endif
