/* ramdisk: create, list and destroy RAM-backed block devices (step 3 of the
 * method), and sweep their latency (cmd_ramdisk_sweep.c). The first operand
 * names the sub-command; each has its own option table. */
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
#include "output/table.h"

#define MB (1024.0 * 1024.0)

enum { OPT_COUNT = OPT_COMMAND_BASE, OPT_SECTOR_SIZE, OPT_NDELAY, OPT_YES, OPT_BACKEND, OPT_FORCE };

static const struct opt_def create_opts[] = {
	{ "count", 'n', "N", "devices to create, 1 to 32, each with its own store (default 1)", OPT_COUNT, { 0 } },
	{ "sector-size", 0, "BYTES", "logical sector size, 512 or 4096 (default 512; zram: 4096)", OPT_SECTOR_SIZE, { 0 } },
	{ "ndelay", 0, "NS", "synthetic per-command latency in nanoseconds (default 0)", OPT_NDELAY, { 0 } },
	{ "backend", 'b', "NAME", "scsi_debug, null_blk, brd or zram (default: the first this kernel offers)",
	  OPT_BACKEND, { 0 } },
	{ "yes", 'y', NULL, "do not ask for confirmation (the memory budget still applies)", OPT_YES, { 0 } },
	OPT_END,
};

static const struct opt_def destroy_opts[] = {
	{ "force", 'f', NULL, "destroy devices that are in use, leaving their users dangling", OPT_FORCE, { 0 } },
	{ "yes", 'y', NULL, "do not ask before --force", OPT_YES, { 0 } },
	OPT_END,
};

static const struct opt_def list_opts[] = {
	OPT_END,
};

struct create_args {
	struct ramdisk_spec spec;
	const char *backend;
	bool yes;
};

/* --- the table and the JSON of a listing --- */

struct listed {
	struct ramdisk_dev dev;
	struct ramdisk_usage usage;
};

static void print_table(const struct listed *l, size_t n, FILE *out)
{
	static const char *const headers[] = { "DEVICE", "FRIENDLY", "BACKEND", "SIZE(MB)", "SECTOR", "NDELAY(ns)",
					       "STATUS", "BY-ID" };
	struct table t;
	table_init(&t, 8, headers, "lllrrrll");
	for (size_t i = 0; i < n; i++) {
		char size[32], sector[16], ndelay[32];
		snprintf(size, sizeof(size), "%.0f", (double)l[i].dev.size / MB);
		snprintf(sector, sizeof(sector), "%u", l[i].dev.sector_size);
		snprintf(ndelay, sizeof(ndelay), "%" PRIu64, l[i].dev.ndelay_ns);
		char status[200];
		snprintf(status, sizeof(status), "%s%s", l[i].usage.status,
			 l[i].usage.unknown ? " (openers: needs root)" : "");
		const char *cells[] = { l[i].dev.path, l[i].dev.link, l[i].dev.backend, size, sector, ndelay, status,
					l[i].dev.by_id[0] ? l[i].dev.by_id : "-" };
		table_add_row(&t, cells);
	}
	table_print(&t, out);
	table_release(&t);
}

static void json_devices(struct json *j, const char *key, const struct listed *l, size_t n)
{
	json_begin_array(j, key);
	for (size_t i = 0; i < n; i++) {
		json_begin_object(j, NULL);
		json_uint(j, "index", l[i].dev.index);
		json_string(j, "device", l[i].dev.path);
		json_string(j, "friendly", l[i].dev.link);
		json_string(j, "backend", l[i].dev.backend);
		json_uint(j, "size_bytes", l[i].dev.size);
		json_uint(j, "sector_size_bytes", l[i].dev.sector_size);
		json_uint(j, "ndelay_ns", l[i].dev.ndelay_ns);
		json_string(j, "status", l[i].usage.status);
		json_bool(j, "in_use", ramdisk_usage_busy(&l[i].usage));
		json_begin_array(j, "uses");
		for (size_t k = 0; k < l[i].usage.count; k++)
			json_string(j, NULL, l[i].usage.uses[k]);
		json_end_array(j);
		json_string(j, "by_id", l[i].dev.by_id[0] ? l[i].dev.by_id : NULL);
		json_end_object(j);
	}
	json_end_array(j);
}

