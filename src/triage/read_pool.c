/* A read batch of one pool's members. */
#include "triage/read_pool.h"

#include <stdio.h>
#include <string.h>

#include "basic/log.h"
#include "basic/strbuf.h"
#include "pool/lookup.h"

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
