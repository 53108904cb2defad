/* render/pool.h: the pool tests' results on the terminal: benchpool's
 * table of figures and its notes, the pool's findings; rwpool's line per
 * pool and runall's members of a pool. */
#ifndef IOTRIAGE_RENDER_POOL_H
#define IOTRIAGE_RENDER_POOL_H

#include "triage/pool/benchpool.h"
#include "triage/media/read_batch.h"
#include "triage/pool/rwpool.h"

/* benchpool: the table (a row per figure, or the reason a test has none)
 * and the notes under it; then the pool's findings (settings and state,
 * then its members under load), a line each. To stdout. */
void benchpool_print(const struct benchpool_result *b);
void benchpool_findings_print(const struct benchpool_result *b);

/* rwpool: "POOL (FSTYPE, MOUNTPOINT):" and what was written and read, or
 * why it failed; runall: "Members of POOL:" and their read batch. To stdout. */
void rwpool_print(const struct rwpool_result *r);
void rwpool_members_print(const char *pool, const struct read_batch *b);

#endif
