/* doctor's four steps and its verdicts (triage/doctor/doctor_steps.h). */
#include "triage/doctor/doctor_steps.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "basic/humanize.h"
#include "basic/interrupt.h"
#include "basic/log.h"
#include "basic/strbuf.h"
#include "lab/loopdev.h"
#include "media/outlier.h"
#include "pool/areas.h"
#include "triage/doctor/doctor_ceph.h"
#include "triage/doctor/doctor_judgement.h"
#include "triage/doctor/doctor_media.h"
#include "triage/doctor/doctor_pool.h"
#include "triage/doctor/doctor_wire.h"
#include "triage/network/netcheck.h"
#include "triage/media/read_group.h"
#include "triage/media/read_health.h"
#include "triage/media/read_pool.h"
#include "triage/media/read_verdict.h"
#include "triage/pool/pool_sync_probe.h"

/* ---- step 1: media ---- */

int doctor_media_prepare(struct doctor *dr)
{
	struct read_batch *b = &dr->batch;
	*b = (struct read_batch){ .regression_pct = DEFAULT_REGRESSION_PCT, .group_by = dr->have_pool ? READ_GROUP_VDEV : READ_GROUP_NONE };
	readtest_opts_default(&b->opts);
	b->remote = dr->set.remote;
	b->opts.size = dr->budget->read_size;
	b->opts.runtime_ns = (uint64_t)dr->budget->read_cap_s * 1000000000ULL;
	b->opts.progress = NULL;
	int r = dr->have_pool ? pool_read_batch_prepare(doctor_members_id(dr), b, &dr->layout)
			      : read_batch_add_system_disks(b, NULL, 0);
	if (r < 0) {
		snprintf(dr->steps[0].summary, sizeof(dr->steps[0].summary), "cannot list the %s: %s",
			 dr->have_pool ? "pool's members" : "disks", strerror(-r));
		dr->steps[0].state = STEP_FAILED;
	}
	return r;
}

/* Disks listed but never read are skipped, with the reason, not left
 * looking like reads that succeeded. */
void doctor_media_not_read(struct doctor *dr)
{
	for (size_t i = 0; i < dr->batch.count; i++) {
		struct disk_read *d = &dr->batch.reads[i];
		if (d->status == READTEST_OK && !d->res) {
			d->status = READTEST_SKIPPED;
			snprintf(d->reason, sizeof(d->reason), "not read: interrupted");
		}
	}
}

/* One named disk's confidence (how its evidence was had, its health
 * beside it) and next step. */
static void media_disk_evidence(const struct disk_read *d, unsigned by, struct strbuf *conf, struct strbuf *next)
{
	const struct disk_verdict *v = &d->verdict;
	const char *sep = conf->len ? "; " : "";
	if (by & MEDIA_BY_THROUGHPUT)
		strbuf_addf(conf, "%s%s: %u of %u reads out of line%s", sep, d->info.dev_path,
			    v->reads.out_of_line ? v->reads.out_of_line : v->reads.below_baseline, v->reads.total,
			    v->peers.flag == OUTLIER_NO_PEERS ? " (against its baseline)" : "");
	else if (by & MEDIA_BY_TAIL)
		strbuf_addf(conf, "%s%s: %u of %u reads with a p99 latency out of line", sep, d->info.dev_path,
			    v->reads.tail_out_of_line, v->reads.total);
	else if ((by & MEDIA_BY_READ_ERROR) && read_verdict_kind_of_status(d) == VERDICT_NO_RESPONSE)
		strbuf_addf(conf, "%s%s: the disk did not answer within %u s", sep, d->info.dev_path, d->timeout_s);
	else if (by & MEDIA_BY_READ_ERROR)
		strbuf_addf(conf, "%s%s: the read failed with an I/O error", sep, d->info.dev_path);
	else if (by & MEDIA_BY_LINK)
		strbuf_addf(conf, "%s%s: the kernel's own state of its link (sysfs)", sep, d->info.dev_path);
	else
		strbuf_addf(conf, "%s%s: the drive's own health report", sep, d->info.dev_path);
	if (d->health_checked) {
		char health[600];
		read_health_describe(d, health, sizeof(health));
		strbuf_addf(conf, " (health: %s)", health);
	}
	if (by == MEDIA_BY_LINK)
		strbuf_addf(next, "%sfix %s's link as its finding says, then re-test it (iotriage readdisk %s)",
			    next->len ? "; " : "", d->info.dev_path, d->info.dev_path);
	else
		strbuf_addf(next, "%sreplace or re-test %s (iotriage readdisk %s; check its cable, slot and SMART)",
			    next->len ? "; " : "", d->info.dev_path, d->info.dev_path);
}

