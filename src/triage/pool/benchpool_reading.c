/* triage/pool/benchpool_reading.c: benchpool's random pass read against the layout (see benchpool_reading.h). */
#include "triage/pool/benchpool_reading.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/log.h"
#include "basic/timeutil.h"
#include "pool/job_gap.h"
#include "pool/zfs_label.h"

void benchpool_reading_init(struct benchpool_reading *r, const struct pool_evidence *e)
{
	memset(r, 0, sizeof(*r));
	r->evidence = e;
	r->record = BENCHPOOL_RANDOM_RECORD;
}

/* The members' kernel names, as diskstats_read takes them. */
static const char **member_names(const struct pool_evidence *e)
{
	const char **names = calloc(e->nmembers ? e->nmembers : 1, sizeof(*names));
	for (size_t i = 0; names && i < e->nmembers; i++)
		names[i] = e->members[i].kname;
	return names;
}

static int read_counters(const struct pool_evidence *e, struct diskstat *ret)
{
	const char **names = member_names(e);
	if (!names)
		return -ENOMEM;
	int rc = diskstats_read(NULL, names, e->nmembers, ret);
	free(names);
	return rc;
}

static void mark_begin(struct benchpool_reading *r)
{
	const struct pool_evidence *e = r->evidence;
	r->have_window = false;
	free(r->begin);
	r->begin = NULL;
	if (!e->sampling || e->nmembers == 0)
		return;
	r->begin = calloc(e->nmembers, sizeof(*r->begin));
	if (r->begin && read_counters(e, r->begin) < 0) {
		free(r->begin);
		r->begin = NULL;
	}
	r->begin_ns = now_ns();
}

static void mark_end(struct benchpool_reading *r)
{
	const struct pool_evidence *e = r->evidence;
	if (!r->begin)
		return;
	double seconds = (double)(now_ns() - r->begin_ns) / 1e9;
	struct diskstat *end = calloc(e->nmembers, sizeof(*end));
	free(r->window);
	r->window = calloc(e->nmembers, sizeof(*r->window));
	int rc = end && r->window ? read_counters(e, end) : -ENOMEM;
	for (size_t i = 0; rc == 0 && i < e->nmembers; i++)
		rc = diskstats_delta(&r->begin[i], &end[i], seconds, &r->window[i]);
	r->have_window = rc == 0;
	free(end);
	free(r->begin);
	r->begin = NULL;
}

void benchpool_reading_mark(void *arg, bool begin)
{
	if (begin)
		mark_begin(arg);
	else
		mark_end(arg);
}

/* The sector ZFS writes: the ashift in a data member's label (the pool's
 * property may say 0, "ZFS chose"), else the property, else the members'
 * largest physical sector, as ZFS would choose. *FROM says which. */
static unsigned pool_sector(const struct pool_evidence *e, const char **from)
{
	for (size_t i = 0; i < e->layout.count; i++) {
		const struct pool_member *m = &e->layout.members[i];
		if (m->klass != POOL_CLASS_DATA || pool_member_unread_reason(m) || !m->path[0])
			continue;
		int ashift = zfs_member_ashift(m->path);
		if (ashift > 0) {
			*from = "the member's label";
			return 1U << ashift;
		}
		break; /* one try: the others were made with the same ashift */
	}
	if (e->ashift > 0 && e->ashift < 24) {
		*from = "the pool's ashift property";
		return 1U << e->ashift;
	}
	*from = "the members' physical sector";
	return e->largest_sector >= 512 ? e->largest_sector : 512;
}

static const struct pb_figure *random_read_figure(const struct pb_outcome *o)
{
	for (size_t i = 0; i < o->nfigures; i++)
		if (o->figures[i].is_read && !strcmp(o->figures[i].label, "random read"))
			return &o->figures[i];
	return NULL;
}

/* Why test O's pass cannot be judged, or NULL when it can. */
static const char *unjudged_reason(const struct benchpool_reading *r, const struct pb_outcome *o,
				   const struct pb_figure **ret)
{
	*ret = random_read_figure(o);
	if (!*ret)
		return NULL; /* no random pass: nothing to say */
	if (!r->evidence->sampling || !r->evidence->layout.nvdevs)
		return "no reading against the layout: the pool's vdevs and members are not known here (ZFS only)";
	if (!r->have_window)
		return "no reading against the layout: the members' counters could not be read around the pass";
	if ((*ret)->seconds <= 0 || (*ret)->bytes == 0)
		return "no reading against the layout: the pass read nothing";
	return "";
}

