/* test_enumerate.c: disk/enumerate.c against fake sysfs and /dev trees.
 *
 * The trees are built at run time in a mkdtemp() directory (sysfs is just
 * directories, files and symlinks) and removed at the end. Nothing here looks
 * at the real /sys or /dev.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* nftw() flags */
#endif
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "disk/enumerate.h"
#include "tap.h"

static char root[PATH_MAX];

/* Abort the whole test on setup errors: a half-built tree proves nothing. */
static void die(const char *what, const char *path)
{
	fprintf(stderr, "setup failed: %s %s: %s\n", what, path, strerror(errno));
	exit(2);
}

static void mkdir_p(const char *path)
{
	char buf[PATH_MAX];

	if ((size_t)snprintf(buf, sizeof(buf), "%s", path) >= sizeof(buf))
		die("path too long", path);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) < 0 && errno != EEXIST)
			die("mkdir", buf);
		*p = '/';
	}
	if (mkdir(buf, 0755) < 0 && errno != EEXIST)
		die("mkdir", buf);
}

/* ROOT/REL as an absolute path, in a rotating set of buffers so a few can
 * be used in one call. */
static const char *at(const char *rel)
{
	static char bufs[4][PATH_MAX];
	static unsigned next;
	char *b = bufs[next++ % 4];

	if ((size_t)snprintf(b, PATH_MAX, "%s/%s", root, rel) >= PATH_MAX)
		die("path too long", rel);
	return b;
}

/* Write LEN bytes to ROOT/DIR/NAME, creating DIR/NAME's parents. */
static void write_bytes(const char *dir, const char *name, const void *data, size_t len)
{
	char path[PATH_MAX], parent[PATH_MAX];
	FILE *f;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s/%s", root, dir, name) >= sizeof(path))
		die("path too long", name);
	snprintf(parent, sizeof(parent), "%s", path);
	*strrchr(parent, '/') = '\0';
	mkdir_p(parent);

	f = fopen(path, "we");
	if (!f)
		die("fopen", path);
	if (len > 0 && fwrite(data, 1, len, f) != len)
		die("fwrite", path);
	if (fclose(f) != 0)
		die("fclose", path);
}

/* A sysfs-style attribute: the value plus the newline the kernel adds. */
static void attr(const char *dir, const char *name, const char *value)
{
	char buf[512];

	snprintf(buf, sizeof(buf), "%s\n", value);
	write_bytes(dir, name, buf, strlen(buf));
}

/* ROOT/LINK -> TARGET (TARGET kept verbatim, usually relative). */
static void link_to(const char *target, const char *link)
{
	char parent[PATH_MAX];
	const char *path = at(link);

	snprintf(parent, sizeof(parent), "%s", path);
	*strrchr(parent, '/') = '\0';
	mkdir_p(parent);
	if (symlink(target, path) < 0)
		die("symlink", path);
}

/* A block device directory under sys/devices/DEVPATH with the usual
 * attributes, linked from sys/block/KNAME and sys/dev/block/DEV. */
static void block_dev(const char *devpath, const char *kname, const char *dev, const char *size,
		      const char *removable)
{
	char dir[PATH_MAX], target[PATH_MAX], link[PATH_MAX];

	snprintf(dir, sizeof(dir), "sys/devices/%s", devpath);
	mkdir_p(at(dir));
	attr(dir, "dev", dev);
	attr(dir, "size", size);
	attr(dir, "removable", removable);
	attr(dir, "queue/rotational", "0");
	attr(dir, "queue/logical_block_size", "512");
	attr(dir, "queue/physical_block_size", "512");

	snprintf(target, sizeof(target), "../devices/%s", devpath);
	snprintf(link, sizeof(link), "sys/block/%s", kname);
	link_to(target, link);
	snprintf(target, sizeof(target), "../../devices/%s", devpath);
	snprintf(link, sizeof(link), "sys/dev/block/%s", dev);
	link_to(target, link);
}

#define SDA "pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/0:0:0:0"
#define SR0 "pci0000:00/0000:00:1f.2/ata2/host1/target1:0:0/1:0:0:0"
#define SDB "pci0000:00/0000:00:14.0/usb2/2-1/2-1:1.0/host6/target6:0:0/6:0:0:0"
#define SDC "pci0000:00/0000:00:10.0/host3/target3:0:0/3:0:0:0"
#define SDAA "pci0000:00/0000:00:01.0/0000:01:00.0/host2/port-2:0/end_device-2:0/target2:0:0/2:0:0:0"
#define NVME "pci0000:00/0000:00:1d.0/0000:3d:00.0/nvme/nvme0"
#define VDA "pci0000:00/0000:00:02.0/virtio1"

