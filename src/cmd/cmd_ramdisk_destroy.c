/* ramdisk destroy: all of iotriage's RAM disks or none; refuses while any
 * is in use unless --force (confirmed, or -y), and says what is left when
 * the kernel refuses (triage/ramdisk/ramdisk_batch.h does the work). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "basic/log.h"
#include "cmd/commands.h"
#include "cmd/ramdisk_cmd.h"
#include "cmd/runctx.h"
#include "triage/ramdisk/ramdisk_batch.h"

enum { OPT_YES = OPT_COMMAND_BASE, OPT_FORCE };

struct destroy_args {
	bool force, yes;
};

static const struct opt_def destroy_opts[] = {
	{ "force", 'f', NULL, "destroy devices that are in use, leaving their users dangling", OPT_FORCE,
	  OPT_V_FLAG(struct destroy_args, force) },
	{ "yes", 'y', NULL, "do not ask before --force", OPT_YES, OPT_V_FLAG(struct destroy_args, yes) },
	OPT_END,
};

struct destroy_outcome {
	bool destroyed;
	uint64_t before, after;
	const char *reason;
};

/* All of L[0..N) or none: the busy check, the --force confirmation, the
 * batch. Returns the exit status. */
static int destroy_all(const struct destroy_args *a, const struct ramdisk_listed *l, size_t n, int reaped,
		       struct destroy_outcome *o)
{
	if (n == 0 && reaped > 0) {
		o->destroyed = true;
		o->after = ramdisk_mem_available();
		return 0;
	}
	if (n == 0) {
		log_msg(LOG_ERR, "RAMDISK: no RAM disks exist; nothing to destroy");
		o->reason = "no RAM disks exist";
		return 1;
	}
	size_t busy = ramdisk_destroy_log_busy(l, n, a->force);
	o->reason = ramdisk_destroy_refusal(l, n, busy, a->force);
	if (o->reason)
		return 1;
	if (busy && !a->yes) {
		int c = ramdisk_confirm("Destroy RAM disks that are in use, leaving their users dangling?");
		if (c != 1) {
			log_msg(LOG_ERR, "RAMDISK: nothing destroyed: --force %s",
				c == -ENOTTY ? "needs -y when standard input is not a terminal" : "was not confirmed");
			o->reason = "not confirmed";
			return 1;
		}
	}
	if (ramdisk_destroy_listed(l, n, a->force, o->before, &o->after, &o->reason) < 0)
		return 1;
	o->destroyed = true;
	return 0;
}

static void destroy_json(struct json *j, const struct destroy_args *a, const struct destroy_outcome *o,
			 const struct ramdisk_listed *l, size_t n)
{
	json_begin_object(j, "ramdisk");
	json_string(j, "action", "destroy");
	json_bool(j, "force", a->force);
	json_bool(j, "destroyed", o->destroyed);
	json_string(j, "reason", o->reason);
	json_uint(j, "mem_available_before_bytes", o->before);
	if (o->destroyed)
		json_uint(j, "mem_available_after_bytes", o->after);
	else
		json_null(j, "mem_available_after_bytes");
	ramdisk_json_devices(j, "devices", l, n);
	json_end_object(j);
}

/* Destroy takes no operand, and says why; then root, before a run is recorded. */
static int destroy_check(struct command_call *call)
{
	if (call->noperands > 0)
		return opts_usage_error(call->name, "unexpected operand '%s' (destroy takes all RAM disks or none)",
					call->operands[0]);
	return ramdisk_need_root(call->name);
}

static int destroy_main(struct command_call *call)
{
	const struct destroy_args *a = call->settings;
	struct ramdisk_entry *live = NULL;
	size_t n = 0;
	int reaped = ramdisk_scan_live(true, &live, &n);
	struct ramdisk_listed *l = ramdisk_examine(live, n);
	struct destroy_outcome o = { .before = ramdisk_mem_available() };
	int status = destroy_all(a, l, n, reaped, &o);
	if (run_ctx_interrupted_status())
		status = run_ctx_interrupted_status();
	destroy_json(call->doc, a, &o, l, n);
	free(l);
	free(live);
	return status;
}

static const struct command_doc destroy_doc = {
	"ramdisk destroy", "ramdisk destroy [--force] [-y]",
	"Destroys all of iotriage's RAM disks and frees their memory; all or none. Refuses\n"
	"while any is mounted, in a pool, held or open, and names which and by what.",
	destroy_opts,
};

const struct command_frame ramdisk_destroy_frame = {
	.doc = &destroy_doc,
	.settings_size = sizeof(struct destroy_args),
	.flags = CMD_RECORDS_RUN,
	.run_name = "ramdisk-destroy",
	.min_operands = 0, .max_operands = -1,
	.check = destroy_check,
	.main = destroy_main,
};
