/* render/read.h on judged batches: the VERDICT column and the group lines
 * show each kind's word (render never judges: the kinds are set here), the
 * health lines list the flagged disks, a slow tail among them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/strbuf.h"
#include "render/read.h"
#include "tap.h"

static void set_disk(struct disk_read *d, const char *kname, enum verdict_kind kind)
{
	snprintf(d->info.kname, sizeof(d->info.kname), "%s", kname);
	snprintf(d->info.dev_path, sizeof(d->info.dev_path), "/dev/%s", kname);
	snprintf(d->pool, sizeof(d->pool), "tank");
	snprintf(d->vdev, sizeof(d->vdev), "raidz1-0");
	d->status = READTEST_OK;
	d->res = xcalloc(1, sizeof(*d->res));
	d->res->bytes = 200000000;
	d->res->seconds = 1.0;
	d->verdict.kind = kind;
	d->health_checked = true;
	d->health.state = SMART_PASSED;
}

/* What FN printed for B, in a string the caller frees. */
static char *printed(void (*fn)(const struct read_batch *, FILE *), const struct read_batch *b)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	fn(b, f);
	fclose(f);
	return buf;
}

/* The table's row of KNAME (the line starting with its path). */
static const char *row_of(const char *table, const char *kname, char *line, size_t len)
{
	char path[64];
	snprintf(path, sizeof(path), "\n/dev/%s ", kname);
	const char *at = strstr(table, path);
	if (!at)
		return "";
	at++;
	size_t n = strcspn(at, "\n");
	snprintf(line, len, "%.*s", (int)n, at);
	return line;
}

int main(void)
{
	struct read_batch b = { .count = 4, .group_by = READ_GROUP_VDEV };
	b.reads = xcalloc(b.count, sizeof(*b.reads));
	set_disk(&b.reads[0], "sda", VERDICT_OK);
	set_disk(&b.reads[1], "sdb", VERDICT_SLOW_TAIL);
	set_disk(&b.reads[2], "sdc", VERDICT_REGRESSED);
	set_disk(&b.reads[3], "sdd", VERDICT_NOT_JUDGED);

	char *table = printed(read_batch_print_table, &b), line[400];
	ok(strstr(row_of(table, "sdb", line, sizeof(line)), " slow tail ") != NULL, "a slow tail's row says slow tail");
	ok(strstr(row_of(table, "sdc", line, sizeof(line)), " slow ") != NULL, "a regression's row says slow");
	ok(strstr(row_of(table, "sda", line, sizeof(line)), " ok ") != NULL, "an ok disk's says ok");
	const char *unjudged = row_of(table, "sdd", line, sizeof(line));
	ok(unjudged[0] && !strstr(unjudged, " ok ") && !strstr(unjudged, " slow"), "a disk not judged has no verdict");
	free(table);

	struct read_groups g;
	read_groups_build(&b, &g);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	read_groups_print(&b, &g, f);
	fclose(f);
	ok(strstr(buf, "sdb 200 MB/s (slow tail)") && strstr(buf, "sdc 200 MB/s (slow)"),
	   "the group line marks the slow tail and the regression");
	ok(strstr(buf, "sda 200 MB/s  ") || strstr(buf, "sda 200 MB/s\n"), "not the ok disk");
	ok(!strstr(buf, "sdd 200 MB/s ("), "nor the disk not judged");
	is_int(g.groups[0].slow, 1, "the group counts the regression as slow, not the tail");
	read_groups_release(&g);
	free(buf);

	char *health = printed(read_health_print, &b);
	ok(strstr(health, "/dev/sdb: SMART passed") && strstr(health, "/dev/sdc: SMART passed"),
	   "the health lines list the slow tail and the regression");
	ok(!strstr(health, "/dev/sda") && !strstr(health, "/dev/sdd"), "not the ok disk nor the one not judged");
	free(health);
	read_batch_release(&b);
	return tap_done();
}
