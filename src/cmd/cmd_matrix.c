/* matrix: one suite of tests over several targets, in a fixed order, then
 * compared. Targets are directories, block devices (read tests only) and
 * temporary ZFS datasets created with every combination of --recordsize and
 * --compression (tagged through pool/scratch, removed on success, failure
 * and signals; a killed run's are removed by the next). The default suite is
 * the published benchmark's fio part: sequential and random read and write
 * at 8K, 64K and 1M with direct I/O, and dbench at several client counts
 * where dbench is installed. fio runs where installed, else the built-in
 * engine; both record the run's noise (bandwidth samples) for compare. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "basic/humanize.h"
#include "basic/interrupt.h"
#include "cmd/matrix_image.h"
#include "basic/log.h"
#include "basic/parse.h"
#include "basic/spawn.h"
#include "basic/timeutil.h"
#include "bench/job.h"
#include "bench/target.h"
#include "cmd/bench_target.h"
#include "cmd/commands.h"
#include "cmd/poolbench_cmd.h"
#include "cmd/runctx.h"
#include "output/table.h"
#include "poolbench/parse.h"
#include "poolbench/poolbench.h"

#define MX_MAX_TARGETS 16
#define MX_MAX_TESTS 48
#define MX_MAX_LIST 8
#define TOOL_TIMEOUT_MS (4 * 3600 * 1000)

enum {
	OPT_TARGET = OPT_COMMAND_BASE,
	OPT_POOL,
	OPT_RECORDSIZE,
	OPT_COMPRESSION,
	OPT_TESTS,
	OPT_SIZE,
	OPT_RUNTIME,
	OPT_ENGINE,
	OPT_IODEPTH,
	OPT_DBENCH_CLIENTS,
	OPT_IMAGES,
};

static const struct opt_def matrix_opts[] = {
	{ "target", 0, "PATH", "a directory or block device (read tests only) to test; repeat for more, in order", OPT_TARGET },
	{ "pool", 0, "POOL", "a ZFS pool: test temporary datasets made with each --recordsize x --compression", OPT_POOL },
	{ "recordsize", 0, "LIST", "recordsizes of the datasets, in order (default 8k,64k)", OPT_RECORDSIZE },
	{ "compression", 0, "LIST", "compressions of the datasets, in order (default off,lz4; lz4 falls back to on where this ZFS lacks it)", OPT_COMPRESSION },
	{ "tests", 0, "LIST", "tests in order: seqread-8k ... randwrite-1m, dbench-N, or fio (all 12), dbench (every --dbench-clients); default all", OPT_TESTS },
	{ "size", 0, "SIZE", "the test file on each target (default 256M)", OPT_SIZE },
	{ "runtime", 0, "TIME", "time cap of each test (default 10s)", OPT_RUNTIME },
	{ "engine", 0, "NAME", "auto (fio where installed, else built-in), fio or builtin (default auto)", OPT_ENGINE },
	{ "iodepth", 0, "N", "queue depth of the fio-style tests (default 8)", OPT_IODEPTH },
	{ "dbench-clients", 0, "LIST", "dbench client counts (default 1,6,12)", OPT_DBENCH_CLIENTS },
	{ "images", 0, "DIR", "also a raw and a qcow2 image file in DIR, measured through QEMU's block layer "
			       "(qemu-img bench; sequential tests only)", OPT_IMAGES },
	OPT_END,
};

enum mx_tool { MX_FIO, MX_BUILTIN, MX_DBENCH, MX_QEMU_IMG };

struct mx_test {
	char name[32];          /* "seqread-64k", "dbench-6" */
	bool dbench;
	bool random, write;
	uint32_t bs;
	unsigned clients;
};

enum mx_target_kind { MX_DIR, MX_DEVICE, MX_DATASET, MX_IMAGE };

struct mx_target {
	enum mx_target_kind kind;
	char label[128];
	char path[PATH_MAX];    /* the directory or device */
	char file[PATH_MAX + 64]; /* the test file (directories and datasets) */
	char recordsize[16], compression_asked[16], compression[32];
	char format[8];         /* images: "raw" or "qcow2" */
	char note[256];
	bool created;           /* a dataset or directory we made (in area) */
	struct scratch area;
	bool direct;
	bool failed;
	char reason[512];
};

struct mx_result {
	char status[16];        /* ok, failed, skipped, interrupted */
	char reason[512];
	enum mx_tool tool;
	bool direct;
	uint64_t bytes;
	double seconds, bw, iops, lat_p99_ns, lat_max_ns;
	double noise_sd, noise_min, noise_max;
	unsigned noise_n;
	const char *noise_basis;
};

struct matrix {
	struct mx_target targets[MX_MAX_TARGETS];
	size_t ntargets;
	const char *paths[MX_MAX_TARGETS];
	size_t npaths;
	const char *pool;
	const char *images_dir;
	char recordsizes[MX_MAX_LIST][16], compressions[MX_MAX_LIST][16];
	size_t nrs, ncomp;
	struct mx_test tests[MX_MAX_TESTS];
	size_t ntests;
	const char *tests_arg;
	unsigned clients[MX_MAX_LIST];
	size_t nclients;
	uint64_t size;
	uint64_t runtime_ns;
	unsigned iodepth;
	const char *engine;
	struct mx_result (*results)[MX_MAX_TESTS];
	struct bench_target pool_target;
	struct scratch images_area; /* --images: the tagged directory the image files go in */
	bool images_area_made;
	int stale_removed;
};

/* ---- options ---- */

static int split_list(const char *arg, char out[][16], size_t max, size_t *ret_n)
{
	size_t n = 0;
	const char *p = arg;
	while (*p) {
		size_t len = strcspn(p, ",");
		if (len == 0 || len >= 16 || n == max)
			return -EINVAL;
		memcpy(out[n], p, len);
		out[n][len] = '\0';
		n++;
		p += len;
		if (*p == ',')
			p++;
	}
	*ret_n = n;
	return n ? 0 : -EINVAL;
}

