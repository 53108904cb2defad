/* pool/scratch.c: tagged temporary datasets, subvolumes and directories. */
#include "pool/scratch.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "basic/fsutil.h"
#include "basic/spawn.h"
#include "basic/procowner.h"

#define TOOL_TIMEOUT_MS 120000

void scratch_owner_tag(const char *run_id, char *buf, size_t len)
{
	struct proc_owner self = { .start = 0 };
	proc_owner_self(&self);
	snprintf(buf, len, "%s:%s:%ld:%llu", run_id, self.boot, self.pid, self.start);
}

bool scratch_owner_gone(const char *tag)
{
	char run[64];
	struct proc_owner o;
	if (sscanf(tag, "%63[^:]:%39[^:]:%ld:%llu", run, o.boot, &o.pid, &o.start) != 4 || o.pid <= 0)
		return false;
	return proc_owner_gone("/proc", &o);
}

static int run_tool(const char *const *argv, struct strbuf *err, struct strbuf *out)
{
	return spawn_check(argv, TOOL_TIMEOUT_MS, out, err);
}

int scratch_zfs_get(const char *dataset, const char *property, char *buf, size_t len)
{
	const char *argv[] = { "zfs", "get", "-H", "-o", "value", property, dataset, NULL };
	struct strbuf out = STRBUF_INIT;
	int r = run_tool(argv, NULL, &out);
	if (r == 0)
		snprintf(buf, len, "%.*s", (int)strcspn(out.buf, "\n"), out.buf);
	strbuf_release(&out);
	return r;
}

int scratch_zfs_set(const char *dataset, const char *assignment, struct strbuf *err)
{
	const char *argv[] = { "zfs", "set", assignment, dataset, NULL };
	return run_tool(argv, err, NULL);
}

static int write_owner_file(const char *dir, const char *tag)
{
	char path[PATH_MAX + 32], line[200];
	snprintf(path, sizeof(path), "%s/%s", dir, SCRATCH_OWNER_FILE);
	int n = snprintf(line, sizeof(line), "%s\n", tag);
	return write_file_atomic(path, line, (size_t)n, 0644);
}

static int create_zfs(const char *parent, const char *name, const char *tag, const char *const *props,
		      struct scratch *s, struct strbuf *err)
{
	char owner[256];
	snprintf(owner, sizeof(owner), "%s=%s", SCRATCH_OWNER_PROPERTY, tag);
	const char *argv[32];
	size_t n = 0;
	argv[n++] = "zfs";
	argv[n++] = "create";
	argv[n++] = "-o";
	argv[n++] = owner; /* tagged in the same command that creates it */
	for (size_t i = 0; props && props[i] && n < 28; i++) {
		argv[n++] = "-o";
		argv[n++] = props[i];
	}
	snprintf(s->name, sizeof(s->name), "%s/%s", parent, name);
	argv[n++] = s->name;
	argv[n] = NULL;
	int r = run_tool(argv, err, NULL);
	if (r < 0)
		return r;
	if (scratch_zfs_get(s->name, "mountpoint", s->path, sizeof(s->path)) < 0 || s->path[0] != '/') {
		strbuf_addf(err, "dataset '%s' has no mount point", s->name);
		scratch_destroy(s, NULL);
		return -ENOTDIR;
	}
	return 0;
}

