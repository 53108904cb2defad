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

/* Below this share of its solo rate, a disk read with its group is held back
 * by the path they share. Independent paths stay near 100%. */
#define SHARED_PATH_LIMIT_PCT 70.0

static void measure_together(struct read_batch *b)
{
	struct read_batch together = { .opts = b->opts, .parallel = true, .count = b->count };
	together.reads = xcalloc(b->count, sizeof(*together.reads));
	for (size_t i = 0; i < b->count; i++) {
		together.reads[i].info = b->reads[i].info;
		if (b->reads[i].status != READTEST_OK) {
			together.reads[i].status = READTEST_SKIPPED;
			snprintf(together.reads[i].reason, sizeof(together.reads[i].reason), "not read alone");
		}
	}
	log_msg(LOG_INFO, "READ-DISKS: parallel pass: every disk that read alone, all at once");
	read_batch_execute(&together);
	for (size_t i = 0; i < b->count; i++) {
		struct disk_read *d = &b->reads[i];
		if (d->status != READTEST_OK || together.reads[i].status != READTEST_OK)
			continue;
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
	struct shared_path *grown = realloc(p->groups, (p->count + 1) * sizeof(*grown));
	if (!grown)
		abort();
	p->groups = grown;
	struct shared_path *g = &p->groups[p->count++];
	*g = (struct shared_path){ .disks = 0 };
	snprintf(g->group, sizeof(g->group), "%s", group);
	return g;
}

void read_batch_parallel_pass(struct read_batch *b, struct shared_paths *ret)
{
	*ret = (struct shared_paths){ 0 };
	measure_together(b);
	double *pcts = xcalloc(b->count, sizeof(*pcts));
	for (size_t i = 0; i < b->count; i++) {
		const struct disk_read *d = &b->reads[i];
		if (d->parallel_bw > 0)
			find_or_add(ret, d->info.path_group[0] ? d->info.path_group : "unknown")->disks++;
	}
	for (size_t g = 0; g < ret->count; g++) {
		struct shared_path *sp = &ret->groups[g];
		size_t n = 0;
		for (size_t i = 0; i < b->count; i++) {
			const struct disk_read *d = &b->reads[i];
			const char *group = d->info.path_group[0] ? d->info.path_group : "unknown";
			if (d->parallel_bw > 0 && strcmp(group, sp->group) == 0)
				pcts[n++] = d->parallel_pct_of_serial;
		}
		sp->median_pct_of_serial = median_of(pcts, n);
		/* One disk alone on its path has nothing to share it with. */
		sp->bottleneck = sp->disks >= 2 && sp->median_pct_of_serial < SHARED_PATH_LIMIT_PCT;
		if (sp->bottleneck)
			log_msg(LOG_WARN,
				"READ-DISKS: the %zu disks on %s read at %.0f%% of their solo rate when read together: "
				"fast alone, slow together points at the path they share (cable, expander, "
				"controller, or on a VM one backing disk), not at the disks",
				sp->disks, sp->group, sp->median_pct_of_serial);
		else
			log_msg(LOG_INFO, "READ-DISKS: the %zu disk(s) on %s keep %.0f%% of their solo rate together",
				sp->disks, sp->group, sp->median_pct_of_serial);
	}
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
		json_end_object(j);
	}
	json_end_array(j);
}

void shared_paths_release(struct shared_paths *p)
{
	free(p->groups);
	*p = (struct shared_paths){ 0 };
}