static int parse_matrix_option(int id, const char *arg, void *state)
{
	struct matrix *m = state;
	uint64_t v;
	char items[MX_MAX_LIST][16];
	size_t n;
	switch (id) {
	case OPT_TARGET:
		if (m->npaths == MX_MAX_TARGETS)
			return opts_usage_error("matrix", "at most %d targets", MX_MAX_TARGETS);
		m->paths[m->npaths++] = arg;
		return 0;
	case OPT_POOL:
		m->pool = arg;
		return 0;
	case OPT_IMAGES:
		m->images_dir = arg;
		return 0;
	case OPT_RECORDSIZE:
		if (split_list(arg, m->recordsizes, MX_MAX_LIST, &m->nrs) < 0)
			return opts_usage_error("matrix", "invalid --recordsize '%s': expected a list such as 8k,64k", arg);
		for (size_t i = 0; i < m->nrs; i++)
			if (parse_size(m->recordsizes[i], &v) < 0 || v < 512 || v > (16U << 20) || (v & (v - 1)))
				return opts_usage_error("matrix", "invalid recordsize '%s': expected a power of two from 512 to 16M", m->recordsizes[i]);
		return 0;
	case OPT_COMPRESSION:
		if (split_list(arg, m->compressions, MX_MAX_LIST, &m->ncomp) < 0)
			return opts_usage_error("matrix", "invalid --compression '%s': expected a list such as off,lz4", arg);
		for (size_t i = 0; i < m->ncomp; i++)
			for (const char *c = m->compressions[i]; *c; c++)
				if (!(*c >= 'a' && *c <= 'z') && !(*c >= '0' && *c <= '9') && *c != '-')
					return opts_usage_error("matrix", "invalid compression '%s'", m->compressions[i]);
		return 0;
	case OPT_TESTS:
		m->tests_arg = arg;
		return 0;
	case OPT_SIZE:
		if (parse_size(arg, &v) < 0 || v < (1U << 20))
			return opts_usage_error("matrix", "invalid --size '%s': expected at least 1M", arg);
		m->size = v;
		return 0;
	case OPT_RUNTIME:
		if (parse_duration_ns(arg, &v) < 0 || v < 1000000000ULL)
			return opts_usage_error("matrix", "invalid --runtime '%s': expected a duration of at least 1s", arg);
		m->runtime_ns = v;
		return 0;
	case OPT_ENGINE:
		if (strcmp(arg, "auto") && strcmp(arg, "fio") && strcmp(arg, "builtin"))
			return opts_usage_error("matrix", "unknown --engine '%s': expected auto, fio or builtin", arg);
		m->engine = arg;
		return 0;
	case OPT_IODEPTH:
		if (parse_uint(arg, 1, 256, &v) < 0)
			return opts_usage_error("matrix", "invalid --iodepth '%s': expected 1 to 256", arg);
		m->iodepth = (unsigned)v;
		return 0;
	case OPT_DBENCH_CLIENTS:
		if (split_list(arg, items, MX_MAX_LIST, &n) < 0)
			return opts_usage_error("matrix", "invalid --dbench-clients '%s': expected a list such as 1,6,12", arg);
		for (size_t i = 0; i < n; i++) {
			if (parse_uint(items[i], 1, 1024, &v) < 0)
				return opts_usage_error("matrix", "invalid dbench client count '%s': expected 1 to 1024", items[i]);
			m->clients[i] = (unsigned)v;
		}
		m->nclients = n;
		return 0;
	}
	return 2;
}

/* ---- the suite ---- */

static const struct {
	const char *kind;
	bool random, write;
} fio_kinds[] = { { "seqread", false, false }, { "seqwrite", false, true },
		  { "randread", true, false }, { "randwrite", true, true } };
static const struct {
	const char *name;
	uint32_t bs;
} fio_sizes[] = { { "8k", 8192 }, { "64k", 65536 }, { "1m", 1U << 20 } };

static int add_test(struct matrix *m, const struct mx_test *t)
{
	for (size_t i = 0; i < m->ntests; i++)
		if (strcmp(m->tests[i].name, t->name) == 0)
			return 0;
	if (m->ntests == MX_MAX_TESTS)
		return -E2BIG;
	m->tests[m->ntests++] = *t;
	return 0;
}

static void add_fio_tests(struct matrix *m)
{
	for (size_t k = 0; k < sizeof(fio_kinds) / sizeof(fio_kinds[0]); k++)
		for (size_t b = 0; b < sizeof(fio_sizes) / sizeof(fio_sizes[0]); b++) {
			struct mx_test t = { .random = fio_kinds[k].random, .write = fio_kinds[k].write, .bs = fio_sizes[b].bs };
			snprintf(t.name, sizeof(t.name), "%s-%s", fio_kinds[k].kind, fio_sizes[b].name);
			add_test(m, &t);
		}
}

static void add_dbench_tests(struct matrix *m)
{
	for (size_t i = 0; i < m->nclients; i++) {
		struct mx_test t = { .dbench = true, .clients = m->clients[i] };
		snprintf(t.name, sizeof(t.name), "dbench-%u", m->clients[i]);
		add_test(m, &t);
	}
}

static bool dbench_installed(void)
{
	const char *argv[] = { "dbench", "--help", NULL };
	struct spawn_result res;
	int r = spawn_run(argv, 10000, &res);
	spawn_result_release(&res);
	return r != -ENOENT;
}

/* Builds the suite from --tests (or the default). Returns 0 or 2 after a usage error. */
static int build_suite(struct matrix *m)
{
	if (!m->tests_arg || strcmp(m->tests_arg, "all") == 0) {
		add_fio_tests(m);
		if (dbench_installed())
			add_dbench_tests(m);
		else
			log_msg(LOG_WARN, "MATRIX: dbench is not installed; its tests are left out");
		return 0;
	}
	const char *p = m->tests_arg;
	while (*p) {
		char name[32];
		size_t len = strcspn(p, ",");
		if (len == 0 || len >= sizeof(name))
			return opts_usage_error("matrix", "invalid --tests '%s'", m->tests_arg);
		memcpy(name, p, len);
		name[len] = '\0';
		p += len + (p[len] == ',');
		if (strcmp(name, "fio") == 0) {
			add_fio_tests(m);
			continue;
		}
		if (strcmp(name, "dbench") == 0) {
			add_dbench_tests(m);
			continue;
		}
		uint64_t clients;
		if (strncmp(name, "dbench-", 7) == 0 && parse_uint(name + 7, 1, 1024, &clients) == 0) {
			struct mx_test t = { .dbench = true, .clients = (unsigned)clients };
			snprintf(t.name, sizeof(t.name), "dbench-%u", t.clients);
			add_test(m, &t);
			continue;
		}
		bool found = false;
		for (size_t k = 0; k < sizeof(fio_kinds) / sizeof(fio_kinds[0]) && !found; k++)
			for (size_t b = 0; b < sizeof(fio_sizes) / sizeof(fio_sizes[0]) && !found; b++) {
				char want[32];
				snprintf(want, sizeof(want), "%s-%s", fio_kinds[k].kind, fio_sizes[b].name);
				if (strcasecmp(want, name) == 0) {
					struct mx_test t = { .random = fio_kinds[k].random, .write = fio_kinds[k].write,
							     .bs = fio_sizes[b].bs };
					snprintf(t.name, sizeof(t.name), "%s", want);
					add_test(m, &t);
					found = true;
				}
			}
		if (!found)
			return opts_usage_error("matrix", "unknown test '%s': expected seqread|seqwrite|randread|randwrite "
						"-8k|-64k|-1m, dbench-N, fio or dbench", name);
	}
	return 0;
}