/* A slow group's confidence and next step. */
static void media_group_evidence(const struct read_batch *b, const struct read_group *g, struct strbuf *conf,
				 struct strbuf *next)
{
	strbuf_addf(conf, "%s%s %s: its median out of line with %zu other %ss' (robust z %.1f)", conf->len ? "; " : "",
		    read_group_by_name(b->group_by), g->name, g->finding.set_size ? g->finding.set_size - 1 : 0,
		    read_group_by_name(b->group_by), g->finding.robust_z);
	strbuf_addf(next, "%sread %s's disks alone and together (iotriage readdisks --group-by %s --mode both) and "
		    "check what they share: the controller, expander, cable or backplane", next->len ? "; " : "",
		    g->name, read_group_by_name(b->group_by));
}

/* Every named disk and group in the verdict: the subject is the first. */
static void media_verdict(struct doctor *dr, size_t ok, const struct read_groups *groups)
{
	const struct media_findings *f = &dr->media_named;
	struct strbuf ev = STRBUF_INIT, conf = STRBUF_INIT, next = STRBUF_INIT;
	for (size_t i = 0; i < f->count; i++) {
		const struct media_named *n = &f->named[i];
		char words[80];
		media_evidence_words(n->by, words, sizeof(words));
		strbuf_addf(&ev, "%s%s (%s): %s", ev.len ? "; " : "", n->subject, words, n->evidence);
		if (n->is_group)
			media_group_evidence(&dr->batch, &groups->groups[n->index], &conf, &next);
		else
			media_disk_evidence(&dr->batch.reads[n->index], n->by, &conf, &next);
	}
	dr->steps[0].explains = true;
	dr->verdict.layer = "media";
	snprintf(dr->verdict.subject, sizeof(dr->verdict.subject), "%s", f->named[0].subject);
	snprintf(dr->verdict.evidence, sizeof(dr->verdict.evidence), "%s", ev.buf);
	snprintf(dr->verdict.confidence, sizeof(dr->verdict.confidence), "%s", conf.buf);
	snprintf(dr->verdict.next, sizeof(dr->verdict.next), "%s, before tuning anything above it", next.buf);
	snprintf(dr->steps[0].summary, sizeof(dr->steps[0].summary), "%zu disk(s) read; %s", ok, ev.buf);
	strbuf_release(&ev);
	strbuf_release(&conf);
	strbuf_release(&next);
}

/* Nothing measured: say what stopped each read, not "no disk stands out". */
static void media_nothing_read(struct doctor *dr)
{
	const struct read_batch *b = &dr->batch;
	struct strbuf why = STRBUF_INIT;
	dr->steps[0].state = STEP_FAILED;
	for (size_t i = 0; i < b->count; i++)
		if (b->reads[i].status == READTEST_ERROR)
			strbuf_addf(&why, "%s%s: %s", why.len ? "; " : "", b->reads[i].info.dev_path, b->reads[i].reason);
	snprintf(dr->steps[0].summary, sizeof(dr->steps[0].summary), "no disk could be read (%s)",
		 why.len ? why.buf : "every disk was skipped: see the skipped list");
	strbuf_release(&why);
}

