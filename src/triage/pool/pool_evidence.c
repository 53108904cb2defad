/* triage/pool/pool_evidence.c: the pool's settings and state before a workload,
 * its members' telemetry during it. */
#include "triage/pool/pool_evidence.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "basic/fsutil.h"
#include "basic/log.h"
#include "basic/spawn.h"
#include "pool/lookup.h"
#include "pool/member_load.h"
#include "pool/pool_findings.h"
#include "pool/pool_state.h"

#define TOOL_TIMEOUT_MS 30000

void pool_evidence_init(struct pool_evidence *e, const char *tag)
{
	*e = (struct pool_evidence){ .ashift = -1 };
	snprintf(e->tag, sizeof(e->tag), "%s", tag);
}

static void log_finding(const struct pool_evidence *e, const struct pool_finding *f)
{
	log_msg(f->severity[0] == 'n' ? LOG_INFO : LOG_WARN, "%s (%s): %s %s '%s': %s (%s); fix: %s", e->tag,
		e->pool, f->severity, f->code, f->subject, f->text, f->evidence, f->fix);
}

int pool_evidence_settings(struct pool_evidence *e, const struct pool_target *t, const char *dataset,
			   uint64_t io_size)
{
	snprintf(e->pool, sizeof(e->pool), "%s", t->pool);
	e->io_size = io_size;
	if (!t->kind->settings) {
		snprintf(e->settings_error, sizeof(e->settings_error), "%s", t->kind->no_settings);
		return -EOPNOTSUPP;
	}
	struct pool_kind_settings ks = { .findings = &e->settings, .ashift = -1 };
	int r = t->kind->settings(t, dataset, io_size, &ks);
	snprintf(e->dataset, sizeof(e->dataset), "%s", ks.dataset);
	snprintf(e->settings_error, sizeof(e->settings_error), "%s", ks.error);
	snprintf(e->data_profile, sizeof(e->data_profile), "%s", ks.data_profile);
	e->ashift = ks.ashift;
	if (ks.largest_sector > e->largest_sector)
		e->largest_sector = ks.largest_sector;
	if (r < 0) {
		log_msg(LOG_WARN, "%s (%s): cannot judge the pool's settings: %s", e->tag, e->pool, e->settings_error);
		return r;
	}
	e->settings_read = true;
	for (size_t i = 0; i < e->settings.count; i++)
		log_finding(e, &e->settings.items[i]);
	if (!e->settings.count)
		log_msg(LOG_INFO, "%s (%s): no setting or state of the pool costs performance%s%s", e->tag, e->pool,
			e->dataset[0] ? " (dataset " : "", e->dataset[0] ? e->dataset : "");
	return (int)e->settings.count;
}

/* Whether block device KNAME rotates; a partition answers for its disk. */
static bool rotating(const char *kname)
{
	char path[128], buf[8] = "";
	snprintf(path, sizeof(path), "/sys/class/block/%s/queue/rotational", kname);
	if (read_small_file(path, buf, sizeof(buf)) < 0) {
		snprintf(path, sizeof(path), "/sys/class/block/%s/../queue/rotational", kname);
		if (read_small_file(path, buf, sizeof(buf)) < 0)
			return false;
	}
	return buf[0] == '1';
}

/* The members that are block devices, with their kernel names. */
static int resolve_members(struct pool_evidence *e)
{
	e->members = calloc(e->layout.count ? e->layout.count : 1, sizeof(*e->members));
	if (!e->members)
		return -ENOMEM;
	for (size_t i = 0; i < e->layout.count; i++) {
		const struct pool_member *m = &e->layout.members[i];
		char real[PATH_MAX];
		struct stat st;
		if (!realpath(m->path, real) || stat(real, &st) < 0 || !S_ISBLK(st.st_mode))
			continue; /* a file-backed vdev: no device to sample */
		struct pool_member_total *p = &e->members[e->nmembers++];
		snprintf(p->name, sizeof(p->name), "%s", m->name);
		snprintf(p->vdev, sizeof(p->vdev), "%s", m->vdev);
		const char *base = strrchr(real, '/');
		snprintf(p->kname, sizeof(p->kname), "%s", base ? base + 1 : real);
		p->rotating = rotating(p->kname);
	}
	return e->nmembers ? 0 : -ENODEV;
}

