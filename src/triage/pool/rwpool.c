/* triage/pool/rwpool.c: a file written into a pool's mount point and read back. */
#include "triage/pool/rwpool.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/statfs.h>

#include "basic/humanize.h"
#include "basic/log.h"
#include "pool/arc.h"
#include "pool/areas.h"

#define FREE_SPACE_MARGIN (64ULL << 20)

/* What fits of SIZE in the mount point, leaving a margin; logged when less. */
static uint64_t fit_to_free_space(const struct pool_target *target, uint64_t size, struct rwpool_result *res)
{
	/* Never more than there is room for, and say so: a file silently
	 * shrunk (790 MiB of an intended 2 GB) would give a figure for a size
	 * nobody asked for. */
	struct statfs sf;
	if (statfs(target->mountpoint, &sf) == 0) {
		uint64_t avail = (uint64_t)sf.f_bavail * sf.f_bsize;
		uint64_t fits = avail > FREE_SPACE_MARGIN ? ((avail - FREE_SPACE_MARGIN) & ~((1ULL << 20) - 1)) : 0;
		if (fits < size) {
			char want[32], have[32];
			human_iec((double)size, want, sizeof(want));
			human_iec((double)fits, have, sizeof(have));
			log_msg(LOG_WARN, "RWPOOL (%s): only %s fits; writing %s instead of %s", target->pool, have, have,
				want);
			size = fits;
			res->truncated = true;
		}
	}
	return size;
}

static void log_figures(const struct rwpool_result *res)
{
	const char *pool = res->target.pool;
	for (size_t i = 0; i < res->outcome.nfigures; i++) {
		const struct pb_figure *f = &res->outcome.figures[i];
		char summary[160];
		human_dd_summary(f->bytes, f->seconds, summary, sizeof(summary));
		log_msg(LOG_INFO, "%s (%s): completed: %s%s%s%s", f->is_read ? "READ-POOL-FILE" : "WRITE-POOL-FILE", pool,
			summary, f->is_read ? " (served by: " : "", f->is_read ? f->cache : "", f->is_read ? ")" : "");
	}
	if (res->outcome.nfigures == 2 && strcmp(res->outcome.figures[1].cache, PB_CACHE_CACHE) == 0)
		log_msg(LOG_INFO, "READ-POOL-FILE (%s): the read-back can be served by the ZFS ARC: treat it as an "
				  "ARC check, not a pool read rate (benchpool measures one)", pool);
}

void rwpool_run(const struct pool_target *target, uint64_t size, const char *run_id, struct progress *progress,
		struct rwpool_result *res)
{
	*res = (struct rwpool_result){ .target = *target, .requested = size };
	pb_outcome_init(&res->outcome, PB_BUILTIN);
	pool_evidence_init(&res->evidence, "RWPOOL");
	if (target->kind->pool)
		pool_evidence_settings(&res->evidence, target, NULL, 1U << 20);
	/* A plain directory in the mount point: rwpool creates no dataset. */
	struct pool_target dir = *target;
	dir.kind = &pool_kind_dir;
	snprintf(dir.parent, sizeof(dir.parent), "%s", target->mountpoint);
	pool_areas_remove_stale(&dir, "RWPOOL");
	size = fit_to_free_space(target, size, res);
	progress_drop(progress, 2 * (res->requested - size));
	if (size == 0) {
		res->status = -ENOSPC;
		snprintf(res->reason, sizeof(res->reason), "no free space in %s", target->mountpoint);
		return;
	}
	struct scratch area;
	if (pool_area_create(&dir, run_id, "rwpool", NULL, &area, "RWPOOL") < 0) {
		progress_drop(progress, 2 * size);
		res->status = -EIO;
		snprintf(res->reason, sizeof(res->reason), "cannot create a directory in %s", target->mountpoint);
		return;
	}
	if (target->kind->root_dataset) /* the file is in the pool's root dataset */
		scratch_zfs_get(target->parent, "compression", res->compression, sizeof(res->compression));
	else
		pool_area_compression(target, &area, res->compression, sizeof(res->compression));
	/* No dataset of ours, so nothing stops the ARC keeping what was written; but it holds at most its
	 * maximum, and reading a file of more than twice that from its start evicts the end before it is
	 * reached: then the read-back comes from the pool. */
	struct arc_size arc = { 0 };
	if (target->kind->arc)
		arc_read(&arc);
	bool arc_holds = target->kind->arc && !(arc.max_bytes && size > 2 * arc.max_bytes);
	if (target->kind->arc && !arc_holds)
		log_msg(LOG_INFO, "RWPOOL (%s): the file is more than twice the ARC's maximum (%llu bytes): the read-back "
				  "comes from the pool", target->pool, (unsigned long long)arc.max_bytes);
	struct pb_context c = {
		.throughput_dir = area.path,
		.size = size,
		.runtime_s = 3600,
		.pattern = PATTERN_RANDOM,
		.direct_ok = pb_direct_supported(area.path),
		.arc_data_cached = arc_holds,
		.progress = progress,
	};
	if (target->kind->pool)
		pool_evidence_start(&res->evidence, target);
	int r = pb_write_then_read(&c, area.path, "iotriage-rwpool.dat", &res->outcome);
	pool_evidence_stop(&res->evidence);
	if (r < 0) {
		res->status = r;
		snprintf(res->reason, sizeof(res->reason), "%s", res->outcome.reason);
		log_msg(LOG_ERR, "RWPOOL (%s): %s", target->pool, res->reason);
	}
	log_figures(res);
	pool_areas_destroy(&area, 1, target->pool, "RWPOOL");
}

void rwpool_result_release(struct rwpool_result *res)
{
	pb_outcome_release(&res->outcome);
	pool_evidence_release(&res->evidence);
}

void rwpool_result_json(struct json *j, const struct rwpool_result *r)
{
	json_begin_object(j, NULL);
	json_string(j, "pool", r->target.pool);
	json_string(j, "fstype", r->target.kind->fstype);
	json_string(j, "mountpoint", r->target.mountpoint);
	json_string(j, "status", r->status ? (r->outcome.state == PB_INTERRUPTED ? "interrupted" : "error") : "ok");
	json_string(j, "reason", r->reason[0] ? r->reason : NULL);
	json_uint(j, "requested_bytes", r->requested);
	json_bool(j, "truncated_to_fit", r->truncated);
	json_string(j, "compression", r->compression[0] ? r->compression : NULL);
	json_begin_array(j, "figures");
	for (size_t i = 0; i < r->outcome.nfigures; i++) {
		const struct pb_figure *f = &r->outcome.figures[i];
		json_begin_object(j, NULL);
		json_string(j, "direction", f->is_read ? "read" : "write");
		json_uint(j, "bytes", f->bytes);
		json_double(j, "seconds", f->seconds);
		json_double(j, "bw_bytes_per_s", f->bw_bytes_per_s);
		if (f->is_read)
			json_string(j, "cache", f->cache);
		else
			json_string(j, "pattern", f->pattern);
		json_end_object(j);
	}
	json_end_array(j);
	pool_evidence_json(j, &r->evidence);
	json_end_object(j);
}
