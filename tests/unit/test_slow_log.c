/* zpool iostat -v -l -H -p (pool/zpool_lat.c) and the slow-log judgement
 * (pool/slow_log.c) on OpenZFS 2.3.2's own output, captured in the VM while
 * sync writes went through a log mirror whose disks write at 2 MB/s
 * (tests/vm/openzfs_scenario.sh, pool tank: a data mirror, that log mirror,
 * a cache disk, a spare). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pool/slow_log.h"
#include "pool/zpool_json.h"
#include "pool/zpool_lat.h"
#include "tap.h"
#include "test_data.h"

int main(void)
{
	size_t n;
	const char *text = test_data("openzfs232_mirror_slow_log_iostat_lHp.txt", &n);
	struct zpool_lat lat;
	is_int(text ? zpool_lat_parse(text, "tank", false, &lat) : -ENOENT, 0, "zpool iostat -v -l -H -p parsed");
	ok(lat.reports >= 2, "the interval reports after the one since import");
	const struct zpool_lat_row *log = zpool_lat_row(&lat, "mirror-1"), *data = zpool_lat_row(&lat, "mirror-0");
	ok(log && data, "a row for the data mirror and for the log mirror");
	ok(log && log->write_ops > 0 && log->write_disk_wait_ns > 5e6,
	   "the log mirror wrote, each write waiting over 5 ms at its 2 MB/s disks");
	ok(data && log && data->write_disk_wait_ns > 0 && data->write_disk_wait_ns < log->write_disk_wait_ns / 4,
	   "the data mirror's writes waited a fraction of that");
	ok(zpool_lat_row(&lat, "scsi-0QEMU_QEMU_HARDDISK_IOTZFS09") != NULL, "and a row per device");

	size_t jn;
	const char *json = test_data("openzfs232_mirror_log_cache_spare_status_j.json", &jn);
	struct pool_layout l;
	is_int(json ? zfs_parse_status_json(json, jn, "tank", &l) : -ENOENT, 0, "tank's layout");
	struct pool_findings f = { 0 };
	char why[200] = "";
	is_int(pool_slow_log_judge(&l, &lat, &f, why, sizeof(why)), 1, "the slow log is a finding");
	const struct pool_finding *x = pool_findings_find(&f, "slow-log");
	ok(x && !strcmp(x->subject, "mirror-1") && strstr(x->text, "slower than the data vdevs"),
	   "naming the log mirror and why it matters");
	ok(x && strstr(x->evidence, "zpool iostat -l during sync writes: mirror-1 write disk_wait"), "with the figures");
	ok(x && strstr(x->fix, "zpool remove tank mirror-1"), "and the fix");
	pool_findings_release(&f);

	/* The same reports with the log as quick as the data: no finding. */
	struct zpool_lat_row *mlog = (struct zpool_lat_row *)zpool_lat_row(&lat, "mirror-1");
	double slow = mlog->write_disk_wait_ns;
	mlog->write_disk_wait_ns = data->write_disk_wait_ns * 1.5;
	is_int(pool_slow_log_judge(&l, &lat, &f, why, sizeof(why)), 0, "a log as quick as the data vdevs keeps up");
	is_int((int)f.count, 0, "and is no finding");
	mlog->write_disk_wait_ns = slow;
	/* A log that wrote nothing was not measured: not judged. */
	mlog->write_ops = 0;
	is_int(pool_slow_log_judge(&l, &lat, &f, why, sizeof(why)), -ENODATA, "a log that did not write is not judged");
	ok(strstr(why, "log vdev wrote nothing") != NULL, "saying why");
	for (size_t i = 0; i < l.nvdevs; i++)
		if (l.vdevs[i].klass == POOL_CLASS_LOG)
			l.vdevs[i].klass = POOL_CLASS_DATA;
	is_int(pool_slow_log_judge(&l, &lat, &f, why, sizeof(why)), -ENODATA, "a pool without a log has nothing to judge");
	pool_layout_release(&l);
	zpool_lat_release(&lat);

	/* Cut while the last report was being written. */
	char *cut = strndup(text, n - 40);
	is_int(zpool_lat_parse(cut, "tank", false, &lat), -EINVAL, "a cut-off report is an error");
	is_int(zpool_lat_parse(cut, "tank", true, &lat), 0, "unless a cut tail is allowed: it is dropped");
	zpool_lat_release(&lat);
	free(cut);
	is_int(zpool_lat_parse(text, "other", false, &lat), -EINVAL, "no report for the pool asked for is an error");
	is_int(zpool_lat_parse("tank\t1\t2\n", "tank", false, &lat), -EINVAL, "a row with too few columns is an error");
	return tap_done();
}
