/* readpooldisks POOL: the read test on exactly the members of one ZFS pool
 * or btrfs file system (triage/read_pool.h), named the way the pool names
 * them and grouped by device group (vdev). */
#include <string.h>

#include "cmd/commands.h"
#include "cmd/read_options.h"
#include "cmd/read_render.h"
#include "triage/read_pool.h"

static const struct opt_def readpooldisks_opts[] = {
	READTEST_OPT_DEFS,
	BASELINE_OPT_DEFS,
	GROUP_BY_OPT_DEF,
	OPT_END,
};

static int handle_option(int id, const char *arg, void *state)
{
	struct read_batch *b = state;
	if (id == OPT_GROUP_BY)
		return group_by_parse_option("readpooldisks", arg, &b->group_by);
	int r = baseline_parse_option("readpooldisks", id, arg, b);
	return r == 1 ? readtest_parse_option("readpooldisks", id, arg, &b->opts) : r;
}

int cmd_readpooldisks(int argc, char **argv, struct global_opts *g)
{
	static const struct command_doc doc = {
		"readpooldisks", "readpooldisks [options] POOL",
		"Reads the members of one pool the way readdisk does: a ZFS pool (by name or GUID,\n"
		"members from 'zpool status', shown by device group) or a btrfs file system (by\n"
		"label or UUID, members from 'btrfs filesystem show'). Nothing outside it is read.",
		readpooldisks_opts,
	};
	struct read_batch b = { .regression_pct = DEFAULT_REGRESSION_PCT, .group_by = READ_GROUP_VDEV };
	readtest_opts_default(&b.opts);
	int first = opts_parse_command(&doc, argc, argv, g, handle_option, &b);
	if (first < 0)
		return opts_command_status(first);
	if (argc - first != 1)
		return opts_usage_error("readpooldisks", "expected one pool name or GUID");
	const char *id = argv[first];
	if (!*id || id[0] == '-' || strchr(id, '/') || strlen(id) > 255)
		return opts_usage_error("readpooldisks", "'%s' is not a valid pool name, GUID, label or UUID", id);

	struct run_ctx rc;
	if (run_ctx_begin(&rc, "readpooldisks", argc, argv, g))
		return 1;
	struct pool_layout layout = { .count = 0 };
	int r = pool_read_batch_prepare(id, &b, &layout);
	size_t errors = read_batch_execute(&b);
	size_t ok = read_batch_count(&b, READTEST_OK);
	int status = read_batch_finish(&rc, &b, errors, ok, NULL, pool_layout_json, &layout);
	if (r < 0 && status == 0)
		status = 1;
	read_batch_release(&b);
	pool_layout_release(&layout);
	return r < 0 ? 1 : status;
}
