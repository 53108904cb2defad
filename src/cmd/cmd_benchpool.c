/* benchpool POOL [SIZE]: step 4 of the method. The pool measured the way an
 * application sees it (file system, record size, compression, write path),
 * in temporary tagged areas that are removed on success, failure and
 * signals, with every read figure labelled by what could have served it. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "basic/log.h"
#include "basic/parse.h"
#include "cmd/commands.h"
#include "cmd/progress.h"
#include "cmd/runctx.h"
#include "pool/kind.h"
#include "render/pool.h"
#include "triage/pool/benchpool.h"

enum { OPT_TESTS = OPT_COMMAND_BASE, OPT_FSTYPE, OPT_RUNTIME, OPT_PATTERN, OPT_ZVOL, OPT_VOLBLOCKSIZE };

/* The settings: the procedure's, and the operands. */
struct benchpool_cmd {
	struct benchpool_settings set;
	const char *id;
	uint64_t size;
};

/* --tests, --fstype and --pattern keep a handler: a list, and errors that
 * say "invalid" for a choice. */
static const struct opt_def benchpool_opts[] = {
	{ "tests", 't', "LIST", "comma-separated: fio, elbencho, dd, iozone, builtin, or all (default all)", OPT_TESTS, { 0 } },
	{ "fstype", 0, "TYPE", "zfs, btrfs, ceph or dir (detected when omitted)", OPT_FSTYPE, { 0 } },
	{ "runtime", 0, "SECS", "cap on each fio and built-in pass; a cap, not a duration", OPT_RUNTIME,
	  { .type = OPT_TYPE_UINT, .offset = offsetof(struct benchpool_cmd, set.runtime_s), .width = sizeof(unsigned),
	    .min = 1, .max = 86400, .def = "60", .expect = "1 to 86400 seconds" } },
	{ "pattern", 0, "PATTERN", "data written: random (incompressible, default) or zeros", OPT_PATTERN, { 0 } },
	{ "zvol", 0, NULL, "test a temporary zvol of SIZE (ZFS), as a virtual machine's disk: fio and builtin on its device",
	  OPT_ZVOL, { .type = OPT_TYPE_FLAG, .offset = offsetof(struct benchpool_cmd, set.zvol) } },
	{ "volblocksize", 0, "SIZE", "the zvol's volblocksize, a power of two from 512 to 128K (default 16K)",
	  OPT_VOLBLOCKSIZE, { 0 } },
	OPT_END,
};

static int handle_option(int id, const char *arg, void *state)
{
	struct benchpool_settings *s = &((struct benchpool_cmd *)state)->set;
	char err[160];
	switch (id) {
	case OPT_TESTS:
		if (pb_tests_parse(arg, &s->tests, err, sizeof(err)) < 0)
			return opts_usage_error("benchpool", "invalid --tests '%s': %s", arg, err);
		return 0;
	case OPT_FSTYPE:
		if (!pool_kind_fstype_known(arg))
			return opts_usage_error("benchpool", "invalid --fstype '%s': expected %s", arg,
						pool_kind_fstype_words());
		s->fstype = arg;
		return 0;
	case OPT_VOLBLOCKSIZE: {
		uint64_t v;
		if (parse_size(arg, &v) < 0 || v < 512 || v > (128U << 10) || (v & (v - 1)))
			return opts_usage_error("benchpool", "invalid --volblocksize '%s': a power of two from 512 to 128K",
						arg);
		s->volblocksize = arg;
		return 0;
	}
	case OPT_PATTERN:
		if (strcmp(arg, "random") && strcmp(arg, "zeros"))
			return opts_usage_error("benchpool", "invalid --pattern '%s': expected random or zeros", arg);
		s->pattern = strcmp(arg, "zeros") == 0 ? PATTERN_ZEROS : PATTERN_RANDOM;
		return 0;
	}
	return 1;
}

