/* basic/sysinfo.h: the system a figure was measured on, as benchmark
 * publishers print it next to their figures: CPU model and count, memory,
 * kernel, distribution. Every run's document carries it ("system"). */
#ifndef IOTRIAGE_BASIC_SYSINFO_H
#define IOTRIAGE_BASIC_SYSINFO_H

#include <stddef.h>
#include <stdint.h>

struct sysinfo_inventory {
	char cpu_model[128];      /* /proc/cpuinfo "model name", "" when absent */
	unsigned cpus;            /* online CPUs */
	uint64_t memory_bytes;    /* MemTotal */
	char kernel[128];         /* uname: release and version */
	char machine[32];         /* uname: x86_64 */
	char distribution[128];   /* /etc/os-release PRETTY_NAME, "" when absent */
};

/* Pure: the value of KEY ("model name", "PRETTY_NAME") in TEXT, where
 * lines are "KEY<sep>VALUE" with SEP ':' (cpuinfo) or '=' (os-release,
 * quotes removed). Returns 0, or -ENOENT. */
int sysinfo_field(const char *text, const char *key, char sep, char *buf, size_t len);

/* Fills *RET from this machine; a part that cannot be read is left empty. */
void sysinfo_read(struct sysinfo_inventory *ret);

#endif
