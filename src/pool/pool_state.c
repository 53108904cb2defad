/* pool/pool_state.c: zpool/zfs get, zpool status health, btrfs usage. */
#include "pool/pool_state.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/strbuf.h"

/* The next line of *P into BUF (without '\n'); false at the end. A line
 * longer than BUF is cut: callers only read short tables. */
static bool next_line(const char **p, char *buf, size_t len)
{
	if (!*p || !**p)
		return false;
	const char *nl = strchr(*p, '\n');
	size_t n = nl ? (size_t)(nl - *p) : strlen(*p);
	size_t k = n < len - 1 ? n : len - 1;
	memcpy(buf, *p, k);
	buf[k] = '\0';
	*p = nl ? nl + 1 : *p + n;
	return true;
}

static bool blank(const char *s)
{
	return s[strspn(s, " \t\r")] == '\0';
}

/* Splits S in place at runs of SEP characters; at most MAX fields. */
static size_t split(char *s, const char *sep, char **f, size_t max)
{
	size_t n = 0;
	for (char *save = NULL, *t = strtok_r(s, sep, &save); t && n < max; t = strtok_r(NULL, sep, &save))
		f[n++] = t;
	return n;
}

static void add_prop(struct zfs_props *p, char **f, size_t n)
{
	struct zfs_prop *items = xreallocarray(p->items, p->count + 1, sizeof(*items));
	p->items = items;
	struct zfs_prop *it = &items[p->count++];
	snprintf(it->object, sizeof(it->object), "%s", f[0]);
	snprintf(it->name, sizeof(it->name), "%s", f[1]);
	it->value[0] = '\0';
	for (size_t i = 2; i + 1 < n; i++) { /* a table's value may hold spaces */
		size_t len = strlen(it->value);
		snprintf(it->value + len, sizeof(it->value) - len, "%s%s", i > 2 ? " " : "", f[i]);
	}
	snprintf(it->source, sizeof(it->source), "%s", f[n - 1]);
}

/* Tab-separated (-H): exactly four fields, the value may be empty of spaces
 * but not missing. */
static int tab_line(char *line, struct zfs_props *p)
{
	char *f[4];
	size_t n = 0;
	for (char *s = line; n < 4; n++) {
		f[n] = s;
		char *tab = strchr(s, '\t');
		if (!tab) {
			n++;
			break;
		}
		*tab = '\0';
		s = tab + 1;
	}
	if (n != 4 || !*f[0] || !*f[1] || !*f[3])
		return -EINVAL;
	add_prop(p, f, 4);
	return 0;
}

int zfs_props_parse(const char *text, struct zfs_props *ret)
{
	memset(ret, 0, sizeof(*ret));
	char line[1024];
	bool table = false;
	int r = 0;
	for (const char *p = text; r == 0 && next_line(&p, line, sizeof(line));) {
		line[strcspn(line, "\r")] = '\0';
		if (blank(line))
			continue;
		if (strchr(line, '\t')) {
			r = tab_line(line, ret);
			continue;
		}
		char *f[64];
		size_t n = split(line, " ", f, 64);
		if (!table && ret->count == 0 && n == 4 && strcmp(f[0], "NAME") == 0 &&
		    strcmp(f[1], "PROPERTY") == 0 && strcmp(f[3], "SOURCE") == 0) {
			table = true;
			continue;
		}
		if (!table || n < 4)
			r = -EINVAL;
		else
			add_prop(ret, f, n);
	}
	if (r == 0 && ret->count == 0)
		r = -EINVAL;
	if (r < 0)
		zfs_props_release(ret);
	return r;
}

const char *zfs_props_get(const struct zfs_props *p, const char *object, const char *property)
{
	for (size_t i = 0; i < p->count; i++) {
		if (object && strcmp(p->items[i].object, object) != 0)
			continue;
		if (!object && strcmp(p->items[i].object, p->items[0].object) != 0)
			continue;
		if (strcmp(p->items[i].name, property) == 0)
			return p->items[i].value;
	}
	return NULL;
}

