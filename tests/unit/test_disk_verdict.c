/* The verdict type's rules (media/disk_verdict.h): the kind from the
 * counts of reads, the confidence, the word of each kind and the stored
 * word read back, what each predicate counts, the reasons and the sentence
 * they make. */
#include <stdio.h>
#include <string.h>

#include "media/disk_verdict.h"
#include "tap.h"

static enum verdict_kind kind_of(enum outlier_flag first, unsigned total, unsigned out, unsigned below)
{
	struct verdict_reads reads = { .total = total, .out_of_line = out, .below_baseline = below };
	return disk_verdict_kind_of_reads(first, OUTLIER_NONE, &reads);
}

static enum verdict_kind tail_kind(enum outlier_flag first, enum outlier_flag tail, unsigned total, unsigned out,
				   unsigned below, unsigned tail_out)
{
	struct verdict_reads reads = { .total = total, .out_of_line = out, .below_baseline = below,
				       .tail_out_of_line = tail_out };
	return disk_verdict_kind_of_reads(first, tail, &reads);
}

/* Part 4's rule: a p99 out of line on every read is a finding even when
 * the rate is in line; the rate's own findings come first. */
static void test_kind_of_tail(void)
{
	is_int(tail_kind(OUTLIER_NONE, VERDICT_TAIL_HIGH, 3, 0, 0, 3), VERDICT_SLOW_TAIL,
	       "a slow tail when every read's p99 was out of line, its rate in line");
	is_int(tail_kind(OUTLIER_NONE, VERDICT_TAIL_HIGH, 3, 0, 0, 2), VERDICT_OK, "ok when a re-read's p99 was in line");
	is_int(tail_kind(OUTLIER_NONE, VERDICT_TAIL_HIGH, 1, 0, 0, 1), VERDICT_SLOW_TAIL,
	       "a lone out-of-line read counts as every read (the judge always re-reads a suspect)");
	is_int(tail_kind(OUTLIER_NONE, OUTLIER_SLOW, 3, 0, 0, 3), VERDICT_OK, "a p99 below its peers' is no finding");
	is_int(tail_kind(OUTLIER_NONE, OUTLIER_NO_PEERS, 3, 0, 0, 3), VERDICT_OK, "nor one not judged");
	is_int(tail_kind(OUTLIER_SLOW, VERDICT_TAIL_HIGH, 3, 3, 0, 3), VERDICT_SLOW, "a slow rate is the kind, its tail a reason");
	is_int(tail_kind(OUTLIER_FAST, VERDICT_TAIL_HIGH, 3, 3, 0, 3), VERDICT_FAST, "so is a fast one");
	is_int(tail_kind(OUTLIER_NONE, VERDICT_TAIL_HIGH, 3, 0, 3, 3), VERDICT_REGRESSED, "and a regression");
	is_int(tail_kind(OUTLIER_SLOW, VERDICT_TAIL_HIGH, 3, 2, 0, 3), VERDICT_SLOW_TAIL,
	       "a rate not confirmed leaves the confirmed tail");
}

static void test_kind_of_reads(void)
{
	is_int(kind_of(OUTLIER_SLOW, 3, 3, 0), VERDICT_SLOW, "slow when every read was out of line below");
	is_int(kind_of(OUTLIER_SLOW, 3, 2, 0), VERDICT_OK, "ok when one confirming read was in line");
	is_int(kind_of(OUTLIER_FAST, 3, 3, 0), VERDICT_FAST, "fast when every read was out of line upwards");
	is_int(kind_of(OUTLIER_NONE, 3, 0, 3), VERDICT_REGRESSED, "regressed when every read was below its baseline");
	is_int(kind_of(OUTLIER_NO_PEERS, 3, 0, 3), VERDICT_REGRESSED, "also with no peers to compare with");
	is_int(kind_of(OUTLIER_NONE, 3, 0, 1), VERDICT_OK, "ok when a re-read was within its baseline");
	is_int(kind_of(OUTLIER_NONE, 1, 0, 0), VERDICT_OK, "ok with nothing flagged");
	is_int(kind_of(OUTLIER_SLOW, 3, 3, 3), VERDICT_SLOW, "slow against its peers wins over the baseline");
	is_int(kind_of(OUTLIER_FAST, 3, 3, 3), VERDICT_FAST, "fast against its peers though below its baseline");
	is_int(kind_of(OUTLIER_SLOW, 3, 2, 3), VERDICT_REGRESSED, "unconfirmed against its peers, confirmed below its baseline");
	is_int(kind_of(OUTLIER_NONE, 3, 3, 0), VERDICT_OK, "reads out of line count only with a slow or fast first read");
	is_int(kind_of(OUTLIER_NONE, 0, 0, 0), VERDICT_OK, "no reads counted: ok, never slow");
}

