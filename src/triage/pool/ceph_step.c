/* triage/pool/ceph_step.c: a Ceph pool's OSDs benched and judged, its cluster's
 * state judged (triage/pool/ceph_step.h). */
#include "triage/pool/ceph_step.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "basic/interrupt.h"
#include "basic/log.h"
#include "basic/timeutil.h"
#include "triage/pool/pool_evidence.h"

const struct outlier_params ceph_step_params = {
	.slow_ratio = 0.6,
	.fast_ratio = 1.67,
	.z_limit = 3.5,
	.certain_slow = 0.4,
	.certain_fast = 2.5,
};

const char *ceph_osd_verdict_word(enum ceph_osd_verdict v)
{
	static const char *const words[] = { "ok", "slow", "not confirmed", "no answer", "failed", "down",
					     "not judged" };
	return (unsigned)v < sizeof(words) / sizeof(words[0]) ? words[v] : "?";
}

/* ---- the cluster's state ---- */

static int json_of(const char *const *args, struct strbuf *out)
{
	strbuf_reset(out);
	return ceph_json(args, out, NULL);
}

static void gather_state(struct ceph_step *s)
{
	const char *health[] = { "health", "detail", NULL };
	const char *status[] = { "status", NULL };
	const char *get[] = { "osd", "pool", "get", s->pool, "all", NULL };
	struct strbuf out = STRBUF_INIT;
	s->health_read = json_of(health, &out) == 0 && ceph_parse_health_detail(out.buf, &s->health) == 0;
	struct ceph_state state = { .osds_in = -1 };
	if (json_of(status, &out) == 0) {
		s->pgmap_read = ceph_parse_pgmap(out.buf, &s->pgmap) == 0;
		if (ceph_parse_status(out.buf, &state) == 0)
			s->osds_in = state.osds_in;
	}
	s->settings_read = json_of(get, &out) == 0 && ceph_parse_pool_settings(out.buf, &s->settings) == 0;
	strbuf_release(&out);
	struct ceph_findings_input in = { .pool = s->pool,
					  .health = s->health_read ? &s->health : NULL,
					  .pgmap = s->pgmap_read ? &s->pgmap : NULL,
					  .settings = s->settings_read ? &s->settings : NULL,
					  .osds_in = s->osds_in };
	ceph_findings_judge(&in, &s->findings);
}

/* ---- the benches ---- */

static void perf_sample(struct ceph_step *s)
{
	int ids[CEPH_OSDS_MAX] = { 0 };
	double commit[CEPH_OSDS_MAX], apply[CEPH_OSDS_MAX];
	size_t n = s->nosds < CEPH_OSDS_MAX ? s->nosds : CEPH_OSDS_MAX;
	for (size_t i = 0; i < n; i++)
		ids[i] = s->osds[i].osd.id;
	if (ceph_osd_perf(ids, n, commit, apply) < 0)
		return;
	for (size_t i = 0; i < n; i++) {
		struct ceph_osd_result *o = &s->osds[i];
		if (commit[i] > o->commit_ms)
			o->commit_ms = commit[i];
		if (apply[i] > o->apply_ms)
			o->apply_ms = apply[i];
	}
}

/* One bench of OSD O, logged. Returns its rate, 0 when it failed. */
static double bench_once(struct ceph_step *s, struct ceph_osd_result *o, const char *why)
{
	struct ceph_bench b;
	char err[200] = "";
	int r = ceph_osd_bench(o->osd.id, CEPH_STEP_BENCH_BYTES, CEPH_STEP_BENCH_BLOCK, CEPH_STEP_BENCH_TIMEOUT_S, &b,
			       err, sizeof(err));
	double rate = r == 0 ? b.bytes_per_s : 0;
	if (o->nbench < CEPH_STEP_ROUNDS + CEPH_STEP_CONFIRM)
		o->bench[o->nbench++] = rate;
	if (r < 0) {
		snprintf(o->error, sizeof(o->error), "%s", err);
		if (r == -ETIMEDOUT)
			o->verdict = CEPH_OSD_NO_ANSWER;
		log_msg(LOG_WARN, "%s (%s): %s bench%s failed: %s", s->tag, s->pool, o->osd.name, why, err);
	} else {
		log_msg(LOG_INFO, "%s (%s): %s bench%s: %.1f MB/s (%llu MiB in %.2f s)", s->tag, s->pool, o->osd.name,
			why, rate / 1e6, (unsigned long long)(b.bytes >> 20), b.seconds);
	}
	return rate;
}

