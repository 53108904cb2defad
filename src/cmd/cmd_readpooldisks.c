/* readpooldisks POOL: the read test on exactly the members of one ZFS pool
 * or btrfs file system (triage/read_pool.h), named the way the pool names
 * them and grouped by device group (vdev). */
#include <string.h>

#include "cmd/commands.h"
#include "cmd/read_options.h"
#include "cmd/read_report.h"
#include "triage/read_pool.h"

struct readpooldisks_settings {
	struct read_settings read;
	struct pool_layout layout;
};

static const struct opt_def readpooldisks_opts[] = {
	READTEST_OPT_DEFS(struct readpooldisks_settings),
	BASELINE_OPT_DEFS(struct readpooldisks_settings),
	GROUP_BY_OPT_DEF("vdev"),
	OPT_END,
};

static int handle_option(int id, const char *arg, void *state)
{
	struct readpooldisks_settings *s = state;
	int r = read_settings_option("readpooldisks", id, arg, &s->read);
	return r == 1 ? 2 : r;
}

/* One pool, named plausibly, before a run is recorded. */
static int check_pool_operand(struct command_call *call)
{
	if (call->noperands != 1)
		return opts_usage_error("readpooldisks", "expected one pool name or GUID");
	const char *id = call->operands[0];
	if (!*id || id[0] == '-' || strchr(id, '/') || strlen(id) > 255)
		return opts_usage_error("readpooldisks", "'%s' is not a valid pool name, GUID, label or UUID", id);
	return 0;
}

static int readpooldisks_main(struct command_call *call)
{
	struct readpooldisks_settings *s = call->settings;
	struct read_batch *b = &s->read.batch;
	read_settings_apply(&s->read, call->rc->json, "readpooldisks");
	int r = pool_read_batch_prepare(call->operands[0], b, &s->layout);
	size_t errors = read_batch_execute(b);
	size_t ok = read_batch_count(b, READTEST_OK);
	call->store_fn = read_batch_store_run;
	call->store_arg = b;
	int status = read_batch_report(call->rc, call->doc, b, errors, ok, NULL, pool_layout_json, &s->layout);
	return r < 0 ? 1 : status;
}

static void readpooldisks_release(struct command_call *call)
{
	struct readpooldisks_settings *s = call->settings;
	read_batch_release(&s->read.batch);
	pool_layout_release(&s->layout);
}

static const struct command_doc readpooldisks_doc = {
	"readpooldisks", "readpooldisks [options] POOL",
	"Reads the members of one pool the way readdisk does: a ZFS pool (by name or GUID,\n"
	"members from 'zpool status', shown by device group) or a btrfs file system (by\n"
	"label or UUID, members from 'btrfs filesystem show'). Nothing outside it is read.",
	readpooldisks_opts,
};

const struct command_frame readpooldisks_frame = {
	.doc = &readpooldisks_doc,
	.settings_size = sizeof(struct readpooldisks_settings),
	.handle = handle_option,
	.flags = CMD_RECORDS_RUN,
	.min_operands = 1,
	.max_operands = -1,
	.operands_expected = "expected one pool name or GUID",
	.check = check_pool_operand,
	.main = readpooldisks_main,
	.release = readpooldisks_release,
};
