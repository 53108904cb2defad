#include "pool/btrfs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/strbuf.h"

/* "Label: 'tbtr'  uuid: fb4df3db-..." or "Label: none  uuid: ..." */
static bool parse_header(const char *line, char *label, size_t llen, char *uuid, size_t ulen)
{
	if (strncmp(line, "Label: ", 7) != 0)
		return false;
	const char *p = line + 7;
	label[0] = '\0';
	if (*p == '\'') {
		const char *end = strstr(p + 1, "'  uuid: ");
		if (!end)
			return false;
		snprintf(label, llen, "%.*s", (int)(end - p - 1), p + 1);
		p = end + 1;
	}
	const char *u = strstr(p, "uuid: ");
	if (!u)
		return false;
	u += 6;
	snprintf(uuid, ulen, "%.*s", (int)strcspn(u, " \n"), u);
	return true;
}

/* Copies the line at TEXT (without its newline) into BUF; returns the next line or NULL. */
static const char *take_line(const char *text, char *buf, size_t len)
{
	const char *next = strchr(text, '\n');
	size_t n = next ? (size_t)(next - text) : strlen(text);
	snprintf(buf, len, "%.*s", (int)n, text);
	return next ? next + 1 : NULL;
}

int btrfs_parse_show(const char *text, const char *id, struct pool_layout *ret)
{
	*ret = (struct pool_layout){ .count = 0 };
	bool in_match = false, found = false;
	char line[1024];
	for (const char *at = text; at && *at;) {
		at = take_line(at, line, sizeof(line));
		char label[256], uuid[64];
		if (parse_header(line, label, sizeof(label), uuid, sizeof(uuid))) {
			in_match = !found && (strcmp(label, id) == 0 || strcmp(uuid, id) == 0);
			if (in_match) {
				found = true;
				snprintf(ret->pool, sizeof(ret->pool), "%s", label[0] ? label : uuid);
			}
		} else if (in_match) {
			const char *path = strstr(line, " path ");
			if (strstr(line, "devid") && path) {
				path += 6;
				size_t n = strcspn(path, " \n");
				struct pool_member *grown = xreallocarray(ret->members, ret->count + 1, sizeof(*grown));
				ret->members = grown;
				struct pool_member *m = &ret->members[ret->count++];
				memset(m, 0, sizeof(*m));
				snprintf(m->name, sizeof(m->name), "%.*s", (int)n, path);
				snprintf(m->path, sizeof(m->path), "%.*s", (int)n, path);
				snprintf(m->vdev, sizeof(m->vdev), "btrfs");
			}
		}
	}
	return found ? 0 : -ENOENT;
}

void btrfs_list_names(const char *text, struct strbuf *out)
{
	char line[1024];
	for (const char *at = text; at && *at;) {
		at = take_line(at, line, sizeof(line));
		char label[256], uuid[64];
		if (parse_header(line, label, sizeof(label), uuid, sizeof(uuid)))
			strbuf_addf(out, "%s'%s' (%s)", out->len ? ", " : "", label[0] ? label : "no label", uuid);
	}
}

size_t btrfs_list_uuids(const char *text, char (*ret)[64], size_t max)
{
	char line[1024];
	size_t n = 0;
	for (const char *at = text; at && *at && n < max;) {
		at = take_line(at, line, sizeof(line));
		char label[256];
		if (parse_header(line, label, sizeof(label), ret[n], sizeof(ret[n])))
			n++;
	}
	return n;
}