static void build_main_tree(void)
{
	/* VPD page 0x80 is binary (a 4-byte header with NULs, then the serial):
	 * the serial is read past the header (SCSI and SATA disks have no
	 * serial attribute; tests/data/hwlab has real pages). */
	static const char vpd80[] = { 0x00, (char)0x80, 0x00, 0x04, 'S', '3', 'Z', '9' };

	/* sda: SATA SSD, plus its partition sda1. */
	block_dev(SDA "/block/sda", "sda", "8:0", "1953525168", "0");
	attr("sys/devices/" SDA, "vendor", "ATA     ");
	attr("sys/devices/" SDA, "model", "Samsung SSD 860 ");
	attr("sys/devices/" SDA, "wwid", "naa.5002538e40a1b2c3");
	write_bytes("sys/devices/" SDA, "vpd_pg80", vpd80, sizeof(vpd80));
	link_to("../../../0:0:0:0", "sys/devices/" SDA "/block/sda/device");
	attr("sys/devices/" SDA "/block/sda", "queue/physical_block_size", "4096");
	attr("sys/devices/" SDA "/block/sda/sda1", "partition", "1");
	attr("sys/devices/" SDA "/block/sda/sda1", "dev", "8:1");
	attr("sys/devices/" SDA "/block/sda/sda1", "size", "2048");
	link_to("../../devices/" SDA "/block/sda/sda1", "sys/dev/block/8:1");

	/* Loop devices: 0, 2 and 10 detached, 1 attached. */
	block_dev("virtual/block/loop0", "loop0", "7:0", "0", "0");
	block_dev("virtual/block/loop2", "loop2", "7:2", "0", "0");
	block_dev("virtual/block/loop10", "loop10", "7:10", "0", "0");
	block_dev("virtual/block/loop1", "loop1", "7:1", "2097152", "0");
	attr("sys/devices/virtual/block/loop1", "loop/backing_file", "/var/tmp/x.img");
	attr("sys/devices/virtual/block/loop1", "queue/logical_block_size", "4096");
	attr("sys/devices/virtual/block/loop1", "queue/physical_block_size", "4096");

	/* zram1 exists but was never given a size. */
	block_dev("virtual/block/zram1", "zram1", "252:1", "0", "0");
	attr("sys/devices/virtual/block/zram1", "disksize", "0");

	/* sr0: optical drive, no disc. */
	block_dev(SR0 "/block/sr0", "sr0", "11:0", "0", "1");
	attr("sys/devices/" SR0, "vendor", "HL-DT-ST");
	attr("sys/devices/" SR0, "model", "DVDRAM GH24NSD1 ");
	link_to("../../../1:0:0:0", "sys/devices/" SR0 "/block/sr0/device");

	/* nvme0n1: serial on the namespace (no device/serial), model on the
	 * controller, space-padded like the real thing. */
	block_dev(NVME "/nvme0n1", "nvme0n1", "259:0", "1953525168", "0");
	attr("sys/devices/" NVME "/nvme0n1", "serial", "S4EWNX0N123456      ");
	attr("sys/devices/" NVME, "model", "Samsung SSD 970 EVO 1TB                 ");
	link_to("../../nvme0", "sys/devices/" NVME "/nvme0n1/device");

	/* sdb: USB stick; sdc: plain SCSI HBA; sdaa: SATA disk behind a SAS HBA. */
	block_dev(SDB "/block/sdb", "sdb", "8:16", "30031872", "1");
	attr("sys/devices/" SDB, "vendor", "Generic ");
	attr("sys/devices/" SDB, "model", "Flash Disk      ");
	link_to("../../../6:0:0:0", "sys/devices/" SDB "/block/sdb/device");
	block_dev(SDC "/block/sdc", "sdc", "8:32", "41943040", "0");
	attr("sys/devices/" SDC, "vendor", "VMware  ");
	attr("sys/devices/" SDC, "model", "Virtual disk    ");
	link_to("../../../3:0:0:0", "sys/devices/" SDC "/block/sdc/device");
	block_dev(SDAA "/block/sdaa", "sdaa", "65:160", "7814037168", "0");
	attr("sys/devices/" SDAA "/block/sdaa", "queue/rotational", "1");
	attr("sys/devices/" SDAA "/block/sdaa", "queue/physical_block_size", "4096");
	/* sdaa sits in slot 7 of an SES enclosure (the link's text is what counts). */
	link_to("../../../2:0:0:0", "sys/devices/" SDAA "/block/sdaa/device");
	link_to("../../../../expander-2:0/port-2:0:20/end_device-2:0:20/target2:0:20/2:0:20:0/enclosure/2:0:20:0/Slot 07",
		"sys/devices/" SDAA "/enclosure_device:Slot 07");

	/* vda: virtio-blk, serial directly on the disk. */
	block_dev(VDA "/block/vda", "vda", "254:0", "536870912", "0");
	attr("sys/devices/" VDA "/block/vda", "serial", "18366337127599433");

	/* /dev/disk/by-id */
	mkdir_p(at("dev/disk/by-id"));
	link_to("../../sda", "dev/disk/by-id/wwn-0x5002538e40a1b2c3");
	link_to("../../sda", "dev/disk/by-id/ata-Samsung_SSD_860_S3Z");
	link_to("../../sda1", "dev/disk/by-id/wwn-0x5002538e40a1b2c3-part1");
	/* Crafted: a "-part" name resolving to the disk itself still loses,
	 * and it sorts before the real wwn- name. */
	link_to("../../sda", "dev/disk/by-id/wwn-0x0-part1");
	link_to("../../nvme0n1", "dev/disk/by-id/nvme-Samsung_SSD_970_EVO_1TB_S4EWNX0N123456");
	link_to("../../nvme0n1", "dev/disk/by-id/nvme-eui.0025388b71b0c1d2");
	/* udev 252 adds MODEL_SERIAL_NSID; qemu's namespaces have a hex wwid. */
	link_to("../../nvme0n1", "dev/disk/by-id/nvme-Samsung_SSD_970_EVO_1TB_S4EWNX0N123456_1");
	link_to("../../nvme0n1", "dev/disk/by-id/nvme-nvme.144d-5334455-53616d-00000001");
	link_to("../../nvme0n1", "dev/disk/by-id/nvme-Samsung_SSD_970_EVO_1TB_S4EWNX0N123456_2");
	link_to("../../sdaa", "dev/disk/by-id/ata-ST4000NM0035-1V4_ZC1ABCDE");
	link_to("../../sdaa", "dev/disk/by-id/scsi-SATA_ST4000NM0035-1V4_ZC1ABCDE");
	link_to("../../sdb", "dev/disk/by-id/usb-Generic_Flash_Disk_12345678-0:0");
	attr("dev/disk/by-id", "not-a-link", "../../sdc");
}

