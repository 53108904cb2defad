/* pool/random_layout.c: what a pool's layout lets small random reads reach (see random_layout.h). */
#include "pool/random_layout.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

unsigned random_touched(const struct pool_vdev *v, unsigned record, unsigned sector)
{
	unsigned sectors = sector ? (record + sector - 1) / sector : 1;
	unsigned data = 1;
	if (v->type == POOL_VDEV_RAIDZ)
		data = v->width > v->parity ? v->width - v->parity : 1;
	else if (v->type == POOL_VDEV_DRAID)
		data = v->draid_data ? v->draid_data : 1;
	return sectors < data ? (sectors ? sectors : 1) : data;
}

/* The data vdev member load M belongs to in L: a vdev record of the data
 * class, or a disk of its own (its vdev is the pool's name) as a vdev of one. */
static int data_vdev_of(const struct pool_layout *l, const struct random_member_load *m, struct pool_vdev *ret)
{
	if (!m->vdev)
		return -ENOENT;
	if (!strcmp(m->vdev, l->pool)) {
		*ret = (struct pool_vdev){ .type = POOL_VDEV_DISK, .width = 1, .klass = POOL_CLASS_DATA };
		snprintf(ret->name, sizeof(ret->name), "%s", m->vdev);
		return 0;
	}
	for (size_t i = 0; i < l->nvdevs; i++)
		if (!strcmp(l->vdevs[i].name, m->vdev)) {
			if (l->vdevs[i].klass != POOL_CLASS_DATA)
				return -ENOENT;
			*ret = l->vdevs[i];
			return 0;
		}
	return -ENOENT;
}

