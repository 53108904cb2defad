/* pool/random_layout: what a layout lets 4 KiB random reads reach, on the
 * layouts of real OpenZFS 2.3.2 pools (zpool status -P captured in the VM)
 * and zdb -l's label (captured from zfs-fuse and from OpenZFS in the VM);
 * member loads are numbers. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "pool/random_layout.h"
#include "pool/zfs.h"
#include "pool/zfs_label.h"
#include "tap.h"
#include "test_data.h"

static int near(double a, double b, double tol) { return fabs(a - b) <= tol; }

/* ok() with a formatted name, so a failure shows the figure it got. */
#define okf(cond, ...)                                          \
	do {                                                    \
		char name_[700];                                \
		snprintf(name_, sizeof(name_), __VA_ARGS__);    \
		ok(cond, name_);                                \
	} while (0)

static int layout_of(const char *file, struct pool_layout *l)
{
	const char *text = test_data(file, NULL);
	return text ? zfs_parse_status(text, l) : -ENOENT;
}

/* The members of L that are devices (as triage/pool_evidence samples them:
 * no distributed or idle hot spare), of every class, each with READS in a
 * 10 s window, busy BUSY of it. */
static size_t loads(const struct pool_layout *l, struct random_member_load *m, double reads, double busy)
{
	size_t n = 0;
	for (size_t i = 0; i < l->count; i++)
		if (!pool_member_unread_reason(&l->members[i]))
			m[n++] = (struct random_member_load){ .vdev = l->members[i].vdev, .reads = reads,
							      .busy_seconds = 10 * busy, .window_seconds = 10 };
	return n;
}

static void touched(void)
{
	struct pool_vdev rz1 = { .type = POOL_VDEV_RAIDZ, .parity = 1, .width = 4 };
	struct pool_vdev rz2 = { .type = POOL_VDEV_RAIDZ, .parity = 2, .width = 6 };
	struct pool_vdev mir = { .type = POOL_VDEV_MIRROR, .width = 2 };
	struct pool_vdev dr = { .type = POOL_VDEV_DRAID, .parity = 1, .draid_data = 2, .draid_children = 6, .width = 6 };
	is_int(random_touched(&rz1, 4096, 512), 3, "raidz1 of 4, 4 KiB on 512-byte sectors: all 3 data columns");
	is_int(random_touched(&rz1, 4096, 4096), 1, "raidz1 of 4, 4 KiB on 4 KiB sectors: one member");
	is_int(random_touched(&rz2, 8192, 4096), 2, "raidz2 of 6, 8 KiB on 4 KiB sectors: two members");
	is_int(random_touched(&rz2, 131072, 4096), 4, "raidz2 of 6, 128 KiB records: all 4 data columns");
	is_int(random_touched(&mir, 131072, 512), 1, "a mirror: one side, whatever the record");
	is_int(random_touched(&dr, 4096, 512), 2, "dRAID1 2d: its 2 data disks");
}

static void raidz_limited(void)
{
	struct pool_layout l;
	struct random_member_load m[16];
	struct random_reading r;
	is_int(layout_of("openzfs232_raidz2_special_log_status_P.txt", &l), 0, "raidz2 + special + log parsed");
	size_t n = loads(&l, m, 1500, 0.95); /* 150 reads/s per member, busy 95% */
	/* 512-byte sectors: a 4 KiB record spans the 4 data columns; 6 members x ~158 reads/s / 4. */
	is_int(random_reading_judge(&l, 4096, 512, m, n, 2300, 10, &r), 0, "judged");
	okf(r.members == 6, "only the 6 data members count (special and log left out), got %u", r.members);
	ok(r.nvdevs == 1 && !strcmp(r.vdevs[0].name, "raidz2-0") && r.vdevs[0].touched == 4, "one data vdev, 4 members a read");
	okf(near(r.one_member_iops, 6 * 1500 / 9.5, 1), "capacity: reads over busy time, %.0f", r.one_member_iops);
	okf(near(r.expected_iops, r.one_member_iops / 4, 1), "expected a quarter of it, %.0f", r.expected_iops);
	ok(r.disk_bound && r.layout_limited, "disk-bound and limited by the layout");
	okf(strstr(r.sentence, "limited by the layout: 230 IOPS read with the data members busy 95% (median), and the layout gives at most about 237") != NULL, "sentence: %s",
	   r.sentence);
	okf(strstr(r.advice, "mirrors (about 947 IOPS") != NULL, "advice names the mirrors' figure: %s", r.advice);
	/* the same pool on 4 KiB sectors: each read on one member, the disks are the limit */
	is_int(random_reading_judge(&l, 4096, 4096, m, n, 9000, 10, &r), 0, "judged at ashift 12");
	okf(r.disk_bound && !r.layout_limited && strstr(r.sentence, "limited by the disks, not the layout"), "%s", r.sentence);
	/* idle members: the limit is elsewhere */
	n = loads(&l, m, 300, 0.2);
	is_int(random_reading_judge(&l, 4096, 512, m, n, 100, 10, &r), 0, "judged idle");
	okf(!r.disk_bound && !r.layout_limited && strstr(r.sentence, "the limit is elsewhere"), "%s", r.sentence);
	pool_layout_release(&l);
}

