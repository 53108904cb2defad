/* ramdisk: create, list and destroy RAM-backed block devices (step 3 of the
 * method; destroy in cmd_ramdisk_destroy.c), and sweep their latency
 * (cmd_ramdisk_sweep.c). The first operand names the sub-command; each has
 * its own option table. The confirmation, the root check and the option
 * rules are shared through cmd/ramdisk_cmd.h; what is shown is
 * render/ramdisk.h's. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "basic/log.h"
#include "basic/parse.h"
#include "basic/strbuf.h"
#include "cmd/commands.h"
#include "cmd/ramdisk_cmd.h"
#include "cmd/runctx.h"
#include "triage/ramdisk/ramdisk_batch.h"

enum { OPT_COUNT = OPT_COMMAND_BASE, OPT_SECTOR_SIZE, OPT_NDELAY, OPT_YES, OPT_BACKEND };

struct create_args {
	struct ramdisk_spec spec;
	const char *backend;
	bool yes;
};

static const struct opt_def create_opts[] = {
	{ "count", 'n', "N", "devices to create, 1 to 32, each with its own store", OPT_COUNT,
	  OPT_V_UINT(struct create_args, spec.count, 1, RAMDISK_MAX_COUNT, "1") },
	{ "sector-size", 0, "BYTES", "logical sector size, 512 or 4096 (default 512; zram: 4096)", OPT_SECTOR_SIZE, { 0 } },
	{ "ndelay", 0, "NS", "synthetic per-command latency in nanoseconds", OPT_NDELAY,
	  { .type = OPT_TYPE_UINT, .offset = offsetof(struct create_args, spec.ndelay_ns),
	    .width = sizeof(uint64_t), .max = RAMDISK_MAX_NDELAY_NS, .def = "0",
	    .expect = "nanoseconds, 0 to 999999999" } },
	{ "backend", 'b', "NAME", "scsi_debug, null_blk, brd or zram (default: the first this kernel offers)",
	  OPT_BACKEND, OPT_V_CHOICE(struct create_args, backend, ramdisk_backend_names, NULL) },
	{ "yes", 'y', NULL, "do not ask for confirmation (the memory budget still applies)", OPT_YES,
	  OPT_V_FLAG(struct create_args, yes) },
	OPT_END,
};

static const struct opt_def list_opts[] = {
	OPT_END,
};

/* --- create --- */

static int parse_create_option(int id, const char *arg, void *state)
{
	struct create_args *a = state;
	if (id == OPT_SECTOR_SIZE)
		return ramdisk_parse_sector_size("ramdisk create", arg, &a->spec.sector_size);
	return 2;
}

/* Asks before creating, unless -y. Returns 0 to go on, or -1 with REASON. */
static int confirm_create(bool yes, char *reason, size_t len)
{
	if (yes)
		return 0;
	int c = ramdisk_confirm("Continue?");
	if (c == -ENOTTY) {
		log_msg(LOG_ERR, "RAMDISK: refusing: standard input is not a terminal to confirm on; pass -y to "
			"create without asking");
		snprintf(reason, len, "not confirmed (no terminal, no -y)");
		return -1;
	}
	if (c != 1) {
		log_msg(LOG_INFO, "RAMDISK: not confirmed; nothing created");
		snprintf(reason, len, "not confirmed");
		return -1;
	}
	return 0;
}

/* The checks, the plan, the confirmation and the batch. Returns the listing
 * of the devices made (malloc'd), or NULL with REASON. */
static struct ramdisk_listed *create_batch(struct create_args *a, const struct ramdisk_backend **ret_b,
					   char *reason, size_t len)
{
	bool defaulted = false;
	if (ramdisk_create_prepare(a->backend, &a->spec, ret_b, &defaulted, reason, len) < 0)
		return NULL;
	const struct ramdisk_backend *b = *ret_b;
	ramdisk_plan_print(&a->spec, b, defaulted);
	if (confirm_create(a->yes, reason, len) < 0)
		return NULL;
	struct ramdisk_dev devs[RAMDISK_MAX_COUNT];
	if (ramdisk_batch_create(b, &a->spec, devs) < 0) {
		snprintf(reason, len, "creation failed");
		return NULL;
	}
	log_msg(LOG_INFO, "RAMDISK: created %u RAM disk(s)", a->spec.count);
	struct ramdisk_entry *e = xcalloc(a->spec.count, sizeof(*e));
	for (unsigned i = 0; i < a->spec.count; i++)
		e[i].dev = devs[i];
	struct ramdisk_listed *l = ramdisk_examine(e, a->spec.count);
	free(e);
	return l;
}

