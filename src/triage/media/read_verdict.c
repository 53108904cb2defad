/* The verdict on a read batch: each disk against its peers, flagged disks
 * re-read to confirm, and one sentence per disk that says what was found. */
#include "triage/media/read_verdict.h"

#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "basic/log.h"
#include "basic/strbuf.h"
#include "basic/timeutil.h"
#include "basic/interrupt.h"
#include "triage/media/read_group.h"
#include "triage/media/read_health.h"
#include "triage/media/read_link.h"

void read_verdict_describe(struct disk_read *d, double bw)
{
	struct disk_verdict *v = &d->verdict;
	const struct outlier_finding *f = &v->peers;
	const char *name = d->info.kname[0] ? d->info.kname : d->info.dev_path;
	struct strbuf sb = STRBUF_INIT;
	v->reason_count = 0;
	if (f->flag == OUTLIER_NO_PEERS) {
		strbuf_addf(&sb, "%s has no peers to compare with (fewer than %d disks read)", name, OUTLIER_MIN_SET);
		disk_verdict_add_reason(v, REASON_PEERS, false, sb.buf);
	} else {
		bool out = v->reads.out_of_line > 0;
		/* One decimal under 10%: "0%" would read as "did not read at all". */
		strbuf_addf(&sb, "%s reads at %.*f%% of the median of %zu %sdisks (%u of %u reads %s)", name,
			    f->ratio < 0.1 ? 1 : 0, 100.0 * f->ratio, f->set_size, f->peers_are_group ? "same-model " : "",
			    out ? v->reads.out_of_line : v->reads.total, v->reads.total, out ? "out of line" : "in line");
		disk_verdict_add_reason(v, REASON_PEERS, v->kind == VERDICT_SLOW || v->kind == VERDICT_FAST, sb.buf);
	}
	if (d->has_baseline) {
		char when[32];
		time_format_iso8601((time_t)d->baseline_at, when, sizeof(when));
		bool out = v->reads.below_baseline > 0;
		bool iops = d->by_iops;
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%.0f%% of its baseline of %.*f %s from %.10s (%u of %u reads %s)",
			    100.0 * bw / d->baseline_bw, iops ? 0 : 1, iops ? d->baseline_bw : d->baseline_bw / 1e6,
			    iops ? "IOPS" : "MB/s", when,
			    out ? v->reads.below_baseline : v->reads.total, v->reads.total,
			    out ? "below it" : "within it");
		disk_verdict_add_reason(v, REASON_BASELINE, v->kind == VERDICT_REGRESSED, sb.buf);
	}
	if (v->tail.flag == VERDICT_TAIL_HIGH) {
		/* Only a tail out of line is said: an ordinary one adds nothing. */
		const struct outlier_finding *t = &v->tail;
		strbuf_reset(&sb);
		strbuf_addf(&sb, "its p99 completion latency, %.2f ms, is %.1f times the median of %zu %sdisks' (%.2f ms; "
			    "%u of %u reads out of line)", v->p99_ns / 1e6, t->ratio, t->set_size,
			    t->peers_are_group ? "same-model " : "", t->peer_median / 1e6, v->reads.tail_out_of_line,
			    v->reads.total);
		disk_verdict_add_reason(v, REASON_LATENCY, v->reads.tail_out_of_line == v->reads.total, sb.buf);
	}
	strbuf_release(&sb);
}

static bool below_baseline(const struct disk_read *d, double bw, double regression_pct)
{
	return d->has_baseline && bw < d->baseline_bw * (1.0 - regression_pct / 100.0);
}

/* Re-reads D and counts how many of its reads were out of line in the same
 * direction as the first, against its peers and against its baseline. */
