/* disk/enumerate.h: find the whole disks in sysfs and describe each one.
 *
 * disk_enumerate() walks SYSFS_ROOT/block (normally "/sys/block"; tests pass
 * a captured tree under tests/data) and returns one entry per top-level block
 * device, in kernel-name order. Entries that cannot be read raw as a disk are
 * kept in the list with `skip_reason` set, so the caller can say why each was
 * left out:
 *   - "partition"                      (should not occur under /sys/block, kept for safety)
 *   - "loop device not attached"       (loopN with no backing_file / size 0)
 *   - "zram device not initialised"    (zramN with disksize 0)
 *   - "no medium"                      (removable, size 0)
 *   - "size 0"                         (any other empty device)
 *   - "nvme multipath path ..."        (nvmeXcYnZ: a hidden path of a multipath
 *                                       namespace, which is read once as nvmeXnY)
 *
 * Identity comes from sysfs attributes (device/vendor, device/model (for
 * a SATA disk the full ATA model from device/vpd_pg89), device/serial or
 * serial or the unit serial number VPD page device/vpd_pg80 (SCSI, SATA),
 * device/wwid or wwid, queue/rotational,
 * queue/logical_block_size, queue/physical_block_size, removable, size,
 * dev) and from /dev/disk/by-id symlinks that resolve to the kernel name
 * (looked up under DEV_ROOT/disk/by-id, normally "/dev"). Missing attributes
 * leave the field empty (""), never NULL. The transport is derived from the
 * resolved sysfs device path: "nvme", "usb", "sata"/"sas"/"scsi" (ata*, or
 * host* then target* under a SCSI host), "virtio", "loop", "zram", "nbd", "md",
 * "dm", or "" when unknown (virtio-scsi disks are "scsi": a SCSI host on
 * the path wins over virtio).
 *
 * Library code: returns 0 or -errno, never prints.
 */
#ifndef IOTRIAGE_DISK_ENUMERATE_H
#define IOTRIAGE_DISK_ENUMERATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct disk_info {
	char kname[64];       /* "sda", "loop3", "nvme0n1" */
	char dev_path[96];    /* "/dev/sda" (DEV_ROOT + "/" + kname) */
	char by_id[256];      /* preferred /dev/disk/by-id path or "" (wwn-* first, then others) */
	char vendor[64];
	char model[128];
	char serial[128];
	char wwn[128];        /* from wwid, e.g. "naa.5000c500a1b2c3d4"; "" when none */
	char transport[16];
	char backing_file[512]; /* loop devices: loop/backing_file, else "" */
	char path_group[160];   /* what the disk shares a data path with: its controller
				 * ("pci 0000:00:1f.2 host0"), a multipath NVMe namespace's
				 * subsystem and controllers ("nvme-subsys6 (pci
				 * 0000:00:0a.0, pci 0000:00:0b.0)"), a loop device's backing
				 * file system ("backing device 254:0"), or "memory" (zram) */
	char enclosure[64];     /* the SES enclosure holding it ("2:0:20:0"), "" when sysfs has none */
	char enclosure_slot[64];/* its slot in that enclosure ("Slot 07") */
	uint64_t size_bytes;  /* size (in 512-byte sectors) * 512 */
	unsigned major, minor;
	unsigned logical_block_size;
	unsigned physical_block_size;
	bool rotational;
	bool removable;
	const char *skip_reason; /* NULL when the disk can be read; else a static string */
	char parent[64];        /* a partition (disk_describe_devnum): its whole disk's
				 * kernel name, whose identity it carries; else "" */
	unsigned partition;     /* a partition's number (sdm1: 1); 0 for a whole disk */
};

struct disk_list {
	struct disk_info *disks;
	size_t count;
};

/* Fill *ret with every top-level block device under SYSFS_ROOT/block.
 * DEV_ROOT is where device nodes live ("/dev"). Returns 0 or -errno. */
int disk_enumerate(const char *sysfs_root, const char *dev_root, struct disk_list *ret);

/* Describe one device given its kernel name (e.g. "loop3"). Returns 0,
 * -ENOENT when SYSFS_ROOT/block/KNAME does not exist, or another -errno. */
int disk_describe(const char *sysfs_root, const char *dev_root, const char *kname,
		  struct disk_info *ret);

/* Kernel name of the whole disk for a device number, e.g. 7:3 -> "loop3",
 * found through SYSFS_ROOT/dev/block/MAJ:MIN. For a partition, returns the
 * partition's own name and sets *ret_is_partition. Returns 0 or -errno. */
int disk_kname_from_devnum(const char *sysfs_root, unsigned major, unsigned minor,
			   char *ret_kname, size_t len, bool *ret_is_partition);

/* Kernel name of the whole disk for a device number: the disk itself, or
 * a partition's parent ("sda" for 8:1). Returns 0 or -errno. */
int disk_whole_kname_from_devnum(const char *sysfs_root, unsigned major, unsigned minor, char *ret_kname,
				 size_t len);

/* Describe the device MAJOR:MINOR: a whole disk as disk_describe() does;
 * a partition with its whole disk's identity (vendor, model, serial, WWN,
 * transport, path group, enclosure; by-id as udev names it, "<disk's
 * link>-partN") and its own kernel name, device path, device number and
 * size, PARENT and PARTITION set. Returns 0 or -errno (-ENOENT: no such
 * device number). */
int disk_describe_devnum(const char *sysfs_root, const char *dev_root, unsigned major, unsigned minor,
			 struct disk_info *ret);

/* A stable key for the devices table: "wwn:<wwn>", else "serial:<model>:<serial>",
 * else "by-id:<path>", else for a loop device "loop:<backing_file>", else
 * "name:<kname>" (which moves between boots: not stable enough for a baseline).
 * A partition's key is its whole disk's with "/partN" appended (never the
 * disk's own key: the two read different sectors). */
void disk_identity_key(const struct disk_info *d, char *buf, size_t len);

void disk_list_free(struct disk_list *list);

/* The one partition walk: WHOLE's device number, then each of its
 * partitions' (SYSFS_ROOT/dev/block/MAJ:MIN/<part>/partition), into DEVS
 * (at most MAX). Returns how many; at least 1. */
size_t disk_and_partitions(const char *sysfs_root, dev_t whole, dev_t *devs, size_t max);

#endif
