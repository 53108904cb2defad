/* rwpool POOL, rwpools, runall: the spec's older pool-level test, kept
 * simple. An incompressible file is written straight into the pool's
 * mount point (inside a tagged scratch directory; no dataset is created)
 * and read back. runall adds readpooldisks for each pool: one command to
 * attach to a support case. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>

#include "basic/humanize.h"
#include "basic/interrupt.h"
#include "basic/log.h"
#include "basic/parse.h"
#include "cmd/bench_target.h"
#include "cmd/commands.h"
#include "cmd/poolbench_cmd.h"
#include "cmd/readdisks.h"
#include "cmd/runctx.h"
#include "pool/zfs.h"

#define RWPOOL_DEFAULT_SIZE (1ULL << 30)
#define FREE_SPACE_MARGIN (64ULL << 20)

enum { OPT_SIZE = OPT_COMMAND_BASE, OPT_FSTYPE, OPT_READ_SIZE };

struct rwpool_settings {
	const char *command;
	uint64_t size;
	const char *fstype;
	uint64_t read_size;  /* runall: readpooldisks' --size */
};

static int handle_option(int id, const char *arg, void *state)
{
	struct rwpool_settings *s = state;
	uint64_t v;
	switch (id) {
	case OPT_SIZE:
	case OPT_READ_SIZE:
		if (parse_size(arg, &v) < 0 || v < (1U << 20) || v % (1U << 20))
			return opts_usage_error(s->command, "invalid %s '%s': a size of at least 1M in whole MiB (256M, 2G)",
						id == OPT_SIZE ? "--size" : "--read-size", arg);
		*(id == OPT_SIZE ? &s->size : &s->read_size) = v;
		return 0;
	case OPT_FSTYPE:
		if (strcmp(arg, "zfs") && strcmp(arg, "btrfs") && strcmp(arg, "dir"))
			return opts_usage_error(s->command, "invalid --fstype '%s': expected zfs, btrfs or dir", arg);
		s->fstype = arg;
		return 0;
	}
	return 1;
}

/* One pool's write-then-read. */
struct rwpool_result {
	struct bench_target target;
	int status;              /* 0 ok, else the reason is set */
	char reason[300];
	uint64_t requested;
	struct pb_outcome outcome;
	char compression[32];
	bool truncated;
};

static void rwpool_one(const struct bench_target *target, uint64_t size, const char *run_id, struct rwpool_result *res)
{
	*res = (struct rwpool_result){ .target = *target, .requested = size };
	pb_outcome_init(&res->outcome, PB_BUILTIN);
	const char *pool = target->pool;
	/* A plain directory in the mount point: rwpool creates no dataset. */
	struct bench_target dir = *target;
	dir.kind = SCRATCH_DIR;
	snprintf(dir.parent, sizeof(dir.parent), "%s", target->mountpoint);
	pool_areas_remove_stale(&dir, "RWPOOL");

	/* Never more than there is room for, and say so: the spec's tool
	 * silently wrote 790 MiB of an intended 2 GB. */
	struct statfs sf;
	if (statfs(target->mountpoint, &sf) == 0) {
		uint64_t avail = (uint64_t)sf.f_bavail * sf.f_bsize;
		uint64_t fits = avail > FREE_SPACE_MARGIN ? ((avail - FREE_SPACE_MARGIN) & ~((1ULL << 20) - 1)) : 0;
		if (fits < size) {
			char want[32], have[32];
			human_iec((double)size, want, sizeof(want));
			human_iec((double)fits, have, sizeof(have));
			log_msg(LOG_WARN, "RWPOOL (%s): only %s fits; writing %s instead of %s", pool, have, have, want);
			size = fits;
			res->truncated = true;
		}
	}
	if (size == 0) {
		res->status = -ENOSPC;
		snprintf(res->reason, sizeof(res->reason), "no free space in %s", target->mountpoint);
		return;
	}
	struct scratch area;
	if (pool_area_create(&dir, run_id, "rwpool", NULL, &area, "RWPOOL") < 0) {
		res->status = -EIO;
		snprintf(res->reason, sizeof(res->reason), "cannot create a directory in %s", target->mountpoint);
		return;
	}
	if (target->kind == SCRATCH_ZFS) /* the file is in the pool's root dataset */
		scratch_zfs_get(target->parent, "compression", res->compression, sizeof(res->compression));
	else
		pool_area_compression(target, &area, res->compression, sizeof(res->compression));
	struct pb_context c = {
		.throughput_dir = area.path,
		.size = size,
		.runtime_s = 3600,
		.pattern = PATTERN_RANDOM,
		.direct_ok = pb_direct_supported(area.path),
		/* No dataset of ours, so nothing stops the ARC from keeping what was written. */
		.arc_data_cached = target->kind == SCRATCH_ZFS,
	};
	if (pb_write_then_read(&c, area.path, "iotriage-rwpool.dat", &res->outcome) < 0) {
		res->status = -EIO;
		snprintf(res->reason, sizeof(res->reason), "%s", res->outcome.reason);
	}
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
	pool_areas_destroy(&area, 1, pool, "RWPOOL");
}

