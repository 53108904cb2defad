/* A log vdev slower than the data vdevs (see pool/slow_log.h). */
#include "pool/slow_log.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int compare_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The write wait of class KLASS's vdevs that wrote: their median into
 * *RET_MEDIAN (the log: the slowest into *RET_WORST and its name). Returns
 * how many wrote. */
static size_t class_waits(const struct pool_layout *l, const struct zpool_lat *lat, enum pool_class klass,
			  double *ret_median, double *ret_worst, const char **ret_worst_name)
{
	double *w = calloc(l->nvdevs ? l->nvdevs : 1, sizeof(*w));
	size_t n = 0;
	*ret_worst = -1;
	for (size_t i = 0; w && i < l->nvdevs; i++) {
		const struct zpool_lat_row *row = l->vdevs[i].klass == klass ? zpool_lat_row(lat, l->vdevs[i].name) : NULL;
		if (!row || row->write_ops <= 0 || row->write_disk_wait_ns < 0)
			continue;
		w[n++] = row->write_disk_wait_ns;
		if (row->write_disk_wait_ns > *ret_worst) {
			*ret_worst = row->write_disk_wait_ns;
			*ret_worst_name = l->vdevs[i].name;
		}
	}
	if (n) {
		qsort(w, n, sizeof(*w), compare_double);
		*ret_median = n % 2 ? w[n / 2] : (w[n / 2 - 1] + w[n / 2]) / 2;
	}
	free(w);
	return n;
}

/* The words of a slow support class's finding. */
struct class_words {
	const char *code, *name, *what; /* "slow-log", "log", "every sync write" */
};

static void add_finding(const struct pool_layout *l, const struct zpool_lat *lat, enum pool_class klass,
			const char *name, double worst, double data_median, struct pool_findings *out)
{
	const struct class_words w = klass == POOL_CLASS_LOG
		? (struct class_words){ "slow-log", "log", "every sync write" }
		: (struct class_words){ "slow-special", "special vdev", "every metadata write" };
	struct pool_finding *f = pool_findings_add(out, w.code, "finding", name);
	if (klass == POOL_CLASS_LOG) {
		snprintf(f->text, sizeof(f->text), "the log %s is slower than the data vdevs it is there to spare: every "
			 "sync write waits %.1f ms for it, %.1fx the data vdevs' %.1f ms per write", name, worst / 1e6,
			 worst / data_median, data_median / 1e6);
		snprintf(f->fix, sizeof(f->fix), "replace the log device with one that writes faster (a "
			 "power-loss-protected SSD), or remove it (zpool remove %s %s): the data vdevs then hold the log",
			 l->pool, name);
	} else {
		snprintf(f->text, sizeof(f->text), "the special vdev %s is slower than the data vdevs it is there to "
			 "speed up: %s waits %.1f ms for it, %.1fx the data vdevs' %.1f ms per write", name, w.what,
			 worst / 1e6, worst / data_median, data_median / 1e6);
		snprintf(f->fix, sizeof(f->fix), "replace the special vdev's devices one by one with faster ones (zpool "
			 "replace %s DEVICE NEW: SSDs at least as redundant as the data vdevs); it holds the pool's metadata, "
			 "and on a pool with raidz it cannot be removed", l->pool);
	}
	snprintf(f->evidence, sizeof(f->evidence), "zpool iostat -l during %s: %s write disk_wait %.0f us, data "
		 "vdevs' median %.0f us over %zu report(s)", klass == POOL_CLASS_LOG ? "sync writes" : "metadata writes",
		 name, worst / 1e3, data_median / 1e3, lat->reports);
}

int pool_slow_class_judge(const struct pool_layout *l, const struct zpool_lat *lat, enum pool_class klass,
			  struct pool_findings *out, char *why, size_t len)
{
	double class_median = 0, class_worst, data_median = 0, data_worst;
	const char *class_name = NULL, *data_name = NULL;
	const char *word = klass == POOL_CLASS_LOG ? "log" : "special";
	bool has_class = false;
	for (size_t i = 0; i < l->nvdevs; i++)
		has_class = has_class || l->vdevs[i].klass == klass;
	if (!has_class) {
		snprintf(why, len, "the pool has no %s vdev", word);
		return -ENODATA;
	}
	if (!class_waits(l, lat, klass, &class_median, &class_worst, &class_name)) {
		snprintf(why, len, "the %s vdev wrote nothing while it was watched", word);
		return -ENODATA;
	}
	if (!class_waits(l, lat, POOL_CLASS_DATA, &data_median, &data_worst, &data_name)) {
		snprintf(why, len, "the data vdevs wrote nothing while the %s was watched", word);
		return -ENODATA;
	}
	if (!(class_worst > SLOW_LOG_FACTOR * data_median && class_worst > SLOW_LOG_MIN_NS))
		return 0;
	add_finding(l, lat, klass, class_name, class_worst, data_median, out);
	return 1;
}

int pool_slow_log_judge(const struct pool_layout *l, const struct zpool_lat *lat, struct pool_findings *out,
			char *why, size_t len)
{
	return pool_slow_class_judge(l, lat, POOL_CLASS_LOG, out, why, len);
}
