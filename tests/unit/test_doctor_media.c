/* test_doctor_media: what doctor's media step names and on which kind of
 * evidence (triage/doctor/doctor_media.h): a disk named only for its tail, only for
 * its link or only for its health is named; a slow group is named as a
 * group; the order makes the first disk flagged by its reads the subject. */
#include <string.h>

#include "triage/doctor/doctor_media.h"
#include "tap.h"

static void disk(struct disk_read *d, const char *path, enum verdict_kind kind)
{
	*d = (struct disk_read){ .status = READTEST_OK };
	snprintf(d->info.dev_path, sizeof(d->info.dev_path), "%s", path);
	snprintf(d->info.kname, sizeof(d->info.kname), "%s", path + 5);
	d->verdict.kind = kind;
}

static void reason(struct disk_read *d, enum verdict_reason_kind kind, bool against, const char *text)
{
	disk_verdict_add_reason(&d->verdict, kind, against, text);
}

int main(void)
{
	struct disk_read r[6];
	disk(&r[0], "/dev/sda", VERDICT_OK);
	reason(&r[0], REASON_PEERS, false, "sda reads at 100% of the median of 6 disks (1 of 1 reads in line)");
	disk(&r[1], "/dev/sdb", VERDICT_OK);
	reason(&r[1], REASON_LINK, true, "sdb: SATA link ata2 trained at 1.5 Gb/s, both ends support 6.0 Gb/s");
	disk(&r[2], "/dev/dm-0", VERDICT_SLOW_TAIL);
	reason(&r[2], REASON_PEERS, false, "dm-0 reads at 88% of the median of 6 disks (3 of 3 reads in line)");
	reason(&r[2], REASON_LATENCY, true, "its p99 completion latency, 34.00 ms, is 7.0 times the median");
	disk(&r[3], "/dev/sdd", VERDICT_OK);
	r[3].health_checked = true;
	r[3].health.state = SMART_FAILED;
	disk(&r[4], "/dev/sde", VERDICT_SLOW);
	reason(&r[4], REASON_PEERS, true, "sde reads at 30% of the median of 6 disks (3 of 3 reads out of line)");
	reason(&r[4], REASON_LATENCY, true, "its p99 completion latency is 4.0 times the median");
	disk(&r[5], "/dev/sdf", VERDICT_OK);
	reason(&r[5], REASON_LINK, false, "sdf: its SATA link carries 150 MB/s, its read rate 140 MB/s: the link is its ceiling");
	struct read_batch b = { .reads = r, .count = 6, .group_by = READ_GROUP_VDEV };

	ok(doctor_media_disk_evidence(&r[0]) == 0, "a disk in line on everything: no evidence");
	ok(doctor_media_disk_evidence(&r[1]) == MEDIA_BY_LINK, "a degraded link alone: link rate");
	ok(doctor_media_disk_evidence(&r[2]) == MEDIA_BY_TAIL, "a slow tail with its rate in line: tail latency");
	ok(doctor_media_disk_evidence(&r[3]) == MEDIA_BY_HEALTH, "a failed SMART check alone: health");
	ok(doctor_media_disk_evidence(&r[4]) == (MEDIA_BY_THROUGHPUT | MEDIA_BY_TAIL),
	   "slow with a confirmed tail: throughput and tail latency");
	ok(doctor_media_disk_evidence(&r[5]) == 0, "a link that is only the ceiling of a disk in line: not evidence");

	struct read_group groups[3] = { { .name = "tank/mirror-0" }, { .name = "tank/mirror-1" }, { .name = "tank/mirror-2" } };
	groups[1].finding.flag = OUTLIER_SLOW;
	snprintf(groups[1].sentence, sizeof(groups[1].sentence), "vdev tank/mirror-1 reads at 40%% of the median of 3 vdevs");
	struct read_groups g = { .by = READ_GROUP_VDEV, .groups = groups, .count = 3 };

	struct media_findings f;
	doctor_media_judge(&b, &g, &f);
	ok(f.count == 5, "five named: two disks by their reads, a group, a link, a health failure");
	if (f.count == 5) {
		is_str(f.named[0].subject, "/dev/dm-0", "first: the first disk flagged by its reads (its tail)");
		is_str(f.named[1].subject, "/dev/sde", "then the slow disk");
		ok(f.named[2].is_group && strcmp(f.named[2].subject, "tank/mirror-1") == 0 && f.named[2].by == MEDIA_BY_GROUP,
		   "then the slow group, as a group");
		is_str(f.named[3].subject, "/dev/sdb", "then the disk named only for its link");
		is_str(f.named[4].subject, "/dev/sdd", "then the disk named only for its health");
		ok(strstr(f.named[0].evidence, "p99 completion latency, 34.00 ms") != NULL, "a disk's evidence: its reasons");
		ok(strstr(f.named[2].evidence, "reads at 40% of the median of 3 vdevs") != NULL, "a group's: its sentence");
	}
	media_findings_release(&f);

	/* Only a tail, nothing else: doctor still names the disk. */
	struct read_batch tail_only = { .reads = &r[2], .count = 1 };
	doctor_media_judge(&tail_only, NULL, &f);
	ok(f.count == 1 && f.named[0].by == MEDIA_BY_TAIL, "a disk slow only in its tail is named, for its tail");
	media_findings_release(&f);
	struct read_batch link_only = { .reads = &r[1], .count = 1 };
	doctor_media_judge(&link_only, NULL, &f);
	ok(f.count == 1 && f.named[0].by == MEDIA_BY_LINK, "a disk slow only in its link is named, for its link");
	media_findings_release(&f);
	struct read_batch fine = { .reads = r, .count = 1 };
	doctor_media_judge(&fine, &(struct read_groups){ .by = READ_GROUP_VDEV }, &f);
	ok(f.count == 0, "nothing out of line: nothing named");
	media_findings_release(&f);

	/* A read that failed: named whatever its verdict says (an interrupt
	 * stops the batch before the verdicts). */
	struct disk_read failed;
	disk(&failed, "/dev/sdg", VERDICT_NOT_JUDGED);
	failed.status = READTEST_ERROR;
	failed.io_error = true;
	snprintf(failed.reason, sizeof(failed.reason), "read error at offset 1048576: Input/output error");
	ok(doctor_media_disk_evidence(&failed) == MEDIA_BY_READ_ERROR, "an I/O error: read error");

	char words[80];
	media_evidence_words(MEDIA_BY_THROUGHPUT | MEDIA_BY_TAIL | MEDIA_BY_GROUP, words, sizeof(words));
	is_str(words, "throughput, tail latency, group", "the words of several kinds");
	media_evidence_words(0, words, sizeof(words));
	is_str(words, "", "no kind: no words");
	ok(media_evidence_word(MEDIA_BY_LINK) && strcmp(media_evidence_word(MEDIA_BY_LINK), "link rate") == 0 &&
		   !media_evidence_word(3), "one word per kind, none for two at once");
	return tap_done();
}