/* A second tree whose block/ entries are plain directories (as in a copied
 * capture), under a directory whose name contains "/usb" so that using the
 * whole path for the transport would be caught. Its /dev has no by-id. */
static void build_edge_tree(void)
{
	mkdir_p(at("usb-edge/dev"));
	attr("usb-edge/sys/block/sdx1", "partition", "1");
	attr("usb-edge/sys/block/sdx1", "size", "100");
	attr("usb-edge/sys/block/vdz", "size", "100");
	attr("usb-edge/sys/block/vdz", "dev", "252:7");
	attr("usb-edge/sys/block/loop5", "size", "0");
	attr("usb-edge/sys/block/loop5", "loop/backing_file", "/srv/empty file ");
	attr("usb-edge/sys/block/zram2", "disksize", "1073741824");
	attr("usb-edge/sys/block/zram2", "size", "2097152");
	attr("usb-edge/sys/block/md0", "size", "0");
	attr("usb-edge/sys/block/md0", "dev", "not-a-devnum");
}

static const struct disk_info *find(const struct disk_list *l, const char *kname)
{
	for (size_t i = 0; i < l->count; i++)
		if (strcmp(l->disks[i].kname, kname) == 0)
			return &l->disks[i];
	return NULL;
}

static const char *skip_of(const struct disk_info *d)
{
	return d && d->skip_reason ? d->skip_reason : "(none)";
}

static const char *key_of(const struct disk_info *d)
{
	static char buf[512];

	if (!d)
		return "(missing)";
	disk_identity_key(d, buf, sizeof(buf));
	return buf;
}

