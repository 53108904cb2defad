/* Grouping a read batch: by pool device group (vdev), by controller (the
 * PCI function and SCSI host on the sysfs path, or what a virtual disk
 * shares), or by SES enclosure where sysfs exposes one. Each group gets
 * one line of its members' rates and a median, so a group that is slower
 * as a whole (one controller, one enclosure) shows next to a single slow
 * member. */
#include "triage/media/read_group.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/strbuf.h"
#include "media/outlier.h"
#include "pool/lookup.h"

static const char *const group_by_names[] = { "none", "vdev", "controller", "enclosure" };

int read_group_parse(const char *arg, enum read_group_by *ret)
{
	for (size_t i = 0; i < sizeof(group_by_names) / sizeof(group_by_names[0]); i++)
		if (strcmp(arg, group_by_names[i]) == 0) {
			*ret = (enum read_group_by)i;
			return 0;
		}
	return -1;
}

const char *read_group_by_name(enum read_group_by by)
{
	return group_by_names[by];
}

void read_group_label(const struct disk_read *d, enum read_group_by by, char *buf, size_t len)
{
	switch (by) {
	case READ_GROUP_VDEV:
		if (d->pool[0])
			snprintf(buf, len, "%s/%s", d->pool, d->vdev);
		else
			snprintf(buf, len, "%s", d->vdev[0] ? d->vdev : "not in a pool");
		return;
	case READ_GROUP_CONTROLLER:
		snprintf(buf, len, "%s", d->info.path_group[0] ? d->info.path_group : "unknown controller");
		return;
	case READ_GROUP_ENCLOSURE:
		if (d->info.enclosure[0])
			snprintf(buf, len, "enclosure %s", d->info.enclosure);
		else
			snprintf(buf, len, "no enclosure in sysfs");
		return;
	case READ_GROUP_NONE:
		break;
	}
	snprintf(buf, len, "all");
}

void read_batch_assign_pools(struct read_batch *b)
{
	struct pool_disks pools;
	pool_disks_collect(&pools);
	for (size_t i = 0; i < b->count; i++) {
		struct disk_read *d = &b->reads[i];
		const struct pool_disk *p = pool_disks_find(&pools, d->info.kname);
		if (!p)
			continue;
		snprintf(d->pool, sizeof(d->pool), "%s", p->pool);
		snprintf(d->vdev, sizeof(d->vdev), "%s", p->vdev);
	}
	pool_disks_release(&pools);
}

static int compare_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

void read_groups_build(const struct read_batch *b, struct read_groups *ret)
{
	*ret = (struct read_groups){ .by = b->group_by };
	if (b->group_by == READ_GROUP_NONE)
		return;
	ret->groups = xcalloc(b->count ? b->count : 1, sizeof(*ret->groups));
	ret->member_of = xcalloc(b->count ? b->count : 1, sizeof(*ret->member_of));
	/* Groups and members in the batch's order: the pool's own order for
	 * readpooldisks, kernel-name order for readdisks. */
	for (size_t i = 0; i < b->count; i++) {
		/* A disk skipped by enumeration (a multipath namespace's hidden
		 * path, an empty drive) is not on the controller as a disk to read;
		 * a pool member stays in its vdev even when skipped. */
		if (b->group_by != READ_GROUP_VDEV && b->reads[i].status == READTEST_SKIPPED) {
			ret->member_of[i] = READ_GROUP_OUTSIDE;
			continue;
		}
		char label[sizeof(ret->groups[0].name)];
		read_group_label(&b->reads[i], b->group_by, label, sizeof(label));
		size_t g = 0;
		while (g < ret->count && strcmp(ret->groups[g].name, label) != 0)
			g++;
		if (g == ret->count)
			snprintf(ret->groups[ret->count++].name, sizeof(label), "%s", label);
		ret->member_of[i] = g;
		ret->groups[g].disks++;
	}
	double *rates = xcalloc(b->count ? b->count : 1, sizeof(*rates));
	for (size_t g = 0; g < ret->count; g++) {
		size_t n = 0;
		for (size_t i = 0; i < b->count; i++) {
			const struct disk_read *d = &b->reads[i];
			if (ret->member_of[i] != g)
				continue;
			if (d->status == READTEST_OK)
				rates[n++] = job_bw_bytes_per_s(d->res);
			ret->groups[g].slow += disk_verdict_is_slow(d->verdict.kind);
		}
		ret->groups[g].ok = n;
		qsort(rates, n, sizeof(*rates), compare_double);
		ret->groups[g].median_bw = n == 0 ? 0 : n % 2 ? rates[n / 2] : (rates[n / 2 - 1] + rates[n / 2]) / 2;
	}
	free(rates);
	read_groups_judge(ret);
}

