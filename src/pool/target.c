/* pool/target.c: a pool, a btrfs file system or a directory to write into. */
#include "pool/target.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <linux/magic.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "basic/log.h"
#include "basic/spawn.h"
#include "basic/strbuf.h"
#include "fs/mounts.h"
#include "pool/btrfs.h"
#include "pool/ceph.h"
#include "pool/zfs.h"

#define TOOL_TIMEOUT_MS 30000

static int run_quiet(const char *const *argv, struct strbuf *out)
{
	return spawn_check(argv, TOOL_TIMEOUT_MS, out, NULL);
}

/* Where a btrfs file system with one of LAYOUT's devices is mounted
 * (preferring its top-level subvolume, "/"). */
static int btrfs_mountpoint(const struct pool_layout *layout, char *buf, size_t len)
{
	struct mount_table mounts = { 0 };
	int r = mounts_load(&mounts);
	if (r < 0)
		return r;
	int found = -ENOENT;
	for (size_t m = 0; m < mounts.count; m++) {
		const struct mount_entry *e = &mounts.entries[m];
		struct stat src;
		if (!mount_is_btrfs(e) || stat(e->source, &src) < 0 || !S_ISBLK(src.st_mode))
			continue;
		for (size_t i = 0; i < layout->count; i++) {
			struct stat member;
			if (stat(layout->members[i].path, &member) == 0 && member.st_rdev == src.st_rdev &&
			    (found < 0 || strcmp(e->root, "/") == 0)) {
				snprintf(buf, len, "%s", e->mountpoint);
				found = 0;
			}
		}
	}
	mount_table_release(&mounts);
	return found;
}

/* The kernel's name for the file system PATH is on ("ext4", "fuse.zfs"). */
static void fs_name_of(const char *path, char *buf, size_t len)
{
	struct mount_table mounts = { 0 };
	struct stat st;
	buf[0] = '\0';
	if (stat(path, &st) < 0 || mounts_load(&mounts) < 0)
		return;
	for (size_t m = 0; m < mounts.count; m++)
		if (makedev(mounts.entries[m].major, mounts.entries[m].minor) == st.st_dev)
			snprintf(buf, len, "%s", mounts.entries[m].fstype);
	mount_table_release(&mounts);
}

static int resolve_dir(const char *id, struct pool_target *t)
{
	struct stat st;
	if (stat(id, &st) < 0) {
		log_msg(LOG_ERR, "cannot use '%s': %s", id, strerror(errno));
		return -ENOENT;
	}
	if (!S_ISDIR(st.st_mode)) {
		log_msg(LOG_ERR, "'%s' is not a directory", id);
		return -ENOTDIR;
	}
	t->kind = SCRATCH_DIR;
	snprintf(t->fstype, sizeof(t->fstype), "dir");
	snprintf(t->pool, sizeof(t->pool), "%s", id);
	snprintf(t->parent, sizeof(t->parent), "%s", id);
	snprintf(t->mountpoint, sizeof(t->mountpoint), "%s", id);
	fs_name_of(id, t->fs_name, sizeof(t->fs_name));
	return 0;
}

/* A ZFS pool by name or GUID. -ENOENT (quietly) when there is none. */
static int resolve_zfs(const char *id, struct pool_target *t)
{
	if (!zfs_valid_pool_name(id) && strspn(id, "0123456789") != strlen(id))
		return -ENOENT;
	const char *list_argv[] = { "zpool", "list", "-H", "-o", "name,guid", NULL };
	struct strbuf out = STRBUF_INIT;
	char name[256];
	int r = run_quiet(list_argv, &out);
	if (r == 0)
		r = zfs_find_pool(out.buf, id, name, sizeof(name));
	strbuf_release(&out);
	if (r < 0)
		return -ENOENT;
	t->kind = SCRATCH_ZFS;
	snprintf(t->fstype, sizeof(t->fstype), "zfs");
	snprintf(t->pool, sizeof(t->pool), "%s", name);
	snprintf(t->parent, sizeof(t->parent), "%s", name);
	if (scratch_zfs_get(name, "mountpoint", t->mountpoint, sizeof(t->mountpoint)) < 0 || t->mountpoint[0] != '/') {
		log_msg(LOG_ERR, "pool '%s' is not mounted (mountpoint '%s'): nothing to write into", name,
			t->mountpoint);
		return -ENOTDIR;
	}
	fs_name_of(t->mountpoint, t->fs_name, sizeof(t->fs_name));
	return 0;
}

