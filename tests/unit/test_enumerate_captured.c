/* test_enumerate_captured: disk/enumerate.c on a /sys subset captured from a
 * real machine (tests/data/capture_sysfs.sh; what was captured and how is in
 * each tree's CAPTURED file), not on a tree written by hand:
 *
 *   sysfs_vm/   this project's VM: virtio vda, zram0 (never initialised),
 *               zram1 (64 MiB), loop11 (4096-byte sectors, backing file
 *               /var/tmp/iotriage-capture-loop.img, 16 MiB), loop12 (free).
 *   sysfs_qemu_scsi_debug/   the tests/vm qemu VM (Debian's kernel): two
 *               scsi_debug disks, 16 MiB, 4096-byte sectors, two partitions each.
 *
 * The captured /sys/block entries are the kernel's relative symlinks, so the
 * transport and controller come from the real device paths. */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "disk/enumerate.h"
#include "tap.h"

#define VM TEST_DATA_DIR "/sysfs_vm"
#define QS TEST_DATA_DIR "/sysfs_qemu_scsi_debug"

static const struct disk_info *find(const struct disk_list *l, const char *kname)
{
	for (size_t i = 0; i < l->count; i++)
		if (strcmp(l->disks[i].kname, kname) == 0)
			return &l->disks[i];
	return NULL;
}

static const char *reason(const struct disk_info *d)
{
	return d && d->skip_reason ? d->skip_reason : "(none)";
}

static void test_vm_list(void)
{
	struct disk_list l;
	is_int(disk_enumerate(VM "/sys", VM "/dev", &l), 0, "vm: enumeration succeeds");
	is_int(l.count, 5, "vm: five block devices");
	const char *order[] = { "loop11", "loop12", "vda", "zram0", "zram1" };
	bool in_order = l.count == 5;
	for (size_t i = 0; in_order && i < 5; i++)
		in_order = strcmp(l.disks[i].kname, order[i]) == 0;
	ok(in_order, "vm: in kernel-name order (loop11 loop12 vda zram0 zram1)");

	const struct disk_info *vda = find(&l, "vda");
	ok(vda != NULL, "vm: vda found");
	if (vda) {
		is_str(vda->transport, "virtio", "vda: transport virtio (from its pci.../virtio1 path)");
		is_int(vda->size_bytes, 274877906944ULL, "vda: 536870912 sectors = 256 GiB");
		is_int(vda->logical_block_size, 512, "vda: 512-byte logical blocks");
		is_int(vda->physical_block_size, 4096, "vda: 4096-byte physical blocks");
		ok(vda->major == 254 && vda->minor == 0, "vda: device 254:0");
		is_str(vda->serial, "overlayblk", "vda: serial from its own serial attribute (no trailing newline in sysfs)");
		is_str(vda->vendor, "0x1af4", "vda: vendor is the virtio device's PCI vendor id, as sysfs has it");
		is_str(vda->model, "", "vda: no model attribute, empty model");
		is_str(vda->wwn, "", "vda: no wwid, empty wwn");
		is_str(vda->by_id, "", "vda: no /dev/disk/by-id without udev");
		is_str(vda->path_group, "pci 0000:00:02.0", "vda: shares a path with its PCI function");
		is_str(vda->enclosure, "", "vda: no enclosure");
		ok(vda->rotational && !vda->removable, "vda: rotational as virtio reports it, not removable");
		is_str(vda->dev_path, VM "/dev/vda", "vda: device node under the dev root");
		is_str(reason(vda), "(none)", "vda: can be read");
		char key[256];
		disk_identity_key(vda, key, sizeof(key));
		is_str(key, "serial::overlayblk", "vda: identity from the serial (no model)");
	}

	const struct disk_info *loop = find(&l, "loop11");
	ok(loop != NULL, "vm: loop11 found");
	if (loop) {
		is_str(loop->transport, "loop", "loop11: transport loop");
		is_int(loop->size_bytes, 16 << 20, "loop11: 16 MiB");
		is_int(loop->logical_block_size, 4096, "loop11: 4096-byte logical sectors (losetup --sector-size 4096)");
		is_int(loop->physical_block_size, 4096, "loop11: 4096-byte physical sectors");
		ok(loop->major == 7 && loop->minor == 11, "loop11: device 7:11");
		is_str(loop->backing_file, "/var/tmp/iotriage-capture-loop.img", "loop11: backing file");
		is_str(reason(loop), "(none)", "loop11: attached, can be read");
		char key[256];
		disk_identity_key(loop, key, sizeof(key));
		is_str(key, "loop:/var/tmp/iotriage-capture-loop.img", "loop11: identity from the backing file");
		/* The backing file was removed after the capture: its directory
		 * on this machine stands in (backing_device_of reads the live
		 * file system, not the captured tree). */
		struct stat st;
		char want[64] = "";
		if (stat("/var/tmp/iotriage-capture-loop.img", &st) == 0 || stat("/var/tmp", &st) == 0)
			snprintf(want, sizeof(want), "backing device %u:%u", major(st.st_dev), minor(st.st_dev));
		is_str(loop->path_group, want, "loop11: path group is the file system holding the backing file");
	}

	const struct disk_info *free_loop = find(&l, "loop12");
	ok(free_loop && free_loop->size_bytes == 0 && free_loop->backing_file[0] == '\0',
	   "loop12: size 0, no backing file");
	is_str(reason(free_loop), "loop device not attached", "loop12: skipped as not attached");

	const struct disk_info *z0 = find(&l, "zram0"), *z1 = find(&l, "zram1");
	is_str(reason(z0), "zram device not initialised", "zram0: skipped as not initialised (disksize 0)");
	ok(z0 && strcmp(z0->transport, "zram") == 0 && strcmp(z0->path_group, "memory") == 0,
	   "zram0: transport zram, path group memory");
	ok(z1 != NULL, "vm: zram1 found");
	if (z1) {
		is_str(reason(z1), "(none)", "zram1: initialised, can be read");
		is_int(z1->size_bytes, 64 << 20, "zram1: 64 MiB");
		ok(!z1->rotational, "zram1: not rotational");
		is_int(z1->logical_block_size, 4096, "zram1: 4096-byte logical blocks");
		is_str(z1->transport, "zram", "zram1: transport zram");
		is_str(z1->path_group, "memory", "zram1: path group memory");
		char key[64];
		disk_identity_key(z1, key, sizeof(key));
		is_str(key, "name:zram1", "zram1: only its name identifies it");
	}
	disk_list_free(&l);
}

