/* pool/lookup.c: ZFS pools and btrfs file systems, and their members. */
#include "pool/lookup.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "basic/log.h"
#include "basic/spawn.h"
#include "basic/strbuf.h"
#include "disk/enumerate.h"
#include "pool/btrfs.h"
#include "pool/ceph_osd.h"
#include "pool/kind.h"
#include "pool/zpool_json.h"

#define POOL_TOOL_TIMEOUT_MS 30000
#define MAX_BTRFS_FILESYSTEMS 64

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

/* The layout from `zpool status -j` (OpenZFS 2.3+): each leaf's real path
 * even where the text has only names. -ENOTSUP where zpool has no -j. */
static int zfs_layout_json(const char *name, struct pool_layout *layout)
{
	const char *argv[] = { "zpool", "status", "-j", name, NULL };
	struct spawn_result st;
	int r = spawn_run(argv, POOL_TOOL_TIMEOUT_MS, &st);
	if (r == 0 && (st.status != 0 || !st.out.len || st.out.buf[0] != '{'))
		r = -ENOTSUP;
	if (r == 0 && zfs_parse_status_json(st.out.buf, st.out.len, name, layout) < 0) {
		log_msg(LOG_WARN, "zpool status -j %s: not understood; reading its text instead", name);
		r = -ENOTSUP;
	}
	spawn_result_release(&st);
	return r;
}

/* The layout of the ZFS pool NAME from zpool status: its JSON where zpool
 * answers it, else the text. */