/* SIZE: a bare number is whole GB ("1" is 1 GiB), else a size with a unit. */
static int parse_test_size(const char *arg, uint64_t *ret)
{
	uint64_t v;
	if (strspn(arg, "0123456789") == strlen(arg)) {
		if (parse_uint(arg, 1, 1 << 20, &v) < 0)
			return -EINVAL;
		*ret = v << 30;
		return 0;
	}
	if (parse_size(arg, &v) < 0 || v < (8U << 20) || v % (1U << 20))
		return -EINVAL;
	*ret = v;
	return 0;
}

/* POOL [SIZE]: their count, the size, the pool's name; the default tests. */
static int benchpool_check(struct command_call *call)
{
	struct benchpool_cmd *c = call->settings;
	if (call->noperands > 2)
		return opts_usage_error("benchpool", "expected a pool and an optional size in GB");
	const char *id = call->operands[0];
	c->size = 1ULL << 30;
	if (call->noperands == 2 && parse_test_size(call->operands[1], &c->size) < 0)
		return opts_usage_error("benchpool", "invalid SIZE '%s': whole GB (1, 64) or a size of at least 8M "
						     "in whole MiB (256M)", call->operands[1]);
	if (!*id || id[0] == '-' || strlen(id) > 255 || strpbrk(id, "\n\t"))
		return opts_usage_error("benchpool", "'%s' is not a valid pool name, GUID, label, UUID or directory", id);
	c->id = id;
	if (c->set.volblocksize && !c->set.zvol)
		return opts_usage_error("benchpool", "--volblocksize needs --zvol");
	if (!c->set.tests)
		c->set.tests = (1u << PB_NTESTS) - 1;
	return 0;
}

static int benchpool_main(struct command_call *call)
{
	struct benchpool_cmd *c = call->settings;
	struct benchpool_result b;
	struct progress live;
	c->set.progress = cmd_progress_attach(&live, call->rc->json, "benchpool");
	int r = benchpool_run(c->id, &c->set, c->size, call->rc->id, &b);
	int status = r < 0 || b.none_ran || b.failed ? 1 : 0;
	if (run_ctx_interrupted_status())
		status = run_ctx_interrupted_status();
	if (!call->rc->json && b.noutcomes)
		benchpool_print(&b);
	if (!call->rc->json)
		benchpool_findings_print(&b);
	if (status == 0)
		log_msg(LOG_INFO, "Benchmarking complete.");
	else
		log_msg(LOG_ERR, "Benchmarking failed: %s", r < 0 ? "nothing was measured" : "a test did not complete");
	benchpool_result_json(call->doc, &b);
	benchpool_result_release(&b);
	return status;
}

static const struct command_doc benchpool_doc = {
	"benchpool", "benchpool [options] POOL [SIZE]",
	"Measures a pool the way an application sees it: temporary datasets (ZFS, record\n"
	"sizes 1M and 4K), subvolumes (btrfs) or directories, then fio, elbencho, dd, iozone\n"
	"and the built-in engine, with incompressible data. POOL is a ZFS pool name or GUID,\n"
	"a btrfs label or UUID, a Ceph pool (an RBD image, fio's rbd engine), a CephFS mount\n"
	"or a directory. SIZE is in GB (default 1) or takes a unit\n"
	"(256M). Reads are made so no cache can serve them, and labelled 'cache' when one\n"
	"could. Everything temporary is removed at the end, on failure and on signals.",
	benchpool_opts,
};

const struct command_frame benchpool_frame = {
	.doc = &benchpool_doc,
	.settings_size = sizeof(struct benchpool_cmd),
	.handle = handle_option,
	.flags = CMD_RECORDS_RUN,
	.min_operands = 1,
	.max_operands = -1, /* more than two: the same message as too few */
	.operands_expected = "expected a pool and an optional size in GB",
	.check = benchpool_check,
	.main = benchpool_main,
};