/* zpool iostat -v beside the workload; its failure is only logged. */
static void watch_start(struct pool_evidence *e, const struct pool_target *t)
{
	if (!t->kind->iostat) {
		snprintf(e->iostat_error, sizeof(e->iostat_error), "not a ZFS pool");
		return;
	}
	if (zpool_watch_start(&e->watch, t->pool, e->iostat_error, sizeof(e->iostat_error)) < 0)
		log_msg(LOG_WARN, "%s (%s): no zpool iostat: %s", e->tag, e->pool, e->iostat_error);
	else
		e->watching = true;
	/* zfs-fuse has no latency histograms: said in the document, not warned about. */
	e->hist_started = zpool_hist_read(t->pool, &e->hist_before, e->hist_error, sizeof(e->hist_error)) == 0;
}

/* The workload's latency histograms: the second snapshot less the first. */
static void hist_stop(struct pool_evidence *e)
{
	struct zpool_hist after;
	if (!e->hist_started || zpool_hist_read(e->pool, &after, e->hist_error, sizeof(e->hist_error)) < 0)
		return;
	e->hist_started = false;
	if (zpool_hist_diff(&after, &e->hist_before, &e->hist) < 0) {
		snprintf(e->hist_error, sizeof(e->hist_error), "the histograms went back (the pool was imported again)");
		return;
	}
	e->hist_read = true;
	log_msg(LOG_INFO, "%s (%s): zpool iostat -w: %llu reads, disk wait p50 %llu us p99 %llu us; %llu writes, disk "
			  "wait p50 %llu us p99 %llu us", e->tag, e->pool,
		(unsigned long long)zpool_hist_total(&e->hist, ZH_DISK_READ),
		(unsigned long long)zpool_hist_percentile(&e->hist, ZH_DISK_READ, 50) / 1000,
		(unsigned long long)zpool_hist_percentile(&e->hist, ZH_DISK_READ, 99) / 1000,
		(unsigned long long)zpool_hist_total(&e->hist, ZH_DISK_WRITE),
		(unsigned long long)zpool_hist_percentile(&e->hist, ZH_DISK_WRITE, 50) / 1000,
		(unsigned long long)zpool_hist_percentile(&e->hist, ZH_DISK_WRITE, 99) / 1000);
}

int pool_evidence_start(struct pool_evidence *e, const struct pool_target *t)
{
	snprintf(e->pool, sizeof(e->pool), "%s", t->pool);
	if (!t->kind->members_from) {
		snprintf(e->telemetry_error, sizeof(e->telemetry_error), "%s", t->kind->no_members);
		snprintf(e->iostat_error, sizeof(e->iostat_error), "%s", t->kind->what);
		return -EOPNOTSUPP;
	}
	watch_start(e, t);
	const struct pool_kind *kind;
	int r = pool_find(t->pool, &e->layout, &kind);
	if (r == 0)
		r = resolve_members(e);
	const char **names = r == 0 ? calloc(e->nmembers, sizeof(*names)) : NULL;
	if (r == 0 && !names)
		r = -ENOMEM;
	for (size_t i = 0; names && i < e->nmembers; i++)
		names[i] = e->members[i].kname;
	if (r == 0)
		r = diskstats_sampler_start(&e->sampler, NULL, names, e->nmembers, POOL_EVIDENCE_INTERVAL_MS);
	free(names);
	if (r < 0) {
		snprintf(e->telemetry_error, sizeof(e->telemetry_error), "%s",
			 r == -ENODEV ? "no member is a block device" : strerror(-r));
		log_msg(LOG_WARN, "%s (%s): no member telemetry: %s", e->tag, e->pool, e->telemetry_error);
		return r;
	}
	e->sampling = true;
	return 0;
}

