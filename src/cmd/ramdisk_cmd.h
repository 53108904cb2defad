/* cmd/ramdisk_cmd.h: what the ramdisk command's files share (cmd_ramdisk.c:
 * dispatch, create, list; cmd_ramdisk_destroy.c; cmd_ramdisk_sweep.c): the
 * sub-commands dispatched from cmd_ramdisk.c, and the rendering of a
 * listing. What they share below the command is triage/ramdisk_batch.h. */
#ifndef IOTRIAGE_CMD_RAMDISK_CMD_H
#define IOTRIAGE_CMD_RAMDISK_CMD_H

#include <stddef.h>
#include <stdio.h>

#include "cmd/commands.h"
#include "cmd/options.h"
#include "output/json.h"
#include "triage/ramdisk_batch.h"

/* L[0..N) as the listing table on OUT, and as the JSON array KEY. */
void ramdisk_print_table(const struct ramdisk_listed *l, size_t n, FILE *out);
void ramdisk_json_devices(struct json *j, const char *key, const struct ramdisk_listed *l, size_t n);

/* Asks QUESTION on the terminal. Returns 1 for yes, 0 for no, -ENOTTY without one. */
int ramdisk_confirm(const char *question);

/* 0 as root, else 1 after saying that COMMAND ("ramdisk create") needs root. */
int ramdisk_need_root(const char *command);

/* The --backend choices: every backend's name, in ramdisk_backends[] order. */
extern const char *const ramdisk_backend_choices[];

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
/* The iSCSI export's JSON "export" member and listing line (cmd_ramdisk_iscsi.c). */
struct ramdisk_lio_export;
void iscsi_json(struct json *j, const struct ramdisk_lio_export *e);
void iscsi_print(FILE *out, const struct ramdisk_lio_export *e);
/* The wire comparison's rendering (ramdisk_wire_render.c): one side's
 * workloads as the JSON object KEY; local, remote, added and judgement as
 * members of the open object; the table and sentence on stdout. */
struct wire_side;
void ramdisk_wire_side_json(struct json *j, const char *key, const struct wire_side *s);
void ramdisk_wire_json(struct json *j, const struct wire_side *local, const struct wire_side *remote);
void ramdisk_wire_print(const struct wire_side *local, const struct wire_side *remote);
/* --ndelay: "backend_delay_base" (backend, device, ndelay_ns, restored)
 * and "backend_delay[]" (one member a delay measured); on the terminal a
 * line per workload and delay, the sentence, and the restore. */
struct wire_delay_run;
void ramdisk_wire_delay_json(struct json *j, const struct wire_delay_run *run);
void ramdisk_wire_delay_print(const struct wire_delay_run *run);

#endif