void doctor_step_media(struct doctor *dr)
{
	struct doctor_step *s = &dr->steps[0];
	struct read_batch *b = &dr->batch;
	if (s->state == STEP_FAILED)
		return; /* media_prepare said why */
	/* The batch's bytes move doctor's line through the media step's budget. */
	struct progress_nest nest;
	char prefix[64];
	snprintf(prefix, sizeof(prefix), "%s", dr->set.progress ? dr->set.progress->what : "");
	b->progress = progress_nest(&nest, dr->set.progress, s->budget_s, prefix);
	read_batch_execute(b);
	b->progress = NULL;
	read_batch_conclude(b, dr->db_path);
	dr->media_median_bw = b->median_bw;
	s->state = STEP_RAN;
	size_t ok = read_batch_count(b, READTEST_OK);
	struct read_groups groups;
	read_groups_build(b, &groups);
	doctor_media_judge(b, &groups, &dr->media_named);
	if (dr->media_named.count) {
		media_verdict(dr, ok, &groups);
	} else if (ok == 0) {
		media_nothing_read(dr);
	} else {
		char med[32];
		human_rate(b->median_bw, med, sizeof(med));
		snprintf(s->summary, sizeof(s->summary), "%zu disk(s) read, median %s; no disk stands out from its peers "
			 "or its baseline%s", ok, med, ok < OUTLIER_MIN_SET ? " (too few to compare)" : "");
	}
	doctor_ceph_media(dr); /* a Ceph pool's OSDs benched (nothing elsewhere) */
	read_groups_release(&groups);
}

/* ---- step 2: network ---- */

void doctor_step_network(struct doctor *dr)
{
	struct doctor_step *s = &dr->steps[1];
	if (dr->set.lab || dr->set.skip_network) {
		s->state = STEP_SKIPPED;
		snprintf(s->summary, sizeof(s->summary), "%s", dr->set.lab ? "the lab's pool is local: no network in its path"
									     : "skipped (--no-network)");
		return;
	}
	struct netcheck *nc = xcalloc(1, sizeof(*nc));
	char towards[600] = "";
	if (doctor_is_ceph(dr) && !doctor_ceph_network(dr, nc, towards, sizeof(towards))) {
		free(nc);
		return;
	}
	nc->window_ns = dr->budget->window_ns;
	netcheck_gather(nc);
	netcheck_judge(nc);
	s->state = nc->errors ? STEP_FAILED : STEP_RAN;
	const struct nc_finding *problem = NULL;
	size_t problems = 0;
	for (size_t i = 0; i < nc->nfindings; i++)
		if (strcmp(nc->findings[i].severity, "problem") == 0) {
			problem = problem ? problem : &nc->findings[i];
			problems++;
		}
	if (problem) {
		s->explains = true;
		dr->verdict.layer = "network";
		snprintf(dr->verdict.subject, sizeof(dr->verdict.subject), "%s", problem->subject);
		snprintf(dr->verdict.evidence, sizeof(dr->verdict.evidence), "%s", problem->sentence);
		snprintf(dr->verdict.confidence, sizeof(dr->verdict.confidence),
			 "%zu network finding(s) from live probes and the kernel's own tables", problems);
		snprintf(dr->verdict.next, sizeof(dr->verdict.next), "%s", problem->fix);
		snprintf(s->summary, sizeof(s->summary), "%zu port(s), %zu destination(s)%s%s; %s", nc->links.n,
			 nc->ndests, towards[0] ? " " : "", towards, problem->sentence);
	} else {
		snprintf(s->summary, sizeof(s->summary), "%zu port(s), %zu destination(s) probed%s%s; no network finding%s",
			 nc->links.n, nc->ndests, towards[0] ? " " : "", towards,
			 nc->errors ? " (some checks could not be made)" : "");
	}
	netcheck_release(nc);
	free(nc);
}

/* ---- steps 3 and 4: the RAM twin and the pool ---- */

static void figures_of(const struct pb_outcome *o, double *write_bw, double *read_bw)
{
	for (size_t i = 0; i < o->nfigures; i++)
		*(o->figures[i].is_read ? read_bw : write_bw) = o->figures[i].bw_bytes_per_s;
}

/* A loop device on a file in /dev/shm, or the reason in BUF naming what is
 * missing: a minimal system may have no /dev/shm, or something else than
 * memory mounted there, or no loop module loaded. */
