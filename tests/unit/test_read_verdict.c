/* The read batch's verdict (triage/read_verdict.h): the verdict word from
 * the counts of reads, the sentence, and read_batch_judge on sets where no
 * disk is out of line (no confirming re-read runs). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/strbuf.h"
#include "disk/smart.h"
#include "output/json.h"
#include "triage/read_group.h"
#include "triage/read_health.h"
#include "triage/read_verdict.h"
#include "tap.h"

#define MB 1e6

static void set_ok(struct disk_read *d, const char *kname, const char *model, double bw)
{
	snprintf(d->info.kname, sizeof(d->info.kname), "%s", kname);
	snprintf(d->info.dev_path, sizeof(d->info.dev_path), "/dev/%s", kname);
	snprintf(d->info.model, sizeof(d->info.model), "%s", model);
	d->info.size_bytes = 4000ULL * 1000 * 1000 * 1000;
	d->status = READTEST_OK;
	d->res = xcalloc(1, sizeof(*d->res));
	d->res->bytes = (uint64_t)bw;
	d->res->seconds = 1.0;
}

static void test_word(void)
{
	struct disk_read d = { .finding = { .flag = OUTLIER_SLOW } };
	d.reads_total = 3;
	d.reads_flagged = 3;
	is_str(read_verdict_word(&d), "slow", "slow when every read was out of line");
	d.reads_flagged = 2;
	is_str(read_verdict_word(&d), "ok", "ok when one confirming read was in line");
	d.finding.flag = OUTLIER_FAST;
	d.reads_flagged = 3;
	is_str(read_verdict_word(&d), "fast", "fast when every read was out of line upwards");
	d.finding.flag = OUTLIER_NONE;
	d.reads_flagged = 0;
	d.baseline_flagged = 3;
	is_str(read_verdict_word(&d), "slow", "slow when every read was below its baseline");
	d.baseline_flagged = 1;
	is_str(read_verdict_word(&d), "ok", "ok when a re-read was within its baseline");
	d.reads_total = 1;
	d.baseline_flagged = 0;
	is_str(read_verdict_word(&d), "ok", "ok with nothing flagged");
}

static void test_sentence(void)
{
	struct disk_read d = { .reads_total = 3, .reads_flagged = 3 };
	snprintf(d.info.kname, sizeof(d.info.kname), "sdc");
	d.finding = (struct outlier_finding){ .flag = OUTLIER_SLOW, .ratio = 0.05, .set_size = 4,
					      .peers_are_group = true };
	read_verdict_describe(&d, 10 * MB);
	is_str(d.sentence, "sdc reads at 5.0% of the median of 4 same-model disks (3 of 3 reads out of line)",
	       "one decimal under 10%");
	d.finding.ratio = 0.98;
	d.finding.peers_are_group = false;
	d.reads_flagged = 0;
	d.reads_total = 1;
	read_verdict_describe(&d, 10 * MB);
	is_str(d.sentence, "sdc reads at 98% of the median of 4 disks (1 of 1 reads in line)", "in line");
	d.finding.flag = OUTLIER_NO_PEERS;
	read_verdict_describe(&d, 10 * MB);
	is_str(d.sentence, "sdc has no peers to compare with (fewer than 3 disks read)", "no peers");
	d.has_baseline = true;
	d.baseline_bw = 20 * MB;
	d.baseline_at = 0;
	d.baseline_flagged = 1;
	read_verdict_describe(&d, 10 * MB);
	is_str(d.sentence, "sdc has no peers to compare with (fewer than 3 disks read); 50% of its baseline "
			   "of 20.0 MB/s from 1970-01-01 (1 of 1 reads below it)", "against its baseline");
}

static void test_judge_in_line(void)
{
	struct read_batch b = { .count = 5, .regression_pct = DEFAULT_REGRESSION_PCT };
	b.reads = xcalloc(b.count, sizeof(*b.reads));
	set_ok(&b.reads[0], "sda", "DISK-A", 200 * MB);
	set_ok(&b.reads[1], "sdb", "DISK-A", 205 * MB);
	set_ok(&b.reads[2], "sdc", "DISK-A", 198 * MB);
	snprintf(b.reads[3].info.dev_path, sizeof(b.reads[3].info.dev_path), "/dev/sdd");
	b.reads[3].status = READTEST_ERROR;
	snprintf(b.reads[3].reason, sizeof(b.reads[3].reason), "cannot open: Permission denied");
	snprintf(b.reads[4].info.dev_path, sizeof(b.reads[4].info.dev_path), "/dev/sde");
	b.reads[4].status = READTEST_SKIPPED;
	snprintf(b.reads[4].reason, sizeof(b.reads[4].reason), "partition");

	is_int(read_batch_judge(&b), 0, "three disks in line: none flagged");
	is_str(b.reads[0].verdict, "ok", "sda ok");
	is_int(b.reads[0].reads_total, 1, "no confirming read of a disk in line");
	is_int(b.reads[0].finding.set_size, 3, "the set is the three ok disks");
	ok(b.reads[0].finding.peers_are_group, "of the same model and size");
	is_str(b.reads[1].sentence, "sdb reads at 102% of the median of 3 same-model disks (1 of 1 reads in line)",
	       "sdb's sentence");
	is_str(b.reads[3].verdict, "error", "a failed read's verdict is its status");
	is_str(b.reads[3].sentence, "/dev/sdd: cannot open: Permission denied", "with its reason");
	is_str(b.reads[4].verdict, "skipped", "a skipped disk's verdict is its status");
	is_str(b.reads[4].sentence, "/dev/sde was not read, so it is not judged",
	       "a skipped disk's sentence does not repeat its reason");

	/* --group-by controller leaves the skipped disk out of the groups. */
	for (size_t i = 0; i < 4; i++)
		snprintf(b.reads[i].info.path_group, sizeof(b.reads[i].info.path_group), "pci 0000:00:0%d.0", i < 2 ? 1 : 2);
	snprintf(b.reads[4].info.path_group, sizeof(b.reads[4].info.path_group), "pci 0000:00:09.0");
	b.group_by = READ_GROUP_CONTROLLER;
	struct read_groups g;
	read_groups_build(&b, &g);
	is_int(g.count, 2, "by controller: two groups, none for the skipped disk's controller");
	ok(g.member_of[4] == READ_GROUP_OUTSIDE, "the skipped disk is in no group");
	ok(g.groups[0].disks == 2 && g.groups[1].disks == 2 && g.groups[1].ok == 1, "the others in theirs, the failed read counted");
	read_groups_release(&g);
	b.group_by = READ_GROUP_VDEV;
	read_groups_build(&b, &g);
	ok(g.member_of[4] != READ_GROUP_OUTSIDE, "by vdev a skipped pool member stays in its group");
	read_groups_release(&g);

	struct read_batch one = { .count = 1, .regression_pct = DEFAULT_REGRESSION_PCT };
	one.reads = xcalloc(1, sizeof(*one.reads));
	set_ok(&one.reads[0], "sda", "DISK-A", 200 * MB);
	is_int(read_batch_judge(&one), 0, "one disk: nothing flagged");
	is_str(one.reads[0].verdict, "ok", "and ok");
	ok(strstr(one.reads[0].sentence, "no peers") != NULL, "with no peers said");

	read_batch_release(&b);
	read_batch_release(&one);
}