static void test_main_tree(void)
{
	struct disk_list l;
	const struct disk_info *d;
	char order[512] = "", path[PATH_MAX];
	int r;

	r = disk_enumerate(at("sys"), at("dev"), &l);
	is_int(r, 0, "enumerate main tree");
	is_int(l.count, 12, "12 top-level devices");

	/* Natural order: loop2 < loop10, sdb < sdc < sdaa, sda < sr0. */
	for (size_t i = 0; i < l.count; i++) {
		strncat(order, l.disks[i].kname, sizeof(order) - strlen(order) - 2);
		strcat(order, " ");
	}
	is_str(order, "loop0 loop1 loop2 loop10 nvme0n1 sda sdb sdc sdaa sr0 vda zram1 ",
	       "sorted in natural kernel-name order");

	d = find(&l, "sda");
	ok(d != NULL, "sda found");
	if (d) {
		is_str(d->kname, "sda", "sda kname");
		snprintf(path, sizeof(path), "%s/sda", at("dev"));
		is_str(d->dev_path, path, "sda dev_path is DEV_ROOT/sda");
		snprintf(path, sizeof(path), "%s/disk/by-id/wwn-0x5002538e40a1b2c3", at("dev"));
		is_str(d->by_id, path, "sda by_id prefers wwn- over ata- and skips -part");
		is_str(d->vendor, "ATA", "sda vendor trimmed");
		is_str(d->model, "Samsung SSD 860", "sda model trimmed");
		is_str(d->serial, "S3Z9", "sda serial from the unit serial number VPD page, past its header");
		is_str(d->wwn, "naa.5002538e40a1b2c3", "sda wwn from device/wwid");
		is_str(d->transport, "sata", "sda transport sata");
		is_str(d->backing_file, "", "sda no backing file");
		ok(d->size_bytes == 1953525168ULL * 512, "sda size_bytes = sectors * 512");
		is_int(d->major, 8, "sda major");
		is_int(d->minor, 0, "sda minor");
		is_int(d->logical_block_size, 512, "sda logical block size");
		is_int(d->physical_block_size, 4096, "sda physical block size");
		ok(!d->rotational, "sda not rotational");
		ok(!d->removable, "sda not removable");
		ok(d->skip_reason == NULL, "sda readable");
		is_str(key_of(d), "wwn:naa.5002538e40a1b2c3", "sda identity key uses wwn");
	}

	d = find(&l, "loop0");
	is_str(skip_of(d), "loop device not attached", "loop0 skip reason");
	is_str(d ? d->transport : "", "loop", "loop0 transport");
	is_str(key_of(d), "name:loop0", "detached loop identity key falls back to name");

	d = find(&l, "loop10");
	is_str(skip_of(d), "loop device not attached", "loop10 skip reason");

	d = find(&l, "loop1");
	ok(d != NULL, "loop1 found");
	if (d) {
		ok(d->skip_reason == NULL, "attached loop1 readable");
		is_str(d->backing_file, "/var/tmp/x.img", "loop1 backing file");
		ok(d->size_bytes == 2097152ULL * 512, "loop1 size_bytes");
		is_int(d->major, 7, "loop1 major");
		is_int(d->minor, 1, "loop1 minor");
		is_int(d->logical_block_size, 4096, "loop1 logical block size");
		is_str(d->transport, "loop", "loop1 transport");
		is_str(d->by_id, "", "loop1 has no by-id link");
		is_str(key_of(d), "loop:/var/tmp/x.img", "loop1 identity key uses backing file");
	}

	d = find(&l, "zram1");
	is_str(skip_of(d), "zram device not initialised", "zram1 skip reason");
	is_str(d ? d->transport : "", "zram", "zram1 transport");

	d = find(&l, "sr0");
	is_str(skip_of(d), "no medium", "sr0 skip reason");
	ok(d && d->removable, "sr0 removable");
	is_str(d ? d->transport : "", "sata", "sr0 transport");
	is_str(d ? d->vendor : "", "HL-DT-ST", "sr0 vendor");

	d = find(&l, "nvme0n1");
	ok(d != NULL, "nvme0n1 found");
	if (d) {
		is_str(d->serial, "S4EWNX0N123456", "nvme serial from `serial`, trimmed");
		is_str(d->model, "Samsung SSD 970 EVO 1TB", "nvme model through device link");
		is_str(d->wwn, "", "nvme wwn empty when no wwid");
		is_str(d->transport, "nvme", "nvme transport");
		is_int(d->major, 259, "nvme major");
		snprintf(path, sizeof(path), "%s/disk/by-id/nvme-Samsung_SSD_970_EVO_1TB_S4EWNX0N123456_1", at("dev"));
		is_str(d->by_id, path,
		       "nvme by_id prefers nvme-MODEL_SERIAL_NSID (NSID 1 from the name nvme0n1: no nsid attribute) "
		       "over MODEL_SERIAL, another namespace's _2, nvme-eui. and nvme-nvme.");
		is_str(key_of(d), "serial:Samsung SSD 970 EVO 1TB:S4EWNX0N123456",
		       "nvme identity key uses model and serial");
		ok(d->skip_reason == NULL, "nvme readable");
	}

	d = find(&l, "sdb");
	ok(d != NULL, "sdb found");
	if (d) {
		is_str(d->transport, "usb", "sdb transport usb");
		ok(d->removable && d->skip_reason == NULL, "removable sdb with medium readable");
		snprintf(path, sizeof(path), "%s/disk/by-id/usb-Generic_Flash_Disk_12345678-0:0",
			 at("dev"));
		is_str(d->by_id, path, "sdb by_id falls back to another name");
		is_str(d->model, "Flash Disk", "sdb model trimmed");
		is_int(d->minor, 16, "sdb minor");
		char want_key[600];
		snprintf(want_key, sizeof(want_key), "by-id:%s", path);
		is_str(key_of(d), want_key, "sdb, with no WWN or serial, is keyed by its by-id path");
	}

	d = find(&l, "sdc");
	is_str(d ? d->transport : "", "scsi", "sdc transport scsi");
	is_str(d ? d->by_id : "x", "", "sdc by_id empty (a regular file is not a link)");

	d = find(&l, "sdaa");
	ok(d != NULL, "sdaa found");
	if (d) {
		is_str(d->transport, "sas", "sdaa transport sas (end_device)");
		snprintf(path, sizeof(path), "%s/disk/by-id/scsi-SATA_ST4000NM0035-1V4_ZC1ABCDE",
			 at("dev"));
		is_str(d->by_id, path, "sdaa by_id prefers scsi- over ata-");
		ok(d->rotational, "sdaa rotational");
		is_int(d->physical_block_size, 4096, "sdaa physical block size");
		is_str(d->vendor, "", "sdaa vendor empty when attribute missing");
		is_str(d->enclosure, "2:0:20:0", "sdaa enclosure from enclosure_device link");
		is_str(d->enclosure_slot, "Slot 07", "sdaa enclosure slot");
		is_str(d->path_group, "pci 0000:01:00.0 host2", "sdaa controller");
	}
	d = find(&l, "sda");
	is_str(d ? d->enclosure : "x", "", "sda: no enclosure in sysfs, none invented");

	d = find(&l, "vda");
	is_str(d ? d->transport : "", "virtio", "vda transport virtio");
	is_str(key_of(d), "serial::18366337127599433", "vda identity key with empty model");

	disk_list_free(&l);
	ok(l.disks == NULL && l.count == 0, "disk_list_free empties the list");
}

