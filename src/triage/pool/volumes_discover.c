/* triage/pool/volumes_discover.c: which mounts the volumes test covers, and what
 * each one is: its stable id, name, pool and mapping. */
#include "basic/strbuf.h"
#include "triage/pool/volumes.h"

#include <blkid/blkid.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "basic/cleanup.h"
#include "basic/log.h"
#include "basic/spawn.h"

#define ZFS_TIMEOUT_MS 30000

static bool matches(const struct mount_entry *m, const char *const *globs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (fnmatch(globs[i], m->mountpoint, 0) == 0 || fnmatch(globs[i], m->source, 0) == 0)
			return true;
	return false;
}

static const char *basename_of(const char *path)
{
	const char *s = strrchr(path, '/');
	return s && s[1] ? s + 1 : path;
}

/* UUID and LABEL of the file system on DEVICE (libblkid), "" when unknown. */
static void probe_ids(const char *device, char *uuid, size_t ulen, char *label, size_t llen)
{
	uuid[0] = label[0] = '\0';
	struct stat st;
	if (stat(device, &st) < 0 || !S_ISBLK(st.st_mode))
		return;
	_cleanup_close_ int fd = open(device, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return;
	blkid_probe pr = blkid_new_probe();
	if (!pr)
		return;
	if (blkid_probe_set_device(pr, fd, 0, 0) == 0) {
		blkid_probe_enable_superblocks(pr, 1);
		blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_LABEL | BLKID_SUBLKS_UUID);
		if (blkid_do_safeprobe(pr) == 0) {
			const char *v = NULL;
			if (blkid_probe_lookup_value(pr, "UUID", &v, NULL) == 0 && v)
				snprintf(uuid, ulen, "%s", v);
			v = NULL;
			if (blkid_probe_lookup_value(pr, "LABEL", &v, NULL) == 0 && v)
				snprintf(label, llen, "%s", v);
		}
	}
	blkid_free_probe(pr);
}

/* The first 8 hex digits of a UUID, dashes left out. */
static void short_uuid(const char *uuid, char *buf, size_t len)
{
	char hex[9];
	size_t n = 0;
	for (const char *p = uuid; *p && n < 8; p++)
		if (*p != '-')
			hex[n++] = *p;
	hex[n] = '\0';
	snprintf(buf, len, "%s", hex);
}

static void describe_zfs(struct volume *v, const struct zfs_datasets *sets)
{
	const struct mount_entry *m = v->m;
	const struct zfs_dataset *ds = zfs_datasets_find(sets, m->source);
	snprintf(v->kind, sizeof(v->kind), "zfs");
	zfs_dataset_pool(m->source, v->pool, sizeof(v->pool));
	snprintf(v->mapping, sizeof(v->mapping), "%s", m->source);
	snprintf(v->name, sizeof(v->name), "%s", basename_of(m->source));
	uint64_t guid;
	char *end;
	if (ds && ds->guid[0] && (guid = strtoull(ds->guid, &end, 10), *end == '\0')) {
		snprintf(v->vol_id, sizeof(v->vol_id), "zfs:%s", ds->guid);
		snprintf(v->vol_id_short, sizeof(v->vol_id_short), "%08" PRIx64, guid >> 32);
	}
	if (ds) {
		snprintf(v->compression, sizeof(v->compression), "%s", ds->compression);
		snprintf(v->primarycache, sizeof(v->primarycache), "%s", ds->primarycache);
		v->recordsize = ds->recordsize;
	}
}

static void describe_block_fs(struct volume *v)
{
	const struct mount_entry *m = v->m;
	char uuid[64], label[256];
	probe_ids(m->source, uuid, sizeof(uuid), label, sizeof(label));
	snprintf(v->mapping, sizeof(v->mapping), "%s", m->source);
	snprintf(v->pool, sizeof(v->pool), "none");
	if (mount_is_btrfs(m)) {
		char subvol[256] = "/", subvolid[32] = "5";
		mount_option(m->super_opts, "subvol", subvol, sizeof(subvol));
		mount_option(m->super_opts, "subvolid", subvolid, sizeof(subvolid));
		snprintf(v->kind, sizeof(v->kind), "btrfs");
		snprintf(v->subvolume, sizeof(v->subvolume), "%s", subvol);
		if (label[0])
			snprintf(v->pool, sizeof(v->pool), "%s", label);
		if (strcmp(subvol, "/") != 0) {
			snprintf(v->name, sizeof(v->name), "%s", basename_of(subvol));
			snprintf(v->mapping, sizeof(v->mapping), "%s:%s", m->source, subvol);
		}
		if (uuid[0]) {
			char s[9];
			short_uuid(uuid, s, sizeof(s));
			snprintf(v->vol_id, sizeof(v->vol_id), "btrfs:%s/%s", uuid, subvolid);
			snprintf(v->vol_id_short, sizeof(v->vol_id_short), "%s%s%s", s,
				 strcmp(subvolid, "5") ? "/" : "", strcmp(subvolid, "5") ? subvolid : "");
		}
	} else {
		snprintf(v->kind, sizeof(v->kind), "fs");
		if (uuid[0]) {
			snprintf(v->vol_id, sizeof(v->vol_id), "uuid:%s", uuid);
			short_uuid(uuid, v->vol_id_short, sizeof(v->vol_id_short));
		}
	}
	if (!v->name[0])
		snprintf(v->name, sizeof(v->name), "%s", label[0] ? label : basename_of(m->mountpoint));
}

