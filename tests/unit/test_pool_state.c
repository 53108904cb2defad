/* pool/pool_state + pool/pool_findings: parsers on output captured from
 * zfs-fuse and btrfs on this machine's loop devices (*_captured.txt) and on
 * OpenZFS output composed from its documentation (*_composed.txt); the
 * findings each produces; truncated and garbled output giving an error. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/fsutil.h"
#include "pool/pool_findings.h"
#include "pool/pool_state.h"
#include "tap.h"

static char *data(const char *name)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", TEST_DATA_DIR, name);
	char *buf = calloc(1, 1 << 16);
	if (read_small_file(path, buf, 1 << 16) < 0)
		buf[0] = '\0';
	return buf;
}

/* TEXT cut to its first LEN bytes. */
static char *cut(const char *text, size_t len)
{
	char *s = strdup(text);
	if (len < strlen(s))
		s[len] = '\0';
	return s;
}

static size_t count(const struct pool_findings *f) { return f->count; }

static void zpool_get(void)
{
	char *empty = data("zpool_get_all_fuse_empty_captured.txt");
	char *full = data("zpool_get_all_fuse_full_captured.txt");
	struct zfs_props p;
	is_int(zfs_props_parse(full, &p), 0, "zfs-fuse zpool get all parsed");
	is_str(zfs_props_get(&p, NULL, "capacity"), "81%", "capacity 81%");
	is_str(zfs_props_get(&p, "iotpoolev-cap", "ashift"), "0", "zfs-fuse ashift 0 (auto)");
	struct pool_findings f = { 0 };
	struct pool_findings_input in = { .pool = "iotpoolev-cap", .pool_props = &p };
	is_int(pool_findings_zfs(&in, &f), 0, "findings of the full pool");
	ok(pool_findings_find(&f, "capacity") != NULL, "a pool 81% full is a capacity finding");
	is_int(count(&f), 1, "and nothing else (ashift 0 is not judged)");
	if (f.count)
		ok(strstr(f.items[0].evidence, "capacity=81%") != NULL, "evidence quotes the property");
	pool_findings_release(&f);
	zfs_props_release(&p);
	is_int(zfs_props_parse(empty, &p), 0, "the empty pool's table parsed");
	in.pool_props = &p;
	is_int(pool_findings_zfs(&in, &f), 0, "findings of the empty pool");
	is_int(count(&f), 0, "an empty default pool has no finding");
	zfs_props_release(&p);
	char *t = cut(full, strlen(full) - 12);
	is_int(zfs_props_parse(t, &p), -EINVAL, "a table cut inside its last line is an error");
	free(t);
	is_int(zfs_props_parse("iotpoolev-cap  capacity  81%  -\n", &p), -EINVAL, "rows without the header: an error");
	is_int(zfs_props_parse("", &p), -EINVAL, "empty output: an error");
	is_int(zfs_props_parse("NAME PROPERTY VALUE SOURCE\n", &p), -EINVAL, "a header alone: an error");
	is_int(zfs_props_parse("NAME PROPERTY VALUE SOURCE\nx capacity lots -\n", &p), 0, "a garbled value parses as text");
	in.pool_props = &p;
	is_int(pool_findings_zfs(&in, &f), -EINVAL, "but a capacity that is not a number is an error, no finding");
	is_int(count(&f), 0, "no findings left behind");
	zfs_props_release(&p);
	free(empty);
	free(full);
}