static void test_edge_tree(void)
{
	struct disk_list l;
	const struct disk_info *d;
	int r;

	r = disk_enumerate(at("usb-edge/sys"), at("usb-edge/dev"), &l);
	is_int(r, 0, "enumerate edge tree");
	is_int(l.count, 5, "5 edge devices");

	d = find(&l, "sdx1");
	is_str(skip_of(d), "partition", "partition under block/ is skipped");
	d = find(&l, "vdz");
	ok(d && d->skip_reason == NULL, "vdz readable");
	is_str(d ? d->transport : "x", "", "non-symlink entry: root path not used for transport");
	is_str(d ? d->by_id : "x", "", "no disk/by-id directory gives empty by_id");
	is_int(d ? d->minor : 0, 7, "vdz minor");
	is_int(d ? d->logical_block_size : 1, 0, "missing queue attribute gives 0");
	d = find(&l, "loop5");
	is_str(skip_of(d), "size 0", "attached but empty loop: size 0");
	is_str(d ? d->backing_file : "", "/srv/empty file ", "backing file keeps its trailing space");
	d = find(&l, "zram2");
	ok(d && d->skip_reason == NULL, "initialised zram readable");
	d = find(&l, "md0");
	is_str(skip_of(d), "size 0", "md0 skip reason size 0");
	is_str(d ? d->transport : "", "md", "md0 transport");
	ok(d && d->major == 0 && d->minor == 0, "malformed dev gives 0:0");
	disk_list_free(&l);
}

