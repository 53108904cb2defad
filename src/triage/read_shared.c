/* The parallel pass of readdisks --mode both (the solnet-array-test idea):
 * every disk read alone, then all together. Disks that are fast alone but
 * slow together share something that cannot carry them all: a cable, an
 * expander, a controller, or on a VM one backing disk. */
#include "triage/read_shared.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/log.h"
#include "basic/strbuf.h"

static void measure_together(struct read_batch *b)
{
	struct read_batch together = { .opts = b->opts, .parallel = true, .count = b->count, .health_swept = true,
				       .progress = b->progress };
	together.reads = xcalloc(b->count, sizeof(*together.reads));
	for (size_t i = 0; i < b->count; i++) {
		together.reads[i].info = b->reads[i].info;
		together.reads[i].link = b->reads[i].link; /* read once: the pass logs no link again */
		together.reads[i].link_read = b->reads[i].link_read;
		if (b->reads[i].status != READTEST_OK) {
			together.reads[i].status = READTEST_SKIPPED;
			snprintf(together.reads[i].reason, sizeof(together.reads[i].reason), "not read alone");
		}
	}
	log_msg(LOG_INFO, "READ-DISKS: parallel pass: every disk that read alone, all at once");
	read_batch_execute(&together);
	for (size_t i = 0; i < b->count; i++) {
		struct disk_read *d = &b->reads[i];
		if (d->status != READTEST_OK)
			continue;
		if (together.reads[i].status != READTEST_OK) {
			/* Read fine alone, failed together: said, and left out of its group's judgement. */
			snprintf(d->parallel_failure, sizeof(d->parallel_failure), "%s", together.reads[i].reason);
			log_msg(LOG_WARN, "READ-DISKS (%s): read alone, but not together with the others: %s",
				d->info.dev_path, d->parallel_failure);
			continue;
		}
		d->parallel_bw = job_bw_bytes_per_s(together.reads[i].res);
		d->parallel_pct_of_serial = 100.0 * d->parallel_bw / job_bw_bytes_per_s(d->res);
	}
	read_batch_release(&together);
}

static struct shared_path *find_or_add(struct shared_paths *p, const char *group)
{
	for (size_t i = 0; i < p->count; i++)
		if (strcmp(p->groups[i].group, group) == 0)
			return &p->groups[i];
	struct shared_path *grown = xreallocarray(p->groups, p->count + 1, sizeof(*grown));
	p->groups = grown;
	struct shared_path *g = &p->groups[p->count++];
	*g = (struct shared_path){ .disks = 0 };
	snprintf(g->group, sizeof(g->group), "%s", group);
	return g;
}

enum shared_judgement shared_path_judge(const double *pcts, size_t n, double *median, bool *held_back)
{
	double *sorted = xcalloc(n ? n : 1, sizeof(*sorted));
	size_t below = 0;
	for (size_t i = 0; i < n; i++) {
		sorted[i] = pcts[i];
		held_back[i] = false;
		below += pcts[i] < SHARED_PATH_LIMIT_PCT;
	}
	*median = median_of(sorted, n);
	free(sorted);
	/* One disk alone on its path has nothing to share it with. */
	if (n < 2)
		return SHARED_FINE;
	if (*median < SHARED_PATH_LIMIT_PCT)
		return SHARED_PATH;
	if (below < 2)
		return SHARED_FINE;
	for (size_t i = 0; i < n; i++)
		held_back[i] = pcts[i] < SHARED_PATH_LIMIT_PCT;
	return SHARED_SUBSET;
}

static const char *group_of(const struct disk_read *d)
{
	return d->info.path_group[0] ? d->info.path_group : "unknown";
}

