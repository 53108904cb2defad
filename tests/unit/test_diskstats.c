/* disk/diskstats: parsing, deltas (hand-checked), bad input, and the
 * sampler on this machine's /proc/diskstats. proc_diskstats_captured_a/b
 * are two real snapshots of this VM a second apart. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "basic/fsutil.h"
#include "disk/diskstats.h"
#include "tap.h"
#include "test_data.h"

static void captured(void)
{
	const char *a = test_data("proc_diskstats_captured_a.txt", NULL);
	const char *b = test_data("proc_diskstats_captured_b.txt", NULL);
	const char *names[] = { "vda", "/dev/loop0" };
	struct diskstat sa[2], sb[2];
	is_int(diskstats_parse(a, names, 2, sa), 0, "captured snapshot a parsed");
	is_int(diskstats_parse(b, names, 2, sb), 0, "captured snapshot b parsed");
	is_int(sa[0].major, 254, "vda's major number");
	is_int(sa[0].rd_ios, 591082, "vda's reads");
	is_int(sa[0].io_ticks_ms, 233896, "vda's io_ticks");
	is_str(sa[1].name, "loop0", "a /dev/ prefix is ignored");
	struct diskstat_delta d;
	is_int(diskstats_delta(&sa[0], &sb[0], 1.0, &d), 0, "delta over one second");
	is_int(d.reads, 217, "217 reads in between");
	is_int(d.writes, 300, "300 writes in between");
	is_int(d.read_bytes, (152286486ULL - 152173438ULL) * 512, "read bytes from sectors of 512");
	is_int(d.busy_ms, 204, "busy 204 ms");
	ok(fabs(d.busy - 0.204) < 1e-9, "busy 20.4% of the second");
	ok(fabs(d.read_wait_ms - 343.0 / 217.0) < 1e-9, "read wait 343 ms over 217 reads");
	ok(fabs(d.write_wait_ms - 6513.0 / 300.0) < 1e-9, "write wait 6513 ms over 300 writes");
	is_int(diskstats_delta(&sa[1], &sb[1], 1.0, &d), 0, "an idle device's delta");
	ok(d.reads == 0 && d.busy == 0 && d.wait_ms == 0, "idle: no reads, not busy, no wait");
	is_int(diskstats_delta(&sb[0], &sa[0], 1.0, &d), -ERANGE, "counters going backwards: an error");
	is_int(diskstats_delta(&sa[0], &sb[1], 1.0, &d), -EINVAL, "two different devices: an error");
	is_int(diskstats_delta(&sa[0], &sb[0], 0, &d), -ERANGE, "a zero interval: an error");
}

static void bad_input(void)
{
	struct diskstat s;
	const char *one[] = { "sdb" };
	is_int(diskstats_parse("   8      16 sdb 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n", one, 1, &s), 0,
	       "a composed 15-counter line parses");
	is_int(s.time_in_queue_ms, 11, "the eleventh counter is time in queue");
	is_int(diskstats_parse("   8      16 sdb 1 2 3 4 5 6\n", one, 1, &s), -EINVAL,
	       "a truncated line is an error, not zeros");
	is_int(diskstats_parse("   8      16 sdb 1 2 x 4 5 6 7 8 9 10 11\n", one, 1, &s), -EINVAL,
	       "a non-number is an error");
	is_int(diskstats_parse("   8      0 sda 1 2 3 4 5 6 7 8 9 10 11\n", one, 1, &s), -ENOENT,
	       "a missing device is -ENOENT");
	const char *prefix[] = { "sd" };
	is_int(diskstats_parse("   8      0 sda 1 2 3 4 5 6 7 8 9 10 11\n", prefix, 1, &s), -ENOENT,
	       "a name is matched whole, not as a prefix");
	is_int(diskstats_parse("", one, 1, &s), -ENOENT, "empty text: -ENOENT");
}

static void sampler(void)
{
	char first[64] = "";
	FILE *f = fopen(DISKSTATS_PATH, "re");
	if (f) {
		unsigned a, b;
		if (fscanf(f, " %u %u %63s", &a, &b, first) != 3)
			first[0] = '\0';
		fclose(f);
	}
	if (!first[0]) {
		ok(1, "# skip: no /proc/diskstats");
		return;
	}
	const char *names[] = { first };
	struct diskstats_sampler s;
	struct diskstats_result r;
	is_int(diskstats_sampler_start(&s, NULL, names, 1, 10), 0, "sampler started on a real device");
	usleep(80000);
	is_int(diskstats_sampler_stop(&s, &r), 0, "sampler stopped");
	ok(r.intervals >= 3, "several 10 ms intervals sampled in 80 ms");
	ok(r.total[0].seconds > 0.07 && r.total[0].seconds < 5, "the total spans the run");
	ok(diskstats_peak_busy(&r, 0) >= 0 && diskstats_peak_busy(&r, 0) <= 1, "peak busy is a fraction");
	diskstats_result_release(&r);
	is_int(diskstats_sampler_start(&s, NULL, names, 1, 0), 0, "a sampler without a thread");
	is_int(diskstats_sampler_stop(&s, &r), 0, "stopped");
	is_int(r.intervals, 0, "no intervals without a thread");
	diskstats_result_release(&r);
	const char *missing[] = { "iotriage-no-such-disk" };
	is_int(diskstats_sampler_start(&s, NULL, missing, 1, 10), -ENOENT, "a missing device: -ENOENT");
}

int main(void)
{
	captured();
	bad_input();
	sampler();
	return tap_done();
}