static void bench_rounds(struct ceph_step *s)
{
	for (unsigned round = 0; round < CEPH_STEP_ROUNDS; round++) {
		for (size_t i = 0; i < s->nosds && !interrupt_requested(); i++) {
			struct ceph_osd_result *o = &s->osds[i];
			if (!o->osd.up || o->verdict == CEPH_OSD_NO_ANSWER)
				continue; /* one bench that never finished is enough */
			double rate = bench_once(s, o, "");
			if (rate > o->rate)
				o->rate = rate;
		}
		perf_sample(s);
	}
}

/* Each benched OSD against its peers (its device class when three share it). */
static void judge_rates(struct ceph_step *s)
{
	struct outlier_sample *samples = xcalloc(s->nosds, sizeof(*samples));
	struct outlier_finding *found = xcalloc(s->nosds, sizeof(*found));
	char (*groups)[64] = xcalloc(s->nosds, sizeof(*groups));
	for (size_t i = 0; i < s->nosds; i++) {
		outlier_group_key(s->osds[i].osd.device_class, 0, groups[i], sizeof(groups[i]));
		samples[i] = (struct outlier_sample){ .bw = s->osds[i].rate, .ok = s->osds[i].rate > 0,
						      .group = groups[i] };
	}
	outlier_analyze(samples, s->nosds, &ceph_step_params, found);
	for (size_t i = 0; i < s->nosds; i++) {
		struct ceph_osd_result *o = &s->osds[i];
		o->peers = found[i];
		if (o->verdict == CEPH_OSD_DOWN || o->verdict == CEPH_OSD_NO_ANSWER)
			continue;
		if (o->rate <= 0)
			o->verdict = interrupt_requested() ? CEPH_OSD_NOT_JUDGED : CEPH_OSD_FAILED;
		else if (found[i].flag == OUTLIER_NO_PEERS || interrupt_requested())
			o->verdict = CEPH_OSD_NOT_JUDGED;
		else
			o->verdict = found[i].flag == OUTLIER_SLOW ? CEPH_OSD_UNCONFIRMED : CEPH_OSD_OK;
	}
	free(samples);
	free(found);
	free(groups);
}

/* An OSD out of line benched again: slow only when every bench was. */
static void confirm(struct ceph_step *s, struct ceph_osd_result *o)
{
	o->out_of_line = 0;
	for (unsigned k = 0; k < o->nbench; k++)
		o->out_of_line += o->bench[k] > 0 && outlier_classify(o->bench[k], &o->peers, &ceph_step_params) == OUTLIER_SLOW;
	for (unsigned k = 0; k < CEPH_STEP_CONFIRM && !interrupt_requested(); k++) {
		char why[48];
		snprintf(why, sizeof(why), " (confirming, %u of %u)", k + 1, CEPH_STEP_CONFIRM);
		double rate = bench_once(s, o, why);
		o->out_of_line += rate > 0 && outlier_classify(rate, &o->peers, &ceph_step_params) == OUTLIER_SLOW;
		perf_sample(s);
	}
	if (o->out_of_line == o->nbench && o->nbench == CEPH_STEP_ROUNDS + CEPH_STEP_CONFIRM)
		o->verdict = CEPH_OSD_SLOW;
}

