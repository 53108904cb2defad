/* test_enumerate_hwlab: disk/enumerate.c on the sysfs tree of the hardware
 * lab (tests/vm/hwlab.sh; captured with tests/data/capture_hwlab.sh, see
 * tests/data/hwlab/CAPTURED): real nvme, virtio_scsi and ahci drivers with
 * identities set on qemu's command line. Kernel names as in that boot:
 *   nvme0n1..nvme5n1   serial IOTNVME00..05, one PCI function each
 *   nvme6n1            the multipath namespace of subsystem 6, controllers
 *                      nvme6 (0000:00:0a.0) and nvme7 (0000:00:0b.0); its
 *                      hidden paths nvme6c6n1 and nvme6c7n1
 *   sda..sdf           IOTSCSI00..05 on virtio-scsi 0000:00:0c.0 (host0)
 *   sdg..sdi           IOTSCSIG0..2 on virtio-scsi 0000:00:0d.0 (host1)
 *   sdj sdl sdk sdm    IOTSATA0..3 on AHCI 0000:00:0e.0, sdm with sdm1 */
#include <errno.h>
#include <string.h>

#include "disk/enumerate.h"
#include "tap.h"

#define HL TEST_DATA_DIR "/hwlab"

static const struct disk_info *find(const struct disk_list *l, const char *kname)
{
	for (size_t i = 0; i < l->count; i++)
		if (strcmp(l->disks[i].kname, kname) == 0)
			return &l->disks[i];
	return NULL;
}

static const struct disk_info none = { .kname = "" };

static const struct disk_info *get(const struct disk_list *l, const char *kname)
{
	const struct disk_info *d = find(l, kname);
	return d ? d : &none;
}

static void test_nvme(const struct disk_list *l)
{
	const struct disk_info *d = get(l, "nvme4n1");
	is_str(d->serial, "IOTNVME04", "nvme4n1: serial from its controller");
	is_str(d->model, "QEMU NVMe Ctrl", "nvme4n1: model from its controller, padding stripped");
	is_str(d->wwn, "nvme.1b36-494f544e564d453034-51454d55204e564d65204374726c-00000001",
	       "nvme4n1: wwn from the namespace's wwid");
	is_str(d->transport, "nvme", "nvme4n1: transport nvme");
	is_str(d->path_group, "pci 0000:00:08.0", "nvme4n1: its controller's PCI function");
	ok(d->skip_reason == NULL && !d->rotational, "nvme4n1: readable, not rotational");

	d = get(l, "nvme6n1");
	is_str(d->serial, "IOTNVMEMP0", "multipath nvme6n1: serial from its subsystem");
	is_str(d->model, "QEMU NVMe Ctrl", "multipath nvme6n1: model from its subsystem");
	is_str(d->path_group, "nvme-subsys6 (pci 0000:00:0a.0, pci 0000:00:0b.0)",
	       "multipath nvme6n1: path group names the subsystem and both controllers");
	ok(d->skip_reason == NULL && d->major == 259, "multipath nvme6n1: readable, a real device number");
	char key[256];
	disk_identity_key(d, key, sizeof(key));
	is_str(key, "wwn:nvme.1b36-494f544e564d454d5030-51454d55204e564d65204374726c-00000001",
	       "multipath nvme6n1: identity from the namespace wwid");

	size_t paths = 0;
	for (size_t i = 0; i < l->count; i++)
		if (l->disks[i].skip_reason && strstr(l->disks[i].skip_reason, "nvme multipath path"))
			paths++;
	is_int(paths, 2, "the two hidden paths nvme6c6n1 and nvme6c7n1 are skipped as multipath paths");
	is_str(get(l, "nvme6c7n1")->skip_reason ? get(l, "nvme6c7n1")->skip_reason : "",
	       "nvme multipath path (the namespace is read once, through its nvmeXnY device)",
	       "nvme6c7n1: the reason names where the namespace is read");
}

static void test_scsi(const struct disk_list *l)
{
	const struct disk_info *d = get(l, "sdf");
	is_str(d->serial, "IOTSCSI05", "sdf: serial from the unit serial number VPD page");
	is_str(d->vendor, "IOTRIAGE", "sdf: vendor");
	is_str(d->model, "LAB-SAS-HDD", "sdf: model (product), padding stripped");
	is_str(d->wwn, "naa.5000c5000000a005", "sdf: wwn");
	is_str(d->transport, "scsi", "sdf: virtio-scsi is transport scsi, not virtio");
	ok(d->rotational, "sdf: rotation_rate 7200 makes it rotational");
	is_str(d->path_group, "pci 0000:00:0c.0 host0", "sdf: first virtio-scsi controller");
	is_str(get(l, "sdg")->path_group, "pci 0000:00:0d.0 host1", "sdg: second virtio-scsi controller");
	is_str(get(l, "sdg")->serial, "IOTSCSIG0", "sdg: the first throttle-group disk");
}

