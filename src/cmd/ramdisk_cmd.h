/* cmd/ramdisk_cmd.h: what the ramdisk command's files share (cmd_ramdisk.c:
 * dispatch, create, list; cmd_ramdisk_destroy.c; cmd_ramdisk_sweep.c): the
 * sub-commands dispatched from cmd_ramdisk.c, the confirmation, the root
 * check and the option rules they share. What they print is render/ramdisk.h's
 * and render/ramdisk_wire.h's; below the command, triage/ramdisk/ramdisk_batch.h. */
#ifndef IOTRIAGE_CMD_RAMDISK_CMD_H
#define IOTRIAGE_CMD_RAMDISK_CMD_H

#include <stddef.h>
#include <stdio.h>

#include "cmd/commands.h"
#include "cmd/options.h"
#include "output/json.h"
#include "render/ramdisk.h"
#include "render/ramdisk_wire.h"
#include "triage/ramdisk/ramdisk_batch.h"

/* Asks QUESTION on the terminal. Returns 1 for yes, 0 for no, -ENOTTY without one. */
int ramdisk_confirm(const char *question);

/* 0 as root, else 1 after saying that COMMAND ("ramdisk create") needs root. */
int ramdisk_need_root(const char *command);

/* --sector-size for COMMAND: 512 or 4096 into *RET. 0, or 2 after the usage error. */
int ramdisk_parse_sector_size(const char *command, const char *arg, unsigned *ret);

/* The sub-commands in their own files, dispatched from cmd_ramdisk.c. */
extern const struct command_frame ramdisk_destroy_frame;
extern const struct command_frame ramdisk_sweep_frame;
/* cmd_ramdisk_export.c: export, unexport, wire, client; and the export's
 * line (OUT) and JSON "export" member (J) in the listing (either may be NULL). */
extern const struct command_frame ramdisk_export_frame, ramdisk_unexport_frame, ramdisk_wire_frame,
	ramdisk_client_frame;
void ramdisk_list_export(FILE *out, struct json *j);

#endif
