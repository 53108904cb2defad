/* rwpool POOL, rwpools, runall: the simple pool-level test
 * (triage/rwpool): an incompressible file written straight into each
 * pool's mount point and read back. runall adds readpooldisks for each
 * pool: one command to attach to a support case. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/humanize.h"
#include "basic/interrupt.h"
#include "basic/log.h"
#include "basic/parse.h"
#include "basic/strbuf.h"
#include "cmd/commands.h"
#include "cmd/progress.h"
#include "cmd/read_report.h"
#include "cmd/runctx.h"
#include "pool/target.h"
#include "pool/zfs.h"
#include "triage/read_batch.h"
#include "triage/read_pool.h"
#include "triage/read_verdict.h"
#include "triage/rwpool.h"

#define RWPOOL_DEFAULT_SIZE (1ULL << 30)

enum { OPT_SIZE = OPT_COMMAND_BASE, OPT_FSTYPE, OPT_READ_SIZE };

/* The options keep a handler: sizes in whole MiB, and errors that say
 * "invalid" for a choice and do not say "expected" for a size. */
struct rwpool_settings {
	uint64_t size;
	const char *fstype;
	uint64_t read_size;  /* runall: readpooldisks' --size */
};

static int handle_option(const char *command, int id, const char *arg, struct rwpool_settings *s)
{
	uint64_t v;
	switch (id) {
	case OPT_SIZE:
	case OPT_READ_SIZE:
		if (parse_size(arg, &v) < 0 || v < (1U << 20) || v % (1U << 20))
			return opts_usage_error(command, "invalid %s '%s': a size of at least 1M in whole MiB (256M, 2G)",
						id == OPT_SIZE ? "--size" : "--read-size", arg);
		*(id == OPT_SIZE ? &s->size : &s->read_size) = v;
		return 0;
	case OPT_FSTYPE:
		if (strcmp(arg, "zfs") && strcmp(arg, "btrfs") && strcmp(arg, "dir"))
			return opts_usage_error(command, "invalid --fstype '%s': expected zfs, btrfs or dir", arg);
		s->fstype = arg;
		return 0;
	}
	return 1;
}

static int rwpool_option(int id, const char *arg, void *state)
{
	return handle_option("rwpool", id, arg, state);
}

static int rwpools_option(int id, const char *arg, void *state)
{
	return handle_option("rwpools", id, arg, state);
}