static struct listed *examine(const struct ramdisk_entry *e, size_t n)
{
	struct listed *l = xcalloc(n ? n : 1, sizeof(*l));
	for (size_t i = 0; i < n; i++) {
		l[i].dev = e[i].dev;
		if (ramdisk_usage_check(&l[i].dev, &l[i].usage) < 0)
			snprintf(l[i].usage.status, sizeof(l[i].usage.status), "unknown");
	}
	return l;
}

/* Asks on the terminal. Returns 1 for yes, 0 for no, -ENOTTY without one. */
static int confirm(const char *question)
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

/* --- create --- */

static int parse_create_option(int id, const char *arg, void *state)
{
	struct create_args *a = state;
	uint64_t v;
	switch (id) {
	case OPT_COUNT:
		if (parse_uint(arg, 1, RAMDISK_MAX_COUNT, &v) < 0)
			return opts_usage_error("ramdisk create", "invalid --count '%s': expected 1 to %d", arg,
						RAMDISK_MAX_COUNT);
		a->spec.count = (unsigned)v;
		return 0;
	case OPT_SECTOR_SIZE:
		if (parse_uint(arg, 512, 4096, &v) < 0 || (v != 512 && v != 4096))
			return opts_usage_error("ramdisk create", "invalid --sector-size '%s': expected 512 or 4096", arg);
		a->spec.sector_size = (unsigned)v;
		return 0;
	case OPT_NDELAY:
		if (parse_uint(arg, 0, RAMDISK_MAX_NDELAY_NS, &v) < 0)
			return opts_usage_error("ramdisk create",
						"invalid --ndelay '%s': expected nanoseconds, 0 to 999999999", arg);
		a->spec.ndelay_ns = v;
		return 0;
	case OPT_BACKEND:
		if (!ramdisk_backend_find(arg))
			return opts_usage_error("ramdisk create",
						"unknown --backend '%s': expected scsi_debug, null_blk, brd or zram", arg);
		a->backend = arg;
		return 0;
	case OPT_YES:
		a->yes = true;
		return 0;
	}
	return 2;
}

static int need_root(const char *what)
{
	if (geteuid() == 0)
		return 0;
	fprintf(stderr, "iotriage ramdisk %s: needs root (to load modules and make block devices)\n", what);
	return 1;
}

static void show_plan(const struct ramdisk_spec *spec, const struct ramdisk_backend *b, bool sector_defaulted)
{
	FILE *o = stderr;
	fprintf(o, "\n  About to create %u RAM disk(s) of %.0fMB each (%.0fMB total) with %s.\n", spec->count,
		(double)spec->size / MB, (double)spec->size * spec->count / MB, b->name);
	fprintf(o, "  Sector size: %u%s   Synthetic latency: %" PRIu64 "ns\n\n", spec->sector_size,
		sector_defaulted && spec->sector_size == 4096 ? " (the only size zram offers)" : "", spec->ndelay_ns);
	fputs("  These devices are VOLATILE.  All data on them is lost on 'iotriage ramdisk destroy'\n"
	      "  and on reboot.  They are for performance measurement only -- do not place\n"
	      "  customer data on them and do not build production pools on them.\n\n",
	      o);
}

