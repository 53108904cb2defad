/* test_disk_link: disk/link.c on the captured link lab (tests/data/linklab,
 * see its CAPTURED) and on the trees composed from it (tests/data/linkrate,
 * see its README: which files were changed by hand). */
#include <string.h>

#include "disk/link.h"
#include "tap.h"

#define LAB TEST_DATA_DIR "/linklab/sys"
#define LR TEST_DATA_DIR "/linkrate"

static void read_link(const char *root, const char *kname, struct disk_link *l)
{
	char what[128];
	snprintf(what, sizeof(what), "%s: read", kname);
	is_int(disk_link_read(root, kname, l), 0, what);
}

static void test_parse(void)
{
	ok(disk_link_parse_speed("2.5 GT/s PCIe") == 2.5, "parse: PCIe GT/s");
	ok(disk_link_parse_speed("6.0 Gbps") == 6.0, "parse: SATA Gbps");
	ok(disk_link_parse_speed("12.0 Gbit") == 12.0, "parse: SAS Gbit");
	ok(disk_link_parse_speed("Unknown") == 0, "parse: Unknown is 0");
	ok(disk_link_parse_speed("<unknown>") == 0, "parse: <unknown> is 0");
	ok(disk_link_parse_speed("Link Rate failed") == 0, "parse: a failed SAS phy is 0");
	ok(disk_link_carries(LINK_PCIE, 2.5, 1) == 250e6, "carries: 2.5 GT/s x1 is 250 MB/s (8b/10b)");
	ok(disk_link_carries(LINK_PCIE, 8, 4) > 3.93e9 && disk_link_carries(LINK_PCIE, 8, 4) < 3.95e9,
	   "carries: 8 GT/s x4 is 3.94 GB/s (128b/130b)");
	ok(disk_link_carries(LINK_SATA, 6, 1) == 600e6, "carries: SATA 6 Gb/s is 600 MB/s");
	ok(disk_link_carries(LINK_SAS, 12, 4) == 4800e6, "carries: SAS 12 Gb/s x4 is 4.8 GB/s");
}

static void test_lab_pcie(void)
{
	struct disk_link l;
	read_link(LAB, "nvme0n1", &l);
	is_int(l.count, 1, "nvme0n1: one PCIe link (the root port is the top)");
	const struct link_hop *h = &l.hops[0];
	is_str(h->name, "0000:01:00.0", "nvme0n1: the link of its controller's function");
	ok(h->kind == LINK_PCIE && h->speed == 2.5 && h->width == 1, "nvme0n1: trained at 2.5 GT/s x1");
	ok(h->above.speed == 2.5 && h->above.width == 1, "nvme0n1: its root port (x-speed=2_5,x-width=1) 2.5 GT/s x1");
	ok(!disk_link_degraded(h), "nvme0n1: at what both ends support: not degraded");
	char buf[200];
	disk_link_cell(&l, buf, sizeof(buf));
	is_str(buf, "2.5 GT/s x1", "nvme0n1: its cell");
	disk_link_hop_words(h, buf, sizeof(buf));
	is_str(buf, "PCIe link 0000:01:00.0 at 2.5 GT/s x1 (the device supports 2.5 GT/s x1, the slot 2.5 GT/s x1)",
	       "nvme0n1: in words");

	read_link(LAB, "nvme1n1", &l);
	ok(l.count == 1 && l.hops[0].above.speed == 16 && l.hops[0].above.width == 32,
	   "nvme1n1: its root port at qemu's default 16 GT/s x32");
	ok(l.hops[0].below.speed == 2.5 && !disk_link_degraded(&l.hops[0]),
	   "nvme1n1: qemu's NVMe supports 2.5 GT/s x1 only: the link is at its device's maximum");
}

static void test_lab_sata(void)
{
	struct disk_link l;
	read_link(LAB, "sda", &l);
	ok(l.count >= 1 && l.hops[0].kind == LINK_SATA, "sda: its SATA link first");
	is_str(l.hops[0].name, "ata1", "sda: the port ata1");
	ok(l.hops[0].speed == 1.5, "sda: sata_spd 1.5 Gbps");
	ok(l.hops[0].below.speed == 0 && l.hops[0].above.speed == 0, "sda: qemu says neither end's maximum");
	ok(disk_link_first_degraded(&l) == NULL, "sda: unknown maxima are no finding");
}

