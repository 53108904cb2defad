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
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "basic/humanize.h"
#include "basic/interrupt.h"
#include "basic/log.h"
#include "basic/parse.h"
#include "basic/spawn.h"
#include "cmd/commands.h"
#include "cmd/matrix.h"
#include "cmd/poolbench_cmd.h"
#include "cmd/runctx.h"
#include "output/table.h"

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
	{ "target", 0, "PATH", "a directory or block device (read tests only) to test; repeat for more, in order", OPT_TARGET, { 0 } },
	{ "pool", 0, "POOL", "a ZFS pool: test temporary datasets made with each --recordsize x --compression", OPT_POOL, { 0 } },
	{ "recordsize", 0, "LIST", "recordsizes of the datasets, in order (default 8k,64k)", OPT_RECORDSIZE, { 0 } },
	{ "compression", 0, "LIST", "compressions of the datasets, in order (default off,lz4; lz4 falls back to on where this ZFS lacks it)", OPT_COMPRESSION, { 0 } },
	{ "tests", 0, "LIST", "tests in order: seqread-8k ... randwrite-1m, dbench-N, or fio (all 12), dbench (every --dbench-clients); default all", OPT_TESTS, { 0 } },
	{ "size", 0, "SIZE", "the test file on each target (default 256M)", OPT_SIZE, { 0 } },
	{ "runtime", 0, "TIME", "time cap of each test (default 10s)", OPT_RUNTIME, { 0 } },
	{ "engine", 0, "NAME", "auto (fio where installed, else built-in), fio or builtin (default auto)", OPT_ENGINE, { 0 } },
	{ "iodepth", 0, "N", "queue depth of the fio-style tests (default 8)", OPT_IODEPTH, { 0 } },
	{ "dbench-clients", 0, "LIST", "dbench client counts (default 1,6,12)", OPT_DBENCH_CLIENTS, { 0 } },
	{ "images", 0, "DIR", "also a raw and a qcow2 image file in DIR, measured through QEMU's block layer "
			       "(qemu-img bench; sequential tests only)", OPT_IMAGES, { 0 } },
	OPT_END,
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
			json_string(j, "tool", mx_tool_name(r->tool));
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
			strbuf_addf(&params, ", \"tool\": \"%s\", \"bs_bytes\": %" PRIu32 "}", mx_tool_name(r->tool), m->tests[k].bs);
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

	int r = mx_add_path_targets(m, rc.id);
	if (r == 0 && m->pool) {
		r = bench_target_resolve(m->pool, "zfs", &m->pool_target);
		if (r == 0)
			m->stale_removed += pool_areas_remove_stale(&m->pool_target, "MATRIX");
		for (size_t a = 0; r == 0 && a < m->nrs && !interrupt_requested(); a++)
			for (size_t b = 0; b < m->ncomp && !interrupt_requested(); b++)
				mx_create_dataset(m, &m->targets[m->ntargets++], rc.id, m->recordsizes[a], m->compressions[b]);
	}
	if (r == 0 && m->images_dir) {
		struct stat st;
		if (stat(m->images_dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
			fprintf(stderr, "iotriage matrix: --images '%s' is not a directory\n", m->images_dir);
			r = -EINVAL;
		} else {
			r = mx_add_image_targets(m, rc.id);
		}
	}
	if (r < 0) {
		mx_destroy_targets(m);
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
				mx_result_fail(res, "interrupted", "%s", "not run: interrupted");
				continue;
			}
			mx_run_one(m, &m->targets[i], &m->tests[k], use_fio, res);
			ran += strcmp(res->status, "skipped") != 0;
			ok += strcmp(res->status, "ok") == 0;
		}
	mx_destroy_targets(m);

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
