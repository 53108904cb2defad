/* The links of a read batch's disks: read before the pass, judged after
 * the verdicts (see read_link.h). */
#include "triage/media/read_link.h"

#include <stdio.h>
#include <string.h>

#include "basic/log.h"
#include "triage/media/read_health.h"

size_t read_link_gather(const char *sysfs_root, struct disk_read *reads, size_t count)
{
	size_t with = 0;
	for (size_t i = 0; i < count; i++) {
		struct disk_read *d = &reads[i];
		if (d->link_read || d->status == READTEST_SKIPPED || !d->info.kname[0] ||
		    !read_health_sweepable(&d->info))
			continue;
		if (disk_link_read(sysfs_root, d->info.kname, &d->link) < 0)
			continue;
		d->link_read = true;
		with += d->link.count > 0;
		const struct link_hop *bad = disk_link_first_degraded(&d->link);
		if (bad) {
			char words[256];
			disk_link_hop_words(bad, words, sizeof(words));
			log_msg(LOG_WARN, "READ-DISK (%s): %s", d->info.dev_path, words);
		}
	}
	return with;
}

static const char *fix_of(const struct link_hop *h)
{
	switch (h->kind) {
	case LINK_PCIE:
		return "reseat the drive or check the slot";
	case LINK_SATA:
		return "replace the SATA cable or try another port";
	default:
		return "check the cables and connectors of that link";
	}
}

bool read_link_judge(const char *kname, const struct disk_link *l, double rate, bool slow, struct disk_verdict *v)
{
	if (disk_verdict_has_reason(v, REASON_LINK))
		return false;
	const struct link_hop *bad = disk_link_first_degraded(l);
	const struct link_hop *narrow = disk_link_narrowest(l);
	char words[256], text[VERDICT_SENTENCE_LEN];
	if (bad) {
		disk_link_hop_words(bad, words, sizeof(words));
		double carries = disk_link_hop_carries(bad);
		if (slow && rate >= READ_LINK_CEILING_SHARE * carries)
			snprintf(text, sizeof(text), "%s: %s; its read rate %.0f MB/s is what that link carries: %s", kname,
				 words, rate / 1e6, fix_of(bad));
		else
			snprintf(text, sizeof(text), "%s: %s: %s", kname, words, fix_of(bad));
		disk_verdict_add_reason(v, REASON_LINK, true, text);
		return true;
	}
	if (!narrow || rate <= 0 || rate < READ_LINK_CEILING_SHARE * disk_link_hop_carries(narrow))
		return false;
	char now[40];
	disk_link_rate_words(narrow->kind, narrow->speed, narrow->width, now, sizeof(now));
	snprintf(text, sizeof(text), "%s: its %s link %s at %s carries %.0f MB/s, its read rate %.0f MB/s: the "
		 "link is its ceiling", kname, disk_link_kind_name(narrow->kind), narrow->name, now,
		 disk_link_hop_carries(narrow) / 1e6, rate / 1e6);
	disk_verdict_add_reason(v, REASON_LINK, slow, text);
	return slow;
}

void read_link_add_smart(struct disk_link *l, const struct smart_health *h)
{
	if (l->count == 0 || l->hops[0].kind != LINK_SATA)
		return;
	struct link_hop *hop = &l->hops[0];
	if (hop->below.speed <= 0 && h->sata_max_gbps > 0)
		hop->below.speed = h->sata_max_gbps;
	if (hop->speed <= 0 && h->sata_current_gbps > 0)
		hop->speed = h->sata_current_gbps;
}

size_t read_link_note(struct disk_read *reads, size_t count)
{
	size_t degraded = 0;
	for (size_t i = 0; i < count; i++) {
		struct disk_read *d = &reads[i];
		if (!d->link_read || d->verdict.kind == VERDICT_NOT_JUDGED || disk_verdict_has_reason(&d->verdict, REASON_LINK))
			continue;
		if (d->health_checked)
			read_link_add_smart(&d->link, &d->health);
		double rate = d->status == READTEST_OK && d->res ? job_bw_bytes_per_s(d->res) : 0;
		read_link_judge(d->info.kname, &d->link, rate, disk_verdict_is_slow(d->verdict.kind), &d->verdict);
		const struct verdict_reason *r = NULL;
		for (size_t k = 0; k < d->verdict.reason_count; k++)
			if (d->verdict.reasons[k].kind == REASON_LINK)
				r = &d->verdict.reasons[k];
		if (r)
			log_msg(r->against ? LOG_WARN : LOG_INFO, "READ-DISK (%s): %s", d->info.dev_path, r->evidence);
		degraded += read_link_degraded(d);
	}
	return degraded;
}

bool read_link_degraded(const struct disk_read *d)
{
	return d->link_read && disk_link_first_degraded(&d->link) != NULL;
}

void read_link_cell(const struct disk_read *d, char *buf, size_t len)
{
	if (!d->link_read) {
		snprintf(buf, len, "%s", "");
		return;
	}
	disk_link_cell(&d->link, buf, len);
}

static void json_end(struct json *j, const char *key, const struct link_hop *h, const struct link_end *e)
{
	json_begin_object(j, key);
	if (e->speed > 0)
		json_double(j, h->kind == LINK_PCIE ? "gt_per_s" : "gbit_per_s", e->speed);
	else
		json_null(j, h->kind == LINK_PCIE ? "gt_per_s" : "gbit_per_s");
	if (e->width)
		json_uint(j, "width", e->width);
	else
		json_null(j, "width");
	json_end_object(j);
}

void read_link_json(struct json *j, const struct disk_read *d)
{
	if (!d->link_read)
		return;
	const struct disk_link *l = &d->link;
	const struct link_hop *narrow = disk_link_narrowest(l);
	json_begin_object(j, "link");
	json_bool(j, "degraded", disk_link_first_degraded(l) != NULL);
	json_string(j, "narrowest", narrow ? narrow->name : NULL);
	if (narrow)
		json_double(j, "ceiling_bytes_per_s", disk_link_hop_carries(narrow));
	else
		json_null(j, "ceiling_bytes_per_s");
	json_begin_array(j, "hops");
	for (size_t i = 0; i < l->count; i++) {
		const struct link_hop *h = &l->hops[i];
		json_begin_object(j, NULL);
		json_string(j, "kind", disk_link_kind_name(h->kind));
		json_string(j, "name", h->name);
		json_end(j, "negotiated", h, &(struct link_end){ h->speed, h->width });
		json_end(j, "max_below", h, &h->below);
		json_end(j, "max_above", h, &h->above);
		if (h->os_limit > 0)
			json_double(j, "kernel_limit_gbit_per_s", h->os_limit);
		json_double(j, "carries_bytes_per_s", disk_link_hop_carries(h));
		json_bool(j, "degraded", disk_link_degraded(h));
		char words[256];
		disk_link_hop_words(h, words, sizeof(words));
		json_string(j, "sentence", words);
		json_end_object(j);
	}
	json_end_array(j);
	json_end_object(j);
}
