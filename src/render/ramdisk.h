/* render/ramdisk.h: RAM disks (step 3 of the method) as the ramdisk
 * sub-commands show them: the listing's table and JSON, the export's line
 * and JSON member, create's plan and document, sweep's table and document. */
#ifndef IOTRIAGE_RENDER_RAMDISK_H
#define IOTRIAGE_RENDER_RAMDISK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "output/json.h"
#include "triage/ramdisk/ramdisk_batch.h"
#include "triage/ramdisk/ramdisk_sweep.h"

/* L[0..N) as the listing table on OUT, and as the JSON array KEY. */
void ramdisk_print_table(const struct ramdisk_listed *l, size_t n, FILE *out);
void ramdisk_json_devices(struct json *j, const char *key, const struct ramdisk_listed *l, size_t n);

/* An export (any transport, in its own words: ramdisk/export.h) as the
 * JSON "export" member, and as the listing's line on OUT. */
struct ramdisk_export;
void ramdisk_export_json(struct json *j, const struct ramdisk_export *e);
void ramdisk_export_print(FILE *out, const struct ramdisk_export *e);

/* create: the plan and its warning on stderr before asking; the "ramdisk"
 * object of its document (the devices L when CREATED, else REASON). */
void ramdisk_plan_print(const struct ramdisk_spec *spec, const struct ramdisk_backend *b, bool sector_defaulted);
void ramdisk_create_json(struct json *j, const struct ramdisk_spec *spec, const struct ramdisk_backend *b,
			 bool created, const char *reason, const struct ramdisk_listed *l);

/* sweep: a row per --ndelay value (latency added over the first) on
 * stdout; the "ramdisk" object of its document. */
void ramdisk_sweep_print(const struct sweep *s);
void ramdisk_sweep_json(struct json *j, const struct sweep *s);

#endif
