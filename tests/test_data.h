/* test_data.h: the one loader of captured files for unit tests.
 *
 *   size_t n;
 *   const char *text = test_data("zpool_status_fuse_mirror_raidz.txt", &n);
 *
 * Reads TEST_DATA_DIR/NAME whole into a NUL-terminated buffer (N, when not
 * NULL, gets its length without the NUL). The buffers stay valid until the
 * program ends (freed at exit, so the sanitized build sees no leak); a file
 * that cannot be read gives NULL and a "# cannot read" line, and the checks
 * on it then fail.
 */
#ifndef IOTRIAGE_TESTS_TEST_DATA_H
#define IOTRIAGE_TESTS_TEST_DATA_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef TEST_DATA_DIR
#error "TEST_DATA_DIR is set by meson.build for unit tests"
#endif

static char *test_data_bufs[64];
static size_t test_data_count;

static void test_data_free_all(void)
{
	for (size_t i = 0; i < test_data_count; i++)
		free(test_data_bufs[i]);
	test_data_count = 0;
}

static inline const char *test_data(const char *name, size_t *len)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", TEST_DATA_DIR, name);
	FILE *f = fopen(path, "re");
	if (!f || test_data_count == sizeof(test_data_bufs) / sizeof(test_data_bufs[0])) {
		printf("# cannot read %s\n", path);
		if (f)
			fclose(f);
		return NULL;
	}
	size_t n = 0, cap = 4096;
	char *buf = malloc(cap);
	size_t got;
	while (buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
		n += got;
		if (cap - n - 1 == 0) {
			char *grown = realloc(buf, cap * 2);
			if (!grown)
				free(buf);
			buf = grown;
			cap *= 2;
		}
	}
	fclose(f);
	if (!buf)
		return NULL;
	buf[n] = '\0';
	if (test_data_count == 0)
		atexit(test_data_free_all);
	test_data_bufs[test_data_count++] = buf;
	if (len)
		*len = n;
	return buf;
}

#endif
