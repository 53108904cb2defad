/* doctor on a Ceph pool (triage/doctor/doctor_ceph.h). */
#include "triage/doctor/doctor_ceph.h"

#include <stdio.h>
#include <string.h>

#include "basic/humanize.h"
#include "basic/interrupt.h"
#include "basic/log.h"
#include "basic/strbuf.h"
#include "triage/network/netcheck.h"
#include "triage/pool/benchpool.h"

/* A bench's typical cost in seconds (the ceph tool's start and the write),
 * the state's calls and the perf window: the media step's budget beyond the
 * raw reads. */
#define CEPH_BENCH_BUDGET_S 4
#define CEPH_STATE_BUDGET_S 10

bool doctor_is_ceph(const struct doctor *dr)
{
	return dr->have_pool && dr->target.ceph_pool[0];
}

const char *doctor_members_id(const struct doctor *dr)
{
	return dr->target.ceph_pool[0] ? dr->target.ceph_pool : dr->target.pool;
}

static unsigned pool_runtime_s(const struct doctor *dr)
{
	unsigned s = dr->budget->workload_cap_s / 4;
	return s ? s : 1;
}

void doctor_ceph_estimate(struct doctor *dr)
{
	if (!doctor_is_ceph(dr))
		return;
	size_t osds = dr->batch.count;
	dr->steps[0].budget_s += (unsigned)(osds * CEPH_STEP_ROUNDS + CEPH_STEP_CONFIRM) * CEPH_BENCH_BUDGET_S +
				 CEPH_STEP_PERF_WAIT_S + CEPH_STATE_BUDGET_S;
	dr->steps[2].budget_s = 0;
	dr->steps[3].budget_s = 2 * pool_runtime_s(dr) + 30;
	dr->estimate_s = 0;
	for (int i = 0; i < DOCTOR_STEPS; i++)
		dr->estimate_s += dr->steps[i].budget_s;
}

/* ---- step 1 ---- */

/* OSD I's raw read in step 1, or NULL (not local, not read). */
static const struct disk_read *raw_read_of(const struct doctor *dr, size_t i)
{
	for (size_t k = 0; k < dr->batch.count; k++) {
		const struct disk_read *d = &dr->batch.reads[k];
		if (!strcmp(d->info.kname, dr->ceph.osds[i].osd.name))
			return d->status == READTEST_OK && d->res ? d : NULL;
	}
	return NULL;
}

/* What OSD I's raw read says beside its bench. */
static void raw_read_sentence(const struct doctor *dr, size_t i, struct strbuf *out)
{
	const struct disk_read *d = raw_read_of(dr, i);
	const struct ceph_osd *o = &dr->ceph.osds[i].osd;
	if (!d) {
		strbuf_addf(out, "; its device was not read raw here (%s)", o->device[0] ? "not on this host, or not "
			    "readable" : "no device known");
		return;
	}
	char rate[32], med[32];
	human_rate(job_bw_bytes_per_s(d->res), rate, sizeof(rate));
	human_rate(dr->batch.median_bw, med, sizeof(med));
	if (disk_verdict_is_slow(d->verdict.kind))
		strbuf_addf(out, "; its device %s reads slowly raw too (%s, the OSDs' devices' median %s): the disk",
			    o->device, rate, med);
	else
		strbuf_addf(out, "; its device %s reads normally raw (%s, the OSDs' devices' median %s): the OSD's "
			    "process or host holds it back, not the disk (its cgroup limits, CPU, memory, BlueStore)",
			    o->device, rate, med);
}

static void name_slow_osd(struct doctor *dr)
{
	const struct ceph_step *c = &dr->ceph;
	size_t i = (size_t)c->slow;
	struct strbuf ev = STRBUF_INIT, state = STRBUF_INIT, fix = STRBUF_INIT;
	char sentence[1024];
	ceph_step_osd_sentence(c, i, sentence, sizeof(sentence));
	strbuf_adds(&ev, sentence);
	raw_read_sentence(dr, i, &ev);
	if (ceph_step_state_slows(c, &state, &fix))
		strbuf_addf(&ev, "; while the cluster was not idle: %s", state.buf);
	dr->steps[0].explains = true;
	dr->verdict.layer = "media";
	ceph_step_osd_label(c, i, dr->verdict.subject, sizeof(dr->verdict.subject));
	snprintf(dr->verdict.evidence, sizeof(dr->verdict.evidence), "%s", ev.buf);
	snprintf(dr->verdict.confidence, sizeof(dr->verdict.confidence), "%u of %u benches of %s out of line against "
		 "%zu OSDs of the pool (median and MAD), with ceph osd perf's latency beside them%s",
		 c->osds[i].out_of_line, c->osds[i].nbench, c->osds[i].osd.name, c->osds[i].peers.set_size,
		 state.len ? "; the cluster's state may weigh on every OSD (see the evidence)" : "");
	const struct ceph_osd *o = &c->osds[i].osd;
	snprintf(dr->verdict.next, sizeof(dr->verdict.next), "on host %s: iotriage readdisk %s, smartctl -x %s, the "
		 "host's load and the OSD's cgroup limits; meanwhile ceph osd primary-affinity %s 0%s%s", o->host,
		 o->device, o->device, o->name, fix.len ? "; and " : "", fix.buf);
	strbuf_release(&ev);
	strbuf_release(&state);
	strbuf_release(&fix);
}

