/* doctor's probes of a pool's log and special vdev (see triage/pool/pool_sync_probe.h). */
#include "triage/pool/pool_sync_probe.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "basic/interrupt.h"
#include "basic/log.h"
#include "basic/timeutil.h"
#include "bench/pattern.h"
#include "pool/areas.h"
#include "pool/slow_log.h"
#include "pool/zpool_watch.h"

static bool has_class(const struct pool_layout *l, enum pool_class klass)
{
	for (size_t i = 0; i < l->nvdevs; i++)
		if (l->vdevs[i].klass == klass)
			return true;
	return false;
}

bool pool_has_log(const struct pool_layout *l)
{
	return has_class(l, POOL_CLASS_LOG);
}

bool pool_has_special(const struct pool_layout *l)
{
	return has_class(l, POOL_CLASS_SPECIAL);
}

struct sync_figures {
	uint64_t writes;
	double seconds, mean_latency_ns;
};

/* O_DSYNC writes into DIR for the probe's time or size. Returns 0 or -errno. */
static int sync_writes(const char *dir, struct sync_figures *f)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/iotriage-sync.dat", dir);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_DSYNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	static char block[POOL_SYNC_PROBE_BLOCK];
	struct prng rng;
	prng_seed(&rng, now_ns());
	pattern_fill(block, sizeof(block), PATTERN_RANDOM, &rng);
	uint64_t start = now_ns(), busy = 0;
	int r = 0;
	while (r == 0 && now_ns() - start < POOL_SYNC_PROBE_SECONDS * 1000000000ULL &&
	       f->writes * sizeof(block) < POOL_SYNC_PROBE_MAX_BYTES) {
		if (interrupt_requested()) {
			r = -EINTR;
			break;
		}
		block[f->writes % sizeof(block)] ^= 1; /* no two blocks alike */
		uint64_t t0 = now_ns();
		if (write(fd, block, sizeof(block)) != (ssize_t)sizeof(block))
			r = errno ? -errno : -EIO;
		busy += now_ns() - t0;
		f->writes += r == 0;
	}
	f->seconds = (double)(now_ns() - start) / 1e9;
	f->mean_latency_ns = f->writes ? (double)busy / (double)f->writes : 0;
	close(fd);
	unlink(path);
	return r;
}

/* Small files created in DIR for the probe's time (each a new dnode and
 * directory entry: metadata, which a special vdev holds), then the file
 * system synced so that the transaction group's writes fall inside the
 * watch, and the watch given a report after them. Returns 0 or -errno. */
static int metadata_writes(const char *dir, struct sync_figures *f)
{
	static char block[POOL_META_PROBE_FILE_BYTES];
	struct prng rng;
	prng_seed(&rng, now_ns());
	pattern_fill(block, sizeof(block), PATTERN_RANDOM, &rng);
	uint64_t start = now_ns();
	int r = 0;
	while (r == 0 && now_ns() - start < POOL_SYNC_PROBE_SECONDS * 1000000000ULL && f->writes < POOL_META_PROBE_FILES) {
		if (interrupt_requested())
			return -EINTR;
		char path[4200];
		snprintf(path, sizeof(path), "%s/m%06llu", dir, (unsigned long long)f->writes);
		int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		block[f->writes % sizeof(block)] ^= 1;
		if (fd < 0 || write(fd, block, sizeof(block)) != (ssize_t)sizeof(block))
			r = errno ? -errno : -EIO;
		if (fd >= 0)
			close(fd);
		f->writes += r == 0;
	}
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		syncfs(dfd);
		close(dfd);
	}
	f->seconds = (double)(now_ns() - start) / 1e9;
	f->mean_latency_ns = f->writes ? (double)(now_ns() - start) / (double)f->writes : 0;
	usleep(1500000); /* zpool iostat -l reports once a second: one more after the sync */
	return r;
}

/* The watch and WORKLOAD, in an area of T: the parsed reports in LAT. */
static int probe_area(const struct pool_target *t, const char *run_id, int (*workload)(const char *, struct sync_figures *),
		      struct zpool_lat *lat, struct sync_figures *f, char *why, size_t len)
{
	struct scratch area;
	if (pool_area_create(t, run_id, "sync", "128K", &area, "DOCTOR") < 0) {
		snprintf(why, len, "cannot make a temporary area on the pool");
		return -EIO;
	}
	struct zpool_watch w;
	int r = zpool_watch_start_latency(&w, t->pool, why, len);
	if (r == 0) {
		r = workload(area.path, f);
		char stop_why[200] = "";
		int s = zpool_watch_stop_latency(&w, lat, stop_why, sizeof(stop_why));
		if (r < 0)
			snprintf(why, len, "%s", r == -EINTR ? "interrupted" : strerror(-r));
		if (r == 0 && s < 0) {
			snprintf(why, len, "%s", stop_why);
			r = s;
		} else if (s == 0 && r < 0)
			zpool_lat_release(lat);
	}
	pool_areas_destroy(&area, 1, t->pool, "DOCTOR");
	return r;
}

