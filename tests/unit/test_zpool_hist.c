/* pool/zpool_hist: zpool iostat -w -H -p of a real OpenZFS 2.3.2 pool (a
 * mirror with a mirrored log after sync and async writes, captured in the
 * VM by tests/vm/openzfs_scenario.sh; and 2.1.11's); percentiles,
 * differences, bad input. */
#include <errno.h>
#include <string.h>

#include "pool/zpool_hist.h"
#include "tap.h"
#include "test_data.h"

int main(void)
{
	size_t len;
	const char *t = test_data("openzfs232_mirror_iostat_wHp.txt", &len);
	struct zpool_hist h, d;
	is_int(t ? zpool_hist_parse(t, len, &h) : -1, 0, "the captured histograms parse");
	ok(h.nbuckets == 37 && h.bound_ns[0] == 1 && h.bound_ns[36] == 137438953471ULL, "37 buckets, 1 ns to 137 s");
	uint64_t w = zpool_hist_total(&h, ZH_DISK_WRITE), r = zpool_hist_total(&h, ZH_TOTAL_WRITE);
	ok(w > 0 && r >= w, "the pool wrote: disk-wait writes counted, total-wait writes as many or more");
	uint64_t p50 = zpool_hist_percentile(&h, ZH_DISK_WRITE, 50), p99 = zpool_hist_percentile(&h, ZH_DISK_WRITE, 99);
	ok(p50 > 0 && p99 >= p50 && zpool_hist_percentile(&h, ZH_DISK_WRITE, 100) >= p99, "disk-wait write p50 <= p99 <= max");
	is_int(zpool_hist_diff(&h, &h, &d), 0, "a snapshot less itself");
	ok(zpool_hist_total(&d, ZH_DISK_WRITE) == 0 && zpool_hist_percentile(&d, ZH_DISK_WRITE, 99) == 0,
	   "counts nothing: no percentile");
	struct zpool_hist less = h;
	less.count[20][ZH_DISK_WRITE] += 1;
	is_int(zpool_hist_diff(&h, &less, &d), -EINVAL, "a count that went down (the pool imported again) is an error");
	/* a cut output is an error, never half a histogram */
	char cut[4096];
	size_t n = len < sizeof(cut) ? len / 2 : sizeof(cut) - 1;
	memcpy(cut, t, n);
	cut[n] = '\0';
	char *last = strrchr(cut, '\n');
	if (last)
		last[1] = '\0';
	ok(zpool_hist_parse(cut, strlen(cut), &d) == 0 && d.nbuckets < h.nbuckets, "a cut at a line end keeps its buckets");
	const char *mid = "tank\n1\t0\t0\t0\t0\n";
	is_int(zpool_hist_parse(mid, strlen(mid), &d), -EINVAL, "a line cut short of the eight wait columns: an error");
	const char *two = "tank\n1\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\nmirror-0\n1\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\n";
	is_int(zpool_hist_parse(two, strlen(two), &d), -EINVAL, "a second block (-v's vdevs) is refused");
	const char *down = "3\t0\t0\t0\t0\t0\t0\t0\t0\n1\t0\t0\t0\t0\t0\t0\t0\t0\n";
	is_int(zpool_hist_parse(down, strlen(down), &d), -EINVAL, "bounds that do not rise: an error");
	const char *human = test_data("openzfs232_mirror_iostat_w.txt", &len);
	is_int(human ? zpool_hist_parse(human, len, &d) : 0, -EINVAL, "the human table (no -H -p) is refused, not misread");
	is_int(zpool_hist_parse("", 0, &d), -EINVAL, "empty: an error");
	const char *t21 = test_data("openzfs2111_mirror_iostat_wHp.txt", &len);
	ok(t21 && zpool_hist_parse(t21, len, &d) == 0 && d.nbuckets == h.nbuckets && zpool_hist_total(&d, ZH_DISK_WRITE) > 0,
	   "OpenZFS 2.1.11's histograms (no rebuild column) parse alike");
	test_data_free_all();
	return tap_done();
}