static void test_sata(const struct disk_list *l)
{
	const struct disk_info *d = get(l, "sdk");
	is_str(d->serial, "IOTSATA2", "sdk: serial from the unit serial number VPD page");
	is_str(d->vendor, "ATA", "sdk: vendor ATA (libata)");
	is_str(d->model, "IOTRIAGE LAB SATA SSD", "sdk: the full ATA model from the ATA information VPD page");
	is_str(d->wwn, "naa.5001b4400000b002", "sdk: wwn");
	is_str(d->transport, "sata", "sdk: transport sata");
	ok(!d->rotational, "sdk: rotation_rate 1 is a solid-state disk");
	bool one_controller = true;
	static const char *const sata[] = { "sdj", "sdk", "sdl", "sdm" };
	for (size_t i = 0; i < 4; i++)
		one_controller &= strcmp(get(l, sata[i])->path_group, "pci 0000:00:0e.0") == 0;
	ok(one_controller, "the four SATA disks share their AHCI controller (libata's per-port hosts left out)");

	char name[64];
	bool part = false;
	is_int(disk_kname_from_devnum(HL "/sys", 8, 193, name, sizeof(name), &part), 0, "8:193 resolves");
	ok(strcmp(name, "sdm1") == 0 && part, "8:193 is sdm1, a partition");
	is_int(disk_whole_kname_from_devnum(HL "/sys", 8, 193, name, sizeof(name)), 0, "sdm1's whole disk resolves");
	is_str(name, "sdm", "sdm1 belongs to sdm");
	is_str(get(l, "sdm")->serial, "IOTSATA3", "and sdm is IOTSATA3, the disk with the partition table");
}

/* A partition described by its device number carries its disk's identity. */
static void test_partition(void)
{
	struct disk_info d;
	char key[256];

	is_int(disk_describe_devnum(HL "/sys", HL "/dev", 8, 193, &d), 0, "sdm1 described by its device number");
	ok(strcmp(d.kname, "sdm1") == 0 && strcmp(d.parent, "sdm") == 0 && d.partition == 1,
	   "sdm1: partition 1 of sdm");
	ok(d.major == 8 && d.minor == 193 && strcmp(d.dev_path, HL "/dev/sdm1") == 0, "sdm1: its own device number and path");
	ok(strcmp(d.serial, "IOTSATA3") == 0 && strcmp(d.wwn, "naa.5001b4400000b003") == 0 &&
		   strcmp(d.model, "IOTRIAGE LAB SATA SSD") == 0 && strcmp(d.transport, "sata") == 0,
	   "sdm1: serial, wwn, model and transport of its disk");
	is_str(d.path_group, "pci 0000:00:0e.0", "sdm1: its disk's controller");
	ok(d.skip_reason == NULL, "sdm1: can be read");
	disk_identity_key(&d, key, sizeof(key));
	is_str(key, "wwn:naa.5001b4400000b003/part1", "sdm1: identity key is its disk's, with /part1");

	is_int(disk_describe_devnum(HL "/sys", HL "/dev", 8, 192, &d), 0, "sdm described by its device number");
	ok(strcmp(d.kname, "sdm") == 0 && d.parent[0] == '\0' && d.partition == 0, "sdm: a whole disk");
	disk_identity_key(&d, key, sizeof(key));
	is_str(key, "wwn:naa.5001b4400000b003", "sdm: its own wwn key");
	is_int(disk_describe_devnum(HL "/sys", HL "/dev", 8, 250, &d), -ENOENT, "an unknown device number: -ENOENT");
}

int main(void)
{
	struct disk_list l;
	is_int(disk_enumerate(HL "/sys", HL "/dev", &l), 0, "hwlab: enumeration succeeds");
	is_int(l.count, 22, "hwlab: 7 NVMe namespaces, 2 hidden paths, 9 SCSI and 4 SATA disks");
	size_t readable = 0;
	for (size_t i = 0; i < l.count; i++)
		readable += l.disks[i].skip_reason == NULL;
	is_int(readable, 20, "hwlab: 20 readable disks; the partition is not listed");
	test_nvme(&l);
	test_scsi(&l);
	test_sata(&l);
	test_partition();
	disk_list_free(&l);
	return tap_done();
}
