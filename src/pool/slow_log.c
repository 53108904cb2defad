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

int pool_slow_log_judge(const struct pool_layout *l, const struct zpool_lat *lat, struct pool_findings *out,
			char *why, size_t len)
{
	double log_median = 0, log_worst, data_median = 0, data_worst;
	const char *log_name = NULL, *data_name = NULL;
	bool has_log = false;
	for (size_t i = 0; i < l->nvdevs; i++)
		has_log = has_log || l->vdevs[i].klass == POOL_CLASS_LOG;
	if (!has_log) {
		snprintf(why, len, "the pool has no log vdev");
		return -ENODATA;
	}
	if (!class_waits(l, lat, POOL_CLASS_LOG, &log_median, &log_worst, &log_name)) {
		snprintf(why, len, "the log vdev wrote nothing while it was watched");
		return -ENODATA;
	}
	if (!class_waits(l, lat, POOL_CLASS_DATA, &data_median, &data_worst, &data_name)) {
		snprintf(why, len, "the data vdevs wrote nothing while the log was watched");
		return -ENODATA;
	}
	if (!(log_worst > SLOW_LOG_FACTOR * data_median && log_worst > SLOW_LOG_MIN_NS))
		return 0;
	struct pool_finding *f = pool_findings_add(out, "slow-log", "finding", log_name);
	snprintf(f->text, sizeof(f->text), "the log %s is slower than the data vdevs it is there to spare: every sync "
		 "write waits %.1f ms for it, %.1fx the data vdevs' %.1f ms per write", log_name, log_worst / 1e6,
		 log_worst / data_median, data_median / 1e6);
	snprintf(f->fix, sizeof(f->fix), "replace the log device with one that writes faster (a power-loss-protected "
		 "SSD), or remove it (zpool remove %s %s): the data vdevs then hold the log", l->pool, log_name);
	snprintf(f->evidence, sizeof(f->evidence), "zpool iostat -l during sync writes: %s write disk_wait %.0f us, data "
		 "vdevs' median %.0f us over %zu report(s)", log_name, log_worst / 1e3, data_median / 1e3, lat->reports);
	return 1;
}
