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
#include "pool/zfs.h"

#define ZPOOL_TIMEOUT_MS 30000

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

/* Runs zpool with ARGS; on failure logs why and returns -errno. */
static int run_zpool(const char *const *argv, struct spawn_result *out)
{
	int r = spawn_run(argv, ZPOOL_TIMEOUT_MS, out);
	if (r == -ENOENT)
		log_msg(LOG_ERR, "zpool is not installed: readpooldisks reads the members of ZFS pools");
	else if (r < 0)
		log_msg(LOG_ERR, "cannot run zpool: %s", strerror(-r));
	else if (out->status != 0) {
		log_msg(LOG_ERR, "zpool %s failed: %s", argv[1], out->err.len ? out->err.buf : "no message");
		r = -EIO;
	}
	return r;
}

/* Finds the pool by name or GUID; when it does not exist, says which do. */
static int resolve_pool(const char *id, char *name, size_t len)
{
	const char *list_argv[] = { "zpool", "list", "-H", "-o", "name,guid", NULL };
	struct spawn_result list;
	int r = run_zpool(list_argv, &list);
	if (r == 0 && zfs_find_pool(list.out.buf, id, name, len) < 0) {
		struct strbuf names = STRBUF_INIT;
		for (const char *line = list.out.buf; *line;) {
			size_t n = strcspn(line, "\t\n");
			strbuf_addf(&names, "%s'%.*s'", names.len ? ", " : "", (int)n, line);
			line = strchr(line, '\n');
			line = line ? line + 1 : "";
		}
		log_msg(LOG_ERR, "no ZFS pool named '%s'; %s%s", id, names.len ? "pools here: " : "there are no pools",
			names.buf);
		strbuf_release(&names);
		r = -ENOENT;
	}
	spawn_result_release(&list);
	return r;
}

static void layout_json(struct json *j, void *arg)
{
	const struct pool_layout *l = arg;
	json_begin_object(j, "pool");
	json_string(j, "name", l->pool);
	json_string(j, "fstype", "zfs");
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
		"Reads the members of one ZFS pool (given by name or GUID) the way readdisk does,\n"
		"named as the pool names them, and shows them by device group (vdev). Members are\n"
		"found with 'zpool status'; nothing outside the pool is read.",
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
	bool is_guid = strspn(id, "0123456789") == strlen(id) && *id;
	if (!is_guid && !zfs_valid_pool_name(id))
		return opts_usage_error("readpooldisks", "'%s' is not a valid pool name or GUID", id);

	struct run_ctx rc;
	if (run_ctx_begin(&rc, "readpooldisks", argc, argv, g))
		return 1;
	char pool[256];
	struct pool_layout layout = { .count = 0 };
	int r = resolve_pool(id, pool, sizeof(pool));
	if (r == 0) {
		const char *status_argv[] = { "zpool", "status", pool, NULL };
		struct spawn_result st;
		r = run_zpool(status_argv, &st);
		if (r == 0 && zfs_parse_status(st.out.buf, &layout) < 0) {
			log_msg(LOG_ERR, "cannot read the layout of pool '%s' from zpool status", pool);
			r = -EINVAL;
		}
		spawn_result_release(&st);
	}
	if (r == 0)
		log_msg(LOG_INFO, "READ-POOL-DISKS (%s): %zu member(s) from zpool status", pool, layout.count);
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
	return r == -ENOENT || r == -EINVAL ? 1 : status;
}