static int ramdisk_create(int argc, char **argv, struct global_opts *g)
{
	static const struct command_doc doc = {
		"ramdisk create", "ramdisk create [options] SIZE",
		"Creates RAM-backed block devices of SIZE each (M or G), /dev/iotriage-ramdisk0...\n"
		"Refuses more than two thirds of available memory, and while RAM disks exist.",
		create_opts,
	};
	struct create_args a = { .spec = { .count = 1 } };
	int first = opts_parse_command(&doc, argc, argv, g, parse_create_option, &a);
	if (first < 0)
		return opts_command_status(first);
	if (argc - first != 1)
		return opts_usage_error("ramdisk create", "expected one SIZE (each device's size, e.g. 256M or 2G)");
	char why[1024];
	if (ramdisk_parse_size_arg(argv[first], &a.spec.size, why, sizeof(why)) < 0)
		return opts_usage_error("ramdisk create", "%s", why);
	if (need_root("create"))
		return 1;

	struct run_ctx rc;
	if (run_ctx_begin(&rc, "ramdisk-create", argc, argv, g))
		return 1;
	a.spec.run_id = rc.id;
	int status = 1;
	struct ramdisk_entry *live = NULL;
	size_t nlive = 0;
	struct ramdisk_dev devs[RAMDISK_MAX_COUNT];
	struct listed *l = NULL;
	const struct ramdisk_backend *b = NULL;
	bool created = false;
	char reason[300] = "";

	ramdisk_scan_live(true, &live, &nlive);
	if (nlive) {
		struct strbuf sb = STRBUF_INIT;
		for (size_t i = 0; i < nlive; i++)
			strbuf_addf(&sb, "%s%s (%s)", i ? ", " : "", live[i].dev.link, live[i].dev.path);
		log_msg(LOG_ERR, "RAMDISK: refusing: %zu RAM disk(s) already exist: %s; size, sector size and latency "
			"are set for the whole batch, so run 'iotriage ramdisk destroy' first", nlive, sb.buf);
		strbuf_release(&sb);
		snprintf(reason, sizeof(reason), "RAM disks already exist");
		goto out;
	}
	b = ramdisk_choose_backend(a.backend, &a.spec, why, sizeof(why));
	if (!b) {
		log_msg(LOG_ERR, "RAMDISK: %s: %s", a.backend ? "cannot use that backend" : "no backend here can do this",
			why);
		snprintf(reason, sizeof(reason), "no backend");
		goto out;
	}
	log_msg(LOG_INFO, "RAMDISK: backend %s (%s)", b->name, why);
	bool defaulted = a.spec.sector_size == 0;
	a.spec.sector_size = ramdisk_backend_sector_size(b, &a.spec);
	if (ramdisk_check_budget(a.spec.size * a.spec.count) < 0) {
		snprintf(reason, sizeof(reason), "over the memory budget");
		goto out;
	}
	show_plan(&a.spec, b, defaulted);
	if (!a.yes) {
		int c = confirm("Continue?");
		if (c == -ENOTTY) {
			log_msg(LOG_ERR, "RAMDISK: refusing: standard input is not a terminal to confirm on; pass -y to "
				"create without asking");
			snprintf(reason, sizeof(reason), "not confirmed (no terminal, no -y)");
			goto out;
		}
		if (c != 1) {
			log_msg(LOG_INFO, "RAMDISK: not confirmed; nothing created");
			snprintf(reason, sizeof(reason), "not confirmed");
			goto out;
		}
	}
	if (ramdisk_batch_create(b, &a.spec, devs) < 0) {
		snprintf(reason, sizeof(reason), "creation failed");
		goto out;
	}
	created = true;
	status = 0;
	log_msg(LOG_INFO, "RAMDISK: created %u RAM disk(s)", a.spec.count);
	struct ramdisk_entry *e = xcalloc(a.spec.count, sizeof(*e));
	for (unsigned i = 0; i < a.spec.count; i++)
		e[i].dev = devs[i];
	l = examine(e, a.spec.count);
	free(e);
	if (!rc.json) {
		fputc('\n', stdout);
		print_table(l, a.spec.count, stdout);
	}
out:
	if (run_ctx_interrupted_status())
		status = run_ctx_interrupted_status();
	struct json j;
	json_init(&j);
	run_ctx_json_head(&rc, &j);
	json_begin_object(&j, "ramdisk");
	json_string(&j, "action", "create");
	json_string(&j, "backend", b ? b->name : NULL);
	json_uint(&j, "count", a.spec.count);
	json_uint(&j, "size_bytes", a.spec.size);
	json_uint(&j, "sector_size_bytes", a.spec.sector_size);
	json_uint(&j, "ndelay_ns", a.spec.ndelay_ns);
	json_bool(&j, "created", created);
	json_string(&j, "reason", reason[0] ? reason : NULL);
	json_devices(&j, "devices", l, created ? a.spec.count : 0);
	json_end_object(&j);
	status = run_ctx_finish(&rc, &j, status, NULL, NULL);
	json_release(&j);
	free(l);
	free(live);
	return status;
}

/* --- list --- */

