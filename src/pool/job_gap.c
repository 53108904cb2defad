/* pool/job_gap.c: a pass's first-done against last-done (see job_gap.h). */
#include "pool/job_gap.h"

#include <stdio.h>
#include <string.h>

bool job_gap_judge(double first, double last, const struct pool_findings *load, bool members_sampled, char *buf,
		   size_t len)
{
	buf[0] = '\0';
	if (!(first > 0) || last < JOB_GAP_RATIO * first || last - first < JOB_GAP_MIN_S)
		return false;
	int n = snprintf(buf, len, "the jobs finished between %.2f and %.2f s (the last took %.1fx the first's time)",
			 first, last, last / first);
	if (n < 0 || (size_t)n >= len)
		return true;
	if (!members_sampled) {
		snprintf(buf + n, len - (size_t)n, ": an uneven pool or a contended device, which the members' "
			 "telemetry (not read here) would tell apart");
		return true;
	}
	if (!load || load->count == 0) {
		snprintf(buf + n, len - (size_t)n, ", but the pool's members worked evenly: not the pool (the CPU or "
			 "the scheduler parted them)");
		return true;
	}
	const struct pool_finding *f = &load->items[0];
	snprintf(buf + n, len - (size_t)n, ": an uneven pool, %s (%s)%s", f->text, f->evidence,
		 load->count > 1 ? ", and more members out of line" : "");
	return true;
}
