/* readtest_rank: each ok disk as a percentage of the median of the ok
 * disks, and the summary order (fastest first, then errors, then skipped,
 * ties by kernel name). */
#include <stdlib.h>

#include "basic/strbuf.h"
#include "media/readtest.h"
#include "tap.h"

#define MB 1e6

static void set_ok(struct disk_read *d, const char *kname, double bw)
{
	snprintf(d->info.kname, sizeof(d->info.kname), "%s", kname);
	d->status = READTEST_OK;
	d->res = xcalloc(1, sizeof(*d->res));
	d->res->bytes = (uint64_t)(bw * 2);
	d->res->seconds = 2.0;
}

static void set_status(struct disk_read *d, const char *kname, enum readtest_status s)
{
	snprintf(d->info.kname, sizeof(d->info.kname), "%s", kname);
	d->status = s;
}

int main(void)
{
	struct disk_read reads[6] = { 0 };
	size_t order[6];
	set_status(&reads[0], "sda", READTEST_SKIPPED);
	set_ok(&reads[1], "sdb", 100 * MB);
	set_status(&reads[2], "sdc", READTEST_ERROR);
	set_ok(&reads[3], "sdd", 200 * MB);
	set_ok(&reads[4], "sde", 50 * MB);
	set_ok(&reads[5], "sdf", 100 * MB);

	double median = readtest_rank(reads, 6, order);
	ok(median > 99.99 * MB && median < 100.01 * MB, "median of 50, 100, 100, 200 MB/s is 100 MB/s");
	ok(reads[3].pct_of_median > 199.9 && reads[3].pct_of_median < 200.1, "200 MB/s is 200% of the median");
	ok(reads[4].pct_of_median > 49.9 && reads[4].pct_of_median < 50.1, "50 MB/s is 50% of the median");
	ok(reads[0].pct_of_median == 0 && reads[2].pct_of_median == 0, "skipped and failed disks are not ranked");
	is_int(order[0], 3, "fastest first");
	is_int(order[1], 1, "a tie between ok disks goes by kernel name (sdb)");
	is_int(order[2], 5, "then sdf");
	is_int(order[3], 4, "then the slowest ok disk");
	is_int(order[4], 2, "errors after every ok disk");
	is_int(order[5], 0, "skipped last");

	struct disk_read none[2] = { 0 };
	set_status(&none[0], "sda", READTEST_ERROR);
	set_status(&none[1], "sdb", READTEST_SKIPPED);
	ok(readtest_rank(none, 2, order) == 0, "no ok disk: median 0");
	is_int(order[0], 0, "the error before the skipped disk");

	struct disk_read two[2] = { 0 };
	set_ok(&two[0], "sda", 100 * MB);
	set_ok(&two[1], "sdb", 300 * MB);
	median = readtest_rank(two, 2, order);
	ok(median > 199.99 * MB && median < 200.01 * MB, "an even count's median is the mean of the middle two");

	for (size_t i = 0; i < 6; i++)
		disk_read_release(&reads[i]);
	for (size_t i = 0; i < 2; i++)
		disk_read_release(&two[i]);
	return tap_done();
}