/* ---- targets ---- */

/* Files in a user's directory go in a tagged scratch subdirectory
 * (pool/scratch.h), so that what a killed run left there is found and
 * removed by the next run, and nothing else is touched. Areas of dead
 * owners in DIR are removed first. */
static int make_dir_area(struct matrix *m, const char *dir, const char *run_id, const char *suffix,
			 struct scratch *area)
{
	struct bench_target bt = { .kind = SCRATCH_DIR };
	snprintf(bt.pool, sizeof(bt.pool), "%s", dir);
	snprintf(bt.parent, sizeof(bt.parent), "%s", dir);
	m->stale_removed += pool_areas_remove_stale(&bt, "MATRIX");
	struct strbuf err = STRBUF_INIT;
	int r = scratch_create(SCRATCH_DIR, dir, run_id, suffix, NULL, area, &err);
	if (r < 0)
		fprintf(stderr, "iotriage matrix: cannot make a temporary directory in '%s': %s\n", dir,
			err.len ? err.buf : strerror(-r));
	else
		log_msg(LOG_INFO, "MATRIX (%s): created temporary directory %s", dir, area->path);
	strbuf_release(&err);
	return r;
}

/* The target's test file is "matrix.dat" in its area. */
static void file_in_area(struct mx_target *t)
{
	char dir[PATH_MAX];
	memcpy(dir, t->area.path, sizeof(dir)); /* a copy: snprintf must not read what it writes into */
	dir[sizeof(dir) - 1] = '\0';
	snprintf(t->file, sizeof(t->file), "%s/matrix.dat", dir);
}

static int add_path_targets(struct matrix *m, const char *run_id)
{
	for (size_t i = 0; i < m->npaths; i++) {
		struct mx_target *t = &m->targets[m->ntargets++];
		struct stat st;
		if (stat(m->paths[i], &st) < 0) {
			fprintf(stderr, "iotriage matrix: cannot use target '%s': %s\n", m->paths[i], strerror(errno));
			return -errno;
		}
		if (!S_ISDIR(st.st_mode) && !S_ISBLK(st.st_mode)) {
			fprintf(stderr, "iotriage matrix: target '%s' is neither a directory nor a block device\n", m->paths[i]);
			return -EINVAL;
		}
		t->kind = S_ISDIR(st.st_mode) ? MX_DIR : MX_DEVICE;
		snprintf(t->label, sizeof(t->label), "%s", m->paths[i]);
		snprintf(t->path, sizeof(t->path), "%s", m->paths[i]);
		if (t->kind == MX_DIR) {
			int r = make_dir_area(m, m->paths[i], run_id, "matrix", &t->area);
			if (r < 0)
				return r;
			t->created = true;
			file_in_area(t);
		} else {
			snprintf(t->file, sizeof(t->file), "%s", m->paths[i]);
		}
	}
	return 0;
}

static void upper(char *s)
{
	for (; *s; s++)
		if (*s >= 'a' && *s <= 'z')
			*s = (char)(*s - 'a' + 'A');
}

/* Creates one dataset; lz4 where this ZFS refuses it falls back to "on", and says so. */
static void create_dataset(struct matrix *m, struct mx_target *t, const char *run_id, const char *rs, const char *comp)
{
	char rsu[16], suffix[64], prs[48], pcomp[48];
	snprintf(rsu, sizeof(rsu), "%s", rs);
	upper(rsu);
	snprintf(t->recordsize, sizeof(t->recordsize), "%s", rsu);
	snprintf(t->compression_asked, sizeof(t->compression_asked), "%s", comp);
	snprintf(t->label, sizeof(t->label), "recordsize %s, compression %s", rsu, comp);
	snprintf(suffix, sizeof(suffix), "mx-%s-%s", rs, comp);
	for (char *c = suffix; *c; c++)
		*c = (char)(*c >= 'A' && *c <= 'Z' ? *c - 'A' + 'a' : *c);
	snprintf(prs, sizeof(prs), "recordsize=%s", rsu);
	snprintf(pcomp, sizeof(pcomp), "compression=%s", comp);
	const char *props[] = { prs, pcomp, "primarycache=metadata", NULL };
	struct strbuf err = STRBUF_INIT;
	int r = scratch_create(SCRATCH_ZFS, m->pool_target.parent, run_id, suffix, props, &t->area, &err);
	if (r < 0 && strcmp(comp, "lz4") == 0 && strstr(err.buf, "compression")) {
		snprintf(t->note, sizeof(t->note), "this ZFS has no lz4 (%.*s); compression=on used instead",
			 (int)strcspn(err.buf, "\n"), err.buf);
		log_msg(LOG_WARN, "MATRIX (%s): %s", m->pool, t->note);
		strbuf_reset(&err);
		props[1] = "compression=on";
		snprintf(t->label, sizeof(t->label), "recordsize %s, compression on (no lz4)", rsu);
		r = scratch_create(SCRATCH_ZFS, m->pool_target.parent, run_id, suffix, props, &t->area, &err);
	}
	t->kind = MX_DATASET;
	if (r < 0) {
		t->failed = true;
		snprintf(t->reason, sizeof(t->reason), "cannot create the dataset: %.*s", (int)strcspn(err.buf, "\n"),
			 err.buf);
		log_msg(LOG_ERR, "MATRIX (%s): %s with %s %s: %s", m->pool, t->reason, prs, pcomp, err.buf);
	} else {
		t->created = true;
		file_in_area(t);
		memcpy(t->path, t->area.path, sizeof(t->path));
		scratch_zfs_get(t->area.name, "compression", t->compression, sizeof(t->compression));
		log_msg(LOG_INFO, "MATRIX (%s): created temporary ZFS dataset %s with %s, compression=%s", m->pool,
			t->area.name, prs, t->compression);
	}
	strbuf_release(&err);
}

