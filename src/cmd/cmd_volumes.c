/* volumes: the NAS vendor's per-volume table. For each mounted file system
 * or dataset, write a tagged temporary file of incompressible data, drop it
 * from the caches, and read it back (1 MiB blocks, queue depth 32, 15 s cap
 * by default), saying whether the figure is the media's, the pool's or a
 * cache's. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "basic/cleanup.h"
#include "basic/fsutil.h"
#include "basic/humanize.h"
#include "basic/interrupt.h"
#include "basic/log.h"
#include "basic/parse.h"
#include "basic/strbuf.h"
#include "bench/job.h"
#include "bench/target.h"
#include "cmd/commands.h"
#include "cmd/runctx.h"
#include "cmd/volumes.h"
#include "fs/volfile.h"
#include "output/latency.h"
#include "output/table.h"
#include "pool/arc.h"

#define MAX_MATCH 32
#define DEFAULT_SIZE (256ULL << 20)
#define DEFAULT_RUNTIME_NS (15ULL * 1000000000ULL)

enum { OPT_RUNTIME = OPT_COMMAND_BASE, OPT_SIZE, OPT_BS, OPT_IODEPTH, OPT_MATCH };

static const struct opt_def volumes_opts[] = {
	{ "runtime", 0, "TIME", "time cap of each read, e.g. 5s (default 15s); a cap, not a duration", OPT_RUNTIME, { 0 } },
	{ "size", 0, "SIZE", "test file written and read on each volume (default 256M; capped by free space)", OPT_SIZE, { 0 } },
	{ "bs", 0, "SIZE", "read block size, a multiple of 4K (default 1M)", OPT_BS, { 0 } },
	{ "iodepth", 0, "N", "reads in flight (default 32)", OPT_IODEPTH, { 0 } },
	{ "match", 'm', "GLOB", "only mounts whose mount point or source matches (repeatable), e.g. '/srv/*'", OPT_MATCH, { 0 } },
	OPT_END,
};

struct volumes_settings {
	uint64_t size;
	uint32_t bs;
	unsigned iodepth;
	uint64_t runtime_ns;
	const char *globs[MAX_MATCH];
	size_t nglobs;
	bool progress;
};

static int handle_option(int id, const char *arg, void *state)
{
	struct volumes_settings *s = state;
	uint64_t v;
	switch (id) {
	case OPT_RUNTIME:
		if (parse_duration_ns(arg, &v) < 0 || v == 0)
			return opts_usage_error("volumes", "invalid --runtime '%s': expected a duration such as 5s or 1m", arg);
		s->runtime_ns = v;
		return 0;
	case OPT_SIZE:
		if (parse_size(arg, &v) < 0 || v < 2 * VOLFILE_TAG_BYTES)
			return opts_usage_error("volumes", "invalid --size '%s': expected 8K or more, with an optional K, M, G or T suffix", arg);
		s->size = v;
		return 0;
	case OPT_BS:
		if (parse_size(arg, &v) < 0 || v < 4096 || v > (64U << 20) || v % 4096)
			return opts_usage_error("volumes", "invalid --bs '%s': expected a multiple of 4K from 4K to 64M", arg);
		s->bs = (uint32_t)v;
		return 0;
	case OPT_IODEPTH:
		if (parse_uint(arg, 1, JOB_MAX_IODEPTH, &v) < 0)
			return opts_usage_error("volumes", "invalid --iodepth '%s': expected 1 to %d", arg, JOB_MAX_IODEPTH);
		s->iodepth = (unsigned)v;
		return 0;
	case OPT_MATCH:
		if (s->nglobs == MAX_MATCH)
			return opts_usage_error("volumes", "at most %d --match patterns", MAX_MATCH);
		s->globs[s->nglobs++] = arg;
		return 0;
	}
	return 2;
}

static const char *write_error_text(int r)
{
	switch (r) {
	case -EROFS:
		return "the file system is read-only";
	case -ENOSPC:
	case -EDQUOT:
		return "no space left for the test file";
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
		.progress = s->progress, .progress_label = v->m->mountpoint,
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
	r = volfile_fill(&f, v->file_bytes, v->m->id);
	if (r < 0) {
		snprintf(v->reason, sizeof(v->reason), "cannot write the test file (%" PRIu64 " of %" PRIu64 " bytes written): %s",
			 f.size, v->file_bytes, write_error_text(r));
	} else {
		/* fsync and POSIX_FADV_DONTNEED are done; as root, drop the rest of the page cache too. */
		v->caches_dropped = geteuid() == 0 && write_small_file("/proc/sys/vm/drop_caches", "1") == 0;
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

static const char *status_name(enum volume_status s)
{
	return s == VOLUME_OK ? "ok" : s == VOLUME_ERROR ? "error" : "skipped";
}

