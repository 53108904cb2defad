/* The read batch's verdict (triage/media/read_verdict.h): the kind from a read's
 * status, the reasons in words, and read_batch_judge on sets where no disk
 * is out of line (no confirming re-read runs). The verdict type's own rules
 * are in test_disk_verdict.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/strbuf.h"
#include "disk/smart.h"
#include "output/json.h"
#include "triage/media/read_group.h"
#include "triage/media/read_health.h"
#include "triage/media/read_verdict.h"
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

static const char *sentence_of(const struct disk_read *d)
{
	static char buf[VERDICT_SENTENCE_LEN];
	disk_verdict_sentence(&d->verdict, buf, sizeof(buf));
	return buf;
}

static void test_sentence(void)
{
	struct disk_read d = { .verdict = { .kind = VERDICT_SLOW, .reads = { .total = 3, .out_of_line = 3 } } };
	snprintf(d.info.kname, sizeof(d.info.kname), "sdc");
	d.verdict.peers = (struct outlier_finding){ .flag = OUTLIER_SLOW, .ratio = 0.05, .set_size = 4,
						    .peers_are_group = true };
	read_verdict_describe(&d, 10 * MB);
	is_str(sentence_of(&d), "sdc reads at 5.0% of the median of 4 same-model disks (3 of 3 reads out of line)",
	       "one decimal under 10%");
	ok(d.verdict.reason_count == 1 && d.verdict.reasons[0].kind == REASON_PEERS && d.verdict.reasons[0].against,
	   "one reason, the peers, against a slow disk");
	d.verdict.kind = VERDICT_OK;
	d.verdict.peers.ratio = 0.98;
	d.verdict.peers.peers_are_group = false;
	d.verdict.reads = (struct verdict_reads){ .total = 1 };
	read_verdict_describe(&d, 10 * MB);
	is_str(sentence_of(&d), "sdc reads at 98% of the median of 4 disks (1 of 1 reads in line)", "in line");
	ok(d.verdict.reason_count == 1 && !d.verdict.reasons[0].against, "described again: one reason, not against it");
	d.verdict.peers.flag = OUTLIER_NO_PEERS;
	read_verdict_describe(&d, 10 * MB);
	is_str(sentence_of(&d), "sdc has no peers to compare with (fewer than 3 disks read)", "no peers");
	d.has_baseline = true;
	d.baseline_bw = 20 * MB;
	d.baseline_at = 0;
	d.verdict.reads.below_baseline = 1;
	d.verdict.kind = VERDICT_REGRESSED;
	read_verdict_describe(&d, 10 * MB);
	is_str(sentence_of(&d), "sdc has no peers to compare with (fewer than 3 disks read); 50% of its baseline "
				"of 20.0 MB/s from 1970-01-01 (1 of 1 reads below it)", "against its baseline");
	ok(d.verdict.reason_count == 2 && d.verdict.reasons[1].kind == REASON_BASELINE && d.verdict.reasons[1].against,
	   "the baseline a second reason, against a regressed disk");
}

/* The kind a read's status gives before any comparison. */
static void test_kind_of_status(void)
{
	struct job_result res = { 0 };
	struct disk_read d = { .status = READTEST_OK };
	is_int(read_verdict_kind_of_status(&d), VERDICT_OK, "a read that completed is ok until compared");
	d.status = READTEST_SKIPPED;
	is_int(read_verdict_kind_of_status(&d), VERDICT_SKIPPED, "skipped");
	d.status = READTEST_ERROR;
	is_int(read_verdict_kind_of_status(&d), VERDICT_NOT_READ, "an error before the read started: not read");
	d.res = &res;
	is_int(read_verdict_kind_of_status(&d), VERDICT_CUT_SHORT, "an error after it started, neither I/O nor silence: cut short");
	d.io_error = true;
	is_int(read_verdict_kind_of_status(&d), VERDICT_IO_ERROR, "an I/O error part way");
	d.io_error = false;
	d.no_response = true;
	is_int(read_verdict_kind_of_status(&d), VERDICT_NO_RESPONSE, "no response within the deadline");
	d.reader_never_ran = true;
	is_int(read_verdict_kind_of_status(&d), VERDICT_NOT_READ,
	       "a reader that never started its reads: not read, never the disk's silence");
	ok(!disk_verdict_read_failed(read_verdict_kind_of_status(&d)), "and no read failure is held against the disk");
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
	is_int(b.reads[0].verdict.kind, VERDICT_OK, "sda ok");
	is_int(b.reads[0].verdict.reads.total, 1, "no confirming read of a disk in line");
	is_int(disk_verdict_confidence(&b.reads[0].verdict), VERDICT_ONE_READ, "on its one read");
	is_int(b.reads[0].verdict.peers.set_size, 3, "the set is the three ok disks");
	ok(b.reads[0].verdict.peers.peers_are_group, "of the same model and size");
	is_str(sentence_of(&b.reads[1]), "sdb reads at 102% of the median of 3 same-model disks (1 of 1 reads in line)",
	       "sdb's sentence");
	is_int(b.reads[3].verdict.kind, VERDICT_NOT_READ, "a read that could not start: not read");
	is_str(disk_verdict_word(b.reads[3].verdict.kind), "error", "its word is its status");
	is_str(sentence_of(&b.reads[3]), "/dev/sdd: cannot open: Permission denied", "with its reason");
	ok(!b.reads[3].verdict.reasons[0].against, "a refusal to start is no evidence against the disk");
	is_int(b.reads[4].verdict.kind, VERDICT_SKIPPED, "a skipped disk's verdict is skipped");
	is_str(sentence_of(&b.reads[4]), "/dev/sde was not read, so it is not judged",
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
	is_int(one.reads[0].verdict.kind, VERDICT_OK, "and ok");
	ok(strstr(sentence_of(&one.reads[0]), "no peers") != NULL, "with no peers said");

	read_batch_release(&b);
	read_batch_release(&one);
}

/* D's read as N completions: most at BASE_NS, SLOW_PER_1000 of every
 * thousand at SLOW_NS. */
static void set_latencies(struct disk_read *d, unsigned n, uint64_t base_ns, unsigned slow_per_1000, uint64_t slow_ns)
{
	hist_init(&d->res->lat_read);
	for (unsigned i = 0; i < n; i++)
		hist_record(&d->res->lat_read, i % 1000 < slow_per_1000 ? slow_ns : base_ns);
}

/* The tail (part 4): a disk whose p99 stands out from its peers' while its
 * rate is in line is suspected, its p99 against the peers' median kept and
 * said; the confirming re-reads of a device that is not there fail, so it
 * stays unconfirmed (ok) here: the command test confirms on a real one. */
static void test_judge_tail(void)
{
	struct read_batch b = { .count = 5, .regression_pct = DEFAULT_REGRESSION_PCT };
	b.reads = xcalloc(b.count, sizeof(*b.reads));
	const char *names[] = { "iotriage-no-such-a", "iotriage-no-such-b", "iotriage-no-such-c", "iotriage-no-such-d",
				"iotriage-no-such-e" };
	for (size_t i = 0; i < b.count; i++) {
		set_ok(&b.reads[i], names[i], "DISK-A", 200 * MB);
		set_latencies(&b.reads[i], 1000, 1000000, 0, 0); /* every read 1 ms */
	}
	set_latencies(&b.reads[2], 1000, 1000000, 20, 30000000); /* 2% at 30 ms: its p99 */
	set_latencies(&b.reads[4], 150, 1000000, 100, 30000000); /* too few reads for a p99 */

	is_int(read_verdict_p99_ns(&b.reads[0]), 1000000, "p99 of an even read: its latency (within a bucket)");
	ok(read_verdict_p99_ns(&b.reads[2]) > 29000000, "p99 of the read with 2% slow completions: the slow ones");
	is_int(read_verdict_p99_ns(&b.reads[4]), 0, "under VERDICT_TAIL_MIN_IOS completions: no p99 judged");

	read_batch_judge(&b);
	const struct disk_verdict *t = &b.reads[2].verdict;
	ok(t->peers.flag == OUTLIER_NONE, "the tail disk's rate is in line");
	ok(t->tail.flag == VERDICT_TAIL_HIGH, "its p99 is out of line above its peers'");
	is_int(t->tail.set_size, 4, "judged among the four disks with enough reads");
	ok(t->tail.ratio > 25 && t->tail.ratio < 35, "at about 30 times their median");
	is_int(t->reads.total, 1 + READ_CONFIRM_READS, "and re-read to confirm");
	is_int(t->reads.tail_out_of_line, 1, "the re-reads of a missing device do not confirm it");
	is_int(t->kind, VERDICT_OK, "so it is ok, unconfirmed");
	is_int(disk_verdict_confidence(t), VERDICT_DISMISSED, "a suspicion dismissed");
	ok(disk_verdict_has_reason(t, REASON_LATENCY) && !t->reasons[1].against, "its tail said, not held against it");
	ok(strstr(sentence_of(&b.reads[2]), "; its p99 completion latency, 30.") != NULL &&
	   strstr(sentence_of(&b.reads[2]), "(1.00 ms; 1 of 3 reads out of line)") != NULL,
	   "the sentence gives its p99, the peers' median and the reads");
	ok(b.reads[0].verdict.tail.flag == OUTLIER_NONE && !disk_verdict_has_reason(&b.reads[0].verdict, REASON_LATENCY),
	   "a disk with an ordinary tail: judged, nothing said");
	is_int(b.reads[0].verdict.reads.total, 1, "and not re-read");
	ok(b.reads[4].verdict.tail.flag == OUTLIER_NO_PEERS, "a read too short for a p99: its tail not judged");
	read_batch_release(&b);
}

/* A health failure is a finding whatever the rate: the sentence says so. */
static void test_health(void)
{
	struct disk_read d = { .verdict = { .kind = VERDICT_OK }, .health_checked = true };
	snprintf(d.info.dev_path, sizeof(d.info.dev_path), "/dev/nvme4n1");
	disk_verdict_add_reason(&d.verdict, REASON_PEERS, false,
				"nvme4n1 reads at 100% of the median of 7 same-model disks (1 of 1 reads in line)");
	d.health.state = SMART_PASSED;
	ok(!read_health_failing(&d), "SMART passed without signs: no health finding");
	read_health_note(&d);
	ok(strstr(sentence_of(&d), "health") == NULL, "and nothing added to the sentence");
	d.health.state = SMART_FAILED;
	d.health.predictive_failure = true;
	snprintf(d.health.signs, sizeof(d.health.signs), "critical warning 0x04");
	ok(read_health_failing(&d), "SMART failed: a health finding");
	read_health_note(&d);
	read_health_note(&d);
	ok(strstr(sentence_of(&d), "; health finding: SMART FAILED: the drive predicts its own failure; predictive failure: "
				   "critical warning 0x04") != NULL, "the sentence carries the health evidence");
	ok(strstr(strstr(sentence_of(&d), "health finding") + 1, "health finding") == NULL, "once");
	ok(d.verdict.kind == VERDICT_OK && d.verdict.reason_count == 2 && d.verdict.reasons[1].kind == REASON_HEALTH &&
	   d.verdict.reasons[1].against, "a reason against the disk, its kind left as the read found it");
	struct disk_read unjudged = d;
	unjudged.verdict = (struct disk_verdict){ .kind = VERDICT_NOT_JUDGED };
	read_health_note(&unjudged);
	is_int(unjudged.verdict.reason_count, 0, "no health reason on a disk not judged");
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
	test_sentence();
	test_kind_of_status();
	test_judge_tail();
	test_judge_in_line();
	return tap_done();
}