static void destroy_datasets(struct matrix *m)
{
	for (size_t i = 0; i < m->ntargets; i++) {
		struct mx_target *t = &m->targets[i];
		if (t->created) {
			pool_areas_destroy(&t->area, 1, t->kind == MX_DIR ? t->path : m->pool, "MATRIX");
			t->created = false;
		}
	}
	if (m->images_area_made) {
		pool_areas_destroy(&m->images_area, 1, m->images_dir, "MATRIX");
		m->images_area_made = false;
	}
}

/* The raw image first (its file is the qcow2's source), then the qcow2. */
static int add_image_targets(struct matrix *m, const char *run_id)
{
	static const char *const formats[] = { "raw", "qcow2" };
	if (make_dir_area(m, m->images_dir, run_id, "images", &m->images_area) < 0)
		return -EIO;
	m->images_area_made = true;
	for (size_t i = 0; i < 2 && !interrupt_requested(); i++) {
		struct mx_target *t = &m->targets[m->ntargets++];
		t->kind = MX_IMAGE;
		snprintf(t->format, sizeof(t->format), "%s", formats[i]);
		snprintf(t->label, sizeof(t->label), "%s image in %s", formats[i], m->images_dir);
		snprintf(t->path, sizeof(t->path), "%s", m->images_dir);
		snprintf(t->note, sizeof(t->note), "through QEMU's %s driver (qemu-img bench); its writes are a constant "
			 "byte pattern, which a compressing file system shrinks", formats[i]);
		char err[512] = "";
		if (mx_image_create(m->images_area.path, run_id, formats[i], m->size, t->file, sizeof(t->file), err, sizeof(err)) < 0) {
			t->failed = true;
			snprintf(t->reason, sizeof(t->reason), "%s", err);
			log_msg(LOG_WARN, "MATRIX (%s): %s", t->label, err);
		} else {
			log_msg(LOG_INFO, "MATRIX (%s): %s, %" PRIu64 " bytes of incompressible data", t->label, t->file, m->size);
		}
	}
	return 0;
}

/* ---- running one test ---- */

static void fail(struct mx_result *r, const char *status, const char *fmt, const char *arg)
{
	snprintf(r->status, sizeof(r->status), "%s", status);
	snprintf(r->reason, sizeof(r->reason), fmt, arg);
}

static void run_fio(const struct matrix *m, const struct mx_target *t, const struct mx_test *x, struct mx_result *r)
{
	char name[64], file[PATH_MAX + 80], rw[32], bs[32], size[48], runtime[32], qd[32], direct[16], avg[48];
	snprintf(name, sizeof(name), "--name=%s", x->name);
	snprintf(file, sizeof(file), "--filename=%s", t->file);
	snprintf(rw, sizeof(rw), "--rw=%s", x->random ? (x->write ? "randwrite" : "randread") : (x->write ? "write" : "read"));
	snprintf(bs, sizeof(bs), "--bs=%" PRIu32, x->bs);
	snprintf(size, sizeof(size), "--size=%" PRIu64, m->size);
	snprintf(runtime, sizeof(runtime), "--runtime=%" PRIu64 "ms", m->runtime_ns / 1000000);
	snprintf(qd, sizeof(qd), "--iodepth=%u", m->iodepth);
	snprintf(direct, sizeof(direct), "--direct=%d", t->direct ? 1 : 0);
	/* Ten bandwidth samples per run at least: the noise compare judges changes by. */
	uint64_t avg_ms = m->runtime_ns / 1000000 / 10;
	snprintf(avg, sizeof(avg), "--bwavgtime=%" PRIu64, avg_ms < 100 ? 100 : avg_ms > 1000 ? 1000 : avg_ms);
	const char *argv[24];
	size_t n = 0;
	argv[n++] = "fio";
	argv[n++] = "--output-format=json";
	argv[n++] = name;
	argv[n++] = file;
	argv[n++] = rw;
	argv[n++] = bs;
	argv[n++] = size;
	argv[n++] = runtime;
	argv[n++] = "--ioengine=libaio";
	argv[n++] = qd;
	argv[n++] = direct;
	argv[n++] = avg;
	argv[n++] = "--numjobs=1";
	argv[n++] = "--refill_buffers=1";
	argv[n++] = "--randrepeat=1";
	if (x->write)
		argv[n++] = "--end_fsync=1";
	if (t->kind == MX_DEVICE)
		argv[n++] = "--readonly";
	argv[n] = NULL;
	struct spawn_opts opts = { .timeout_ms = TOOL_TIMEOUT_MS, .stdin_fd = -1, .interruptible = true };
	struct spawn_result res;
	int rc = spawn_run_opts(argv, &opts, &res);
	r->tool = MX_FIO;
	if (rc == -EINTR) {
		fail(r, "interrupted", "%s", "interrupted");
	} else if (rc < 0) {
		fail(r, "failed", "cannot run fio: %s", strerror(-rc));
	} else if (res.status != 0) {
		const char *msg = res.err.len ? res.err.buf : res.out.buf;
		snprintf(r->status, sizeof(r->status), "failed");
		snprintf(r->reason, sizeof(r->reason), "fio exited with status %d: %.*s", res.status,
			 (int)strcspn(msg, "\n"), msg);
	} else {
		struct fio_summary sum;
		struct jv *doc = NULL;
		char err[160];
		if (fio_parse(res.out.buf, res.out.len, &sum, &doc, err, sizeof(err)) < 0) {
			fail(r, "failed", "cannot read fio's output: %s", err);
		} else {
			const struct fio_direction *d = x->write ? &sum.write : &sum.read;
			const struct jv *job = jv_at(jv_get(doc, "jobs"), 0), *dir = jv_get(job, x->write ? "write" : "read");
			snprintf(r->status, sizeof(r->status), "ok");
			r->bytes = d->bytes;
			r->seconds = d->runtime_s;
			r->bw = d->bw_bytes_per_s;
			r->iops = d->iops;
			r->lat_p99_ns = jv_number(jv_get(jv_get(jv_get(dir, "clat_ns"), "percentile"), "99.000000"), NAN);
			r->lat_max_ns = jv_number(jv_path(dir, "clat_ns.max"), NAN);
			/* fio's bandwidth samples: bw_dev is their standard deviation, in KiB/s. */
			r->noise_n = (unsigned)jv_number(jv_get(dir, "bw_samples"), 0);
			r->noise_sd = jv_number(jv_get(dir, "bw_dev"), NAN) * 1024.0;
			r->noise_basis = "fio bandwidth samples";
			r->noise_min = jv_number(jv_get(dir, "bw_min"), NAN) * 1024.0;
			r->noise_max = jv_number(jv_get(dir, "bw_max"), NAN) * 1024.0;
			if (sum.error)
				fail(r, "failed", "fio reported error %s", strerror(sum.error));
		}
		jv_free(doc);
	}
	spawn_result_release(&res);
}