void zfs_props_release(struct zfs_props *p)
{
	if (!p)
		return;
	free(p->items);
	p->items = NULL;
	p->count = 0;
}

int zfs_parse_number(const char *s, double *ret)
{
	static const char units[] = "KMGTPE";
	char *end;
	if (!s || !*s || (*s < '0' || *s > '9'))
		return -EINVAL;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s || !isfinite(v))
		return -EINVAL;
	const char *u = *end ? strchr(units, *end) : NULL;
	if (u) {
		v *= pow(1024, (double)(u - units + 1));
		end++;
	} else if (*end == '%' || *end == 'x') {
		end++;
	}
	if (*end)
		return -EINVAL;
	*ret = v;
	return 0;
}

static const char *after_key(const char *line, const char *key)
{
	const char *s = line + strspn(line, " \t");
	size_t n = strlen(key);
	return strncmp(s, key, n) == 0 ? s + n + strspn(s + n, " \t") : NULL;
}

static void find_percent(const char *line, struct zfs_health *h)
{
	const char *pct = strstr(line, "% done");
	if (!pct || h->scan == ZFS_SCAN_NONE || h->scan_done_pct >= 0)
		return;
	const char *b = pct;
	while (b > line && ((b[-1] >= '0' && b[-1] <= '9') || b[-1] == '.'))
		b--;
	if (b < pct)
		h->scan_done_pct = strtod(b, NULL);
}

static void read_scan(const char *v, struct zfs_health *h)
{
	snprintf(h->scan_line, sizeof(h->scan_line), "%s", v);
	if (strstr(v, "in progress"))
		h->scan = strncmp(v, "resilver", 8) == 0 ? ZFS_SCAN_RESILVER
			: strncmp(v, "scrub", 5) == 0 ? ZFS_SCAN_SCRUB : ZFS_SCAN_NONE;
}

static bool healthy_state(const char *s)
{
	return !strcmp(s, "ONLINE") || !strcmp(s, "AVAIL") || !strcmp(s, "INUSE");
}

