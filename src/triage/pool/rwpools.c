/* triage/pool/rwpools.c: rwpool, rwpools and runall's procedure (see rwpools.h). */
#include "triage/pool/rwpools.h"

#include <stdlib.h>

#include "basic/interrupt.h"
#include "basic/log.h"
#include "triage/media/read_verdict.h"

/* The pools: the one named, or every pool here. */
void rwpools_find_targets(struct pools_run *p, const char *id)
{
	if (p->one) {
		p->targets = calloc(1, sizeof(*p->targets));
		if (!p->targets)
			abort();
		if (pool_target_resolve(id, p->fstype, &p->targets[0]) == 0)
			p->ntargets = 1;
		else
			p->status = 1;
	} else {
		p->ntargets = pool_target_list_all(&p->targets);
		if (p->ntargets == 0) {
			log_msg(LOG_ERR, "%s: no ZFS pool with a mount point and no mounted btrfs file system here",
				p->command);
			p->status = 1;
		}
	}
}

/* Each pool written and read in turn, told to POOL_DONE. */
void rwpools_write_and_read(struct pools_run *p, const char *run_id)
{
	struct progress live = *p->progress;
	struct progress *pr = &live;
	progress_start(pr, p->ntargets * 2 * p->size, true);
	for (; p->done < p->ntargets && !interrupt_requested(); p->done++) {
		struct rwpool_result *res = &p->results[p->done];
		rwpool_run(&p->targets[p->done], p->size, run_id, pr, res);
		if (res->status)
			p->status = 1;
		progress_clear(pr); /* for the pool's lines; the next write draws it again */
		if (p->pool_done)
			p->pool_done(res);
	}
	progress_finish(pr);
}

/* runall: each ZFS pool's and btrfs file system's members, read. */
void rwpools_read_members(struct pools_run *p, const char *db_path)
{
	struct pool_reads *reads = p->reads;
	for (size_t i = 0; i < p->done && reads->count < 64 && !interrupt_requested(); i++) {
		if (!p->targets[i].kind->pool)
			continue;
		struct read_batch *b = &reads->batches[reads->count];
		*b = (struct read_batch){ .regression_pct = DEFAULT_REGRESSION_PCT, .group_by = READ_GROUP_VDEV };
		readtest_opts_default(&b->opts);
		b->opts.size = p->read_size;
		if (pool_read_batch_prepare(p->targets[i].pool, b, &reads->layouts[reads->count]) < 0) {
			p->status = 1;
			read_batch_release(b);
			pool_layout_release(&reads->layouts[reads->count]);
			continue;
		}
		struct progress live = *p->progress;
		b->progress = &live;
		if (read_batch_execute(b) || read_batch_count(b, READTEST_OK) == 0)
			p->status = 1;
		b->progress = NULL;
		read_batch_conclude(b, db_path);
		if (p->members_read)
			p->members_read(p->targets[i].pool, b);
		reads->count++;
	}
}

void rwpools_json(struct json *j, const struct pools_run *p)
{
	json_string(j, "operation", p->command);
	json_begin_array(j, "pools");
	for (size_t i = 0; i < p->done; i++)
		rwpool_result_json(j, &p->results[i]);
	json_end_array(j);
	if (!p->with_disks)
		return;
	json_begin_array(j, "pool_disks");
	for (size_t i = 0; i < p->reads->count; i++) {
		json_begin_object(j, NULL);
		pool_layout_json(j, &p->reads->layouts[i]);
		read_batch_document(&p->reads->batches[i], j);
		json_end_object(j);
	}
	json_end_array(j);
}

void rwpools_release(struct pools_run *p)
{
	for (size_t i = 0; i < p->reads->count; i++) {
		read_batch_release(&p->reads->batches[i]);
		pool_layout_release(&p->reads->layouts[i]);
	}
	for (size_t i = 0; i < p->done; i++)
		rwpool_result_release(&p->results[i]);
	free(p->reads);
	free(p->results);
	free(p->targets);
}

int rwpools_store(struct store *s, const char *run_id, int64_t started, const struct pool_reads *reads)
{
	for (size_t i = 0; i < reads->count; i++) {
		int r = read_batch_store(s, run_id, started, &reads->batches[i]);
		if (r < 0)
			return r;
	}
	return 0;
}