static void describe(struct volume *v, const struct zfs_datasets *sets)
{
	if (mount_is_zfs(v->m))
		describe_zfs(v, sets);
	else
		describe_block_fs(v);
	/* No UUID or GUID to be had (network file systems): the device number. */
	if (!v->vol_id[0]) {
		snprintf(v->vol_id, sizeof(v->vol_id), "dev:%u:%u", v->m->major, v->m->minor);
		snprintf(v->vol_id_short, sizeof(v->vol_id_short), "%u:%u", v->m->major, v->m->minor);
	}
}

static void load_zfs(struct volume_list *list)
{
	bool any = false;
	for (size_t i = 0; i < list->mounts.count; i++)
		any |= mount_is_zfs(&list->mounts.entries[i]);
	if (!any)
		return;
	struct spawn_result out;
	int r = spawn_run(zfs_datasets_argv, ZFS_TIMEOUT_MS, &out);
	if (r < 0)
		log_msg(LOG_WARN, "cannot run zfs get: %s; ZFS volumes are listed without GUID and compression",
			r == -ENOENT ? "zfs is not installed" : strerror(-r));
	else if (out.status != 0)
		log_msg(LOG_WARN, "zfs get failed: %s", out.err.len ? out.err.buf : "no message");
	else if (zfs_parse_datasets(out.out.buf, &list->datasets) < 0)
		log_msg(LOG_WARN, "cannot read the output of zfs get");
	spawn_result_release(&out);
}

static void add_skipped(struct volume_list *list, const struct mount_entry *m, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void add_skipped(struct volume_list *list, const struct mount_entry *m, const char *fmt, ...)
{
	list->skipped = xreallocarray(list->skipped, list->nskipped + 1, sizeof(*list->skipped));
	struct skipped_mount *s = &list->skipped[list->nskipped++];
	s->m = m;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->reason, sizeof(s->reason), fmt, ap);
	va_end(ap);
}

int volumes_discover(const char *const *globs, size_t nglobs, struct volume_list *list)
{
	memset(list, 0, sizeof(*list));
	struct strbuf text = STRBUF_INIT;
	int r = mounts_read_proc(&text);
	size_t line = 0;
	if (r < 0)
		log_msg(LOG_ERR, "cannot read /proc/self/mountinfo: %s", strerror(-r));
	else if ((r = mounts_parse(text.buf, &list->mounts, &line)) < 0)
		log_msg(LOG_ERR, "cannot parse /proc/self/mountinfo: line %zu is malformed", line);
	strbuf_release(&text);
	if (r < 0)
		return r;
	load_zfs(list);

	const struct mount_table *t = &list->mounts;
	list->vols = xcalloc(t->count ? t->count : 1, sizeof(*list->vols));
	for (size_t i = 0; i < t->count; i++) {
		const struct mount_entry *m = &t->entries[i];
		bool named = nglobs && matches(m, globs, nglobs);
		if (nglobs && !named) {
			list->not_matched++;
			continue;
		}
		size_t first = 0;
		enum mount_class c = mount_classify(t, i, &first);
		/* A second mount of a file system that --match left out stands for it. */
		if (c == MOUNT_DUPLICATE && nglobs && !matches(&t->entries[first], globs, nglobs))
			c = strcmp(m->mountpoint, "/") == 0 ? MOUNT_ROOT : MOUNT_VOLUME;
		if (c == MOUNT_ROOT && named)
			c = MOUNT_VOLUME;
		switch (c) {
		case MOUNT_PSEUDO:
			add_skipped(list, m, "pseudo file system (%s): no storage to measure", m->fstype);
			continue;
		case MOUNT_ROOT:
			add_skipped(list, m, "the root file system: name it with --match / to test it");
			continue;
		case MOUNT_DUPLICATE:
			add_skipped(list, m, "another mount of the file system at %s (a bind mount)",
				    t->entries[first].mountpoint);
			continue;
		case MOUNT_VOLUME:
			break;
		}
		struct volume *v = &list->vols[list->count++];
		v->m = m;
		describe(v, &list->datasets);
	}
	return 0;
}

void volume_list_release(struct volume_list *list)
{
	for (size_t i = 0; i < list->count; i++)
		free(list->vols[i].res);
	free(list->vols);
	free(list->skipped);
	zfs_datasets_release(&list->datasets);
	mount_table_release(&list->mounts);
	memset(list, 0, sizeof(*list));
}
