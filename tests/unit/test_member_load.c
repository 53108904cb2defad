/* pool/member_load: a member against its siblings, composed figures. */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "pool/member_load.h"
#include "tap.h"

#define MIB 1048576.0

int main(void)
{
	struct member_load rz[5] = {
		{ "loop0", "raidz1-0", 0.22, 1.1, 900, 0, 0, false }, { "loop1", "raidz1-0", 0.20, 1.0, 900, 0, 0, false },
		{ "loop2", "raidz1-0", 0.94, 9.5, 900, 0, 0, false }, { "loop3", "raidz1-0", 0.25, 1.2, 900, 0, 0, false },
		{ "loop4", "raidz1-0", 0.21, 1.0, 900, 0, 0, false },
	};
	struct pool_findings f = { 0 };
	is_int(member_load_judge(rz, 5, &f), 2, "loop2: busy and slow");
	const struct pool_finding *b = pool_findings_find(&f, "member-busy");
	ok(b && !strcmp(b->subject, "loop2"), "the busy member is loop2");
	ok(b && strstr(b->text, "94% against 20-25%"), "with its figure against the siblings' range");
	ok(pool_findings_find(&f, "member-slow") != NULL, "9.5 ms against ~1 ms is slow");
	pool_findings_release(&f);
	rz[2].busy = 0.30, rz[2].wait_ms = 1.3;
	is_int(member_load_judge(rz, 5, &f), 0, "a healthy raidz: no finding");
	rz[2].busy = 0.45;
	is_int(member_load_judge(rz, 5, &f), 0, "45% busy is under the 50% floor");
	rz[2].busy = 0.94, rz[2].ios = 10;
	is_int(member_load_judge(rz, 5, &f), 0, "too few requests: not judged");
	struct member_load all_busy[3] = {
		{ "a", "raidz1-0", 0.95, 20, 900, 0, 0, false }, { "b", "raidz1-0", 0.97, 21, 900, 0, 0, false }, { "c", "raidz1-0", 0.99, 22, 900, 0, 0, false },
	};
	is_int(member_load_judge(all_busy, 3, &f), 0, "every member saturated alike: no member stands out");
	struct member_load mirror[2] = { { "sda", "mirror-0", 0.5, 2, 500, 20 * MIB, 0, false }, { "sdb", "mirror-0", 0.5, 2, 500, 90 * MIB, 0, false } };
	is_int(member_load_judge(mirror, 2, &f), 1, "a mirror side reading 20 of 90 MiB");
	ok(f.count == 1 && !strcmp(f.items[0].code, "member-share") && !strcmp(f.items[0].subject, "sda"), "sda named, member-share");
	pool_findings_release(&f);
	mirror[0].locality_reads = mirror[1].locality_reads = true;
	is_int(member_load_judge(mirror, 2, &f), 0,
	       "the same shares where the pool keeps a stream on one side (OpenZFS, rotating disks): not judged");
	/* Real figures: benchpool on a raidz1 of four with 4 KiB records (OpenZFS 2.3.2 in the VM), two
	 * members reading twice what the other two did, busy and waiting for it. */
	struct member_load parity[4] = {
		{ "sdp", "raidz1-0", 0.2567, 0.707, 4671, 6080000, 390, false }, { "sdq", "raidz1-0", 0.2503, 0.681, 4627, 7609856, 421, false },
		{ "sdr", "raidz1-0", 0.7074, 8.310, 5056, 12379136, 806, false }, { "sds", "raidz1-0", 0.6958, 8.391, 5006, 11966464, 806, false },
	};
	is_int(member_load_judge(parity, 4, &f), 0, "members given twice the reads are busier for it: no finding");
	parity[3].read_bytes = 7000000, parity[3].reads = 420;
	is_int(member_load_judge(parity, 4, &f), 2, "busy and slow on the same share of reads as its siblings: named");
	pool_findings_release(&f);
	/* A second VM run: the same byte shares, the extra reads in requests only (the 4 KiB random pass). */
	struct member_load parity2[4] = {
		{ "sdp", "raidz1-0", 0.319, 1.07, 4300, 9371648, 493, false }, { "sdq", "raidz1-0", 0.310, 1.04, 4300, 10121216, 519, false },
		{ "sdr", "raidz1-0", 0.394, 2.16, 4300, 9538560, 770, false }, { "sds", "raidz1-0", 0.697, 9.62, 4290, 9217024, 797, false },
	};
	is_int(member_load_judge(parity2, 4, &f), 0, "members given 1.5x the read requests: no finding either");
	struct member_load withlog[3] = { { "sda", "mirror-0", 0.3, 2, 500, 50 * MIB, 0, false }, { "sdb", "mirror-0", 0.3, 2, 500, 50 * MIB, 0, false },
					  { "nvme0n1", "logs", 0.99, 40, 500, 0, 0, false } };
	is_int(member_load_judge(withlog, 3, &f), 0, "a busy log device is not a data member");
	struct member_load lone[1] = { { "sdx", "tank", 0.99, 50, 900, 0, 0, false } };
	is_int(member_load_judge(lone, 1, &f), 0, "a disk with no siblings is not judged");
	struct member_load bad[1] = { { "sdx", "tank", 1.5, 1, 900, 0, 0, false } };
	is_int(member_load_judge(bad, 1, &f), -EINVAL, "a busy fraction over 1 is an error");
	return tap_done();
}