static void confirm(const struct read_batch *b, struct disk_read *d, const struct readtest_opts *opts,
		    double regression_pct)
{
	struct disk_verdict *v = &d->verdict;
	enum outlier_flag first = v->peers.flag;
	bool peer_suspect = first == OUTLIER_SLOW || first == OUTLIER_FAST;
	bool tail_suspect = v->tail.flag == VERDICT_TAIL_HIGH;
	for (int i = 0; i < READ_CONFIRM_READS; i++) {
		struct disk_read again = { .info = d->info };
		if (d->host[0])
			read_remote_again(d, opts, &b->remote, &again); /* on its host, as its first read */
		else
			readtest_run(&again, opts);
		v->reads.total++;
		if (again.status == READTEST_OK) {
			double bw = disk_read_figure(&again), p99 = read_verdict_p99_ns(&again);
			if (peer_suspect && outlier_classify(bw, &v->peers, &outlier_default_params) == first)
				v->reads.out_of_line++;
			if (below_baseline(d, bw, regression_pct))
				v->reads.below_baseline++;
			if (tail_suspect && p99 > 0 &&
			    outlier_classify(p99, &v->tail, &outlier_tail_params) == VERDICT_TAIL_HIGH)
				v->reads.tail_out_of_line++;
			log_msg(LOG_INFO, "READ-DISK (%s): confirming read %d of %d: %.2f %s",
				d->info.dev_path, i + 1, READ_CONFIRM_READS, again.by_iops ? bw : bw / 1e6,
				again.by_iops ? "IOPS" : "MB/s");
		}
		disk_read_release(&again);
	}
}

enum verdict_kind read_verdict_kind_of_status(const struct disk_read *d)
{
	if (d->status == READTEST_SKIPPED)
		return VERDICT_SKIPPED;
	if (d->status == READTEST_OK)
		return VERDICT_OK;
	if (d->io_error)
		return VERDICT_IO_ERROR;
	if (d->no_response && d->reader_never_ran)
		return VERDICT_NOT_READ; /* iotriage's fault, never the disk's */
	if (d->no_response)
		return VERDICT_NO_RESPONSE;
	return d->res ? VERDICT_CUT_SHORT : VERDICT_NOT_READ;
}

/* The verdict of a disk whose read did not complete: its kind from its
 * status, and the reason in words. */
static void judge_unread(struct disk_read *d)
{
	struct disk_verdict *v = &d->verdict;
	char text[VERDICT_SENTENCE_LEN];
	v->kind = read_verdict_kind_of_status(d);
	v->reason_count = 0;
	if (disk_verdict_confidence(v) == VERDICT_BY_DEVICE) {
		/* A finding in its own right: the reason names the disk and the offset. */
		disk_verdict_add_reason(v, REASON_READ, true, d->reason);
		log_msg(LOG_WARN, "READ-DISK (%s): %s", d->info.dev_path, d->reason);
		return;
	}
	/* A skipped disk's reason is in its own field: the sentence only says
	 * that it is not judged. */
	if (v->kind == VERDICT_SKIPPED)
		snprintf(text, sizeof(text), "%s was not read, so it is not judged", d->info.dev_path);
	else
		snprintf(text, sizeof(text), "%s: %s", d->info.dev_path, d->reason);
	disk_verdict_add_reason(v, REASON_READ, false, text);
}

double read_verdict_p99_ns(const struct disk_read *d)
{
	if (!d->res || d->res->lat_read.count < VERDICT_TAIL_MIN_IOS)
		return 0;
	return (double)hist_percentile(&d->res->lat_read, 99);
}

/* One disk's first read against its peers: its rate and its tail. */
struct first_read {
	struct outlier_finding rate, tail;
	double figure; /* bytes/s, or IOPS in the IOPS pass */
	double p99_ns; /* 0: too few reads for a tail */
};

/* Judges one disk of the batch from its first read. Returns whether it was
 * confirmed out of line. */
