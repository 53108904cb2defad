/* triage/ramdisk/ramdisk_batch.h: what the ramdisk sub-commands (create, list,
 * destroy, sweep) share: the size argument, the backend choice, the scan of
 * live RAM disks, the memory budget, making and removing a batch with its
 * records, links and by-id identity, and the checks before create and
 * destroy. Every step is logged; nothing is printed: the commands print. */
#ifndef IOTRIAGE_TRIAGE_RAMDISK_BATCH_H
#define IOTRIAGE_TRIAGE_RAMDISK_BATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

/* A RAM disk with what uses it now (ramdisk/usage.h). */
struct ramdisk_listed {
	struct ramdisk_dev dev;
	struct ramdisk_usage usage;
};

/* E[0..N) with their usage checked ("unknown" where it cannot be). The
 * array (at least one element) is malloc'd; aborts on OOM. */
struct ramdisk_listed *ramdisk_examine(const struct ramdisk_entry *e, size_t n);

/* Before a create: refuses while RAM disks exist (the batch's size, sector
 * size and latency are set together), picks the backend (BACKEND or the
 * first that can: *RET_B once chosen), sets spec->sector_size (its
 * default when 0, and then *RET_SECTOR_DEFAULTED) and checks the memory
 * budget. Returns 0, or -EEXIST, -ENODEV or -ENOMEM with a short REASON for
 * the document (the log says more). */
int ramdisk_create_prepare(const char *backend, struct ramdisk_spec *spec, const struct ramdisk_backend **ret_b,
			   bool *ret_sector_defaulted, char *reason, size_t len);

/* Before a destroy of L[0..N): logs every use of a device in use (a
 * warning with FORCE, else an error) and returns how many are in use. */
size_t ramdisk_destroy_log_busy(const struct ramdisk_listed *l, size_t n, bool force);

/* Before a destroy: while the RAM disks are exported (ramdisk/nvmet.c),
 * without FORCE, logs the refusal naming the export and returns the
 * reason; with FORCE removes the export first (NULL, or the reason when
 * that fails). NULL when nothing is exported. */
const char *ramdisk_export_destroy_guard(bool force);

/* Whether a destroy of L[0..N), BUSY of them in use, is refused: without
 * FORCE, or when the backend cannot remove an open device. Returns NULL or
 * the reason for the document, after logging the refusal. */
const char *ramdisk_destroy_refusal(const struct ramdisk_listed *l, size_t n, size_t busy, bool force);

/* Destroys L[0..N) (one batch): on failure logs what still holds each
 * device and returns -errno with *RET_REASON; on success logs what --force
 * left dangling, waits a moment for the freed memory to show and logs
 * MemAvailable BEFORE and after (in *RET_AFTER). */
int ramdisk_destroy_listed(const struct ramdisk_listed *l, size_t n, bool force, uint64_t before,
			   uint64_t *ret_after, const char **ret_reason);

#endif