static void openzfs_props(void)
{
	char *pg = data("zpool_get_Hp_openzfs_composed.txt");
	char *dg = data("zfs_get_Hp_openzfs_sync_composed.txt");
	struct zfs_props pp, dp;
	is_int(zfs_props_parse(pg, &pp), 0, "OpenZFS zpool get -H -p parsed");
	is_int(zfs_props_parse(dg, &dp), 0, "OpenZFS zfs get -H -p parsed");
	struct pool_member m[3] = { { .name = "sdb", .path = "/dev/sdb", .vdev = "mirror-0" }, { .name = "sdc", .path = "/dev/sdc", .vdev = "mirror-0" },
				    { .name = "nvme0n1", .path = "/dev/nvme0n1", .vdev = "logs", .klass = POOL_CLASS_LOG } };
	struct pool_layout l = { .pool = "tank", .members = m, .count = 2 };
	unsigned sectors[3] = { 4096, 512, 512 };
	struct pool_findings_input in = { .pool = "tank", .pool_props = &pp, .dataset_props = &dp,
					  .layout = &l, .io_size = 4096, .phys_sector = sectors };
	struct pool_findings f = { 0 };
	is_int(pool_findings_zfs(&in, &f), 0, "findings");
	ok(pool_findings_find(&f, "sync-no-log") != NULL, "sync=always without a log device");
	ok(pool_findings_find(&f, "fragmentation") != NULL, "63% fragmentation");
	ok(pool_findings_find(&f, "compression") == NULL,
	   "compression=lz4 is not noted: it gives up early on incompressible data");
	ok(pool_findings_find(&f, "recordsize") != NULL, "128K records under 4K i/o: 32x");
	struct pool_findings z = { 0 };
	is_int(pool_findings_volblocksize("tank/vm", 16384, 4096, &z), 0, "a 16K zvol under 4K i/o: 4x, no finding");
	is_int(pool_findings_volblocksize("tank/vm", 131072, 4096, &z), 1, "a 128K zvol under 4K i/o: 32x, a finding");
	ok(z.count == 1 && !strcmp(z.items[0].code, "volblocksize") && !strcmp(z.items[0].subject, "tank/vm") &&
		   strstr(z.items[0].text, "reads and rewrites a whole block") && strstr(z.items[0].fix, "volblocksize=4K"),
	   "naming the zvol, the read-modify-write, and a new zvol of 4K as the fix");
	pool_findings_release(&z);
	const struct pool_finding *a = pool_findings_find(&f, "ashift");
	ok(a && !strcmp(a->subject, "sdb"), "ashift 9 below sdb's 4096-byte sector, naming sdb");
	ok(a && strstr(a->fix, "ashift=12"), "the fix says ashift=12");
	ok(!pool_findings_find(&f, "capacity"), "42% full is not a finding");
	ok(!pool_findings_find(&f, "dedup"), "dedup off is not a finding");
	pool_findings_release(&f);
	l.count = 3;
	in.io_size = 131072;
	is_int(pool_findings_zfs(&in, &f), 0, "with a log device and 128K i/o");
	ok(!pool_findings_find(&f, "sync-no-log"), "sync=always with a log device is not a finding");
	ok(!pool_findings_find(&f, "recordsize"), "recordsize equal to the i/o: no finding");
	pool_findings_release(&f);
	zfs_props_release(&pp);
	zfs_props_release(&dp);
	free(pg);
	free(dg);
}

/* logbias on real OpenZFS 2.3.2 properties (zfs get -H -p all, captured in
 * the VM), the dataset's parsed value then set to throughput; the layouts of
 * a pool with a log mirror and of one without (also captured). */
static void logbias(void)
{
	char *g = data("openzfs232_ashift9_sync_get.txt");
	char *with_log = data("openzfs232_mirror_log_cache_spare_status_P.txt");
	char *no_log = data("openzfs232_raidz1_guid_member_status_P.txt");
	struct zfs_props p;
	struct pool_layout lw, ln;
	is_int(zfs_props_parse(g, &p), 0, "OpenZFS 2.3.2's zfs get parsed");
	ok(zfs_parse_status(with_log, &lw) == 0 && zfs_parse_status(no_log, &ln) == 0, "two layouts parsed");
	struct pool_findings_input in = { .pool = "ash", .dataset_props = &p, .dataset = "ash", .layout = &lw };
	struct pool_findings f = { 0 };
	is_int(pool_findings_zfs(&in, &f), 0, "findings");
	ok(!pool_findings_find(&f, "logbias"), "logbias=latency (the default) is no note");
	pool_findings_release(&f);
	for (size_t i = 0; i < p.count; i++)
		if (!strcmp(p.items[i].name, "logbias"))
			snprintf(p.items[i].value, sizeof(p.items[i].value), "throughput");
	is_int(pool_findings_zfs(&in, &f), 0, "findings with logbias=throughput");
	const struct pool_finding *x = pool_findings_find(&f, "logbias");
	ok(x && !strcmp(x->severity, "note") && strstr(x->text, "skip the pool's log device") &&
		   strstr(x->fix, "zfs set logbias=latency ash"),
	   "logbias=throughput on a pool with a log: a note, the log unused, the fix");
	pool_findings_release(&f);
	in.layout = &ln;
	is_int(pool_findings_zfs(&in, &f), 0, "the same on a pool without a log");
	ok(!pool_findings_find(&f, "logbias"), "no log, nothing for logbias to skip: no note");
	pool_findings_release(&f);
	pool_layout_release(&lw);
	pool_layout_release(&ln);
	zfs_props_release(&p);
	free(g);
	free(with_log);
	free(no_log);
}