static int runall_option(int id, const char *arg, void *state)
{
	return handle_option("runall", id, arg, state);
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

static const struct command_doc rwpool_doc = {
	"rwpool", "rwpool [options] POOL",
	"Writes an incompressible file into a pool's mount point (no dataset is created) and\n"
	"reads it back. POOL is a ZFS pool name or GUID, a btrfs label or UUID, or a directory.\n"
	"The bytes actually written are reported; a file that does not fit is shrunk, and said.",
	rwpool_opts,
};

static const struct command_doc rwpools_doc = {
	"rwpools", "rwpools [options]",
	"rwpool on every ZFS pool and mounted btrfs file system. It writes into every pool:\n"
	"do not run it on a system whose other pools you do not own.",
	rwpool_opts,
};

static const struct command_doc runall_doc = {
	"runall", "runall [options]",
	"rwpools, then readpooldisks for every pool: the one-command sweep to attach to a\n"
	"support case. It writes into every pool and reads every pool member.",
	runall_opts,
};

struct pool_reads {
	struct read_batch batches[64];
	struct pool_layout layouts[64];
	size_t count;
};

/* One run of rwpool, rwpools or runall. */
struct pools_run {
	const char *command;
	bool one, with_disks;
	struct rwpool_settings set;
	struct pool_target *targets;
	size_t ntargets;
	struct rwpool_result *results;
	size_t done;                /* pools written and read */
	struct pool_reads *reads;   /* runall */
	int status;
};

static int store_all_batches(struct store *s, const struct run_ctx *rc, void *arg)
{
	struct pool_reads *reads = arg;
	for (size_t i = 0; i < reads->count; i++) {
		int r = read_batch_store(s, rc->id, rc->started, &reads->batches[i]);
		if (r < 0)
			return r;
	}
	return 0;
}

/* The pools: the one named, or every pool here. */
static void find_targets(struct pools_run *p, const char *id)
{
	if (p->one) {
		p->targets = calloc(1, sizeof(*p->targets));
		if (!p->targets)
			abort();
		if (pool_target_resolve(id, p->set.fstype, &p->targets[0]) == 0)
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

static void write_and_read(struct pools_run *p, const struct run_ctx *rc)
{
	struct progress live;
	struct progress *pr = cmd_progress_attach(&live, rc->json, p->command);
	progress_start(pr, p->ntargets * 2 * p->set.size, true);
	for (; p->done < p->ntargets && !interrupt_requested(); p->done++) {
		struct rwpool_result *res = &p->results[p->done];
		rwpool_run(&p->targets[p->done], p->set.size, rc->id, pr, res);
		if (res->status)
			p->status = 1;
		progress_clear(pr); /* for the pool's lines; the next write draws it again */
		if (!rc->json)
			rwpool_print(res);
	}
	progress_finish(pr);
}

/* runall: each ZFS pool's and btrfs file system's members, read. */
static void read_members(struct pools_run *p, const struct run_ctx *rc)
{
	struct pool_reads *reads = p->reads;
	for (size_t i = 0; i < p->done && reads->count < 64 && !interrupt_requested(); i++) {
		if (p->targets[i].kind == SCRATCH_DIR)
			continue;
		struct read_batch *b = &reads->batches[reads->count];
		*b = (struct read_batch){ .regression_pct = DEFAULT_REGRESSION_PCT, .group_by = READ_GROUP_VDEV };
		readtest_opts_default(&b->opts);
		b->opts.size = p->set.read_size;
		if (pool_read_batch_prepare(p->targets[i].pool, b, &reads->layouts[reads->count]) < 0) {
			p->status = 1;
			read_batch_release(b);
			pool_layout_release(&reads->layouts[reads->count]);
			continue;
		}
		struct progress live;
		b->progress = cmd_progress_attach(&live, rc->json, p->command);
		if (read_batch_execute(b) || read_batch_count(b, READTEST_OK) == 0)
			p->status = 1;
		b->progress = NULL;
		read_batch_conclude(b, rc->db_path);
		if (!rc->json) {
			printf("\nMembers of %s:", p->targets[i].pool);
			read_batch_present(b, stdout);
		}
		reads->count++;
	}
}

static void pools_json(struct json *j, const struct pools_run *p)
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

static void pools_release(struct pools_run *p)
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

/* rwpool: one pool, named by a valid operand; rwpools and runall: none.
 * Then the sizes' defaults. */
static int pools_check(struct command_call *call)
{
	const char *command = call->name;
	char **operands = call->operands;
	if (strcmp(command, "rwpool") == 0) {
		if (call->noperands != 1)
			return opts_usage_error(command, "expected one pool name, GUID, label, UUID or directory");
		if (!*operands[0] || operands[0][0] == '-' || strlen(operands[0]) > 255)
			return opts_usage_error(command, "'%s' is not a valid pool name, GUID, label, UUID or directory",
						operands[0]);
	} else if (call->noperands != 0) {
		return opts_usage_error(command, "unexpected operand '%s' (rwpool POOL does one pool)", operands[0]);
	}
	struct rwpool_settings *s = call->settings;
	if (!s->size)
		s->size = RWPOOL_DEFAULT_SIZE;
	if (!s->read_size)
		s->read_size = READTEST_DEFAULT_SIZE;
	return 0;
}

static void pools_free(void *arg)
{
	struct pools_run *p = arg;
	pools_release(p);
	free(p);
}

/* rwpool (one pool), rwpools (all) and runall (all, plus their disks). */
static int pools_main(struct command_call *call)
{
	struct pools_run *p = xcalloc(1, sizeof(*p));
	*p = (struct pools_run){ .command = call->name, .one = strcmp(call->name, "rwpool") == 0,
				 .with_disks = strcmp(call->name, "runall") == 0,
				 .set = *(struct rwpool_settings *)call->settings };
	find_targets(p, p->one ? call->operands[0] : NULL);
	p->results = xcalloc(p->ntargets ? p->ntargets : 1, sizeof(*p->results));
	p->reads = xcalloc(1, sizeof(*p->reads));
	write_and_read(p, call->rc);
	if (p->with_disks)
		read_members(p, call->rc);
	int status = p->status;
	if (run_ctx_interrupted_status())
		status = run_ctx_interrupted_status();
	pools_json(call->doc, p);
	call->store_fn = p->with_disks ? store_all_batches : NULL;
	call->store_arg = p->reads;
	call->release_fn = pools_free;
	call->release_arg = p;
	return status;
}

#define POOLS_FRAME(DOC, HANDLE)                                                                   \
	{ .doc = &(DOC), .settings_size = sizeof(struct rwpool_settings), .handle = (HANDLE),       \
	  .flags = CMD_RECORDS_RUN, .min_operands = 0, .max_operands = -1, .check = pools_check,     \
	  .main = pools_main }

/* The operand counts are checked by pools_check, whose messages differ
 * from the frame's. */
const struct command_frame rwpool_frame = POOLS_FRAME(rwpool_doc, rwpool_option);
const struct command_frame rwpools_frame = POOLS_FRAME(rwpools_doc, rwpools_option);
const struct command_frame runall_frame = POOLS_FRAME(runall_doc, runall_option);