static bool judge_one(const struct read_batch *b, struct disk_read *d, const struct first_read *first,
		      const struct readtest_opts *opts, double regression_pct)
{
	if (d->status != READTEST_OK) {
		judge_unread(d);
		return false; /* not out of line with its peers: a failure, counted as an error */
	}
	struct disk_verdict *v = &d->verdict;
	double bw = first->figure;
	v->peers = first->rate;
	v->tail = first->p99_ns > 0 ? first->tail : (struct outlier_finding){ .flag = OUTLIER_NO_PEERS };
	v->p99_ns = first->p99_ns;
	v->reads = (struct verdict_reads){
		.total = 1,
		.out_of_line = (v->peers.flag == OUTLIER_SLOW || v->peers.flag == OUTLIER_FAST) ? 1 : 0,
		.below_baseline = below_baseline(d, bw, regression_pct) ? 1 : 0,
		.tail_out_of_line = v->tail.flag == VERDICT_TAIL_HIGH ? 1 : 0,
	};
	if (v->reads.out_of_line || v->reads.below_baseline || v->reads.tail_out_of_line)
		confirm(b, d, opts, regression_pct);
	v->kind = disk_verdict_kind_of_reads(v->peers.flag, v->tail.flag, &v->reads);
	read_verdict_describe(d, bw);
	if (v->kind == VERDICT_OK)
		return false;
	char sentence[VERDICT_SENTENCE_LEN];
	disk_verdict_sentence(v, sentence, sizeof(sentence));
	log_msg(LOG_WARN, "READ-DISK (%s): %s: %s", d->info.dev_path, disk_verdict_word(v->kind), sentence);
	return true;
}

/* Each disk's first read against its peers': the rate (IOPS in the IOPS
 * pass) and, where it read enough for one, the p99 latency. */
static void first_reads(const struct read_batch *b, struct first_read *first)
{
	struct outlier_sample *rates = xcalloc(b->count, sizeof(*rates));
	struct outlier_sample *tails = xcalloc(b->count, sizeof(*tails));
	struct outlier_finding *rate = xcalloc(b->count, sizeof(*rate)), *tail = xcalloc(b->count, sizeof(*tail));
	char (*groups)[200] = xcalloc(b->count, sizeof(*groups));
	for (size_t i = 0; i < b->count; i++) {
		const struct disk_read *d = &b->reads[i];
		bool ok = d->status == READTEST_OK;
		outlier_group_key(d->info.model, d->info.size_bytes, groups[i], sizeof(groups[i]));
		first[i].figure = ok ? disk_read_figure(d) : 0;
		first[i].p99_ns = ok ? read_verdict_p99_ns(d) : 0;
		rates[i] = (struct outlier_sample){ .ok = ok, .bw = first[i].figure, .group = groups[i] };
		tails[i] = (struct outlier_sample){ .ok = first[i].p99_ns > 0, .bw = first[i].p99_ns, .group = groups[i] };
	}
	outlier_analyze(rates, b->count, &outlier_default_params, rate);
	outlier_analyze(tails, b->count, &outlier_tail_params, tail);
	for (size_t i = 0; i < b->count; i++) {
		first[i].rate = rate[i];
		first[i].tail = tail[i];
	}
	free(groups);
	free(tail);
	free(rate);
	free(tails);
	free(rates);
}

size_t read_batch_judge(struct read_batch *b)
{
	struct first_read *first = xcalloc(b->count ? b->count : 1, sizeof(*first));
	first_reads(b, first);
	size_t flagged = 0;
	struct readtest_opts opts = b->opts;
	opts.progress = NULL;
	for (size_t i = 0; i < b->count; i++)
		flagged += judge_one(b, &b->reads[i], &first[i], &opts, b->regression_pct);
	free(first);
	return flagged;
}

void read_batch_log_conclusion(struct read_batch *b, size_t flagged)
{
	size_t ok = 0;
	b->conclusion[0] = '\0';
	for (size_t i = 0; i < b->count; i++)
		ok += b->reads[i].status == READTEST_OK;
	if (ok < OUTLIER_MIN_SET)
		return;
	if (flagged == 0)
		snprintf(b->conclusion, sizeof(b->conclusion),
			 "No disk stands out from its peers: this is not a media anomaly. If the system is slow "
			 "and these rates are all low, the media is uniformly slow or the loss is above it; "
			 "check the network next.");
	else
		snprintf(b->conclusion, sizeof(b->conclusion),
			 "%zu disk(s) read markedly differently from identical peers: replace or re-test a slow "
			 "one before tuning anything above it.", flagged);
	log_msg(flagged ? LOG_WARN : LOG_INFO, "%s", b->conclusion);
}

