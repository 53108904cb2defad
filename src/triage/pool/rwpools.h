/* triage/pool/rwpools.h: the procedure of rwpool POOL, rwpools and runall: the
 * pools found (the one named, or every ZFS pool with a mount point and
 * mounted btrfs file system), each written and read in turn
 * (triage/pool/rwpool.h), and for runall every pool's members read
 * (triage/media/read_pool.h). Steps are logged; what is shown of each pool as it
 * finishes is the caller's (POOL_DONE, MEMBERS_READ). Nothing is written
 * to stdout. */
#ifndef IOTRIAGE_TRIAGE_RWPOOLS_H
#define IOTRIAGE_TRIAGE_RWPOOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "basic/progress.h"
#include "output/json.h"
#include "pool/target.h"
#include "store/store.h"
#include "triage/media/read_batch.h"
#include "triage/media/read_pool.h"
#include "triage/pool/rwpool.h"

/* runall: the members of each pool, read. */
struct pool_reads {
	struct read_batch batches[64];
	struct pool_layout layouts[64];
	size_t count;
};

/* One run of rwpool, rwpools or runall. */
struct pools_run {
	const char *command;
	bool one, with_disks;
	uint64_t size;             /* bytes written and read per pool */
	const char *fstype;        /* rwpool POOL: zfs, btrfs or dir; NULL: detected */
	uint64_t read_size;        /* runall: bytes read from each member */
	const struct progress *progress; /* copied fresh for each pass; never NULL while running */
	void (*pool_done)(const struct rwpool_result *res);                   /* NULL: nothing */
	void (*members_read)(const char *pool, const struct read_batch *b);   /* NULL: nothing */
	struct pool_target *targets;
	size_t ntargets;
	struct rwpool_result *results; /* the caller allocates NTARGETS (at least 1) */
	size_t done;                /* pools written and read */
	struct pool_reads *reads;   /* runall; the caller allocates it */
	int status;                 /* 1 when anything failed */
};

/* The pools: the one named ID (p->one), or every pool here. */
void rwpools_find_targets(struct pools_run *p, const char *id);
/* Each pool written and read under RUN_ID, until an interrupt. */
void rwpools_write_and_read(struct pools_run *p, const char *run_id);
/* runall: each ZFS pool's and btrfs file system's members read and judged
 * against the history in DB_PATH. */
void rwpools_read_members(struct pools_run *p, const char *db_path);
/* "operation", "pools" and (runall) "pool_disks" in J. */
void rwpools_json(struct json *j, const struct pools_run *p);
void rwpools_release(struct pools_run *p);
/* runall's read batches stored as run RUN_ID. Returns 0 or -errno. */
int rwpools_store(struct store *s, const char *run_id, int64_t started, const struct pool_reads *reads);

#endif
