#include "basic/meminfo.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "basic/fsutil.h"

int meminfo_field(const char *text, const char *key, uint64_t *ret_bytes)
{
	size_t klen = strlen(key);
	for (const char *line = text; line && *line;) {
		if (strncmp(line, key, klen) == 0 && line[klen] == ':') {
			char *end;
			unsigned long long kib = strtoull(line + klen + 1, &end, 10);
			if (end == line + klen + 1)
				return -EINVAL;
			*ret_bytes = (uint64_t)kib * 1024;
			return 0;
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return -ENOENT;
}

int meminfo_read(struct meminfo *ret)
{
	char buf[16384];
	int r = read_small_file("/proc/meminfo", buf, sizeof(buf));
	if (r < 0)
		return r;
	r = meminfo_field(buf, "MemTotal", &ret->total_bytes);
	if (r == 0)
		r = meminfo_field(buf, "MemAvailable", &ret->available_bytes);
	return r;
}
