/* fs/mounts.c: mountinfo parsing and classification (pure). */
#include "fs/mounts.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/cleanup.h"
#include "basic/strbuf.h"

/* Copies a space-delimited field from *P, undoing \ooo escapes. */
static char *take_field(const char **p)
{
	const char *s = *p;
	while (*s == ' ')
		s++;
	size_t n = strcspn(s, " \n");
	if (n == 0)
		return NULL;
	char *out = malloc(n + 1), *o = out;
	if (!out)
		abort();
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\\' && i + 3 < n && s[i + 1] >= '0' && s[i + 1] <= '3' && s[i + 2] >= '0' &&
		    s[i + 2] <= '7' && s[i + 3] >= '0' && s[i + 3] <= '7') {
			*o++ = (char)((s[i + 1] - '0') * 64 + (s[i + 2] - '0') * 8 + (s[i + 3] - '0'));
			i += 3;
		} else {
			*o++ = s[i];
		}
	}
	*o = '\0';
	*p = s + n;
	return out;
}

static void entry_release(struct mount_entry *e)
{
	free(e->root);
	free(e->mountpoint);
	free(e->mount_opts);
	free(e->fstype);
	free(e->source);
	free(e->super_opts);
	memset(e, 0, sizeof(*e));
}

static bool has_flag(const char *opts, const char *flag)
{
	char unused[2];
	return mount_option(opts, flag, unused, sizeof(unused));
}

static int parse_line(const char *line, struct mount_entry *e)
{
	int consumed = 0;
	if (sscanf(line, "%u %u %u:%u %n", &e->id, &e->parent_id, &e->major, &e->minor, &consumed) != 4 ||
	    consumed == 0)
		return -EINVAL;
	const char *p = line + consumed;
	e->root = take_field(&p);
	e->mountpoint = take_field(&p);
	e->mount_opts = take_field(&p);
	if (!e->root || !e->mountpoint || !e->mount_opts)
		return -EINVAL;
	/* Optional fields ("shared:1", "master:2") end with a lone "-". */
	for (;;) {
		_cleanup_free_ char *f = take_field(&p);
		if (!f)
			return -EINVAL;
		if (strcmp(f, "-") == 0)
			break;
	}
	e->fstype = take_field(&p);
	e->source = take_field(&p);
	e->super_opts = take_field(&p);
	if (!e->fstype || !e->source)
		return -EINVAL;
	if (!e->super_opts)
		e->super_opts = xstrdup("");
	e->readonly = has_flag(e->mount_opts, "ro") || has_flag(e->super_opts, "ro");
	return 0;
}

int mounts_parse(const char *text, struct mount_table *ret, size_t *ret_line)
{
	struct mount_table t = { NULL, 0 };
	size_t lineno = 0;
	for (const char *line = text; *line;) {
		const char *end = line + strcspn(line, "\n");
		lineno++;
		if (end > line) {
			_cleanup_free_ char *copy = strndup(line, (size_t)(end - line));
			if (!copy)
				abort();
			struct mount_entry e = { 0 };
			if (parse_line(copy, &e) < 0) {
				entry_release(&e);
				mount_table_release(&t);
				if (ret_line)
					*ret_line = lineno;
				return -EINVAL;
			}
			t.entries = xreallocarray(t.entries, t.count + 1, sizeof(*t.entries));
			t.entries[t.count++] = e;
		}
		line = *end ? end + 1 : end;
	}
	*ret = t;
	return 0;
}

void mount_table_release(struct mount_table *t)
{
	for (size_t i = 0; i < t->count; i++)
		entry_release(&t->entries[i]);
	free(t->entries);
	t->entries = NULL;
	t->count = 0;
}

bool mount_option(const char *opts, const char *key, char *buf, size_t len)
{
	size_t klen = strlen(key);
	for (const char *p = opts; *p;) {
		size_t n = strcspn(p, ",");
		if (n >= klen && strncmp(p, key, klen) == 0 && (n == klen || p[klen] == '=')) {
			const char *v = n == klen ? "" : p + klen + 1;
			size_t vlen = n == klen ? 0 : n - klen - 1;
			snprintf(buf, len, "%.*s", (int)vlen, v);
			return true;
		}
		p += n;
		if (*p == ',')
			p++;
	}
	return false;
}

bool mount_is_zfs(const struct mount_entry *m)
{
	return strcmp(m->fstype, "zfs") == 0 || strcmp(m->fstype, "fuse.zfs") == 0;
}

bool mount_is_btrfs(const struct mount_entry *m)
{
	return strcmp(m->fstype, "btrfs") == 0;
}

/* No storage behind them, or read-only images of the system itself. */
static const char *const pseudo_types[] = {
	"proc", "sysfs", "tmpfs", "devtmpfs", "devpts", "cgroup", "cgroup2", "overlay", "nsfs",
	"securityfs", "debugfs", "tracefs", "configfs", "fusectl", "mqueue", "hugetlbfs", "pstore",
	"bpf", "autofs", "binfmt_misc", "efivarfs", "rpc_pipefs", "nfsd", "ramfs", "selinuxfs",
	"squashfs", "fuse.lxcfs", "fuse.gvfsd-fuse", "fuse.portal", "fuse.snapfuse", "rootfs",
};

static bool is_pseudo(const struct mount_entry *m)
{
	for (size_t i = 0; i < ARRAY_SIZE(pseudo_types); i++)
		if (strcmp(m->fstype, pseudo_types[i]) == 0)
			return true;
	/* A FUSE mount without a subtype names no storage (zfs-fuse's /zfs-kstat). */
	return strcmp(m->fstype, "fuse") == 0 && strcmp(m->source, "/dev/fuse") == 0;
}

/* Two mounts show the same data when they share the device number and,
 * for btrfs, the subvolume. */
static bool same_volume(const struct mount_entry *a, const struct mount_entry *b)
{
	if (a->major != b->major || a->minor != b->minor)
		return false;
	if (!mount_is_btrfs(a))
		return true;
	char sa[32] = "", sb[32] = "";
	mount_option(a->super_opts, "subvolid", sa, sizeof(sa));
	mount_option(b->super_opts, "subvolid", sb, sizeof(sb));
	return strcmp(sa, sb) == 0;
}

enum mount_class mount_classify(const struct mount_table *t, size_t i, size_t *ret_first)
{
	const struct mount_entry *m = &t->entries[i];
	if (is_pseudo(m))
		return MOUNT_PSEUDO;
	for (size_t j = 0; j < i; j++)
		if (!is_pseudo(&t->entries[j]) && same_volume(&t->entries[j], m)) {
			*ret_first = j;
			return MOUNT_DUPLICATE;
		}
	if (strcmp(m->mountpoint, "/") == 0)
		return MOUNT_ROOT;
	return MOUNT_VOLUME;
}

int mounts_read_proc(struct strbuf *out)
{
	/* A proc file has no size: read until EOF. */
	_cleanup_close_ int fd = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	char buf[8192];
	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return 0;
		strbuf_add(out, buf, (size_t)n);
	}
}

int mounts_load(struct mount_table *ret)
{
	struct strbuf text = STRBUF_INIT;
	int r = mounts_read_proc(&text);
	if (r == 0)
		r = mounts_parse(text.buf, ret, NULL);
	strbuf_release(&text);
	return r;
}
