/* A read batch of one pool's members. */
#include "triage/media/read_pool.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "basic/log.h"
#include "basic/strbuf.h"
#include "pool/kind.h"
#include "pool/lookup.h"

/* Why a member is not read (pool/zfs.h), or that its device node is
 * missing; NULL: read it. */
static const char *member_unread_reason(const struct pool_member *m)
{
	const char *why = pool_member_unread_reason(m);
	struct stat st;
	if (!why && !m->host[0] && stat(m->path, &st) < 0)
		why = "no such device here (the pool names it, the system does not have it)";
	return why;
}

static const char *vdev_type_name(enum pool_vdev_type t)
{
	static const char *const names[] = { "disk", "mirror", "raidz", "draid" };
	return names[t];
}

/* The top-level vdevs, by class, with their kind and width (ZFS). */
static void json_vdevs(struct json *j, const struct pool_layout *l)
{
	json_begin_array(j, "vdevs");
	for (size_t i = 0; i < l->nvdevs; i++) {
		const struct pool_vdev *v = &l->vdevs[i];
		json_begin_object(j, NULL);
		json_string(j, "name", v->name);
		json_string(j, "class", pool_class_name(v->klass));
		json_string(j, "type", vdev_type_name(v->type));
		json_uint(j, "width", v->width);
		if (v->type == POOL_VDEV_RAIDZ || v->type == POOL_VDEV_DRAID)
			json_uint(j, "parity", v->parity);
		if (v->type == POOL_VDEV_DRAID) {
			json_uint(j, "draid_data", v->draid_data);
			json_uint(j, "draid_children", v->draid_children);
			json_uint(j, "draid_spares", v->draid_spares);
		}
		json_string(j, "state", v->state[0] ? v->state : NULL);
		json_end_object(j);
	}
	json_end_array(j);
}

void pool_layout_json(struct json *j, void *arg)
{
	const struct pool_layout *l = arg;
	json_begin_object(j, "pool");
	json_string(j, "name", l->pool);
	json_string(j, "fstype", l->fstype[0] ? l->fstype : l->members && strcmp(l->members[0].vdev, "btrfs") == 0 ? "btrfs" : "zfs");
	json_begin_array(j, "members");
	for (size_t i = 0; i < l->count; i++) {
		json_begin_object(j, NULL);
		json_string(j, "name", l->members[i].name);
		json_string(j, "path", l->members[i].path);
		json_string(j, "vdev", l->members[i].vdev);
		json_string(j, "class", pool_class_name(l->members[i].klass));
		json_string(j, "state", l->members[i].state[0] ? l->members[i].state : NULL);
		json_string(j, "group", l->members[i].group[0] ? l->members[i].group : NULL);
		json_string(j, "was", l->members[i].was[0] ? l->members[i].was : NULL);
		json_string(j, "not_read", member_unread_reason(&l->members[i]));
		json_string(j, "read_on_host", l->members[i].host[0] ? l->members[i].host : NULL);
		json_end_object(j);
	}
	json_end_array(j);
	json_vdevs(j, l);
	json_end_object(j);
}

int pool_read_batch_prepare(const char *id, struct read_batch *b, struct pool_layout *layout)
{
	const struct pool_kind *kind;
	int r = pool_find(id, layout, &kind);
	if (r == 0)
		log_msg(LOG_INFO, "READ-POOL-DISKS (%s): %zu member(s) from %s", layout->pool, layout->count,
			layout->fstype[0] ? "ceph pg ls-by-pool and ceph osd metadata" : kind->members_from);
	b->count = layout->count;
	b->reads = xcalloc(b->count ? b->count : 1, sizeof(*b->reads));
	for (size_t i = 0; i < layout->count; i++) {
		struct disk_read *d = &b->reads[i];
		/* A member on another host is described by its host's read (triage/media/read_remote.h). */
		snprintf(d->host, sizeof(d->host), "%s", layout->members[i].host);
		if (d->host[0])
			snprintf(d->info.dev_path, sizeof(d->info.dev_path), "%s", layout->members[i].path);
		else
			read_describe_path(layout->members[i].path, &d->info);
		/* Named the way the pool names it (sde1, or a by-id path's last part);
		 * a member known only by GUID by the path it had. */
		const char *name = layout->members[i].was[0] ? layout->members[i].was : layout->members[i].name;
		const char *slash = strrchr(name, '/');
		snprintf(d->info.kname, sizeof(d->info.kname), "%s", slash ? slash + 1 : name);
		snprintf(d->vdev, sizeof(d->vdev), "%s", layout->members[i].vdev);
		/* Spares, distributed spares, offline or missing members: listed with why, not read. */
		const char *why = member_unread_reason(&layout->members[i]);
		if (why) {
			d->status = READTEST_SKIPPED;
			d->info.skip_reason = why;
			snprintf(d->reason, sizeof(d->reason), "%s", why);
		}
	}
	return r;
}
