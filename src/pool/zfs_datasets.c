/* pool/zfs_datasets.c: `zfs get -H -p` output as datasets (pure). */
#include "pool/zfs_datasets.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/parse.h"
#include "basic/strbuf.h"

const char *const zfs_datasets_argv[] = {
	"zfs", "get", "-H", "-p", "-o", "name,property,value",
	"guid,mountpoint,mounted,compression,recordsize,primarycache", NULL,
};

static struct zfs_dataset *find_or_add(struct zfs_datasets *d, const char *name, size_t len)
{
	for (size_t i = 0; i < d->count; i++)
		if (strlen(d->sets[i].name) == len && strncmp(d->sets[i].name, name, len) == 0)
			return &d->sets[i];
	d->sets = xreallocarray(d->sets, d->count + 1, sizeof(*d->sets));
	struct zfs_dataset *s = &d->sets[d->count++];
	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%.*s", (int)len, name);
	return s;
}

static void set_property(struct zfs_dataset *s, const char *prop, size_t plen, const char *val, size_t vlen)
{
#define IS(p) (plen == strlen(p) && strncmp(prop, p, plen) == 0)
	char v[1024];
	snprintf(v, sizeof(v), "%.*s", (int)vlen, val);
	uint64_t n;
	if (IS("guid"))
		snprintf(s->guid, sizeof(s->guid), "%s", v);
	else if (IS("mountpoint"))
		snprintf(s->mountpoint, sizeof(s->mountpoint), "%s", v);
	else if (IS("mounted"))
		s->mounted = strcmp(v, "yes") == 0;
	else if (IS("compression"))
		snprintf(s->compression, sizeof(s->compression), "%s", v);
	else if (IS("recordsize") && parse_size(v, &n) == 0)
		s->recordsize = n;
	else if (IS("primarycache"))
		snprintf(s->primarycache, sizeof(s->primarycache), "%s", v);
#undef IS
}

int zfs_parse_datasets(const char *text, struct zfs_datasets *ret)
{
	struct zfs_datasets d = { NULL, 0 };
	for (const char *line = text; *line;) {
		size_t len = strcspn(line, "\n");
		const char *t1 = memchr(line, '\t', len);
		const char *t2 = t1 ? memchr(t1 + 1, '\t', len - (size_t)(t1 + 1 - line)) : NULL;
		if (len && !t2) {
			zfs_datasets_release(&d);
			return -EINVAL;
		}
		if (len && !memchr(line, '@', (size_t)(t1 - line))) {
			struct zfs_dataset *s = find_or_add(&d, line, (size_t)(t1 - line));
			set_property(s, t1 + 1, (size_t)(t2 - t1 - 1), t2 + 1, (size_t)(line + len - t2 - 1));
		}
		line += len;
		if (*line)
			line++;
	}
	*ret = d;
	return 0;
}

const struct zfs_dataset *zfs_datasets_find(const struct zfs_datasets *d, const char *name)
{
	for (size_t i = 0; i < d->count; i++)
		if (strcmp(d->sets[i].name, name) == 0)
			return &d->sets[i];
	return NULL;
}

void zfs_datasets_release(struct zfs_datasets *d)
{
	free(d->sets);
	d->sets = NULL;
	d->count = 0;
}

void zfs_dataset_pool(const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "%.*s", (int)strcspn(name, "/"), name);
}