/* A health failure is a finding whatever the rate: the sentence says so. */
static void test_health(void)
{
	struct disk_read d = { .verdict = "ok", .health_checked = true };
	snprintf(d.info.dev_path, sizeof(d.info.dev_path), "/dev/nvme4n1");
	snprintf(d.sentence, sizeof(d.sentence), "nvme4n1 reads at 100%% of the median of 7 same-model disks (1 of 1 reads in line)");
	d.health.state = SMART_PASSED;
	ok(!read_health_failing(&d), "SMART passed without signs: no health finding");
	read_health_note(&d);
	ok(strstr(d.sentence, "health") == NULL, "and nothing added to the sentence");
	d.health.state = SMART_FAILED;
	d.health.predictive_failure = true;
	snprintf(d.health.signs, sizeof(d.health.signs), "critical warning 0x04");
	ok(read_health_failing(&d), "SMART failed: a health finding");
	read_health_note(&d);
	read_health_note(&d);
	ok(strstr(d.sentence, "; health finding: SMART FAILED: the drive predicts its own failure; predictive failure: "
			      "critical warning 0x04") != NULL, "the sentence carries the health evidence");
	ok(strstr(strstr(d.sentence, "health finding") + 1, "health finding") == NULL, "once");
	d.health.state = SMART_PASSED;
	ok(read_health_failing(&d), "predictive-failure signs while SMART passes: a finding too");
	d.smartctl_missing = true;
	ok(!read_health_failing(&d), "not when smartctl is missing");

	struct disk_info info = { 0 };
	const char *const yes[] = { "nvme", "sata", "scsi", "sas", "usb" }, *const no[] = { "loop", "zram", "virtio", "md", "dm", "" };
	bool all = true;
	for (size_t i = 0; i < 5; i++) {
		snprintf(info.transport, sizeof(info.transport), "%s", yes[i]);
		all = all && read_health_sweepable(&info);
	}
	ok(all, "the sweep asks every physical transport");
	all = true;
	for (size_t i = 0; i < 6; i++) {
		snprintf(info.transport, sizeof(info.transport), "%s", no[i]);
		all = all && !read_health_sweepable(&info);
	}
	ok(all, "and no loop, zram, virtio-blk, md, dm or RAM disk");
}

/* The finding a damaged ATA medium makes: the sentence names each counter
 * with its raw value. smartctl's JSON is composed (qemu's AHCI disks keep
 * their SMART attributes at zero): tests/data/smartctl_sat_media_errors_composed.json. */
static void test_ata_finding(void)
{
	static char text[65536];
	FILE *f = fopen(TEST_DATA_DIR "/smartctl_sat_media_errors_composed.json", "r");
	size_t n = f ? fread(text, 1, sizeof(text) - 1, f) : 0;
	if (f)
		fclose(f);
	struct disk_read d = { .health_checked = true };
	ok(smart_parse(text, n, &d.health) == 0, "composed ATA capture parses");
	ok(read_health_failing(&d), "non-zero ATA media counters are a health finding though SMART passes");
	char sentence[600];
	read_health_describe(&d, sentence, sizeof(sentence));
	is_str(sentence,
	       "SMART passed, 31 C; predictive failure: attribute 5 Reallocated_Sector_Ct raw 3, attribute 187 "
	       "Reported_Uncorrect raw 2, attribute 197 Current_Pending_Sector raw 4, attribute 198 "
	       "Offline_Uncorrectable raw 1",
	       "the finding names each attribute and its raw value");
	struct json j;
	json_init(&j);
	json_begin_object(&j, NULL);
	read_health_json(&j, &d);
	json_end_object(&j);
	ok(strstr(j.out.buf, "\"media_errors\": 10") != NULL, "the document's health.media_errors: 10");
	json_release(&j);
}

int main(void)
{
	test_health();
	test_ata_finding();
	test_word();
	test_sentence();
	test_judge_in_line();
	return tap_done();
}
