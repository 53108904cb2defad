/* triage/pool/pool_twin.c: the doctor's pool steps: a RAM twin of the pool (the
 * media factored out) and the same short workload on the twin and on the
 * real pool. */
#include "triage/pool/pool_twin.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "basic/log.h"
#include "basic/spawn.h"
#include "pool/areas.h"
#include "pool/lookup.h"
#include "pool/zpool.h"

#define TOOL_TIMEOUT_MS 120000
#define RAM_DIR "/dev/shm" /* tmpfs: files here are memory */

/* Runs a tool; a failure is logged with the tool's own words. */
static int run_tool(const char *const *argv, struct strbuf *out)
{
	struct strbuf err = STRBUF_INIT;
	int r = spawn_check(argv, TOOL_TIMEOUT_MS, out, &err);
	if (r < 0)
		log_msg(LOG_ERR, "%s", err.buf);
	strbuf_release(&err);
	return r;
}

/* The loop devices the twin needs: every child of every data vdev. */
static size_t zfs_twin_members(const struct pool_layout *l)
{
	size_t n = 0;
	for (size_t i = 0; i < l->nvdevs; i++)
		n += l->vdevs[i].klass == POOL_CLASS_DATA ? l->vdevs[i].width : 0;
	return n;
}

/* What the twin leaves out of the pool, and why, into T->left_out. */
static void note_left_out(const struct pool_layout *l, struct pool_twin *t)
{
	size_t len = 0;
	for (size_t i = 0; i < l->nvdevs; i++) {
		const struct pool_vdev *v = &l->vdevs[i];
		const char *why = v->klass == POOL_CLASS_LOG ? "a log serves sync writes only; the workload writes asynchronously"
				  : v->klass == POOL_CLASS_SPECIAL ? "it holds metadata (and small blocks); the workload is 1 MiB records of file data"
				  : v->klass == POOL_CLASS_DEDUP ? "the workload's areas do not deduplicate"
								  : NULL;
		if (why && len < sizeof(t->left_out))
			len += (size_t)snprintf(t->left_out + len, sizeof(t->left_out) - len, "%s%s %s (%s)",
						len ? "; " : "", pool_class_name(v->klass), v->name, why);
	}
}

static int zfs_twin(const struct pool_layout *layout, const char *run_id, struct pool_twin *t)
{
	char name[64], owner[256], tag[200];
	snprintf(name, sizeof(name), "iotriage-twin-%s", run_id);
	scratch_owner_tag(run_id, tag, sizeof(tag));
	snprintf(owner, sizeof(owner), "%s=%s", SCRATCH_OWNER_PROPERTY, tag);
	const char *argv[8 + 2 * POOL_TWIN_MAX_MEMBERS];
	char words[POOL_TWIN_MAX_MEMBERS][32];
	size_t n = 0, used = 0, nwords = 0;
	argv[n++] = "zpool";
	argv[n++] = "create";
	argv[n++] = "-f";
	argv[n++] = "-O";
	argv[n++] = owner;
	argv[n++] = name;
	for (size_t i = 0; i < layout->nvdevs && nwords < POOL_TWIN_MAX_MEMBERS; i++) {
		const struct pool_vdev *v = &layout->vdevs[i];
		if (v->klass != POOL_CLASS_DATA || used + v->width > t->nloops)
			continue;
		pool_vdev_kind_word(v, words[nwords], sizeof(words[nwords]));
		if (words[nwords][0])
			argv[n++] = words[nwords];
		nwords++;
		for (unsigned k = 0; k < v->width; k++)
			argv[n++] = t->loops[used++].path;
	}
	argv[n] = NULL;
	note_left_out(layout, t);
	int r = run_tool(argv, NULL);
	if (r < 0)
		return r;
	t->pool_made = true;
	/* What the twin is, as ZFS reports it, not as it was asked for. */
	struct pool_layout made = { .count = 0 };
	const struct pool_kind *kind;
	if (pool_find(name, &made, &kind) == 0)
		pool_layout_data_vdevs(&made, t->data_vdevs, sizeof(t->data_vdevs));
	pool_layout_release(&made);
	pool_layout_data_vdevs(layout, t->pool_data_vdevs, sizeof(t->pool_data_vdevs));
	log_msg(LOG_INFO, "DOCTOR: the RAM twin's data vdevs: %s (the pool's: %s)%s%s", t->data_vdevs,
		t->pool_data_vdevs, t->left_out[0] ? "; left out: " : "", t->left_out);
	return pool_target_resolve(name, "zfs", &t->target);
}

/* btrfs's data and metadata profiles ("raid1", "single", "dup") from
 * `btrfs filesystem df`: "Data, RAID1: total=..., used=...". */
static void btrfs_profile(const char *text, const char *kind, char *buf, size_t len)
{
	snprintf(buf, len, "single");
	const char *p = strstr(text, kind);
	if (!p || !(p = strstr(p, ", ")))
		return;
	p += 2;
	size_t n = strcspn(p, ":");
	if (n >= len)
		return;
	for (size_t i = 0; i < n; i++)
		buf[i] = (char)(p[i] >= 'A' && p[i] <= 'Z' ? p[i] - 'A' + 'a' : p[i]);
	buf[n] = '\0';
}