/* One probe: what it writes, the class it watches, and its words. */
struct probe {
	int (*workload)(const char *dir, struct sync_figures *f);
	enum pool_class klass;
	const char *name;   /* "sync-write probe" */
	const char *vdev;   /* "log", "special vdev" */
};

/* Runs P on T (layout L): the area, the watch, the judgement. Returns 1, 0
 * or -errno; *F gets the workload's figures, WHY the reason it could not
 * judge. */
static int run_probe(const struct probe *p, const struct pool_target *t, const struct pool_layout *l,
		     const char *run_id, struct pool_findings *findings, struct sync_figures *f, char *why, size_t len)
{
	struct zpool_lat lat;
	int r = probe_area(t, run_id, p->workload, &lat, f, why, len);
	if (r == 0) {
		r = pool_slow_class_judge(l, &lat, p->klass, findings, why, len);
		zpool_lat_release(&lat);
	}
	return r;
}

/* The end of a probe: SUMMARY said (FIGURES and the verdict, or why not) and logged. */
static int say(const struct probe *p, const struct pool_target *t, int r, const char *figures, const char *why,
	       char *summary, size_t len)
{
	if (r >= 0)
		snprintf(summary, len, "%s: the %s %s the data vdevs", figures, p->vdev,
			 r ? "is slower than" : "keeps up with");
	else
		snprintf(summary, len, "the %s could not judge the %s: %s", p->name, p->vdev, why);
	log_msg(r < 0 ? LOG_WARN : LOG_INFO, "DOCTOR (%s): %s", t->pool, summary);
	return r;
}

int pool_sync_probe(const struct pool_target *t, const struct pool_layout *l, const char *run_id,
		    struct pool_findings *findings, char *summary, size_t len)
{
	static const struct probe p = { sync_writes, POOL_CLASS_LOG, "sync-write probe", "log" };
	if (!t->kind->sync_probe || !pool_has_log(l)) {
		snprintf(summary, len, "no sync-write probe: the pool has no log vdev");
		return -ENODATA;
	}
	log_msg(LOG_INFO, "DOCTOR (%s): sync writes of %d KiB for %d s, zpool iostat -l watching the log", t->pool,
		POOL_SYNC_PROBE_BLOCK / 1024, POOL_SYNC_PROBE_SECONDS);
	struct sync_figures f = { 0 };
	char why[256] = "", figures[160];
	int r = run_probe(&p, t, l, run_id, findings, &f, why, sizeof(why));
	snprintf(figures, sizeof(figures), "%llu sync writes of %d KiB in %.1f s, %.2f ms each",
		 (unsigned long long)f.writes, POOL_SYNC_PROBE_BLOCK / 1024, f.seconds, f.mean_latency_ns / 1e6);
	return say(&p, t, r, figures, why, summary, len);
}

int pool_special_probe(const struct pool_target *t, const struct pool_layout *l, const char *run_id,
		       struct pool_findings *findings, char *summary, size_t len)
{
	static const struct probe p = { metadata_writes, POOL_CLASS_SPECIAL, "metadata probe", "special vdev" };
	if (!t->kind->sync_probe || !pool_has_special(l)) {
		snprintf(summary, len, "no metadata probe: the pool has no special vdev");
		return -ENODATA;
	}
	log_msg(LOG_INFO, "DOCTOR (%s): small files created for %d s, zpool iostat -l watching the special vdev", t->pool,
		POOL_SYNC_PROBE_SECONDS);
	struct sync_figures f = { 0 };
	char why[256] = "", figures[160];
	int r = run_probe(&p, t, l, run_id, findings, &f, why, sizeof(why));
	snprintf(figures, sizeof(figures), "%llu files of %d bytes created in %.1f s", (unsigned long long)f.writes,
		 POOL_META_PROBE_FILE_BYTES, f.seconds);
	return say(&p, t, r, figures, why, summary, len);
}
