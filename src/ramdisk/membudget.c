/* ramdisk/membudget.c: how much memory a batch may take. The backing store
 * is kernel memory that cannot be swapped, so the budget is two thirds of
 * MemAvailable. A ZFS ARC (kernel ZFS's arcstats, or a zfs-fuse daemon)
 * would cache a pool built on the RAM disk a second time. */
#include "ramdisk/ramdisk.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/fsutil.h"
#include "basic/meminfo.h"

int ramdisk_parse_meminfo(const char *text, uint64_t *ret_available, uint64_t *ret_total)
{
	int r = meminfo_field(text, "MemAvailable", ret_available);
	if (r == 0)
		r = meminfo_field(text, "MemTotal", ret_total);
	return r;
}

static bool zfs_fuse_running(void)
{
	DIR *d = opendir("/proc");
	if (!d)
		return false;
	bool found = false;
	struct dirent *de;
	while (!found && (de = readdir(d))) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		char path[300], comm[64];
		snprintf(path, sizeof(path), "/proc/%s/comm", de->d_name);
		if (read_small_file(path, comm, sizeof(comm)) > 0 && strcmp(comm, "zfs-fuse") == 0)
			found = true;
	}
	closedir(d);
	return found;
}

int ramdisk_mem_read(struct ramdisk_mem *ret)
{
	memset(ret, 0, sizeof(*ret));
	struct meminfo mi;
	int r = meminfo_read(&mi);
	if (r < 0)
		return r;
	ret->mem_available = mi.available_bytes;
	ret->mem_total = mi.total_bytes;
	ret->budget = ret->mem_available / 3 * 2;
	arc_read(&ret->arc);
	ret->zfs_fuse = zfs_fuse_running();
	return 0;
}

uint64_t ramdisk_mem_available(void)
{
	struct meminfo mi;
	return meminfo_read(&mi) < 0 ? 0 : mi.available_bytes;
}
