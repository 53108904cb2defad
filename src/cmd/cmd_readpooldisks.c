/* readpooldisks POOL: the read test on exactly the members of one ZFS pool,
 * named the way the pool names them and grouped by device group (vdev). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/log.h"
#include "basic/spawn.h"
#include "basic/strbuf.h"
#include "cmd/commands.h"
#include "cmd/readdisks.h"
#include "pool/btrfs.h"
#include "pool/zfs.h"

#define POOL_TOOL_TIMEOUT_MS 30000

static const struct opt_def readpooldisks_opts[] = {
	READTEST_OPT_DEFS,
	BASELINE_OPT_DEFS,
	OPT_END,
};

static int handle_option(int id, const char *arg, void *state)
{
	struct read_batch *b = state;
	int r = baseline_parse_option("readpooldisks", id, arg, b);
	return r == 1 ? readtest_parse_option("readpooldisks", id, arg, &b->opts) : r;
}

/* Runs a pool tool; a missing tool is -ENOENT (not an error by itself:
 * the pool may be of the other kind), a failing one is logged. */
static int run_tool(const char *const *argv, struct spawn_result *out)
{
	int r = spawn_run(argv, POOL_TOOL_TIMEOUT_MS, out);
	if (r < 0 && r != -ENOENT)
		log_msg(LOG_ERR, "cannot run %s: %s", argv[0], strerror(-r));
	else if (r == 0 && out->status != 0) {
		log_msg(LOG_ERR, "%s %s failed: %s", argv[0], argv[1], out->err.len ? out->err.buf : "no message");
		r = -EIO;
	}
	return r;
}

/* A ZFS pool by name or GUID: its layout from zpool status. Appends the
 * pools that do exist to KNOWN. Returns 0, -ENOENT, or another -errno. */
static int find_zfs_pool(const char *id, struct pool_layout *layout, struct strbuf *known)
{
	const char *list_argv[] = { "zpool", "list", "-H", "-o", "name,guid", NULL };
	struct spawn_result list;
	char name[256];
	int r = run_tool(list_argv, &list);
	if (r == 0 && zfs_find_pool(list.out.buf, id, name, sizeof(name)) < 0) {
		for (const char *line = list.out.buf; *line;) {
			strbuf_addf(known, "%s'%.*s' (zfs)", known->len ? ", " : "", (int)strcspn(line, "\t\n"), line);
			line = strchr(line, '\n');
			line = line ? line + 1 : "";
		}
		r = -ENOENT;
	}
	spawn_result_release(&list);
	if (r < 0)
		return r;
	/* -P gives the paths the pool was built with (OpenZFS); zfs-fuse has
	 * no -P and names devices by their node name, which is then the path. */
	const char *status_p_argv[] = { "zpool", "status", "-P", name, NULL };
	const char *status_argv[] = { "zpool", "status", name, NULL };
	struct spawn_result st;
	r = spawn_run(status_p_argv, POOL_TOOL_TIMEOUT_MS, &st);
	if (r < 0 || st.status != 0) {
		spawn_result_release(&st);
		r = run_tool(status_argv, &st);
	}
	if (r == 0 && zfs_parse_status(st.out.buf, layout) < 0) {
		log_msg(LOG_ERR, "cannot read the layout of pool '%s' from zpool status", name);
		r = -EINVAL;
	}
	spawn_result_release(&st);
	return r;
}

/* A btrfs file system by label or UUID, from btrfs filesystem show. */
static int find_btrfs(const char *id, struct pool_layout *layout, struct strbuf *known)
{
	const char *show_argv[] = { "btrfs", "filesystem", "show", "--raw", NULL };
	struct spawn_result show;
	int r = run_tool(show_argv, &show);
	if (r == 0 && btrfs_parse_show(show.out.buf, id, layout) < 0) {
		struct strbuf names = STRBUF_INIT;
		btrfs_list_names(show.out.buf, &names);
		if (names.len)
			strbuf_addf(known, "%s%s (btrfs)", known->len ? ", " : "", names.buf);
		strbuf_release(&names);
		r = -ENOENT;
	}
	spawn_result_release(&show);
	return r;
}

/* ZFS first, then btrfs; when neither has ID, say which pools exist. */
static int find_pool(const char *id, struct pool_layout *layout, const char **ret_fstype)
{
	struct strbuf known = STRBUF_INIT;
	bool zfs_name = zfs_valid_pool_name(id) || strspn(id, "0123456789") == strlen(id);
	int rz = zfs_name ? find_zfs_pool(id, layout, &known) : -ENOENT;
	int rb = -ENOENT;
	*ret_fstype = "zfs";
	if (rz == -ENOENT) {
		rb = find_btrfs(id, layout, &known);
		*ret_fstype = "btrfs";
	}
	int r = rz == -ENOENT ? rb : rz;
	if (r == -ENOENT)
		log_msg(LOG_ERR, "no ZFS pool or btrfs file system named '%s'; %s%s", id,
			known.len ? "pools here: " : "there are none here", known.buf);
	strbuf_release(&known);
	return r;
}

static void layout_json(struct json *j, void *arg)
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

/* One line per vdev: its members and how each read. */
static void print_vdevs(const struct read_batch *b)
{
	for (size_t i = 0; i < b->count; i++) {
		bool first = true;
		for (size_t k = 0; k < i; k++)
			first &= strcmp(b->reads[k].vdev, b->reads[i].vdev) != 0;
		if (!first)
			continue;
		printf("%-12s", b->reads[i].vdev);
		for (size_t k = i; k < b->count; k++) {
			const struct disk_read *d = &b->reads[k];
			if (strcmp(d->vdev, b->reads[i].vdev) != 0)
				continue;
			if (d->status == READTEST_OK)
				printf("  %s %.0f MB/s", d->info.kname, job_bw_bytes_per_s(d->res) / 1e6);
			else
				printf("  %s %s", d->info.kname, readtest_status_name(d->status));
		}
		putchar('\n');
	}
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
	struct read_batch b = { .regression_pct = DEFAULT_REGRESSION_PCT };
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
	const char *fstype;
	int r = find_pool(id, &layout, &fstype);
	if (r == 0)
		log_msg(LOG_INFO, "READ-POOL-DISKS (%s): %zu member(s) from %s", layout.pool, layout.count,
			strcmp(fstype, "zfs") == 0 ? "zpool status" : "btrfs filesystem show");
	b.count = layout.count;
	b.reads = xcalloc(b.count ? b.count : 1, sizeof(*b.reads));
	for (size_t i = 0; i < layout.count; i++) {
		struct disk_read *d = &b.reads[i];
		read_describe_path(layout.members[i].path, &d->info);
		/* Named the way the pool names it (sde1, or a by-id path's last part). */
		const char *slash = strrchr(layout.members[i].name, '/');
		snprintf(d->info.kname, sizeof(d->info.kname), "%s", slash ? slash + 1 : layout.members[i].name);
		snprintf(d->vdev, sizeof(d->vdev), "%s", layout.members[i].vdev);
	}
	size_t errors = read_batch_execute(&b);
	size_t ok = read_batch_count(&b, READTEST_OK);
	if (r == 0 && !rc.json && b.count) {
		putchar('\n');
		print_vdevs(&b);
	}
	int status = read_batch_finish(&rc, &b, errors, ok, NULL, layout_json, &layout);
	if (r < 0 && status == 0)
		status = 1;
	read_batch_release(&b);
	pool_layout_release(&layout);
	return r < 0 ? 1 : status;
}