static void log_member(const struct pool_evidence *e, const struct pool_member_total *m)
{
	const struct diskstat_delta *d = &m->total;
	log_msg(LOG_INFO, "%s (%s): member %s (%s, %s): %llu reads %.1f MiB, %llu writes %.1f MiB, busy %.0f%% "
			  "(peak %.0f%%), wait %.1f ms", e->tag, e->pool, m->name, m->kname, m->vdev,
		(unsigned long long)d->reads, d->read_bytes / 1048576.0, (unsigned long long)d->writes,
		d->write_bytes / 1048576.0, d->busy * 100, m->peak_busy * 100, d->wait_ms);
}

static int pool_evidence_stop_diskstats(struct pool_evidence *e);

/* The zpool iostat figures: logged, and judged when /proc/diskstats gave
 * none (a pool of files). */
static void watch_stop(struct pool_evidence *e)
{
	if (!e->watching)
		return;
	e->watching = false;
	int r = zpool_watch_stop(&e->watch, &e->iostat, e->iostat_error, sizeof(e->iostat_error));
	if (r < 0) { /* a workload under a second is no problem to warn about */
		log_msg(r == -ENODATA ? LOG_INFO : LOG_WARN, "%s (%s): no zpool iostat figures: %s", e->tag, e->pool,
			e->iostat_error);
		return;
	}
	e->iostat_read = true;
	for (size_t i = 0; i < e->iostat.count; i++) {
		const struct zpool_iostat_dev *d = &e->iostat.devs[i];
		log_msg(LOG_INFO, "%s (%s): zpool iostat: %s (%s): %.0f reads/s %.1f MiB/s, %.0f writes/s %.1f MiB/s",
			e->tag, e->pool, d->name, d->vdev, d->read_ops, d->read_bps / 1048576, d->write_ops,
			d->write_bps / 1048576);
	}
	if (e->telemetry_read)
		return;
	/* The second source alone: ZFS's own per-device figures over the
	 * seconds its interval reports cover. */
	double seconds = (double)(e->iostat.blocks - 1) * ZPOOL_WATCH_INTERVAL_S;
	struct member_load *ml = calloc(e->iostat.count ? e->iostat.count : 1, sizeof(*ml));
	for (size_t i = 0; ml && i < e->iostat.count; i++) {
		const struct zpool_iostat_dev *d = &e->iostat.devs[i];
		ml[i] = (struct member_load){ .name = d->name, .vdev = d->vdev,
					      .ios = (uint64_t)((d->read_ops + d->write_ops) * seconds),
					      .read_bytes = d->read_bps * seconds,
					      .reads = (uint64_t)(d->read_ops * seconds) };
	}
	if (ml && member_load_judge(ml, e->iostat.count, &e->load) > 0)
		for (size_t i = 0; i < e->load.count; i++)
			log_finding(e, &e->load.items[i]);
	free(ml);
}

int pool_evidence_stop(struct pool_evidence *e)
{
	int r = pool_evidence_stop_diskstats(e);
	watch_stop(e);
	hist_stop(e);
	return r < 0 ? r : (int)e->load.count;
}