static void test_pcie_degraded(void)
{
	struct disk_link l;
	read_link(LR "/pcie_degraded/sys", "nvme0n1", &l);
	const struct link_hop *h = disk_link_first_degraded(&l);
	ok(h == &l.hops[0], "pcie_degraded: nvme0n1's link is degraded");
	char buf[200];
	disk_link_hop_words(&l.hops[0], buf, sizeof(buf));
	is_str(buf, "PCIe link 0000:01:00.0 trained at 2.5 GT/s x1, the device and slot support 8.0 GT/s x4",
	       "pcie_degraded: in words");
	disk_link_cell(&l, buf, sizeof(buf));
	is_str(buf, "2.5 GT/s x1 (max 8.0 GT/s x4)", "pcie_degraded: its cell");
	ok(disk_link_narrowest(&l) == &l.hops[0] && disk_link_hop_carries(disk_link_narrowest(&l)) == 250e6,
	   "pcie_degraded: its ceiling 250 MB/s");
	read_link(LR "/pcie_degraded/sys", "nvme1n1", &l);
	ok(disk_link_first_degraded(&l) == NULL, "pcie_degraded: nvme1n1 (unchanged) is not");
}

static void test_sata(void)
{
	struct disk_link l;
	read_link(LR "/sata_degraded/sys", "sda", &l);
	const struct link_hop *h = &l.hops[0];
	ok(h->below.speed == 6 && h->above.speed == 6, "sata_degraded: drive (IDENTIFY word 76) and port at 6 Gb/s");
	ok(disk_link_degraded(h), "sata_degraded: a 1.5 Gb/s link is degraded");
	ok(h->os_limit == 1.5, "sata_degraded: libata's lowered limit");
	char buf[200];
	disk_link_hop_words(h, buf, sizeof(buf));
	is_str(buf, "SATA link ata1 trained at 1.5 Gb/s, the drive and port support 6.0 Gb/s; the kernel limits it "
		    "to 1.5 Gb/s after link errors", "sata_degraded: in words");

	read_link(LR "/sata_one_end/sys", "sda", &l);
	h = &l.hops[0];
	ok(h->below.speed == 3 && h->above.speed == 6 && h->speed == 3, "sata_one_end: a 3 Gb/s drive on a 6 Gb/s port");
	ok(!disk_link_degraded(h), "sata_one_end: slow on one end only is no finding");
	ok(disk_link_hop_carries(h) == 300e6, "sata_one_end: its ceiling 300 MB/s");
}

static void test_sas(void)
{
	struct disk_link l;
	read_link(LR "/sas_degraded/sys", "sdb", &l);
	is_int(l.count, 2, "sas_degraded: two SAS links (expander to drive, HBA to expander)");
	is_str(l.hops[0].name, "port-6:0:1", "sas_degraded: the drive's port first");
	is_str(l.hops[1].name, "port-6:0", "sas_degraded: then the HBA's");
	ok(l.hops[1].width == 4 && l.hops[1].speed == 3 && l.hops[1].above.speed == 12 && l.hops[1].below.speed == 12,
	   "sas_degraded: the wide port x4 at 3.0 Gb/s, HBA and expander at 12");
	ok(disk_link_first_degraded(&l) == &l.hops[1], "sas_degraded: the HBA-expander link is degraded");
	ok(!disk_link_degraded(&l.hops[0]), "sas_degraded: the drive's link is not");
	char buf[200];
	disk_link_hop_words(&l.hops[1], buf, sizeof(buf));
	is_str(buf, "SAS link port-6:0 trained at 3.0 Gb/s x4, both ends support 12.0 Gb/s x4",
	       "sas_degraded: in words");
	disk_link_cell(&l, buf, sizeof(buf));
	is_str(buf, "12.0 Gb/s; port-6:0 3.0 Gb/s x4 (max 12.0 Gb/s x4)", "sas_degraded: its cell names the hop above");

	read_link(LR "/sas_one_end/sys", "sdb", &l);
	ok(l.count == 2 && l.hops[0].speed == 6 && l.hops[0].above.speed == 12 && l.hops[0].below.speed == 0,
	   "sas_one_end: the drive's link at 6 of the expander's 12, the drive's maximum unknown");
	ok(disk_link_first_degraded(&l) == NULL, "sas_one_end: no finding");
}

int main(void)
{
	test_parse();
	test_lab_pcie();
	test_lab_sata();
	test_pcie_degraded();
	test_sata();
	test_sas();
	struct disk_link l;
	ok(disk_link_read(LAB, "nosuch", &l) < 0, "a disk that is not there: an error");
	return tap_done();
}