static int make_ram_loop(uint64_t size, struct loopdev *ram, char *buf, size_t len)
{
	struct statfs sf;
	if (statfs("/dev/shm", &sf) < 0) {
		snprintf(buf, len, "cannot make a RAM disk: there is no /dev/shm (no tmpfs mounted there)");
		return -ENOENT;
	}
	if (sf.f_type != TMPFS_MAGIC && sf.f_type != RAMFS_MAGIC) { /* devtmpfs is a tmpfs too */
		snprintf(buf, len, "cannot make a RAM disk: /dev/shm is not a tmpfs (a file there is not memory)");
		return -ENOTSUP;
	}
	int r = loopdev_create("/dev/shm", size, 512, ram);
	if (r == -ENOENT && access("/dev/loop-control", F_OK) < 0)
		snprintf(buf, len, "cannot make a RAM disk: there is no /dev/loop-control (the loop module is not loaded)");
	else if (r < 0)
		snprintf(buf, len, "cannot make a RAM disk (a loop device on a file in /dev/shm): %s", strerror(-r));
	return r;
}

static void step_ram_disk_only(struct doctor *dr)
{
	struct doctor_step *s = &dr->steps[2];
	struct loopdev ram = LOOPDEV_INIT;
	if (make_ram_loop(dr->budget->read_size, &ram, s->summary, sizeof(s->summary)) < 0) {
		s->state = STEP_FAILED;
		return;
	}
	struct disk_read d = { .status = READTEST_OK };
	read_describe_path(ram.path, &d.info);
	readtest_run(&d, &dr->batch.opts);
	if (d.status == READTEST_OK)
		dr->ram_disk_bw = job_bw_bytes_per_s(d.res);
	disk_read_release(&d);
	loopdev_destroy(&ram);
	s->state = d.status == READTEST_OK ? STEP_RAN : STEP_FAILED;
	char ram_rate[32], med[32];
	human_rate(dr->ram_disk_bw, ram_rate, sizeof(ram_rate));
	human_rate(dr->media_median_bw, med, sizeof(med));
	if (dr->media_median_bw > 0)
		snprintf(s->summary, sizeof(s->summary), "a RAM disk reads at %s through the same path (the disks' median: %s)",
			 ram_rate, med);
	else
		snprintf(s->summary, sizeof(s->summary), "a RAM disk reads at %s through the same path", ram_rate);
}

static void step_twin(struct doctor *dr)
{
	struct pool_twin *twin = &dr->twin;
	struct doctor_step *s = &dr->steps[2];
	uint64_t member = dr->budget->workload_size > (128ULL << 20) ? dr->budget->workload_size : (128ULL << 20);
	if (pool_twin_build(&dr->target, &dr->layout, dr->run_id, member, twin) < 0) {
		s->state = STEP_FAILED;
		snprintf(s->summary, sizeof(s->summary), "cannot build a RAM twin of the pool");
		return;
	}
	log_msg(LOG_INFO, "DOCTOR: RAM twin %s built on %zu RAM-backed loop devices", twin->target.pool, twin->nloops);
	struct pb_outcome o;
	pb_outcome_init(&o, PB_BUILTIN);
	int r = pool_twin_workload(&twin->target, dr->run_id, "twin", dr->budget->workload_size,
				   dr->budget->workload_cap_s, &o);
	figures_of(&o, &dr->twin_write_bw, &dr->twin_read_bw);
	s->state = r == 0 ? STEP_RAN : STEP_FAILED;
	char rd[32], wr[32];
	human_rate(dr->twin_read_bw, rd, sizeof(rd));
	human_rate(dr->twin_write_bw, wr, sizeof(wr));
	if (r == 0)
		snprintf(s->summary, sizeof(s->summary), "the same pool on RAM writes at %s and reads at %s", wr, rd);
	else
		snprintf(s->summary, sizeof(s->summary), "the workload on the RAM twin failed: %s", o.reason);
	pb_outcome_release(&o);
}