int scratch_create(enum scratch_kind kind, const char *parent, const char *run_id, const char *suffix,
		   const char *const *zfs_props, struct scratch *ret, struct strbuf *err)
{
	struct scratch s = { .kind = kind };
	char name[128];
	snprintf(name, sizeof(name), SCRATCH_PREFIX "%s-%s", run_id, suffix);
	scratch_owner_tag(run_id, s.owner, sizeof(s.owner));
	int r;
	if (kind == SCRATCH_RBD) {
		strbuf_adds(err, "an RBD image is made by pool/rbd_images");
		return -EINVAL;
	}
	if (kind == SCRATCH_ZFS) {
		r = create_zfs(parent, name, s.owner, zfs_props, &s, err);
	} else {
		snprintf(s.name, sizeof(s.name), "%s/%s", parent, name);
		snprintf(s.path, sizeof(s.path), "%s", s.name);
		if (kind == SCRATCH_BTRFS) {
			const char *argv[] = { "btrfs", "subvolume", "create", s.name, NULL };
			r = run_tool(argv, err, NULL);
		} else {
			r = mkdir(s.name, 0755) < 0 ? -errno : 0;
			if (r < 0)
				strbuf_addf(err, "cannot create '%s': %s", s.name, strerror(-r));
		}
		if (r == 0) {
			r = write_owner_file(s.path, s.owner);
			if (r < 0) {
				strbuf_addf(err, "cannot tag '%s': %s", s.path, strerror(-r));
				scratch_destroy(&s, NULL);
			}
		}
	}
	if (r == 0)
		*ret = s;
	return r;
}

int scratch_create_zvol(const char *parent, const char *run_id, const char *suffix, uint64_t bytes,
			const char *const *zfs_props, struct scratch *ret, struct strbuf *err)
{
	struct scratch s = { .kind = SCRATCH_ZFS };
	char owner[256], size[32];
	scratch_owner_tag(run_id, s.owner, sizeof(s.owner));
	snprintf(owner, sizeof(owner), "%s=%s", SCRATCH_OWNER_PROPERTY, s.owner);
	snprintf(size, sizeof(size), "%" PRIu64, bytes);
	snprintf(s.name, sizeof(s.name), "%s/" SCRATCH_PREFIX "%s-%s", parent, run_id, suffix);
	const char *argv[32];
	size_t n = 0;
	argv[n++] = "zfs";
	argv[n++] = "create";
	argv[n++] = "-o";
	argv[n++] = owner;
	for (size_t i = 0; zfs_props && zfs_props[i] && n < 26; i++) {
		argv[n++] = "-o";
		argv[n++] = zfs_props[i];
	}
	argv[n++] = "-V";
	argv[n++] = size;
	argv[n++] = s.name;
	argv[n] = NULL;
	int r = run_tool(argv, err, NULL);
	if (r < 0) {
		if (err && strstr(err->buf, "Function not implemented"))
			strbuf_adds(err, " (this ZFS has no zvols: zfs-fuse)");
		return r;
	}
	/* udev makes /dev/zvol/NAME once the kernel has the volume's zdN. */
	snprintf(s.path, sizeof(s.path), "/dev/zvol/%s", s.name);
	struct stat st;
	for (unsigned waited = 0; waited < SCRATCH_ZVOL_WAIT_MS; waited += 100) {
		if (stat(s.path, &st) == 0 && S_ISBLK(st.st_mode)) {
			*ret = s;
			return 0;
		}
		usleep(100000);
	}
	strbuf_addf(err, "zfs made the volume '%s' but no device %s appeared in %u s (zfs-fuse has no zvols; "
		    "with OpenZFS, is udev running?)", s.name, s.path, SCRATCH_ZVOL_WAIT_MS / 1000);
	scratch_destroy(&s, NULL);
	return -ENODEV;
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return (type == FTW_DP ? rmdir(path) : unlink(path)) < 0 ? -1 : 0;
}

