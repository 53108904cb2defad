/* The ZFS ARC's maximum size, from kernel OpenZFS or zfs-fuse (pool/arc.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/fsutil.h"
#include "pool/arc.h"

#define OPENZFS_ARCSTATS "/proc/spl/kstat/zfs/arcstats"
#define ZFS_FUSE_C_MAX "/zfs-kstat/zfs/arcstats/c_max"

uint64_t arc_parse_kstat_c_max(const char *text)
{
	/* "c_max                           4    5692997632" */
	for (const char *line = text; line && *line;) {
		unsigned type;
		unsigned long long v;
		if (strncmp(line, "c_max ", 6) == 0 && sscanf(line + 6, "%u %llu", &type, &v) == 2)
			return v;
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return 0;
}

void arc_read_at(const char *root, struct arc_size *ret)
{
	*ret = (struct arc_size){ 0 };
	char path[4096], buf[16384];
	snprintf(path, sizeof(path), "%s%s", root, OPENZFS_ARCSTATS);
	if (read_small_file(path, buf, sizeof(buf)) > 0 && (ret->max_bytes = arc_parse_kstat_c_max(buf)) > 0) {
		ret->source = "OpenZFS";
		return;
	}
	snprintf(path, sizeof(path), "%s%s", root, ZFS_FUSE_C_MAX);
	if (read_small_file(path, buf, sizeof(buf)) > 0) {
		char *end;
		unsigned long long v = strtoull(buf, &end, 10);
		if (end != buf && v > 0) {
			ret->max_bytes = v;
			ret->source = "zfs-fuse";
		}
	}
}

void arc_read(struct arc_size *ret)
{
	arc_read_at("", ret);
}
