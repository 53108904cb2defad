/* pool/areas.c: the temporary areas pool-level tests write into (create,
 * tag, remove, stale removal) and the compression on them. */
#include "pool/areas.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "basic/log.h"
#include "basic/proc_args.h"
#include "basic/spawn.h"
#include "pool/rbd_images.h"

static int scratch_stale(const struct pool_target *t, struct scratch *ret, size_t max)
{
	return scratch_find_stale(t->kind->area, t->parent, ret, max);
}

static int rbd_stale(const struct pool_target *t, struct scratch *ret, size_t max)
{
	return rbd_images_find_stale(t->parent, ret, max);
}

static void zfs_compression(const struct scratch *area, char *buf, size_t len)
{
	scratch_zfs_get(area->name, "compression", buf, len);
}

static void btrfs_compression(const struct scratch *area, char *buf, size_t len)
{
	const char *argv[] = { "btrfs", "property", "get", area->path, "compression", NULL };
	struct spawn_result res;
	if (spawn_run(argv, 30000, &res) == 0 && res.status == 0) {
		const char *eq = strchr(res.out.buf, '=');
		if (eq && eq[1] && eq[1] != '\n')
			snprintf(buf, len, "%.*s", (int)strcspn(eq + 1, "\n"), eq + 1);
	}
	spawn_result_release(&res);
}

static const char *const reads_page_cache = "after dropping the page cache";

/* The area kinds, by scratch_kind. */
static const struct pool_area_kind area_kinds[] = {
	[SCRATCH_ZFS] = { .word = "ZFS dataset", .records = true,
			  .reads = "with the ARC keeping no file data (primarycache=metadata)",
			  .destroy = scratch_destroy, .find_stale = scratch_stale, .compression = zfs_compression },
	[SCRATCH_BTRFS] = { .word = "btrfs subvolume", .reads = reads_page_cache, .destroy = scratch_destroy,
			    .find_stale = scratch_stale, .compression = btrfs_compression },
	[SCRATCH_DIR] = { .word = "directory", .reads = reads_page_cache, .destroy = scratch_destroy,
			  .find_stale = scratch_stale },
	[SCRATCH_CEPHFS] = { .word = "CephFS directory", .reads = reads_page_cache, .destroy = scratch_destroy,
			     .find_stale = scratch_stale },
	[SCRATCH_RBD] = { .word = "RBD image", .block = true, .reads = "through librbd (no page cache)",
			  .destroy = rbd_image_remove, .find_stale = rbd_stale },
};

const struct pool_area_kind *pool_area_kind(enum scratch_kind k)
{
	return &area_kinds[k];
}

static const char *kind_word(enum scratch_kind k)
{
	return area_kinds[k].word;
}

static int area_destroy(const struct scratch *s, struct strbuf *err)
{
	return area_kinds[s->kind].destroy(s, err);
}

/* A run killed with SIGKILL leaves the programs it started running on its
 * area (fio goes on to its runtime's end, holding an RBD image's watch or a
 * dataset's mount busy). They are found by the area's own name, which
 * carries the dead run's id, and stopped before the area is removed. */
static void stop_leftover_programs(const struct scratch *s, const struct pool_target *t, const char *tag)
{
	const char *leaf = strrchr(s->name, '/');
	leaf = leaf ? leaf + 1 : s->name;
	pid_t pids[16];
	int n = proc_find_by_arg("/proc", leaf, pids, 16);
	if (n <= 0)
		return;
	size_t killed = proc_stop_all(pids, (size_t)n, 5000);
	log_msg(LOG_INFO, "%s (%s): stopped %d program%s (pid %d%s) the interrupted run left running on '%s'%s", tag,
		t->pool, n, n == 1 ? "" : "s", (int)pids[0], n > 1 ? ", ..." : "", s->name,
		killed ? " (SIGKILL after 5 s)" : "");
}

int pool_areas_remove_stale(const struct pool_target *t, const char *tag)
{
	struct scratch stale[32];
	int n = area_kinds[t->kind->area].find_stale(t, stale, 32);
	for (int i = 0; i < n; i++) {
		struct strbuf err = STRBUF_INIT;
		stop_leftover_programs(&stale[i], t, tag);
		if (area_destroy(&stale[i], &err) == 0)
			log_msg(LOG_INFO, "%s (%s): removed %s '%s' left by an interrupted run (owner %s is gone)", tag,
				t->pool, kind_word(stale[i].kind), stale[i].name, stale[i].owner);
		else
			log_msg(LOG_WARN, "%s (%s): cannot remove stale %s '%s': %s", tag, t->pool,
				kind_word(stale[i].kind), stale[i].name, err.buf);
		strbuf_release(&err);
	}
	return n < 0 ? 0 : n;
}