/* A disk named by its raw read is an OSD's device: say which OSD. */
static void subject_as_osd(struct doctor *dr)
{
	for (size_t i = 0; i < dr->ceph.nosds; i++)
		if (!strcmp(dr->ceph.osds[i].osd.device, dr->verdict.subject)) {
			ceph_step_osd_label(&dr->ceph, i, dr->verdict.subject, sizeof(dr->verdict.subject));
			return;
		}
}

static void media_summary(struct doctor *dr)
{
	struct doctor_step *s = &dr->steps[0];
	const struct ceph_step *c = &dr->ceph;
	char add[600];
	if (!c->ran) {
		snprintf(add, sizeof(add), "the OSDs could not be benched: %s", c->error[0] ? c->error : "interrupted");
	} else if (c->slow >= 0) {
		char label[400];
		ceph_step_osd_label(c, (size_t)c->slow, label, sizeof(label));
		snprintf(add, sizeof(add), "%zu OSD(s) benched; %s %s", c->nosds, label,
			 c->osds[c->slow].verdict == CEPH_OSD_SLOW ? "is slower than its peers" : "did not answer");
	} else {
		snprintf(add, sizeof(add), "%zu OSD(s) benched with ceph tell osd.N bench; no OSD stands out from its "
			 "peers", c->nosds);
	}
	/* Every device elsewhere is not a failure when the benches measured the OSDs. */
	if (s->state == STEP_FAILED && c->ran) {
		s->state = STEP_RAN;
		snprintf(s->summary, sizeof(s->summary), "no OSD device read raw here; %s", add);
		return;
	}
	size_t len = strlen(s->summary);
	snprintf(s->summary + len, sizeof(s->summary) - len, "; %s", add);
}

void doctor_ceph_media(struct doctor *dr)
{
	if (!doctor_is_ceph(dr) || interrupt_requested())
		return;
	ceph_step_run(dr->target.ceph_pool, "DOCTOR", &dr->ceph);
	dr->have_ceph = true;
	media_summary(dr);
	if (dr->steps[0].explains)
		subject_as_osd(dr);
	else if (dr->ceph.slow >= 0)
		name_slow_osd(dr);
}

/* ---- step 2 ---- */

/* OSD NAME as the Ceph step saw it (its addresses), or NULL. */
static const struct ceph_osd *benched_osd(const struct doctor *dr, const char *name)
{
	for (size_t i = 0; dr->have_ceph && i < dr->ceph.nosds; i++)
		if (!strcmp(dr->ceph.osds[i].osd.name, name))
			return &dr->ceph.osds[i].osd;
	return NULL;
}

/* ADDR (or, without one, the host's name) as a destination of NC, once. */
static void add_dest(struct netcheck *nc, const char *addr, const char *label)
{
	for (size_t i = 0; i < nc->ndests; i++)
		if (!strcmp(nc->dests[i].addr, addr) || !strcmp(nc->dests[i].name, label))
			return;
	char why[200];
	if (nc->ndests >= NC_MAX_DESTS || netcheck_resolve_dest(addr, &nc->dests[nc->ndests], why, sizeof(why)) < 0) {
		log_msg(LOG_WARN, "DOCTOR: %s not probed: %s", label, nc->ndests >= NC_MAX_DESTS ? "too many" : why);
		return;
	}
	snprintf(nc->dests[nc->ndests++].name, sizeof(nc->dests[0].name), "%s", label);
}

bool doctor_ceph_network(struct doctor *dr, struct netcheck *nc, char *towards, size_t len)
{
	struct strbuf hosts = STRBUF_INIT;
	for (size_t i = 0; i < dr->layout.count; i++) {
		const struct pool_member *m = &dr->layout.members[i];
		if (!m->host[0])
			continue;
		const struct ceph_osd *o = benched_osd(dr, m->name);
		char label[256];
		snprintf(label, sizeof(label), "%s (%s, public network)", m->host, m->name);
		add_dest(nc, o && o->front_ip[0] ? o->front_ip : m->host, label);
		snprintf(label, sizeof(label), "%s (%s, cluster network)", m->host, m->name);
		if (o && o->back_ip[0])
			add_dest(nc, o->back_ip, label);
		bool named = false;
		for (size_t k = 0; k < i && !named; k++)
			named = !strcmp(dr->layout.members[k].host, m->host);
		if (!named)
			strbuf_addf(&hosts, "%s%s", hosts.len ? ", " : "", m->host);
	}
	nc->dests_given = true;
	snprintf(towards, len, "towards the OSDs' hosts %s (their public and cluster network addresses, ceph osd "
		 "metadata)", hosts.len ? hosts.buf : "");
	bool remote = hosts.len > 0;
	strbuf_release(&hosts);
	if (remote)
		return true;
	struct doctor_step *s = &dr->steps[1];
	s->state = STEP_SKIPPED;
	snprintf(s->summary, sizeof(s->summary), "every OSD of pool %s is on this host (ceph osd metadata): no network "
		 "between this client and the OSDs", dr->target.ceph_pool);
	return false;
}