/* A btrfs file system by label or UUID; it must be mounted. */
static int resolve_btrfs(const char *id, struct pool_target *t)
{
	const char *show_argv[] = { "btrfs", "filesystem", "show", "--raw", NULL };
	struct strbuf out = STRBUF_INIT;
	struct pool_layout layout = { .count = 0 };
	int r = run_quiet(show_argv, &out);
	if (r == 0)
		r = btrfs_parse_show(out.buf, id, &layout);
	strbuf_release(&out);
	if (r < 0)
		return -ENOENT;
	r = btrfs_mountpoint(&layout, t->mountpoint, sizeof(t->mountpoint));
	if (r < 0)
		log_msg(LOG_ERR, "btrfs file system '%s' is not mounted: mount it first", id);
	else {
		t->kind = SCRATCH_BTRFS;
		snprintf(t->fstype, sizeof(t->fstype), "btrfs");
		snprintf(t->pool, sizeof(t->pool), "%s", layout.pool);
		snprintf(t->parent, sizeof(t->parent), "%s", t->mountpoint);
		snprintf(t->fs_name, sizeof(t->fs_name), "btrfs");
	}
	pool_layout_release(&layout);
	return r < 0 ? -ENOTDIR : 0;
}

static bool is_cephfs(const char *fs_name)
{
	return strcmp(fs_name, "fuse.ceph-fuse") == 0 || strcmp(fs_name, "ceph") == 0;
}

/* A directory on a mounted CephFS: a directory area, the Ceph state captured. */
static int resolve_cephfs(const char *id, bool asked, struct pool_target *t)
{
	int r = resolve_dir(id, t);
	if (r < 0 || !is_cephfs(t->fs_name)) {
		if (r == 0 && asked)
			log_msg(LOG_ERR, "'%s' is on %s, not CephFS: pass a CephFS mount or a Ceph pool", id,
				t->fs_name[0] ? t->fs_name : "an unknown file system");
		return r < 0 ? r : asked ? -EINVAL : 0;
	}
	t->kind = SCRATCH_CEPHFS;
	snprintf(t->fstype, sizeof(t->fstype), "ceph");
	if (ceph_fs_data_pool(t->ceph_pool, sizeof(t->ceph_pool)) < 0)
		log_msg(LOG_WARN, "CephFS at '%s': the cluster does not say its data pool; its settings go uncaptured", id);
	return 0;
}

static void list_names(char (*names)[CEPH_NAME_MAX], int n, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int i = 0; i < n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "", names[i]);
}

/* A Ceph pool by name: an RBD image goes in it. QUIET: -ENOENT without a
 * word when there is no such pool (detection goes on). */
static int resolve_rbd(const char *id, bool quiet, struct pool_target *t)
{
	if (!ceph_valid_name(id)) {
		if (!quiet)
			log_msg(LOG_ERR, "'%s' is not a valid Ceph pool name (letters, digits, '.', '_', '-')", id);
		return quiet ? -ENOENT : -EINVAL;
	}
	char names[64][CEPH_NAME_MAX], why[320], list[1024];
	struct strbuf err = STRBUF_INIT;
	int n = ceph_pool_names(names, 64, &err);
	ceph_explain(n, err.buf, why, sizeof(why));
	strbuf_release(&err);
	if (n < 0) {
		log_msg(LOG_ERR, "cannot list the Ceph pools: %s", why);
		return n == -ENOENT ? -ENOPKG : n;
	}
	for (int i = 0; i < n; i++)
		if (strcmp(names[i], id) == 0) {
			t->kind = SCRATCH_RBD;
			snprintf(t->fstype, sizeof(t->fstype), "ceph");
			snprintf(t->pool, sizeof(t->pool), "%s", id);
			snprintf(t->parent, sizeof(t->parent), "%s", id);
			snprintf(t->ceph_pool, sizeof(t->ceph_pool), "%s", id);
			snprintf(t->fs_name, sizeof(t->fs_name), "rbd");
			return 0;
		}
	list_names(names, n, list, sizeof(list));
	if (!quiet)
		log_msg(LOG_ERR, "no Ceph pool named '%s'; the cluster's pools: %s", id, n ? list : "none");
	return quiet ? -ENOENT : -ENODEV;
}

/* Whether a Ceph cluster is configured here, so that detection may ask it. */
static bool ceph_configured(void)
{
	const char *conf = getenv("CEPH_CONF");
	return (conf && conf[0]) || access("/etc/ceph/ceph.conf", F_OK) == 0;
}