static void print_table(const struct volume_list *l)
{
	struct table t;
	table_init(&t, 8, (const char *[]){ "VolID", "Name", "Pool", "Mapping", "Mount", "Throughput", "From", "Note" },
		   "llllllll");
	for (size_t i = 0; i < l->count; i++) {
		const struct volume *v = &l->vols[i];
		char bw[32] = "-";
		struct strbuf note = STRBUF_INIT;
		if (v->status == VOLUME_OK) {
			char total[32];
			human_rate(job_bw_bytes_per_s(v->res), bw, sizeof(bw));
			human_iec((double)v->res->bytes, total, sizeof(total));
			strbuf_addf(&note, "%s in %.2f s, %s", total, v->res->seconds, v->access);
			if (v->compression[0])
				strbuf_addf(&note, ", compression=%s", v->compression);
			if (v->note[0])
				strbuf_addf(&note, "; %s", v->note);
		} else {
			strbuf_addf(&note, "%s: %s", status_name(v->status), v->reason);
		}
		table_add_row(&t, (const char *[]){ v->vol_id_short, v->name, v->pool, v->mapping, v->m->mountpoint, bw,
						    v->read_from ? v->read_from : "-", note.buf });
		strbuf_release(&note);
	}
	table_print(&t, stdout);
	table_release(&t);
	for (size_t i = 0; i < l->count; i++)
		if (l->vols[i].read_from && strcmp(l->vols[i].read_from, "media") != 0)
			printf("%s: %s: %s\n", l->vols[i].m->mountpoint, l->vols[i].read_from, l->vols[i].read_from_reason);
	if (l->nskipped)
		printf("skipped:\n");
	for (size_t i = 0; i < l->nskipped; i++)
		printf("  %s (%s): %s\n", l->skipped[i].m->mountpoint, l->skipped[i].m->fstype, l->skipped[i].reason);
}

static void json_volume(struct json *j, const struct volume *v)
{
	json_begin_object(j, NULL);
	json_string(j, "vol_id", v->vol_id);
	json_string(j, "vol_id_short", v->vol_id_short);
	json_string(j, "name", v->name);
	json_string(j, "pool", v->pool);
	json_string(j, "mapping", v->mapping);
	json_string(j, "mount", v->m->mountpoint);
	json_string(j, "fstype", v->m->fstype);
	json_string(j, "kind", v->kind);
	json_string(j, "subvolume", v->subvolume[0] ? v->subvolume : NULL);
	json_string(j, "compression", v->compression[0] ? v->compression : NULL);
	if (v->recordsize)
		json_uint(j, "recordsize_bytes", v->recordsize);
	else
		json_null(j, "recordsize_bytes");
	json_string(j, "status", status_name(v->status));
	json_string(j, "reason", v->reason[0] ? v->reason : NULL);
	json_string(j, "note", v->note[0] ? v->note : NULL);
	json_uint(j, "free_bytes", v->free_bytes);
	json_uint(j, "requested_bytes", v->requested_bytes);
	json_uint(j, "file_bytes", v->file_bytes);
	json_string(j, "temp_file", v->temp_file);
	json_uint(j, "stale_files_removed", v->stale_removed);
	json_bool(j, "caches_dropped", v->caches_dropped);
	json_string(j, "access", v->access);
	json_string(j, "read_from", v->read_from);
	json_string(j, "read_from_reason", v->read_from_reason[0] ? v->read_from_reason : NULL);
	if (v->res) {
		json_uint(j, "bytes", v->res->bytes);
		json_double(j, "seconds", v->res->seconds);
		json_double(j, "bw_bytes_per_s", job_bw_bytes_per_s(v->res));
		json_double(j, "iops", job_iops(v->res));
		json_string(j, "engine", v->res->engine->name);
		json_string(j, "engine_reason", v->engine_reason);
		json_uint(j, "iodepth", v->res->iodepth);
		json_string(j, "stopped_by", job_stop_name(v->res->stop));
		json_latency(j, "lat_ns", &v->res->lat_read);
	}
	json_end_object(j);
}

