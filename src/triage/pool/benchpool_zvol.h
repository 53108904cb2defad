/* triage/pool/benchpool_zvol.h: benchpool --zvol: the pool measured through a
 * zvol, as a virtual machine's disk sees it.
 *
 * One tagged zvol of SIZE (pool/areas: volblocksize as asked,
 * primarycache=metadata so reads come from the pool), written whole once
 * with the run's data so that no read lands in a hole (a fresh zvol reads
 * zeros without a disk I/O), then fio and the built-in engine on its block
 * device: the sequential pass over the device, the 4 KiB random pass with
 * eight jobs on eighths of it. The engines that need a file system are
 * skipped, saying so. Removed like every area, on every exit path. Logs
 * under BENCHPOOL; never prints.
 */
#ifndef IOTRIAGE_TRIAGE_BENCHPOOL_ZVOL_H
#define IOTRIAGE_TRIAGE_BENCHPOOL_ZVOL_H

#include <stdint.h>

#include "bench/pattern.h"
#include "pool/scratch.h"
#include "pool/target.h"
#include "poolbench/poolbench.h"

/* The zvol volblocksize benchpool uses when none is asked: OpenZFS 2.2's default. */
#define BENCHPOOL_ZVOL_VOLBLOCKSIZE "16K"

/* What the zvol gives benchpool: its area, its compression, the engines'
 * context on its device, and its volblocksize in bytes. */
struct benchpool_zvol {
	struct scratch area;
	char compression[32];
	struct pb_context ctx;
	unsigned volblocksize;
	uint64_t filled_bytes;     /* written whole before the tests */
};

/* Makes a zvol of SIZE in T's pool with VOLBLOCKSIZE (NULL: the default)
 * named after RUN_ID, fills it, and sets RET's engine context (RUNTIME_S,
 * PATTERN) on its device. Returns 0 (RET->area made: the caller removes
 * it), or -EINVAL (not a pool that has zvols), -ENOSPC (not enough free
 * space, both figures logged), -ENODEV (this ZFS has no zvol devices),
 * -EINTR or another -errno, logged; after a failure RET->area.name is set
 * when the zvol was made and must still be removed. */
int benchpool_zvol_prepare(const struct pool_target *t, uint64_t size, unsigned runtime_s, enum data_pattern pattern,
			   const char *volblocksize, const char *run_id, struct benchpool_zvol *ret);

#endif
