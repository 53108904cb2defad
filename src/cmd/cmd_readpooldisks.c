/* readpooldisks POOL: the read test on exactly the members of one ZFS pool
 * or btrfs file system (triage/media/read_pool.h), named the way the pool names
 * them and grouped by device group (vdev); --mode both reads each group on
 * its own, then all of them together (triage/media/read_shared.h). */
#include <string.h>

#include "cmd/commands.h"
#include "cmd/read_options.h"
#include "cmd/read_report.h"
#include "triage/media/read_pool.h"
#include "triage/media/read_shared.h"

enum { OPT_POOL_MODE = OPT_COMMAND_BASE };

struct readpooldisks_settings {
	struct read_settings read;
	struct pool_layout layout;
	bool both;
	struct shared_paths shared;
};

static const struct opt_def readpooldisks_opts[] = {
	READTEST_OPT_DEFS(struct readpooldisks_settings),
	BASELINE_OPT_DEFS(struct readpooldisks_settings),
	REMOTE_READ_OPT_DEFS(struct readpooldisks_settings, read.batch.remote),
	GROUP_BY_OPT_DEF("vdev"),
	{ "mode", 0, "MODE", "serial, or both: each member alone, then each group's members together, one group "
			       "at a time, then all of them (finds a path a group or the pool shares)", OPT_POOL_MODE,
	  { .def = "serial" } },
	OPT_END,
};

static int handle_option(int id, const char *arg, void *state)
{
	struct readpooldisks_settings *s = state;
	if (id == OPT_POOL_MODE) {
		if (strcmp(arg, "serial") && strcmp(arg, "both"))
			return opts_usage_error("readpooldisks", "invalid --mode '%s': expected serial or both", arg);
		s->both = strcmp(arg, "both") == 0;
		return 0;
	}
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
	if (s->both && ok > 1 && !run_ctx_interrupted_status())
		read_batch_parallel_pass(b, &s->shared);
	call->store_fn = read_batch_store_run;
	call->store_arg = b;
	int status = read_batch_report(call->rc, call->doc, b, errors, ok, s->both ? &s->shared : NULL,
				       pool_layout_json, &s->layout);
	return r < 0 ? 1 : status;
}

static void readpooldisks_release(struct command_call *call)
{
	struct readpooldisks_settings *s = call->settings;
	shared_paths_release(&s->shared);
	read_batch_release(&s->read.batch);
	pool_layout_release(&s->layout);
}

static const struct command_doc readpooldisks_doc = {
	"readpooldisks", "readpooldisks [options] POOL",
	"Reads the members of one pool the way readdisk does: a ZFS pool (by name or GUID,\n"
	"members from 'zpool status', shown by device group) or a btrfs file system (by\n"
	"label or UUID, members from 'btrfs filesystem show') or a Ceph pool (its OSDs'\n"
	"devices, from 'ceph osd metadata'; an OSD on another host is read there with\n"
	"'iotriage readdisk' over ssh, as fleet runs it). Nothing outside it is read.",
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