static void test_describe_and_devnum(void)
{
	struct disk_info d;
	struct disk_list l = { (struct disk_info *)&l, 99 };
	char name[64];
	bool part = true;
	int r;

	is_int(disk_describe(at("sys"), at("dev"), "nosuch", &d), -ENOENT, "describe missing -> -ENOENT");
	is_int(disk_describe(at("sys"), at("dev"), "../sys", &d), -EINVAL, "describe rejects '/' in name");
	r = disk_describe(at("sys"), at("dev"), "loop1", &d);
	is_int(r, 0, "describe loop1");
	is_str(d.kname, "loop1", "describe fills kname");

	r = disk_enumerate(at("nosuch"), at("dev"), &l);
	is_int(r, -ENOENT, "enumerate missing sysfs -> -ENOENT");
	ok(l.disks == NULL && l.count == 0, "failed enumerate leaves an empty list");

	r = disk_kname_from_devnum(at("sys"), 8, 0, name, sizeof(name), &part);
	is_int(r, 0, "devnum 8:0");
	is_str(name, "sda", "8:0 is sda");
	ok(!part, "sda is not a partition");

	part = false;
	r = disk_kname_from_devnum(at("sys"), 8, 1, name, sizeof(name), &part);
	is_int(r, 0, "devnum 8:1");
	is_str(name, "sda1", "8:1 is sda1");
	ok(part, "sda1 is a partition");

	r = disk_kname_from_devnum(at("sys"), 7, 10, name, sizeof(name), NULL);
	is_int(r, 0, "devnum 7:10 with NULL is_partition");
	is_str(name, "loop10", "7:10 is loop10");

	is_int(disk_whole_kname_from_devnum(at("sys"), 8, 1, name, sizeof(name)), 0, "whole disk of 8:1");
	is_str(name, "sda", "8:1's whole disk is sda");
	is_int(disk_whole_kname_from_devnum(at("sys"), 8, 0, name, sizeof(name)), 0, "whole disk of 8:0");
	is_str(name, "sda", "8:0's whole disk is itself");

	is_int(disk_kname_from_devnum(at("sys"), 1, 99, name, sizeof(name), &part), -ENOENT,
	       "unknown devnum -> -ENOENT");
	is_int(disk_kname_from_devnum(at("sys"), 8, 1, name, 4, &part), -ENAMETOOLONG,
	       "short buffer -> -ENAMETOOLONG");
}

static void test_identity_key(void)
{
	struct disk_info d = { 0 };
	char buf[64];

	snprintf(d.kname, sizeof(d.kname), "loop3");
	snprintf(d.backing_file, sizeof(d.backing_file), "/img");
	snprintf(d.serial, sizeof(d.serial), "SER");
	snprintf(d.model, sizeof(d.model), "M");
	disk_identity_key(&d, buf, sizeof(buf));
	is_str(buf, "serial:M:SER", "serial beats loop backing file");

	snprintf(d.wwn, sizeof(d.wwn), "eui.0011");
	disk_identity_key(&d, buf, sizeof(buf));
	is_str(buf, "wwn:eui.0011", "wwn beats serial");

	disk_identity_key(&d, buf, 8);
	is_str(buf, "wwn:eui", "key truncated to the buffer");

	d = (struct disk_info){ 0 };
	snprintf(d.kname, sizeof(d.kname), "sdq");
	snprintf(d.backing_file, sizeof(d.backing_file), "/img");
	disk_identity_key(&d, buf, sizeof(buf));
	is_str(buf, "name:sdq", "backing file only counts for loop devices");
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)type;
	(void)ftw;
	return remove(path);
}

int main(void)
{
	snprintf(root, sizeof(root), "/tmp/test-enumerate-XXXXXX");
	if (!mkdtemp(root))
		die("mkdtemp", root);

	build_main_tree();
	build_edge_tree();

	test_main_tree();
	test_edge_tree();
	test_describe_and_devnum();
	test_identity_key();

	ok(nftw(root, remove_entry, 16, FTW_DEPTH | FTW_PHYS) == 0, "temp tree removed");
	ok(access(root, F_OK) < 0 && errno == ENOENT, "temp tree gone");
	return tap_done();
}
