/* pool/target.c: POOL resolved through the pool kinds' rows (pool/kind.h), every pool listed, the status. */
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

int pool_target_resolve(const char *id, const char *fstype, struct pool_target *t)
{
	*t = (struct pool_target){ .kind = &pool_kind_dir };
	enum pool_resolve_how how = fstype ? POOL_RESOLVE_ASKED : POOL_RESOLVE_DETECT;
	for (size_t i = 0; pool_kinds[i]; i++) {
		if (fstype && strcmp(pool_kinds[i]->fstype, fstype) != 0)
			continue;
		int r = pool_kinds[i]->resolve(id, how, t);
		if (r <= 0)
			return r;
		*t = (struct pool_target){ .kind = &pool_kind_dir };
	}
	if (fstype)
		log_msg(LOG_ERR, "no %s pool named '%s'", fstype, id);
	else
		log_msg(LOG_ERR, "cannot tell what '%s' is: no ZFS pool, btrfs file system, Ceph pool or directory by "
				 "that name; pass --fstype %s",
			id, pool_kind_fstype_words());
	return -ENOENT;
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
		struct pool_target t = { .kind = &pool_kind_dir };
		const struct pool_kind *k = i < nzfs ? &pool_kind_zfs : &pool_kind_btrfs;
		if (k->resolve(names[i], POOL_RESOLVE_DETECT, &t) == 0)
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
	t->kind->status(t, out, ceph);
}
