/* fs/mounts: mountinfo captured on this machine with a zfs-fuse pool (two
 * datasets), a btrfs file system and a subvolume (its mount point holds a
 * space), an ext4 file system and a bind mount of it; plus composed lines
 * for OpenZFS and malformed input. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fs/mounts.h"
#include "tap.h"
#include "test_data.h"

static size_t find(const struct mount_table *t, const char *suffix)
{
	for (size_t i = 0; i < t->count; i++) {
		size_t a = strlen(t->entries[i].mountpoint), b = strlen(suffix);
		if (a >= b && strcmp(t->entries[i].mountpoint + a - b, suffix) == 0)
			return i;
	}
	ok(0, suffix); /* not found: fail, and point at entry 0 so the test goes on */
	return 0;
}

static void test_captured(void)
{
	const char *text = test_data("mountinfo_volumes_captured.txt", NULL);
	ok(text != NULL, "captured mountinfo is readable");
	if (!text)
		return;
	struct mount_table t;
	ok(mounts_parse(text, &t, NULL) == 0, "captured mountinfo parses");
	is_int(t.count, 30, "one entry per line");

	size_t root = 0, dup = 0;
	for (size_t i = 0; i < t.count; i++)
		if (strcmp(t.entries[i].mountpoint, "/") == 0)
			root = i;
	is_str(t.entries[root].fstype, "ext4", "the root file system is ext4");
	is_int(mount_classify(&t, root, &dup), MOUNT_ROOT, "the root file system is classified as root");

	size_t proc = 0;
	while (proc < t.count && strcmp(t.entries[proc].mountpoint, "/proc") != 0)
		proc++;
	is_int(mount_classify(&t, proc, &dup), MOUNT_PSEUDO, "/proc is pseudo");
	size_t cg = find(&t, "/sys/fs/cgroup/blkio");
	is_int(mount_classify(&t, cg, &dup), MOUNT_PSEUDO, "a cgroup hierarchy is pseudo");
	size_t kstat = find(&t, "/zfs-kstat");
	is_int(mount_classify(&t, kstat, &dup), MOUNT_PSEUDO, "zfs-fuse's kstat FUSE mount is pseudo");
	size_t netns = find(&t, "/run/netns");
	is_int(mount_classify(&t, netns, &dup), MOUNT_DUPLICATE, "/run/netns (a bind of the root) is a duplicate");
	is_int(dup, root, "... of the root file system");

	size_t comp = find(&t, "/zfs/comp");
	is_str(t.entries[comp].fstype, "fuse.zfs", "zfs-fuse's type");
	is_str(t.entries[comp].source, "iotriage-voldev-575/comp", "source is the dataset");
	ok(mount_is_zfs(&t.entries[comp]), "mount_is_zfs(fuse.zfs)");
	is_int(mount_classify(&t, comp, &dup), MOUNT_VOLUME, "a dataset is a volume");
	is_int(mount_classify(&t, find(&t, "/zfs"), &dup), MOUNT_VOLUME, "the pool's root dataset is a volume");

	size_t btr = find(&t, "/btr"), sub = find(&t, "/btr sub");
	ok(strchr(t.entries[sub].mountpoint, ' ') != NULL, "\\040 in a mount point becomes a space");
	is_str(t.entries[sub].root, "/sv", "the subvolume's root");
	ok(mount_is_btrfs(&t.entries[sub]), "mount_is_btrfs");
	is_int(t.entries[btr].major * 1000 + t.entries[btr].minor, t.entries[sub].major * 1000 + t.entries[sub].minor,
	       "btrfs: one device number for both subvolumes");
	is_int(mount_classify(&t, btr, &dup), MOUNT_VOLUME, "the btrfs top level is a volume");
	is_int(mount_classify(&t, sub, &dup), MOUNT_VOLUME, "a second subvolume is a volume of its own, not a duplicate");
	char v[64];
	ok(mount_option(t.entries[sub].super_opts, "subvol", v, sizeof(v)) && strcmp(v, "/sv") == 0, "subvol=/sv");
	ok(mount_option(t.entries[sub].super_opts, "subvolid", v, sizeof(v)) && strcmp(v, "256") == 0,
	   "subvolid=256 (not confused with subvol)");

	size_t ext = find(&t, "/ext"), bind = find(&t, "/bind");
	is_int(mount_classify(&t, ext, &dup), MOUNT_VOLUME, "ext4 on a loop device is a volume");
	is_int(mount_classify(&t, bind, &dup), MOUNT_DUPLICATE, "its bind mount is a duplicate");
	is_int(dup, ext, "... of the ext4 mount");
	ok(!t.entries[ext].readonly, "rw mount is not read-only");
	size_t sandbox = find(&t, "/python");
	ok(t.entries[sandbox].readonly, "ro in the options is read-only");
	mount_table_release(&t);
}

static void test_composed(void)
{
	const char *text =
		"30 1 0:50 / /tank rw,noatime shared:12 master:3 - zfs tank rw,xattr,noacl\n"
		"31 30 0:51 / /tank/ro\\134dir ro,noatime shared:13 - zfs tank/ro rw\n"
		"32 1 8:3 / /srv rw shared:1 - xfs /dev/sda3 rw,attr2,inode64\n"
		"\n"
		"33 1 0:60 / /var/lib/docker/x rw - overlay overlay rw,lowerdir=/a\n"
		"34 1 0:4 net:[4026532176] /run/netns/a rw shared:2 - nsfs nsfs rw\n";
	struct mount_table t;
	ok(mounts_parse(text, &t, NULL) == 0, "composed OpenZFS/xfs lines parse (optional fields, blank line)");
	is_int(t.count, 5, "five entries");
	is_str(t.entries[0].fstype, "zfs", "optional fields skipped up to the '-'");
	ok(mount_is_zfs(&t.entries[0]), "OpenZFS's type is zfs");
	is_str(t.entries[1].mountpoint, "/tank/ro\\dir", "\\134 is a backslash");
	ok(t.entries[1].readonly, "per-mount ro is read-only");
	size_t dup;
	is_int(mount_classify(&t, 2, &dup), MOUNT_VOLUME, "xfs is a volume");
	is_int(mount_classify(&t, 3, &dup), MOUNT_PSEUDO, "overlay is skipped");
	is_int(mount_classify(&t, 4, &dup), MOUNT_PSEUDO, "nsfs is skipped");
	mount_table_release(&t);

	size_t line = 0;
	ok(mounts_parse("1 0 8:1 / / rw - ext4 /dev/sda1 rw\n2 1 8:2 / /x rw ext4 /dev/sda2 rw\n", &t, &line) == -EINVAL,
	   "a line without the '-' separator is refused");
	is_int(line, 2, "... and its line number given");
	ok(mounts_parse("x y\n", &t, &line) == -EINVAL, "garbage is refused");
	ok(mounts_parse("", &t, NULL) == 0 && t.count == 0, "empty text: no mounts");
	mount_table_release(&t);
}

int main(void)
{
	test_captured();
	test_composed();
	return tap_done();
}
