/* pool/layout_model: expected sequential rates, numbers checked by hand. */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "pool/layout_model.h"
#include "pool/zfs.h"
#include "tap.h"

#define MB 1e6
static int near(double a, double b) { return fabs(a - b) < 1; }

static struct layout_rates same[6] = {
	{ 100 * MB, 80 * MB }, { 100 * MB, 80 * MB }, { 100 * MB, 80 * MB },
	{ 100 * MB, 80 * MB }, { 100 * MB, 80 * MB }, { 100 * MB, 80 * MB },
};

static void kinds(void)
{
	enum layout_kind k;
	unsigned p;
	ok(layout_zfs_vdev_kind("mirror-0", "tank", &k, &p) == 0 && k == LAYOUT_MIRROR, "mirror-0 is a mirror");
	ok(layout_zfs_vdev_kind("mirror", "tank", &k, &p) == 0 && k == LAYOUT_MIRROR, "iostat's bare 'mirror' too");
	ok(layout_zfs_vdev_kind("raidz1-1", "tank", &k, &p) == 0 && k == LAYOUT_RAIDZ && p == 1, "raidz1-1: parity 1");
	ok(layout_zfs_vdev_kind("raidz", "tank", &k, &p) == 0 && p == 1, "a bare raidz is raidz1");
	ok(layout_zfs_vdev_kind("raidz3-0", "tank", &k, &p) == 0 && p == 3, "raidz3: parity 3");
	ok(layout_zfs_vdev_kind("tank", "tank", &k, &p) == 0 && k == LAYOUT_SINGLE, "the pool's name: a plain disk");
	ok(layout_zfs_vdev_kind("logs", "tank", &k, &p) == 0 && k == LAYOUT_SUPPORT, "logs are not data");
	is_int(layout_zfs_vdev_kind("draid2-0", "tank", &k, &p), -EINVAL, "an unknown vdev type is an error");
	is_int(layout_zfs_vdev_kind("mirror-x", "tank", &k, &p), -EINVAL, "a malformed index is an error");
}

static void vdevs(void)
{
	struct layout_rates v;
	struct layout_rates mixed[3] = { { 100 * MB, 80 * MB }, { 60 * MB, 50 * MB }, { 120 * MB, 90 * MB } };
	is_int(layout_vdev_expect(LAYOUT_MIRROR, 0, mixed, 3, &v), 0, "3-way mirror");
	ok(near(v.read_bps, 1.25 * 280 / 3 * MB), "one stream reads 1.25 sides' worth: 1.25 x mean(100, 60, 120)");
	ok(near(v.write_bps, 50 * MB), "mirror writes at its slowest, 50 MB/s");
	struct layout_rates slow_side[2] = { { 100 * MB, 80 * MB }, { 10 * MB, 80 * MB } };
	is_int(layout_vdev_expect(LAYOUT_MIRROR, 0, slow_side, 2, &v), 0, "2-way mirror, one side slow");
	ok(near(v.read_bps, 1.25 * 55 * MB), "1.25 x the mean side (68.75), under the sum (110)");
	struct layout_rates one_side[1] = { { 100 * MB, 80 * MB } };
	is_int(layout_vdev_expect(LAYOUT_MIRROR, 0, one_side, 1, &v), 0, "a mirror left with one side");
	ok(near(v.read_bps, 100 * MB), "never more than the sides' sum");
	is_int(layout_vdev_expect(LAYOUT_RAIDZ, 1, same, 5, &v), 0, "raidz1 of 5");
	ok(near(v.read_bps, 500 * MB) && near(v.write_bps, 320 * MB),
	   "raidz1 of 5: the parity rotates, 5 x 100 read; 4 x 80 write");
	is_int(layout_vdev_expect(LAYOUT_RAIDZ, 2, mixed, 3, &v), 0, "raidz2 of 3");
	ok(near(v.read_bps, 180 * MB) && near(v.write_bps, 50 * MB), "raidz2 of 3: reads 3 x the slowest, writes 1 x");
	is_int(layout_vdev_expect(LAYOUT_RAIDZ, 3, same, 3, &v), -EINVAL, "raidz3 of 3 has no data disk");
	is_int(layout_vdev_expect(LAYOUT_RAID10, 0, same, 3, &v), -EINVAL, "raid10 of 3 is refused");
	struct layout_rates zero[2] = { { 100 * MB, 0 }, { 100 * MB, 80 * MB } };
	is_int(layout_vdev_expect(LAYOUT_MIRROR, 0, zero, 2, &v), -EINVAL, "a member without a rate is an error");
	is_int(layout_vdev_expect(LAYOUT_MIRROR, 0, same, 0, &v), -EINVAL, "no members is an error");
}