static void fuse_datasets(void)
{
	char *g = data("zfs_get_all_fuse_captured.txt");
	struct zfs_props p;
	is_int(zfs_props_parse(g, &p), 0, "zfs-fuse zfs get -H -p -r all parsed");
	is_str(zfs_props_get(&p, "iotpoolev-cap/rs4k", "recordsize"), "4096", "rs4k's recordsize");
	struct pool_findings f = { 0 };
	struct pool_findings_input in = { .pool = "iotpoolev-cap", .dataset_props = &p, .io_size = 1048576 };
	static const struct { const char *ds, *code; } cases[] = {
		{ "iotpoolev-cap/rs4k", "recordsize" }, { "iotpoolev-cap/dedup", "dedup" },
		{ "iotpoolev-cap/comp", "compression" }, { "iotpoolev-cap/plain", NULL }, { "iotpoolev-cap", NULL },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char name[160];
		in.dataset = cases[i].ds;
		is_int(pool_findings_zfs(&in, &f), 0, "findings of a captured dataset");
		snprintf(name, sizeof(name), "%s under 1M i/o: %s", cases[i].ds, cases[i].code ? cases[i].code : "no finding");
		ok(cases[i].code ? f.count == 1 && pool_findings_find(&f, cases[i].code) : f.count == 0, name);
		pool_findings_release(&f);
	}
	zfs_props_release(&p);
	char *t = cut(g, (size_t)(strstr(g, "rs4k\trecordsize\t") - g) + 16);
	is_int(zfs_props_parse(t, &p), -EINVAL, "cut after a property's name: an error");
	free(t);
	is_int(zfs_props_parse("tank\trecordsize\t4096\n", &p), -EINVAL, "a -H line without its source: an error");
	is_int(zfs_props_parse("tank\trecordsize\tbig\tlocal\n", &p), 0, "a garbled recordsize parses as text");
	in.dataset = "tank";
	in.dataset_props = &p;
	is_int(pool_findings_zfs(&in, &f), -EINVAL, "but judging it is an error, not a finding");
	zfs_props_release(&p);
	free(g);
}

