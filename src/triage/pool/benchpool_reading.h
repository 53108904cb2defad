/* triage/pool/benchpool_reading.h: what benchpool's 4 KiB random pass means for
 * the pool's layout, said as the manual asks the reader to judge it.
 *
 * Around each random pass (the poolbench engines call the pb_context's
 * random_mark hook) the pool's members' /proc/diskstats counters are read;
 * after the test, the pass's read figure, those counters and the pool's
 * layout go to pool/random_layout.h, which says whether the pass was
 * limited by the layout (a raidz vdev whose records span its data columns:
 * about one member's random IOPS), by the disks, or by neither, with the
 * expected and measured IOPS and the advice. Only on ZFS, where the layout
 * and the members are known and sampled (triage/pool/pool_evidence.h); anything
 * else is said in the reading's note, never guessed. And, for every pass of
 * several jobs, the gap between the first and the last to finish, judged
 * with the members' telemetry (pool/job_gap.h). Logs under BENCHPOOL;
 * never writes stdout.
 */
#ifndef IOTRIAGE_TRIAGE_BENCHPOOL_READING_H
#define IOTRIAGE_TRIAGE_BENCHPOOL_READING_H

#include <stdbool.h>
#include <stdint.h>

#include "disk/diskstats.h"
#include "output/json.h"
#include "pool/random_layout.h"
#include "poolbench/poolbench.h"
#include "triage/pool/pool_evidence.h"

/* The random area's record size (pool/areas: the "4k" area), and the
 * random pass's I/O size. */
#define BENCHPOOL_RANDOM_RECORD 4096
#define BENCHPOOL_RANDOM_IO 4096

struct benchpool_reading {
	const struct pool_evidence *evidence;
	unsigned record;              /* the random area's record (or a zvol's volblock) size */
	struct diskstat *begin;       /* the members' counters when the pass began */
	uint64_t begin_ns;
	struct diskstat_delta *window;/* and what they did until it ended */
	bool have_window;
	bool judged[PB_NTESTS];
	struct random_reading readings[PB_NTESTS];
	char note[PB_NTESTS][200];    /* why a test's pass has no reading ("" when it has one) */
	const char *sector_from[PB_NTESTS]; /* where its sector size came from ("the member's label") */
	unsigned sector;              /* the pool's, found once (zdb -l) for every pass; 0 until then */
	const char *sector_source;
	char gap[PB_NTESTS][600];     /* its jobs' first-done against last-done, judged (pool/job_gap); "" */
};

/* R reads E's members (E must outlive R). */
void benchpool_reading_init(struct benchpool_reading *r, const struct pool_evidence *e);

/* The hook for pb_context.random_mark: ARG is a struct benchpool_reading. */
void benchpool_reading_mark(void *arg, bool begin);

/* After test O ran: its random pass judged when a window was taken (logged). */
void benchpool_reading_judge(struct benchpool_reading *r, const struct pb_outcome *o);

/* After the tests, the members' telemetry read: each test's jobs'
 * first-done against last-done judged with it (pool/job_gap), logged. */
void benchpool_reading_gaps(struct benchpool_reading *r, const struct pb_outcome *o, size_t n);

/* Member "random_reading" of the open object J for test T, when it has one or a note. */
void benchpool_reading_json(struct json *j, const struct benchpool_reading *r, enum pb_test t);

void benchpool_reading_release(struct benchpool_reading *r);

#endif
