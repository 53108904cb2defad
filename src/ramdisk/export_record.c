#include "ramdisk/export_record.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "basic/fsutil.h"
#include "basic/parse.h"
#include "ramdisk/ramdisk.h"

void export_record_format(const struct export_record *r, char *buf, size_t len)
{
	size_t k = keyrecord_format(r->fields, r->nfields, r->obj, buf, len);
	for (size_t i = 0; i < *r->ndevices && k + 1 < len; i++) {
		int w = snprintf(buf + k, len - k, "device=%s\n", r->devices[i]);
		if (w < 0)
			break;
		k += (size_t)w < len - k ? (size_t)w : len - k - 1;
	}
}

static void record_set(const char *key, const char *value, void *arg)
{
	const struct export_record *r = arg;
	if (keyrecord_set(r->fields, r->nfields, r->obj, key, value))
		return;
	if (strcmp(key, "device") == 0 && *r->ndevices < RAMDISK_MAX_COUNT)
		snprintf(r->devices[(*r->ndevices)++], EXPORT_RECORD_DEVICE_LEN, "%s", value);
}

int export_record_parse(const char *text, const struct export_record *r)
{
	return parse_key_values(text, record_set, (void *)r) < 0 ? -EINVAL : 0;
}

int export_record_read(const char *state, const char *file, char *text, size_t len)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/%s", state, file);
	int r = read_small_file(path, text, len);
	return r < 0 ? r : 0;
}

int export_record_write(const char *state, const char *file, const struct export_record *r)
{
	char path[PATH_MAX], text[8192];
	snprintf(path, sizeof(path), "%s/%s", state, file);
	export_record_format(r, text, sizeof(text));
	int e = mkdir_p(state, 0755);
	return e < 0 ? e : write_file_atomic(path, text, strlen(text), 0644);
}

int export_record_remove(const char *state, const char *file, char *why, size_t len)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/%s", state, file);
	if (unlink(path) < 0 && errno != ENOENT) {
		snprintf(why, len, "cannot remove the export record '%s': %s", path, strerror(errno));
		return -errno;
	}
	return 0;
}
