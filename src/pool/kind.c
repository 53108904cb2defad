/* pool/kind.c: the pool kinds' table (pool/kind.h) and each row's
 * functions: resolving a name, the status for the results file, the
 * settings judged as evidence. */
#include "pool/kind.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <linux/magic.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "basic/fsutil.h"
#include "basic/log.h"
#include "basic/spawn.h"
#include "basic/strbuf.h"
#include "fs/mounts.h"
#include "pool/btrfs.h"
#include "pool/ceph.h"
#include "pool/pool_findings.h"
#include "pool/pool_state.h"
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
	t->kind = &pool_kind_dir;
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
	t->kind = &pool_kind_zfs;
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
		t->kind = &pool_kind_btrfs;
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

/* A directory on a mounted CephFS: a directory area, the Ceph state
 * captured. Detecting, anything else is declined (1) for the next row. */
static int resolve_cephfs(const char *id, enum pool_resolve_how how, struct pool_target *t)
{
	struct stat st;
	if (id[0] != '/' || (how == POOL_RESOLVE_DETECT && (stat(id, &st) < 0 || !S_ISDIR(st.st_mode))))
		return 1;
	int r = resolve_dir(id, t);
	if (r < 0 || !is_cephfs(t->fs_name)) {
		if (r == 0 && how == POOL_RESOLVE_ASKED)
			log_msg(LOG_ERR, "'%s' is on %s, not CephFS: pass a CephFS mount or a Ceph pool", id,
				t->fs_name[0] ? t->fs_name : "an unknown file system");
		return r < 0 ? r : how == POOL_RESOLVE_ASKED ? -EINVAL : 1;
	}
	t->kind = &pool_kind_cephfs;
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
			t->kind = &pool_kind_rbd;
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


/* ---- status ---- */


/* Every pool's, with its dedup table (-D), as the appliance manual's
 * results file has it; zfs-fuse has no -P. */
static void zfs_status(const struct pool_target *t, struct strbuf *out, struct ceph_state *ceph)
{
	(void)ceph;
	const char *p_argv[] = { "zpool", "status", "-D", "-v", "-P", NULL };
	const char *argv[] = { "zpool", "status", "-D", "-v", NULL };
	strbuf_addf(out, "$ zpool status -D -v -P  (every pool; this run's: %s)\n", t->pool);
	if (run_quiet(p_argv, out) < 0) {
		strbuf_addf(out, "(no -P here)\n$ zpool status -D -v\n");
		run_quiet(argv, out);
	}
}

static void btrfs_status(const struct pool_target *t, struct strbuf *out, struct ceph_state *ceph)
{
	(void)ceph;
	const char *show[] = { "btrfs", "filesystem", "show", t->mountpoint, NULL };
	const char *usage[] = { "btrfs", "filesystem", "usage", t->mountpoint, NULL };
	strbuf_addf(out, "$ btrfs filesystem show %s\n", t->mountpoint);
	run_quiet(show, out);
	strbuf_addf(out, "$ btrfs filesystem usage %s\n", t->mountpoint);
	run_quiet(usage, out);
}

static void ceph_status(const struct pool_target *t, struct strbuf *out, struct ceph_state *ceph)
{
	ceph_capture(t->ceph_pool, out, ceph);
}

static void dir_status(const struct pool_target *t, struct strbuf *out, struct ceph_state *ceph)
{
	(void)ceph;
	struct statfs sf;
	if (statfs(t->mountpoint, &sf) == 0)
		strbuf_addf(out, "%s on %s: %llu of %llu bytes free\n", t->mountpoint, t->fs_name[0] ? t->fs_name : "?",
			    (unsigned long long)sf.f_bavail * sf.f_bsize, (unsigned long long)sf.f_blocks * sf.f_bsize);
}

/* ---- settings ---- */

/* ARGV's stdout in OUT, or -errno with the reason in WHY. */
static int capture(const char *const *argv, struct strbuf *out, char *why, size_t len)
{
	struct strbuf err = STRBUF_INIT;
	int r = spawn_check(argv, TOOL_TIMEOUT_MS, out, &err);
	if (r < 0)
		snprintf(why, len, "%s", err.len ? err.buf : "cannot run it");
	strbuf_release(&err);
	return r;
}

/* Each layout member's physical sector size from sysfs (0 when unknown: a
 * file vdev); a partition's is its disk's. The largest goes in E. */
static unsigned *member_sectors(struct pool_kind_settings *e, const struct pool_layout *l)
{
	unsigned *sec = calloc(l->count ? l->count : 1, sizeof(*sec));
	for (size_t i = 0; sec && i < l->count; i++) {
		char real[PATH_MAX], path[PATH_MAX + 64], buf[32];
		struct stat st;
		if (!realpath(l->members[i].path, real) || stat(real, &st) < 0 || !S_ISBLK(st.st_mode))
			continue;
		const char *kname = strrchr(real, '/') + 1;
		snprintf(path, sizeof(path), "/sys/class/block/%s/queue/physical_block_size", kname);
		if (read_small_file(path, buf, sizeof(buf)) < 0) {
			snprintf(path, sizeof(path), "/sys/class/block/%s/../queue/physical_block_size", kname);
			if (read_small_file(path, buf, sizeof(buf)) < 0)
				continue;
		}
		sec[i] = (unsigned)strtoul(buf, NULL, 10);
		if (sec[i] > e->largest_sector)
			e->largest_sector = sec[i];
	}
	return sec;
}

/* zpool get all, zfs get -H -p all DATASET, zpool status: parsed and judged. */
static int zfs_settings(const struct pool_target *t, const char *dataset_asked, uint64_t io_size,
			struct pool_kind_settings *e)
{
	const char *pool = t->pool;
	snprintf(e->dataset, sizeof(e->dataset), "%s", dataset_asked ? dataset_asked : t->parent);
	const char *dataset = e->dataset;
	const char *get_argv[] = { "zpool", "get", "all", pool, NULL };
	const char *zget_argv[] = { "zfs", "get", "-H", "-p", "all", dataset, NULL };
	const char *status_argv[] = { "zpool", "status", pool, NULL };
	struct strbuf pg = STRBUF_INIT, dg = STRBUF_INIT, st = STRBUF_INIT;
	struct zfs_props pprops = { 0 }, dprops = { 0 };
	struct zfs_health health = { 0 };
	struct pool_layout layout = { 0 };
	char why[240] = "";
	const char *what = "zpool get all";
	int r = capture(get_argv, &pg, why, sizeof(why));
	if (r == 0 && (what = "zfs get all", r = capture(zget_argv, &dg, why, sizeof(why))) == 0 &&
	    (what = "zpool status", r = capture(status_argv, &st, why, sizeof(why))) == 0) {
		what = "their output";
		snprintf(why, sizeof(why), "not understood");
		r = zfs_props_parse(pg.buf, &pprops);
		if (r == 0)
			r = zfs_props_parse(dg.buf, &dprops);
		if (r == 0)
			r = zfs_parse_health(st.buf, &health);
		if (r == 0 && zfs_parse_status(st.buf, &layout) < 0)
			layout.count = 0;
	}
	unsigned *sectors = r == 0 ? member_sectors(e, &layout) : NULL;
	if (r == 0) {
		const char *ashift = zfs_props_get(&pprops, NULL, "ashift");
		e->ashift = ashift ? (int)strtol(ashift, NULL, 10) : -1;
		struct pool_findings_input in = { .pool = pool, .pool_props = &pprops, .dataset_props = &dprops,
						  .dataset = dataset, .health = &health,
						  .layout = layout.count ? &layout : NULL, .io_size = io_size,
						  .phys_sector = sectors };
		r = pool_findings_zfs(&in, e->findings);
		if (r < 0)
			snprintf(why, sizeof(why), "a property was not understood");
	}
	if (r < 0)
		snprintf(e->error, sizeof(e->error), "%s: %s", what, why);
	free(sectors);
	pool_layout_release(&layout);
	zfs_props_release(&pprops);
	zfs_props_release(&dprops);
	strbuf_release(&pg);
	strbuf_release(&dg);
	strbuf_release(&st);
	return r;
}

static int btrfs_settings(const struct pool_target *t, const char *dataset, uint64_t io_size,
			  struct pool_kind_settings *e)
{
	(void)dataset;
	(void)io_size;
	const char *argv[] = { "btrfs", "filesystem", "usage", "-b", t->mountpoint, NULL };
	struct strbuf out = STRBUF_INIT;
	struct btrfs_usage *u = calloc(1, sizeof(*u));
	char why[240] = "";
	int r = u ? capture(argv, &out, why, sizeof(why)) : -ENOMEM;
	if (r == 0 && btrfs_parse_usage(out.buf, u) < 0) {
		r = -EINVAL;
		snprintf(why, sizeof(why), "not understood");
	}
	if (r == 0)
		snprintf(e->data_profile, sizeof(e->data_profile), "%s", u->data_profile);
	if (r == 0 && pool_findings_btrfs(t->pool, u, e->findings) < 0) {
		r = -EINVAL;
		snprintf(why, sizeof(why), "the device sizes were not understood");
	}
	if (r < 0)
		snprintf(e->error, sizeof(e->error), "btrfs filesystem usage: %s",
			 why[0] ? why : "out of memory");
	free(u);
	strbuf_release(&out);
	return r;
}


/* ---- the rows ---- */

static int zfs_resolve(const char *id, enum pool_resolve_how how, struct pool_target *t)
{
	(void)how;
	int r = resolve_zfs(id, t);
	return r == -ENOENT ? 1 : r;
}

/* A btrfs mount point given as a path (only when asked): subvolumes go in it. */
static int btrfs_resolve_path(const char *id, struct pool_target *t)
{
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
	if (r == 0)
		t->kind = &pool_kind_btrfs;
	return r;
}

static int btrfs_resolve(const char *id, enum pool_resolve_how how, struct pool_target *t)
{
	if (id[0] == '/')
		return how == POOL_RESOLVE_ASKED ? btrfs_resolve_path(id, t) : 1;
	int r = resolve_btrfs(id, t);
	return r == -ENOENT ? 1 : r;
}

/* Detecting, only where a cluster is configured, and quietly. */
static int rbd_resolve(const char *id, enum pool_resolve_how how, struct pool_target *t)
{
	if (id[0] == '/' || (how == POOL_RESOLVE_DETECT && !ceph_configured()))
		return 1;
	int r = resolve_rbd(id, how == POOL_RESOLVE_DETECT, t);
	return r == -ENOENT ? 1 : r;
}

/* Detecting, a path only (the last row: a path that is no other kind). */
static int dir_resolve(const char *id, enum pool_resolve_how how, struct pool_target *t)
{
	if (how == POOL_RESOLVE_DETECT && id[0] != '/')
		return 1;
	return resolve_dir(id, t);
}

const struct pool_kind pool_kind_zfs = {
	.pool = true,
	.fstype = "zfs",
	.what = "a ZFS pool",
	.area = SCRATCH_ZFS,
	.arc = true,
	.root_dataset = true,
	.iostat = true,
	.sync_probe = true,
	.zvols = true,
	.layout = POOL_LAYOUT_VDEVS,
	.members_from = "zpool status",
	.when_no_layer = "if the pool is still too slow for its workload, the ceiling is the file-system path "
			 "itself: benchpool, then the tuning (record size, compression, sync, caches)",
	.resolve = zfs_resolve,
	.status = zfs_status,
	.settings = zfs_settings,
};

const struct pool_kind pool_kind_btrfs = {
	.pool = true,
	.fstype = "btrfs",
	.what = "a btrfs file system",
	.area = SCRATCH_BTRFS,
	.layout = POOL_LAYOUT_PROFILE,
	.members_from = "btrfs filesystem show",
	.when_no_layer = "if the file system is still too slow for its workload, the ceiling is the file-system "
			 "path itself: benchpool, then its mount options (compression, commit interval, space_cache, "
			 "nodatacow for images) and its data profile",
	.resolve = btrfs_resolve,
	.status = btrfs_status,
	.settings = btrfs_settings,
};

const struct pool_kind pool_kind_rbd = {
	.pool = true,
	.fstype = "ceph",
	.what = "a Ceph pool",
	.area = SCRATCH_RBD,
	.when_no_layer = "if the pool is still too slow for its workload, the ceiling is the Ceph path itself: "
			 "benchpool with more jobs and a deeper queue (one client rarely fills a cluster), then the "
			 "pool's PG count and replication, the OSDs' osd_memory_target and BlueStore cache, the "
			 "client's RBD cache and the network between the clients and the OSDs",
	.no_members = "a Ceph pool: its OSDs are not sampled yet",
	.no_settings = "a Ceph pool: its settings and the cluster's state are judged in ceph_osds (the Ceph step)",
	.resolve = rbd_resolve,
	.status = ceph_status,
};

const struct pool_kind pool_kind_cephfs = {
	.pool = true,
	.fstype = "ceph",
	.what = "a Ceph pool",
	.area = SCRATCH_CEPHFS,
	.when_no_layer = "if CephFS is still too slow for its workload, the ceiling is the Ceph path itself: "
			 "benchpool with more jobs, then the data pool's PG count and replication, the MDS cache "
			 "(mds_cache_memory_limit), the client's caches and file layout (stripe unit and count), the "
			 "OSDs' osd_memory_target and the network between the clients and the OSDs",
	.no_members = "a Ceph pool: its OSDs are not sampled yet",
	.no_settings = "a Ceph pool: its settings and the cluster's state are judged in ceph_osds (the Ceph step)",
	.resolve = resolve_cephfs,
	.status = ceph_status,
};

const struct pool_kind pool_kind_dir = {
	.fstype = "dir",
	.what = "a directory",
	.area = SCRATCH_DIR,
	.when_no_layer = "if the directory is still too slow for its workload, the ceiling is its file system: "
			 "benchpool, then that file system's mount options and the device under it",
	.no_members = "a directory: no pool members to sample",
	.no_settings = "a directory: no pool settings to read",
	.resolve = dir_resolve,
	.status = dir_status,
};

const struct pool_kind *const pool_kinds[] = { &pool_kind_zfs, &pool_kind_btrfs, &pool_kind_rbd, &pool_kind_cephfs,
					       &pool_kind_dir, NULL };

bool pool_kind_fstype_known(const char *fstype)
{
	for (size_t i = 0; pool_kinds[i]; i++)
		if (strcmp(pool_kinds[i]->fstype, fstype) == 0)
			return true;
	return false;
}

const char *pool_kind_fstype_words(void)
{
	static char words[128];
	if (words[0])
		return words;
	const char *unique[16];
	size_t n = 0;
	for (size_t i = 0; pool_kinds[i] && n < 16; i++) {
		bool seen = false;
		for (size_t k = 0; k < n; k++)
			seen |= strcmp(unique[k], pool_kinds[i]->fstype) == 0;
		if (!seen)
			unique[n++] = pool_kinds[i]->fstype;
	}
	size_t used = 0;
	for (size_t k = 0; k < n && used < sizeof(words); k++)
		used += (size_t)snprintf(words + used, sizeof(words) - used, "%s%s", k == 0 ? "" : k + 1 == n ? " or " : ", ",
					 unique[k]);
	return words;
}
