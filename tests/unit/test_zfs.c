/* zpool status parsing: zfs-fuse's output captured on this machine, and
 * OpenZFS's with -P paths and support classes. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pool/btrfs.h"
#include "pool/zfs.h"
#include "tap.h"
#include "test_data.h"

static const char openzfs[] =
	"  pool: tank\n"
	" state: ONLINE\n"
	"config:\n"
	"\n"
	"\tNAME                                          STATE     READ WRITE CKSUM\n"
	"\ttank                                          ONLINE       0     0     0\n"
	"\t  mirror-0                                    ONLINE       0     0     0\n"
	"\t    /dev/disk/by-id/scsi-36000c294c4007096-part1  ONLINE       0     0     0\n"
	"\t    /dev/disk/by-id/scsi-36000c2905242986-part1  ONLINE       0     0     0\n"
	"\t  /dev/sdd                                    ONLINE       0     0     0\n"
	"\tlogs\n"
	"\t  /dev/nvme0n1p1                              ONLINE       0     0     0\n"
	"\tcache\n"
	"\t  /dev/nvme0n1p2                              ONLINE       0     0     0\n"
	"\tspares\n"
	"\t  /dev/sde                                    AVAIL\n"
	"\n"
	"errors: No known data errors\n";

int main(void)
{
	struct pool_layout l;
	const char *fuse = test_data("zpool_status_fuse_mirror_raidz.txt", NULL);
	ok(fuse != NULL, "captured zfs-fuse status read");
	is_int(zfs_parse_status(fuse, &l), 0, "zfs-fuse status parsed");
	is_str(l.pool, "tpool", "pool name");
	is_int(l.count, 5, "five leaf devices");
	is_str(l.members[0].name, "loop0", "first member as the pool names it");
	is_str(l.members[0].path, "/dev/loop0", "and the node to read");
	is_str(l.members[1].vdev, "mirror-0", "loop1 is in mirror-0");
	is_str(l.members[2].vdev, "raidz1-1", "loop2 is in raidz1-1");
	is_str(l.members[4].vdev, "raidz1-1", "loop4 is in raidz1-1");
	pool_layout_release(&l);

	is_int(zfs_parse_status(openzfs, &l), 0, "OpenZFS -P status parsed");
	is_int(l.count, 6, "six leaves: two mirrored, one striped, a log, a cache, a spare");
	is_str(l.members[0].path, "/dev/disk/by-id/scsi-36000c294c4007096-part1", "-P paths are kept");
	is_str(l.members[0].vdev, "mirror-0", "by-id member in mirror-0");
	is_str(l.members[2].vdev, "tank", "a striped member belongs to the pool itself");
	is_str(l.members[3].vdev, "logs", "log device");
	is_str(l.members[4].vdev, "cache", "cache device");
	is_str(l.members[5].vdev, "spares", "spare");
	pool_layout_release(&l);

	is_int(zfs_parse_status("no pools available\n", &l), -EINVAL, "no config section is an error");

	static const char by_id_names[] = "  pool: p\nconfig:\n\n\tNAME  STATE\n\tp  ONLINE\n\t  scsi-36000c2-part1  ONLINE\n"
					  "\t  sdf1  ONLINE\n\nerrors: No known data errors\n";
	is_int(zfs_parse_status(by_id_names, &l), 0, "names without -P parsed");
	char cut[sizeof(by_id_names)];
	snprintf(cut, sizeof(cut), "%.*s", (int)(strstr(by_id_names, "\t  sdf1") - by_id_names), by_id_names);
	is_str(l.members[0].path, "/dev/disk/by-id/scsi-36000c2-part1", "a by-id name is read through /dev/disk/by-id");
	is_str(l.members[1].path, "/dev/sdf1", "a kernel name through /dev");
	pool_layout_release(&l);
	is_int(zfs_parse_status(cut, &l), -EINVAL, "a status cut off inside its table (no errors: line) is an error");

	ok(zfs_valid_pool_name("tank") && zfs_valid_pool_name("qs-596a6bb7-b2c7.x:y"), "valid pool names");
	ok(!zfs_valid_pool_name("9tank") && !zfs_valid_pool_name("tank/ds") && !zfs_valid_pool_name("") &&
		   !zfs_valid_pool_name("-o") && !zfs_valid_pool_name("a b"),
	   "invalid pool names: leading digit, slash, empty, option-like, space");

	const char list[] = "tank\t8630568193032630555\nbackup\t42\n";
	char name[64];
	ok(zfs_find_pool(list, "backup", name, sizeof(name)) == 0 && strcmp(name, "backup") == 0, "found by name");
	ok(zfs_find_pool(list, "8630568193032630555", name, sizeof(name)) == 0 && strcmp(name, "tank") == 0,
	   "found by GUID");
	is_int(zfs_find_pool(list, "tan", name, sizeof(name)), -ENOENT, "a prefix is not a match");
	const char *show = test_data("btrfs_show_raw_raid1.txt", NULL);
	ok(show != NULL, "captured btrfs filesystem show read");
	is_int(btrfs_parse_show(show, "tbtr", &l), 0, "btrfs found by label");
	ok(l.count == 2 && strcmp(l.members[0].path, "/dev/loop0") == 0 && strcmp(l.members[1].path, "/dev/loop1") == 0,
	   "its two devices, and not the other file system's");
	is_str(l.members[0].vdev, "btrfs", "grouped as one btrfs device set");
	pool_layout_release(&l);
	is_int(btrfs_parse_show(show, "0a1b2c3d-0000-4000-8000-123456789abc", &l), 0, "found by UUID");
	ok(l.count == 1 && strcmp(l.pool, "0a1b2c3d-0000-4000-8000-123456789abc") == 0, "an unlabelled one is named by UUID");
	pool_layout_release(&l);
	is_int(btrfs_parse_show(show, "nope", &l), -ENOENT, "an unknown label is not found");
	struct strbuf names = STRBUF_INIT;
	btrfs_list_names(show, &names);
	ok(strstr(names.buf, "'tbtr' (fb4df3db") && strstr(names.buf, "'no label' (0a1b2c3d"), "names listed for errors");
	strbuf_release(&names);
	char uuids[4][64];
	is_int(btrfs_list_uuids(show, uuids, 4), 2, "two file systems' UUIDs");
	is_str(uuids[1], "0a1b2c3d-0000-4000-8000-123456789abc", "in order");
	is_int(btrfs_list_uuids(show, uuids, 1), 1, "no more than asked for");
	return tap_done();
}
