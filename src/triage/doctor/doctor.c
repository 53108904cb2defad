/* doctor: the method's order, budgets and teardown (triage/doctor/doctor.h). */
#include "triage/doctor/doctor.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "basic/interrupt.h"
#include "basic/log.h"
#include "basic/timeutil.h"
#include "triage/doctor/doctor_ceph.h"
#include "triage/doctor/doctor_steps.h"
#include "triage/doctor/doctor_wire.h"
#include "triage/pool/pool_sync_probe.h"

#define LAB_MEMBER_SIZE (192ULL << 20)
#define LAB_SLOW_RATE (12ULL << 20)

const char *const doctor_step_names[DOCTOR_STEPS] = { "media", "network", "ram", "pool" };
const char *const doctor_step_titles[DOCTOR_STEPS] = { "media", "network", "RAM disk (media factored out)", "pool" };

static const struct doctor_budget quick_budget = { 64ULL << 20, 10, 1000000000ULL, 64ULL << 20, 20 };
static const struct doctor_budget full_budget = { 1000ULL << 20, 120, 2000000000ULL, 1ULL << 30, 60 };

/* The most the run can take: every cap reached, one disk re-read twice. */
static void estimate(struct doctor *dr, size_t ndisks)
{
	const struct doctor_budget *b = dr->budget;
	dr->steps[0].budget_s = (unsigned)(ndisks + 2) * b->read_cap_s;
	dr->steps[1].budget_s = dr->set.lab || dr->set.skip_network ? 0 : (unsigned)(b->window_ns / 1000000000ULL) + 30;
	dr->steps[2].budget_s = dr->have_pool ? 2 * b->workload_cap_s + 30 : b->read_cap_s + 5;
	if (dr->set.client_via) /* three workloads on each side, the client's connect and the RAM disk's fill */
		dr->steps[2].budget_s += 2 * WIRE_WORKLOADS * doctor_wire_runtime_s(dr) + 60;
	dr->steps[3].budget_s = dr->have_pool ? 2 * b->workload_cap_s + 30 : 0;
	if (dr->have_pool && pool_has_log(&dr->layout)) /* the sync-write probe, and its area */
		dr->steps[3].budget_s += POOL_SYNC_PROBE_SECONDS + 10;
	dr->estimate_s = 0;
	for (int i = 0; i < 4; i++)
		dr->estimate_s += dr->steps[i].budget_s;
}

static void run_step(struct doctor *dr, int i, void (*fn)(struct doctor *))
{
	if (interrupt_requested())
		return;
	log_msg(LOG_INFO, "DOCTOR: step %d (%s): starting, budget %u s", i + 1, doctor_step_titles[i], dr->steps[i].budget_s);
	/* The done units are the budgets of the steps before: a step that ran
	 * (or was passed over) counts all of its budget. */
	uint64_t before = 0;
	for (int k = 0; k < i; k++)
		before += dr->steps[k].budget_s;
	progress_set(dr->set.progress, before);
	progress_what(dr->set.progress, "step %d of %d: %s", i + 1, DOCTOR_STEPS, doctor_step_titles[i]);
	uint64_t t0 = now_ns();
	fn(dr);
	progress_set(dr->set.progress, before + dr->steps[i].budget_s);
	dr->steps[i].seconds = (double)(now_ns() - t0) / 1e9;
	log_msg(dr->steps[i].explains ? LOG_WARN : LOG_INFO, "DOCTOR: step %d (%s): %s", i + 1, doctor_step_titles[i],
		dr->steps[i].summary);
}


/* The lab (with --lab) and the pool to diagnose. Returns 0 or -errno (logged). */
static int set_up(struct doctor *dr)
{
	const char *pool_id = dr->set.pool_id;
	if (dr->set.lab) {
		int r = lab_build(dr->run_id, dr->set.fault, LAB_MEMBER_SIZE, LAB_SLOW_RATE, &dr->lab);
		if (r < 0)
			return r;
		pool_id = dr->lab.pool; /* a ZFS pool's name, or a btrfs label */
	}
	if (!pool_id)
		return 0;
	int r = pool_target_resolve(pool_id, NULL, &dr->target);
	if (r < 0)
		return r;
	if (!dr->target.kind->pool) {
		log_msg(LOG_ERR, "DOCTOR: '%s' is %s, not a pool: run doctor without it, or benchpool on it", pool_id,
			dr->target.kind->what);
		return -EINVAL;
	}
	dr->have_pool = true;
	return 0;
}