static int ramdisk_list(int argc, char **argv, struct global_opts *g)
{
	static const struct command_doc doc = {
		"ramdisk list", "ramdisk list",
		"Lists iotriage's RAM disks: device, friendly name, size, status (free, mounted,\n"
		"in a pool, open, and by what) and by-id path. Runs as any user.",
		list_opts,
	};
	int first = opts_parse_command(&doc, argc, argv, g, NULL, NULL);
	if (first < 0)
		return opts_command_status(first);
	if (first < argc)
		return opts_usage_error("ramdisk list", "unexpected operand '%s'", argv[first]);
	struct run_ctx rc;
	if (run_ctx_begin(&rc, "ramdisk-list", argc, argv, g))
		return 1;
	struct ramdisk_entry *live = NULL;
	size_t n = 0;
	ramdisk_scan_live(false, &live, &n);
	struct listed *l = examine(live, n);
	if (!rc.json) {
		if (n)
			print_table(l, n, stdout);
		else
			printf("No RAM disks exist.  Create one with 'iotriage ramdisk create SIZE' (e.g. 1G).\n");
	}
	struct json j;
	json_init(&j);
	run_ctx_json_head(&rc, &j);
	json_begin_object(&j, "ramdisk");
	json_string(&j, "action", "list");
	json_devices(&j, "devices", l, n);
	json_end_object(&j);
	int status = run_ctx_finish(&rc, &j, 0, NULL, NULL);
	json_release(&j);
	free(l);
	free(live);
	return status;
}

/* --- destroy --- */

struct destroy_args {
	bool force, yes;
};

static int parse_destroy_option(int id, const char *arg, void *state)
{
	(void)arg;
	struct destroy_args *a = state;
	if (id == OPT_FORCE)
		a->force = true;
	else if (id == OPT_YES)
		a->yes = true;
	else
		return 2;
	return 0;
}

