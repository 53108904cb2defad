/* The parallel pass of readdisks --mode both (the solnet-array-test idea):
 * every disk read alone, then all together. Disks that are fast alone but
 * slow together share something that cannot carry them all: a cable, an
 * expander, a controller, or on a VM one backing disk. */
#include "triage/media/read_shared.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/interrupt.h"
#include "basic/log.h"
#include "basic/strbuf.h"

/* Reads the ok disks of B with INCLUDE[i] set all at once; RATES[i] gets
 * each one's rate together, 0 when it failed (its reason in FAILURES[i]
 * when that is not NULL). */
static void read_together(struct read_batch *b, const bool *include, double *rates, char (*failures)[320])
{
	struct read_batch together = { .opts = b->opts, .parallel = true, .count = b->count, .health_swept = true,
				       .progress = b->progress };
	together.reads = xcalloc(b->count, sizeof(*together.reads));
	for (size_t i = 0; i < b->count; i++) {
		together.reads[i].info = b->reads[i].info;
		together.reads[i].link = b->reads[i].link; /* read once: the pass logs no link again */
		together.reads[i].link_read = b->reads[i].link_read;
		/* A disk on another host shares no path with this host's. */
		if (b->reads[i].status != READTEST_OK || !include[i] || b->reads[i].host[0]) {
			together.reads[i].status = READTEST_SKIPPED;
			snprintf(together.reads[i].reason, sizeof(together.reads[i].reason), "not in this pass");
		}
	}
	read_batch_execute(&together);
	for (size_t i = 0; i < b->count; i++) {
		rates[i] = 0;
		if (b->reads[i].status != READTEST_OK || !include[i] || b->reads[i].host[0])
			continue;
		if (together.reads[i].status == READTEST_OK)
			rates[i] = job_bw_bytes_per_s(together.reads[i].res);
		else if (failures)
			snprintf(failures[i], sizeof(failures[i]), "%s", together.reads[i].reason);
	}
	read_batch_release(&together);
}