static void test_confidence(void)
{
	struct disk_verdict v = { .kind = VERDICT_OK, .reads = { .total = 1 } };
	is_int(disk_verdict_confidence(&v), VERDICT_ONE_READ, "ok on one read: nothing to confirm");
	v.reads = (struct verdict_reads){ .total = 3, .out_of_line = 1 };
	is_int(disk_verdict_confidence(&v), VERDICT_DISMISSED, "ok after re-reads: the suspicion dismissed");
	const enum verdict_kind confirmed[] = { VERDICT_SLOW, VERDICT_FAST, VERDICT_REGRESSED, VERDICT_SLOW_TAIL };
	for (size_t i = 0; i < 4; i++) {
		v.kind = confirmed[i];
		is_int(disk_verdict_confidence(&v), VERDICT_CONFIRMED, "an outlier is confirmed by every read");
	}
	v.kind = VERDICT_IO_ERROR;
	is_int(disk_verdict_confidence(&v), VERDICT_BY_DEVICE, "an I/O error is the device's own answer");
	v.kind = VERDICT_NO_RESPONSE;
	is_int(disk_verdict_confidence(&v), VERDICT_BY_DEVICE, "so is no answer");
	const enum verdict_kind none[] = { VERDICT_NOT_JUDGED, VERDICT_CUT_SHORT, VERDICT_NOT_READ, VERDICT_SKIPPED };
	for (size_t i = 0; i < 4; i++) {
		v.kind = none[i];
		is_int(disk_verdict_confidence(&v), VERDICT_UNSUPPORTED, "no evidence on the media: not judged, cut short, not read, skipped");
	}
}

static void test_words(void)
{
	ok(disk_verdict_word(VERDICT_NOT_JUDGED) == NULL, "not judged: no word (null in the document)");
	is_str(disk_verdict_word(VERDICT_OK), "ok", "ok");
	is_str(disk_verdict_word(VERDICT_SLOW), "slow", "slow");
	is_str(disk_verdict_word(VERDICT_REGRESSED), "slow", "a regression is slow, as before");
	is_str(disk_verdict_word(VERDICT_FAST), "fast", "fast");
	is_str(disk_verdict_word(VERDICT_SLOW_TAIL), "slow tail", "slow tail");
	const enum verdict_kind errors[] = { VERDICT_IO_ERROR, VERDICT_NO_RESPONSE, VERDICT_CUT_SHORT, VERDICT_NOT_READ };
	for (size_t i = 0; i < 4; i++)
		is_str(disk_verdict_word(errors[i]), "error", "every failed or refused read is error");
	is_str(disk_verdict_word(VERDICT_SKIPPED), "skipped", "skipped");

	ok(disk_verdict_word_is_outlier("slow"), "a stored slow is an outlier");
	ok(disk_verdict_word_is_outlier("fast"), "a stored fast is an outlier");
	ok(disk_verdict_word_is_outlier("slow tail"), "a stored slow tail is an outlier");
	ok(!disk_verdict_word_is_outlier("ok"), "ok is not");
	ok(!disk_verdict_word_is_outlier("error"), "error is not");
	ok(!disk_verdict_word_is_outlier("skipped"), "skipped is not");
	ok(!disk_verdict_word_is_outlier("Slow") && !disk_verdict_word_is_outlier(""), "nor a word it does not know");
	ok(!disk_verdict_word_is_outlier(NULL), "nor no word");
}

