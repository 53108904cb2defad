/* The verdict on a read batch: each disk against its peers, flagged disks
 * re-read to confirm, and one sentence per disk that says what was found. */
#include "triage/read_verdict.h"

#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "basic/log.h"
#include "basic/strbuf.h"
#include "basic/timeutil.h"
#include "basic/interrupt.h"
#include "triage/read_health.h"

static const char *flag_word(enum outlier_flag f)
{
	return f == OUTLIER_SLOW ? "slow" : f == OUTLIER_FAST ? "fast" : "ok";
}

void read_verdict_describe(struct disk_read *d, double bw)
{
	const struct outlier_finding *f = &d->finding;
	const char *name = d->info.kname[0] ? d->info.kname : d->info.dev_path;
	struct strbuf sb = STRBUF_INIT;
	if (f->flag == OUTLIER_NO_PEERS) {
		strbuf_addf(&sb, "%s has no peers to compare with (fewer than %d disks read)", name, OUTLIER_MIN_SET);
	} else {
		bool out = d->reads_flagged > 0;
		/* One decimal under 10%: "0%" would read as "did not read at all". */
		strbuf_addf(&sb, "%s reads at %.*f%% of the median of %zu %sdisks (%u of %u reads %s)", name,
			    f->ratio < 0.1 ? 1 : 0, 100.0 * f->ratio, f->set_size, f->peers_are_group ? "same-model " : "",
			    out ? d->reads_flagged : d->reads_total, d->reads_total, out ? "out of line" : "in line");
	}
	if (d->has_baseline) {
		char when[32];
		time_format_iso8601((time_t)d->baseline_at, when, sizeof(when));
		bool out = d->baseline_flagged > 0;
		bool iops = d->by_iops;
		strbuf_addf(&sb, "; %.0f%% of its baseline of %.*f %s from %.10s (%u of %u reads %s)",
			    100.0 * bw / d->baseline_bw, iops ? 0 : 1, iops ? d->baseline_bw : d->baseline_bw / 1e6,
			    iops ? "IOPS" : "MB/s", when,
			    out ? d->baseline_flagged : d->reads_total, d->reads_total,
			    out ? "below it" : "within it");
	}
	snprintf(d->sentence, sizeof(d->sentence), "%s", sb.buf);
	strbuf_release(&sb);
}

static bool below_baseline(const struct disk_read *d, double bw, double regression_pct)
{
	return d->has_baseline && bw < d->baseline_bw * (1.0 - regression_pct / 100.0);
}

/* Re-reads D and counts how many of its reads were out of line in the same
 * direction as the first, against its peers and against its baseline. */
static void confirm(struct disk_read *d, const struct readtest_opts *opts, double regression_pct)
{
	enum outlier_flag first = d->finding.flag;
	bool peer_suspect = first == OUTLIER_SLOW || first == OUTLIER_FAST;
	for (int i = 0; i < READ_CONFIRM_READS; i++) {
		struct disk_read again = { .info = d->info };
		readtest_run(&again, opts);
		d->reads_total++;
		if (again.status == READTEST_OK) {
			double bw = disk_read_figure(&again);
			if (peer_suspect && outlier_classify(bw, &d->finding, &outlier_default_params) == first)
				d->reads_flagged++;
			if (below_baseline(d, bw, regression_pct))
				d->baseline_flagged++;
			log_msg(LOG_INFO, "READ-DISK (%s): confirming read %d of %d: %.2f %s",
				d->info.dev_path, i + 1, READ_CONFIRM_READS, again.by_iops ? bw : bw / 1e6,
				again.by_iops ? "IOPS" : "MB/s");
		}
		disk_read_release(&again);
	}
}

const char *read_verdict_word(const struct disk_read *d)
{
	bool confirmed = d->reads_flagged && d->reads_flagged == d->reads_total;
	bool regressed = d->baseline_flagged && d->baseline_flagged == d->reads_total;
	return confirmed ? flag_word(d->finding.flag) : regressed ? "slow" : "ok";
}

/* Judges one disk of the batch (FOUND: its finding against its peers, BW:
 * its first read's rate). Returns whether it was confirmed out of line. */
static bool judge_one(struct disk_read *d, const struct outlier_finding *found, double bw,
		      const struct readtest_opts *opts, double regression_pct)
{
	if (d->status != READTEST_OK) {
		d->verdict = readtest_status_name(d->status);
		if (d->io_error || d->no_response) {
			/* A finding in its own right: the reason names the disk and the offset. */
			snprintf(d->sentence, sizeof(d->sentence), "%s", d->reason);
			log_msg(LOG_WARN, "READ-DISK (%s): %s", d->info.dev_path, d->sentence);
			return false; /* not out of line with its peers: a failure, counted as an error */
		}
		/* A skipped disk's reason is in its own field: the sentence only
		 * says that it is not judged. */
		if (d->status == READTEST_SKIPPED)
			snprintf(d->sentence, sizeof(d->sentence), "%s was not read, so it is not judged", d->info.dev_path);
		else
			snprintf(d->sentence, sizeof(d->sentence), "%s: %s", d->info.dev_path, d->reason);
		return false;
	}
	d->finding = *found;
	d->reads_total = 1;
	d->reads_flagged = (found->flag == OUTLIER_SLOW || found->flag == OUTLIER_FAST) ? 1 : 0;
	d->baseline_flagged = below_baseline(d, bw, regression_pct) ? 1 : 0;
	if (d->reads_flagged || d->baseline_flagged)
		confirm(d, opts, regression_pct);
	d->verdict = read_verdict_word(d);
	read_verdict_describe(d, bw);
	if (strcmp(d->verdict, "ok") == 0)
		return false;
	log_msg(LOG_WARN, "READ-DISK (%s): %s: %s", d->info.dev_path, d->verdict, d->sentence);
	return true;
}

size_t read_batch_judge(struct read_batch *b)
{
	struct outlier_sample *samples = xcalloc(b->count, sizeof(*samples));
	char (*groups)[200] = xcalloc(b->count, sizeof(*groups));
	for (size_t i = 0; i < b->count; i++) {
		const struct disk_read *d = &b->reads[i];
		outlier_group_key(d->info.model, d->info.size_bytes, groups[i], sizeof(groups[i]));
		samples[i] = (struct outlier_sample){
			.ok = d->status == READTEST_OK,
			.bw = d->status == READTEST_OK ? disk_read_figure(d) : 0, /* IOPS in the IOPS pass */
			.group = groups[i],
		};
	}
	struct outlier_finding *found = xcalloc(b->count, sizeof(*found));
	outlier_analyze(samples, b->count, &outlier_default_params, found);

	size_t flagged = 0;
	struct readtest_opts opts = b->opts;
	opts.progress = NULL;
	for (size_t i = 0; i < b->count; i++)
		flagged += judge_one(&b->reads[i], &found[i], samples[i].bw, &opts, b->regression_pct);
	free(found);
	free(groups);
	free(samples);
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

void read_batch_conclude(struct read_batch *b, const char *db_path)
{
	if (interrupt_signal())
		return;
	read_batch_load_baselines(b, db_path);
	read_batch_log_conclusion(b, read_batch_judge(b));
	read_health_check_flagged(b->reads, b->count);
}