static void run_builtin(const struct matrix *m, const struct mx_target *t, const struct mx_test *x, struct mx_result *r)
{
	r->tool = MX_BUILTIN;
	struct job_spec spec = {
		.random = x->random, .read_pct = x->write ? 0 : 100, .bs = x->bs, .iodepth = m->iodepth, .numjobs = 1,
		.size = m->size, .runtime_ns = m->runtime_ns, .pattern = PATTERN_RANDOM, .seed = 1,
	};
	spec.sample_ns = m->runtime_ns / 10 < 100000000ULL ? 100000000ULL : m->runtime_ns / 10;
	if (spec.sample_ns > 1000000000ULL)
		spec.sample_ns = 1000000000ULL;
	struct target tg = TARGET_INIT;
	/* The test file is ours: opened read-write so a read test can lay it out first.
	 * A device is only ever read. */
	bool ours = t->kind != MX_DEVICE;
	int rc = target_open(t->file, ours, t->direct, ours, &tg);
	if (rc == 0 && tg.kind == TARGET_REGULAR_FILE && tg.size < m->size)
		rc = target_layout_file(&tg, m->size, PATTERN_RANDOM);
	if (rc == 0 && tg.kind == TARGET_BLOCK_DEVICE && tg.size < spec.size)
		spec.size = tg.size;
	char err[256] = "", reason[160];
	if (rc < 0)
		snprintf(err, sizeof(err), "cannot open or lay out '%s': %s", t->file, strerror(-rc));
	if (rc == 0)
		rc = job_validate(&spec, &tg, err, sizeof(err));
	struct engine_target_traits traits = { .synchronous_device = tg.bio_based };
	const struct engine_ops *engine = rc == 0 ? engine_select("auto", spec.iodepth, &traits, reason, sizeof(reason)) : NULL;
	if (rc == 0 && !engine) {
		snprintf(err, sizeof(err), "%s", reason);
		rc = -EINVAL;
	}
	struct job_result *res = NULL;
	if (rc == 0 && (rc = job_run(&spec, &tg, engine, &res)) < 0)
		snprintf(err, sizeof(err), "cannot run: %s", strerror(-rc));
	double sync_s = 0;
	if (rc == 0 && x->write && !t->direct) {
		/* Buffered writes count once they reach the pool. */
		uint64_t t0 = now_ns();
		fdatasync(tg.fd);
		sync_s = (double)(now_ns() - t0) / 1e9;
	}
	target_close(&tg);
	if (rc < 0) {
		fail(r, "failed", "%s", err);
	} else if (res->stop == JOB_STOP_INTERRUPTED) {
		fail(r, "interrupted", "%s", "interrupted");
	} else if (res->stop == JOB_STOP_ERROR) {
		fail(r, "failed", "I/O error: %s", strerror(-res->error));
	} else {
		snprintf(r->status, sizeof(r->status), "ok");
		r->bytes = res->bytes;
		r->seconds = res->seconds + sync_s;
		r->bw = r->seconds > 0 ? (double)res->bytes / r->seconds : 0;
		r->iops = r->seconds > 0 ? (double)res->ios / r->seconds : 0;
		const struct histogram *h = x->write ? &res->lat_write : &res->lat_read;
		r->lat_p99_ns = hist_percentile(h, 99);
		r->lat_max_ns = (double)h->max;
		double mean = 0, var = 0;
		for (unsigned i = 0; i < res->nr_samples; i++)
			mean += res->samples_bw[i] / res->nr_samples;
		for (unsigned i = 0; i < res->nr_samples; i++)
			var += (res->samples_bw[i] - mean) * (res->samples_bw[i] - mean);
		r->noise_n = res->nr_samples;
		r->noise_sd = res->nr_samples > 1 ? sqrt(var / (res->nr_samples - 1)) : NAN;
		r->noise_basis = "per-interval samples";
		for (unsigned i = 0; i < res->nr_samples; i++) {
			if (i == 0 || res->samples_bw[i] < r->noise_min)
				r->noise_min = res->samples_bw[i];
			if (i == 0 || res->samples_bw[i] > r->noise_max)
				r->noise_max = res->samples_bw[i];
		}
	}
	free(res);
}

/* dbench's closing line: "Throughput 123.456 MB/sec  6 clients  6 procs  max_latency=12.345 ms". */
static int dbench_parse(const char *text, double *ret_bw, double *ret_max_lat_ns)
{
	const char *p = strstr(text, "Throughput ");
	double mb, lat;
	if (!p || sscanf(p, "Throughput %lf MB/sec", &mb) != 1)
		return -EINVAL;
	*ret_bw = mb * 1e6;
	const char *l = strstr(p, "max_latency=");
	*ret_max_lat_ns = l && sscanf(l, "max_latency=%lf ms", &lat) == 1 ? lat * 1e6 : NAN;
	return 0;
}