/* ceph osd perf until the mgr has seen the last bench. */
static void perf_window(struct ceph_step *s, uint64_t last_bench_ns)
{
	while (!interrupt_requested() && now_ns() - last_bench_ns < CEPH_STEP_PERF_WAIT_S * 1000000000ULL) {
		sleep(1);
		perf_sample(s);
	}
}

/* ---- findings ---- */

void ceph_step_osd_label(const struct ceph_step *s, size_t i, char *buf, size_t len)
{
	const struct ceph_osd *o = &s->osds[i].osd;
	snprintf(buf, len, "%s (%s on host %s)", o->name, o->device[0] ? o->device : "no device known",
		 o->host[0] ? o->host : "?");
}

/* The peers' median of the highest commit latency, -1 when none was listed. */
static double peers_commit_ms(const struct ceph_step *s, size_t skip)
{
	double v[CEPH_OSDS_MAX];
	size_t n = 0;
	for (size_t i = 0; i < s->nosds && n < CEPH_OSDS_MAX; i++)
		if (i != skip && s->osds[i].commit_ms >= 0)
			v[n++] = s->osds[i].commit_ms;
	return n ? median_of(v, n) : -1;
}

void ceph_step_osd_sentence(const struct ceph_step *s, size_t i, char *buf, size_t len)
{
	const struct ceph_osd_result *o = &s->osds[i];
	char label[400], perf[160] = "";
	ceph_step_osd_label(s, i, label, sizeof(label));
	double peers_ms = peers_commit_ms(s, i);
	if (o->commit_ms >= 0)
		snprintf(perf, sizeof(perf), "; ceph osd perf: commit latency up to %.0f ms under its bench%s", o->commit_ms,
			 peers_ms >= 0 ? ", its peers' median " : "");
	if (o->commit_ms >= 0 && peers_ms >= 0)
		snprintf(perf + strlen(perf), sizeof(perf) - strlen(perf), "%.0f ms", peers_ms);
	if (o->verdict == CEPH_OSD_NO_ANSWER || o->verdict == CEPH_OSD_FAILED || o->verdict == CEPH_OSD_DOWN) {
		snprintf(buf, len, "%s: %s%s", label, o->verdict == CEPH_OSD_DOWN ? "down, not benched" : o->error, perf);
		return;
	}
	snprintf(buf, len, "%s writes at %.1f MB/s in ceph tell %s bench (%llu MiB in %llu MiB writes): %.0f%% of "
		 "the median of %zu OSDs (%.1f MB/s); %u of %u benches out of line%s", label, o->rate / 1e6, o->osd.name,
		 (unsigned long long)(CEPH_STEP_BENCH_BYTES >> 20), (unsigned long long)(CEPH_STEP_BENCH_BLOCK >> 20),
		 100.0 * o->peers.ratio, o->peers.set_size, o->peers.peer_median / 1e6, o->out_of_line, o->nbench, perf);
}

static void osd_findings(struct ceph_step *s)
{
	for (size_t i = 0; i < s->nosds; i++) {
		const struct ceph_osd_result *o = &s->osds[i];
		if (o->verdict != CEPH_OSD_SLOW && o->verdict != CEPH_OSD_NO_ANSWER)
			continue;
		if (s->slow < 0)
			s->slow = (int)i;
		struct pool_finding *f = pool_findings_add(&s->findings, o->verdict == CEPH_OSD_SLOW ? "osd-slow"
											: "osd-no-answer",
							   "finding", o->osd.name);
		ceph_step_osd_label(s, i, f->subject, sizeof(f->subject));
		snprintf(f->text, sizeof(f->text), "%s is slower than its peers: every client I/O that lands on it "
			 "waits for it", o->osd.name);
		snprintf(f->fix, sizeof(f->fix), "test its device %s on host %s (iotriage readdisk %s there; smartctl), "
			 "and look at that host's load and at limits on the OSD's process (cgroups); until then "
			 "ceph osd primary-affinity %s 0 keeps it from leading reads", o->osd.device, o->osd.host,
			 o->osd.device, o->osd.name);
		ceph_step_osd_sentence(s, i, f->evidence, sizeof(f->evidence));
		log_msg(LOG_WARN, "%s (%s): %s: %s", s->tag, s->pool, f->code, f->evidence);
	}
}

