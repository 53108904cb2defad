/* The verdict on a read batch: each disk against its peers, flagged disks
 * re-read to confirm, and one sentence per disk that says what was found. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/log.h"
#include "basic/strbuf.h"
#include "cmd/readdisks.h"

#define CONFIRM_READS 2 /* re-reads of a flagged disk; slow only if all agree */

static const char *flag_word(enum outlier_flag f)
{
	return f == OUTLIER_SLOW ? "slow" : f == OUTLIER_FAST ? "fast" : "ok";
}

static void describe(struct disk_read *d)
{
	const struct outlier_finding *f = &d->finding;
	const char *name = d->info.kname[0] ? d->info.kname : d->info.dev_path;
	if (f->flag == OUTLIER_NO_PEERS) {
		snprintf(d->sentence, sizeof(d->sentence), "%s has no peers to compare with (fewer than %d disks read)",
			 name, OUTLIER_MIN_SET);
		return;
	}
	bool out = d->reads_flagged > 0;
	snprintf(d->sentence, sizeof(d->sentence), "%s reads at %.0f%% of the median of %zu %sdisks (%u of %u reads %s)",
		 name, 100.0 * f->ratio, f->set_size, f->peers_are_group ? "same-model " : "",
		 out ? d->reads_flagged : d->reads_total, d->reads_total, out ? "out of line" : "in line");
}

/* Re-reads D and counts how many of its reads were out of line in the same
 * direction as the first. */
static void confirm(struct disk_read *d, const struct readtest_opts *opts)
{
	enum outlier_flag first = d->finding.flag;
	for (int i = 0; i < CONFIRM_READS; i++) {
		struct disk_read again = { .info = d->info };
		readtest_run(&again, opts);
		d->reads_total++;
		if (again.status == READTEST_OK) {
			double bw = job_bw_bytes_per_s(again.res);
			if (outlier_classify(bw, &d->finding, &outlier_default_params) == first)
				d->reads_flagged++;
			log_msg(LOG_INFO, "READ-DISK (%s): confirming read %d of %d: %.0f%% of its peers' median",
				d->info.dev_path, i + 1, CONFIRM_READS, 100.0 * bw / d->finding.peer_median);
		}
		disk_read_release(&again);
	}
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
			.bw = d->status == READTEST_OK ? job_bw_bytes_per_s(d->res) : 0,
			.group = groups[i],
		};
	}
	struct outlier_finding *found = xcalloc(b->count, sizeof(*found));
	outlier_analyze(samples, b->count, &outlier_default_params, found);

	size_t flagged = 0;
	struct readtest_opts opts = b->opts;
	opts.progress = false;
	for (size_t i = 0; i < b->count; i++) {
		struct disk_read *d = &b->reads[i];
		if (d->status != READTEST_OK) {
			d->verdict = readtest_status_name(d->status);
			snprintf(d->sentence, sizeof(d->sentence), "%s: %s", d->info.dev_path, d->reason);
			continue;
		}
		d->finding = found[i];
		d->reads_total = 1;
		d->reads_flagged = (found[i].flag == OUTLIER_SLOW || found[i].flag == OUTLIER_FAST) ? 1 : 0;
		if (d->reads_flagged)
			confirm(d, &opts);
		bool confirmed = d->reads_flagged && d->reads_flagged == d->reads_total;
		d->verdict = confirmed ? flag_word(found[i].flag) : "ok";
		describe(d);
		if (confirmed) {
			flagged++;
			log_msg(LOG_WARN, "READ-DISK (%s): %s: %s", d->info.dev_path, d->verdict, d->sentence);
		}
	}
	free(found);
	free(groups);
	free(samples);
	return flagged;
}

void read_batch_log_conclusion(const struct read_batch *b, size_t flagged)
{
	size_t ok = 0;
	for (size_t i = 0; i < b->count; i++)
		ok += b->reads[i].status == READTEST_OK;
	if (ok < OUTLIER_MIN_SET)
		return;
	if (flagged == 0)
		log_msg(LOG_INFO, "No disk stands out from its peers: this is not a media anomaly. "
				  "If the system is slow and these rates are all low, the media is uniformly "
				  "slow or the loss is above it; check the network next.");
	else
		log_msg(LOG_WARN, "%zu disk(s) read markedly differently from identical peers: replace or "
				  "re-test a slow one before tuning anything above it.",
			flagged);
}