/* The pool named: the layout's shortfall or the twin's, with every pool-layer finding. */
static void name_pool(struct doctor *dr, bool by_twin, bool by_state, const struct strbuf *cause)
{
	struct strbuf ev = STRBUF_INIT;
	double ratio = dr->pool_read_bw / dr->twin_read_bw;
	if (cause->len)
		strbuf_addf(&ev, "%s", cause->buf);
	if (by_twin)
		strbuf_addf(&ev, "%sthe pool reads at %.1f MB/s: %.0f%% of the same pool on RAM (%.1f MB/s) and %.0f%% of "
				 "what one of its members reads raw (%.1f MB/s)", ev.len ? "; " : "", dr->pool_read_bw / 1e6,
			    100.0 * ratio, dr->twin_read_bw / 1e6, 100.0 * dr->pool_read_bw / dr->media_median_bw,
			    dr->media_median_bw / 1e6);
	strbuf_adds(&ev, "; ");
	if (!doctor_pool_findings(dr, &ev))
		strbuf_adds(&ev, "no setting, state or member load stands out, though no member stood out in step 1 "
				 "either: the loss is in the pool on these disks, not in a disk");
	dr->steps[3].explains = true;
	dr->verdict.layer = "pool";
	snprintf(dr->verdict.subject, sizeof(dr->verdict.subject), "%s", dr->target.pool);
	snprintf(dr->verdict.evidence, sizeof(dr->verdict.evidence), "%s", ev.buf);
	strbuf_release(&ev);
	snprintf(dr->verdict.confidence, sizeof(dr->verdict.confidence),
		 "one short write and read of the pool against its layout's expectation from its members' raw reads and "
		 "against its RAM twin, with its members sampled during it, after every member was read and compared");
	if (by_state)
		snprintf(dr->verdict.next, sizeof(dr->verdict.next),
			 "zpool status -v %s: bring back or replace what is not ONLINE and let the resilver or scrub "
			 "finish, then run doctor again: figures of a pool that is not whole are not its own",
			 dr->target.pool);
	else
		snprintf(dr->verdict.next, sizeof(dr->verdict.next),
			 "the fixes above where there are findings; benchpool %s for the whole picture, then the layout "
			 "and the dataset properties (recordsize, sync, compression, dedup)", dr->target.pool);
}

void doctor_step_pool(struct doctor *dr)
{
	if (doctor_is_ceph(dr)) {
		doctor_ceph_pool(dr);
		return;
	}
	struct doctor_step *s = &dr->steps[3];
	struct pb_outcome o;
	pb_outcome_init(&o, PB_BUILTIN);
	pool_areas_remove_stale(&dr->target, "DOCTOR");
	doctor_pool_before(dr);
	int r = pool_twin_workload(&dr->target, dr->run_id, "doctor", dr->budget->workload_size,
				   dr->budget->workload_cap_s, &o);
	figures_of(&o, &dr->pool_write_bw, &dr->pool_read_bw);
	pb_outcome_release(&o);
	doctor_pool_after(dr);
	/* A log only serves sync writes, which the workload does not make: probe it. */
	if (r == 0 && pool_has_log(&dr->layout))
		pool_sync_probe(&dr->target, &dr->layout, dr->run_id, &dr->evidence.settings, dr->sync_probe,
				sizeof(dr->sync_probe));
	/* Nor much metadata: a special vdev gets its own probe. */
	if (r == 0 && pool_has_special(&dr->layout))
		pool_special_probe(&dr->target, &dr->layout, dr->run_id, &dr->evidence.settings, dr->special_probe,
				   sizeof(dr->special_probe));
	if (r < 0) {
		s->state = STEP_FAILED;
		snprintf(s->summary, sizeof(s->summary), "the workload on the pool failed");
		return;
	}
	s->state = STEP_RAN;
	struct strbuf cause = STRBUF_INIT, findings = STRBUF_INIT;
	bool by_state = doctor_pool_state_stands_out(dr, &cause);
	bool by_layout = doctor_pool_judge(dr, &cause);
	bool by_twin = doctor_pool_layer_stands_out(dr->pool_read_bw, dr->twin_read_bw, dr->media_median_bw);
	char rd[32], wr[32];
	human_rate(dr->pool_read_bw, rd, sizeof(rd));
	human_rate(dr->pool_write_bw, wr, sizeof(wr));
	/* When the rates name the pool, "no finding" would contradict the verdict. */
	if (!doctor_pool_findings(dr, &findings))
		strbuf_adds(&findings, by_layout || by_twin ? "no pool setting or member explains it"
							   : "no pool-layer finding");
	if (dr->twin_read_bw > 0) {
		/* Capped disks against RAM can be a fraction of a percent: never "0%". */
		double pct = 100.0 * dr->pool_read_bw / dr->twin_read_bw;
		char share[32];
		snprintf(share, sizeof(share), pct < 1 ? "under 1%%" : "%.0f%%", pct);
		snprintf(s->summary, sizeof(s->summary), "the pool writes at %s and reads at %s: %s of its RAM twin's "
			 "read rate; %s; %s", wr, rd, share, dr->layout_sentence, findings.buf);
	} else
		snprintf(s->summary, sizeof(s->summary), "the pool writes at %s and reads at %s (no twin to compare with); "
			 "%s; %s", wr, rd, dr->layout_sentence, findings.buf);
	if (by_layout || by_twin || by_state)
		name_pool(dr, by_twin, by_state, &cause);
	strbuf_release(&cause);
	strbuf_release(&findings);
}