static void run_dbench(const struct matrix *m, const struct mx_target *t, const struct mx_test *x, struct mx_result *r)
{
	char secs[32], clients[16];
	/* dbench measures nothing in a 1 s run (no warmup, "Throughput 0 MB/sec"). */
	uint64_t s = m->runtime_ns / 1000000000ULL;
	if (s < 3)
		s = 3;
	snprintf(secs, sizeof(secs), "%" PRIu64, s ? s : 1);
	snprintf(clients, sizeof(clients), "%u", x->clients);
	const char *argv[] = { "dbench", "-D", t->path, "-t", secs, clients, NULL };
	struct spawn_opts opts = { .timeout_ms = TOOL_TIMEOUT_MS, .stdin_fd = -1, .interruptible = true };
	struct spawn_result res;
	r->tool = MX_DBENCH;
	int rc = spawn_run_opts(argv, &opts, &res);
	double bw, lat;
	if (rc == -ENOENT)
		fail(r, "skipped", "%s", "dbench is not installed");
	else if (rc == -EINTR)
		fail(r, "interrupted", "%s", "interrupted");
	else if (rc < 0)
		fail(r, "failed", "cannot run dbench: %s", strerror(-rc));
	else if (res.status != 0 || dbench_parse(res.out.buf, &bw, &lat) < 0 || bw <= 0) {
		const char *msg = res.err.len ? res.err.buf : res.out.buf;
		snprintf(r->status, sizeof(r->status), "failed");
		if (res.status == 0)
			snprintf(r->reason, sizeof(r->reason), "dbench reported no throughput");
		else
			snprintf(r->reason, sizeof(r->reason), "dbench exited with status %d: %.*s", res.status,
				 (int)strcspn(msg, "\n"), msg);
	} else {
		snprintf(r->status, sizeof(r->status), "ok");
		r->bw = bw;
		r->lat_max_ns = lat;
		r->lat_p99_ns = NAN;
		r->seconds = (double)(s ? s : 1);
		r->bytes = (uint64_t)(bw * r->seconds);
		r->noise_sd = NAN;
	}
	spawn_result_release(&res);
}

static void run_image(const struct matrix *m, const struct mx_target *t, const struct mx_test *x, struct mx_result *r)
{
	r->tool = MX_QEMU_IMG;
	if (x->dbench) {
		fail(r, "skipped", "%s", "dbench needs a file system, not an image file");
		return;
	}
	if (x->random) {
		fail(r, "skipped", "%s", "qemu-img bench issues sequential I/O only: no random test through an image");
		return;
	}
	char err[512] = "";
	uint64_t bytes = 0;
	double seconds = 0;
	bool direct = false;
	/* qemu-img bench has no time cap; the size bounds it, the timeout guards it. */
	int timeout_ms = (int)(m->runtime_ns / 1000000) * 10 + 60000;
	int ret = mx_image_bench(t->file, t->format, x->write, x->bs, m->iodepth, m->size, timeout_ms, &bytes, &seconds,
				 &direct, err, sizeof(err));
	if (ret < 0) {
		fail(r, interrupt_requested() ? "interrupted" : "failed", "%s", interrupt_requested() ? "interrupted" : err);
		return;
	}
	snprintf(r->status, sizeof(r->status), "ok");
	r->bytes = bytes;
	r->seconds = seconds;
	r->bw = seconds > 0 ? (double)bytes / seconds : 0;
	r->iops = seconds > 0 ? (double)bytes / x->bs / seconds : 0;
	r->direct = direct;
	r->noise_basis = "none";
}

static const char *tool_name(enum mx_tool t)
{
	return t == MX_FIO ? "fio" : t == MX_BUILTIN ? "builtin" : t == MX_QEMU_IMG ? "qemu-img" : "dbench";
}

static void run_one(const struct matrix *m, const struct mx_target *t, const struct mx_test *x, bool use_fio,
		    struct mx_result *r)
{
	*r = (struct mx_result){ .lat_p99_ns = NAN, .lat_max_ns = NAN, .noise_sd = NAN, .noise_min = NAN, .noise_max = NAN, .direct = t->direct };
	if (t->failed) {
		fail(r, "skipped", "the target could not be set up: %s", t->reason);
		return;
	}
	if (t->kind == MX_DEVICE && (x->write || x->dbench)) {
		fail(r, "skipped", "%s", "matrix never writes to a block device");
		return;
	}
	if (t->kind == MX_IMAGE)
		run_image(m, t, x, r);
	else if (x->dbench)
		run_dbench(m, t, x, r);
	else if (use_fio)
		run_fio(m, t, x, r);
	else
		run_builtin(m, t, x, r);
	char rate[32];
	human_rate(r->bw, rate, sizeof(rate));
	if (strcmp(r->status, "ok") == 0)
		log_msg(LOG_INFO, "MATRIX (%s): %s: %s (%s%s)", t->label, x->name, rate, tool_name(r->tool),
			x->dbench ? "" : t->direct ? ", O_DIRECT" : ", buffered");
	else
		log_msg(LOG_WARN, "MATRIX (%s): %s %s: %s", t->label, x->name, r->status, r->reason);
}

/* ---- output ---- */

