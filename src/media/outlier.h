/* media/outlier.h: which disk is slower than its peers, found with robust
 * statistics (median and median absolute deviation), never the mean: one
 * failing disk must not drag the reference down with it.
 *
 * A disk is compared with the median of its set: the disks of its group
 * (model and size class, see outlier_group_key()) that read without error,
 * when there are at least OUTLIER_MIN_SET of them, otherwise every disk that
 * read. The set includes the disk itself: with three or more disks, one
 * outlier cannot move the median past its neighbours, whereas leaving it
 * out of a set of three would compare each good disk with the mean of the
 * other good one and the bad one. A disk is
 * "slow" when it reads at half that median or less (a drive at a third or a half
 * of its identical siblings' rate is the finding, whatever the absolute
 * figures are), or below slow_ratio of it AND (when the peers
 * vary at all) more than z_limit robust deviations below it; "fast" is the
 * mirror image (twice the median, or fast_ratio and z_limit). Pure
 * functions: no I/O, no printing.
 */
#ifndef IOTRIAGE_MEDIA_OUTLIER_H
#define IOTRIAGE_MEDIA_OUTLIER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define OUTLIER_MIN_SET 3

struct outlier_params {
	double slow_ratio;   /* default 0.75: below 75% of the peers' median */
	double fast_ratio;   /* default 1.33 */
	double z_limit;      /* default 3.5 robust standard deviations */
	double certain_slow; /* default 0.5: at or below this ratio, slow whatever the spread */
	double certain_fast; /* default 2.0 */
};

extern const struct outlier_params outlier_default_params;
/* For a latency, where only a high value is a finding: at twice the
 * peers' median and more than z_limit deviations above it, or at four
 * times it whatever the spread; never low. */
extern const struct outlier_params outlier_tail_params;

enum outlier_flag { OUTLIER_NONE, OUTLIER_SLOW, OUTLIER_FAST, OUTLIER_NO_PEERS };

struct outlier_sample {
	double bw;           /* bytes per second; ignored when !ok */
	bool ok;             /* read without error */
	const char *group;   /* from outlier_group_key() */
};

struct outlier_finding {
	enum outlier_flag flag;
	double peer_median;  /* median of the set, bytes per second */
	double ratio;        /* bw / peer_median */
	double peer_spread;  /* 1.4826 * MAD of the set: its standard deviation, robustly */
	double robust_z;     /* (bw - median) / peer_spread; 0 when the spread is 0 */
	size_t set_size;     /* disks in the set, this one included */
	bool peers_are_group; /* the set is its model/size group */
};

/* Fills OUT[i] for every ok sample. */
void outlier_analyze(const struct outlier_sample *s, size_t n, const struct outlier_params *p,
		     struct outlier_finding *out);

/* Classifies BW against an already computed finding's peers (for re-reads). */
enum outlier_flag outlier_classify(double bw, const struct outlier_finding *peers,
				   const struct outlier_params *p);

/* "model|size class": size rounded to 2 significant digits in GB, so
 * disks of one product line with slightly different capacities group. */
void outlier_group_key(const char *model, uint64_t size_bytes, char *buf, size_t len);

double median_of(double *values, size_t n); /* sorts VALUES */

#endif