static void rwpool_json(struct json *j, const struct rwpool_result *r)
{
	json_begin_object(j, NULL);
	json_string(j, "pool", r->target.pool);
	json_string(j, "fstype", r->target.fstype);
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
	json_end_object(j);
}

static void rwpool_print(const struct rwpool_result *r)
{
	printf("%s (%s, %s):", r->target.pool, r->target.fstype, r->target.mountpoint);
	if (r->status) {
		printf(" failed: %s\n", r->reason);
		return;
	}
	for (size_t i = 0; i < r->outcome.nfigures; i++) {
		const struct pb_figure *f = &r->outcome.figures[i];
		char bytes[32], rate[32];
		human_iec((double)f->bytes, bytes, sizeof(bytes));
		human_rate(f->bw_bytes_per_s, rate, sizeof(rate));
		printf("  %s %s at %s%s%s%s", f->is_read ? "read" : "wrote", bytes, rate, f->is_read ? " (" : "",
		       f->is_read ? f->cache : "", f->is_read ? ")" : "");
	}
	putchar('\n');
}

/* ---- rwpool, rwpools, runall ---- */

static const struct opt_def rwpool_opts[] = {
	{ "size", 's', "SIZE", "bytes to write and read back (default 1G; less when it does not fit, and said)", OPT_SIZE, { 0 } },
	{ "fstype", 0, "TYPE", "zfs, btrfs or dir (detected when omitted)", OPT_FSTYPE, { 0 } },
	OPT_END,
};

static const struct opt_def runall_opts[] = {
	{ "size", 's', "SIZE", "rwpool: bytes to write and read back per pool (default 1G)", OPT_SIZE, { 0 } },
	{ "read-size", 0, "SIZE", "readpooldisks: bytes to read from each member (default 1000M)", OPT_READ_SIZE, { 0 } },
	OPT_END,
};

struct pool_reads {
	struct read_batch batches[64];
	struct pool_layout layouts[64];
	size_t count;
};

static int store_all_batches(struct store *s, const struct run_ctx *rc, void *arg)
{
	struct pool_reads *reads = arg;
	for (size_t i = 0; i < reads->count; i++) {
		int r = read_batch_store(s, rc, &reads->batches[i]);
		if (r < 0)
			return r;
	}
	return 0;
}

