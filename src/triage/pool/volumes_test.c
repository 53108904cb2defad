/* volumes: the NAS vendor's per-volume table. For each mounted file system
 * or dataset, write a tagged temporary file of incompressible data, drop it
 * from the caches, and read it back (1 MiB blocks, queue depth 32, 15 s cap
 * by default), saying whether the figure is the media's, the pool's or a
 * cache's. This is the test; the volumes command draws the table. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "basic/fsutil.h"
#include "basic/humanize.h"
#include "basic/interrupt.h"
#include "basic/log.h"
#include "basic/pagecache.h"
#include "bench/job.h"
#include "bench/target.h"
#include "fs/volfile.h"
#include "pool/arc.h"
#include "triage/pool/volumes.h"

static const char *write_error_text(int r)
{
	switch (r) {
	case -EROFS:
		return "the file system is read-only";
	case -ENOSPC:
	case -EDQUOT:
		return "the volume is full: no space left for the test file";
	case -EACCES:
	case -EPERM:
		return "permission refused to create a file in its root (run as root, or on a volume you can write)";
	case -EINTR:
		return "interrupted";
	default:
		return strerror(-r);
	}
}

/* ZFS: the ARC may serve the read; avoided only when the dataset keeps no
 * file data in the ARC, or the file is at least twice the ARC's maximum.
 * Nothing is set on the user's dataset. */
static void label_figure(struct volume *v)
{
	if (strcmp(v->kind, "zfs") == 0) {
		struct arc_size a;
		arc_read(&a);
		uint64_t arc = a.max_bytes;
		char arc_text[32], file_text[32];
		human_iec((double)arc, arc_text, sizeof(arc_text));
		human_iec((double)v->file_bytes, file_text, sizeof(file_text));
		if (strcmp(v->primarycache, "none") == 0 || strcmp(v->primarycache, "metadata") == 0) {
			v->read_from = "pool";
			snprintf(v->read_from_reason, sizeof(v->read_from_reason),
				 "primarycache=%s: the ARC keeps no file data of this dataset", v->primarycache);
		} else if (arc && v->file_bytes >= 2 * arc) {
			v->read_from = "pool";
			snprintf(v->read_from_reason, sizeof(v->read_from_reason),
				 "the %s file is at least twice the ARC maximum (%s): most of it comes from the pool",
				 file_text, arc_text);
		} else {
			v->read_from = "cache";
			snprintf(v->read_from_reason, sizeof(v->read_from_reason),
				 "the ZFS ARC may serve this read (ARC maximum %s, file %s); iotriage sets nothing on "
				 "your dataset, give --size of twice the ARC or more to read the pool",
				 arc ? arc_text : "unknown", file_text);
		}
	} else if (strcmp(v->access, "O_DIRECT") == 0) {
		v->read_from = "media";
		snprintf(v->read_from_reason, sizeof(v->read_from_reason), "O_DIRECT read of a file dropped from the page cache");
	} else if (v->caches_dropped) {
		v->read_from = "media";
		snprintf(v->read_from_reason, sizeof(v->read_from_reason),
			 "buffered read (no O_DIRECT here) after the page cache was dropped");
	} else {
		v->read_from = "cache";
		snprintf(v->read_from_reason, sizeof(v->read_from_reason),
			 "buffered read (no O_DIRECT here) and the page cache could not be dropped (not root)");
	}
}

/* Reads the file back with the job engine: O_DIRECT, else buffered. */
static int read_back(struct volume *v, const struct volfile *f, const struct volumes_settings *s)
{
	char path[64];
	volfile_reopen_path(f, path, sizeof(path));
	struct target t = TARGET_INIT;
	int r = target_open(path, false, true, false, &t);
	v->access = "O_DIRECT";
	if (r == -EINVAL) {
		r = target_open(path, false, false, false, &t);
		v->access = "buffered";
	}
	if (r < 0) {
		snprintf(v->reason, sizeof(v->reason), "cannot reopen the test file for reading: %s", strerror(-r));
		return r;
	}
	struct job_spec spec = {
		.read_pct = 100, .bs = s->bs, .iodepth = s->iodepth, .numjobs = 1,
		.size = v->file_bytes, .runtime_ns = s->runtime_ns, .pattern = PATTERN_RANDOM, .seed = 1,
		.live = s->progress,
	};
	char msg[256];
	r = job_validate(&spec, &t, msg, sizeof(msg));
	const struct engine_ops *engine = NULL;
	if (r == 0) {
		struct engine_target_traits traits = { .synchronous_device = false };
		engine = engine_select("auto", spec.iodepth, &traits, v->engine_reason, sizeof(v->engine_reason));
		if (!engine) {
			snprintf(msg, sizeof(msg), "%s", v->engine_reason);
			r = -EINVAL;
		}
	}
	if (r == 0) {
		r = job_run(&spec, &t, engine, &v->res);
		if (r < 0)
			snprintf(msg, sizeof(msg), "cannot read the test file: %s", strerror(-r));
	}
	target_close(&t);
	if (r < 0) {
		snprintf(v->reason, sizeof(v->reason), "%s", msg);
		return r;
	}
	if (v->res->stop == JOB_STOP_ERROR) {
		snprintf(v->reason, sizeof(v->reason), "read error at byte %" PRIu64 ": %s", v->res->error_offset,
			 strerror(-v->res->error));
		return v->res->error;
	}
	if (v->res->stop == JOB_STOP_INTERRUPTED) {
		snprintf(v->reason, sizeof(v->reason), "interrupted after %" PRIu64 " bytes", v->res->bytes);
		return -EINTR;
	}
	return 0;
}

