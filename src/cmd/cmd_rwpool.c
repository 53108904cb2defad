/* rwpool POOL, rwpools, runall: the simple pool-level test
 * (triage/rwpool): an incompressible file written straight into each
 * pool's mount point and read back. runall adds readpooldisks for each
 * pool: one command to attach to a support case. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/parse.h"
#include "basic/strbuf.h"
#include "cmd/commands.h"
#include "cmd/progress.h"
#include "cmd/runctx.h"
#include "render/pool.h"
#include "triage/pool/rwpools.h"

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
	rwpools_release(p);
	free(p);
}

static int store_all_batches(struct store *s, const struct run_ctx *rc, void *arg)
{
	return rwpools_store(s, rc->id, rc->started, arg);
}

/* rwpool (one pool), rwpools (all) and runall (all, plus their disks). */
static int pools_main(struct command_call *call)
{
	const struct rwpool_settings *s = call->settings;
	struct pools_run *p = xcalloc(1, sizeof(*p));
	struct progress live;
	*p = (struct pools_run){ .command = call->name, .one = strcmp(call->name, "rwpool") == 0,
				 .with_disks = strcmp(call->name, "runall") == 0, .size = s->size, .fstype = s->fstype,
				 .read_size = s->read_size,
				 .pool_done = call->rc->json ? NULL : rwpool_print,
				 .members_read = call->rc->json ? NULL : rwpool_members_print };
	rwpools_find_targets(p, p->one ? call->operands[0] : NULL);
	p->results = xcalloc(p->ntargets ? p->ntargets : 1, sizeof(*p->results));
	p->reads = xcalloc(1, sizeof(*p->reads));
	p->progress = cmd_progress_attach(&live, call->rc->json, call->name);
	rwpools_write_and_read(p, call->rc->id);
	if (p->with_disks)
		rwpools_read_members(p, call->rc->db_path);
	p->progress = NULL; /* LIVE is this function's */
	int status = p->status;
	if (run_ctx_interrupted_status())
		status = run_ctx_interrupted_status();
	rwpools_json(call->doc, p);
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
