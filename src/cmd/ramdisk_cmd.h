/* cmd/ramdisk_cmd.h: what the ramdisk sub-commands share (cmd_ramdisk.c,
 * cmd_ramdisk_sweep.c): making and removing a batch with its records,
 * links and by-id identity, with every step logged. */
#ifndef IOTRIAGE_CMD_RAMDISK_CMD_H
#define IOTRIAGE_CMD_RAMDISK_CMD_H

#include <stdbool.h>
#include <stddef.h>

#include "cmd/options.h"
#include "ramdisk/ramdisk.h"

/* Parses "256M" / "1G" (also "1GiB", "512MB"): a unit is required. Returns
 * 0, or -EINVAL with a message for the user in WHY. */
int ramdisk_parse_size_arg(const char *s, uint64_t *ret, char *why, size_t len);

/* Picks the backend for SPEC: NAME when given, else the first that fits and
 * is available. Returns NULL with WHY explaining every refusal. */
const struct ramdisk_backend *ramdisk_choose_backend(const char *name, const struct ramdisk_spec *spec,
						     char *why, size_t len);

/* With CLEAN_STALE removes stale records and links, and when no live entry
 * is left, what earlier runs left without records (logging each); returns
 * the live entries (malloc'd) in *RET, and how many leftovers it removed. */
int ramdisk_scan_live(bool clean_stale, struct ramdisk_entry **ret, size_t *ret_n);

/* Checks the memory budget for TOTAL bytes; logs the numbers and the ARC
 * note. Returns 0, or -ENOMEM after logging the refusal. */
int ramdisk_check_budget(uint64_t total);

/* Creates SPEC with backend B into DEVS (spec->count of them): the devices,
 * the independence check, by-id links, records and friendly links. On
 * failure or a signal everything made is removed. Logs each step. */
int ramdisk_batch_create(const struct ramdisk_backend *b, const struct ramdisk_spec *spec,
			 struct ramdisk_dev *devs);

/* Removes DEVS (one batch: same backend) and their records/links. Logs. */
int ramdisk_batch_destroy(struct ramdisk_dev *devs, size_t n, bool force);

int cmd_ramdisk_sweep(int argc, char **argv, struct global_opts *g);

#endif
