/* pool/ceph_findings.c: the cluster's state and the pool's settings judged
 * (pool/ceph_findings.h). */
#include "pool/ceph_findings.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "basic/jsonread.h"
#include "basic/strbuf.h"

/* ---- parsers ---- */

static void check_detail(const struct jv *detail, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (size_t i = 0; detail && i < detail->count && i < 3 && used + 1 < len; i++) {
		const char *msg = jv_string(jv_get(jv_at(detail, i), "message"), NULL);
		if (!msg)
			continue;
		int w = snprintf(buf + used, len - used, "%s%s", used ? "; " : "", msg);
		used = w < 0 ? used : used + (size_t)w < len ? used + (size_t)w : len - 1;
	}
	if (detail && detail->count > 3 && used + 1 < len)
		snprintf(buf + used, len - used, "; and %zu more", detail->count - 3);
}

int ceph_parse_health_detail(const char *json, struct ceph_health *ret)
{
	struct jv *v = ceph_parse_json(json);
	const char *status = jv_string(jv_get(v, "status"), NULL);
	const struct jv *checks = jv_get(v, "checks");
	*ret = (struct ceph_health){ .nchecks = 0 };
	if (!status || (checks && checks->type != JV_OBJECT)) {
		jv_free(v);
		return -EINVAL;
	}
	snprintf(ret->status, sizeof(ret->status), "%s", status);
	for (size_t i = 0; checks && i < checks->count && ret->nchecks < CEPH_CHECKS_MAX; i++) {
		const struct jv *c = &checks->items[i];
		struct ceph_health_check *h = &ret->checks[ret->nchecks++];
		snprintf(h->code, sizeof(h->code), "%s", checks->keys[i]);
		snprintf(h->severity, sizeof(h->severity), "%s", jv_string(jv_get(c, "severity"), ""));
		snprintf(h->summary, sizeof(h->summary), "%s", jv_string(jv_path(c, "summary.message"), ""));
		check_detail(jv_get(c, "detail"), h->detail, sizeof(h->detail));
		h->muted = jv_bool(jv_get(c, "muted"), false);
	}
	jv_free(v);
	return 0;
}

static void add_state(struct ceph_pgmap *p, const char *state, unsigned count)
{
	if (strcmp(state, "active+clean") == 0)
		return;
	p->pgs_not_clean += count;
	if (strstr(state, "recovery_wait") || strstr(state, "backfill_wait"))
		p->pgs_waiting += count;
	if (strstr(state, "recovering"))
		p->pgs_recovering += count;
	if (strstr(state, "backfilling"))
		p->pgs_backfilling += count;
	size_t used = strlen(p->states);
	if (used + 1 < sizeof(p->states))
		snprintf(p->states + used, sizeof(p->states) - used, "%s%u %s", used ? ", " : "", count, state);
}

int ceph_parse_pgmap(const char *json, struct ceph_pgmap *ret)
{
	struct jv *v = ceph_parse_json(json);
	const struct jv *pgmap = jv_get(v, "pgmap");
	*ret = (struct ceph_pgmap){ .pgs = 0 };
	if (!pgmap || pgmap->type != JV_OBJECT) {
		jv_free(v);
		return -EINVAL;
	}
	ret->pgs = (unsigned)jv_int(jv_get(pgmap, "num_pgs"), 0);
	const struct jv *states = jv_get(pgmap, "pgs_by_state");
	for (size_t i = 0; states && i < states->count; i++) {
		const struct jv *s = jv_at(states, i);
		const char *name = jv_string(jv_get(s, "state_name"), NULL);
		int count = jv_int(jv_get(s, "count"), 0);
		if (name && count > 0)
			add_state(ret, name, (unsigned)count);
	}
	ret->degraded = jv_u64(jv_get(pgmap, "degraded_objects"), 0);
	ret->degraded_total = jv_u64(jv_get(pgmap, "degraded_total"), 0);
	ret->misplaced = jv_u64(jv_get(pgmap, "misplaced_objects"), 0);
	ret->misplaced_total = jv_u64(jv_get(pgmap, "misplaced_total"), 0);
	ret->recovering_bytes_per_s = jv_number(jv_get(pgmap, "recovering_bytes_per_sec"), 0);
	jv_free(v);
	return 0;
}

/* ---- the judgement ---- */

struct check_rule {
	const char *code;
	bool slows;
	const char *fix;
};