static int btrfs_twin(const struct pool_target *real, const char *run_id, struct pool_twin *t)
{
	const char *df_argv[] = { "btrfs", "filesystem", "df", real->mountpoint, NULL };
	struct strbuf df = STRBUF_INIT;
	char data[16], meta[16], label[64];
	int r = run_tool(df_argv, &df);
	btrfs_profile(df.buf, "Data,", data, sizeof(data));
	btrfs_profile(df.buf, "Metadata,", meta, sizeof(meta));
	strbuf_release(&df);
	if (r < 0)
		return r;
	snprintf(label, sizeof(label), "iotriage-twin-%s", run_id);
	const char *argv[12 + POOL_TWIN_MAX_MEMBERS] = { "mkfs.btrfs", "-q", "-f", "-L", label, "-d", data, "-m", meta };
	size_t n = 9;
	for (size_t i = 0; i < t->nloops; i++)
		argv[n++] = t->loops[i].path;
	argv[n] = NULL;
	if ((r = run_tool(argv, NULL)) < 0)
		return r;
	snprintf(t->mnt, sizeof(t->mnt), "/run/%s", label);
	if (mkdir(t->mnt, 0700) < 0 && errno != EEXIST)
		return -errno;
	if (mount(t->loops[0].path, t->mnt, "btrfs", 0, NULL) < 0) {
		r = -errno;
		log_msg(LOG_ERR, "cannot mount the RAM twin: %s", strerror(errno));
		rmdir(t->mnt);
		t->mnt[0] = '\0';
		return r;
	}
	t->pool_made = true;
	char tag[200], path[PATH_MAX + 32], line[256];
	scratch_owner_tag(run_id, tag, sizeof(tag));
	snprintf(path, sizeof(path), "%s/%s", t->mnt, SCRATCH_OWNER_FILE);
	int len = snprintf(line, sizeof(line), "%s\n", tag);
	FILE *f = fopen(path, "we");
	if (f) {
		fwrite(line, 1, (size_t)len, f);
		fclose(f);
	}
	return pool_target_resolve(t->mnt, "btrfs", &t->target);
}

int pool_twin_build(const struct pool_target *real, const struct pool_layout *layout, const char *run_id,
		    uint64_t member_size, struct pool_twin *t)
{
	*t = (struct pool_twin){ .nloops = 0, .target = { .kind = real->kind } };
	for (size_t i = 0; i < POOL_TWIN_MAX_MEMBERS; i++)
		t->loops[i] = (struct loopdev)LOOPDEV_INIT;
	/* btrfs: every device; ZFS: every child of a data vdev */
	bool vdevs = real->kind->layout == POOL_LAYOUT_VDEVS;
	size_t want = vdevs ? zfs_twin_members(layout) : layout->count;
	if (want == 0 || want > POOL_TWIN_MAX_MEMBERS) {
		log_msg(LOG_ERR, "DOCTOR: cannot build a RAM twin of a pool with %zu data members", want);
		return -EINVAL;
	}
	int r = 0;
	for (; t->nloops < want && r == 0; t->nloops++)
		r = loopdev_create(RAM_DIR, member_size, 512, &t->loops[t->nloops]);
	if (r < 0)
		log_msg(LOG_ERR, "DOCTOR: cannot make RAM-backed loop devices in %s: %s", RAM_DIR, strerror(-r));
	else
		r = vdevs ? zfs_twin(layout, run_id, t) : btrfs_twin(real, run_id, t);
	if (r < 0)
		pool_twin_destroy(t);
	return r;
}

void pool_twin_destroy(struct pool_twin *t)
{
	if (t->pool_made && t->target.kind->layout == POOL_LAYOUT_VDEVS) {
		if (zpool_destroy_retrying(t->target.pool) < 0)
			log_msg(LOG_ERR, "DOCTOR: cannot destroy the RAM twin pool %s", t->target.pool);
	} else if (t->pool_made && t->mnt[0]) {
		if (umount2(t->mnt, 0) < 0 && umount2(t->mnt, MNT_DETACH) < 0)
			log_msg(LOG_ERR, "DOCTOR: cannot unmount %s: %s", t->mnt, strerror(errno));
	}
	if (t->mnt[0])
		rmdir(t->mnt);
	for (size_t i = 0; i < t->nloops; i++)
		loopdev_destroy(&t->loops[i]);
	t->nloops = 0;
	t->pool_made = false;
}

int pool_twin_workload(const struct pool_target *t, const char *run_id, const char *suffix, uint64_t size,
		       unsigned runtime_s, struct pb_outcome *o)
{
	struct scratch area;
	if (pool_area_create(t, run_id, suffix, "1M", &area, "DOCTOR") < 0)
		return -EIO;
	struct pb_context c = {
		.throughput_dir = area.path,
		.size = size,
		.runtime_s = runtime_s,
		.pattern = PATTERN_RANDOM,
		.direct_ok = pb_direct_supported(area.path),
		.arc_data_cached = false, /* the area is made with primarycache=metadata */
	};
	int r = pb_write_then_read(&c, area.path, "iotriage-doctor.dat", o);
	pool_areas_destroy(&area, 1, t->pool, "DOCTOR");
	return r;
}