void benchpool_reading_judge(struct benchpool_reading *r, const struct pb_outcome *o)
{
	const struct pool_evidence *e = r->evidence;
	const struct pb_figure *f;
	const char *why = unjudged_reason(r, o, &f);
	r->note[o->test][0] = '\0';
	if (!why || o->state != PB_RAN)
		return;
	if (!*why && !r->sector) /* one zdb -l a run, whichever passes are judged */
		r->sector = pool_sector(e, &r->sector_source);
	const char *sector_from = r->sector_source;
	unsigned sector = r->sector;
	struct random_member_load *m = calloc(e->nmembers ? e->nmembers : 1, sizeof(*m));
	for (size_t i = 0; m && !*why && i < e->nmembers; i++)
		m[i] = (struct random_member_load){ .vdev = e->members[i].vdev, .reads = (double)r->window[i].reads,
						    .busy_seconds = r->window[i].busy_ms / 1000.0,
						    .window_seconds = f->seconds };
	if (!*why && (!m || random_reading_judge(&e->layout, r->record, sector, m, e->nmembers,
						 (double)f->bytes / BENCHPOOL_RANDOM_IO, f->seconds,
						 &r->readings[o->test]) < 0))
		why = "no reading against the layout: no data vdev member was sampled";
	free(m);
	r->have_window = false;
	if (*why) {
		snprintf(r->note[o->test], sizeof(r->note[o->test]), "%s", why);
		log_msg(LOG_INFO, "BENCHPOOL (%s): %s: %s", e->pool, pb_test_name(o->test), why);
		return;
	}
	const struct random_reading *rr = &r->readings[o->test];
	r->judged[o->test] = true;
	r->sector_from[o->test] = sector_from;
	log_msg(LOG_INFO, "BENCHPOOL (%s): %s: %u-byte sectors (from %s)", e->pool, pb_test_name(o->test), sector,
		sector_from);
	log_msg(rr->layout_limited ? LOG_WARN : LOG_INFO, "BENCHPOOL (%s): %s: %s%s%s", e->pool, pb_test_name(o->test),
		rr->sentence, rr->advice[0] ? "; " : "", rr->advice);
}

void benchpool_reading_gaps(struct benchpool_reading *r, const struct pb_outcome *o, size_t n)
{
	const struct pool_evidence *e = r->evidence;
	for (size_t i = 0; i < n; i++) {
		r->gap[o[i].test][0] = '\0';
		for (size_t k = 0; o[i].state == PB_RAN && k < o[i].nfigures; k++) {
			const struct pb_figure *f = &o[i].figures[k];
			if (f->last_done_seconds > 0 &&
			    job_gap_judge(f->first_done_seconds, f->last_done_seconds, &e->load, e->telemetry_read,
					  r->gap[o[i].test], sizeof(r->gap[o[i].test]))) {
				log_msg(LOG_WARN, "BENCHPOOL (%s): %s %s: %s", e->pool, pb_test_name(o[i].test), f->label,
					r->gap[o[i].test]);
				break;
			}
		}
	}
}

void benchpool_reading_json(struct json *j, const struct benchpool_reading *r, enum pb_test t)
{
	json_string(j, "job_gap", r->gap[t][0] ? r->gap[t] : NULL);
	if (!r->judged[t]) {
		if (r->note[t][0]) {
			json_begin_object(j, "random_reading");
			json_string(j, "note", r->note[t]);
			json_end_object(j);
		}
		return;
	}
	const struct random_reading *rr = &r->readings[t];
	json_begin_object(j, "random_reading");
	json_bool(j, "layout_limited", rr->layout_limited);
	json_bool(j, "disk_bound", rr->disk_bound);
	json_double(j, "measured_read_iops", rr->measured_iops);
	json_double(j, "expected_read_iops", rr->expected_iops);
	json_double(j, "one_member_per_read_iops", rr->one_member_iops);
	json_double(j, "member_reads_per_read", rr->member_reads_per_read);
	json_double(j, "median_member_busy", rr->median_busy);
	json_uint(j, "record_bytes", rr->record);
	json_uint(j, "sector_bytes", rr->sector);
	json_string(j, "sector_source", r->sector_from[t]);
	json_begin_array(j, "vdevs");
	for (size_t i = 0; i < rr->nvdevs; i++) {
		json_begin_object(j, NULL);
		json_string(j, "name", rr->vdevs[i].name);
		json_uint(j, "members", rr->vdevs[i].members);
		json_uint(j, "members_per_read", rr->vdevs[i].touched);
		json_double(j, "member_read_capacity", rr->vdevs[i].capacity);
		json_double(j, "expected_read_iops", rr->vdevs[i].expected);
		json_end_object(j);
	}
	json_end_array(j);
	json_string(j, "reading", rr->sentence);
	json_string(j, "advice", rr->advice[0] ? rr->advice : NULL);
	json_end_object(j);
}

void benchpool_reading_release(struct benchpool_reading *r)
{
	free(r->begin);
	free(r->window);
	r->begin = NULL;
	r->window = NULL;
}
