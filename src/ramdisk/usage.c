/* ramdisk/usage.c: is a RAM disk free, and if not, what has it? Mounts,
 * swap and holders come from disk/inuse (matched by device number); pool
 * labels from libblkid; openers from /proc/PID/fd (by device number, so
 * the answer names the program: "open by zfs-fuse (pid 812)", rather than
 * "check lsof and dmesg"); the kernel's own
 * claim from an O_EXCL open. */
#include "ramdisk/ramdisk.h"

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

#include "basic/fsutil.h"
#include "disk/enumerate.h"
#include "disk/inuse.h"

static void add_use(struct ramdisk_usage *u, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void add_use(struct ramdisk_usage *u, const char *fmt, ...)
{
	if (u->count == RAMDISK_MAX_USES)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(u->uses[u->count++], sizeof(u->uses[0]), fmt, ap);
	va_end(ap);
}

static void set_status(struct ramdisk_usage *u, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void set_status(struct ramdisk_usage *u, const char *fmt, ...)
{
	if (strcmp(u->status, "free") != 0)
		return; /* the first (most important) finding names the status */
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(u->status, sizeof(u->status), fmt, ap);
	va_end(ap);
}

static bool dev_in(dev_t d, const dev_t *devs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (devs[i] == d)
			return true;
	return false;
}

/* Processes with the device (or a partition) open, by device number. */
static void find_openers(const dev_t *devs, size_t ndevs, struct ramdisk_usage *u)
{
	DIR *proc = opendir("/proc");
	if (!proc)
		return;
	pid_t self = getpid();
	struct dirent *pe;
	while ((pe = readdir(proc))) {
		char *end;
		long pid = strtol(pe->d_name, &end, 10);
		if (*end || pid <= 0 || pid == self)
			continue;
		char fddir[64];
		snprintf(fddir, sizeof(fddir), "/proc/%ld/fd", pid);
		DIR *fds = opendir(fddir);
		if (!fds)
			continue;
		struct dirent *fe;
		bool hit = false;
		while (!hit && (fe = readdir(fds))) {
			char path[128];
			struct stat st;
			snprintf(path, sizeof(path), "%s/%s", fddir, fe->d_name);
			if (fe->d_name[0] != '.' && stat(path, &st) == 0 && S_ISBLK(st.st_mode) &&
			    dev_in(st.st_rdev, devs, ndevs))
				hit = true;
		}
		closedir(fds);
		if (!hit)
			continue;
		char commpath[64], comm[64] = "?";
		snprintf(commpath, sizeof(commpath), "/proc/%ld/comm", pid);
		read_small_file(commpath, comm, sizeof(comm));
		u->open = true;
		set_status(u, "open by %s (pid %ld)", comm, pid);
		add_use(u, "open by %s (pid %ld)", comm, pid);
	}
	closedir(proc);
}

static void find_label(int fd, char *pool_type, size_t len)
{
	blkid_probe pr = blkid_new_probe();
	if (!pr)
		return;
	if (blkid_probe_set_device(pr, fd, 0, 0) == 0) {
		blkid_probe_enable_superblocks(pr, 1);
		blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_LABEL);
		const char *type = NULL, *label = NULL;
		if (blkid_do_safeprobe(pr) == 0) {
			blkid_probe_lookup_value(pr, "TYPE", &type, NULL);
			blkid_probe_lookup_value(pr, "LABEL", &label, NULL);
			if (type && (strcmp(type, "zfs_member") == 0 || strcmp(type, "linux_raid_member") == 0 ||
				     strcmp(type, "LVM2_member") == 0 || strcmp(type, "btrfs") == 0)) {
				snprintf(pool_type, len, "%s%s%s%s", type, label ? " '" : "", label ? label : "",
					 label ? "'" : "");
			}
		}
	}
	blkid_free_probe(pr);
}

int ramdisk_usage_check(const struct ramdisk_dev *d, struct ramdisk_usage *ret)
{
	struct ramdisk_usage u;
	memset(&u, 0, sizeof(u));
	snprintf(u.status, sizeof(u.status), "free");
	dev_t devs[64];
	size_t n = disk_and_partitions("/sys", d->rdev, devs, 64);

	struct inuse_report rep = { .excl_fd = -1 };
	int r = inuse_find_mounts(inuse_default_paths.mountinfo, devs, n, &rep);
	if (r < 0)
		return r;
	if (rep.count) {
		u.mounted = true;
		/* "a ext4 file system on device 252:3 is mounted on '/mnt/x'" */
		const char *on = strstr(rep.findings[0], "mounted on ");
		set_status(&u, "%s", on ? on : "mounted");
	}
	size_t seen = rep.count;
	inuse_find_swaps(inuse_default_paths.swaps, devs, n, &rep);
	if (rep.count > seen) {
		u.swap = true;
		set_status(&u, "swap");
	}
	seen = rep.count;
	inuse_find_holders(inuse_default_paths.sysfs, devs, n, &rep);
	if (rep.count > seen) {
		u.held = true;
		/* "device 252:3 is held by 'dm-0' (...)" */
		const char *by = strstr(rep.findings[seen], "held by ");
		char holder[96] = "";
		if (by)
			sscanf(by, "held by '%95[^']'", holder);
		set_status(&u, "held by %s", holder[0] ? holder : "a holder");
	}
	for (size_t i = 0; i < rep.count && i < INUSE_MAX_FINDINGS; i++)
		add_use(&u, "%s", rep.findings[i]);

	if (geteuid() != 0) {
		u.unknown = true; /* openers, labels and claims need root */
		*ret = u;
		return 0;
	}
	char pool[128] = "";
	int fd = open(d->path, O_RDONLY | O_EXCL | O_CLOEXEC);
	if (fd < 0 && errno == EBUSY) {
		if (!u.mounted && !u.swap && !u.held)
			u.claimed = true;
		fd = open(d->path, O_RDONLY | O_CLOEXEC);
	}
	if (fd >= 0) {
		find_label(fd, pool, sizeof(pool));
		close(fd);
	}
	find_openers(devs, n, &u);
	if (pool[0] && (u.open || u.claimed || u.held)) {
		u.in_pool = true;
		char status[160];
		snprintf(status, sizeof(status), "in a pool (%.60s; %.80s)", pool, u.status);
		snprintf(u.status, sizeof(u.status), "%s", status);
		add_use(&u, "member of a pool: %s", pool);
	} else if (pool[0]) {
		add_use(&u, "carries a %s label, but nothing has it open (an exported or destroyed pool)", pool);
	}
	if (u.claimed) {
		set_status(&u, "claimed exclusively");
		add_use(&u, "held exclusively (O_EXCL) by the kernel or a program");
	}
	*ret = u;
	return 0;
}