size_t ceph_step_state_slows(const struct ceph_step *s, struct strbuf *ev, struct strbuf *fix)
{
	size_t n = 0;
	for (size_t i = 0; i < s->findings.count; i++) {
		const struct pool_finding *f = &s->findings.items[i];
		if (!ceph_finding_slows(f) || !strcmp(f->code, "osd-slow") || !strcmp(f->code, "osd-no-answer"))
			continue;
		n++;
		strbuf_addf(ev, "%s%s (%s)", ev->len ? "; " : "", f->text, f->evidence);
		strbuf_addf(fix, "%s%s", fix->len ? "; " : "", f->fix);
	}
	return n;
}

/* ---- the step ---- */

static int list_osds(struct ceph_step *s)
{
	struct ceph_osd *osds;
	int n = ceph_pool_osds(s->pool, &osds, s->error, sizeof(s->error));
	if (n < 0)
		return n;
	s->osds = xcalloc((size_t)n, sizeof(*s->osds));
	s->nosds = (size_t)n;
	for (int i = 0; i < n; i++) {
		s->osds[i] = (struct ceph_osd_result){ .osd = osds[i], .commit_ms = -1, .apply_ms = -1 };
		if (!osds[i].up)
			s->osds[i].verdict = CEPH_OSD_DOWN;
		char label[400];
		ceph_step_osd_label(s, (size_t)i, label, sizeof(label));
		log_msg(LOG_INFO, "%s (%s): %s, %s, %s", s->tag, s->pool, label, osds[i].up ? "up" : "down",
			osds[i].in ? "in" : "out");
	}
	free(osds);
	return 0;
}

int ceph_step_run(const char *pool, const char *tag, struct ceph_step *s)
{
	*s = (struct ceph_step){ .slow = -1, .osds_in = -1 };
	snprintf(s->pool, sizeof(s->pool), "%s", pool);
	snprintf(s->tag, sizeof(s->tag), "%s", tag);
	uint64_t t0 = now_ns();
	gather_state(s);
	int r = list_osds(s);
	if (r < 0) {
		log_msg(LOG_ERR, "%s (%s): cannot list the pool's OSDs: %s", tag, pool, s->error);
		return r;
	}
	log_msg(LOG_INFO, "%s (%s): %zu OSD(s); each benched %d times (ceph tell osd.N bench, %llu MiB in %llu MiB "
		"writes)", tag, pool, s->nosds, CEPH_STEP_ROUNDS, (unsigned long long)(CEPH_STEP_BENCH_BYTES >> 20),
		(unsigned long long)(CEPH_STEP_BENCH_BLOCK >> 20));
	bench_rounds(s);
	judge_rates(s);
	for (size_t i = 0; i < s->nosds; i++)
		if (s->osds[i].verdict == CEPH_OSD_UNCONFIRMED)
			confirm(s, &s->osds[i]);
	bool flagged = false;
	for (size_t i = 0; i < s->nosds; i++)
		flagged |= s->osds[i].verdict != CEPH_OSD_OK && s->osds[i].verdict != CEPH_OSD_NOT_JUDGED &&
			   s->osds[i].verdict != CEPH_OSD_DOWN;
	if (flagged) /* the evidence of an OSD out of line: what the mgr saw of its last bench */
		perf_window(s, now_ns());
	osd_findings(s);
	s->ran = !interrupt_requested();
	s->seconds = (double)(now_ns() - t0) / 1e9;
	size_t judged = 0;
	for (size_t i = 0; i < s->nosds; i++)
		judged += s->osds[i].verdict == CEPH_OSD_OK || s->osds[i].verdict == CEPH_OSD_UNCONFIRMED;
	if (s->slow < 0 && s->ran)
		log_msg(LOG_INFO, "%s (%s): %s", tag, pool, judged ? "no OSD stands out from its peers"
								: "too few OSDs measured to compare them");
	return interrupt_requested() ? -EINTR : 0;
}

