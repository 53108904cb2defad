/* ramdisk/byid.c: the /dev/disk/by-id/scsi-* identity of a SCSI RAM disk.
 *
 * With udev running, udev makes the link (60-persistent-storage.rules,
 * scsi_id) and we wait for it. Without udev (a minimal VM, a container)
 * nothing would, so iotriage makes it from the kernel's wwid attribute
 * (the device's VPD page 0x83 designator), named the way scsi_id names it,
 * records that it did, and removes it at destroy. */
#include "ramdisk/ramdisk.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "basic/fsutil.h"

int ramdisk_byid_name_from_wwid(const char *wwid, char *buf, size_t len)
{
	static const struct {
		const char *prefix;
		char type; /* scsi_id's designator type digit */
	} kinds[] = { { "naa.", '3' }, { "eui.", '2' }, { "t10.", '1' }, { "name.", '8' } };
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		size_t plen = strlen(kinds[i].prefix);
		if (strncmp(wwid, kinds[i].prefix, plen) != 0 || !wwid[plen])
			continue;
		/* "scsi-" + type + the designator, each run of blanks one '_',
		 * no trailing blanks, no '/' (udev's replace_whitespace). */
		size_t n = (size_t)snprintf(buf, len, "scsi-%c", kinds[i].type);
		bool blank = false;
		for (const char *c = wwid + plen; *c && n + 2 < len; c++) {
			if (*c == ' ' || *c == '\t') {
				blank = true;
				continue;
			}
			if (blank)
				buf[n++] = '_';
			blank = false;
			buf[n++] = *c == '/' ? '_' : (kinds[i].type == '3' || kinds[i].type == '2')
							? (char)((*c >= 'A' && *c <= 'F') ? *c + 32 : *c)
							: *c;
		}
		buf[n] = '\0';
		return n > 6 ? 0 : -EINVAL;
	}
	return -EINVAL;
}

bool ramdisk_udev_running(void)
{
	return access("/run/udev/control", F_OK) == 0;
}

/* A scsi-* link in by-id that resolves to D's node. */
static bool find_link(const struct ramdisk_paths *p, struct ramdisk_dev *d)
{
	char dir[256];
	snprintf(dir, sizeof(dir), "%s/disk/by-id", p->dev);
	DIR *dh = opendir(dir);
	if (!dh)
		return false;
	bool found = false;
	struct dirent *de;
	while (!found && (de = readdir(dh))) {
		if (strncmp(de->d_name, "scsi-", 5) != 0)
			continue;
		char path[PATH_MAX];
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		struct stat st;
		if (stat(path, &st) == 0 && S_ISBLK(st.st_mode) && st.st_rdev == d->rdev) {
			snprintf(d->by_id, sizeof(d->by_id), "%s", path);
			found = true;
		}
	}
	closedir(dh);
	return found;
}

int ramdisk_byid_attach(const struct ramdisk_paths *p, struct ramdisk_dev *d, int timeout_ms)
{
	char path[256], wwid[256], name[200];
	d->by_id[0] = '\0';
	d->by_id_ours = false;
	snprintf(path, sizeof(path), "%s/class/block/%s/device/wwid", p->sysfs, d->kname);
	if (read_small_file(path, wwid, sizeof(wwid)) <= 0 || ramdisk_byid_name_from_wwid(wwid, name, sizeof(name)) < 0)
		return -ENOENT;
	if (ramdisk_udev_running()) {
		const struct timespec tick = { 0, 50 * 1000 * 1000 };
		for (int waited = 0; waited <= timeout_ms; waited += 50) {
			if (find_link(p, d))
				return 0;
			nanosleep(&tick, NULL);
		}
	} else if (find_link(p, d)) {
		return 0;
	}
	/* No udev (or it made no link in time): make the link udev would make. */
	char dir[256], link[PATH_MAX], target[128];
	snprintf(dir, sizeof(dir), "%s/disk/by-id", p->dev);
	int r = mkdir_p(dir, 0755);
	if (r < 0)
		return r;
	snprintf(link, sizeof(link), "%s/%s", dir, name);
	snprintf(target, sizeof(target), "../../%s", d->kname);
	struct stat st;
	if (lstat(link, &st) == 0) {
		if (!S_ISLNK(st.st_mode))
			return -EEXIST;
		unlink(link);
	}
	if (symlink(target, link) < 0)
		return -errno;
	snprintf(d->by_id, sizeof(d->by_id), "%s", link);
	d->by_id_ours = true;
	return 0;
}

void ramdisk_byid_detach(const struct ramdisk_dev *d)
{
	if (!d->by_id_ours || !d->by_id[0])
		return;
	struct stat st;
	if (lstat(d->by_id, &st) == 0 && S_ISLNK(st.st_mode))
		unlink(d->by_id);
}
