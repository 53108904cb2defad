#include "disk/inuse.h"

#include <blkid.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "basic/cleanup.h"
#include "basic/fsutil.h"
#include "disk/enumerate.h"

#define MAX_DEVS 128

const struct inuse_paths inuse_default_paths = {
	.mountinfo = "/proc/self/mountinfo",
	.swaps = "/proc/swaps",
	.sysfs = "/sys",
};

static void add_finding(struct inuse_report *r, bool in_use, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void add_finding(struct inuse_report *r, bool in_use, const char *fmt, ...)
{
	if (in_use)
		r->in_use = true;
	else
		r->has_signature = true;
	if (r->count == INUSE_MAX_FINDINGS)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->findings[r->count++], sizeof(r->findings[0]), fmt, ap);
	va_end(ap);
}

static bool dev_in(dev_t d, const dev_t *devs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (devs[i] == d)
			return true;
	return false;
}

/* /proc/mounts and /proc/swaps escape space, tab, newline and backslash as \ooo. */
static void unescape_octal(char *s)
{
	char *out = s;
	for (char *p = s; *p; p++) {
		if (p[0] == '\\' && p[1] >= '0' && p[1] <= '7' && p[2] >= '0' && p[2] <= '7' &&
		    p[3] >= '0' && p[3] <= '7') {
			*out++ = (char)(((p[1] - '0') << 6) | ((p[2] - '0') << 3) | (p[3] - '0'));
			p += 3;
		} else {
			*out++ = *p;
		}
	}
	*out = '\0';
}

int inuse_find_mounts(const char *mountinfo, const dev_t *devs, size_t ndevs, struct inuse_report *r)
{
	_cleanup_fclose_ FILE *f = fopen(mountinfo, "re");
	if (!f)
		return -errno;
	char line[8192];
	while (fgets(line, sizeof(line), f)) {
		/* "36 35 98:0 /mnt1 /mnt/parent rw,noatime master:1 - ext3 /dev/root rw" */
		unsigned maj, min;
		char mountpoint[4096], fstype[64] = "?";
		if (sscanf(line, "%*d %*d %u:%u %*s %4095s", &maj, &min, mountpoint) != 3)
			continue;
		if (!dev_in(makedev(maj, min), devs, ndevs))
			continue;
		const char *dash = strstr(line, " - ");
		if (dash)
			sscanf(dash + 3, "%63s", fstype);
		unescape_octal(mountpoint);
		add_finding(r, true, "a file system (%s) on device %u:%u is mounted on '%s'", fstype, maj, min,
			    mountpoint);
	}
	return 0;
}

int inuse_find_swaps(const char *swaps, const dev_t *devs, size_t ndevs, struct inuse_report *r)
{
	_cleanup_fclose_ FILE *f = fopen(swaps, "re");
	if (!f)
		return errno == ENOENT ? 0 : -errno;
	char line[4096];
	bool header = true;
	while (fgets(line, sizeof(line), f)) {
		if (header) {
			header = false;
			continue;
		}
		char path[4096];
		if (sscanf(line, "%4095s", path) != 1)
			continue;
		unescape_octal(path);
		struct stat st;
		if (stat(path, &st) == 0 && S_ISBLK(st.st_mode) && dev_in(st.st_rdev, devs, ndevs))
			add_finding(r, true, "'%s' is active swap (swapoff first)", path);
	}
	return 0;
}

int inuse_find_holders(const char *sysfs, const dev_t *devs, size_t ndevs, struct inuse_report *r)
{
	for (size_t i = 0; i < ndevs; i++) {
		char dir[512];
		snprintf(dir, sizeof(dir), "%s/dev/block/%u:%u/holders", sysfs, major(devs[i]), minor(devs[i]));
		DIR *d = opendir(dir);
		if (!d)
			continue;
		struct dirent *de;
		while ((de = readdir(d)))
			if (de->d_name[0] != '.')
				add_finding(r, true, "device %u:%u is held by '%s' (device mapper, md or similar)",
					    major(devs[i]), minor(devs[i]), de->d_name);
		closedir(d);
	}
	return 0;
}

static void find_signature(int fd, const char *path, struct inuse_report *r)
{
	blkid_probe pr = blkid_new_probe();
	if (!pr)
		return;
	if (blkid_probe_set_device(pr, fd, 0, 0) == 0) {
		blkid_probe_enable_superblocks(pr, 1);
		blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_LABEL | BLKID_SUBLKS_UUID);
		blkid_probe_enable_partitions(pr, 1);
		int rc = blkid_do_safeprobe(pr);
		const char *type = NULL, *label = NULL, *pttype = NULL;
		if (rc == 0) {
			blkid_probe_lookup_value(pr, "TYPE", &type, NULL);
			blkid_probe_lookup_value(pr, "LABEL", &label, NULL);
			blkid_probe_lookup_value(pr, "PTTYPE", &pttype, NULL);
			if (type)
				add_finding(r, false, "'%s' carries a signature (%s%s%s%s)", path, type,
					    label ? ", label '" : "", label ? label : "", label ? "'" : "");
			if (pttype)
				add_finding(r, false, "'%s' carries a partition table (%s)", path, pttype);
		} else if (rc == -2) {
			add_finding(r, false, "'%s' carries more than one signature", path);
		}
	}
	blkid_free_probe(pr);
}

int inuse_check(const char *path, dev_t rdev, const struct inuse_paths *paths, struct inuse_report *ret)
{
	struct inuse_report r = { .excl_fd = -1 };
	dev_t devs[MAX_DEVS];
	size_t n = disk_and_partitions(paths->sysfs, rdev, devs, MAX_DEVS);
	int err = inuse_find_mounts(paths->mountinfo, devs, n, &r);
	if (err == 0)
		err = inuse_find_swaps(paths->swaps, devs, n, &r);
	if (err == 0)
		err = inuse_find_holders(paths->sysfs, devs, n, &r);
	if (err < 0)
		return err;

	/* The kernel's own claim: O_EXCL on a block device fails with EBUSY while
	 * a file system, md, LVM, swap or another O_EXCL opener has it. */
	int fd = open(path, O_RDWR | O_EXCL | O_CLOEXEC);
	if (fd < 0) {
		if (errno != EBUSY)
			return -errno;
		add_finding(&r, true, "'%s' is held open exclusively by another program (O_EXCL refused)", path);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		find_signature(fd, path, &r);
		close(fd);
	} else {
		find_signature(fd, path, &r);
		r.excl_fd = fd;
	}
	if (r.in_use && r.excl_fd >= 0) {
		close(r.excl_fd);
		r.excl_fd = -1;
	}
	*ret = r;
	return 0;
}

void inuse_report_release(struct inuse_report *r)
{
	if (r->excl_fd >= 0)
		close(r->excl_fd);
	r->excl_fd = -1;
}
