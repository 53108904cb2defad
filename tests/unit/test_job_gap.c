/* pool/job_gap: a pass's first-done against last-done, judged with the
 * members' findings as pool/member_load makes them from real figures (a
 * raidz1 of four in the OpenZFS VM, one member made slow). */
#include <stdbool.h>
#include <string.h>

#include "pool/job_gap.h"
#include "pool/member_load.h"
#include "tap.h"

int main(void)
{
	char buf[600];
	ok(!job_gap_judge(4.0, 5.0, NULL, true, buf, sizeof(buf)) && !buf[0], "1.25x: no gap");
	ok(!job_gap_judge(0.4, 0.8, NULL, true, buf, sizeof(buf)), "2x but 0.4 s apart: no gap");
	ok(!job_gap_judge(0, 3.0, NULL, true, buf, sizeof(buf)), "no first-done: not judged");
	struct pool_findings none = { 0 };
	ok(job_gap_judge(2.0, 5.0, &none, true, buf, sizeof(buf)) && strstr(buf, "between 2.00 and 5.00 s") &&
		   strstr(buf, "worked evenly: not the pool"),
	   "a gap with even members: not the pool");
	ok(job_gap_judge(2.0, 5.0, NULL, false, buf, sizeof(buf)) && strstr(buf, "not read here"),
	   "a gap without telemetry: said so");
	struct member_load m[4] = {
		{ "sdp", "raidz1-0", 0.2567, 0.707, 4671, 6080000, 390, false },
		{ "sdq", "raidz1-0", 0.2503, 0.681, 4627, 7609856, 421, false },
		{ "sdr", "raidz1-0", 0.2600, 0.720, 4700, 6900000, 420, false },
		{ "sds", "raidz1-0", 0.9100, 14.20, 4650, 7000000, 415, false },
	};
	struct pool_findings load = { 0 };
	is_int(member_load_judge(m, 4, &load), 2, "the slow member: busy and slow");
	ok(job_gap_judge(2.0, 5.0, &load, true, buf, sizeof(buf)) && strstr(buf, "an uneven pool, member sds of raidz1-0"),
	   "a gap with a member out of line: an uneven pool, that member named");
	pool_findings_release(&load);
	char small[40];
	ok(job_gap_judge(2.0, 5.0, &none, true, small, sizeof(small)) && strlen(small) < sizeof(small),
	   "a short buffer is cut, never overrun");
	return tap_done();
}
