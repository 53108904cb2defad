/* bench/irq_path.c: does a block device complete its I/O by a hardware
 * interrupt that only some CPUs take? See irq_path.h for why it matters. */
#include "bench/irq_path.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define MAX_STACK_DEPTH 8 /* dm over md over partitions: far more than real stacks use */

static unsigned count_subdirs(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	unsigned n = 0;
	struct dirent *e;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.' && e->d_type == DT_DIR)
			n++;
	closedir(d);
	return n;
}

/* One disk (not a partition) with no devices below it. */
static bool leaf_shares_interrupt(const char *disk)
{
	/* loop, zram, brd, scsi_debug, null_blk and iSCSI sit outside the PCI
	 * tree: their completions come from a kernel thread, a timer or the
	 * submitting call, on whichever CPU does the work. */
	if (strncmp(disk, "/sys/devices/pci", 16) != 0)
		return false;
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/mq", disk);
	unsigned queues = count_subdirs(path);
	if (queues == 0)
		return false; /* bio-based: completes in the submitting call */
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	/* NVMe gives each CPU a queue and its own interrupt: local completions. */
	return cpus > 0 && queues < (unsigned long)cpus;
}

static bool disk_shares_interrupt(const char *sysdir, unsigned depth);

/* dm and md: the I/O completes on whatever the devices below complete on.
 * 1 when any of them shares an interrupt, 0 when none does, -1 when DISK
 * has no devices below it. */
static int slaves_share_interrupt(const char *disk, unsigned depth)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/slaves", disk);
	DIR *d = opendir(path);
	if (!d)
		return -1;
	int shared = -1;
	struct dirent *e;
	while (shared != 1 && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char slave[PATH_MAX];
		snprintf(slave, sizeof(slave), "/sys/class/block/%s", e->d_name);
		shared = disk_shares_interrupt(slave, depth + 1);
	}
	closedir(d);
	return shared;
}

static bool disk_shares_interrupt(const char *sysdir, unsigned depth)
{
	char real[PATH_MAX], probe[PATH_MAX + 16];
	if (depth > MAX_STACK_DEPTH || !realpath(sysdir, real))
		return false;
	snprintf(probe, sizeof(probe), "%s/partition", real);
	if (access(probe, F_OK) == 0) {
		char *slash = strrchr(real, '/');
		if (slash)
			*slash = '\0'; /* a partition's directory sits in its disk's */
	}
	int below = slaves_share_interrupt(real, depth);
	return below >= 0 ? below == 1 : leaf_shares_interrupt(real);
}

bool irq_path_shared(dev_t dev)
{
	if (major(dev) == 0)
		return false; /* tmpfs, FUSE, NFS, CephFS: no block device to ask */
	char sysdir[64];
	snprintf(sysdir, sizeof(sysdir), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	return disk_shares_interrupt(sysdir, 0);
}
