#include "pool/zfs.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/strbuf.h"

static const char *const support_classes[] = { "logs", "cache", "spares", "special", "dedup" };

static bool is_support_class(const char *name)
{
	for (size_t i = 0; i < sizeof(support_classes) / sizeof(support_classes[0]); i++)
		if (strcmp(name, support_classes[i]) == 0)
			return true;
	return false;
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
	return true;
}

static int add_member(struct pool_layout *l, const char *name, const char *vdev)
{
	struct pool_member *grown = xreallocarray(l->members, l->count + 1, sizeof(*grown));
	l->members = grown;
	struct pool_member *m = &l->members[l->count++];
	memset(m, 0, sizeof(*m));
	snprintf(m->name, sizeof(m->name), "%s", name);
	snprintf(m->vdev, sizeof(m->vdev), "%s", vdev);
	/* Without -P, OpenZFS prints a by-id link's last part ("scsi-3600...-part1"). */
	if (name[0] == '/')
		snprintf(m->path, sizeof(m->path), "%s", name);
	else if (strncmp(name, "wwn-", 4) == 0 || strncmp(name, "scsi-", 5) == 0 || strncmp(name, "ata-", 4) == 0 ||
		 strncmp(name, "nvme-", 5) == 0 || strncmp(name, "usb-", 4) == 0 || strncmp(name, "dm-uuid-", 8) == 0)
		snprintf(m->path, sizeof(m->path), "/dev/disk/by-id/%s", name);
	else
		snprintf(m->path, sizeof(m->path), "/dev/%s", name);
	return 0;
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
	if (nrows == 0 || rows[0].depth != 0) {
		free(rows);
		return -EINVAL;
	}
	snprintf(ret->pool, sizeof(ret->pool), "%s", rows[0].name);

	/* Depth 0: the pool, or a support class. Depth 1: a vdev with children,
	 * or a leaf striped straight into the pool (or class). Deeper: leaves
	 * (a "replacing" or "spare" vdev nests one level more: its leaves keep
	 * the top-level vdev). */
	char top[256] = "", vdev[64] = "";
	int r = 0;
	for (size_t i = 0; i < nrows && r == 0; i++) {
		bool has_children = i + 1 < nrows && rows[i + 1].depth > rows[i].depth;
		if (rows[i].depth == 0) {
			snprintf(top, sizeof(top), "%s", i == 0 || !is_support_class(rows[i].name) ? ret->pool : rows[i].name);
			continue;
		}
		if (rows[i].depth == 1) {
			if (has_children) {
				snprintf(vdev, sizeof(vdev), "%s", rows[i].name);
				continue;
			}
			snprintf(vdev, sizeof(vdev), "%s", top);
		}
		if (!has_children)
			r = add_member(ret, rows[i].name, vdev);
	}
	free(rows);
	if (r < 0)
		pool_layout_release(ret);
	return r;
}

void pool_layout_release(struct pool_layout *l)
{
	free(l->members);
	l->members = NULL;
	l->count = 0;
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