static void status(void)
{
	struct zfs_health h;
	struct pool_findings f = { 0 };
	struct pool_findings_input in = { .health = &h };
	char *s = data("zpool_status_fuse_scrub_captured.txt");
	is_int(zfs_parse_health(s, &h), 0, "zfs-fuse scrub status parsed");
	ok(h.scan == ZFS_SCAN_SCRUB && fabs(h.scan_done_pct - 9.88) < 1e-9, "scrub in progress, 9.88% done");
	is_int(pool_findings_zfs(&in, &f), 0, "findings");
	ok(f.count == 1 && pool_findings_find(&f, "scan"), "a running scrub is the one finding");
	pool_findings_release(&f);
	char *t = cut(s, strlen(s) / 2);
	is_int(zfs_parse_health(t, &h), -EINVAL, "a status cut in half: an error");
	free(t);
	free(s);
	s = data("zpool_status_fuse_resilver_captured.txt");
	is_int(zfs_parse_health(s, &h), 0, "zfs-fuse resilver status parsed");
	ok(h.scan == ZFS_SCAN_RESILVER && h.bad_count == 0, "resilver in progress; the '3.88M resilvered' row is healthy");
	free(s);
	s = data("zpool_status_fuse_degraded_captured.txt");
	is_int(zfs_parse_health(s, &h), 0, "zfs-fuse degraded status parsed");
	is_str(h.state, "DEGRADED", "pool state DEGRADED");
	is_int(h.bad_count, 2, "raidz1-0 DEGRADED and loop31 OFFLINE");
	is_str(h.bad[1].name, "loop31", "loop31 named");
	is_int(pool_findings_zfs(&in, &f), 0, "findings");
	is_int(f.count, 2, "one vdev-state finding each");
	pool_findings_release(&f);
	free(s);
	s = data("zpool_status_openzfs_faulted_scrub_composed.txt");
	is_int(zfs_parse_health(s, &h), 0, "OpenZFS status with scan: and a log parsed");
	ok(h.scan == ZFS_SCAN_SCRUB && fabs(h.scan_done_pct - 16.91) < 1e-9, "scrub 16.91% done, from a continuation line");
	ok(h.bad_count == 2 && !strcmp(h.bad[1].state, "FAULTED"), "sdb FAULTED");
	free(s);
	s = data("zpool_status_fuse_mirror_raidz.txt");
	is_int(zfs_parse_health(s, &h), 0, "a healthy status");
	ok(h.scan == ZFS_SCAN_NONE && h.bad_count == 0, "no scan, nothing unhealthy");
	free(s);
	is_int(zfs_parse_health("  pool: x\n state: ONLINE\nconfig:\n\tx ONLINE 0 0 0\n\t  loop1 0nl1ne 0 0 0\nerrors: none\n", &h),
	       -EINVAL, "a garbled device state: an error");
}

static void btrfs(void)
{
	struct btrfs_usage u;
	struct pool_findings f = { 0 };
	char *s = data("btrfs_usage_raid1_mixed_sizes_captured.txt");
	is_int(btrfs_parse_usage(s, &u), 0, "btrfs raid1 usage parsed");
	is_str(u.data_profile, "RAID1", "data profile RAID1");
	is_int(u.dev_count, 2, "two devices");
	ok(u.devs[0].size == 268435456 && u.devs[1].size == 1073741824, "256 MiB and 1 GiB, from allocations + unallocated");
	is_int(pool_findings_btrfs("iotpoolev-b1", &u, &f), 0, "findings");
	ok(f.count == 1 && pool_findings_find(&f, "btrfs-sizes"), "raid1 over 256M and 1G: a finding");
	pool_findings_release(&f);
	char *t = cut(s, strlen(s) - 20);
	is_int(btrfs_parse_usage(t, &u), -EINVAL, "cut in the last device line: an error");
	free(t);
	t = cut(s, (size_t)(strstr(s, "Unallocated:") - s));
	is_int(btrfs_parse_usage(t, &u), -EINVAL, "cut before Unallocated: an error");
	free(t);
	free(s);
	s = data("btrfs_usage_raid0_equal_captured.txt");
	is_int(btrfs_parse_usage(s, &u), 0, "btrfs raid0 usage parsed");
	ok(!strcmp(u.data_profile, "RAID0") && !strcmp(u.meta_profile, "RAID1"), "data RAID0, metadata RAID1");
	is_int(pool_findings_btrfs("iotpoolev-b0", &u, &f), 0, "findings");
	is_int(f.count, 0, "three equal devices: no finding");
	char *lines = strstr(s, "Unallocated:");
	t = cut(s, (size_t)(lines - s) + 30);
	is_int(btrfs_parse_usage(t, &u), -EINVAL, "cut after the first unallocated device: sizes do not add up");
	free(t);
	free(s);
}

static void numbers(void)
{
	double v;
	ok(zfs_parse_number("128K", &v) == 0 && v == 131072, "128K");
	ok(zfs_parse_number("1.23G", &v) == 0 && fabs(v - 1.23 * 1073741824) < 1, "1.23G");
	ok(zfs_parse_number("81%", &v) == 0 && v == 81, "81%");
	is_int(zfs_parse_number("-", &v), -EINVAL, "'-' is not a number");
	is_int(zfs_parse_number("12Q", &v), -EINVAL, "an unknown suffix is an error");
}

int main(void)
{
	zpool_get();
	openzfs_props();
	logbias();
	fuse_datasets();
	status();
	btrfs();
	numbers();
	return tap_done();
}
