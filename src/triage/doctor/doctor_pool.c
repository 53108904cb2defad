/* doctor's pool step: settings, member telemetry and the layout model. */
#include "triage/doctor/doctor_pool.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/log.h"
#include "bench/job.h"
#include "triage/doctor/doctor_judgement.h"

void doctor_pool_before(struct doctor *dr)
{
	pool_evidence_init(&dr->evidence, "DOCTOR");
	pool_evidence_settings(&dr->evidence, &dr->target, NULL, 1U << 20);
	pool_evidence_start(&dr->evidence, &dr->target);
}

/* Step 1's raw read rate of the device at PATH, or 0. */
static double member_rate(const struct doctor *dr, const char *path)
{
	char want[PATH_MAX], got[PATH_MAX];
	if (!realpath(path, want))
		return 0;
	for (size_t i = 0; i < dr->batch.count; i++) {
		const struct disk_read *d = &dr->batch.reads[i];
		if (d->status == READTEST_OK && d->res && realpath(d->info.dev_path, got) && !strcmp(got, want))
			return job_bw_bytes_per_s(d->res);
	}
	return 0;
}

/* The kind with the lowest healthy fraction among the data vdevs. */
static void zfs_kind(struct doctor *dr)
{
	double lowest = 2;
	for (size_t i = 0; i < dr->layout.count; i++) {
		enum layout_kind k;
		unsigned parity;
		if (dr->layout.members[i].klass != POOL_CLASS_DATA ||
		    layout_zfs_vdev_kind(dr->layout.members[i].vdev, dr->layout.pool, &k, &parity) < 0 ||
		    k == LAYOUT_SUPPORT)
			continue;
		double h = doctor_layout_healthy(k, false, true) + doctor_layout_healthy(k, false, false);
		if (h < lowest) {
			lowest = h;
			dr->expect_kind = k;
		}
	}
}

static int expect(struct doctor *dr)
{
	size_t n = dr->layout.count;
	struct layout_rates *rates = calloc(n ? n : 1, sizeof(*rates));
	if (!rates)
		return -1;
	int r = 0;
	for (size_t i = 0; i < n; i++) {
		double bw = member_rate(dr, dr->layout.members[i].path);
		rates[i] = (struct layout_rates){ bw, bw };
		/* Only a data member that serves the layout must have been read. */
		if (bw <= 0 && dr->layout.members[i].klass == POOL_CLASS_DATA &&
		    pool_layout_member_counts(&dr->layout, i))
			r = -1;
		if (bw <= 0)
			rates[i] = (struct layout_rates){ 1, 1 };
	}
	if (r < 0)
		snprintf(dr->expect_why, sizeof(dr->expect_why), "a data member's raw read rate was not measured");
	else if (dr->target.kind->layout == POOL_LAYOUT_VDEVS) {
		r = layout_expect_zfs(&dr->layout, rates, &dr->expect);
		zfs_kind(dr);
	} else if (!dr->evidence.data_profile[0] ||
		   layout_btrfs_profile_kind(dr->evidence.data_profile, &dr->expect_kind) < 0) {
		snprintf(dr->expect_why, sizeof(dr->expect_why), "the btrfs data profile is not known");
		r = -1;
	} else {
		dr->expect_btrfs = true;
		r = layout_expect_btrfs(dr->evidence.data_profile, rates, n, &dr->expect);
	}
	if (r < 0 && !dr->expect_why[0])
		snprintf(dr->expect_why, sizeof(dr->expect_why), "the layout is not one the model knows");
	free(rates);
	return r;
}

void doctor_pool_after(struct doctor *dr)
{
	pool_evidence_stop(&dr->evidence);
	dr->have_expect = expect(dr) == 0;
	if (dr->have_expect)
		log_msg(LOG_INFO, "DOCTOR: the layout (%s) should read at %.1f MB/s and write at %.1f MB/s", dr->expect.basis,
			dr->expect.read_bps / 1e6, dr->expect.write_bps / 1e6);
	else
		log_msg(LOG_WARN, "DOCTOR: no layout expectation: %s", dr->expect_why);
}

size_t doctor_pool_findings(const struct doctor *dr, struct strbuf *out)
{
	const struct pool_findings *lists[] = { &dr->evidence.settings, &dr->evidence.load };
	size_t n = 0;
	for (size_t l = 0; l < 2; l++)
		for (size_t i = 0; i < lists[l]->count; i++, n++) {
			const struct pool_finding *f = &lists[l]->items[i];
			strbuf_addf(out, "%s%s %s (%s; fix: %s)", n ? "; " : "", l ? "member" : f->subject, f->text,
				    f->evidence, f->fix);
		}
	return n;
}

bool doctor_pool_state_stands_out(const struct doctor *dr, struct strbuf *cause)
{
	size_t n = 0;
	const struct pool_findings *f = &dr->evidence.settings;
	for (size_t i = 0; i < f->count; i++) {
		const struct pool_finding *x = &f->items[i];
		bool state = !strcmp(x->code, "scan") || !strcmp(x->code, "vdev-state");
		if (!state && strcmp(x->code, "slow-log") && strcmp(x->code, "slow-special"))
			continue;
		strbuf_addf(cause, "%s%s%s (%s)", n++ ? "; " : "", state ? "the pool is not whole: " : "", x->text,
			    x->evidence);
	}
	return n > 0;
}

bool doctor_pool_judge(struct doctor *dr, struct strbuf *cause)
{
	if (!dr->have_expect) {
		snprintf(dr->layout_sentence, sizeof(dr->layout_sentence), "no layout expectation: %s", dr->expect_why);
		return false;
	}
	const struct layout_expectation *e = &dr->expect;
	double rd = dr->pool_read_bw / e->read_bps, wr = dr->pool_write_bw / e->write_bps;
	snprintf(dr->layout_sentence, sizeof(dr->layout_sentence),
		 "the pool (%s) writes at %.0f%% and reads at %.0f%% of its layout's expectation (%.1f and %.1f MB/s)",
		 e->basis, 100 * wr, 100 * rd, e->write_bps / 1e6, e->read_bps / 1e6);
	bool w = doctor_pool_below_layout(dr->expect_kind, dr->expect_btrfs, false, dr->pool_write_bw, e->write_bps,
					  dr->twin_write_bw);
	bool r = doctor_pool_below_layout(dr->expect_kind, dr->expect_btrfs, true, dr->pool_read_bw, e->read_bps,
					  dr->twin_read_bw);
	if (w || r)
		strbuf_addf(cause, "%s (%s) %s at %.0f%% of its layout's expectation (%.1f MB/s), below the %.0f%% a "
				   "healthy pool of this kind stays above, where the members set the ceiling (the "
				   "expectation is under %.0f%% of the RAM twin's rate)", dr->target.pool, e->basis,
			    w ? "writes" : "reads", 100 * (w ? wr : rd), (w ? e->write_bps : e->read_bps) / 1e6,
			    100 * DOCTOR_LAYOUT_MARGIN * doctor_layout_healthy(dr->expect_kind, dr->expect_btrfs, r && !w),
			    100 * DOCTOR_LAYOUT_TO_TWIN);
	return w || r;
}