static int ramdisk_destroy(int argc, char **argv, struct global_opts *g)
{
	static const struct command_doc doc = {
		"ramdisk destroy", "ramdisk destroy [--force] [-y]",
		"Destroys all of iotriage's RAM disks and frees their memory; all or none. Refuses\n"
		"while any is mounted, in a pool, held or open, and names which and by what.",
		destroy_opts,
	};
	struct destroy_args a = { 0 };
	int first = opts_parse_command(&doc, argc, argv, g, parse_destroy_option, &a);
	if (first < 0)
		return opts_command_status(first);
	if (first < argc)
		return opts_usage_error("ramdisk destroy", "unexpected operand '%s' (destroy takes all RAM disks or none)",
					argv[first]);
	if (need_root("destroy"))
		return 1;
	struct run_ctx rc;
	if (run_ctx_begin(&rc, "ramdisk-destroy", argc, argv, g))
		return 1;
	struct ramdisk_entry *live = NULL;
	size_t n = 0;
	int reaped = ramdisk_scan_live(true, &live, &n);
	struct listed *l = examine(live, n);
	int status = 1;
	bool destroyed = false;
	uint64_t before = ramdisk_mem_available(), after = 0;
	size_t busy = 0;
	const char *reason = NULL;
	if (n == 0 && reaped > 0) {
		status = 0;
		destroyed = true;
		after = ramdisk_mem_available();
		goto out;
	}
	if (n == 0) {
		log_msg(LOG_ERR, "RAMDISK: no RAM disks exist; nothing to destroy");
		reason = "no RAM disks exist";
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		if (!ramdisk_usage_busy(&l[i].usage))
			continue;
		busy++;
		for (size_t k = 0; k < l[i].usage.count; k++)
			log_msg(a.force ? LOG_WARN : LOG_ERR, "RAMDISK: %s (%s) is in use: %s", l[i].dev.link, l[i].dev.path,
				l[i].usage.uses[k]);
	}
	const struct ramdisk_backend *b = ramdisk_backend_find(l[0].dev.backend);
	if (busy && !a.force) {
		log_msg(LOG_ERR, "RAMDISK: nothing destroyed (destroy takes all or none): stop using %s and run destroy "
			"again, or use --force, which leaves those users referencing a device that no longer exists",
			busy == 1 ? "that device" : "those devices");
		reason = "in use";
		goto out;
	}
	if (busy && b && !b->can_force) {
		log_msg(LOG_ERR, "RAMDISK: nothing destroyed: the kernel does not let %s remove a device that is open, so "
			"--force cannot help; stop using it first", b->name);
		reason = "in use; the backend cannot remove open devices";
		goto out;
	}
	if (busy && !a.yes) {
		int c = confirm("Destroy RAM disks that are in use, leaving their users dangling?");
		if (c != 1) {
			log_msg(LOG_ERR, "RAMDISK: nothing destroyed: --force %s",
				c == -ENOTTY ? "needs -y when standard input is not a terminal" : "was not confirmed");
			reason = "not confirmed";
			goto out;
		}
	}
	struct ramdisk_dev *devs = xcalloc(n, sizeof(*devs));
	for (size_t i = 0; i < n; i++)
		devs[i] = l[i].dev;
	int r = ramdisk_batch_destroy(devs, n, a.force);
	size_t gone = 0;
	for (size_t i = 0; i < n; i++)
		gone += devs[i].removed;
	free(devs);
	if (r < 0) {
		/* Say what still holds them, right now (the spec's tool said "check lsof"). */
		for (size_t i = 0; i < n; i++) {
			struct ramdisk_usage u;
			if (ramdisk_usage_check(&l[i].dev, &u) == 0 && u.count)
				for (size_t k = 0; k < u.count; k++)
					log_msg(LOG_ERR, "RAMDISK: %s: %s", l[i].dev.path, u.uses[k]);
		}
		log_msg(LOG_ERR, "RAMDISK: %zu of %zu device(s) removed; run 'iotriage ramdisk list' to see what is left",
			gone, n);
		reason = "the kernel refused";
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		if (ramdisk_usage_busy(&l[i].usage))
			for (size_t k = 0; k < l[i].usage.count; k++)
				log_msg(LOG_WARN, "RAMDISK: --force left dangling: %s, which referred to %s (now gone)",
					l[i].usage.uses[k], l[i].dev.path);
	destroyed = true;
	status = 0;
	usleep(200 * 1000); /* freed pages reach MemAvailable within a moment */
	after = ramdisk_mem_available();
	log_msg(LOG_INFO, "RAMDISK: RAM disks destroyed and memory released: MemAvailable %.0fMB before, %.0fMB after "
		"(%+.0fMB)", (double)before / MB, (double)after / MB, ((double)after - (double)before) / MB);
out:
	if (run_ctx_interrupted_status())
		status = run_ctx_interrupted_status();
	struct json j;
	json_init(&j);
	run_ctx_json_head(&rc, &j);
	json_begin_object(&j, "ramdisk");
	json_string(&j, "action", "destroy");
	json_bool(&j, "force", a.force);
	json_bool(&j, "destroyed", destroyed);
	json_string(&j, "reason", reason);
	json_uint(&j, "mem_available_before_bytes", before);
	if (destroyed)
		json_uint(&j, "mem_available_after_bytes", after);
	else
		json_null(&j, "mem_available_after_bytes");
	json_devices(&j, "devices", l, n);
	json_end_object(&j);
	status = run_ctx_finish(&rc, &j, status, NULL, NULL);
	json_release(&j);
	free(l);
	free(live);
	return status;
}

/* --- dispatch --- */

static const struct {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv, struct global_opts *g);
} subcommands[] = {
	{ "create", "create RAM disks: SIZE each, --count, --sector-size, --ndelay, --backend, -y", ramdisk_create },
	{ "list", "list iotriage's RAM disks, their status and by-id path (any user)", ramdisk_list },
	{ "destroy", "destroy all of them and free the memory (--force: even in use)", ramdisk_destroy },
	{ "sweep", "4 KiB random reads at QD1 on a RAM disk at each --ndelay value", cmd_ramdisk_sweep },
};

static void print_ramdisk_help(FILE *out)
{
	fputs("usage: iotriage ramdisk create|list|destroy|sweep [options]\n\n"
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
		int status = subcommands[k].run(n, sub_argv, g);
		free(sub_argv);
		return status;
	}
	fprintf(stderr, "iotriage ramdisk: '%s' is not a ramdisk sub-command (create, list, destroy, sweep)\n",
		argv[sub]);
	return 2;
}