static void test_vm_lookups(void)
{
	char name[64];
	bool part = true;
	is_int(disk_kname_from_devnum(VM "/sys", 254, 0, name, sizeof(name), &part), 0, "254:0 resolves");
	ok(strcmp(name, "vda") == 0 && !part, "254:0 is vda, a whole disk");
	is_int(disk_kname_from_devnum(VM "/sys", 7, 11, name, sizeof(name), &part), 0, "7:11 resolves");
	ok(strcmp(name, "loop11") == 0 && !part, "7:11 is loop11");
	is_int(disk_whole_kname_from_devnum(VM "/sys", 253, 1, name, sizeof(name)), 0, "253:1 resolves to a whole disk");
	is_str(name, "zram1", "253:1 is zram1");
	is_int(disk_kname_from_devnum(VM "/sys", 8, 0, name, sizeof(name), &part), -ENOENT,
	       "8:0 was not captured: -ENOENT");

	struct disk_info d;
	is_int(disk_describe(VM "/sys", VM "/dev", "loop11", &d), 0, "loop11 described on its own");
	ok(d.logical_block_size == 4096 && strcmp(d.transport, "loop") == 0, "the same loop11 as in the list");
	is_int(disk_describe(VM "/sys", VM "/dev", "sda", &d), -ENOENT, "sda is not in the tree: -ENOENT");
	is_int(disk_describe(VM "/sys", VM "/dev", "../vda", &d), -EINVAL, "a name with a slash is refused");
}

