/* report/significance.h: is a change between two measurements real?
 *
 * The rule (docs/results.md, "compare"): each measurement's noise is the
 * standard deviation of its own samples (per-interval bandwidth samples of
 * the built-in engine, fio's bandwidth samples; at least 3). With noise on
 * at least one side (a side without takes the other's relative noise), a
 * change is significant when it exceeds twice the combined spread,
 * 2 * sqrt(sd_a^2 + sd_b^2), and at least SIG_FLOOR_PCT percent. With no
 * noise on either side it must exceed SIG_NO_NOISE_PCT percent (a latency:
 * SIG_NO_NOISE_LATENCY_PCT). Anything
 * less is "not significant": never a win or a loss.
 */
#ifndef IOTRIAGE_REPORT_SIGNIFICANCE_H
#define IOTRIAGE_REPORT_SIGNIFICANCE_H

#include "report/measure.h"

#define SIG_FLOOR_PCT 3.0
#define SIG_NO_NOISE_PCT 10.0
/* Tail latency of identical short runs moves by tens of percent; without
 * samples of its own, only a doubling (or halving) of it counts. */
#define SIG_NO_NOISE_LATENCY_PCT 100.0

enum sig_verdict { SIG_BETTER, SIG_WORSE, SIG_NOT_SIGNIFICANT, SIG_NO_DATA };

struct sig_judgement {
	enum sig_verdict verdict;
	double change_pct;     /* 100 * (b - a) / a; NAN without data */
	double threshold_pct;  /* the change needed to count, in percent of a */
	const char *basis;     /* "noise" or "no noise measure (10% rule)" */
};

/* B against A (the baseline). */
void sig_judge(const struct measure *a, const struct measure *b, struct sig_judgement *ret);
/* "better", "worse", "not significant", "no data". */
const char *sig_verdict_name(enum sig_verdict v);

#endif