static int pool_evidence_stop_diskstats(struct pool_evidence *e)
{
	if (!e->sampling)
		return -ENODATA;
	e->sampling = false;
	struct diskstats_result res = { 0 };
	int r = diskstats_sampler_stop(&e->sampler, &res);
	if (r < 0) {
		snprintf(e->telemetry_error, sizeof(e->telemetry_error), "/proc/diskstats: %s", strerror(-r));
		log_msg(LOG_WARN, "%s (%s): no member telemetry: %s", e->tag, e->pool, e->telemetry_error);
		return r;
	}
	struct member_load *ml = calloc(e->nmembers, sizeof(*ml));
	/* Kernel OpenZFS keeps one stream on one side of a mirror of rotating disks (member_load.h). */
	bool kernel_zfs = access("/sys/module/zfs", F_OK) == 0;
	for (size_t i = 0; i < e->nmembers && i < res.n; i++) {
		struct pool_member_total *m = &e->members[i];
		m->total = res.total[i];
		m->peak_busy = diskstats_peak_busy(&res, i);
		e->seconds = m->total.seconds;
		log_member(e, m);
		if (ml)
			ml[i] = (struct member_load){ .name = m->name, .vdev = m->vdev, .busy = m->total.busy,
						      .wait_ms = m->total.wait_ms,
						      .ios = m->total.reads + m->total.writes,
						      .read_bytes = (double)m->total.read_bytes, .reads = m->total.reads,
						      .locality_reads = kernel_zfs && m->rotating };
	}
	diskstats_result_release(&res);
	e->telemetry_read = true;
	r = ml ? member_load_judge(ml, e->nmembers, &e->load) : -ENOMEM;
	free(ml);
	if (r < 0) {
		snprintf(e->telemetry_error, sizeof(e->telemetry_error), "the member loads were not judged: %s",
			 strerror(-r));
		return r;
	}
	for (size_t i = 0; i < e->load.count; i++)
		log_finding(e, &e->load.items[i]);
	if (!e->load.count)
		log_msg(LOG_INFO, "%s (%s): no member worked markedly harder or slower than its siblings", e->tag,
			e->pool);
	return (int)e->load.count;
}

const struct pool_member_total *pool_evidence_member(const struct pool_evidence *e, const char *name)
{
	for (size_t i = 0; i < e->nmembers; i++)
		if (!strcmp(e->members[i].name, name) || !strcmp(e->members[i].kname, name))
			return &e->members[i];
	return NULL;
}

void pool_finding_json(struct json *j, const char *key, const struct pool_finding *f)
{
	json_begin_object(j, key);
	json_string(j, "code", f->code);
	json_string(j, "severity", f->severity);
	json_string(j, "subject", f->subject);
	json_string(j, "text", f->text);
	json_string(j, "fix", f->fix);
	json_string(j, "evidence", f->evidence);
	json_end_object(j);
}

static void findings_json(struct json *j, const char *key, const struct pool_findings *f)
{
	json_begin_array(j, key);
	for (size_t i = 0; i < f->count; i++)
		pool_finding_json(j, NULL, &f->items[i]);
	json_end_array(j);
}

static void member_json(struct json *j, const struct pool_member_total *m)
{
	json_begin_object(j, NULL);
	json_string(j, "name", m->name);
	json_string(j, "kname", m->kname);
	json_string(j, "vdev", m->vdev);
	json_uint(j, "reads", m->total.reads);
	json_uint(j, "writes", m->total.writes);
	json_uint(j, "read_bytes", m->total.read_bytes);
	json_uint(j, "write_bytes", m->total.write_bytes);
	json_double(j, "busy", m->total.busy);
	json_double(j, "peak_busy", m->peak_busy);
	json_double(j, "wait_ms", m->total.wait_ms);
	json_end_object(j);
}

/* "zpool_iostat": the pool's own figures per device (bytes and operations per second). */
static void iostat_json(struct json *j, const struct pool_evidence *e)
{
	json_begin_object(j, "zpool_iostat");
	json_bool(j, "read", e->iostat_read);
	json_string(j, "error", !e->iostat_read && e->iostat_error[0] ? e->iostat_error : NULL);
	json_uint(j, "interval_s", ZPOOL_WATCH_INTERVAL_S);
	json_uint(j, "reports", e->iostat_read ? e->iostat.blocks - 1 : 0);
	json_begin_array(j, "devices");
	for (size_t i = 0; e->iostat_read && i < e->iostat.count; i++) {
		const struct zpool_iostat_dev *d = &e->iostat.devs[i];
		json_begin_object(j, NULL);
		json_string(j, "name", d->name);
		json_string(j, "vdev", d->vdev);
		json_double(j, "read_ops", d->read_ops);
		json_double(j, "write_ops", d->write_ops);
		json_double(j, "read_bytes_per_s", d->read_bps);
		json_double(j, "write_bytes_per_s", d->write_bps);
		json_end_object(j);
	}
	json_end_array(j);
	json_end_object(j);
}

