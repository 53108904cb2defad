/* ramdisk/export_record.h: the state record of an export (nvmet.c,
 * lio.c): the export's fields (a keyrecord table), then a "device=PATH"
 * line per exported RAM disk, in one small file of the state directory. */
#ifndef IOTRIAGE_RAMDISK_EXPORT_RECORD_H
#define IOTRIAGE_RAMDISK_EXPORT_RECORD_H

#include <stddef.h>

#include "basic/keyrecord.h"

#define EXPORT_RECORD_DEVICE_LEN 64

struct export_record {
	const struct keyrecord_field *fields;
	size_t nfields;
	void *obj;                                   /* the export's struct */
	size_t *ndevices;                            /* its device count ... */
	char (*devices)[EXPORT_RECORD_DEVICE_LEN];   /* ... and list (RAMDISK_MAX_COUNT) */
};

void export_record_format(const struct export_record *r, char *buf, size_t len);
/* Fills R's struct and devices from TEXT (the caller zeroes them first).
 * 0, or -EINVAL when a line is too long. */
int export_record_parse(const char *text, const struct export_record *r);
/* STATE/FILE into TEXT. 0 or -errno (-ENOENT: no export recorded). */
int export_record_read(const char *state, const char *file, char *text, size_t len);
/* R written to STATE/FILE atomically (STATE made if needed). 0 or -errno. */
int export_record_write(const char *state, const char *file, const struct export_record *r);
/* STATE/FILE removed (0 when it was not there), or -errno with WHY. */
int export_record_remove(const char *state, const char *file, char *why, size_t len);

#endif