/* The checks that explain low figures, and the fix for each known one. */
static const struct check_rule check_rules[] = {
	{ "OSD_DOWN", true, "start the OSD again or find in its log why it stopped (ceph osd tree shows which); "
			    "until it is back its PGs run degraded and recover when it returns" },
	{ "OSD_HOST_DOWN", true, "bring the host back (power, network); its OSDs' PGs run degraded meanwhile" },
	{ "OSD_FULL", true, "a full OSD stops writes: add OSDs or capacity, delete data, or raise the ratio for "
			    "a moment (ceph osd set-full-ratio) while space is freed" },
	{ "OSD_BACKFILLFULL", true, "add capacity or rebalance (ceph osd reweight-by-utilization): backfill to "
				    "this OSD is refused" },
	{ "OSD_NEARFULL", true, "add capacity or rebalance (ceph osd reweight-by-utilization) before it fills" },
	{ "POOL_FULL", true, "the pool's quota or the OSDs are full: raise the quota or free space" },
	{ "POOL_NEARFULL", true, "raise the pool's quota or free space before it fills" },
	{ "PG_AVAILABILITY", true, "PGs are not active (no I/O to them): bring back the OSDs they need "
				   "(ceph pg dump_stuck inactive)" },
	{ "PG_DEGRADED", true, "let recovery finish (ceph -s) and bring back any OSD that is down; figures "
			       "measured meanwhile are not the pool's own" },
	{ "PG_RECOVERY_FULL", true, "recovery is stalled by full OSDs: add capacity" },
	{ "PG_BACKFILL_FULL", true, "backfill is stalled by full OSDs: add capacity" },
	{ "OBJECT_MISPLACED", true, "let the backfill finish (ceph -s): it moves data between OSDs meanwhile" },
	{ "SLOW_OPS", true, "requests wait over 30 s on the daemons it names: look at their disks and hosts "
			    "(ceph daemon osd.N dump_historic_slow_ops)" },
	{ "OSD_SLOW_PING_TIME_FRONT", true, "the OSDs' public network is slow between the hosts named: check "
					    "it (iotriage netcheck)" },
	{ "OSD_SLOW_PING_TIME_BACK", true, "the OSDs' cluster network is slow between the hosts named: check it "
					   "(iotriage netcheck)" },
	{ "BLUESTORE_SLOW_OP_ALERT", true, "BlueStore saw slow operations on the OSDs named: test their devices "
					   "(iotriage readdisk)" },
	{ "OSDMAP_FLAGS", true, "cluster flags are set (noup, nodown, pause, norecover...): unset those left "
				"from maintenance (ceph osd unset FLAG)" },
	{ "POOL_TOO_FEW_PGS", true, "raise the pool's pg_num (ceph osd pool set POOL pg_num N) or let the "
				    "autoscaler do it" },
	{ "POOL_NO_REDUNDANCY", false, "set size 3 and min_size 2 (ceph osd pool set POOL size 3)" },
	{ "MON_DISK_LOW", false, "free space on the monitor's disk" },
};

static const struct check_rule *rule_of(const char *code)
{
	for (size_t i = 0; i < sizeof(check_rules) / sizeof(check_rules[0]); i++)
		if (strcmp(check_rules[i].code, code) == 0)
			return &check_rules[i];
	return NULL;
}

/* "OSD_DOWN" -> "osd-down". */
static void code_word(const char *code, char *buf, size_t len)
{
	size_t i = 0;
	for (; code[i] && i + 1 < len; i++)
		buf[i] = code[i] == '_' ? '-' : (char)tolower((unsigned char)code[i]);
	buf[i] = '\0';
}

/* Findings of the checks that explain low figures, or of what the health
 * check table does not know, are "finding"; a muted check is a "note". */
static void judge_checks(const struct ceph_findings_input *in, struct pool_findings *out)
{
	for (size_t i = 0; in->health && i < in->health->nchecks; i++) {
		const struct ceph_health_check *c = &in->health->checks[i];
		const struct check_rule *r = rule_of(c->code);
		char code[48];
		code_word(c->code, code, sizeof(code));
		struct pool_finding *f = pool_findings_add(out, code, c->muted ? "note" : "finding", "the Ceph cluster");
		snprintf(f->text, sizeof(f->text), "%s%s", c->summary[0] ? c->summary : c->code,
			 c->muted ? " (muted)" : "");
		snprintf(f->fix, sizeof(f->fix), "%s", r ? r->fix : "see ceph health detail and the check's entry in "
								  "Ceph's health checks");
		snprintf(f->evidence, sizeof(f->evidence), "%s %s%s%s", c->code, c->severity, c->detail[0] ? ": " : "",
			 c->detail);
	}
}

static bool has_check(const struct ceph_health *h, const char *code)
{
	for (size_t i = 0; h && i < h->nchecks; i++)
		if (strcmp(h->checks[i].code, code) == 0)
			return true;
	return false;
}