bool disk_has_stable_identity(const struct disk_info *info)
{
	char key[700];
	disk_identity_key(info, key, sizeof(key));
	return strncmp(key, "name:", 5) != 0;
}

/* The IOPS pass's baseline of D: only one read at the same block size and
 * queue depth, since IOPS change with both (a mismatch is logged, not
 * compared). */
static void load_iops_baseline(struct store *s, const char *key, struct disk_read *d,
			       const struct readtest_opts *opts)
{
	struct store_iops_baseline base;
	if (store_get_iops_baseline(s, key, &base) < 0 || base.iops <= 0)
		return;
	if (base.bs_bytes != opts->bs || base.iodepth != opts->iodepth) {
		log_msg(LOG_INFO, "READ-DISK (%s): its IOPS baseline was read at %u bytes, queue depth %u; "
				  "this pass reads %u bytes at %u: not compared", d->info.dev_path, base.bs_bytes,
			base.iodepth, opts->bs, opts->iodepth);
		return;
	}
	d->has_baseline = true;
	d->baseline_bw = base.iops;
	d->baseline_at = base.saved_at;
}

int read_batch_load_baselines(struct read_batch *b, const char *db_path)
{
	if (access(db_path, F_OK) < 0)
		return 0; /* no database yet: no baselines */
	struct store *s = NULL;
	int r = store_open(db_path, &s);
	if (r < 0) {
		log_msg(LOG_ERR, "cannot open results database '%s' to look up baselines: %s", db_path,
			strerror(-r));
		return r;
	}
	for (size_t i = 0; i < b->count; i++) {
		struct disk_read *d = &b->reads[i];
		if (!disk_has_stable_identity(&d->info))
			continue;
		char key[700];
		disk_identity_key(&d->info, key, sizeof(key));
		if (b->opts.random) {
			load_iops_baseline(s, key, d, &b->opts);
			continue;
		}
		struct store_baseline base;
		if (store_get_baseline(s, key, &base) == 0 && base.bw_bytes_per_s > 0) {
			d->has_baseline = true;
			d->baseline_bw = base.bw_bytes_per_s;
			d->baseline_at = base.saved_at;
		}
	}
	store_close(s);
	return 0;
}

/* Each disk's links judged (triage/media/read_link.h); a degraded one is said in
 * the batch's conclusion too. */
static void read_link_conclude(struct read_batch *b)
{
	size_t degraded = read_link_note(b->reads, b->count);
	if (!degraded)
		return;
	size_t used = strlen(b->conclusion);
	snprintf(b->conclusion + used, sizeof(b->conclusion) - used,
		 "%s%zu disk(s) on a link trained below what both its ends support: a finding whatever the read "
		 "rate (see LINK).", used ? " " : "", degraded);
	log_msg(LOG_WARN, "%s", b->conclusion + used + (used ? 1 : 0));
}

/* A slow group (--group-by) is said in the batch's conclusion and logged. */
static void read_group_conclude(struct read_batch *b)
{
	struct read_groups groups;
	read_groups_build(b, &groups);
	for (size_t g = 0; g < groups.count; g++) {
		const struct read_group *grp = &groups.groups[g];
		if (grp->finding.flag != OUTLIER_SLOW)
			continue;
		log_msg(LOG_WARN, "READ-DISKS: %s", grp->sentence);
		size_t used = strlen(b->conclusion);
		snprintf(b->conclusion + used, sizeof(b->conclusion) - used, "%s%s.", used ? " " : "", grp->sentence);
	}
	read_groups_release(&groups);
}

void read_batch_conclude(struct read_batch *b, const char *db_path)
{
	if (interrupt_signal())
		return;
	read_batch_load_baselines(b, db_path);
	read_batch_log_conclusion(b, read_batch_judge(b));
	read_link_conclude(b);
	read_group_conclude(b);
	read_health_check_flagged(b->reads, b->count);
}