int pool_target_resolve(const char *id, const char *fstype, struct pool_target *t)
{
	*t = (struct pool_target){ .kind = SCRATCH_DIR };
	if (fstype && strcmp(fstype, "dir") == 0)
		return resolve_dir(id, t);
	if (fstype && strcmp(fstype, "ceph") == 0)
		return id[0] == '/' ? resolve_cephfs(id, true, t) : resolve_rbd(id, false, t);
	if (fstype && strcmp(fstype, "btrfs") == 0 && id[0] == '/') {
		/* A btrfs mount point given as a path: subvolumes go in it. */
		int r = resolve_dir(id, t);
		/* statfs, not the mount table: a btrfs subvolume's st_dev is its own
		 * anonymous device, which mountinfo does not list. */
		struct statfs sf;
		if (r == 0 && statfs(id, &sf) == 0 && sf.f_type == BTRFS_SUPER_MAGIC)
			snprintf(t->fs_name, sizeof(t->fs_name), "btrfs");
		if (r == 0 && strcmp(t->fs_name, "btrfs") != 0) {
			log_msg(LOG_ERR, "'%s' is on %s, not btrfs", id, t->fs_name[0] ? t->fs_name : "an unknown file system");
			return -EINVAL;
		}
		if (r == 0) {
			t->kind = SCRATCH_BTRFS;
			snprintf(t->fstype, sizeof(t->fstype), "btrfs");
		}
		return r;
	}
	if (!fstype && id[0] == '/')
		return resolve_cephfs(id, false, t);
	int r = -ENOENT;
	if (!fstype || strcmp(fstype, "zfs") == 0)
		r = resolve_zfs(id, t);
	if (r == -ENOENT && (!fstype || strcmp(fstype, "btrfs") == 0))
		r = resolve_btrfs(id, t);
	if (r == -ENOENT && !fstype && ceph_configured())
		r = resolve_rbd(id, true, t);
	if (r == -ENOENT) {
		if (fstype)
			log_msg(LOG_ERR, "no %s pool named '%s'", fstype, id);
		else
			log_msg(LOG_ERR, "cannot tell what '%s' is: no ZFS pool, btrfs file system, Ceph pool or directory by "
					 "that name; pass --fstype zfs, btrfs, ceph or dir",
				id);
	}
	return r;
}

size_t pool_target_list_all(struct pool_target **ret)
{
	size_t n = 0, cap = 8;
	*ret = calloc(cap, sizeof(**ret));
	if (!*ret)
		abort();
	const char *zfs_argv[] = { "zpool", "list", "-H", "-o", "name", NULL };
	const char *btrfs_argv[] = { "btrfs", "filesystem", "show", "--raw", NULL };
	struct strbuf zout = STRBUF_INIT, bout = STRBUF_INIT;
	char names[64][256];
	size_t count = 0;
	if (run_quiet(zfs_argv, &zout) == 0)
		for (char *line = strtok(zout.buf, "\n"); line && count < 64; line = strtok(NULL, "\n"))
			snprintf(names[count++], sizeof(names[0]), "%s", line);
	size_t nzfs = count;
	if (run_quiet(btrfs_argv, &bout) == 0) {
		char uuids[32][64];
		size_t nb = btrfs_list_uuids(bout.buf, uuids, 32);
		for (size_t i = 0; i < nb && count < 64; i++)
			snprintf(names[count++], sizeof(names[0]), "%s", uuids[i]);
	}
	strbuf_release(&zout);
	strbuf_release(&bout);
	for (size_t i = 0; i < count; i++) {
		if (n == cap) {
			cap *= 2;
			*ret = xreallocarray(*ret, cap, sizeof(**ret));
		}
		struct pool_target t = { .kind = SCRATCH_DIR };
		int r = i < nzfs ? resolve_zfs(names[i], &t) : resolve_btrfs(names[i], &t);
		if (r == 0)
			(*ret)[n++] = t;
	}
	return n;
}

void pool_target_status(const struct pool_target *t, struct strbuf *out)
{
	struct ceph_state state;
	pool_target_status_ceph(t, out, &state);
}

void pool_target_status_ceph(const struct pool_target *t, struct strbuf *out, struct ceph_state *ceph)
{
	*ceph = (struct ceph_state){ .read = false };
	if (t->kind == SCRATCH_RBD || t->kind == SCRATCH_CEPHFS)
		ceph_capture(t->ceph_pool, out, ceph);
	else if (t->kind == SCRATCH_ZFS) {
		/* Every pool's, with its dedup table (-D), as the appliance manual's
		 * results file has it; zfs-fuse has no -P. */
		const char *p_argv[] = { "zpool", "status", "-D", "-v", "-P", NULL };
		const char *argv[] = { "zpool", "status", "-D", "-v", NULL };
		strbuf_addf(out, "$ zpool status -D -v -P  (every pool; this run's: %s)\n", t->pool);
		if (run_quiet(p_argv, out) < 0) {
			strbuf_addf(out, "(no -P here)\n$ zpool status -D -v\n");
			run_quiet(argv, out);
		}
	} else if (t->kind == SCRATCH_BTRFS) {
		const char *show[] = { "btrfs", "filesystem", "show", t->mountpoint, NULL };
		const char *usage[] = { "btrfs", "filesystem", "usage", t->mountpoint, NULL };
		strbuf_addf(out, "$ btrfs filesystem show %s\n", t->mountpoint);
		run_quiet(show, out);
		strbuf_addf(out, "$ btrfs filesystem usage %s\n", t->mountpoint);
		run_quiet(usage, out);
	} else {
		struct statfs sf;
		if (statfs(t->mountpoint, &sf) == 0)
			strbuf_addf(out, "%s on %s: %llu of %llu bytes free\n", t->mountpoint,
				    t->fs_name[0] ? t->fs_name : "?", (unsigned long long)sf.f_bavail * sf.f_bsize,
				    (unsigned long long)sf.f_blocks * sf.f_bsize);
	}
}
