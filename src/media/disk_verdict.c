/* media/disk_verdict.c: the verdict type's rules (see disk_verdict.h). */
#include "media/disk_verdict.h"

#include <stdio.h>
#include <string.h>

enum verdict_kind disk_verdict_kind_of_reads(enum outlier_flag first, enum outlier_flag tail,
					     const struct verdict_reads *reads)
{
	bool confirmed = reads->out_of_line && reads->out_of_line == reads->total;
	bool regressed = reads->below_baseline && reads->below_baseline == reads->total;
	bool tail_confirmed = reads->tail_out_of_line && reads->tail_out_of_line == reads->total;
	if (confirmed && first == OUTLIER_SLOW)
		return VERDICT_SLOW;
	if (confirmed && first == OUTLIER_FAST)
		return VERDICT_FAST;
	if (regressed)
		return VERDICT_REGRESSED;
	return tail_confirmed && tail == VERDICT_TAIL_HIGH ? VERDICT_SLOW_TAIL : VERDICT_OK;
}

enum verdict_confidence disk_verdict_confidence(const struct disk_verdict *v)
{
	switch (v->kind) {
	case VERDICT_OK:
		return v->reads.total > 1 ? VERDICT_DISMISSED : VERDICT_ONE_READ;
	case VERDICT_SLOW:
	case VERDICT_FAST:
	case VERDICT_REGRESSED:
	case VERDICT_SLOW_TAIL:
		return VERDICT_CONFIRMED;
	case VERDICT_IO_ERROR:
	case VERDICT_NO_RESPONSE:
		return VERDICT_BY_DEVICE;
	case VERDICT_NOT_JUDGED:
	case VERDICT_CUT_SHORT:
	case VERDICT_NOT_READ:
	case VERDICT_SKIPPED:
		break;
	}
	return VERDICT_UNSUPPORTED;
}

const char *disk_verdict_word(enum verdict_kind k)
{
	switch (k) {
	case VERDICT_NOT_JUDGED:
		return NULL;
	case VERDICT_OK:
		return "ok";
	case VERDICT_SLOW:
	case VERDICT_REGRESSED:
		return "slow";
	case VERDICT_FAST:
		return "fast";
	case VERDICT_SLOW_TAIL:
		return "slow tail";
	case VERDICT_IO_ERROR:
	case VERDICT_NO_RESPONSE:
	case VERDICT_CUT_SHORT:
	case VERDICT_NOT_READ:
		return "error";
	case VERDICT_SKIPPED:
		return "skipped";
	}
	return NULL;
}

bool disk_verdict_word_is_outlier(const char *word)
{
	if (!word)
		return false;
	/* A stored document has the word only: any kind it could stand for. */
	for (int k = 0; k < VERDICT_KIND_COUNT; k++) {
		enum verdict_kind kind = (enum verdict_kind)k;
		const char *w = disk_verdict_word(kind);
		if (disk_verdict_out_of_line(kind) && w && strcmp(w, word) == 0)
			return true;
	}
	return false;
}

bool disk_verdict_is_slow(enum verdict_kind k)
{
	return k == VERDICT_SLOW || k == VERDICT_REGRESSED;
}

bool disk_verdict_out_of_line(enum verdict_kind k)
{
	return k == VERDICT_SLOW || k == VERDICT_FAST || k == VERDICT_REGRESSED || k == VERDICT_SLOW_TAIL;
}

bool disk_verdict_suspect(enum verdict_kind k)
{
	return k == VERDICT_SLOW || k == VERDICT_REGRESSED || k == VERDICT_SLOW_TAIL;
}

bool disk_verdict_read_failed(enum verdict_kind k)
{
	return k == VERDICT_IO_ERROR || k == VERDICT_NO_RESPONSE || k == VERDICT_CUT_SHORT;
}

bool disk_verdict_flagged(enum verdict_kind k)
{
	return k != VERDICT_NOT_JUDGED && k != VERDICT_OK && k != VERDICT_SKIPPED;
}

void disk_verdict_add_reason(struct disk_verdict *v, enum verdict_reason_kind kind, bool against,
			     const char *evidence)
{
	if (v->reason_count >= VERDICT_MAX_REASONS)
		return;
	struct verdict_reason *r = &v->reasons[v->reason_count++];
	r->kind = kind;
	r->against = against;
	snprintf(r->evidence, sizeof(r->evidence), "%s", evidence);
}

bool disk_verdict_has_reason(const struct disk_verdict *v, enum verdict_reason_kind kind)
{
	for (size_t i = 0; i < v->reason_count; i++)
		if (v->reasons[i].kind == kind)
			return true;
	return false;
}

void disk_verdict_sentence(const struct disk_verdict *v, char *buf, size_t len)
{
	if (!len)
		return;
	buf[0] = '\0';
	size_t used = 0;
	for (size_t i = 0; i < v->reason_count && used + 1 < len; i++) {
		const struct verdict_reason *r = &v->reasons[i];
		int n = snprintf(buf + used, len - used, "%s%s%s", i ? "; " : "",
				 r->kind == REASON_HEALTH ? "health finding: " : "", r->evidence);
		if (n < 0)
			break;
		used += (size_t)n < len - used ? (size_t)n : len - used - 1;
	}
}