static void write_document(struct json *j, const struct volume_list *l, const struct volumes_settings *s,
			   size_t counts[3])
{
	json_begin_object(j, "parameters");
	json_string(j, "access", "sequential read of a freshly written, incompressible test file");
	json_uint(j, "size_bytes", s->size);
	json_uint(j, "bs_bytes", s->bs);
	json_uint(j, "iodepth", s->iodepth);
	json_double(j, "runtime_cap_seconds", (double)s->runtime_ns / 1e9);
	json_string(j, "engine", "auto");
	json_string(j, "pattern", "random");
	json_begin_array(j, "match");
	for (size_t i = 0; i < s->nglobs; i++)
		json_string(j, NULL, s->globs[i]);
	json_end_array(j);
	json_end_object(j);
	json_begin_array(j, "volumes");
	for (size_t i = 0; i < l->count; i++)
		json_volume(j, &l->vols[i]);
	json_end_array(j);
	json_begin_array(j, "skipped");
	for (size_t i = 0; i < l->nskipped; i++) {
		json_begin_object(j, NULL);
		json_string(j, "mount", l->skipped[i].m->mountpoint);
		json_string(j, "fstype", l->skipped[i].m->fstype);
		json_string(j, "source", l->skipped[i].m->source);
		json_string(j, "reason", l->skipped[i].reason);
		json_end_object(j);
	}
	json_end_array(j);
	json_begin_object(j, "summary");
	json_uint(j, "ok", counts[VOLUME_OK]);
	json_uint(j, "error", counts[VOLUME_ERROR]);
	json_uint(j, "skipped", counts[VOLUME_SKIPPED]);
	json_uint(j, "mounts_skipped", l->nskipped);
	json_uint(j, "mounts_not_matched", l->not_matched);
	json_end_object(j);
}

static int store_volumes(struct store *st, const struct run_ctx *rc, void *arg)
{
	const struct volume_list *l = arg;
	for (size_t i = 0; i < l->count; i++) {
		const struct volume *v = &l->vols[i];
		char params[320];
		snprintf(params, sizeof(params), "{\"vol_id\": \"%s\", \"read_from\": \"%s\"}", v->vol_id,
			 v->read_from ? v->read_from : "");
		struct store_result res = {
			.run_id = rc->id,
			.test = "volumes",
			.path = v->m->mountpoint,
			.status = status_name(v->status),
			.reason = v->reason[0] ? v->reason : NULL,
			.bytes = v->res ? v->res->bytes : 0,
			.seconds = v->res ? v->res->seconds : 0,
			.bw_bytes_per_s = v->res ? job_bw_bytes_per_s(v->res) : 0,
			.iops = v->res ? job_iops(v->res) : 0,
			.params = params,
		};
		int r = store_add_result(st, &res);
		if (r < 0)
			return r;
	}
	return 0;
}

int cmd_volumes(int argc, char **argv, struct global_opts *g)
{
	static const struct command_doc doc = {
		"volumes", "volumes [options]",
		"The per-volume throughput table: for each mounted file system or ZFS dataset, writes\n"
		"an incompressible test file (O_TMPFILE where the file system allows it), drops it\n"
		"from the caches and reads it back with O_DIRECT (1M blocks, queue depth 32, 15 s\n"
		"cap). Each figure says whether it came from the media, the pool or a cache (a ZFS\n"
		"read may be served by the ARC). Pseudo file systems, bind mounts and the root file\n"
		"system (unless --match names it) are skipped and listed with the reason.",
		volumes_opts,
	};
	struct volumes_settings s = {
		.size = DEFAULT_SIZE, .bs = 1U << 20, .iodepth = 32, .runtime_ns = DEFAULT_RUNTIME_NS,
	};
	int first = opts_parse_command(&doc, argc, argv, g, handle_option, &s);
	if (first < 0)
		return opts_command_status(first);
	if (first < argc)
		return opts_usage_error("volumes", "unexpected operand '%s' (use --match GLOB to choose mounts)", argv[first]);
	if (s.bs > s.size)
		return opts_usage_error("volumes", "--size must be at least --bs");
	s.progress = !g->json && isatty(STDERR_FILENO);

	struct run_ctx rc;
	if (run_ctx_begin(&rc, "volumes", argc, argv, g))
		return 1;
	struct volume_list l;
	int r = volumes_discover(s.globs, s.nglobs, &l);
	size_t counts[3] = { 0, 0, 0 };
	for (size_t i = 0; r == 0 && i < l.count; i++) {
		struct volume *v = &l.vols[i];
		if (interrupt_requested()) {
			v->status = VOLUME_ERROR;
			snprintf(v->reason, sizeof(v->reason), "not tested: interrupted");
		} else {
			test_volume(v, &s, rc.id);
		}
		log_volume(v);
		counts[v->status]++;
	}
	if (r == 0 && l.count == 0)
		log_msg(LOG_ERR, "no volume to test%s", s.nglobs ? ": no mount matches --match" : "");
	if (r == 0 && !rc.json)
		print_table(&l);

	int status = r < 0 || counts[VOLUME_ERROR] || counts[VOLUME_OK] == 0 ? 1 : 0;
	int sig = run_ctx_interrupted_status();
	if (sig)
		status = sig;
	struct json j;
	json_init(&j);
	run_ctx_json_head(&rc, &j);
	if (r == 0)
		write_document(&j, &l, &s, counts);
	json_string(&j, "status", status ? "error" : "ok");
	status = run_ctx_finish(&rc, &j, status, r == 0 ? store_volumes : NULL, &l);
	json_release(&j);
	volume_list_release(&l);
	return status;
}
