/* Outlier hosts: each host's read rate against its peers', as disks are
 * judged (media/outlier.h), a flagged host re-run to confirm. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/jsonread.h"
#include "basic/log.h"
#include "basic/strbuf.h"
#include "triage/fleet/fleet.h"

/* The median rate of the ok devices, and the first one's group key. */
static int devices_figure(const struct jv *devices, double *ret_bw, char *group, size_t len)
{
	double *rates = xcalloc(devices->count + 1, sizeof(*rates));
	size_t k = 0;
	for (size_t i = 0; i < devices->count; i++) {
		const struct jv *d = jv_at(devices, i);
		double bw = jv_number(jv_get(d, "bw_bytes_per_s"), 0);
		if (strcmp(jv_string(jv_get(d, "status"), ""), "ok") != 0 || bw <= 0)
			continue;
		if (k == 0)
			outlier_group_key(jv_string(jv_get(d, "model"), ""),
					  jv_u64(jv_get(d, "size_bytes"), 0), group, len);
		rates[k++] = bw;
	}
	int r = k ? 0 : -ENODATA;
	if (k)
		*ret_bw = median_of(rates, k);
	free(rates);
	return r;
}

int fleet_document_figure(const char *document, double *ret_bw, char *group, size_t len)
{
	struct jv *doc;
	char err[128];
	if (!document || jv_parse(document, strlen(document), &doc, err, sizeof(err)) < 0)
		return -ENODATA;
	snprintf(group, len, "%s", "");
	int r = -ENODATA;
	const struct jv *devices = jv_get(doc, "devices");
	if (devices && devices->type == JV_ARRAY)
		r = devices_figure(devices, ret_bw, group, len);
	double median = jv_number(jv_path(doc, "summary.median_bw_bytes_per_s"), 0);
	if (r < 0 && median > 0) {
		*ret_bw = median;
		r = 0;
	}
	jv_free(doc);
	return r;
}

/* Figures and groups of the ok hosts; returns how many have one. */
static size_t collect(struct fleet_host *hosts, size_t n, struct outlier_sample *samples, char (*groups)[160])
{
	size_t have = 0;
	for (size_t i = 0; i < n; i++) {
		char key[128] = "";
		hosts[i].figure = 0;
		samples[i] = (struct outlier_sample){ 0 };
		if (hosts[i].status != FLEET_OK ||
		    fleet_document_figure(hosts[i].document, &hosts[i].figure, key, sizeof(key)) < 0)
			continue;
		snprintf(groups[i], sizeof(groups[i]), "%s|%s", hosts[i].id.machine, key);
		samples[i] = (struct outlier_sample){ .bw = hosts[i].figure, .ok = true, .group = groups[i] };
		have++;
	}
	return have;
}

/* Runs the command on H again; returns its figure, or 0. */
static double rerun(const struct fleet_plan *plan, const struct fleet_host *h)
{
	struct fleet_host again = { .name = h->name, .exit_status = -1 };
	double bw = 0;
	char key[128];
	log_msg(LOG_INFO, "FLEET (%s): running again to confirm", h->name);
	if (fleet_run(plan, &again, 1) == 1 && fleet_document_figure(again.document, &bw, key, sizeof(key)) < 0)
		bw = 0;
	free(again.document);
	return bw;
}

static void confirm(const struct fleet_plan *plan, const struct fleet_host *h, const struct outlier_finding *f,
		    unsigned confirm_runs, struct fleet_verdict *v)
{
	v->host = h->name;
	v->flag = f->flag;
	v->ratio = f->ratio;
	v->runs = 1;
	v->runs_out = 1;
	for (unsigned k = 0; k < confirm_runs; k++) {
		double bw = rerun(plan, h);
		v->runs++;
		if (bw > 0 && outlier_classify(bw, f, &outlier_default_params) == f->flag)
			v->runs_out++;
	}
	v->confirmed = v->runs_out == v->runs;
	const char *how = f->flag == OUTLIER_SLOW ? "slow" : "fast";
	if (v->confirmed)
		snprintf(v->sentence, sizeof(v->sentence), "host %s reads at %.0f%% of the median of %zu hosts (%u of %u runs)",
			 h->name, 100.0 * f->ratio, f->set_size, v->runs_out, v->runs);
	else
		snprintf(v->sentence, sizeof(v->sentence),
			 "host %s read at %.0f%% of the median of %zu hosts, but only %u of %u runs were out of line: "
			 "not judged %s", h->name, 100.0 * f->ratio, f->set_size, v->runs_out, v->runs, how);
	log_msg(v->confirmed ? LOG_WARN : LOG_INFO, "FLEET: %s", v->sentence);
}

void fleet_judge(const struct fleet_plan *plan, struct fleet_host *hosts, size_t n, unsigned confirm_runs,
		 struct fleet_judgement *ret)
{
	memset(ret, 0, sizeof(*ret));
	struct outlier_sample *samples = xcalloc(n + 1, sizeof(*samples));
	struct outlier_finding *findings = xcalloc(n + 1, sizeof(*findings));
	char (*groups)[160] = xcalloc(n + 1, sizeof(*groups));
	size_t have = collect(hosts, n, samples, groups);
	if (have < OUTLIER_MIN_SET) {
		snprintf(ret->why_not, sizeof(ret->why_not),
			 "%zu host%s with a read rate; at least %d are needed to judge hosts against each other", have,
			 have == 1 ? "" : "s", OUTLIER_MIN_SET);
		goto out;
	}
	outlier_analyze(samples, n, &outlier_default_params, findings);
	ret->judged = true;
	ret->verdicts = xcalloc(n, sizeof(*ret->verdicts));
	for (size_t i = 0; i < n; i++) {
		if (!samples[i].ok)
			continue;
		ret->set_size = findings[i].set_size;
		ret->median_bw = findings[i].peer_median;
		ret->spread_bw = findings[i].peer_spread;
		if (findings[i].flag == OUTLIER_SLOW || findings[i].flag == OUTLIER_FAST)
			confirm(plan, &hosts[i], &findings[i], confirm_runs, &ret->verdicts[ret->n_verdicts++]);
	}
out:
	free(groups);
	free(findings);
	free(samples);
}

void fleet_judgement_release(struct fleet_judgement *j)
{
	free(j->verdicts);
	j->verdicts = NULL;
	j->n_verdicts = 0;
}
