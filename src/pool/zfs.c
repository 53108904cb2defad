#include "pool/zfs.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/strbuf.h"

static const struct {
	const char *header; /* the config table's line for the class */
	enum pool_class klass;
} class_headers[] = {
	{ "logs", POOL_CLASS_LOG },	 { "cache", POOL_CLASS_CACHE },	  { "spares", POOL_CLASS_SPARE },
	{ "special", POOL_CLASS_SPECIAL }, { "dedup", POOL_CLASS_DEDUP },
};

static bool class_header(const char *name, enum pool_class *ret)
{
	for (size_t i = 0; i < sizeof(class_headers) / sizeof(class_headers[0]); i++)
		if (strcmp(name, class_headers[i].header) == 0) {
			*ret = class_headers[i].klass;
			return true;
		}
	return false;
}

const char *pool_class_name(enum pool_class c)
{
	static const char *const names[] = { "data", "log", "special", "dedup", "cache", "spare" };
	return (unsigned)c < sizeof(names) / sizeof(names[0]) ? names[c] : "?";
}

const char *pool_member_unread_reason(const struct pool_member *m)
{
	if (m->not_read[0])
		return m->not_read;
	if (m->virtual_spare)
		return "a dRAID distributed spare: spare space spread over the dRAID's disks, not a disk";
	if (m->klass == POOL_CLASS_SPARE)
		return "a hot spare not in use";
	if (!m->state[0] || !strcmp(m->state, "ONLINE") || !strcmp(m->state, "DEGRADED") || !strcmp(m->state, "up"))
		return NULL;
	if (!strcmp(m->state, "OFFLINE"))
		return "OFFLINE in zpool status (taken offline)";
	if (!strcmp(m->state, "FAULTED"))
		return "FAULTED in zpool status (too many errors)";
	if (!strcmp(m->state, "UNAVAIL"))
		return "UNAVAIL in zpool status (the device cannot be opened)";
	if (!strcmp(m->state, "REMOVED"))
		return "REMOVED in zpool status (the device was removed)";
	return "not ONLINE in zpool status";
}

void pool_vdev_kind_word(const struct pool_vdev *v, char *buf, size_t len)
{
	switch (v->type) {
	case POOL_VDEV_DISK: snprintf(buf, len, "%s", ""); break;
	case POOL_VDEV_MIRROR: snprintf(buf, len, "mirror"); break;
	case POOL_VDEV_RAIDZ: snprintf(buf, len, "raidz%u", v->parity); break;
	case POOL_VDEV_DRAID:
		snprintf(buf, len, "draid%u:%ud:%uc:%us", v->parity, v->draid_data, v->draid_children,
			 v->draid_spares);
		break;
	}
}

void pool_layout_data_vdevs(const struct pool_layout *l, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < l->nvdevs && used < len; i++) {
		if (l->vdevs[i].klass != POOL_CLASS_DATA)
			continue;
		char kind[48];
		pool_vdev_kind_word(&l->vdevs[i], kind, sizeof(kind));
		used += (size_t)snprintf(buf + used, len - used, "%s%s %u", used ? " + " : "", kind[0] ? kind : "disk",
					 l->vdevs[i].width);
	}
}

bool pool_layout_member_counts(const struct pool_layout *l, size_t i)
{
	const struct pool_member *m = &l->members[i];
	if (pool_member_unread_reason(m))
		return false;
	if (!m->group[0])
		return true;
	for (size_t j = 0; j < i; j++)
		if (!strcmp(l->members[j].vdev, m->vdev) && !strcmp(l->members[j].group, m->group) &&
		    !pool_member_unread_reason(&l->members[j]))
			return false;
	return true;
}

bool zfs_valid_pool_name(const char *name)
{
	if (!name || !isalpha((unsigned char)name[0]) || strlen(name) > 255)
		return false;
	for (const char *p = name; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("_-.:", *p))
			return false;
	return true;
}

/* One row of the config table: its depth (two spaces a level after the
 * leading tab) and its first word. */
struct row {
	int depth;
	char name[256];
	char state[16];
	char was[512];
};

static bool parse_row(const char *line, struct row *r)
{
	if (line[0] != '\t')
		return false;
	const char *p = line + 1;
	int spaces = 0;
	while (*p == ' ') {
		spaces++;
		p++;
	}
	if (!*p || *p == '\n')
		return false;
	size_t n = strcspn(p, " \t\n");
	if (n >= sizeof(r->name))
		return false;
	memcpy(r->name, p, n);
	r->name[n] = '\0';
	r->depth = spaces / 2;
	r->state[0] = r->was[0] = '\0';
	p += n;
	p += strspn(p, " \t");
	size_t sn = strcspn(p, " \t\n");
	if (sn && sn < sizeof(r->state) && isupper((unsigned char)*p)) {
		memcpy(r->state, p, sn);
		r->state[sn] = '\0';
	}
	/* A device known only by its GUID: "... UNAVAIL 0 0 0  was /dev/sdb1". */
	const char *eol = p + strcspn(p, "\n");
	const char *was = strstr(p, "  was /");
	if (was && was < eol) {
		was += 6;
		size_t wn = strcspn(was, " \t\n");
		if (wn < sizeof(r->was)) {
			memcpy(r->was, was, wn);
			r->was[wn] = '\0';
		}
	}
	return true;
}

