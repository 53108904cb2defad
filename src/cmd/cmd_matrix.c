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
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/log.h"
#include "basic/parse.h"
#include "cmd/commands.h"
#include "cmd/progress.h"
#include "cmd/runctx.h"
#include "render/matrix.h"
#include "triage/matrix/matrix_targets.h"
#include "triage/matrix/matrix.h"

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
	OPT_ZVOL,
};

/* The procedure's settings, and the engine chosen before the run. */
struct matrix_cmd {
	struct matrix m;
	bool use_fio;
};

#define MX_FIELD(F) offsetof(struct matrix_cmd, m.F)
static const char *const engines[] = { "auto", "fio", "builtin", NULL };

/* Lists and the repeatable --target keep a handler. */
static const struct opt_def matrix_opts[] = {
	{ "target", 0, "PATH", "a directory or block device (read tests only) to test; repeat for more, in order", OPT_TARGET, { 0 } },
	{ "pool", 0, "POOL", "a ZFS pool: test temporary datasets made with each --recordsize x --compression", OPT_POOL,
	  { .type = OPT_TYPE_STRING, .offset = MX_FIELD(pool) } },
	{ "recordsize", 0, "LIST", "recordsizes of the datasets, in order (default 8k,64k)", OPT_RECORDSIZE, { 0 } },
	{ "compression", 0, "LIST", "compressions of the datasets, in order (default off,lz4; lz4 falls back to on where this ZFS lacks it)", OPT_COMPRESSION, { 0 } },
	{ "tests", 0, "LIST", "tests in order: seqread-8k ... randwrite-1m, dbench-N, or fio (all 12), dbench (every --dbench-clients)", OPT_TESTS,
	  { .type = OPT_TYPE_STRING, .offset = MX_FIELD(tests_arg), .def = "all" } },
	{ "size", 0, "SIZE", "the test file on each target", OPT_SIZE,
	  { .type = OPT_TYPE_SIZE, .offset = MX_FIELD(size), .min = 1U << 20, .def = "256M", .expect = "at least 1M" } },
	{ "runtime", 0, "TIME", "time cap of each test", OPT_RUNTIME,
	  { .type = OPT_TYPE_DURATION, .offset = MX_FIELD(runtime_ns), .min = 1000000000ULL, .def = "10s",
	    .expect = "a duration of at least 1s" } },
	{ "engine", 0, "NAME", "auto (fio where installed, else built-in), fio or builtin", OPT_ENGINE,
	  { .type = OPT_TYPE_CHOICE, .offset = MX_FIELD(engine), .choices = engines, .def = "auto" } },
	{ "iodepth", 0, "N", "queue depth of the fio-style tests", OPT_IODEPTH,
	  { .type = OPT_TYPE_UINT, .offset = MX_FIELD(iodepth), .width = sizeof(unsigned), .min = 1, .max = 256,
	    .def = "8" } },
	{ "dbench-clients", 0, "LIST", "dbench client counts (default 1,6,12)", OPT_DBENCH_CLIENTS, { 0 } },
	{ "images", 0, "DIR", "also a raw and a qcow2 image file in DIR, measured through QEMU's block layer "
			       "(qemu-img bench; sequential tests only)", OPT_IMAGES,
	  { .type = OPT_TYPE_STRING, .offset = MX_FIELD(images_dir) } },
	{ "zvol", 0, NULL, "with --pool, also a temporary zvol per --recordsize as its volblocksize, measured as a block "
			    "device (OpenZFS; the raw/qcow2/zvol comparison's zvol rows)", OPT_ZVOL,
	  { .type = OPT_TYPE_FLAG, .offset = MX_FIELD(zvols) } },
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
	struct matrix *m = &((struct matrix_cmd *)state)->m;
	uint64_t v;
	char items[MX_MAX_LIST][16];
	size_t n;
	switch (id) {
	case OPT_TARGET:
		if (m->npaths == MX_MAX_TARGETS)
			return opts_usage_error("matrix", "at most %d targets", MX_MAX_TARGETS);
		m->paths[m->npaths++] = arg;
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

static int store_rows(struct store *s, const struct run_ctx *rc, void *arg)
{
	return mx_store_rows(s, rc->id, arg);
}

/* The operand and target checks, the lists' defaults and the suite.
 * Returns 0, or the exit status of a usage error. */
static int check_options(struct matrix *m, struct command_call *call)
{
	if (call->noperands > 0)
		return opts_usage_error("matrix", "unexpected operand '%s' (targets are given with --target or --pool)",
					call->operands[0]);
	if (!m->nclients)
		m->clients[0] = 1, m->clients[1] = 6, m->clients[2] = 12, m->nclients = 3;
	if (!m->pool && (m->nrs || m->ncomp || m->zvols))
		return opts_usage_error("matrix", "--recordsize, --compression and --zvol need --pool");
	if (!m->pool)
		m->nrs = m->ncomp = 0;
	else {
		if (!m->nrs)
			snprintf(m->recordsizes[0], 16, "8k"), snprintf(m->recordsizes[1], 16, "64k"), m->nrs = 2;
		if (!m->ncomp)
			snprintf(m->compressions[0], 16, "off"), snprintf(m->compressions[1], 16, "lz4"), m->ncomp = 2;
	}
	size_t ntargets = m->npaths + m->nrs * m->ncomp + (m->zvols ? m->nrs : 0) + (m->images_dir ? 2 : 0);
	if (ntargets == 0)
		return opts_usage_error("matrix", "expected targets: --target PATH (repeatable), --pool POOL or --images DIR");
	if (ntargets > MX_MAX_TARGETS)
		return opts_usage_error("matrix", "at most %d targets (paths plus recordsize x compression, zvols, images)",
					MX_MAX_TARGETS);
	char bad[32];
	int r = mx_suite_build(m, m->tests_arg, bad, sizeof(bad));
	if (r == -EINVAL)
		return opts_usage_error("matrix", "invalid --tests '%s'", m->tests_arg);
	if (r < 0)
		return opts_usage_error("matrix", "unknown test '%s': expected seqread|seqwrite|randread|randwrite "
					"-8k|-64k|-1m, dbench-N, fio or dbench", bad);
	if (m->ntests == 0)
		return opts_usage_error("matrix", "no tests to run");
	return 0;
}

/* fio unless --engine builtin or it is missing. Returns 0, or 1 after
 * saying so when --engine fio asked for it. */
static int choose_engine(const struct matrix *m, bool *ret_use_fio)
{
	*ret_use_fio = false;
	if (strcmp(m->engine, "builtin") == 0)
		return 0;
	*ret_use_fio = mx_fio_installed();
	if (!*ret_use_fio && strcmp(m->engine, "fio") == 0)
		return cmd_error("matrix", "--engine fio: fio is not installed");
	return 0;
}

/* The options, operands and suite, then the engine: all before a run begins. */
static int matrix_check(struct command_call *call)
{
	struct matrix_cmd *c = call->settings;
	int status = check_options(&c->m, call);
	return status ? status : choose_engine(&c->m, &c->use_fio);
}

/* The targets set up (triage/matrix/matrix_targets.h). Returns 0, or the exit
 * status after removing what was made and saying why. */
static int set_up_targets(struct matrix *m, const char *run_id)
{
	char why[PATH_MAX + 512] = "";
	int r = mx_set_up_targets(m, run_id, why, sizeof(why));
	if (r == 0)
		return 0;
	if (why[0])
		cmd_error("matrix", "%s", why);
	mx_destroy_targets(m);
	cmd_error("matrix", "cannot set up the targets");
	return r == -EINVAL ? 2 : 1;
}

static const struct command_doc matrix_doc = {
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

static void free_results(void *arg)
{
	struct matrix *m = arg;
	free(m->results);
	m->results = NULL;
}

/* Sets up the targets, runs the grid, removes the targets, prints and
 * writes the document. Returns the exit status; a run whose targets could
 * not be set up is not recorded. */
static int matrix_main(struct command_call *call)
{
	struct matrix_cmd *c = call->settings;
	struct matrix *m = &c->m;
	if (!c->use_fio && strcmp(m->engine, "builtin") != 0)
		log_msg(LOG_WARN, "MATRIX: fio is not installed; the built-in engine runs the tests");
	m->results = xcalloc(MX_MAX_TARGETS, sizeof(*m->results));
	call->release_fn = free_results;
	call->release_arg = m;
	int status = set_up_targets(m, call->rc->id);
	if (status) {
		call->discard_run = true;
		return status;
	}
	mx_check_direct(m);
	size_t ok, ran;
	struct progress live;
	m->progress = cmd_progress_attach(&live, call->rc->json, "matrix");
	mx_run_all(m, c->use_fio, &ok, &ran);
	mx_destroy_targets(m);
	status = ok == 0 || ok < ran ? 1 : 0;
	int sig = run_ctx_interrupted_status();
	if (sig)
		status = sig;
	if (!call->rc->json)
		matrix_print_table(m);
	mx_write_json(call->doc, m, c->use_fio);
	call->store_fn = store_rows;
	call->store_arg = m;
	return status;
}

/* Operands are refused by check_options, with a hint. */
const struct command_frame matrix_frame = {
	.doc = &matrix_doc,
	.settings_size = sizeof(struct matrix_cmd),
	.handle = parse_matrix_option,
	.flags = CMD_RECORDS_RUN,
	.min_operands = 0,
	.max_operands = -1,
	.check = matrix_check,
	.main = matrix_main,
};