int scratch_destroy(const struct scratch *s, struct strbuf *err)
{
	if (s->kind == SCRATCH_ZFS) {
		/* zfs-fuse often answers "dataset is busy" for a while after files
		 * in it were written and removed (it unmounts, then gives up);
		 * a later attempt succeeds. OpenZFS succeeds at once. */
		static const unsigned backoff_ms[] = { 0, 250, 500, 1000, 1000, 2000, 2000, 3000, 3000, 3000 };
		const size_t attempts = sizeof(backoff_ms) / sizeof(backoff_ms[0]);
		const char *argv[] = { "zfs", "destroy", s->name, NULL };
		const char *force[] = { "zfs", "destroy", "-f", s->name, NULL };
		int r = -EBUSY;
		for (size_t attempt = 0; attempt < attempts && r < 0; attempt++) {
			usleep(backoff_ms[attempt] * 1000);
			bool last = attempt == attempts - 1;
			r = run_tool(last ? force : argv, last ? err : NULL, NULL);
		}
		return r;
	}
	if (s->kind == SCRATCH_BTRFS) {
		const char *argv[] = { "btrfs", "subvolume", "delete", s->name, NULL };
		return run_tool(argv, err, NULL);
	}
	if (s->kind == SCRATCH_RBD || !s->name[0])
		return -EINVAL; /* pool/rbd_images removes images; an unnamed area is nothing to remove */
	/* FTW_PHYS: a symlink inside is removed, never followed out of the area. */
	if (nftw(s->name, remove_entry, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT) < 0) {
		int r = -errno;
		if (err)
			strbuf_addf(err, "cannot remove '%s': %s", s->name, strerror(errno));
		return r;
	}
	return 0;
}

static bool has_prefix_component(const char *name)
{
	const char *last = strrchr(name, '/');
	last = last ? last + 1 : name;
	return strncmp(last, SCRATCH_PREFIX, strlen(SCRATCH_PREFIX)) == 0;
}

static int find_stale_zfs(const char *parent, struct scratch *ret, size_t max)
{
	/* Only where the tag is set locally: an inherited value does not make
	 * a child dataset ours. */
	const char *argv[] = { "zfs", "get", "-H", "-r", "-s", "local", "-o", "name,value", SCRATCH_OWNER_PROPERTY,
			       parent, NULL };
	struct strbuf out = STRBUF_INIT;
	int r = run_tool(argv, NULL, &out);
	size_t n = 0;
	for (char *line = out.buf; r == 0 && *line && n < max;) {
		char *end = line + strcspn(line, "\n");
		bool last = *end == '\0';
		*end = '\0';
		char *tab = strchr(line, '\t');
		if (tab) {
			*tab = '\0';
			const char *tag = tab + 1;
			if (has_prefix_component(line) && strcmp(tag, "-") != 0 && scratch_owner_gone(tag)) {
				ret[n] = (struct scratch){ .kind = SCRATCH_ZFS };
				snprintf(ret[n].name, sizeof(ret[n].name), "%s", line);
				snprintf(ret[n].owner, sizeof(ret[n].owner), "%s", tag);
				n++;
			}
		}
		line = last ? end : end + 1;
	}
	strbuf_release(&out);
	return r < 0 ? r : (int)n;
}

static int find_stale_dirs(enum scratch_kind kind, const char *parent, struct scratch *ret, size_t max)
{
	DIR *dir = opendir(parent);
	if (!dir)
		return -errno;
	size_t n = 0;
	struct dirent *de;
	while ((de = readdir(dir)) && n < max) {
		if (!has_prefix_component(de->d_name))
			continue;
		char path[PATH_MAX], tag[200];
		snprintf(path, sizeof(path), "%s/%s/%s", parent, de->d_name, SCRATCH_OWNER_FILE);
		struct stat st;
		if (lstat(path, &st) < 0 || !S_ISREG(st.st_mode) || read_small_file(path, tag, sizeof(tag)) < 0)
			continue; /* no tag: not ours, whatever its name */
		tag[strcspn(tag, "\n")] = '\0';
		if (!scratch_owner_gone(tag))
			continue;
		ret[n] = (struct scratch){ .kind = kind };
		snprintf(ret[n].name, sizeof(ret[n].name), "%s/%s", parent, de->d_name);
		snprintf(ret[n].path, sizeof(ret[n].path), "%s", ret[n].name);
		snprintf(ret[n].owner, sizeof(ret[n].owner), "%s", tag);
		n++;
	}
	closedir(dir);
	return (int)n;
}

int scratch_find_stale(enum scratch_kind kind, const char *parent, struct scratch *ret, size_t max)
{
	if (kind == SCRATCH_RBD)
		return -EINVAL;
	return kind == SCRATCH_ZFS ? find_stale_zfs(parent, ret, max) : find_stale_dirs(kind, parent, ret, max);
}