int pool_area_create(const struct pool_target *t, const char *run_id, const char *suffix, const char *recordsize,
		     struct scratch *ret, const char *tag)
{
	/* ZFS only: the record size asked for, and no file data in the ARC so
	 * that reads come from the pool. */
	char rs[32] = "";
	const char *zprops[3] = { "primarycache=metadata", NULL, NULL };
	if (recordsize) {
		snprintf(rs, sizeof(rs), "recordsize=%s", recordsize);
		zprops[1] = rs;
	}
	struct strbuf err = STRBUF_INIT;
	const struct pool_area_kind *ak = &area_kinds[t->kind->area];
	int r = scratch_create(t->kind->area, t->parent, run_id, suffix, ak->records ? zprops : NULL, ret, &err);
	if (r < 0 && ak->records && recordsize && strstr(err.buf, "recordsize")) {
		/* An older ZFS (zfs-fuse: 128K at most) has no large records. */
		log_msg(LOG_WARN, "%s (%s): this ZFS refuses recordsize=%s (%.*s); using 128K", tag, t->pool, recordsize,
			(int)strcspn(err.buf, "\n"), err.buf);
		strbuf_reset(&err);
		snprintf(rs, sizeof(rs), "recordsize=128K");
		r = scratch_create(t->kind->area, t->parent, run_id, suffix, zprops, ret, &err);
	}
	if (r < 0)
		log_msg(LOG_ERR, "%s (%s): cannot create a temporary %s: %.*s", tag, t->pool, ak->word,
			(int)strcspn(err.buf, "\n"), err.buf);
	else
		log_msg(LOG_INFO, "%s (%s): created temporary %s %s%s%s", tag, t->pool, ak->word, ret->name,
			ak->records ? " with " : "", ak->records ? rs : "");
	strbuf_release(&err);
	return r;
}

int pool_area_create_zvol(const struct pool_target *t, const char *run_id, const char *suffix, uint64_t bytes,
			  const char *volblocksize, struct scratch *ret, const char *tag)
{
	char vbs[48];
	snprintf(vbs, sizeof(vbs), "volblocksize=%s", volblocksize);
	const char *props[] = { vbs, "primarycache=metadata", NULL };
	struct strbuf err = STRBUF_INIT;
	int r = scratch_create_zvol(t->parent, run_id, suffix, bytes, props, ret, &err);
	if (r < 0)
		log_msg(LOG_ERR, "%s (%s): cannot create a temporary zvol: %.*s", tag, t->pool,
			(int)strcspn(err.buf, "\n"), err.buf);
	else
		log_msg(LOG_INFO, "%s (%s): created temporary zvol %s (%s) with %s, %" PRIu64 " bytes", tag, t->pool,
			ret->name, ret->path, vbs, bytes);
	strbuf_release(&err);
	return r;
}

int pool_area_create_image(const struct pool_target *t, const char *run_id, const char *suffix, uint64_t bytes,
			   struct scratch *ret, const char *tag)
{
	struct strbuf err = STRBUF_INIT;
	int r = rbd_image_create(t->parent, run_id, suffix, bytes, ret, &err);
	if (r < 0)
		log_msg(LOG_ERR, "%s (%s): cannot create a temporary RBD image: %.*s", tag, t->pool,
			(int)strcspn(err.buf, "\n"), err.buf);
	else
		log_msg(LOG_INFO, "%s (%s): created temporary RBD image %s (owner %s)", tag, t->pool, ret->name,
			ret->owner);
	strbuf_release(&err);
	return r;
}

void pool_areas_destroy(struct scratch *areas, size_t n, const char *pool, const char *tag)
{
	for (size_t i = 0; i < n; i++) {
		struct strbuf err = STRBUF_INIT;
		if (area_destroy(&areas[i], &err) == 0)
			log_msg(LOG_INFO, "%s (%s): removed temporary %s %s", tag, pool, kind_word(areas[i].kind),
				areas[i].name);
		else
			log_msg(LOG_ERR, "%s (%s): cannot remove temporary %s %s: %s", tag, pool,
				kind_word(areas[i].kind), areas[i].name, err.buf);
		strbuf_release(&err);
	}
}

void pool_area_compression(const struct pool_target *t, const struct scratch *area, char *buf, size_t len)
{
	snprintf(buf, len, "off");
	const struct pool_area_kind *ak = &area_kinds[t->kind->area];
	if (ak->compression)
		ak->compression(area, buf, len);
}

bool pool_compression_is_on(const char *value)
{
	return value[0] && strcmp(value, "off") != 0 && strcmp(value, "none") != 0 && strcmp(value, "-") != 0;
}