/* ---- step 3 ---- */

void doctor_ceph_ram(struct doctor *dr)
{
	dr->steps[2].state = STEP_SKIPPED;
	snprintf(dr->steps[2].summary, sizeof(dr->steps[2].summary), "a Ceph pool has no RAM twin here: step 1's "
		 "benches measured each OSD without the network or a client in the path");
}

/* ---- step 4 ---- */

/* The cluster's findings that are not the OSDs' join the pool's (size 1...). */
static void keep_pool_findings(struct doctor *dr)
{
	for (size_t i = 0; i < dr->ceph.findings.count; i++) {
		const struct pool_finding *f = &dr->ceph.findings.items[i];
		if (!strcmp(f->code, "osd-slow") || !strcmp(f->code, "osd-no-answer"))
			continue;
		*pool_findings_add(&dr->evidence.settings, f->code, f->severity, f->subject) = *f;
	}
}

static void pool_figures(struct doctor *dr, const struct benchpool_result *b)
{
	for (size_t i = 0; i < b->noutcomes; i++)
		for (size_t k = 0; k < b->outcomes[i].nfigures; k++) {
			const struct pb_figure *f = &b->outcomes[i].figures[k];
			if (!strncmp(f->label, "throughput", 10))
				*(f->is_read ? &dr->pool_read_bw : &dr->pool_write_bw) = f->bw_bytes_per_s;
		}
}

static void name_cluster_state(struct doctor *dr, const char *figures)
{
	struct strbuf ev = STRBUF_INIT, fix = STRBUF_INIT;
	size_t n = ceph_step_state_slows(&dr->ceph, &ev, &fix);
	dr->steps[3].explains = true;
	dr->verdict.layer = "pool";
	snprintf(dr->verdict.subject, sizeof(dr->verdict.subject), "the Ceph cluster's state (pool %s)",
		 dr->target.ceph_pool);
	snprintf(dr->verdict.evidence, sizeof(dr->verdict.evidence), "%s; %s", ev.buf, figures);
	snprintf(dr->verdict.confidence, sizeof(dr->verdict.confidence), "%zu finding(s) from ceph health detail, "
		 "ceph status and the pool's settings, read before the benches; no OSD stood out from its peers", n);
	snprintf(dr->verdict.next, sizeof(dr->verdict.next), "%s; then run doctor again: figures measured in this "
		 "state are not the pool's own", fix.buf);
	strbuf_release(&ev);
	strbuf_release(&fix);
}

void doctor_ceph_pool(struct doctor *dr)
{
	struct doctor_step *s = &dr->steps[3];
	struct benchpool_settings set = { .tests = 1u << PB_FIO, .fstype = "ceph", .runtime_s = pool_runtime_s(dr),
					  .pattern = PATTERN_RANDOM, .skip_osds = true };
	struct benchpool_result b;
	int r = benchpool_run(dr->target.pool, &set, dr->budget->workload_size, dr->run_id, &b);
	pool_figures(dr, &b);
	bool ran = r == 0 && b.ran > 0;
	if (!ran)
		snprintf(s->summary, sizeof(s->summary), "fio on the pool did not run: %s",
			 b.noutcomes && b.outcomes[0].reason[0] ? b.outcomes[0].reason : "see the log");
	benchpool_result_release(&b);
	if (dr->have_ceph)
		keep_pool_findings(dr);
	if (!ran) {
		s->state = STEP_FAILED;
		return;
	}
	s->state = STEP_RAN;
	char rd[32], wr[32], figures[200];
	human_rate(dr->pool_read_bw, rd, sizeof(rd));
	human_rate(dr->pool_write_bw, wr, sizeof(wr));
	snprintf(figures, sizeof(figures), "through fio%s the pool writes at %s and reads at %s",
		 dr->target.mountpoint[0] ? " on CephFS" : "'s rbd engine", wr, rd);
	snprintf(dr->layout_sentence, sizeof(dr->layout_sentence), "%s", figures);
	struct strbuf findings = STRBUF_INIT, ev = STRBUF_INIT, fix = STRBUF_INIT;
	bool state = dr->have_ceph && ceph_step_state_slows(&dr->ceph, &ev, &fix) > 0;
	for (size_t i = 0; i < dr->evidence.settings.count; i++) {
		const struct pool_finding *f = &dr->evidence.settings.items[i];
		strbuf_addf(&findings, "%s%s: %s (%s; fix: %s)", findings.len ? "; " : "", f->subject, f->text,
			    f->evidence, f->fix);
	}
	snprintf(s->summary, sizeof(s->summary), "%s; %s", figures, findings.len ? findings.buf : "no pool-layer finding");
	if (state && !dr->verdict.layer)
		name_cluster_state(dr, figures);
	strbuf_release(&findings);
	strbuf_release(&ev);
	strbuf_release(&fix);
}
