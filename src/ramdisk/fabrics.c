/* ramdisk/fabrics.c: the NVMe-over-Fabrics initiator through the kernel's
 * /dev/nvme-fabrics (no nvme-cli needed): connect, find the namespace's
 * block device by its subsystem NQN and nsid, disconnect. See ramdisk.h. */
#include "ramdisk/ramdisk.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "basic/fsutil.h"

int ramdisk_fabrics_parse_answer(const char *answer, char *ctrl, size_t ctrl_len)
{
	const char *p = strstr(answer, "instance=");
	if (!p)
		return -EINVAL;
	char *end;
	errno = 0;
	unsigned long v = strtoul(p + 9, &end, 10);
	if (errno || end == p + 9 || (*end && *end != ',' && *end != '\n'))
		return -EINVAL;
	snprintf(ctrl, ctrl_len, "nvme%lu", v);
	return 0;
}

int ramdisk_fabrics_connect(const char *fabrics, const char *traddr, unsigned trsvcid, const char *nqn,
			    const char *hostnqn, char *ctrl, size_t ctrl_len, char *why, size_t len)
{
	char opts[768];
	int k = snprintf(opts, sizeof(opts), "transport=tcp,traddr=%s,trsvcid=%u,nqn=%s", traddr, trsvcid, nqn);
	if (hostnqn && *hostnqn)
		snprintf(opts + k, sizeof(opts) - (size_t)k, ",hostnqn=%s", hostnqn);
	int fd = open(fabrics, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		snprintf(why, len, "cannot open '%s': %s (module nvme_tcp)", fabrics, strerror(e));
		return -e;
	}
	int r = 0;
	ssize_t w = write(fd, opts, strlen(opts));
	if (w < 0) {
		r = -errno;
		snprintf(why, len, "cannot connect to '%s' at %s:%u: %s", nqn, traddr, trsvcid, strerror(-r));
	} else {
		char answer[128];
		ssize_t n = read(fd, answer, sizeof(answer) - 1);
		answer[n > 0 ? n : 0] = '\0';
		r = ramdisk_fabrics_parse_answer(answer, ctrl, ctrl_len);
		if (r < 0)
			snprintf(why, len, "'%s' answered '%s' to the connect, not the controller's instance", fabrics,
				 answer);
	}
	close(fd);
	return r;
}

/* Is /sys/block/KNAME namespace NSID of subsystem NQN? With native
 * multipath the per-path disks (nvme0c0n1) are hidden, without a device
 * node: only the head (nvme0n1) counts. */
static bool block_is(const char *sysfs, const char *kname, const char *nqn, unsigned nsid)
{
	char path[PATH_MAX], v[256];
	if (strchr(kname + 4, 'c'))
		return false;
	snprintf(path, sizeof(path), "%s/block/%s/device/subsysnqn", sysfs, kname);
	if (read_small_file(path, v, sizeof(v)) < 0 || strcmp(v, nqn) != 0)
		return false;
	snprintf(path, sizeof(path), "%s/block/%s/nsid", sysfs, kname);
	return read_small_file(path, v, sizeof(v)) > 0 && strtoul(v, NULL, 10) == nsid;
}

int ramdisk_fabrics_find(const char *sysfs, const char *nqn, unsigned nsid, int timeout_ms, char *kname,
			 size_t kname_len)
{
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s/block", sysfs);
	for (int waited = 0;; waited += 50) {
		DIR *d = opendir(dir);
		struct dirent *de;
		bool found = false;
		while (d && !found && (de = readdir(d))) {
			if (strncmp(de->d_name, "nvme", 4) != 0 || !block_is(sysfs, de->d_name, nqn, nsid))
				continue;
			snprintf(kname, kname_len, "%s", de->d_name);
			found = true;
		}
		if (d)
			closedir(d);
		if (found)
			return 0;
		if (waited >= timeout_ms)
			return -ENOENT;
		nanosleep(&(struct timespec){ 0, 50 * 1000 * 1000 }, NULL);
	}
}

int ramdisk_fabrics_disconnect(const char *sysfs, const char *ctrl, char *why, size_t len)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/class/nvme/%s/delete_controller", sysfs, ctrl);
	int r = write_small_file(path, "1");
	if (r < 0)
		snprintf(why, len, "cannot delete controller '%s': %s", ctrl, strerror(-r));
	return r;
}

size_t ramdisk_fabrics_controllers(const char *sysfs, const char *nqn, char names[][32], size_t max)
{
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s/class/nvme", sysfs);
	DIR *d = opendir(dir);
	size_t n = 0;
	struct dirent *de;
	while (d && (de = readdir(d))) {
		char path[PATH_MAX], v[256];
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/subsysnqn", dir, de->d_name);
		if (read_small_file(path, v, sizeof(v)) < 0 || strcmp(v, nqn) != 0)
			continue;
		if (n < max)
			snprintf(names[n], 32, "%s", de->d_name);
		n++;
	}
	if (d)
		closedir(d);
	return n;
}