static void write_json(struct json *j, const struct matrix *m, bool use_fio)
{
	json_string(j, "operation", "matrix");
	if (m->pool)
		json_string(j, "pool", m->pool);
	json_int(j, "stale_areas_removed", m->stale_removed); /* datasets and directories of killed runs */
	json_string(j, "engine", use_fio ? "fio" : "builtin");
	json_uint(j, "size_bytes", m->size);
	json_double(j, "runtime_cap_seconds", (double)m->runtime_ns / 1e9);
	json_uint(j, "iodepth", m->iodepth);
	json_begin_array(j, "targets");
	for (size_t i = 0; i < m->ntargets; i++) {
		const struct mx_target *t = &m->targets[i];
		json_begin_object(j, NULL);
		json_string(j, "label", t->label);
		json_string(j, "kind", t->kind == MX_DIR ? "directory" : t->kind == MX_DEVICE ? "device"
					: t->kind == MX_IMAGE ? "image" : "zfs dataset");
		if (t->kind == MX_IMAGE)
			json_string(j, "format", t->format);
		json_string(j, "path", t->path);
		if (t->kind == MX_DATASET) {
			json_string(j, "dataset", t->area.name[0] ? t->area.name : NULL);
			json_string(j, "recordsize", t->recordsize);
			json_string(j, "compression_requested", t->compression_asked);
			json_string(j, "compression", t->compression[0] ? t->compression : NULL);
			json_string(j, "primarycache", "metadata");
		}
		json_bool(j, "direct_io", t->direct);
		json_string(j, "note", t->note[0] ? t->note : NULL);
		json_string(j, "status", t->failed ? "failed" : "ok");
		json_string(j, "reason", t->reason[0] ? t->reason : NULL);
		json_end_object(j);
	}
	json_end_array(j);
	json_begin_array(j, "tests");
	for (size_t k = 0; k < m->ntests; k++) {
		const struct mx_test *x = &m->tests[k];
		json_begin_object(j, NULL);
		json_string(j, "name", x->name);
		json_string(j, "tool", x->dbench ? "dbench" : use_fio ? "fio" : "builtin");
		if (x->dbench) {
			json_uint(j, "clients", x->clients);
		} else {
			json_string(j, "rw", x->random ? (x->write ? "randwrite" : "randread") : (x->write ? "write" : "read"));
			json_uint(j, "bs_bytes", x->bs);
			json_uint(j, "iodepth", m->iodepth);
			json_string(j, "ioengine", use_fio ? "libaio" : "auto");
			json_uint(j, "size_bytes", m->size);
			json_string(j, "pattern", "random");
		}
		json_double(j, "runtime_cap_seconds", (double)m->runtime_ns / 1e9);
		json_bool(j, "higher_is_better", true);
		json_end_object(j);
	}
	json_end_array(j);
	json_begin_array(j, "results");
	for (size_t i = 0; i < m->ntargets; i++)
		for (size_t k = 0; k < m->ntests; k++) {
			const struct mx_result *r = &m->results[i][k];
			json_begin_object(j, NULL);
			json_string(j, "target", m->targets[i].label);
			json_string(j, "test", m->tests[k].name);
			json_string(j, "status", r->status);
			json_string(j, "reason", r->reason[0] ? r->reason : NULL);
			json_string(j, "tool", tool_name(r->tool));
			if (!m->tests[k].dbench)
				json_bool(j, "direct", r->direct);
			json_uint(j, "bytes", r->bytes);
			json_double(j, "seconds", r->seconds);
			json_double(j, "bw_bytes_per_s", r->bw);
			json_double(j, "iops", r->iops);
			json_double(j, "lat_p99_ns", r->lat_p99_ns);
			json_double(j, "lat_max_ns", r->lat_max_ns);
			json_begin_object(j, "noise");
			json_string(j, "basis", r->noise_basis);
			json_uint(j, "samples", r->noise_n);
			json_double(j, "stddev_bw_bytes_per_s", r->noise_sd);
			json_double(j, "min_bw_bytes_per_s", r->noise_min);
			json_double(j, "max_bw_bytes_per_s", r->noise_max);
			json_end_object(j);
			json_end_object(j);
		}
	json_end_array(j);
}

/* The comparison: one row per test, one column per target, the best marked. */
static void print_table(const struct matrix *m)
{
	size_t ncols = m->ntargets + 2;
	const char **headers = calloc(ncols, sizeof(*headers));
	char align[16] = "l";
	headers[0] = "TEST";
	for (size_t i = 0; i < m->ntargets; i++) {
		headers[i + 1] = m->targets[i].label;
		if (i + 2 < sizeof(align))
			align[i + 1] = 'r';
	}
	headers[ncols - 1] = "BEST";
	if (ncols - 1 < sizeof(align) - 1)
		align[ncols - 1] = 'l';
	struct table t;
	table_init(&t, ncols, headers, align);
	char (*cells)[48] = calloc(ncols, sizeof(*cells));
	const char **row = calloc(ncols, sizeof(*row));
	for (size_t k = 0; k < m->ntests; k++) {
		size_t best = SIZE_MAX;
		snprintf(cells[0], sizeof(cells[0]), "%s", m->tests[k].name);
		for (size_t i = 0; i < m->ntargets; i++) {
			const struct mx_result *r = &m->results[i][k];
			if (strcmp(r->status, "ok") == 0) {
				human_rate(r->bw, cells[i + 1], sizeof(cells[i + 1]));
				if (best == SIZE_MAX || r->bw > m->results[best][k].bw)
					best = i;
			} else {
				snprintf(cells[i + 1], sizeof(cells[i + 1]), "%s", r->status);
			}
		}
		snprintf(cells[ncols - 1], sizeof(cells[0]), "%s", best == SIZE_MAX ? "-" : m->targets[best].label);
		for (size_t c = 0; c < ncols; c++)
			row[c] = cells[c];
		table_add_row(&t, row);
	}
	table_print(&t, stdout);
	printf("Higher is better. 'iotriage report <run id> --html FILE' draws one chart per test.\n");
	table_release(&t);
	free(cells);
	free(row);
	free(headers);
}

struct mx_store_arg {
	const struct matrix *m;
};

static int store_rows(struct store *s, const struct run_ctx *rc, void *arg)
{
	const struct matrix *m = ((struct mx_store_arg *)arg)->m;
	for (size_t i = 0; i < m->ntargets; i++)
		for (size_t k = 0; k < m->ntests; k++) {
			const struct mx_result *r = &m->results[i][k];
			struct strbuf params = STRBUF_INIT;
			strbuf_adds(&params, "{\"target\": ");
			json_quote(&params, m->targets[i].label);
			strbuf_addf(&params, ", \"tool\": \"%s\", \"bs_bytes\": %" PRIu32 "}", tool_name(r->tool), m->tests[k].bs);
			struct store_result res = {
				.run_id = rc->id, .test = m->tests[k].name, .path = m->targets[i].path,
				.status = r->status, .reason = r->reason[0] ? r->reason : NULL, .bytes = r->bytes,
				.seconds = r->seconds, .bw_bytes_per_s = r->bw, .iops = r->iops, .params = params.buf,
			};
			int e = store_add_result(s, &res);
			strbuf_release(&params);
			if (e < 0)
				return e;
		}
	return 0;
}

