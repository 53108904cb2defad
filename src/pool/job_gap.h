/* pool/job_gap.h: the gap between the first and the last of a pass's jobs to
 * finish, read as the appliance manual reads elbencho's first-done and
 * last-done: a wide gap "points at an uneven pool or a contended device".
 *
 * Equal jobs on an even pool finish together. The gap alone cannot say why
 * they did not (a busy CPU parts them as well), so it is judged with the
 * pool's members' telemetry as its evidence: with a member that worked
 * harder or slower than its vdev siblings (pool/member_load.h's findings)
 * the gap is an uneven pool, that member named; with even members it is
 * said not to be the pool's. A gap counts when the last job took at least
 * JOB_GAP_RATIO times the first's time and JOB_GAP_MIN_S longer. Pure.
 */
#ifndef IOTRIAGE_POOL_JOB_GAP_H
#define IOTRIAGE_POOL_JOB_GAP_H

#include <stdbool.h>
#include <stddef.h>

#include "pool/finding.h"

#define JOB_GAP_RATIO 1.5
#define JOB_GAP_MIN_S 0.5

/* FIRST and LAST: when the first and the last job finished (seconds into
 * the pass); LOAD the members' findings (NULL or empty: even members);
 * MEMBERS_SAMPLED whether there was telemetry at all. Returns true with the
 * sentence in BUF when the gap counts, false (BUF empty) when it does not. */
bool job_gap_judge(double first, double last, const struct pool_findings *load, bool members_sampled, char *buf,
		   size_t len);

#endif