/* The file's size: --size, capped at 90% of the free space, whole blocks. */
static int plan_size(struct volume *v, const struct volumes_settings *s)
{
	struct statvfs sv;
	if (statvfs(v->m->mountpoint, &sv) < 0) {
		int r = -errno;
		snprintf(v->reason, sizeof(v->reason), "cannot stat the file system: %s", strerror(-r));
		return r;
	}
	v->free_bytes = (uint64_t)sv.f_bavail * sv.f_frsize;
	v->requested_bytes = s->size;
	uint64_t size = s->size;
	if (size > v->free_bytes / 10 * 9) {
		size = v->free_bytes / 10 * 9;
		char asked[32], got[32], free_text[32];
		human_iec((double)s->size, asked, sizeof(asked));
		human_iec((double)(size - size % s->bs), got, sizeof(got));
		human_iec((double)v->free_bytes, free_text, sizeof(free_text));
		snprintf(v->note, sizeof(v->note), "size capped to %s of the %s asked: %s free", got, asked, free_text);
	}
	size -= size % s->bs;
	if (size < VOLFILE_TAG_BYTES * 2 || size < s->bs) {
		char free_text[32];
		human_iec((double)v->free_bytes, free_text, sizeof(free_text));
		snprintf(v->reason, sizeof(v->reason), "not enough free space for a test file (%s free)", free_text);
		return -ENOSPC;
	}
	v->file_bytes = size;
	return 0;
}

static void test_volume(struct volume *v, const struct volumes_settings *s, const char *run_id)
{
	const char *mp = v->m->mountpoint;
	if (v->m->readonly) {
		v->status = VOLUME_SKIPPED;
		snprintf(v->reason, sizeof(v->reason), "mounted read-only: no test file can be written");
		return;
	}
	if (volfile_sweep_stale(mp, "/proc", &v->stale_removed) == 0 && v->stale_removed)
		log_msg(LOG_INFO, "VOLUMES (%s): removed %zu test file(s) left by a run that is gone", mp, v->stale_removed);
	v->status = VOLUME_ERROR;
	if (plan_size(v, s) < 0)
		return;
	struct volfile f = VOLFILE_INIT;
	int r = volfile_create(mp, run_id, false, &f);
	if (r < 0) {
		snprintf(v->reason, sizeof(v->reason), "cannot create a test file: %s", write_error_text(r));
		return;
	}
	v->temp_file = f.named ? "named" : "O_TMPFILE";
	progress_drop(s->progress, 2 * (s->size - v->file_bytes));
	progress_what(s->progress, "writing a test file in %s", mp);
	r = volfile_fill(&f, v->file_bytes, v->m->id, s->progress);
	if (r < 0) {
		snprintf(v->reason, sizeof(v->reason), "cannot write the test file (%" PRIu64 " of %" PRIu64 " bytes written): %s",
			 f.size, v->file_bytes, write_error_text(r));
	} else {
		/* fsync and POSIX_FADV_DONTNEED are done; as root, drop the rest of the page cache too. */
		v->caches_dropped = geteuid() == 0 && pagecache_drop(-1);
		progress_part_end(s->progress, v->file_bytes);
		progress_what(s->progress, "reading the test file in %s back", mp);
		if (read_back(v, &f, s) == 0) {
			v->status = VOLUME_OK;
			label_figure(v);
		}
	}
	int rm = volfile_remove(&f);
	if (rm < 0) {
		v->status = VOLUME_ERROR;
		snprintf(v->reason, sizeof(v->reason), "cannot remove the test file %s/%s%s: %s", mp, VOLFILE_PREFIX,
			 run_id, strerror(-rm));
	}
}

static void log_volume(const struct volume *v)
{
	const char *mp = v->m->mountpoint;
	if (v->status == VOLUME_OK) {
		char summary[160];
		human_dd_summary(v->res->bytes, v->res->seconds, summary, sizeof(summary));
		log_msg(LOG_INFO, "VOLUMES (%s): completed: %s, read from %s (%s), stopped by the %s cap", mp, summary,
			v->read_from, v->access, job_stop_name(v->res->stop));
	} else {
		log_msg(v->status == VOLUME_SKIPPED ? LOG_WARN : LOG_ERR, "VOLUMES (%s): %s: %s", mp,
			v->status == VOLUME_SKIPPED ? "skipped" : "failed", v->reason);
	}
}

int volumes_run(const struct volumes_settings *s, const char *run_id, struct volume_list *l)
{
	int r = volumes_discover(s->globs, s->nglobs, l);
	if (r < 0)
		return r;
	/* The progress is in bytes: each volume planned as --size written and
	 * read; what a volume does not do is dropped from the total. */
	progress_start(s->progress, l->count * 2 * s->size, true);
	for (size_t i = 0; i < l->count; i++) {
		struct volume *v = &l->vols[i];
		uint64_t before = progress_counted(s->progress);
		if (interrupt_requested()) {
			v->status = VOLUME_ERROR;
			snprintf(v->reason, sizeof(v->reason), "not tested: interrupted");
		} else {
			test_volume(v, s, run_id);
		}
		/* What is left of its plan (the file's size written and read, or
		 * --size when it got no file) was not done: off the total. */
		uint64_t planned = 2 * (v->file_bytes ? v->file_bytes : s->size);
		uint64_t counted = progress_counted(s->progress) - before;
		progress_drop(s->progress, planned > counted ? planned - counted : 0);
		log_volume(v);
		l->counts[v->status]++;
	}
	if (l->count == 0)
		log_msg(LOG_ERR, "no volume to test%s", s->nglobs ? ": no mount matches --match" : "");
	return 0;
}