/* "expected one SIZE" also for two or more, as before the frame; then SIZE
 * itself and root, before a run is recorded. */
static int create_check(struct command_call *call)
{
	struct create_args *a = call->settings;
	if (call->noperands != 1)
		return opts_usage_error(call->name, "%s", call->frame->operands_expected);
	char why[1024];
	if (ramdisk_parse_size_arg(call->operands[0], &a->spec.size, why, sizeof(why)) < 0)
		return opts_usage_error(call->name, "%s", why);
	return ramdisk_need_root(call->name);
}

static int create_main(struct command_call *call)
{
	struct create_args *a = call->settings;
	a->spec.run_id = call->rc->id;
	const struct ramdisk_backend *b = NULL;
	char reason[300] = "";
	struct ramdisk_listed *l = create_batch(a, &b, reason, sizeof(reason));
	int status = l ? 0 : 1;
	if (l && !call->rc->json) {
		fputc('\n', stdout);
		ramdisk_print_table(l, a->spec.count, stdout);
	}
	if (run_ctx_interrupted_status())
		status = run_ctx_interrupted_status();
	ramdisk_create_json(call->doc, &a->spec, b, l != NULL, reason, l);
	free(l);
	return status;
}

static const struct command_doc create_doc = {
	"ramdisk create", "ramdisk create [options] SIZE",
	"Creates RAM-backed block devices of SIZE each (M or G), /dev/iotriage-ramdisk0...\n"
	"Refuses more than two thirds of available memory, and while RAM disks exist.",
	create_opts,
};

static const struct command_frame create_frame = {
	.doc = &create_doc,
	.settings_size = sizeof(struct create_args),
	.handle = parse_create_option,
	.flags = CMD_RECORDS_RUN,
	.run_name = "ramdisk-create",
	.min_operands = 1, .max_operands = -1,
	.operands_expected = "expected one SIZE (each device's size, e.g. 256M or 2G)",
	.check = create_check,
	.main = create_main,
};

/* --- list --- */

static int list_main(struct command_call *call)
{
	struct ramdisk_entry *live = NULL;
	size_t n = 0;
	ramdisk_scan_live(false, &live, &n);
	struct ramdisk_listed *l = ramdisk_examine(live, n);
	if (!call->rc->json) {
		if (n)
			ramdisk_print_table(l, n, stdout);
		else
			printf("No RAM disks exist.  Create one with 'iotriage ramdisk create SIZE' (e.g. 1G).\n");
		ramdisk_list_export(stdout, NULL);
	}
	struct json *j = call->doc;
	json_begin_object(j, "ramdisk");
	json_string(j, "action", "list");
	ramdisk_json_devices(j, "devices", l, n);
	ramdisk_list_export(NULL, j);
	json_end_object(j);
	free(l);
	free(live);
	return 0;
}

static const struct command_doc list_doc = {
	"ramdisk list", "ramdisk list",
	"Lists iotriage's RAM disks: device, friendly name, size, status (free, mounted,\n"
	"in a pool, open, and by what) and by-id path. Runs as any user.",
	list_opts,
};

static const struct command_frame list_frame = {
	.doc = &list_doc,
	.flags = CMD_RECORDS_RUN,
	.run_name = "ramdisk-list",
	.main = list_main,
};

/* --- dispatch --- */

static const struct {
	const char *name;
	const char *summary;
	const struct command_frame *frame;
} subcommands[] = {
	{ "create", "create RAM disks: SIZE each, --count, --sector-size, --ndelay, --backend, -y", &create_frame },
	{ "list", "list iotriage's RAM disks, their status and by-id path (any user)", &list_frame },
	{ "destroy", "destroy all of them and free the memory (--force: even in use)", &ramdisk_destroy_frame },
	{ "sweep", "4 KiB random reads at QD1 on a RAM disk at each --ndelay value", &ramdisk_sweep_frame },
	{ "export", "export them: --nvme-tcp ADDR[:PORT] (--host-nqn or --allow-any-host), or --iscsi ADDR[:PORT] (--initiator)",
	  &ramdisk_export_frame },
	{ "unexport", "remove the NVMe/TCP or iSCSI export", &ramdisk_unexport_frame },
	{ "wire", "read the exported disk here and from a client (--via 'ssh HOST'): the wire's cost",
	  &ramdisk_wire_frame },
	{ "client", "the client's half of wire: connect, read, disconnect", &ramdisk_client_frame },
};

