#include "basic/sysinfo.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "basic/fsutil.h"
#include "basic/meminfo.h"

static void trim_value(const char *start, size_t n, char *buf, size_t len)
{
	while (n && (*start == ' ' || *start == '\t' || *start == '"')) {
		start++;
		n--;
	}
	while (n && (start[n - 1] == ' ' || start[n - 1] == '\t' || start[n - 1] == '"' || start[n - 1] == '\r'))
		n--;
	snprintf(buf, len, "%.*s", (int)n, start);
}

int sysinfo_field(const char *text, const char *key, char sep, char *buf, size_t len)
{
	size_t klen = strlen(key);
	for (const char *line = text; line && *line;) {
		const char *end = strchr(line, '\n');
		size_t n = end ? (size_t)(end - line) : strlen(line);
		const char *k = line;
		size_t kn = klen;
		if (n > klen && strncmp(k, key, kn) == 0) {
			const char *p = k + kn;
			while (p < line + n && (*p == ' ' || *p == '\t'))
				p++;
			if (p < line + n && *p == sep) {
				p++;
				trim_value(p, (size_t)(line + n - p), buf, len);
				return 0;
			}
		}
		line = end ? end + 1 : NULL;
	}
	return -ENOENT;
}

void sysinfo_read(struct sysinfo_inventory *ret)
{
	memset(ret, 0, sizeof(*ret));
	char text[65536]; /* the first CPU's entry holds the model name */
	FILE *f = fopen("/proc/cpuinfo", "re");
	if (f) {
		size_t n = fread(text, 1, sizeof(text) - 1, f);
		text[n] = '\0';
		fclose(f);
		sysinfo_field(text, "model name", ':', ret->cpu_model, sizeof(ret->cpu_model));
	}
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	ret->cpus = cpus > 0 ? (unsigned)cpus : 0;
	struct meminfo mi;
	if (meminfo_read(&mi) == 0)
		ret->memory_bytes = mi.total_bytes;
	struct utsname u;
	if (uname(&u) == 0) {
		snprintf(ret->kernel, sizeof(ret->kernel), "%s %s", u.release, u.version);
		snprintf(ret->machine, sizeof(ret->machine), "%s", u.machine);
	}
	if (read_small_file("/etc/os-release", text, sizeof(text)) > 0)
		sysinfo_field(text, "PRETTY_NAME", '=', ret->distribution, sizeof(ret->distribution));
}