/* "draid2-0-1": a dRAID's distributed spare (parity, vdev id, spare id). */
static bool is_distributed_spare(const char *name)
{
	unsigned p, v, i;
	int end = 0;
	return sscanf(name, "draid%u-%u-%u%n", &p, &v, &i, &end) == 3 && name[end] == '\0';
}

static bool already_listed(const struct pool_layout *l, const char *name)
{
	for (size_t i = 0; i < l->count; i++)
		if (strcmp(l->members[i].name, name) == 0)
			return true;
	return false;
}

static void member_path(const char *name, char *path, size_t len)
{
	/* Without -P, OpenZFS prints a by-id link's last part ("scsi-3600...-part1"). */
	if (name[0] == '/')
		snprintf(path, len, "%s", name);
	else if (strncmp(name, "wwn-", 4) == 0 || strncmp(name, "scsi-", 5) == 0 || strncmp(name, "ata-", 4) == 0 ||
		 strncmp(name, "nvme-", 5) == 0 || strncmp(name, "usb-", 4) == 0 || strncmp(name, "dm-uuid-", 8) == 0)
		snprintf(path, len, "/dev/disk/by-id/%s", name);
	else
		snprintf(path, len, "/dev/%s", name);
}

struct place {
	enum pool_class klass;
	const char *vdev;
	const char *group;
};

static int add_member(struct pool_layout *l, const struct row *row, const struct place *at)
{
	/* A spare in use shows under its vdev and again under "spares": once. */
	if (at->klass == POOL_CLASS_SPARE && already_listed(l, row->name))
		return 0;
	struct pool_member *grown = xreallocarray(l->members, l->count + 1, sizeof(*grown));
	l->members = grown;
	struct pool_member *m = &l->members[l->count++];
	memset(m, 0, sizeof(*m));
	snprintf(m->name, sizeof(m->name), "%s", row->name);
	snprintf(m->vdev, sizeof(m->vdev), "%s", at->vdev);
	snprintf(m->group, sizeof(m->group), "%s", at->group);
	snprintf(m->state, sizeof(m->state), "%s", row->state);
	snprintf(m->was, sizeof(m->was), "%s", row->was);
	m->klass = at->klass;
	m->virtual_spare = is_distributed_spare(row->name);
	if (m->virtual_spare)
		snprintf(m->path, sizeof(m->path), "%s", row->name); /* no device node: never read */
	else
		member_path(row->was[0] ? row->was : row->name, m->path, sizeof(m->path));
	return 0;
}

/* "mirror-1", "raidz2-0", "draid1:2d:6c:1s-0" (zfs-fuse: "mirror", "raidz"). */
static int vdev_kind(const char *name, struct pool_vdev *v)
{
	unsigned p = 1, d, c, sp;
	int end = 0;
	if (strncmp(name, "mirror", 6) == 0) {
		v->type = POOL_VDEV_MIRROR;
		return 0;
	}
	if (strncmp(name, "raidz", 5) == 0) {
		if (name[5] >= '1' && name[5] <= '3')
			p = (unsigned)(name[5] - '0');
		v->type = POOL_VDEV_RAIDZ;
		v->parity = p;
		return 0;
	}
	if (sscanf(name, "draid%u:%ud:%uc:%us%n", &p, &d, &c, &sp, &end) == 4 && name[end] == '-') {
		v->type = POOL_VDEV_DRAID;
		v->parity = p;
		v->draid_data = d;
		v->draid_children = c;
		v->draid_spares = sp;
		return 0;
	}
	return -EINVAL; /* a nesting word we do not know: never guess a layout */
}

int pool_vdev_record(struct pool_layout *l, const char *name, enum pool_class klass, unsigned width,
		     const char *state)
{
	struct pool_vdev *grown = xreallocarray(l->vdevs, l->nvdevs + 1, sizeof(*grown));
	l->vdevs = grown;
	struct pool_vdev *v = &l->vdevs[l->nvdevs++];
	memset(v, 0, sizeof(*v));
	snprintf(v->name, sizeof(v->name), "%s", name);
	snprintf(v->state, sizeof(v->state), "%s", state);
	v->klass = klass;
	v->type = POOL_VDEV_DISK;
	v->width = width ? width : 1;
	return width ? vdev_kind(name, v) : 0;
}