/* Steps 1 to 4, each only when no step before it explained the complaint. */
static void run_steps(struct doctor *dr)
{
	run_step(dr, 0, doctor_step_media);
	if (dr->steps[0].state == STEP_NOT_RUN)
		doctor_media_not_read(dr); /* interrupted before step 1: its disks were listed, never read */
	if (!dr->steps[0].explains)
		run_step(dr, 1, doctor_step_network);
	if (!dr->steps[0].explains && !dr->steps[1].explains)
		run_step(dr, 2, doctor_step_ram);
	if (dr->have_pool && !dr->steps[0].explains && !dr->steps[1].explains && !interrupt_requested())
		run_step(dr, 3, doctor_step_pool);
}

static void conclude(struct doctor *dr)
{
	if (!dr->verdict.layer && dr->steps[0].state == STEP_FAILED) {
		doctor_undetermined(dr);
		log_msg(LOG_ERR, "DOCTOR: no verdict: the media could not be measured: %s", dr->steps[0].summary);
	} else if (!dr->verdict.layer) {
		doctor_no_layer(dr);
	}
	if (!interrupt_requested() && !dr->verdict.undetermined)
		log_msg(dr->verdict.layer ? LOG_WARN : LOG_INFO, "DOCTOR: verdict: %s%s%s: %s",
			dr->verdict.layer ? "the " : "no layer stands out", dr->verdict.layer ? dr->verdict.layer : "",
			dr->verdict.layer ? " layer" : "", dr->verdict.evidence);
}

int doctor_run(struct doctor *dr, const struct doctor_settings *set, const char *run_id, const char *db_path)
{
	dr->set = *set;
	dr->lab.slowed = -1;
	dr->budget = set->quick || set->lab ? &quick_budget : &full_budget;
	snprintf(dr->run_id, sizeof(dr->run_id), "%s", run_id);
	dr->db_path = db_path;
	int stale = lab_remove_stale();
	if (stale > 0)
		log_msg(LOG_INFO, "DOCTOR: removed %d leftover(s) of killed runs", stale);
	int r = set_up(dr);
	if (r == 0) {
		doctor_media_prepare(dr);
		estimate(dr, dr->batch.count - read_batch_count(&dr->batch, READTEST_SKIPPED));
		doctor_ceph_estimate(dr);
		log_msg(LOG_INFO, "DOCTOR: %s run on %s: at most about %u min %02u s (media %u s, network %u s, RAM %u s, pool %u s)",
			dr->budget == &quick_budget ? "a quick" : "a full", dr->have_pool ? dr->target.pool : "every disk",
			dr->estimate_s / 60, dr->estimate_s % 60, dr->steps[0].budget_s, dr->steps[1].budget_s,
			dr->steps[2].budget_s, dr->steps[3].budget_s);
		progress_start(dr->set.progress, dr->estimate_s, false);
		run_steps(dr);
		progress_finish(dr->set.progress);
		conclude(dr);
	}
	dr->setup_failed = r < 0;
	pool_twin_destroy(&dr->twin);
	if (dr->lab.slowed >= 0)
		snprintf(dr->lab_slowed, sizeof(dr->lab_slowed), "%s", dr->lab.loops[dr->lab.slowed].path);
	if (set->lab)
		lab_destroy(&dr->lab);
	return r;
}

void doctor_release(struct doctor *dr)
{
	read_batch_release(&dr->batch);
	media_findings_release(&dr->media_named);
	pool_layout_release(&dr->layout);
	pool_evidence_release(&dr->evidence);
	ceph_step_release(&dr->ceph);
}