static void measure_together(struct read_batch *b)
{
	bool *all = xcalloc(b->count ? b->count : 1, sizeof(*all));
	double *rates = xcalloc(b->count ? b->count : 1, sizeof(*rates));
	char(*failures)[320] = xcalloc(b->count ? b->count : 1, sizeof(*failures));
	for (size_t i = 0; i < b->count; i++)
		all[i] = true;
	log_msg(LOG_INFO, "READ-DISKS: parallel pass: every disk that read alone, all at once");
	read_together(b, all, rates, failures);
	for (size_t i = 0; i < b->count; i++) {
		struct disk_read *d = &b->reads[i];
		if (d->status != READTEST_OK)
			continue;
		if (rates[i] <= 0) {
			/* Read fine alone, failed together: said, and left out of its group's judgement. */
			snprintf(d->parallel_failure, sizeof(d->parallel_failure), "%s", failures[i]);
			log_msg(LOG_WARN, "READ-DISKS (%s): read alone, but not together with the others: %s",
				d->info.dev_path, d->parallel_failure);
			continue;
		}
		d->parallel_bw = rates[i];
		d->parallel_pct_of_serial = 100.0 * d->parallel_bw / job_bw_bytes_per_s(d->res);
	}
	free(failures);
	free(rates);
	free(all);
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

/* Judges SP from the shares PCTS of its N disks (WHO: their entries in B);
 * HELD has room for N. */
static void judge_set(const struct read_batch *b, struct shared_path *sp, const double *pcts, const size_t *who,
		      size_t n, bool *held)
{
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
}

/* Judges path group SP from the batch's parallel rates; PCTS, HELD and WHO
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
	judge_set(b, sp, pcts, who, n, held);
	log_group(sp);
}

bool shared_held_by_others(double alone_pct, double all_pct)
{
	return alone_pct >= SHARED_PATH_LIMIT_PCT && all_pct > 0 && all_pct < SHARED_PATH_LIMIT_PCT;
}

static void log_group_pass(const struct shared_path *sp, const char *kind)
{
	if (sp->bottleneck)
		log_msg(LOG_WARN, "READ-DISKS: %s %s, read on its own: its %zu disks read at %.0f%% of their solo rate "
			"together: a path of the group's own (an expander, a cable, a backplane, a backing disk) "
			"cannot carry them, not the disks", kind, sp->group, sp->disks, sp->median_pct_of_serial);
	else if (sp->held_back)
		log_msg(LOG_WARN, "READ-DISKS: %s %s, read on its own: %zu of its %zu disks (%s) read at %.0f%% of their "
			"solo rate while the group keeps %.0f%%: they share something of their own", kind, sp->group,
			sp->held_back, sp->disks, sp->held_back_names, sp->held_back_median_pct, sp->median_pct_of_serial);
	else
		log_msg(LOG_INFO, "READ-DISKS: %s %s, read on its own: its %zu disks keep %.0f%% of their solo rate "
			"together", kind, sp->group, sp->disks, sp->median_pct_of_serial);
}

/* Each group of B with two or more ok disks read on its own, one group at
 * a time, into RET's group_passes; nothing when only one group read. */
static void group_passes(struct read_batch *b, struct shared_paths *ret)
{
	struct read_batch view = *b;
	view.group_by = b->group_by != READ_GROUP_NONE ? b->group_by : READ_GROUP_CONTROLLER;
	ret->by = view.group_by;
	struct read_groups groups;
	read_groups_build(&view, &groups);
	size_t read = 0;
	for (size_t g = 0; g < groups.count; g++)
		read += groups.groups[g].ok > 0;
	if (read < 2) {
		read_groups_release(&groups); /* one group: the pass of all disks is its pass */
		return;
	}
	size_t room = b->count ? b->count : 1;
	bool *include = xcalloc(room, sizeof(*include)), *held = xcalloc(room, sizeof(*held));
	double *rates = xcalloc(room, sizeof(*rates)), *pcts = xcalloc(room, sizeof(*pcts));
	size_t *who = xcalloc(room, sizeof(*who));
	ret->group_passes = xcalloc(groups.count ? groups.count : 1, sizeof(*ret->group_passes));
	for (size_t g = 0; g < groups.count && !interrupt_requested(); g++) {
		if (groups.groups[g].ok < 2)
			continue;
		for (size_t i = 0; i < b->count; i++)
			include[i] = groups.member_of[i] == g;
		struct shared_path *sp = &ret->group_passes[ret->group_pass_count++];
		snprintf(sp->group, sizeof(sp->group), "%s", groups.groups[g].name);
		log_msg(LOG_INFO, "READ-DISKS: group pass: %s %s, its disks all at once", read_group_by_name(view.group_by),
			sp->group);
		read_together(b, include, rates, NULL);
		size_t n = 0;
		for (size_t i = 0; i < b->count; i++) {
			if (!include[i] || rates[i] <= 0)
				continue;
			b->reads[i].group_bw = rates[i];
			b->reads[i].group_pct_of_serial = 100.0 * rates[i] / job_bw_bytes_per_s(b->reads[i].res);
			who[n] = i;
			pcts[n++] = b->reads[i].group_pct_of_serial;
		}
		sp->disks = n;
		judge_set(b, sp, pcts, who, n, held);
		log_group_pass(sp, read_group_by_name(view.group_by));
	}
	free(who);
	free(pcts);
	free(rates);
	free(held);
	free(include);
	read_groups_release(&groups);
}

/* Each group read on its own against its disks' shares among all. */
static void compare_group_passes(const struct read_batch *b, struct shared_paths *ret)
{
	double *pcts = xcalloc(b->count ? b->count : 1, sizeof(*pcts));
	for (size_t g = 0; g < ret->group_pass_count; g++) {
		struct shared_path *sp = &ret->group_passes[g];
		size_t n = 0;
		for (size_t i = 0; i < b->count; i++) {
			const struct disk_read *d = &b->reads[i];
			char label[sizeof(sp->group)];
			read_group_label(d, ret->by, label, sizeof(label));
			if (d->group_bw > 0 && d->parallel_bw > 0 && strcmp(label, sp->group) == 0)
				pcts[n++] = d->parallel_pct_of_serial;
		}
		sp->all_median_pct = median_of(pcts, n);
		sp->held_by_others = shared_held_by_others(sp->median_pct_of_serial, sp->all_median_pct);
		if (sp->held_by_others)
			log_msg(LOG_WARN, "READ-DISKS: %s %s keeps %.0f%% of its solo rate on its own but %.0f%% beside the "
				"other groups: it shares a path with them (an HBA, an expander, a cable), not a fault of its "
				"own", read_group_by_name(ret->by), sp->group, sp->median_pct_of_serial, sp->all_median_pct);
	}
	free(pcts);
}

void read_batch_parallel_pass(struct read_batch *b, struct shared_paths *ret)
{
	*ret = (struct shared_paths){ 0 };
	group_passes(b, ret);
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
	compare_group_passes(b, ret);
}

static void shared_path_json(struct json *j, const struct shared_path *sp, bool group_pass)
{
	json_begin_object(j, NULL);
	json_string(j, group_pass ? "group" : "path_group", sp->group);
	json_uint(j, "disks", sp->disks);
	json_double(j, "median_percent_of_serial", sp->median_pct_of_serial);
	json_bool(j, "bottleneck", sp->bottleneck);
	/* The subset held back while the group's median holds. */
	json_begin_array(j, "held_back");
	char names[sizeof(sp->held_back_names)];
	snprintf(names, sizeof(names), "%s", sp->held_back_names);
	char *save = NULL;
	for (char *w = strtok_r(names, " ", &save); w; w = strtok_r(NULL, " ", &save))
		json_string(j, NULL, w);
	json_end_array(j);
	if (sp->held_back)
		json_double(j, "held_back_median_percent_of_serial", sp->held_back_median_pct);
	else
		json_string(j, "held_back_median_percent_of_serial", NULL);
	if (group_pass) {
		json_double(j, "all_median_percent_of_serial", sp->all_median_pct);
		json_bool(j, "held_by_others", sp->held_by_others);
	}
	json_end_object(j);
}

void shared_paths_json(const struct shared_paths *p, struct json *j)
{
	json_begin_array(j, "shared_paths");
	for (size_t i = 0; i < p->count; i++)
		shared_path_json(j, &p->groups[i], false);
	json_end_array(j);
	if (!p->group_pass_count)
		return;
	json_begin_object(j, "group_passes");
	json_string(j, "by", read_group_by_name(p->by));
	json_begin_array(j, "groups");
	for (size_t i = 0; i < p->group_pass_count; i++)
		shared_path_json(j, &p->group_passes[i], true);
	json_end_array(j);
	json_end_object(j);
}

void shared_paths_release(struct shared_paths *p)
{
	free(p->groups);
	free(p->group_passes);
	*p = (struct shared_paths){ 0 };
}
