/* triage/pool/rwpool.h: the simple pool-level test of rwpool, rwpools and
 * runall. An incompressible file is written straight into the pool's mount
 * point (inside a tagged scratch directory; no dataset is created), flushed,
 * and read back. A file that does not fit in the free space is shrunk to
 * what fits, and the log says so.
 *
 * The pool's settings and state are judged before the write (against its
 * 1 MiB writes) and its members sampled while it writes and reads
 * (triage/pool/pool_evidence.h).
 *
 * Every step is logged ("RWPOOL (POOL): ...", "WRITE-POOL-FILE (POOL):
 * completed: ...", "READ-POOL-FILE ..."); nothing is written to stdout. */
#ifndef IOTRIAGE_TRIAGE_RWPOOL_H
#define IOTRIAGE_TRIAGE_RWPOOL_H

#include <stdbool.h>
#include <stdint.h>

#include "basic/progress.h"
#include "output/json.h"
#include "pool/target.h"
#include "poolbench/poolbench.h"
#include "triage/pool/pool_evidence.h"

/* One pool's write-then-read. */
struct rwpool_result {
	struct pool_target target;
	int status;              /* 0 ok, else -errno and the reason is set */
	char reason[300];
	uint64_t requested;
	struct pb_outcome outcome;
	char compression[32];
	bool truncated;          /* less than REQUESTED was written: that is what fitted */
	struct pool_evidence evidence; /* settings before the write, member telemetry during write and read */
};

/* Writes SIZE bytes (less when they do not fit) into TARGET's mount point
 * and reads them back; the scratch directory is named after RUN_ID and
 * removed afterwards. Fills *RES (release with rwpool_result_release()).
 * PROGRESS (NULL for none), started by the caller with 2 x SIZE bytes for
 * this pool, is told the bytes written and read. */
void rwpool_run(const struct pool_target *target, uint64_t size, const char *run_id, struct progress *progress,
		struct rwpool_result *res);
void rwpool_result_release(struct rwpool_result *res);

/* The result as one JSON object (an element of the document's "pools"). */
void rwpool_result_json(struct json *j, const struct rwpool_result *r);

#endif
