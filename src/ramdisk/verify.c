/* ramdisk/verify.c: each RAM disk has its own backing store. scsi_debug
 * without per_host_store gives every device the same store; this proves
 * the batch does not: distinct data into every device first, then every
 * device read back. O_DIRECT, so each read reaches the device, not the page
 * cache. The blocks are zeroed afterwards (zram keeps zero pages for free). */
#include "ramdisk/ramdisk.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "basic/cleanup.h"

#define VERIFY_BLOCK 4096u

static void fill(unsigned char *buf, unsigned dev, unsigned where)
{
	uint64_t x = 0x9e3779b97f4a7c15ULL * (dev + 1) ^ (where + 1) * 0xbf58476d1ce4e5b9ULL;
	for (unsigned i = 0; i < VERIFY_BLOCK; i += 8) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		memcpy(buf + i, &x, 8);
	}
}

static uint64_t offset_of(const struct ramdisk_dev *d, unsigned where)
{
	uint64_t last = d->size - VERIFY_BLOCK;
	return where == 0 ? 0 : where == 1 ? (d->size / 2) / VERIFY_BLOCK * VERIFY_BLOCK : last;
}

int ramdisk_verify_independent(const struct ramdisk_dev *devs, size_t n, char *why, size_t len)
{
	void *mem = NULL;
	if (posix_memalign(&mem, 4096, 2 * VERIFY_BLOCK) != 0)
		return -ENOMEM;
	_cleanup_free_ unsigned char *buf = mem;
	unsigned char *want = buf + VERIFY_BLOCK;
	int r = 0;
	for (size_t i = 0; i < n && r == 0; i++) {
		if (devs[i].size < 4 * VERIFY_BLOCK) {
			snprintf(why, len, "%s is too small to verify", devs[i].path);
			return -EINVAL;
		}
		_cleanup_close_ int fd = open(devs[i].path, O_WRONLY | O_DIRECT | O_CLOEXEC);
		if (fd < 0) {
			r = -errno;
			snprintf(why, len, "cannot open '%s' to verify it: %s", devs[i].path, strerror(errno));
			break;
		}
		for (unsigned w = 0; w < 3 && r == 0; w++) {
			fill(buf, (unsigned)i, w);
			if (pwrite(fd, buf, VERIFY_BLOCK, (off_t)offset_of(&devs[i], w)) != VERIFY_BLOCK) {
				r = errno ? -errno : -EIO;
				snprintf(why, len, "cannot write to '%s': %s", devs[i].path, strerror(-r));
			}
		}
	}
	for (size_t i = 0; i < n && r == 0; i++) {
		_cleanup_close_ int fd = open(devs[i].path, O_RDONLY | O_DIRECT | O_CLOEXEC);
		if (fd < 0) {
			r = -errno;
			snprintf(why, len, "cannot open '%s' to verify it: %s", devs[i].path, strerror(errno));
			break;
		}
		for (unsigned w = 0; w < 3 && r == 0; w++) {
			if (pread(fd, buf, VERIFY_BLOCK, (off_t)offset_of(&devs[i], w)) != VERIFY_BLOCK) {
				r = errno ? -errno : -EIO;
				snprintf(why, len, "cannot read back '%s': %s", devs[i].path, strerror(-r));
				break;
			}
			fill(want, (unsigned)i, w);
			if (memcmp(buf, want, VERIFY_BLOCK) == 0)
				continue;
			r = -EXDEV;
			for (size_t j = 0; j < n; j++) {
				fill(want, (unsigned)j, w);
				if (j != i && memcmp(buf, want, VERIFY_BLOCK) == 0) {
					snprintf(why, len, "'%s' returned the data written to '%s': they share one store",
						 devs[i].path, devs[j].path);
					goto zero;
				}
			}
			snprintf(why, len, "'%s' did not return the data written to it", devs[i].path);
		}
	}
zero:
	/* Zero what was written, whatever the outcome. */
	for (size_t i = 0; i < n; i++) {
		_cleanup_close_ int fd = open(devs[i].path, O_WRONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		for (unsigned w = 0; w < 3; w++) {
			uint64_t range[2] = { offset_of(&devs[i], w), VERIFY_BLOCK };
			ioctl(fd, BLKZEROOUT, range);
		}
	}
	return r;
}
