/* disk/inuse.h: may iotriage write to this block device?
 *
 * Before a write workload touches a raw device, inuse_check() looks for
 * everything that says the device holds something:
 *   - a mounted file system on it or one of its partitions, matched by
 *     device number in /proc/self/mountinfo (never by path string)
 *   - swap on it or a partition (/proc/swaps, each entry stat'ed)
 *   - holders in sysfs (device mapper, md, bcache on top of it)
 *   - another opener holding it with O_EXCL (the kernel's own claim)
 *   - a signature found by libblkid: a file system, ZFS label, LVM PV,
 *     md member, swap, or a partition table
 * The first four are "in use" and nothing overrides them; a signature alone
 * means "holds data" and can be overridden with --force naming the device.
 *
 * On success the device stays open with O_EXCL in report->excl_fd for the
 * whole run, so nothing can mount or claim it while iotriage writes.
 * Library code: never prints; findings are sentences for cmd/ to show.
 */
#ifndef IOTRIAGE_DISK_INUSE_H
#define IOTRIAGE_DISK_INUSE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define INUSE_MAX_FINDINGS 8

struct inuse_paths {
	const char *mountinfo; /* "/proc/self/mountinfo" */
	const char *swaps;     /* "/proc/swaps" */
	const char *sysfs;     /* "/sys" */
};

extern const struct inuse_paths inuse_default_paths;

struct inuse_report {
	size_t count;
	char findings[INUSE_MAX_FINDINGS][320];
	bool in_use;           /* mounted, swap, holders or exclusive: never overridable */
	bool has_signature;    /* overridable with --force */
	int excl_fd;           /* O_EXCL descriptor when the device was free; -1 otherwise */
};

/* Checks the block device PATH with device number RDEV. Returns 0 with the
 * report filled (the caller decides from in_use/has_signature), or -errno
 * when the checks themselves could not run. */
int inuse_check(const char *path, dev_t rdev, const struct inuse_paths *paths,
		struct inuse_report *ret);
void inuse_report_release(struct inuse_report *r);

/* Pieces, exposed for tests on captured files. DEVS is the device and its
 * partitions. Each appends findings to R. Return 0 or -errno. */
int inuse_find_mounts(const char *mountinfo, const dev_t *devs, size_t ndevs, struct inuse_report *r);
int inuse_find_swaps(const char *swaps, const dev_t *devs, size_t ndevs, struct inuse_report *r);
int inuse_find_holders(const char *sysfs, const dev_t *devs, size_t ndevs, struct inuse_report *r);

#endif