static void zfs_pools(void)
{
	struct pool_member m[8] = {
		{ .name = "loop0", .path = "/dev/loop0", .vdev = "mirror-0" }, { .name = "loop1", .path = "/dev/loop1", .vdev = "mirror-0" },
		{ .name = "loop2", .path = "/dev/loop2", .vdev = "raidz1-1" }, { .name = "loop3", .path = "/dev/loop3", .vdev = "raidz1-1" },
		{ .name = "loop4", .path = "/dev/loop4", .vdev = "raidz1-1" }, { .name = "loop5", .path = "/dev/loop5", .vdev = "tank" },
		{ .name = "loop6", .path = "/dev/loop6", .vdev = "logs", .klass = POOL_CLASS_LOG }, { .name = "loop7", .path = "/dev/loop7", .vdev = "cache", .klass = POOL_CLASS_CACHE },
	};
	struct pool_layout l = { .pool = "tank", .members = m, .count = 8 };
	struct layout_rates r[8];
	for (size_t i = 0; i < 8; i++)
		r[i] = (struct layout_rates){ 100 * MB, 80 * MB };
	r[6] = (struct layout_rates){ 1 * MB, 1 * MB }; /* a slow log must not count */
	struct layout_expectation e;
	is_int(layout_expect_zfs(&l, r, &e), 0, "mirror + raidz1 + disk + log + cache");
	is_int(e.data_vdevs, 3, "three data vdevs");
	ok(near(e.read_bps, (125 + 300 + 100) * MB), "read: mirror 125 + raidz1(3) 300 + disk 100");
	ok(near(e.write_bps, (80 + 160 + 80) * MB), "write: mirror 80 + raidz1(3) 160 + disk 80");
	ok(strstr(e.basis, "mirror of 2") && strstr(e.basis, "raidz1 of 3") && strstr(e.basis, " + "),
	   "the basis names each vdev");
	l.count = 2;
	is_int(layout_expect_zfs(&l, r, &e), 0, "a two-way mirror alone");
	ok(near(e.read_bps, 125 * MB) && near(e.write_bps, 80 * MB), "2-way mirror: 125 read (one stream), 80 write");
	struct pool_member only_log[1] = { { .name = "loop6", .path = "/dev/loop6", .vdev = "logs", .klass = POOL_CLASS_LOG } };
	struct pool_layout l2 = { .pool = "tank", .members = only_log, .count = 1 };
	is_int(layout_expect_zfs(&l2, r, &e), -EINVAL, "no data vdev is an error");
}

static void btrfs(void)
{
	struct layout_expectation e;
	is_int(layout_expect_btrfs("RAID1", same, 2, &e), 0, "btrfs raid1 of 2");
	ok(near(e.read_bps, 100 * MB) && near(e.write_bps, 80 * MB), "raid1: one reader reads one copy; writes at one member");
	is_int(layout_expect_btrfs("raid0", same, 3, &e), 0, "btrfs raid0 of 3");
	ok(near(e.read_bps, 300 * MB) && near(e.write_bps, 240 * MB), "raid0 of 3: 3 x the member");
	is_int(layout_expect_btrfs("RAID10", same, 4, &e), 0, "btrfs raid10 of 4");
	ok(near(e.read_bps, 200 * MB) && near(e.write_bps, 160 * MB), "raid10 of 4: 2 x the member");
	is_int(layout_expect_btrfs("single", same, 3, &e), 0, "btrfs single over 3");
	ok(near(e.read_bps, 100 * MB) && near(e.write_bps, 80 * MB), "single: one member at a time");
	is_int(layout_expect_btrfs("DUP", same, 1, &e), 0, "dup on one device");
	ok(near(e.write_bps, 40 * MB), "dup writes everything twice: 40");
	is_int(layout_expect_btrfs("raid7", same, 3, &e), -EINVAL, "an unknown profile is an error");
}

int main(void)
{
	kinds();
	vdevs();
	zfs_pools();
	btrfs();
	return tap_done();
}