static struct random_vdev_cost *cost_for(struct random_reading *r, const struct pool_vdev *v, unsigned record,
					 unsigned sector)
{
	for (size_t i = 0; i < r->nvdevs; i++)
		if (!strcmp(r->vdevs[i].name, v->name))
			return &r->vdevs[i];
	if (r->nvdevs == RANDOM_MAX_VDEVS)
		return NULL;
	struct random_vdev_cost *c = &r->vdevs[r->nvdevs++];
	snprintf(c->name, sizeof(c->name), "%s", v->name);
	c->type = v->type;
	c->touched = random_touched(v, record, sector);
	return c;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Adds each data member's capacity to its vdev; the members' busy
 * fractions into BUSY (N of them). Returns the member reads counted. */
static double add_members(struct random_reading *r, const struct pool_layout *l, const struct random_member_load *m,
			  size_t n, double *busy)
{
	double reads = 0;
	for (size_t i = 0; i < n; i++) {
		struct pool_vdev v;
		if (data_vdev_of(l, &m[i], &v) < 0)
			continue;
		struct random_vdev_cost *c = cost_for(r, &v, r->record, r->sector);
		if (!c)
			continue;
		/* A member busy a tenth of the window or less says little about what it could do: counted
		 * as busy a tenth, which keeps an idle member from inflating the capacity. */
		double window = m[i].window_seconds > 0 ? m[i].window_seconds : r->seconds;
		double b = m[i].busy_seconds < window ? m[i].busy_seconds : window;
		b = b > 0.1 * window ? b : 0.1 * window;
		c->capacity += m[i].reads / b;
		c->members++;
		busy[r->members++] = m[i].busy_seconds / window > 1 ? 1 : m[i].busy_seconds / window;
		reads += m[i].reads;
	}
	return reads;
}

static const char *type_word(enum pool_vdev_type t)
{
	return t == POOL_VDEV_RAIDZ ? "raidz" : t == POOL_VDEV_DRAID ? "dRAID" : t == POOL_VDEV_MIRROR ? "mirror" : "disk";
}

/* The widest-touching vdev, for the sentence. */
static const struct random_vdev_cost *widest(const struct random_reading *r)
{
	const struct random_vdev_cost *w = &r->vdevs[0];
	for (size_t i = 1; i < r->nvdevs; i++)
		if (r->vdevs[i].touched > w->touched)
			w = &r->vdevs[i];
	return w;
}

static void write_sentence(struct random_reading *r)
{
	const struct random_vdev_cost *w = widest(r);
	char observed[96] = "";
	if (r->member_reads_per_read > 0)
		snprintf(observed, sizeof(observed), " (the members did %.1f reads per read)", r->member_reads_per_read);
	if (!r->disk_bound) {
		snprintf(r->sentence, sizeof(r->sentence),
			 "the 4 KiB random pass read %.0f IOPS with the pool's data members busy %.0f%% of it (median): "
			 "not limited by the disks or the layout; the limit is elsewhere (CPU, the engine's queue, a cache)",
			 r->measured_iops, r->median_busy * 100);
		return;
	}
	if (!r->model_fits) {
		snprintf(r->sentence, sizeof(r->sentence),
			 "the 4 KiB random pass read %.0f IOPS with the data members busy %.0f%% of it (median), but they "
			 "did %.1f reads per read where the layout needs %.1f: they were busy with other work as well (a "
			 "resilver or scrub, another workload), so the pass says little about the layout",
			 r->measured_iops, r->median_busy * 100, r->member_reads_per_read,
			 r->one_member_iops / r->expected_iops);
		return;
	}
	if (r->layout_limited) {
		snprintf(r->sentence, sizeof(r->sentence),
			 "the 4 KiB random pass is limited by the layout: %.0f IOPS read with the data members busy %.0f%% "
			 "(median), and the layout gives at most about %.0f; %u-byte records on %u-byte sectors touch %u "
			 "members of %s %s per read%s, so %u members serving about %.0f reads/s together give the pool about %.0f",
			 r->measured_iops, r->median_busy * 100, r->expected_iops, r->record, r->sector, w->touched,
			 type_word(w->type), w->name, observed, r->members, r->one_member_iops, r->expected_iops);
		snprintf(r->advice, sizeof(r->advice),
			 "for small random I/O use more vdevs or mirrors (about %.0f IOPS from these disks as mirrors), "
			 "or a special vdev for metadata and small blocks",
			 r->one_member_iops);
		return;
	}
	snprintf(r->sentence, sizeof(r->sentence),
		 "the 4 KiB random pass is limited by the disks, not the layout: %.0f IOPS read with the data members "
		 "busy %.0f%% (median), the layout gives at most about %.0f (each read touches %u member%s%s; the %u "
		 "members serve about %.0f reads/s together)",
		 r->measured_iops, r->median_busy * 100, r->expected_iops, w->touched, w->touched == 1 ? "" : "s",
		 observed, r->members, r->one_member_iops);
}

int random_reading_judge(const struct pool_layout *l, unsigned record, unsigned sector,
			 const struct random_member_load *m, size_t n, double measured_reads, double seconds,
			 struct random_reading *ret)
{
	memset(ret, 0, sizeof(*ret));
	if (seconds <= 0 || record == 0 || sector == 0 || n == 0)
		return -EINVAL;
	ret->record = record;
	ret->sector = sector;
	ret->seconds = seconds;
	ret->measured_iops = measured_reads / seconds;
	double *busy = calloc(n, sizeof(*busy));
	if (!busy)
		return -ENOMEM;
	double member_reads = add_members(ret, l, m, n, busy);
	if (ret->members == 0) {
		free(busy);
		memset(ret, 0, sizeof(*ret));
		return -EINVAL;
	}
	qsort(busy, ret->members, sizeof(*busy), by_value);
	ret->median_busy = ret->members % 2 ? busy[ret->members / 2]
					    : (busy[ret->members / 2 - 1] + busy[ret->members / 2]) / 2;
	free(busy);
	for (size_t i = 0; i < ret->nvdevs; i++) {
		struct random_vdev_cost *c = &ret->vdevs[i];
		c->expected = c->capacity / c->touched;
		ret->expected_iops += c->expected;
		ret->one_member_iops += c->capacity;
	}
	if (measured_reads > 0)
		ret->member_reads_per_read = member_reads / measured_reads;
	ret->disk_bound = ret->median_busy >= RANDOM_DISK_BOUND_BUSY;
	/* The model explains the pass when the members did about as many reads per pool read as it says
	 * (a resilver, a scrub or another workload adds member reads the pass did not ask for). */
	double model_per_read = ret->one_member_iops / ret->expected_iops;
	ret->model_fits = ret->member_reads_per_read <= RANDOM_MODEL_TOLERANCE * model_per_read &&
			  ret->member_reads_per_read * RANDOM_MODEL_TOLERANCE >= model_per_read;
	ret->layout_limited = ret->disk_bound && ret->model_fits &&
			      ret->expected_iops <= RANDOM_LAYOUT_LIMIT_SHARE * ret->one_member_iops;
	write_sentence(ret);
	return 0;
}