/* Each predicate over every kind, as a string of the kinds it holds for
 * (in enum order: N O S F R T I Q C X K). */
static void holds_for(bool (*pred)(enum verdict_kind), char *buf)
{
	static const char letters[] = "NOSFRTIQCXK";
	size_t n = 0;
	for (int k = 0; k < VERDICT_KIND_COUNT; k++)
		if (pred((enum verdict_kind)k))
			buf[n++] = letters[k];
	buf[n] = '\0';
}

static void test_predicates(void)
{
	char got[16];
	holds_for(disk_verdict_is_slow, got);
	is_str(got, "SR", "slow: against its peers or its baseline");
	holds_for(disk_verdict_out_of_line, got);
	is_str(got, "SFRT", "out of line: slow, fast, regressed or a slow tail");
	holds_for(disk_verdict_suspect, got);
	is_str(got, "SRT", "a media suspect: slow, regressed or a slow tail, never fast");
	holds_for(disk_verdict_read_failed, got);
	is_str(got, "IQC", "a read that failed part way: I/O error, no response, cut short");
	holds_for(disk_verdict_flagged, got);
	is_str(got, "SFRTIQCX", "flagged: anything but not judged, ok and skipped");
}

static void test_reasons(void)
{
	struct disk_verdict v = { .kind = VERDICT_SLOW };
	char s[VERDICT_SENTENCE_LEN];
	disk_verdict_sentence(&v, s, sizeof(s));
	is_str(s, "", "no reason: an empty sentence");
	ok(!disk_verdict_has_reason(&v, REASON_PEERS), "and no reason of any kind");
	disk_verdict_add_reason(&v, REASON_PEERS, true, "sdc reads at 40% of the median of 4 disks");
	disk_verdict_add_reason(&v, REASON_BASELINE, false, "95% of its baseline");
	disk_verdict_add_reason(&v, REASON_HEALTH, true, "SMART FAILED");
	ok(disk_verdict_has_reason(&v, REASON_HEALTH) && !disk_verdict_has_reason(&v, REASON_READ),
	   "has the kinds added, not the others");
	disk_verdict_sentence(&v, s, sizeof(s));
	is_str(s, "sdc reads at 40% of the median of 4 disks; 95% of its baseline; health finding: SMART FAILED",
	       "the reasons in order, the health one introduced");
	disk_verdict_add_reason(&v, REASON_READ, false, "fourth");
	disk_verdict_add_reason(&v, REASON_READ, false, "fifth");
	disk_verdict_add_reason(&v, REASON_LINK, false, "sixth");
	disk_verdict_add_reason(&v, REASON_LINK, false, "seventh");
	is_int(v.reason_count, VERDICT_MAX_REASONS, "no more than VERDICT_MAX_REASONS kept");
	char small[12];
	disk_verdict_sentence(&v, small, sizeof(small));
	is_str(small, "sdc reads a", "cut to the buffer's room");

	/* The sentence's room is the stored sentence's: a long first reason
	 * leaves none for the health finding, as when it was one string. */
	struct disk_verdict full = { .kind = VERDICT_OK };
	char longtext[VERDICT_SENTENCE_LEN + 40];
	memset(longtext, 'x', sizeof(longtext) - 1);
	longtext[sizeof(longtext) - 1] = '\0';
	disk_verdict_add_reason(&full, REASON_PEERS, false, longtext);
	disk_verdict_add_reason(&full, REASON_HEALTH, true, "SMART FAILED");
	disk_verdict_sentence(&full, s, sizeof(s));
	is_int(strlen(s), VERDICT_SENTENCE_LEN - 1, "a full first reason fills the sentence");
	ok(strchr(s, ';') == NULL, "and leaves the health finding out");
}

int main(void)
{
	test_kind_of_reads();
	test_kind_of_tail();
	test_confidence();
	test_words();
	test_predicates();
	test_reasons();
	return tap_done();
}
