/* What the ramdisk sub-commands print and parse alike (cmd/ramdisk_cmd.h):
 * the listing's table and JSON, the confirmation question, the root check,
 * the --backend choices and the --sector-size rule. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <unistd.h>

#include "basic/parse.h"
#include "cmd/ramdisk_cmd.h"
#include "output/table.h"

#define MB (1024.0 * 1024.0)

void ramdisk_print_table(const struct ramdisk_listed *l, size_t n, FILE *out)
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

void ramdisk_json_devices(struct json *j, const char *key, const struct ramdisk_listed *l, size_t n)
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

const char *const ramdisk_backend_choices[] = { "scsi_debug", "null_blk", "brd", "zram", NULL };

int ramdisk_parse_sector_size(const char *command, const char *arg, unsigned *ret)
{
	uint64_t v;
	if (parse_uint(arg, 512, 4096, &v) < 0 || (v != 512 && v != 4096))
		return opts_usage_error(command, "invalid --sector-size '%s': expected 512 or 4096", arg);
	*ret = (unsigned)v;
	return 0;
}