int cmd_matrix(int argc, char **argv, struct global_opts *g)
{
	static const struct command_doc doc = {
		"matrix", "matrix [--target PATH]... [--pool POOL [--recordsize LIST] [--compression LIST]] [options]",
		"Runs one suite of tests over several targets, one after the other in a fixed order\n"
		"(the --target paths as given, then the datasets: each recordsize with each\n"
		"compression), then shows them side by side. With --pool, temporary datasets are\n"
		"created (tagged, primarycache=metadata so reads come from the pool) and removed at\n"
		"the end, on failure and on signals; a killed run's are removed by the next run.\n"
		"Default suite: sequential and random read and write at 8K, 64K and 1M, O_DIRECT\n"
		"where the file system takes it (fio where installed, else the built-in engine),\n"
		"and dbench at 1, 6 and 12 clients where dbench is installed.",
		matrix_opts,
	};
	struct matrix *m = calloc(1, sizeof(*m));
	if (!m)
		return 1;
	m->size = 256ULL << 20;
	m->runtime_ns = 10000000000ULL;
	m->iodepth = 8;
	m->engine = "auto";
	m->clients[0] = 1, m->clients[1] = 6, m->clients[2] = 12;
	m->nclients = 3;
	int first = opts_parse_command(&doc, argc, argv, g, parse_matrix_option, m);
	int status = 0;
	if (first < 0) {
		free(m);
		return opts_command_status(first);
	}
	if (first < argc) {
		free(m);
		return opts_usage_error("matrix", "unexpected operand '%s' (targets are given with --target or --pool)", argv[first]);
	}
	if (!m->pool && (m->nrs || m->ncomp)) {
		free(m);
		return opts_usage_error("matrix", "--recordsize and --compression need --pool");
	}
	if (!m->pool)
		m->nrs = m->ncomp = 0;
	else {
		if (!m->nrs)
			snprintf(m->recordsizes[0], 16, "8k"), snprintf(m->recordsizes[1], 16, "64k"), m->nrs = 2;
		if (!m->ncomp)
			snprintf(m->compressions[0], 16, "off"), snprintf(m->compressions[1], 16, "lz4"), m->ncomp = 2;
	}
	if (m->npaths + m->nrs * m->ncomp + (m->images_dir ? 2 : 0) == 0) {
		free(m);
		return opts_usage_error("matrix", "expected targets: --target PATH (repeatable), --pool POOL or --images DIR");
	}
	if (m->npaths + m->nrs * m->ncomp + (m->images_dir ? 2 : 0) > MX_MAX_TARGETS) {
		free(m);
		return opts_usage_error("matrix", "at most %d targets (paths plus recordsize x compression)", MX_MAX_TARGETS);
	}
	status = build_suite(m);
	if (status) {
		free(m);
		return status;
	}
	if (m->ntests == 0) {
		free(m);
		return opts_usage_error("matrix", "no tests to run");
	}

	struct run_ctx rc;
	if (run_ctx_begin(&rc, "matrix", argc, argv, g)) {
		free(m);
		return 1;
	}
	bool use_fio = false;
	if (strcmp(m->engine, "builtin") != 0) {
		const char *fargv[] = { "fio", "--version", NULL };
		struct spawn_result res;
		use_fio = spawn_run(fargv, 10000, &res) == 0 && res.status == 0;
		spawn_result_release(&res);
		if (!use_fio && strcmp(m->engine, "fio") == 0) {
			fprintf(stderr, "iotriage matrix: --engine fio: fio is not installed\n");
			log_close();
			free(m);
			return 1;
		}
		if (!use_fio)
			log_msg(LOG_WARN, "MATRIX: fio is not installed; the built-in engine runs the tests");
	}
	m->results = calloc(MX_MAX_TARGETS, sizeof(*m->results));
	if (!m->results)
		abort();

	int r = add_path_targets(m, rc.id);
	if (r == 0 && m->pool) {
		r = bench_target_resolve(m->pool, "zfs", &m->pool_target);
		if (r == 0)
			m->stale_removed += pool_areas_remove_stale(&m->pool_target, "MATRIX");
		for (size_t a = 0; r == 0 && a < m->nrs && !interrupt_requested(); a++)
			for (size_t b = 0; b < m->ncomp && !interrupt_requested(); b++)
				create_dataset(m, &m->targets[m->ntargets++], rc.id, m->recordsizes[a], m->compressions[b]);
	}
	if (r == 0 && m->images_dir) {
		struct stat st;
		if (stat(m->images_dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
			fprintf(stderr, "iotriage matrix: --images '%s' is not a directory\n", m->images_dir);
			r = -EINVAL;
		} else {
			r = add_image_targets(m, rc.id);
		}
	}
	if (r < 0) {
		destroy_datasets(m);
		fprintf(stderr, "iotriage matrix: cannot set up the targets\n");
		log_close();
		free(m->results);
		free(m);
		return r == -EINVAL ? 2 : 1;
	}
	for (size_t i = 0; i < m->ntargets; i++) {
		struct mx_target *t = &m->targets[i];
		t->direct = t->kind == MX_DEVICE || (!t->failed && pb_direct_supported(t->path));
		if (t->kind == MX_IMAGE)
			continue; /* qemu-img says per test whether cache=none (O_DIRECT) was taken */
		if (!t->direct && !t->failed) {
			snprintf(t->note + strlen(t->note), sizeof(t->note) - strlen(t->note), "%sO_DIRECT is refused here: "
				 "buffered I/O, so reads may come from a cache", t->note[0] ? "; " : "");
			log_msg(LOG_WARN, "MATRIX (%s): O_DIRECT is refused; buffered I/O instead", t->label);
		}
	}

	/* Target by target, test by test: the fixed order of the comparison. */
	size_t ok = 0, ran = 0;
	for (size_t i = 0; i < m->ntargets; i++)
		for (size_t k = 0; k < m->ntests; k++) {
			struct mx_result *res = &m->results[i][k];
			if (interrupt_requested()) {
				*res = (struct mx_result){ .lat_p99_ns = NAN, .lat_max_ns = NAN, .noise_sd = NAN, .noise_min = NAN, .noise_max = NAN };
				fail(res, "interrupted", "%s", "not run: interrupted");
				continue;
			}
			run_one(m, &m->targets[i], &m->tests[k], use_fio, res);
			ran += strcmp(res->status, "skipped") != 0;
			ok += strcmp(res->status, "ok") == 0;
		}
	destroy_datasets(m);

	if (ok == 0 || ok < ran)
		status = 1;
	int sig = run_ctx_interrupted_status();
	if (sig)
		status = sig;
	if (!rc.json)
		print_table(m);
	struct json j;
	json_init(&j);
	run_ctx_json_head(&rc, &j);
	write_json(&j, m, use_fio);
	struct mx_store_arg arg = { m };
	status = run_ctx_finish(&rc, &j, status, store_rows, &arg);
	json_release(&j);
	free(m->results);
	free(m);
	return status;
}
