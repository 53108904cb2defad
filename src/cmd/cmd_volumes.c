/* volumes: the NAS vendor's per-volume table. For each mounted file system
 * or dataset, write a tagged temporary file of incompressible data, drop it
 * from the caches, and read it back (1 MiB blocks, queue depth 32, 15 s cap
 * by default), saying whether the figure is the media's, the pool's or a
 * cache's. The options, the table and the exit status are here; the test
 * and its document are in triage/pool/volumes.h. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "basic/parse.h"
#include "bench/job.h"
#include "cmd/commands.h"
#include "render/volumes.h"
#include "cmd/progress.h"
#include "cmd/runctx.h"
#include "fs/volfile.h"
#include "triage/pool/volumes.h"

enum { OPT_RUNTIME = OPT_COMMAND_BASE, OPT_SIZE, OPT_BS, OPT_IODEPTH, OPT_MATCH };

/* The test's settings and, after it, its volumes. */
struct volumes_cmd {
	struct volumes_settings run;
	struct volume_list list;
};

#define V(FIELD) offsetof(struct volumes_cmd, run.FIELD)

static const struct opt_def volumes_opts[] = {
	{ "runtime", 0, "TIME", "time cap of each read, e.g. 5s; a cap, not a duration", OPT_RUNTIME,
	  { .type = OPT_TYPE_DURATION, .offset = V(runtime_ns), .min = 1, .def = "15s",
	    .expect = "a duration such as 5s or 1m" } },
	{ "size", 0, "SIZE", "test file written and read on each volume; capped by free space", OPT_SIZE,
	  { .type = OPT_TYPE_SIZE, .offset = V(size), .min = 2 * VOLFILE_TAG_BYTES, .def = "256M",
	    .expect = "8K or more, with an optional K, M, G or T suffix" } },
	/* A handler: a range and a multiple (a file read with O_DIRECT, aligned
	 * to the file system's 4K blocks, not the read tests' sector rule). */
	{ "bs", 0, "SIZE", "read block size, a multiple of 4K", OPT_BS, { .def = "1M" } },
	{ "iodepth", 0, "N", "reads in flight", OPT_IODEPTH,
	  OPT_V_UINT(struct volumes_cmd, run.iodepth, 1, JOB_MAX_IODEPTH, "32") },
	{ "match", 'm', "GLOB", "only mounts whose mount point or source matches (repeatable), e.g. '/srv/*'", OPT_MATCH, { 0 } },
	OPT_END,
};

static int handle_option(int id, const char *arg, void *state)
{
	struct volumes_settings *s = &((struct volumes_cmd *)state)->run;
	uint64_t v;
	switch (id) {
	case OPT_BS:
		if (parse_size(arg, &v) < 0 || v < 4096 || v > (64U << 20) || v % 4096)
			return opts_usage_error("volumes", "invalid --bs '%s': expected a multiple of 4K from 4K to 64M", arg);
		s->bs = (uint32_t)v;
		return 0;
	case OPT_MATCH:
		if (s->nglobs == VOLUMES_MAX_MATCH)
			return opts_usage_error("volumes", "at most %d --match patterns", VOLUMES_MAX_MATCH);
		s->globs[s->nglobs++] = arg;
		return 0;
	}
	return 2;
}

static int store_volumes(struct store *st, const struct run_ctx *rc, void *arg)
{
	return volumes_store(st, rc->id, arg);
}

/* No operand, and a test file that holds at least one block. */
static int check_volumes(struct command_call *call)
{
	const struct volumes_settings *s = &((struct volumes_cmd *)call->settings)->run;
	if (call->noperands)
		return opts_usage_error("volumes", "unexpected operand '%s' (use --match GLOB to choose mounts)",
					call->operands[0]);
	if (s->bs > s->size)
		return opts_usage_error("volumes", "--size must be at least --bs");
	return 0;
}

static int volumes_main(struct command_call *call)
{
	struct volumes_cmd *v = call->settings;
	struct volumes_settings *s = &v->run;
	struct volume_list *l = &v->list;
	struct progress live;
	s->progress = cmd_progress_attach(&live, call->rc->json, "volumes");
	int r = volumes_run(s, call->rc->id, l);
	if (r == 0 && !call->rc->json)
		volumes_print(l);

	int status = r < 0 || l->counts[VOLUME_ERROR] || l->counts[VOLUME_OK] == 0 ? 1 : 0;
	int sig = run_ctx_interrupted_status();
	if (sig)
		status = sig;
	if (r == 0)
		volumes_json(call->doc, l, s);
	json_string(call->doc, "status", status ? "error" : "ok");
	call->store_fn = r == 0 ? store_volumes : NULL;
	call->store_arg = l;
	return status;
}

static void volumes_release(struct command_call *call)
{
	struct volumes_cmd *v = call->settings;
	volume_list_release(&v->list);
}

static const struct command_doc volumes_doc = {
	"volumes", "volumes [options]",
	"The per-volume throughput table: for each mounted file system or ZFS dataset, writes\n"
	"an incompressible test file (O_TMPFILE where the file system allows it), drops it\n"
	"from the caches and reads it back with O_DIRECT (1M blocks, queue depth 32, 15 s\n"
	"cap). Each figure says whether it came from the media, the pool or a cache (a ZFS\n"
	"read may be served by the ARC). Pseudo file systems, bind mounts and the root file\n"
	"system (unless --match names it) are skipped and listed with the reason.",
	volumes_opts,
};

const struct command_frame volumes_frame = {
	.doc = &volumes_doc,
	.settings_size = sizeof(struct volumes_cmd),
	.handle = handle_option,
	.flags = CMD_RECORDS_RUN,
	.min_operands = 0,
	.max_operands = -1,
	.check = check_volumes,
	.main = volumes_main,
	.release = volumes_release,
};
