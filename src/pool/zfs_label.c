/* pool/zfs_label.c: a ZFS member's ashift from its label (see zfs_label.h). */
#include "pool/zfs_label.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "basic/spawn.h"
#include "basic/strbuf.h"

#define ZDB_TIMEOUT_MS 15000

/* The next line of TEXT (LEN bytes) after *AT, trimmed of its indentation,
 * into LINE. Returns 0, or -1 at the end. */
static int next_line(const char *text, size_t len, size_t *at, char *line, size_t size)
{
	if (*at >= len)
		return -1;
	const char *start = text + *at, *nl = memchr(start, '\n', len - *at);
	size_t n = nl ? (size_t)(nl - start) : len - *at;
	*at += n + 1;
	while (n && (*start == ' ' || *start == '\t'))
		start++, n--;
	if (n >= size)
		n = size - 1;
	memcpy(line, start, n);
	line[n] = '\0';
	return 0;
}

int zfs_label_ashift(const char *text, size_t len)
{
	char line[256];
	size_t at = 0;
	int state = 0; /* 0: before "LABEL", 1: in a label, 2: in its vdev_tree */
	while (next_line(text, len, &at, line, sizeof(line)) == 0) {
		if (!strncmp(line, "LABEL ", 6))
			state = state ? -1 : 1; /* a second label before an ashift: the first had none */
		else if (state == 1 && !strcmp(line, "vdev_tree:"))
			state = 2;
		else if (state == 2 && !strncmp(line, "ashift: ", 8)) {
			char *end;
			long v = strtol(line + 8, &end, 10);
			return *end == '\0' && v >= 9 && v <= 16 ? (int)v : -EINVAL;
		}
		if (state < 0)
			break;
	}
	return -EINVAL;
}

int zfs_member_ashift(const char *device)
{
	const char *argv[] = { "zdb", "-l", device, NULL };
	struct strbuf out = STRBUF_INIT;
	int r = spawn_check(argv, ZDB_TIMEOUT_MS, &out, NULL);
	if (r == 0)
		r = zfs_label_ashift(out.buf ? out.buf : "", out.len);
	strbuf_release(&out);
	return r;
}
