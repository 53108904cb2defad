/* cmd/ramdisk_cmd.h: what the ramdisk command's files share (cmd_ramdisk.c:
 * dispatch, create, list; cmd_ramdisk_destroy.c; cmd_ramdisk_sweep.c): the
 * sub-commands dispatched from cmd_ramdisk.c, and the rendering of a
 * listing. What they share below the command is triage/ramdisk_batch.h. */
#ifndef IOTRIAGE_CMD_RAMDISK_CMD_H
#define IOTRIAGE_CMD_RAMDISK_CMD_H

#include <stddef.h>
#include <stdio.h>

#include "cmd/options.h"
#include "output/json.h"
#include "triage/ramdisk_batch.h"

/* L[0..N) as the listing table on OUT, and as the JSON array KEY. */
void ramdisk_print_table(const struct ramdisk_listed *l, size_t n, FILE *out);
void ramdisk_json_devices(struct json *j, const char *key, const struct ramdisk_listed *l, size_t n);

/* Asks QUESTION on the terminal. Returns 1 for yes, 0 for no, -ENOTTY without one. */
int ramdisk_confirm(const char *question);

/* 0 as root, else 1 after saying that WHAT ("create") needs root. */
int ramdisk_need_root(const char *what);

int cmd_ramdisk_destroy(int argc, char **argv, struct global_opts *g);
int cmd_ramdisk_sweep(int argc, char **argv, struct global_opts *g);
/* cmd_ramdisk_export.c: export, unexport, client, wire; and the export's
 * line (OUT) and JSON "export" member (J) in the listing (either may be NULL). */
int cmd_ramdisk_export(int argc, char **argv, struct global_opts *g);
int cmd_ramdisk_unexport(int argc, char **argv, struct global_opts *g);
int cmd_ramdisk_client(int argc, char **argv, struct global_opts *g);
int cmd_ramdisk_wire(int argc, char **argv, struct global_opts *g);
void ramdisk_list_export(FILE *out, struct json *j);

#endif
