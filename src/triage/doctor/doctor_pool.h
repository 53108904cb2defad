/* triage/doctor/doctor_pool.h: the evidence of doctor's pool step beyond the RAM
 * twin.
 *
 * doctor_pool_before() reads the pool's settings and state (judged against
 * the step's 1 MiB sequential workload) and starts sampling its members;
 * doctor_pool_after() stops the sampling and computes what the pool's
 * layout can deliver from the members' raw read rates of step 1
 * (pool/layout_model.h; btrfs: the data profile from `btrfs filesystem
 * usage`). doctor_pool_judge() says each figure as a percentage of that
 * expectation, judges it against the per-kind thresholds of
 * triage/doctor/doctor_judgement.h, and writes the cause: the layout's shortfall
 * and every finding of the settings, state and member loads, or "no
 * pool-layer finding" with the figures. */
#ifndef IOTRIAGE_TRIAGE_DOCTOR_POOL_H
#define IOTRIAGE_TRIAGE_DOCTOR_POOL_H

#include <stdbool.h>

#include "basic/strbuf.h"
#include "triage/doctor/doctor_report.h"

void doctor_pool_before(struct doctor *dr);
void doctor_pool_after(struct doctor *dr);
/* Fills DR->layout_sentence; appends the cause to CAUSE. Returns whether
 * the layout rule names the pool. */
bool doctor_pool_judge(struct doctor *dr, struct strbuf *cause);
/* The pool-layer findings (settings, state, member loads) as one sentence
 * appended to OUT; returns how many. */
size_t doctor_pool_findings(const struct doctor *dr, struct strbuf *out);

/* The pool's state explains a loss on its own: a resilver or scrub running,
 * a vdev or member not ONLINE (DEGRADED, OFFLINE, FAULTED, UNAVAIL,
 * REMOVED), a log slower than the data vdevs under sync writes. Appends
 * each with its evidence to CAUSE; true when any. */
bool doctor_pool_state_stands_out(const struct doctor *dr, struct strbuf *cause);

#endif