static int zfs_layout(const char *name, struct pool_layout *layout)
{
	if (zfs_layout_json(name, layout) == 0)
		return 0;
	/* -P gives the paths the pool was built with (OpenZFS); zfs-fuse has
	 * no -P and names devices by their node name, which is then the path. */
	const char *status_p_argv[] = { "zpool", "status", "-P", name, NULL };
	const char *status_argv[] = { "zpool", "status", name, NULL };
	struct spawn_result st;
	int r = spawn_run(status_p_argv, POOL_TOOL_TIMEOUT_MS, &st);
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

/* A ZFS pool by name or GUID. Appends the pools that do exist to KNOWN.
 * Returns 0, -ENOENT, or another -errno. */
static int find_zfs_pool(const char *id, struct pool_layout *layout, struct strbuf *known)
{
	const char *list_argv[] = { "zpool", "list", "-H", "-o", "name,guid", NULL };
	struct spawn_result list;
	char name[256];
	int r = run_tool(list_argv, &list);
	if (r == 0 && zfs_find_pool(list.out.buf, id, name, sizeof(name)) < 0) {
		for (const char *line = list.out.buf ? list.out.buf : ""; *line;) {
			strbuf_addf(known, "%s'%.*s' (zfs)", known->len ? ", " : "", (int)strcspn(line, "\t\n"), line);
			const char *next = strchr(line, '\n');
			line = next ? next + 1 : line + strlen(line);
		}
		r = -ENOENT;
	}
	spawn_result_release(&list);
	return r < 0 ? r : zfs_layout(name, layout);
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

/* A Ceph pool (pool/ceph_osd.h): its OSDs, read here when on this host. */
static int find_ceph(const char *id, struct pool_layout *layout)
{
	char host[256] = "", why[300] = "";
	if (gethostname(host, sizeof(host) - 1) < 0)
		host[0] = '\0';
	host[strcspn(host, ".")] = '\0'; /* Ceph names hosts by their short name */
	int r = ceph_pool_layout(id, host, layout, why, sizeof(why));
	if (r == -EHOSTDOWN) {
		/* Not asked: the name is most likely no Ceph pool, and the cluster is down. */
		log_msg(LOG_INFO, "not asking the Ceph cluster about '%s': %s", id, why);
		return -ENOENT;
	}
	if (r < 0 && r != -ENOENT)
		log_msg(LOG_ERR, "Ceph pool '%s': %s", id, why);
	return r;
}

int pool_find(const char *id, struct pool_layout *layout, const struct pool_kind **ret_kind)
{
	struct strbuf known = STRBUF_INIT;
	bool zfs_name = zfs_valid_pool_name(id) || strspn(id, "0123456789") == strlen(id);
	int rz = zfs_name ? find_zfs_pool(id, layout, &known) : -ENOENT;
	int rb = -ENOENT;
	*ret_kind = &pool_kind_zfs;
	if (rz == -ENOENT) {
		rb = find_btrfs(id, layout, &known);
		*ret_kind = &pool_kind_btrfs;
	}
	int r = rz == -ENOENT ? rb : rz;
	if (r == -ENOENT && (r = find_ceph(id, layout)) == 0)
		*ret_kind = &pool_kind_rbd;
	if (r == -ENOENT)
		log_msg(LOG_ERR, "no ZFS pool or btrfs file system named '%s'; %s%s", id,
			known.len ? "pools here: " : "there are none here", known.buf);
	strbuf_release(&known);
	return r;
}

/* Adds LAYOUT's members, each mapped to its whole disk by device number. */
static void add_layout(struct pool_disks *p, const struct pool_layout *layout)
{
	for (size_t i = 0; i < layout->count; i++) {
		struct stat st;
		char kname[64];
		if (stat(layout->members[i].path, &st) < 0 || !S_ISBLK(st.st_mode) ||
		    disk_whole_kname_from_devnum("/sys", major(st.st_rdev), minor(st.st_rdev), kname,
						 sizeof(kname)) < 0)
			continue; /* a file-backed vdev or a missing device: no disk to group */
		p->disks = xreallocarray(p->disks, p->count + 1, sizeof(*p->disks));
		struct pool_disk *d = &p->disks[p->count++];
		snprintf(d->kname, sizeof(d->kname), "%s", kname);
		snprintf(d->pool, sizeof(d->pool), "%s", layout->pool);
		snprintf(d->vdev, sizeof(d->vdev), "%s", layout->members[i].vdev);
	}
}

static void collect_zfs(struct pool_disks *p)
{
	const char *list_argv[] = { "zpool", "list", "-H", "-o", "name", NULL };
	struct spawn_result list;
	if (run_tool(list_argv, &list) == 0) {
		for (char *line = list.out.buf; *line;) {
			char *end = line + strcspn(line, "\n");
			bool last = *end == '\0';
			*end = '\0';
			struct pool_layout layout = { .count = 0 };
			if (*line && zfs_layout(line, &layout) == 0)
				add_layout(p, &layout);
			pool_layout_release(&layout);
			line = last ? end : end + 1;
		}
	}
	spawn_result_release(&list);
}

static void collect_btrfs(struct pool_disks *p)
{
	const char *show_argv[] = { "btrfs", "filesystem", "show", "--raw", NULL };
	struct spawn_result show;
	if (run_tool(show_argv, &show) == 0) {
		char uuids[MAX_BTRFS_FILESYSTEMS][64];
		size_t n = btrfs_list_uuids(show.out.buf, uuids, MAX_BTRFS_FILESYSTEMS);
		for (size_t i = 0; i < n; i++) {
			struct pool_layout layout = { .count = 0 };
			if (btrfs_parse_show(show.out.buf, uuids[i], &layout) == 0)
				add_layout(p, &layout);
			pool_layout_release(&layout);
		}
	}
	spawn_result_release(&show);
}

void pool_disks_collect(struct pool_disks *ret)
{
	*ret = (struct pool_disks){ 0 };
	collect_zfs(ret);
	collect_btrfs(ret);
}

const struct pool_disk *pool_disks_find(const struct pool_disks *p, const char *kname)
{
	for (size_t i = 0; i < p->count; i++)
		if (strcmp(p->disks[i].kname, kname) == 0)
			return &p->disks[i];
	return NULL;
}

void pool_disks_release(struct pool_disks *p)
{
	free(p->disks);
	*p = (struct pool_disks){ 0 };
}