/* Row I's top-level vdev: its width is the rows one level under it. */
static int add_vdev(struct pool_layout *l, const struct row *rows, size_t i, size_t nrows, enum pool_class klass,
		    bool has_children)
{
	unsigned width = 0;
	for (size_t k = i + 1; has_children && k < nrows && rows[k].depth > rows[i].depth; k++)
		width += rows[k].depth == rows[i].depth + 1;
	return pool_vdev_record(l, rows[i].name, klass, width, rows[i].state);
}

int zfs_parse_status(const char *text, struct pool_layout *ret)
{
	*ret = (struct pool_layout){ .count = 0 };
	const char *config = strstr(text, "\nconfig:");
	if (!config)
		return -EINVAL;
	/* Collect the table's rows: from the header after "config:" to the first blank line. */
	struct row *rows = NULL;
	size_t nrows = 0;
	bool in_table = false;
	for (const char *line = config + 1; line && *line;) {
		const char *next = strchr(line, '\n');
		if (in_table) {
			if (*line == '\n' || *line == '\0')
				break;
			struct row r;
			if (parse_row(line, &r)) {
				struct row *grown = xreallocarray(rows, nrows + 1, sizeof(*rows));
				rows = grown;
				rows[nrows++] = r;
			}
		} else if (strncmp(line, "\tNAME", 5) == 0) {
			in_table = true;
		}
		line = next ? next + 1 : NULL;
	}
	/* zpool status ends with its "errors:" line: without it the table may be cut short. */
	if (nrows == 0 || rows[0].depth != 0 || !strstr(config, "\nerrors:")) {
		free(rows);
		return -EINVAL;
	}
	snprintf(ret->pool, sizeof(ret->pool), "%s", rows[0].name);

	/* Depth 0: the pool, or a class header. Depth 1: a top-level vdev with
	 * children, or a disk of its own in the pool (or class). Depth 2: the
	 * vdev's children; a "replacing-N" or "spare-N" nests its disks one level
	 * deeper, and they keep the top-level vdev. */
	struct place at = { POOL_CLASS_DATA, ret->pool, "" };
	char top[256] = "", vdev[64] = "", group[64] = "";
	int r = 0;
	for (size_t i = 0; i < nrows && r == 0; i++) {
		bool has_children = i + 1 < nrows && rows[i + 1].depth > rows[i].depth;
		if (rows[i].depth == 0) {
			if (i > 0 && !class_header(rows[i].name, &at.klass))
				r = -EINVAL; /* a second pool or a class we do not know */
			snprintf(top, sizeof(top), "%s", i == 0 ? ret->pool : rows[i].name);
			continue;
		}
		if (rows[i].depth == 1) {
			group[0] = '\0';
			snprintf(vdev, sizeof(vdev), "%s", has_children ? rows[i].name : top);
			if (at.klass != POOL_CLASS_SPARE && at.klass != POOL_CLASS_CACHE)
				r = add_vdev(ret, rows, i, nrows, at.klass, has_children);
			if (has_children || r < 0)
				continue;
		} else if (rows[i].depth == 2) {
			group[0] = '\0';
			if (has_children) {
				snprintf(group, sizeof(group), "%s", rows[i].name);
				continue;
			}
		} else if (rows[i].depth > 3 || has_children) {
			r = -EINVAL; /* deeper than ZFS nests */
			continue;
		}
		at.vdev = vdev;
		at.group = group;
		r = add_member(ret, &rows[i], &at);
	}
	free(rows);
	if (r < 0)
		pool_layout_release(ret);
	return r;
}

void pool_layout_release(struct pool_layout *l)
{
	free(l->members);
	free(l->vdevs);
	l->members = NULL;
	l->vdevs = NULL;
	l->count = l->nvdevs = 0;
}

int zfs_find_pool(const char *list_output, const char *id, char *ret_name, size_t len)
{
	for (const char *line = list_output; line && *line;) {
		const char *next = strchr(line, '\n');
		size_t n = next ? (size_t)(next - line) : strlen(line);
		const char *tab = memchr(line, '\t', n);
		if (tab) {
			size_t name_len = (size_t)(tab - line);
			size_t guid_len = n - name_len - 1;
			if ((strlen(id) == name_len && strncmp(line, id, name_len) == 0) ||
			    (strlen(id) == guid_len && strncmp(tab + 1, id, guid_len) == 0)) {
				snprintf(ret_name, len, "%.*s", (int)name_len, line);
				return 0;
			}
		}
		line = next ? next + 1 : NULL;
	}
	return -ENOENT;
}
