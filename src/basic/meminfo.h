/* basic/meminfo.h: the one reader of /proc/meminfo (the RAM-disk budget,
 * the page-cache size a pool test must exceed, memory released after a
 * RAM disk is destroyed). */
#ifndef IOTRIAGE_BASIC_MEMINFO_H
#define IOTRIAGE_BASIC_MEMINFO_H

#include <stdint.h>

struct meminfo {
	uint64_t total_bytes;      /* MemTotal */
	uint64_t available_bytes;  /* MemAvailable */
};

/* Pure: field KEY ("MemTotal") of /proc/meminfo TEXT, in bytes. Returns 0,
 * -ENOENT when the field is absent or -EINVAL when it has no number. */
int meminfo_field(const char *text, const char *key, uint64_t *ret_bytes);

/* Reads /proc/meminfo: both fields. Returns 0 or -errno. */
int meminfo_read(struct meminfo *ret);

#endif
