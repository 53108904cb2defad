/* report/significance.h: is a change between two measurements real?
 *
 * The rule (docs/results.md, "compare"): each measurement's noise is the
 * standard deviation of its own samples (per-interval bandwidth samples of
 * the built-in engine, fio's bandwidth samples; at least 3). With noise on
 * at least one side (a side without takes the other's relative noise), a
 * change is significant when it exceeds k times the combined spread,
 * k * sqrt(sd_a^2 + sd_b^2), and at least SIG_FLOOR_PCT percent, where k is
 * 2 for 11 samples or more and Student's t at 97.5% for fewer (4.3 for
 * three samples); or when the two runs' samples do not overlap at all and
 * each has at least 6 (with fewer, complete separation happens by chance
 * too often: one time in ten with 3 and 3). When both sides are sets of
 * repeat runs (measure_combine_repeats), their noise is the spread between
 * runs, which is what the floor stands in for, so the floor is
 * SIG_REPEAT_FLOOR_PCT instead. With no
 * noise on either side it must exceed SIG_NO_NOISE_PCT percent; a latency
 * without noise is "not judged". Anything
 * less is "not significant": never a win or a loss.
 */
#ifndef IOTRIAGE_REPORT_SIGNIFICANCE_H
#define IOTRIAGE_REPORT_SIGNIFICANCE_H

#include "report/measure.h"

/* The samples inside a run miss what changes between runs: two single runs
 * of the same workload on the same device, each with steady samples,
 * differed by 22% in an ASan CI run on this shared 2-core machine, and by
 * 27% in another. So a change between single runs must also reach this
 * floor; repeat runs (ID+ID+ID) measure that drift instead. */
#define SIG_FLOOR_WHOLE 40
#define SIG_NO_NOISE_WHOLE 40
#define SIG_FLOOR_PCT ((double)SIG_FLOOR_WHOLE)
#define SIG_NO_NOISE_PCT ((double)SIG_NO_NOISE_WHOLE)
/* Between sets of repeat runs the spread between runs is measured, but runs
 * made one after another share the machine's state of the moment: two sets
 * of three unthrottled runs of one workload, each set steady, differed by
 * 13.3% (bench/compare_repeats.sh). So a change between sets must also
 * reach this floor. */
#define SIG_REPEAT_FLOOR_WHOLE 15
#define SIG_REPEAT_FLOOR_PCT ((double)SIG_REPEAT_FLOOR_WHOLE)
/* A floor as text for documentation strings: SIG_TEXT(SIG_FLOOR_WHOLE) "%". */
#define SIG_TEXT_(x) #x
#define SIG_TEXT(x) SIG_TEXT_(x)
/* A latency with no samples of its own is not judged: the p99 of identical
 * short runs differed by up to 2.8x (bench/compare_noise.sh). */

enum sig_verdict { SIG_BETTER, SIG_WORSE, SIG_NOT_SIGNIFICANT, SIG_NO_DATA, SIG_NOT_JUDGED, SIG_NVERDICTS };

struct sig_judgement {
	enum sig_verdict verdict;
	double change_pct;     /* 100 * (b - a) / a; NAN without data */
	double threshold_pct;  /* the change needed to count, in percent of a */
	double noise_pct;      /* the runs' own noise limit (k times the combined spread) before
				* the floor; NAN without noise */
	const char *basis;     /* "noise" or "no noise measure (10% rule)" */
};

/* B against A (the baseline). */
void sig_judge(const struct measure *a, const struct measure *b, struct sig_judgement *ret);
/* "better", "worse", "not significant", "no data", "not judged". */
const char *sig_verdict_name(enum sig_verdict v);

#endif