/* The words for one slow or fast group G among N. */
static void group_sentence(const char *kind, struct read_group *g, size_t n)
{
	const struct outlier_finding *f = &g->finding;
	char alone[160];
	if (f->flag == OUTLIER_FAST)
		snprintf(alone, sizeof(alone), "faster than the other %ss", kind);
	else if (g->slow == 0)
		snprintf(alone, sizeof(alone), "none of its %zu disks is slow against its peers alone: it is slow only "
			 "together", g->ok);
	else if (g->slow >= g->ok)
		snprintf(alone, sizeof(alone), "its disks are slow one by one (%zu of %zu)", g->slow, g->ok);
	else
		snprintf(alone, sizeof(alone), "%zu of its %zu disks are slow one by one, the others only together",
			 g->slow, g->ok);
	snprintf(g->sentence, sizeof(g->sentence), "%s %s reads at %.0f%% of the median of %zu %ss (%.0f MB/s "
		 "against %.0f MB/s): %s", kind, g->name, 100 * f->ratio, n, kind, g->median_bw / 1e6,
		 f->peer_median / 1e6, alone);
}

void read_groups_judge(struct read_groups *g)
{
	if (g->count == 0)
		return;
	struct outlier_sample *s = xcalloc(g->count, sizeof(*s));
	struct outlier_finding *f = xcalloc(g->count, sizeof(*f));
	size_t read = 0;
	for (size_t k = 0; k < g->count; k++) {
		s[k] = (struct outlier_sample){ .bw = g->groups[k].median_bw, .ok = g->groups[k].ok > 0, .group = "" };
		read += s[k].ok;
	}
	outlier_analyze(s, g->count, &outlier_default_params, f);
	const char *kind = read_group_by_name(g->by);
	for (size_t k = 0; k < g->count; k++) {
		struct read_group *grp = &g->groups[k];
		grp->finding = s[k].ok && read >= OUTLIER_MIN_SET ? f[k] : (struct outlier_finding){ .flag = OUTLIER_NO_PEERS };
		grp->sentence[0] = '\0';
		if (grp->finding.flag == OUTLIER_SLOW || grp->finding.flag == OUTLIER_FAST)
			group_sentence(kind, grp, read);
	}
	free(f);
	free(s);
}

void read_groups_release(struct read_groups *g)
{
	free(g->groups);
	free(g->member_of);
	*g = (struct read_groups){ 0 };
}

void read_groups_json(const struct read_batch *b, const struct read_groups *groups, struct json *j)
{
	if (groups->by == READ_GROUP_NONE)
		return;
	json_begin_object(j, "grouping");
	json_string(j, "by", read_group_by_name(groups->by));
	json_begin_array(j, "groups");
	for (size_t g = 0; g < groups->count; g++) {
		const struct read_group *grp = &groups->groups[g];
		json_begin_object(j, NULL);
		json_string(j, "name", grp->name);
		json_uint(j, "disks", grp->disks);
		json_uint(j, "ok", grp->ok);
		json_uint(j, "slow", grp->slow);
		json_double(j, "median_bw_bytes_per_s", grp->median_bw);
		if (grp->finding.flag == OUTLIER_NO_PEERS) {
			json_null(j, "verdict");
		} else {
			json_string(j, "verdict", grp->finding.flag == OUTLIER_SLOW ? "slow"
						  : grp->finding.flag == OUTLIER_FAST ? "fast" : "ok");
			json_double(j, "ratio", grp->finding.ratio);
			json_double(j, "robust_z", grp->finding.robust_z);
		}
		json_string(j, "sentence", grp->sentence[0] ? grp->sentence : NULL);
		json_begin_array(j, "devices");
		for (size_t i = 0; i < b->count; i++)
			if (groups->member_of[i] == g)
				json_string(j, NULL, b->reads[i].info.dev_path);
		json_end_array(j);
		json_end_object(j);
	}
	json_end_array(j);
	json_end_object(j);
}

void read_group_device_json(const struct disk_read *d, struct json *j)
{
	json_begin_object(j, "groups");
	json_string(j, "pool", d->pool[0] ? d->pool : NULL);
	json_string(j, "vdev", d->vdev[0] ? d->vdev : NULL);
	json_string(j, "controller", d->info.path_group[0] ? d->info.path_group : NULL);
	json_string(j, "enclosure", d->info.enclosure[0] ? d->info.enclosure : NULL);
	json_string(j, "enclosure_slot", d->info.enclosure_slot[0] ? d->info.enclosure_slot : NULL);
	json_end_object(j);
}