void doctor_step_ram(struct doctor *dr)
{
	if (doctor_is_ceph(dr))
		doctor_ceph_ram(dr);
	else if (dr->have_pool)
		step_twin(dr);
	else
		step_ram_disk_only(dr);
	if (dr->set.client_via && !interrupt_requested())
		doctor_step_wire(dr);
}

/* ---- the verdict when no step explains the complaint ---- */

/* A pool reading at half its RAM twin or better is not held back by its
 * media (the sentence in the "no layer" evidence). */
#define POOL_NEAR_TWIN 0.5

/* Step 1 read no disk: the media were not measured, so no verdict can say
 * that no layer stands out. What the other steps found is still shown. */
void doctor_undetermined(struct doctor *dr)
{
	struct doctor_verdict *v = &dr->verdict;
	v->layer = NULL;
	v->undetermined = true;
	struct strbuf ev = STRBUF_INIT;
	strbuf_addf(&ev, "%s", dr->steps[0].summary);
	for (int i = 1; i < 4; i++)
		if (dr->steps[i].state == STEP_RAN)
			strbuf_addf(&ev, "; %s", dr->steps[i].summary);
	snprintf(v->evidence, sizeof(v->evidence), "%s", ev.buf);
	strbuf_release(&ev);
	snprintf(v->confidence, sizeof(v->confidence), "none: the media were not measured, and every later step is "
		 "judged against them");
	snprintf(v->next, sizeof(v->next), "run doctor where the disks can be read raw (as root, on the host rather "
		 "than in a VM that refuses raw reads of its disk), or doctor POOL for a pool's members; doctor --lab "
		 "shows the method on a throwaway pool");
}

void doctor_no_layer(struct doctor *dr)
{
	struct doctor_verdict *v = &dr->verdict;
	v->layer = NULL;
	struct strbuf ev = STRBUF_INIT;
	strbuf_addf(&ev, "%s", dr->steps[0].summary);
	if (dr->steps[1].state == STEP_RAN)
		strbuf_addf(&ev, "; %s", dr->steps[1].summary);
	if (dr->pool_read_bw > 0 && dr->twin_read_bw > 0) {
		double ratio = dr->pool_read_bw / dr->twin_read_bw;
		strbuf_addf(&ev, "; the pool reads at %.0f%% of its RAM twin (%.1f against %.1f MB/s): %s",
			    100.0 * ratio, dr->pool_read_bw / 1e6, dr->twin_read_bw / 1e6,
			    ratio >= POOL_NEAR_TWIN ? "the media are not what limits it"
							: "the disks set the pace, as real disks do against RAM");
		if (dr->wire_ran)
			strbuf_addf(&ev, "; across the wire to %s: %s", dr->set.client_label, dr->wire.sentence);
	}
	else if (dr->ram_disk_bw > 0 || dr->wire_ran)
		strbuf_addf(&ev, "; %s", dr->steps[2].summary);
	if (dr->steps[3].state == STEP_RAN) {
		strbuf_addf(&ev, "; %s: ", dr->layout_sentence);
		if (!doctor_pool_findings(dr, &ev))
			strbuf_adds(&ev, "no pool-layer finding");
	}
	snprintf(v->evidence, sizeof(v->evidence), "%s", ev.buf);
	strbuf_release(&ev);
	snprintf(v->confidence, sizeof(v->confidence), "%zu disk(s) read and compared with their peers%s",
		 read_batch_count(&dr->batch, READTEST_OK),
		 dr->twin_read_bw > 0 ? ", and the pool measured against the same pool on RAM" : "");
	snprintf(v->next, sizeof(v->next), "%s",
		 dr->have_pool && dr->target.kind ? dr->target.kind->when_no_layer
						  : "name the pool (doctor POOL) to measure the file-system path as well");
}
