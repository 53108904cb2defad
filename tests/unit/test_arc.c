/* The ARC's maximum size: OpenZFS's kstat table, zfs-fuse's FUSE tree, the
 * order between them, and this machine's real zfs-fuse daemon when it runs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "basic/fsutil.h"
#include "pool/arc.h"
#include "tap.h"

static char root[] = "/tmp/iotriage-test-arc.XXXXXX";

static void put(const char *rel, const char *text)
{
	char path[512], dir[512];
	snprintf(path, sizeof(path), "%s%s", root, rel);
	snprintf(dir, sizeof(dir), "%s", path);
	for (char *p = dir + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(dir, 0755);
		*p = '/';
	}
	FILE *f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
		perror(path);
		exit(1);
	}
}

static void clear(void)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/proc/spl/kstat/zfs/arcstats", root);
	unlink(path);
	snprintf(path, sizeof(path), "%s/zfs-kstat/zfs/arcstats/c_max", root);
	unlink(path);
}

static const char *openzfs_table = "13 1 0x01 123 33456 5876138 3312486541\n"
				   "name                            type data\n"
				   "c                               4    1073741824\n"
				   "c_min                           4    786432000\n"
				   "c_max                           4    5692997632\n"
				   "size                            4    10485760\n";

int main(void)
{
	ok(arc_parse_kstat_c_max(openzfs_table) == 5692997632ULL, "c_max from an OpenZFS arcstats table");
	ok(arc_parse_kstat_c_max("c_min 4 1\n") == 0, "no c_max row is 0");
	ok(arc_parse_kstat_c_max("c_maxx 4 7\n") == 0, "a row that only starts with c_max is not it");

	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 1;
	}
	struct arc_size a;
	arc_read_at(root, &a);
	ok(a.max_bytes == 0 && a.source == NULL, "no ZFS at all: no ARC");

	put("/zfs-kstat/zfs/arcstats/c_max", "104857600\n");
	arc_read_at(root, &a);
	ok(a.max_bytes == 104857600ULL && a.source && strcmp(a.source, "zfs-fuse") == 0,
	   "zfs-fuse's one-number file: 100 MiB, from zfs-fuse");

	put("/proc/spl/kstat/zfs/arcstats", openzfs_table);
	arc_read_at(root, &a);
	ok(a.max_bytes == 5692997632ULL && a.source && strcmp(a.source, "OpenZFS") == 0,
	   "with both, the kernel module's ARC is the one reported");

	clear();
	put("/zfs-kstat/zfs/arcstats/c_max", "not a number\n");
	arc_read_at(root, &a);
	ok(a.max_bytes == 0 && a.source == NULL, "an unreadable number is no ARC, not zero bytes of ARC");
	clear();
	char path[512];
	const char *dirs[] = { "/zfs-kstat/zfs/arcstats", "/zfs-kstat/zfs", "/zfs-kstat", "/proc/spl/kstat/zfs",
			       "/proc/spl/kstat", "/proc/spl", "/proc", "" };
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s%s", root, dirs[i]);
		rmdir(path);
	}
	struct stat st;
	ok(stat(root, &st) != 0, "the test tree is removed");

	/* The real daemon, when this machine runs one (CI starts it). */
	char want[64];
	if (read_small_file("/zfs-kstat/zfs/arcstats/c_max", want, sizeof(want)) > 0) {
		arc_read(&a);
		ok(a.max_bytes == strtoull(want, NULL, 10) && a.max_bytes > 0 && strcmp(a.source, "zfs-fuse") == 0,
		   "this machine's zfs-fuse daemon: its ARC maximum is read");
	} else {
		printf("ok %d - this machine's zfs-fuse ARC # SKIP no zfs-fuse daemon with /zfs-kstat is running\n",
		       ++tap_count);
	}
	return tap_done();
}