/* A row of the config table: "\t  loop31  OFFLINE  0 0 0". */
static int config_row(char *line, struct zfs_health *h)
{
	char *f[8];
	size_t n = split(line, " \t", f, 8);
	if (n == 0 || strcmp(f[0], "NAME") == 0 || n == 1) /* header, or a class (logs, spares) */
		return 0;
	if (healthy_state(f[1]) || !strcmp(f[0], h->pool))
		return 0;
	if (strspn(f[1], "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != strlen(f[1]))
		return -EINVAL;
	if (h->bad_count < sizeof(h->bad) / sizeof(h->bad[0])) {
		struct zfs_bad_vdev *b = &h->bad[h->bad_count++];
		snprintf(b->name, sizeof(b->name), "%s", f[0]);
		snprintf(b->state, sizeof(b->state), "%s", f[1]);
	}
	return 0;
}

int zfs_parse_health(const char *text, struct zfs_health *ret)
{
	memset(ret, 0, sizeof(*ret));
	ret->scan_done_pct = -1;
	char line[1024];
	bool config = false, errors = false;
	int r = 0;
	for (const char *p = text; r == 0 && !errors && next_line(&p, line, sizeof(line));) {
		const char *v;
		if ((v = after_key(line, "pool:")) && !config)
			snprintf(ret->pool, sizeof(ret->pool), "%s", v);
		else if ((v = after_key(line, "state:")) && !config)
			snprintf(ret->state, sizeof(ret->state), "%s", v);
		else if (((v = after_key(line, "scrub:")) || (v = after_key(line, "scan:"))) && !config)
			read_scan(v, ret), find_percent(v, ret);
		else if (after_key(line, "config:"))
			config = true;
		else if (after_key(line, "errors:"))
			errors = true;
		else if (config && !blank(line))
			r = config_row(line, ret);
		else if (!config)
			find_percent(line, ret);
	}
	if (r == 0 && (!ret->pool[0] || !ret->state[0] || !config || !errors))
		r = -EINVAL;
	return r;
}

static int parse_u64(const char *s, uint64_t *ret)
{
	char *end;
	s += strspn(s, " \t");
	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || (*end && *end != ' ' && *end != '\t' && *end != '\r'))
		return -EINVAL;
	*ret = v;
	return 0;
}

static void add_dev(struct btrfs_usage *u, const char *path, uint64_t bytes)
{
	for (size_t i = 0; i < u->dev_count; i++)
		if (strcmp(u->devs[i].path, path) == 0) {
			u->devs[i].size += bytes;
			return;
		}
	if (u->dev_count < sizeof(u->devs) / sizeof(u->devs[0])) {
		snprintf(u->devs[u->dev_count].path, sizeof(u->devs[0].path), "%s", path);
		u->devs[u->dev_count++].size = bytes;
	}
}

/* "Data,RAID1: Size:..." -> RAID1 into PROFILE (first one wins). */
static void profile_header(const char *line, const char *kind, char *profile, size_t len)
{
	size_t n = strlen(kind);
	if (strncmp(line, kind, n) != 0 || line[n] != ',' || profile[0])
		return;
	const char *b = line + n + 1;
	size_t k = strcspn(b, ":");
	snprintf(profile, len, "%.*s", (int)k, b);
}

/* One line of the report; SECTION tells whether device lines are expected. */
static int usage_line(const char *line, struct btrfs_usage *u, bool *section, bool *unalloc,
		      uint64_t *slack)
{
	const char *v;
	if ((v = after_key(line, "Device size:")))
		return parse_u64(v, &u->device_size);
	if ((v = after_key(line, "Device slack:")))
		return parse_u64(v, slack);
	if ((v = after_key(line, "Used:")) && !*section)
		return parse_u64(v, &u->used);
	if (line[0] != ' ' && line[0] != '\t' && !blank(line)) {
		*section = strchr(line, ':') != NULL && strcmp(line, "Overall:") != 0;
		*unalloc = strncmp(line, "Unallocated:", 12) == 0;
		profile_header(line, "Data", u->data_profile, sizeof(u->data_profile));
		profile_header(line, "Metadata", u->meta_profile, sizeof(u->meta_profile));
		return 0;
	}
	if (!*section || blank(line))
		return 0;
	char copy[1024], *f[4];
	snprintf(copy, sizeof(copy), "%s", line);
	uint64_t bytes;
	if (split(copy, " \t", f, 4) != 2 || parse_u64(f[1], &bytes) < 0)
		return -EINVAL;
	add_dev(u, f[0], bytes);
	(void)unalloc;
	return 0;
}

int btrfs_parse_usage(const char *text, struct btrfs_usage *ret)
{
	memset(ret, 0, sizeof(*ret));
	char line[1024];
	bool overall = false, section = false, unalloc = false, seen_unalloc = false;
	uint64_t slack = 0;
	int r = 0;
	for (const char *p = text; r == 0 && next_line(&p, line, sizeof(line));) {
		if (strncmp(line, "Overall:", 8) == 0)
			overall = true;
		r = usage_line(line, ret, &section, &unalloc, &slack);
		seen_unalloc |= unalloc;
	}
	if (r < 0)
		return r;
	uint64_t sum = 0;
	for (size_t i = 0; i < ret->dev_count; i++)
		sum += ret->devs[i].size;
	/* every device's allocations and free space add up to the total: a cut
	 * report does not */
	if (!overall || !ret->device_size || !ret->data_profile[0] || !seen_unalloc ||
	    !ret->dev_count || (sum != ret->device_size && sum + slack != ret->device_size))
		return -EINVAL;
	return 0;
}