/* rwpool (one pool), rwpools (all) and runall (all, plus their disks). */
static int run_pools(const char *command, int argc, char **argv, struct global_opts *g)
{
	bool one = strcmp(command, "rwpool") == 0, with_disks = strcmp(command, "runall") == 0;
	const struct command_doc docs[] = {
		{ "rwpool", "rwpool [options] POOL",
		  "Writes an incompressible file into a pool's mount point (no dataset is created) and\n"
		  "reads it back. POOL is a ZFS pool name or GUID, a btrfs label or UUID, or a directory.\n"
		  "The bytes actually written are reported; a file that does not fit is shrunk, and said.",
		  rwpool_opts },
		{ "rwpools", "rwpools [options]",
		  "rwpool on every ZFS pool and mounted btrfs file system. It writes into every pool:\n"
		  "do not run it on a system whose other pools you do not own.", rwpool_opts },
		{ "runall", "runall [options]",
		  "rwpools, then readpooldisks for every pool: the one-command sweep to attach to a\n"
		  "support case. It writes into every pool and reads every pool member.", runall_opts },
	};
	const struct command_doc *doc = one ? &docs[0] : with_disks ? &docs[2] : &docs[1];
	struct rwpool_settings set = { .command = command, .size = RWPOOL_DEFAULT_SIZE, .read_size = READTEST_DEFAULT_SIZE };
	int first = opts_parse_command(doc, argc, argv, g, handle_option, &set);
	if (first < 0)
		return opts_command_status(first);
	if (one && argc - first != 1)
		return opts_usage_error(command, "expected one pool name, GUID, label, UUID or directory");
	if (!one && argc - first != 0)
		return opts_usage_error(command, "unexpected operand '%s' (rwpool POOL does one pool)", argv[first]);
	if (one && (!*argv[first] || argv[first][0] == '-' || strlen(argv[first]) > 255))
		return opts_usage_error(command, "'%s' is not a valid pool name, GUID, label, UUID or directory", argv[first]);

	struct run_ctx rc;
	if (run_ctx_begin(&rc, command, argc, argv, g))
		return 1;
	struct bench_target *targets = NULL;
	size_t ntargets = 0;
	int status = 0;
	if (one) {
		targets = calloc(1, sizeof(*targets));
		if (!targets)
			abort();
		if (bench_target_resolve(argv[first], set.fstype, &targets[0]) == 0)
			ntargets = 1;
		else
			status = 1;
	} else {
		ntargets = bench_target_list_all(&targets);
		if (ntargets == 0) {
			log_msg(LOG_ERR, "%s: no ZFS pool with a mount point and no mounted btrfs file system here", command);
			status = 1;
		}
	}
	struct rwpool_result *results = calloc(ntargets ? ntargets : 1, sizeof(*results));
	struct pool_reads *reads = calloc(1, sizeof(*reads));
	if (!results || !reads)
		abort();
	size_t done = 0;
	for (; done < ntargets && !interrupt_requested(); done++) {
		rwpool_one(&targets[done], set.size, rc.id, &results[done]);
		if (results[done].status)
			status = 1;
		if (!rc.json)
			rwpool_print(&results[done]);
	}
	/* runall: each ZFS pool's and btrfs file system's members, read. */
	for (size_t i = 0; with_disks && i < done && reads->count < 64 && !interrupt_requested(); i++) {
		if (targets[i].kind == SCRATCH_DIR)
			continue;
		struct read_batch *b = &reads->batches[reads->count];
		*b = (struct read_batch){ .regression_pct = DEFAULT_REGRESSION_PCT, .group_by = READ_GROUP_VDEV };
		readtest_opts_default(&b->opts);
		b->opts.size = set.read_size;
		if (pool_read_batch_prepare(targets[i].pool, b, &reads->layouts[reads->count]) < 0) {
			status = 1;
			read_batch_release(b);
			pool_layout_release(&reads->layouts[reads->count]);
			continue;
		}
		if (read_batch_execute(b) || read_batch_count(b, READTEST_OK) == 0)
			status = 1;
		read_batch_conclude(b, rc.db_path);
		if (!rc.json) {
			printf("\nMembers of %s:", targets[i].pool);
			read_batch_present(b, stdout);
		}
		reads->count++;
	}
	if (run_ctx_interrupted_status())
		status = run_ctx_interrupted_status();

	struct json j;
	json_init(&j);
	run_ctx_json_head(&rc, &j);
	json_string(&j, "operation", command);
	json_begin_array(&j, "pools");
	for (size_t i = 0; i < done; i++)
		rwpool_json(&j, &results[i]);
	json_end_array(&j);
	if (with_disks) {
		json_begin_array(&j, "pool_disks");
		for (size_t i = 0; i < reads->count; i++) {
			json_begin_object(&j, NULL);
			pool_layout_json(&j, &reads->layouts[i]);
			read_batch_document(&reads->batches[i], &j);
			json_end_object(&j);
		}
		json_end_array(&j);
	}
	status = run_ctx_finish(&rc, &j, status, with_disks ? store_all_batches : NULL, reads);
	json_release(&j);
	for (size_t i = 0; i < reads->count; i++) {
		read_batch_release(&reads->batches[i]);
		pool_layout_release(&reads->layouts[i]);
	}
	for (size_t i = 0; i < done; i++)
		pb_outcome_release(&results[i].outcome);
	free(reads);
	free(results);
	free(targets);
	return status;
}

int cmd_rwpool(int argc, char **argv, struct global_opts *g)
{
	return run_pools("rwpool", argc, argv, g);
}

int cmd_rwpools(int argc, char **argv, struct global_opts *g)
{
	return run_pools("rwpools", argc, argv, g);
}

int cmd_runall(int argc, char **argv, struct global_opts *g)
{
	return run_pools("runall", argc, argv, g);
}