static void mirrors_and_draid(void)
{
	struct pool_layout l;
	struct random_member_load m[16];
	struct random_reading r;
	is_int(layout_of("openzfs232_mirror_log_cache_spare_status_P.txt", &l), 0, "mirror + log + cache + spare parsed");
	size_t n = loads(&l, m, 2000, 1.0);
	is_int(random_reading_judge(&l, 4096, 512, m, n, 4000, 10, &r), 0, "judged");
	okf(r.members == 2 && r.nvdevs == 1, "the data mirror's two members only, got %u", r.members);
	okf(r.disk_bound && !r.layout_limited && near(r.expected_iops, 400, 1), "a mirror is not the limit: %.0f", r.expected_iops);
	okf(near(r.member_reads_per_read, 1, 0.01), "member reads per read from the loads: %.2f", r.member_reads_per_read);
	pool_layout_release(&l);

	is_int(layout_of("openzfs232_draid1_spare_in_use_status_P.txt", &l), 0, "dRAID parsed");
	n = loads(&l, m, 1000, 0.9);
	/* 6 members x 1000 reads / 9 busy s / 2 members a read: 333 */
	is_int(random_reading_judge(&l, 4096, 512, m, n, 3200, 10, &r), 0, "judged");
	ok(r.nvdevs == 1 && r.vdevs[0].touched == 2, "dRAID1 2d: two members a read");
	okf(r.layout_limited && near(r.expected_iops, 333, 1), "half of one-member reads is the layout's limit: %s", r.sentence);
	/* busy members, a tenth of the pool reads the layout explains: other work */
	is_int(random_reading_judge(&l, 4096, 512, m, n, 300, 10, &r), 0, "judged");
	okf(!r.layout_limited && !r.model_fits && strstr(r.sentence, "with other work as well"), "%s", r.sentence);
	pool_layout_release(&l);
}

static void bad_input(void)
{
	struct pool_layout l;
	struct random_member_load m[16];
	struct random_reading r;
	is_int(layout_of("openzfs232_mirror_log_cache_spare_status_P.txt", &l), 0, "parsed");
	size_t n = loads(&l, m, 100, 1);
	is_int(random_reading_judge(&l, 4096, 512, m, n, 10, 0, &r), -EINVAL, "no seconds: an error");
	is_int(random_reading_judge(&l, 0, 512, m, n, 10, 1, &r), -EINVAL, "no record: an error");
	for (size_t i = 0; i < n; i++)
		m[i].vdev = "logs";
	is_int(random_reading_judge(&l, 4096, 512, m, n, 10, 1, &r), -EINVAL, "no data member: an error");
	pool_layout_release(&l);
}

static void label(void)
{
	size_t len;
	const char *t = test_data("zfsfuse_zdb_label_mirror.txt", &len);
	is_int(t ? zfs_label_ashift(t, len) : -1, 12, "zfs-fuse's label: ashift 12 on loop devices");
	t = test_data("openzfs232_raidz1_ashift9_zdb_label.txt", &len);
	is_int(t ? zfs_label_ashift(t, len) : -1, 9, "OpenZFS 2.3.2's label of a raidz1 made with ashift=9: 9");
	is_int(zfs_label_ashift("", 0), -EINVAL, "empty: an error");
	const char *cut = "LABEL 0\n    vdev_tree:\n        type: 'mirror'\n";
	is_int(zfs_label_ashift(cut, strlen(cut)), -EINVAL, "a label cut before its ashift: an error");
	const char *odd = "LABEL 0\n    vdev_tree:\n        ashift: 40\n";
	is_int(zfs_label_ashift(odd, strlen(odd)), -EINVAL, "an ashift out of range: an error");
	const char *two = "LABEL 0\n    name: 'x'\nLABEL 1\n    vdev_tree:\n        ashift: 9\n";
	is_int(zfs_label_ashift(two, strlen(two)), -EINVAL, "never an ashift from past the first label");
}

int main(void)
{
	touched();
	raidz_limited();
	mirrors_and_draid();
	bad_input();
	label();
	test_data_free_all();
	return tap_done();
}
