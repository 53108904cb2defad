/* The shared-path judgement of readdisks --mode both (triage/media/read_shared.h,
 * shared_path_judge): a whole path whose median drops, a subset of disks
 * held back together while the group's median holds (a throttle group among
 * other disks on one controller, as in the hardware lab), and the cases that
 * are no shared path at all. */
#include <stdbool.h>
#include <string.h>

#include "triage/media/read_shared.h"
#include "tap.h"

int main(void)
{
	bool held[9];
	double median;

	/* The lab's scsi0: four disks keep their rate, two share a throttle group. */
	const double subset[] = { 99, 101, 48, 100, 51, 98 };
	ok(shared_path_judge(subset, 6, &median, held) == SHARED_SUBSET, "2 of 6 at half while 4 hold: a subset");
	ok(median > 90, "the group's median holds");
	ok(!held[0] && !held[1] && held[2] && !held[3] && held[4] && !held[5], "exactly the two slow disks are held back");

	/* The lab's scsi1: three disks on one throttle group, alone on their controller. */
	const double whole[] = { 34, 33, 35 };
	ok(shared_path_judge(whole, 3, &median, held) == SHARED_PATH, "3 of 3 at a third: the whole path");
	ok(median > 33.9 && median < 34.1, "median 34%");
	ok(!held[0] && !held[1] && !held[2], "a whole-path finding names no subset");

	/* A throttle group of three among six on one controller. */
	const double three[] = { 100, 33, 99, 34, 101, 32, 100, 98, 97 };
	ok(shared_path_judge(three, 9, &median, held) == SHARED_SUBSET, "3 of 9 at a third: a subset");
	size_t n = 0;
	for (size_t i = 0; i < 9; i++)
		n += held[i];
	ok(n == 3 && held[1] && held[3] && held[5], "the three are held back, no other");

	const double one[] = { 100, 40, 99, 101 };
	ok(shared_path_judge(one, 4, &median, held) == SHARED_FINE, "one disk alone below the limit: no shared path");
	ok(!held[1], "and it is not named as held back");

	const double fine[] = { 95, 100, 88 };
	ok(shared_path_judge(fine, 3, &median, held) == SHARED_FINE, "every disk near its solo rate: fine");

	const double single[] = { 20 };
	ok(shared_path_judge(single, 1, &median, held) == SHARED_FINE, "one disk alone on its path: nothing to share");

	const double limit[] = { 70, 70, 100, 100 };
	ok(shared_path_judge(limit, 4, &median, held) == SHARED_FINE, "at exactly 70% a disk is not held back");

	/* A group read on its own against its share among all the disks. */
	ok(shared_held_by_others(98, 40), "a group at 98% on its own and 40% among all: held back by the others");
	ok(!shared_held_by_others(45, 40), "slow on its own already: its own path, not the others'");
	ok(!shared_held_by_others(98, 90), "keeping its rate among all: nothing shared");
	ok(!shared_held_by_others(98, 0), "not read among all: not judged");

	/* The input is left as it was (the median sorts a copy). */
	ok(subset[2] == 48 && subset[5] == 98, "the rates are not reordered");
	return tap_done();
}