const struct command_frame *const ramdisk_subframes[] = {
	&create_frame, &list_frame, &ramdisk_destroy_frame, &ramdisk_sweep_frame, &ramdisk_export_frame,
	&ramdisk_unexport_frame, &ramdisk_wire_frame, &ramdisk_client_frame, NULL,
};

static void print_ramdisk_help(FILE *out)
{
	fputs("usage: iotriage ramdisk create|list|destroy|sweep|export|unexport|wire|client [options]\n\n"
	      "RAM-backed block devices (scsi_debug, null_blk, brd or zram, as the kernel offers)\n"
	      "with optional synthetic latency: take the media out of the measurement.\n\n"
	      "sub-commands:\n",
	      out);
	for (size_t i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++)
		fprintf(out, "  %-9s %s\n", subcommands[i].name, subcommands[i].summary);
	fputs("\nRun 'iotriage ramdisk SUB-COMMAND --help' for its options.\n", out);
}

static bool global_takes_value(const char *arg)
{
	return strcmp(arg, "--log-file") == 0 || strcmp(arg, "--results-dir") == 0 || strcmp(arg, "--db") == 0;
}

int cmd_ramdisk(int argc, char **argv, struct global_opts *g)
{
	int sub = -1;
	for (int i = 1; i < argc; i++) {
		if (argv[i][0] != '-') {
			sub = i;
			break;
		}
		if (global_takes_value(argv[i]))
			i++;
	}
	if (sub < 0) {
		bool help = g->help;
		for (int i = 1; i < argc; i++)
			help |= strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0;
		print_ramdisk_help(help ? stdout : stderr);
		return help ? 0 : 2;
	}
	for (size_t k = 0; k < sizeof(subcommands) / sizeof(subcommands[0]); k++) {
		if (strcmp(argv[sub], subcommands[k].name) != 0)
			continue;
		/* argv for the sub-command: "ramdisk SUB", then every other word. */
		char **sub_argv = xcalloc((size_t)argc + 1, sizeof(*sub_argv));
		char name[32];
		snprintf(name, sizeof(name), "ramdisk %s", subcommands[k].name);
		int n = 0;
		sub_argv[n++] = name;
		for (int i = 1; i < argc; i++)
			if (i != sub)
				sub_argv[n++] = argv[i];
		int status = command_frame_execute(name, subcommands[k].frame, n, sub_argv, g);
		free(sub_argv);
		return status;
	}
	cmd_error("ramdisk", "'%s' is not a ramdisk sub-command (create, list, destroy, sweep, export, unexport, wire, client)", argv[sub]);
	return 2;
}

/* ---- shared by the ramdisk sub-commands (ramdisk_cmd.h) ---- */

int ramdisk_confirm(const char *question)
{
	if (!isatty(STDIN_FILENO))
		return -ENOTTY;
	fprintf(stderr, "  %s [y/N] ", question);
	fflush(stderr);
	char buf[16];
	ssize_t k = read(STDIN_FILENO, buf, sizeof(buf) - 1);
	if (k <= 0) {
		fputc('\n', stderr);
		return 0;
	}
	buf[k] = '\0';
	return buf[0] == 'y' || buf[0] == 'Y';
}

int ramdisk_need_root(const char *command)
{
	if (geteuid() == 0)
		return 0;
	return cmd_error(command, "needs root (to load modules and make block devices)");
}

int ramdisk_parse_sector_size(const char *command, const char *arg, unsigned *ret)
{
	uint64_t v;
	if (parse_uint(arg, 512, 4096, &v) < 0 || (v != 512 && v != 4096))
		return opts_usage_error(command, "invalid --sector-size '%s': expected 512 or 4096", arg);
	*ret = (unsigned)v;
	return 0;
}