void ceph_step_release(struct ceph_step *s)
{
	free(s->osds);
	s->osds = NULL;
	s->nosds = 0;
	pool_findings_release(&s->findings);
}

/* ---- the stored result ---- */

static void osd_json(struct json *j, const struct ceph_osd_result *o)
{
	json_begin_object(j, NULL);
	json_string(j, "name", o->osd.name);
	json_int(j, "id", o->osd.id);
	json_string(j, "host", o->osd.host);
	json_string(j, "device", o->osd.device[0] ? o->osd.device : NULL);
	json_string(j, "devices", o->osd.devices);
	json_string(j, "device_class", o->osd.device_class);
	json_bool(j, "up", o->osd.up);
	json_bool(j, "in", o->osd.in);
	json_begin_array(j, "bench_bw_bytes_per_s");
	for (unsigned k = 0; k < o->nbench; k++)
		json_double(j, NULL, o->bench[k]);
	json_end_array(j);
	json_double(j, "bw_bytes_per_s", o->rate);
	json_double(j, "peer_median_bw_bytes_per_s", o->peers.peer_median);
	json_double(j, "ratio", o->peers.ratio);
	json_double(j, "robust_z", o->peers.robust_z);
	json_uint(j, "benches_out_of_line", o->out_of_line);
	if (o->commit_ms >= 0)
		json_double(j, "commit_latency_ms", o->commit_ms);
	else
		json_null(j, "commit_latency_ms");
	if (o->apply_ms >= 0)
		json_double(j, "apply_latency_ms", o->apply_ms);
	else
		json_null(j, "apply_latency_ms");
	json_string(j, "verdict", ceph_osd_verdict_word(o->verdict));
	json_string(j, "error", o->error[0] ? o->error : NULL);
	json_end_object(j);
}

static void health_json(struct json *j, const struct ceph_step *s)
{
	json_string(j, "health", s->health_read ? s->health.status : NULL);
	json_begin_array(j, "health_checks");
	for (size_t i = 0; s->health_read && i < s->health.nchecks; i++) {
		const struct ceph_health_check *c = &s->health.checks[i];
		json_begin_object(j, NULL);
		json_string(j, "code", c->code);
		json_string(j, "severity", c->severity);
		json_string(j, "summary", c->summary);
		json_string(j, "detail", c->detail);
		json_end_object(j);
	}
	json_end_array(j);
	json_string(j, "pg_states", s->pgmap_read ? s->pgmap.states : NULL);
}

void ceph_step_json(struct json *j, const struct ceph_step *s)
{
	json_begin_object(j, "ceph_osds");
	json_string(j, "pool", s->pool);
	json_bool(j, "ran", s->ran);
	json_string(j, "error", s->error[0] ? s->error : NULL);
	json_uint(j, "bench_bytes", CEPH_STEP_BENCH_BYTES);
	json_uint(j, "bench_block_bytes", CEPH_STEP_BENCH_BLOCK);
	json_double(j, "seconds", s->seconds);
	json_begin_array(j, "osds");
	for (size_t i = 0; i < s->nosds; i++)
		osd_json(j, &s->osds[i]);
	json_end_array(j);
	json_string(j, "slow_osd", s->slow >= 0 ? s->osds[s->slow].osd.name : NULL);
	health_json(j, s);
	json_begin_array(j, "findings");
	for (size_t i = 0; i < s->findings.count; i++)
		pool_finding_json(j, NULL, &s->findings.items[i]);
	json_end_array(j);
	json_end_object(j);
}