/* "zpool_latency": the workload's wait percentiles from zpool iostat -w, per kind of wait. */
static void hist_json(struct json *j, const struct pool_evidence *e)
{
	static const struct { const char *key; enum zpool_hist_col col; } cols[] = {
		{ "total_wait_read", ZH_TOTAL_READ }, { "total_wait_write", ZH_TOTAL_WRITE },
		{ "disk_wait_read", ZH_DISK_READ },   { "disk_wait_write", ZH_DISK_WRITE },
	};
	json_begin_object(j, "zpool_latency");
	json_bool(j, "read", e->hist_read);
	json_string(j, "error", !e->hist_read && e->hist_error[0] ? e->hist_error : NULL);
	for (size_t i = 0; e->hist_read && i < sizeof(cols) / sizeof(cols[0]); i++) {
		json_begin_object(j, cols[i].key);
		json_uint(j, "count", zpool_hist_total(&e->hist, cols[i].col));
		json_uint(j, "p50_ns", zpool_hist_percentile(&e->hist, cols[i].col, 50));
		json_uint(j, "p99_ns", zpool_hist_percentile(&e->hist, cols[i].col, 99));
		json_uint(j, "max_ns", zpool_hist_percentile(&e->hist, cols[i].col, 100));
		json_end_object(j);
	}
	json_end_object(j);
}

void pool_evidence_json(struct json *j, const struct pool_evidence *e)
{
	json_begin_object(j, "pool_settings");
	json_string(j, "dataset", e->dataset[0] ? e->dataset : NULL);
	json_uint(j, "io_size_bytes", e->io_size);
	json_bool(j, "read", e->settings_read);
	json_string(j, "error", e->settings_error[0] ? e->settings_error : NULL);
	if (e->settings_read && e->ashift >= 0 && e->dataset[0])
		json_uint(j, "ashift", (uint64_t)e->ashift); /* 0: zfs-fuse's "auto", not judged */
	else
		json_null(j, "ashift");
	json_uint(j, "largest_physical_sector", e->largest_sector);
	findings_json(j, "findings", &e->settings);
	json_end_object(j);
	json_begin_object(j, "pool_telemetry");
	json_bool(j, "read", e->telemetry_read);
	json_string(j, "error", e->telemetry_error[0] ? e->telemetry_error : NULL);
	json_uint(j, "interval_ms", POOL_EVIDENCE_INTERVAL_MS);
	json_double(j, "seconds", e->seconds);
	json_begin_array(j, "members");
	for (size_t i = 0; e->telemetry_read && i < e->nmembers; i++)
		member_json(j, &e->members[i]);
	json_end_array(j);
	findings_json(j, "findings", &e->load);
	iostat_json(j, e);
	hist_json(j, e);
	json_end_object(j);
}

void pool_evidence_release(struct pool_evidence *e)
{
	if (e->sampling) {
		struct diskstats_result res = { 0 };
		if (diskstats_sampler_stop(&e->sampler, &res) == 0)
			diskstats_result_release(&res);
		e->sampling = false;
	}
	if (e->watching) {
		struct zpool_iostat st;
		char why[80];
		if (zpool_watch_stop(&e->watch, &st, why, sizeof(why)) == 0)
			zpool_iostat_release(&st);
		e->watching = false;
	}
	zpool_iostat_release(&e->iostat);
	pool_findings_release(&e->settings);
	pool_findings_release(&e->load);
	pool_layout_release(&e->layout);
	free(e->members);
	e->members = NULL;
	e->nmembers = 0;
}