static void log_group(const struct shared_path *sp)
{
	if (sp->bottleneck)
		log_msg(LOG_WARN,
			"READ-DISKS: the %zu disks on %s read at %.0f%% of their solo rate when read together: "
			"fast alone, slow together points at the path they share (cable, expander, "
			"controller, or on a VM one backing disk), not at the disks",
			sp->disks, sp->group, sp->median_pct_of_serial);
	else if (sp->held_back)
		log_msg(LOG_WARN,
			"READ-DISKS: on %s, %zu of its %zu disks (%s) read at %.0f%% of their solo rate when read "
			"together while the group keeps %.0f%%: they share something of their own below %s "
			"(an expander port, a backing disk, a throttle group), not the disks",
			sp->group, sp->held_back, sp->disks, sp->held_back_names, sp->held_back_median_pct,
			sp->median_pct_of_serial, sp->group);
	else
		log_msg(LOG_INFO, "READ-DISKS: the %zu disk(s) on %s keep %.0f%% of their solo rate together",
			sp->disks, sp->group, sp->median_pct_of_serial);
}

/* Judges group SP from the batch's parallel rates; PCTS, HELD and WHO
 * have room for every disk of the batch. */
static void judge_group(const struct read_batch *b, struct shared_path *sp, double *pcts, bool *held, size_t *who)
{
	size_t n = 0;
	for (size_t i = 0; i < b->count; i++) {
		const struct disk_read *d = &b->reads[i];
		if (d->parallel_bw > 0 && strcmp(group_of(d), sp->group) == 0) {
			who[n] = i;
			pcts[n++] = d->parallel_pct_of_serial;
		}
	}
	enum shared_judgement v = shared_path_judge(pcts, n, &sp->median_pct_of_serial, held);
	sp->bottleneck = v == SHARED_PATH;
	struct strbuf names = STRBUF_INIT;
	double *mine = xcalloc(n ? n : 1, sizeof(*mine));
	for (size_t k = 0; k < n; k++)
		if (held[k]) {
			mine[sp->held_back++] = pcts[k];
			strbuf_addf(&names, "%s%s", names.len ? " " : "", b->reads[who[k]].info.kname);
		}
	sp->held_back_median_pct = median_of(mine, sp->held_back);
	snprintf(sp->held_back_names, sizeof(sp->held_back_names), "%s", names.len ? names.buf : "");
	free(mine);
	strbuf_release(&names);
	log_group(sp);
}

void read_batch_parallel_pass(struct read_batch *b, struct shared_paths *ret)
{
	*ret = (struct shared_paths){ 0 };
	measure_together(b);
	for (size_t i = 0; i < b->count; i++)
		if (b->reads[i].parallel_bw > 0)
			find_or_add(ret, group_of(&b->reads[i]))->disks++;
	double *pcts = xcalloc(b->count ? b->count : 1, sizeof(*pcts));
	bool *held = xcalloc(b->count ? b->count : 1, sizeof(*held));
	size_t *who = xcalloc(b->count ? b->count : 1, sizeof(*who));
	for (size_t g = 0; g < ret->count; g++)
		judge_group(b, &ret->groups[g], pcts, held, who);
	free(who);
	free(held);
	free(pcts);
}

void shared_paths_json(const struct shared_paths *p, struct json *j)
{
	json_begin_array(j, "shared_paths");
	for (size_t i = 0; i < p->count; i++) {
		json_begin_object(j, NULL);
		json_string(j, "path_group", p->groups[i].group);
		json_uint(j, "disks", p->groups[i].disks);
		json_double(j, "median_percent_of_serial", p->groups[i].median_pct_of_serial);
		json_bool(j, "bottleneck", p->groups[i].bottleneck);
		/* The subset held back while the group's median holds. */
		json_begin_array(j, "held_back");
		char names[sizeof(p->groups[i].held_back_names)];
		snprintf(names, sizeof(names), "%s", p->groups[i].held_back_names);
		char *save = NULL;
		for (char *w = strtok_r(names, " ", &save); w; w = strtok_r(NULL, " ", &save))
			json_string(j, NULL, w);
		json_end_array(j);
		if (p->groups[i].held_back)
			json_double(j, "held_back_median_percent_of_serial", p->groups[i].held_back_median_pct);
		else
			json_string(j, "held_back_median_percent_of_serial", NULL);
		json_end_object(j);
	}
	json_end_array(j);
}

void shared_paths_release(struct shared_paths *p)
{
	free(p->groups);
	*p = (struct shared_paths){ 0 };
}
