/* Outlier analysis: robust against noise, finds the one slow disk, compares
 * like with like, and says when there are too few peers. */
#include <string.h>

#include "media/outlier.h"
#include "tap.h"

static const struct outlier_params *P = &outlier_default_params;

static void analyze(const double *bw, const char *const *group, size_t n, struct outlier_finding *out)
{
	struct outlier_sample s[16];
	for (size_t i = 0; i < n; i++)
		s[i] = (struct outlier_sample){ .bw = bw[i], .ok = bw[i] > 0, .group = group ? group[i] : "g" };
	outlier_analyze(s, n, P, out);
}

int main(void)
{
	struct outlier_finding f[16];

	const double five_one_slow[] = { 1000, 980, 1010, 600, 995, 1005 };
	analyze(five_one_slow, NULL, 6, f);
	is_int(f[3].flag, OUTLIER_SLOW, "a disk at 60% of five identical peers is slow");
	ok(f[3].ratio > 0.59 && f[3].ratio < 0.61, "its ratio is 0.6");
	is_int(f[3].set_size, 6, "judged in the set of six");
	int others = 0;
	for (int i = 0; i < 6; i++)
		others += i != 3 && f[i].flag != OUTLIER_NONE;
	is_int(others, 0, "and no other disk is flagged: the slow one does not drag the median");

	const double noisy[] = { 1000, 930, 1060, 970, 1040, 985 };
	analyze(noisy, NULL, 6, f);
	int flagged = 0;
	for (int i = 0; i < 6; i++)
		flagged += f[i].flag != OUTLIER_NONE;
	is_int(flagged, 0, "+-7% noise flags nothing");

	/* Two models: SSDs at 500, HDDs at 150. Compared within their model, nothing is off. */
	const double mixed[] = { 500, 510, 495, 150, 148, 152 };
	const char *const groups[] = { "ssd|1", "ssd|1", "ssd|1", "hdd|4", "hdd|4", "hdd|4" };
	analyze(mixed, groups, 6, f);
	flagged = 0;
	for (int i = 0; i < 6; i++)
		flagged += f[i].flag != OUTLIER_NONE;
	is_int(flagged, 0, "different models are compared within their own group");
	ok(f[4].peers_are_group && f[4].set_size == 3, "the set is the same-model group");
	const double mixed_slow[] = { 500, 510, 495, 150, 80, 152 };
	analyze(mixed_slow, groups, 6, f);
	is_int(f[4].flag, OUTLIER_SLOW, "a slow HDD among HDDs is found");
	is_int(f[0].flag, OUTLIER_NONE, "the SSDs are not affected by it");

	const double fast[] = { 100, 101, 99, 100, 180 };
	analyze(fast, NULL, 5, f);
	is_int(f[4].flag, OUTLIER_FAST, "a disk at 180% is fast");

	const double two[] = { 100, 50 };
	analyze(two, NULL, 2, f);
	is_int(f[1].flag, OUTLIER_NO_PEERS, "two disks are too few to judge: either could be the odd one");
	const double three[] = { 1000, 20, 1100 };
	analyze(three, NULL, 3, f);
	ok(f[1].flag == OUTLIER_SLOW && f[0].flag == OUTLIER_NONE && f[2].flag == OUTLIER_NONE,
	   "of three, the slow one is slow and its two siblings are not made fast by it");

	const double flat[] = { 100, 100, 100, 80 };
	analyze(flat, NULL, 4, f);
	is_int(f[3].flag, OUTLIER_NONE, "80% of identical peers is within the ratio limit");
	ok(f[3].peer_spread == 0, "identical peers have no spread");
	const double flat2[] = { 100, 100, 100, 70 };
	analyze(flat2, NULL, 4, f);
	is_int(f[3].flag, OUTLIER_SLOW, "70% of identical peers is slow by the ratio alone");

	/* Noisy peers (a VM's disks) widen the spread, but half the median is
	 * always the finding. */
	const double wide[] = { 1500, 300, 2000, 1600, 16 };
	analyze(wide, NULL, 5, f);
	is_int(f[4].flag, OUTLIER_SLOW, "a disk at 1% of noisy peers is slow whatever their spread");
	const double wide2[] = { 1500, 700, 2000, 1600, 900 };
	analyze(wide2, NULL, 5, f);
	is_int(f[4].flag, OUTLIER_NONE, "60% of very noisy peers is not enough evidence");

	const double errored[] = { 100, 0, 101, 99, 60 };
	analyze(errored, NULL, 5, f);
	ok(f[4].flag == OUTLIER_SLOW && f[4].set_size == 4, "a disk that failed to read is not in the set");

	analyze(five_one_slow, NULL, 6, f);
	is_int(outlier_classify(610, &f[3], P), OUTLIER_SLOW, "a confirming re-read at 61% is slow");
	is_int(outlier_classify(990, &f[3], P), OUTLIER_NONE, "a re-read at 99% is not");

	char a[64], b[64], c[64];
	outlier_group_key("ST4000", 4000787030016ULL, a, sizeof(a));
	outlier_group_key("ST4000", 4001000000000ULL, b, sizeof(b));
	outlier_group_key("ST4000", 2000398934016ULL, c, sizeof(c));
	is_str(a, b, "the same model and size class share a group");
	ok(strcmp(a, c) != 0, "a different size is a different group");
	double v[] = { 5, 1, 3 };
	ok(median_of(v, 3) == 3, "median of three");
	double w[] = { 4, 1, 3, 2 };
	ok(median_of(w, 4) == 2.5, "median of four");
	return tap_done();
}
