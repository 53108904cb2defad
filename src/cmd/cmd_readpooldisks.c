/* readpooldisks POOL: the read test on exactly the members of one ZFS pool,
 * named the way the pool names them and grouped by device group (vdev). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/log.h"
#include "basic/strbuf.h"
#include "cmd/commands.h"
#include "cmd/readdisks.h"
#include "cmd/pool_lookup.h"

static const struct opt_def readpooldisks_opts[] = {
	READTEST_OPT_DEFS,
	BASELINE_OPT_DEFS,
	GROUP_BY_OPT_DEF,
	OPT_END,
};

static int handle_option(int id, const char *arg, void *state)
{
	struct read_batch *b = state;
	if (id == OPT_GROUP_BY) {
		if (read_group_parse(arg, &b->group_by) < 0)
			return opts_usage_error("readpooldisks", "invalid --group-by '%s': expected vdev, controller, "
								 "enclosure or none", arg);
		return 0;
	}
	int r = baseline_parse_option("readpooldisks", id, arg, b);
	return r == 1 ? readtest_parse_option("readpooldisks", id, arg, &b->opts) : r;
}

void pool_layout_json(struct json *j, void *arg)
{
	const struct pool_layout *l = arg;
	json_begin_object(j, "pool");
	json_string(j, "name", l->pool);
	json_string(j, "fstype", l->members && strcmp(l->members[0].vdev, "btrfs") == 0 ? "btrfs" : "zfs");
	json_begin_array(j, "members");
	for (size_t i = 0; i < l->count; i++) {
		json_begin_object(j, NULL);
		json_string(j, "name", l->members[i].name);
		json_string(j, "path", l->members[i].path);
		json_string(j, "vdev", l->members[i].vdev);
		json_end_object(j);
	}
	json_end_array(j);
	json_end_object(j);
}

int pool_read_batch_prepare(const char *id, struct read_batch *b, struct pool_layout *layout)
{
	const char *fstype;
	int r = pool_find(id, layout, &fstype);
	if (r == 0)
		log_msg(LOG_INFO, "READ-POOL-DISKS (%s): %zu member(s) from %s", layout->pool, layout->count,
			strcmp(fstype, "zfs") == 0 ? "zpool status" : "btrfs filesystem show");
	b->count = layout->count;
	b->reads = xcalloc(b->count ? b->count : 1, sizeof(*b->reads));
	for (size_t i = 0; i < layout->count; i++) {
		struct disk_read *d = &b->reads[i];
		read_describe_path(layout->members[i].path, &d->info);
		/* Named the way the pool names it (sde1, or a by-id path's last part). */
		const char *slash = strrchr(layout->members[i].name, '/');
		snprintf(d->info.kname, sizeof(d->info.kname), "%s", slash ? slash + 1 : layout->members[i].name);
		snprintf(d->vdev, sizeof(d->vdev), "%s", layout->members[i].vdev);
	}
	return r;
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
