/* report/significance.c: the noise rule of compare (see significance.h). */
#include "report/significance.h"

#include <math.h>
#include <string.h>

const char *sig_verdict_name(enum sig_verdict v)
{
	switch (v) {
	case SIG_BETTER:
		return "better";
	case SIG_WORSE:
		return "worse";
	case SIG_NOT_SIGNIFICANT:
		return "not significant";
	case SIG_NOT_JUDGED:
		return "not judged";
	default:
		return "no data";
	}
}

/* How many spreads a change must exceed: 2 for well-sampled runs, and
 * Student's t at 97.5% for few samples (a spread from three samples is a
 * poor estimate: t(2 degrees of freedom) is 4.3, not 2). */
static double spread_factor(unsigned n)
{
	/* Indexed by the number of samples (degrees of freedom n - 1). */
	static const double t975[] = { 12.71, 12.71, 12.71, 4.30, 3.18, 2.78, 2.57, 2.45, 2.36, 2.31, 2.26 };
	return n < sizeof(t975) / sizeof(t975[0]) ? t975[n] : 2.0;
}

/* Complete separation of the samples means a real difference only when
 * there are enough of them: with 3 and 3 it happens by chance one time in
 * ten (2 / C(6,3)); with 6 and 6, about one time in 460. */
#define DISJOINT_MIN_SAMPLES 6

void sig_judge(const struct measure *a, const struct measure *b, struct sig_judgement *ret)
{
	*ret = (struct sig_judgement){ SIG_NO_DATA, NAN, NAN, NAN, NULL };
	if (!isfinite(a->value) || !isfinite(b->value) || a->value <= 0 || strcmp(a->status, "ok") != 0 ||
	    strcmp(b->status, "ok") != 0)
		return;
	double sa = a->noise_sd, sb = b->noise_sd;
	bool has_a = isfinite(sa), has_b = isfinite(sb);
	/* Two sets of repeat runs measured the drift between runs themselves. */
	bool repeats = a->between_runs && b->between_runs;
	double floor_pct = repeats ? SIG_REPEAT_FLOOR_PCT : SIG_FLOOR_PCT;
	ret->change_pct = 100.0 * (b->value - a->value) / a->value;
	if (has_a || has_b) {
		/* A side without samples is taken to be as noisy, relatively, as the other. */
		if (!has_a)
			sa = sb / b->value * a->value;
		if (!has_b)
			sb = b->value > 0 ? sa / a->value * b->value : sa;
		unsigned n = has_a && has_b ? (a->noise_n < b->noise_n ? a->noise_n : b->noise_n)
					    : has_a ? a->noise_n : b->noise_n;
		ret->threshold_pct = 100.0 * spread_factor(n) * sqrt(sa * sa + sb * sb) / a->value;
		ret->noise_pct = ret->threshold_pct;
		if (ret->threshold_pct < floor_pct)
			ret->threshold_pct = floor_pct;
		ret->basis = repeats ? "noise between repeat runs" : "noise";
	} else {
		if (a->unit == MU_NS) {
			ret->verdict = SIG_NOT_JUDGED;
			ret->basis = "a latency without samples of its own is not judged";
			return;
		}
		ret->threshold_pct = SIG_NO_NOISE_PCT;
		ret->basis = "no noise measure (40% rule)";
	}
	/* Samples that do not overlap at all: whatever the spread, the two runs differ. */
	bool disjoint = isfinite(a->noise_min) && isfinite(a->noise_max) && isfinite(b->noise_min) &&
			isfinite(b->noise_max) && a->noise_n >= DISJOINT_MIN_SAMPLES && b->noise_n >= DISJOINT_MIN_SAMPLES &&
			(b->noise_max < a->noise_min || b->noise_min > a->noise_max);
	bool separated = disjoint && fabs(ret->change_pct) > floor_pct;
	if (separated)
		ret->basis = "noise (the runs' samples do not overlap)";
	if (fabs(ret->change_pct) <= ret->threshold_pct && !separated)
		ret->verdict = SIG_NOT_SIGNIFICANT;
	else
		ret->verdict = (ret->change_pct > 0) == a->higher_is_better ? SIG_BETTER : SIG_WORSE;
}
