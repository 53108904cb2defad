/* test_read_link: the link rule of a read batch (triage/media/read_link.h) on the
 * captured link lab and the trees composed from it (tests/data/linkrate,
 * see its README). */
#include <string.h>

#include "triage/media/read_link.h"
#include "tap.h"

#define LAB TEST_DATA_DIR "/linklab/sys"
#define LR TEST_DATA_DIR "/linkrate"

static struct disk_link link_of(const char *root, const char *kname)
{
	struct disk_link l;
	if (disk_link_read(root, kname, &l) < 0)
		memset(&l, 0, sizeof(l));
	return l;
}

static const struct verdict_reason *link_reason(const struct disk_verdict *v)
{
	for (size_t i = 0; i < v->reason_count; i++)
		if (v->reasons[i].kind == REASON_LINK)
			return &v->reasons[i];
	return NULL;
}

static void test_degraded(void)
{
	struct disk_link l = link_of(LR "/pcie_degraded/sys", "nvme0n1");
	struct disk_verdict v = { .kind = VERDICT_SLOW };
	ok(read_link_judge("nvme0n1", &l, 240e6, true, &v), "degraded and slow at its link's rate: a finding");
	const struct verdict_reason *r = link_reason(&v);
	ok(r && r->against, "degraded: a reason against the disk");
	is_str(r ? r->evidence : "", "nvme0n1: PCIe link 0000:01:00.0 trained at 2.5 GT/s x1, the device and slot "
				     "support 8.0 GT/s x4; its read rate 240 MB/s is what that link carries: reseat the "
				     "drive or check the slot", "degraded and slow: the cause named");

	struct disk_verdict fine = { .kind = VERDICT_OK };
	ok(read_link_judge("nvme0n1", &l, 20e6, false, &fine), "degraded, in line with its peers: still a finding");
	r = link_reason(&fine);
	is_str(r ? r->evidence : "", "nvme0n1: PCIe link 0000:01:00.0 trained at 2.5 GT/s x1, the device and slot "
				     "support 8.0 GT/s x4: reseat the drive or check the slot",
	       "degraded at any rate: the link and its fix");
	ok(!read_link_judge("nvme0n1", &l, 20e6, false, &fine), "judged once: no second link reason");

	l = link_of(LR "/sata_degraded/sys", "sda");
	struct disk_verdict s = { .kind = VERDICT_OK };
	ok(read_link_judge("sda", &l, 100e6, false, &s), "sata_degraded: a finding");
	r = link_reason(&s);
	ok(r && strstr(r->evidence, "replace the SATA cable") != NULL, "sata_degraded: the SATA fix");
	l = link_of(LR "/sas_degraded/sys", "sdb");
	struct disk_verdict sas = { .kind = VERDICT_OK };
	ok(read_link_judge("sdb", &l, 100e6, false, &sas), "sas_degraded: a finding (the link above the drive's)");
}

static void test_ceiling(void)
{
	/* qemu's NVMe at 2.5 GT/s x1 everywhere: 250 MB/s */
	struct disk_link l = link_of(LAB, "nvme0n1");
	struct disk_verdict v = { .kind = VERDICT_SLOW };
	ok(read_link_judge("nvme0n1", &l, 240e6, true, &v), "slow at its link's ceiling: a finding");
	const struct verdict_reason *r = link_reason(&v);
	is_str(r ? r->evidence : "", "nvme0n1: its PCIe link 0000:01:00.0 at 2.5 GT/s x1 carries 250 MB/s, its "
				     "read rate 240 MB/s: the link is its ceiling", "the ceiling named");
	ok(r && r->against, "the ceiling of a slow disk counts against it");

	struct disk_verdict ok_v = { .kind = VERDICT_OK };
	ok(!read_link_judge("nvme0n1", &l, 240e6, false, &ok_v), "at its ceiling, in line: no finding");
	r = link_reason(&ok_v);
	ok(r && !r->against, "at its ceiling, in line: named, not against it");

	struct disk_verdict below = { .kind = VERDICT_SLOW };
	ok(!read_link_judge("nvme0n1", &l, 150e6, true, &below), "slow well below its link: not the link");
	ok(link_reason(&below) == NULL, "below 80% of the link: no link reason");

	l = link_of(LR "/sata_one_end/sys", "sda");
	struct disk_verdict one = { .kind = VERDICT_OK };
	ok(!read_link_judge("sda", &l, 100e6, false, &one) && link_reason(&one) == NULL,
	   "sata_one_end at 100 MB/s of 300: nothing");
	struct disk_verdict none = { .kind = VERDICT_OK };
	struct disk_link empty = { .count = 0 };
	ok(!read_link_judge("vda", &empty, 1e9, false, &none) && none.reason_count == 0, "no links: nothing");
}

/* smartctl's "SATA Version is: ..., 6.0 Gb/s (current: 1.5 Gb/s)" where the
 * drive's IDENTIFY data says nothing. */
static void test_smart_second_source(void)
{
	struct disk_link l = link_of(LR "/sata_degraded/sys", "sda");
	l.hops[0].below.speed = 0; /* as if word 76 were silent */
	ok(!disk_link_degraded(&l.hops[0]), "without the drive's maximum: no finding");
	struct smart_health h = { .sata_max_gbps = 6.0, .sata_current_gbps = 1.5 };
	read_link_add_smart(&l, &h);
	ok(l.hops[0].below.speed == 6.0 && disk_link_degraded(&l.hops[0]), "with smartctl's 6.0 Gb/s: degraded");
	struct smart_health faster = { .sata_max_gbps = 3.0 };
	read_link_add_smart(&l, &faster);
	ok(l.hops[0].below.speed == 6.0, "IDENTIFY's (or the first) maximum is kept");
	struct disk_link p = link_of(LAB, "nvme0n1");
	read_link_add_smart(&p, &h);
	ok(p.hops[0].below.speed == 2.5, "not a SATA link: untouched");
}

int main(void)
{
	test_smart_second_source();
	test_degraded();
	test_ceiling();
	return tap_done();
}
