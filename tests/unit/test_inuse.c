/* The write guard's parsers, on captured /proc/self/mountinfo and
 * /proc/swaps text and a fake sysfs holders tree. */
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "disk/inuse.h"
#include "tap.h"

static char dir[] = "/tmp/iotriage-inuse-XXXXXX";

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path);
}

static const char *write_file(const char *name, const char *text)
{
	static char path[512];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
	return path;
}

int main(void)
{
	mkdtemp(dir);
	const char *mountinfo = write_file("mountinfo",
		"22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw\n"
		"40 22 7:3 / /mnt/with\\040space rw,relatime shared:2 - ext4 /dev/loop3 rw\n"
		"41 22 8:17 / /srv rw,relatime shared:3 - xfs /dev/sdb1 rw\n"
		"42 22 0:45 / /proc rw - proc proc rw\n");
	struct inuse_report r = { .excl_fd = -1 };
	dev_t loop3 = makedev(7, 3);
	is_int(inuse_find_mounts(mountinfo, &loop3, 1, &r), 0, "mountinfo parsed");
	is_int(r.count, 1, "one mount of 7:3 found");
	ok(r.in_use, "a mount makes the device in use");
	ok(strstr(r.findings[0], "a file system (ext4) on device 7:3 is mounted on '/mnt/with space'") != NULL,
	   "the finding names the file system and the unescaped mount point");

	/* A partition of the device counts: sdb (8:16) with sdb1 (8:17) mounted. */
	struct inuse_report r2 = { .excl_fd = -1 };
	dev_t sdb[] = { makedev(8, 16), makedev(8, 17) };
	inuse_find_mounts(mountinfo, sdb, 2, &r2);
	ok(r2.count == 1 && strstr(r2.findings[0], "xfs") && strstr(r2.findings[0], "/srv"),
	   "a mounted partition is found through the disk's device list");

	struct inuse_report r3 = { .excl_fd = -1 };
	dev_t other = makedev(7, 9);
	inuse_find_mounts(mountinfo, &other, 1, &r3);
	ok(r3.count == 0 && !r3.in_use, "a device with no mount has no finding");
	is_int(inuse_find_mounts("/nonexistent/mountinfo", &other, 1, &r3), -ENOENT, "missing mountinfo is an error");

	/* Swap entries are matched by stat'ing the path, not by name. */
	struct stat st;
	if (stat("/dev/loop0", &st) == 0 && S_ISBLK(st.st_mode)) {
		const char *swaps = write_file("swaps",
			"Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"
			"/dev/loop0                              partition\t65532\t\t0\t\t-2\n"
			"/swap\\040file                          file\t\t1024\t\t0\t\t-3\n");
		struct inuse_report s = { .excl_fd = -1 };
		dev_t d = st.st_rdev;
		is_int(inuse_find_swaps(swaps, &d, 1, &s), 0, "swaps parsed");
		ok(s.count == 1 && s.in_use && strstr(s.findings[0], "'/dev/loop0' is active swap"),
		   "swap on the device is found");
		struct inuse_report s2 = { .excl_fd = -1 };
		inuse_find_swaps(swaps, &other, 1, &s2);
		is_int(s2.count, 0, "swap elsewhere is not a finding");
	} else {
		ok(1, "swaps parsed # SKIP no /dev/loop0 node");
	}
	struct inuse_report s3 = { .excl_fd = -1 };
	is_int(inuse_find_swaps("/nonexistent/swaps", &other, 1, &s3), 0, "no /proc/swaps means no swap");

	/* Holders: SYSFS/dev/block/M:m/holders/NAME */
	char holders[600];
	snprintf(holders, sizeof(holders), "%s/dev/block/7:3/holders/dm-0", dir);
	char mk[700];
	snprintf(mk, sizeof(mk), "%s/dev", dir);
	mkdir(mk, 0755);
	snprintf(mk, sizeof(mk), "%s/dev/block", dir);
	mkdir(mk, 0755);
	snprintf(mk, sizeof(mk), "%s/dev/block/7:3", dir);
	mkdir(mk, 0755);
	snprintf(mk, sizeof(mk), "%s/dev/block/7:3/holders", dir);
	mkdir(mk, 0755);
	mkdir(holders, 0755);
	struct inuse_report h = { .excl_fd = -1 };
	inuse_find_holders(dir, &loop3, 1, &h);
	ok(h.count == 1 && h.in_use && strstr(h.findings[0], "held by 'dm-0'"), "a holder is found");
	struct inuse_report h2 = { .excl_fd = -1 };
	inuse_find_holders(dir, &other, 1, &h2);
	is_int(h2.count, 0, "no holders directory, no finding");

	nftw(dir, remove_entry, 8, FTW_DEPTH | FTW_PHYS);
	return tap_done();
}