static void judge_pgmap(const struct ceph_findings_input *in, struct pool_findings *out)
{
	const struct ceph_pgmap *p = in->pgmap;
	if (!p)
		return;
	if (p->pgs_recovering + p->pgs_backfilling + p->pgs_waiting > 0) {
		struct pool_finding *f = pool_findings_add(out, "recovery", "finding", "the Ceph cluster");
		snprintf(f->text, sizeof(f->text), "recovery or backfill is running (%u of %u PGs recovering or "
			 "backfilling, %u waiting to): its traffic competes with the clients' on the same OSDs",
			 p->pgs_recovering + p->pgs_backfilling, p->pgs, p->pgs_waiting);
		snprintf(f->fix, sizeof(f->fix), "let it finish before measuring (ceph -s), or slow it while clients "
			 "need the OSDs (ceph config set osd osd_max_backfills 1; osd_recovery_max_active 1)");
		snprintf(f->evidence, sizeof(f->evidence), "%s; recovery at %.1f MB/s", p->states,
			 p->recovering_bytes_per_s / 1e6);
	}
	if (p->degraded > 0 && !has_check(in->health, "PG_DEGRADED")) {
		struct pool_finding *f = pool_findings_add(out, "degraded", "finding", "the Ceph cluster");
		snprintf(f->text, sizeof(f->text), "%llu of %llu objects degraded: fewer copies than the pools ask for",
			 (unsigned long long)p->degraded, (unsigned long long)p->degraded_total);
		snprintf(f->fix, sizeof(f->fix), "bring back the OSDs that are down or out and let recovery finish");
		snprintf(f->evidence, sizeof(f->evidence), "%s", p->states);
	}
	if (p->misplaced > 0 && !has_check(in->health, "OBJECT_MISPLACED")) {
		struct pool_finding *f = pool_findings_add(out, "misplaced", "finding", "the Ceph cluster");
		snprintf(f->text, sizeof(f->text), "%llu of %llu objects misplaced: backfill moves them to where they belong, beside the clients' I/O",
			 (unsigned long long)p->misplaced, (unsigned long long)p->misplaced_total);
		snprintf(f->fix, sizeof(f->fix), "let the backfill finish (ceph -s)");
		snprintf(f->evidence, sizeof(f->evidence), "%s", p->states);
	}
}

/* The power of two nearest V (as Ceph's autoscaler rounds pg_num). */
static unsigned nearest_pow2(unsigned v)
{
	unsigned p = 1;
	while (p < v && p < (1u << 20))
		p <<= 1;
	return p > 1 && p - v > v - p / 2 ? p / 2 : p;
}

static void judge_settings(const struct ceph_findings_input *in, struct pool_findings *out)
{
	const struct ceph_pool_settings *s = in->settings;
	if (!s)
		return;
	char evidence[96];
	snprintf(evidence, sizeof(evidence), "size %d, min_size %d, pg_num %d", s->size, s->min_size, s->pg_num);
	if (s->size == 1) {
		struct pool_finding *f = pool_findings_add(out, "size-1", "finding", in->pool);
		snprintf(f->text, sizeof(f->text), "data safety: the pool keeps one copy of each object: one failed OSD "
			 "loses data, and its figures are not those of a replicated pool");
		snprintf(f->fix, sizeof(f->fix), "ceph osd pool set %s size 3 (and min_size 2)", in->pool);
		snprintf(f->evidence, sizeof(f->evidence), "%s", evidence);
	} else if (s->min_size == 1) {
		struct pool_finding *f = pool_findings_add(out, "min-size-1", "finding", in->pool);
		snprintf(f->text, sizeof(f->text), "data safety: the pool accepts writes with one copy left: a "
			 "failure while others are down loses them");
		snprintf(f->fix, sizeof(f->fix), "ceph osd pool set %s min_size 2", in->pool);
		snprintf(f->evidence, sizeof(f->evidence), "%s", evidence);
	}
	if (s->pg_num > 0 && in->osds_in > 0 && s->pg_num < in->osds_in) {
		unsigned want = nearest_pow2((unsigned)(100 * in->osds_in / (s->size > 0 ? s->size : 1)));
		struct pool_finding *f = pool_findings_add(out, "too-few-pgs", "finding", in->pool);
		snprintf(f->text, sizeof(f->text), "the pool has %d PG(s) for %d OSDs: at most %d of them lead its I/O, "
			 "and its data sits on few OSDs", s->pg_num, in->osds_in, s->pg_num);
		snprintf(f->fix, sizeof(f->fix), "ceph osd pool set %s pg_num %u (about 100 PGs per OSD over the "
			 "pool's copies)", in->pool, want);
		snprintf(f->evidence, sizeof(f->evidence), "%s; %d OSDs in", evidence, in->osds_in);
	}
}

void ceph_findings_judge(const struct ceph_findings_input *in, struct pool_findings *out)
{
	judge_checks(in, out);
	judge_pgmap(in, out);
	judge_settings(in, out);
}

bool ceph_finding_slows(const struct pool_finding *f)
{
	static const char *const slow_codes[] = { "recovery", "degraded", "misplaced", "too-few-pgs", "osd-slow",
						  "osd-no-answer" };
	if (strcmp(f->severity, "finding") != 0)
		return false;
	for (size_t i = 0; i < sizeof(slow_codes) / sizeof(slow_codes[0]); i++)
		if (strcmp(f->code, slow_codes[i]) == 0)
			return true;
	for (size_t i = 0; i < sizeof(check_rules) / sizeof(check_rules[0]); i++) {
		char code[48];
		code_word(check_rules[i].code, code, sizeof(code));
		if (strcmp(f->code, code) == 0)
			return check_rules[i].slows;
	}
	return false;
}
