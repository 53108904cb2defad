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
	default:
		return "no data";
	}
}

void sig_judge(const struct measure *a, const struct measure *b, struct sig_judgement *ret)
{
	*ret = (struct sig_judgement){ SIG_NO_DATA, NAN, NAN, NULL };
	if (!isfinite(a->value) || !isfinite(b->value) || a->value <= 0 || strcmp(a->status, "ok") != 0 ||
	    strcmp(b->status, "ok") != 0)
		return;
	double sa = a->noise_sd, sb = b->noise_sd;
	bool has_a = isfinite(sa), has_b = isfinite(sb);
	ret->change_pct = 100.0 * (b->value - a->value) / a->value;
	if (has_a || has_b) {
		/* A side without samples is taken to be as noisy, relatively, as the other. */
		if (!has_a)
			sa = sb / b->value * a->value;
		if (!has_b)
			sb = b->value > 0 ? sa / a->value * b->value : sa;
		ret->threshold_pct = 100.0 * 2.0 * sqrt(sa * sa + sb * sb) / a->value;
		if (ret->threshold_pct < SIG_FLOOR_PCT)
			ret->threshold_pct = SIG_FLOOR_PCT;
		ret->basis = "noise";
	} else {
		bool latency = a->unit == MU_NS;
		ret->threshold_pct = latency ? SIG_NO_NOISE_LATENCY_PCT : SIG_NO_NOISE_PCT;
		ret->basis = latency ? "no noise measure (latency: 100% rule)" : "no noise measure (10% rule)";
	}
	if (fabs(ret->change_pct) <= ret->threshold_pct)
		ret->verdict = SIG_NOT_SIGNIFICANT;
	else
		ret->verdict = (ret->change_pct > 0) == a->higher_is_better ? SIG_BETTER : SIG_WORSE;
}