static void test_qemu_scsi_debug(void)
{
	struct disk_list l;
	is_int(disk_enumerate(QS "/sys", QS "/dev", &l), 0, "qemu: enumeration succeeds");
	is_int(l.count, 2, "qemu: two disks, partitions not listed");
	ok(l.count == 2 && strcmp(l.disks[0].kname, "sda") == 0 && strcmp(l.disks[1].kname, "sdb") == 0,
	   "qemu: sda then sdb");
	static const char *const wwn[] = { "naa.33333330000007d0", "naa.3333333000000bb8" };
	for (size_t i = 0; i < l.count && i < 2; i++) {
		const struct disk_info *d = &l.disks[i];
		char name[96], key[160];
		snprintf(name, sizeof(name), "%s: transport scsi (host0 under a pseudo adapter, no sas)", d->kname);
		is_str(d->transport, "scsi", name);
		snprintf(name, sizeof(name), "%s: vendor and model with the SCSI space padding stripped", d->kname);
		ok(strcmp(d->vendor, "IOTRIAGE") == 0 && strcmp(d->model, "CAPTURE") == 0, name);
		snprintf(name, sizeof(name), "%s: wwn from device/wwid", d->kname);
		is_str(d->wwn, wwn[i], name);
		snprintf(name, sizeof(name), "%s: 16 MiB, 4096-byte logical and physical blocks, not rotational", d->kname);
		ok(d->size_bytes == 16 << 20 && d->logical_block_size == 4096 && d->physical_block_size == 4096 &&
		   !d->rotational && !d->removable, name);
		snprintf(name, sizeof(name), "%s: path group is its SCSI host", d->kname);
		is_str(d->path_group, "host0", name);
		snprintf(name, sizeof(name), "%s: can be read", d->kname);
		is_str(reason(d), "(none)", name);
		snprintf(name, sizeof(name), "%s: device 8:%u", d->kname, (unsigned)i * 16);
		ok(d->major == 8 && d->minor == i * 16, name);
		disk_identity_key(d, key, sizeof(key));
		snprintf(name, sizeof(name), "%s: identity from the wwn", d->kname);
		ok(strncmp(key, "wwn:", 4) == 0 && strcmp(key + 4, wwn[i]) == 0, name);
	}
	ok(l.count == 2 && strcmp(l.disks[0].path_group, l.disks[1].path_group) == 0,
	   "qemu: both disks share their controller path");
	disk_list_free(&l);

	char name[64];
	bool part = false;
	is_int(disk_kname_from_devnum(QS "/sys", 8, 1, name, sizeof(name), &part), 0, "8:1 resolves");
	ok(strcmp(name, "sda1") == 0 && part, "8:1 is sda1, a partition");
	is_int(disk_whole_kname_from_devnum(QS "/sys", 8, 18, name, sizeof(name)), 0, "8:18 resolves to a whole disk");
	is_str(name, "sdb", "8:18 (sdb2) belongs to sdb");
	is_int(disk_whole_kname_from_devnum(QS "/sys", 8, 16, name, sizeof(name)), 0, "8:16 resolves");
	is_str(name, "sdb", "8:16 is sdb itself");
}

int main(void)
{
	test_vm_list();
	test_vm_lookups();
	test_qemu_scsi_debug();
	{
		/* The one partition walk (inuse's write guard, ramdisk's usage). */
		dev_t devs[8];
		size_t n = disk_and_partitions(QS "/sys", makedev(8, 0), devs, 8);
		ok(n == 3 && devs[0] == makedev(8, 0), "sda and its two partitions, the whole disk first");
		ok(n == 3 && ((devs[1] == makedev(8, 1) && devs[2] == makedev(8, 2)) ||
			      (devs[1] == makedev(8, 2) && devs[2] == makedev(8, 1))), "the partitions are sda1 and sda2");
		is_int(disk_and_partitions(QS "/sys", makedev(8, 1), devs, 8), 1, "a partition has no partitions of its own");
		is_int(disk_and_partitions(QS "/sys", makedev(8, 0), devs, 2), 2, "no more than MAX are returned");
	}
	return tap_done();
}
