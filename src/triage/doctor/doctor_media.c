/* What doctor's media step names, and why (see doctor_media.h). */
#include "triage/doctor/doctor_media.h"

#include <stdio.h>
#include <stdlib.h>

#include "basic/strbuf.h"
#include "triage/media/read_health.h"
#include "triage/media/read_verdict.h"

static const char *const evidence_words[MEDIA_EVIDENCE_KINDS] = {
	"throughput", "tail latency", "link rate", "health", "read error", "group",
};

const char *media_evidence_word(unsigned bit)
{
	for (unsigned k = 0; k < MEDIA_EVIDENCE_KINDS; k++)
		if (bit == 1u << k)
			return evidence_words[k];
	return NULL;
}

void media_evidence_words(unsigned by, char *buf, size_t len)
{
	size_t used = 0;
	if (len)
		buf[0] = '\0';
	for (unsigned k = 0; k < MEDIA_EVIDENCE_KINDS && used + 1 < len; k++) {
		if (!(by & (1u << k)))
			continue;
		int n = snprintf(buf + used, len - used, "%s%s", used ? ", " : "", evidence_words[k]);
		if (n < 0)
			break;
		used += (size_t)n < len - used ? (size_t)n : len - used - 1;
	}
}

static bool has_reason_against(const struct disk_verdict *v, enum verdict_reason_kind kind)
{
	for (size_t i = 0; i < v->reason_count; i++)
		if (v->reasons[i].kind == kind && v->reasons[i].against)
			return true;
	return false;
}

unsigned doctor_media_disk_evidence(const struct disk_read *d)
{
	const struct disk_verdict *v = &d->verdict;
	unsigned by = 0;
	/* A read that failed part way counts from its status, judged or not: an
	 * interrupt stops the batch before its verdicts. */
	if (disk_verdict_read_failed(read_verdict_kind_of_status(d)))
		by |= MEDIA_BY_READ_ERROR;
	if (disk_verdict_is_slow(v->kind))
		by |= MEDIA_BY_THROUGHPUT;
	if (v->kind == VERDICT_SLOW_TAIL || has_reason_against(v, REASON_LATENCY))
		by |= MEDIA_BY_TAIL;
	if (has_reason_against(v, REASON_LINK))
		by |= MEDIA_BY_LINK;
	if (read_health_failing(d))
		by |= MEDIA_BY_HEALTH;
	return by;
}

/* Which pass names a disk: 0 by its reads, 2 by its link only, 3 by its
 * health only (1 is a slow group's). */
static int disk_rank(unsigned by)
{
	if (by & (MEDIA_BY_THROUGHPUT | MEDIA_BY_TAIL | MEDIA_BY_READ_ERROR))
		return 0;
	return by & MEDIA_BY_LINK ? 2 : 3;
}

static void add_disk(struct media_findings *f, const struct disk_read *d, size_t i, unsigned by)
{
	struct media_named *n = &f->named[f->count++];
	*n = (struct media_named){ .index = i, .by = by };
	snprintf(n->subject, sizeof(n->subject), "%s", d->info.dev_path);
	if (by & MEDIA_BY_READ_ERROR)
		snprintf(n->evidence, sizeof(n->evidence), "%s", d->reason);
	else
		disk_verdict_sentence(&d->verdict, n->evidence, sizeof(n->evidence));
}

static void add_groups(struct media_findings *f, const struct read_groups *g)
{
	for (size_t k = 0; g && k < g->count; k++) {
		const struct read_group *grp = &g->groups[k];
		if (grp->finding.flag != OUTLIER_SLOW)
			continue;
		struct media_named *n = &f->named[f->count++];
		*n = (struct media_named){ .is_group = true, .index = k, .by = MEDIA_BY_GROUP };
		snprintf(n->subject, sizeof(n->subject), "%s", grp->name);
		snprintf(n->evidence, sizeof(n->evidence), "%s", grp->sentence);
	}
}

void doctor_media_judge(const struct read_batch *b, const struct read_groups *groups, struct media_findings *ret)
{
	size_t room = b->count + (groups ? groups->count : 0);
	*ret = (struct media_findings){ .named = xcalloc(room ? room : 1, sizeof(*ret->named)) };
	for (int rank = 0; rank <= 3; rank++) {
		if (rank == 1) {
			add_groups(ret, groups);
			continue;
		}
		for (size_t i = 0; i < b->count; i++) {
			unsigned by = doctor_media_disk_evidence(&b->reads[i]);
			if (by && disk_rank(by) == rank)
				add_disk(ret, &b->reads[i], i, by);
		}
	}
}

void media_findings_release(struct media_findings *f)
{
	free(f->named);
	*f = (struct media_findings){ 0 };
}

void media_findings_json(struct json *j, const char *key, const struct media_findings *f)
{
	json_begin_array(j, key);
	for (size_t i = 0; i < f->count; i++) {
		const struct media_named *n = &f->named[i];
		json_begin_object(j, NULL);
		json_string(j, "subject", n->subject);
		json_string(j, "kind", n->is_group ? "group" : "disk");
		json_begin_array(j, "by");
		for (unsigned k = 0; k < MEDIA_EVIDENCE_KINDS; k++)
			if (n->by & (1u << k))
				json_string(j, NULL, evidence_words[k]);
		json_end_array(j);
		json_string(j, "evidence", n->evidence[0] ? n->evidence : NULL);
		json_end_object(j);
	}
	json_end_array(j);
}
