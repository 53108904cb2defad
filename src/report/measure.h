/* report/measure.h: a stored run's document read back as measurements,
 * the one shape show, compare and every report format work from.
 *
 * A measurement is one figure of one test on one target: "seqread-64k" on
 * "rs8k-comp-off" at 212 MB/s, higher is better, with the run's own noise
 * (the standard deviation of its per-interval samples) when it has one.
 * Documents of run, readdisk(s)/demo/readpooldisks, matrix, benchpool,
 * rwpool(s)/runall, volumes, presets (IOPS and bandwidth per test), fleet --fio (each client's rate under its host,
 * and the aggregate) and netcheck --peer (TCP throughput per port and peer)
 * give measurements; others give none.
 * Library code: no printing, -errno.
 */
#ifndef IOTRIAGE_REPORT_MEASURE_H
#define IOTRIAGE_REPORT_MEASURE_H

#include <stdbool.h>
#include <stddef.h>

#include "basic/jsonread.h"

enum measure_unit { MU_BYTES_PER_S, MU_IOPS, MU_NS };

struct measure {
	char *test;              /* what was run: "seqread-64k", "run randread 4K qd1 x1" */
	const char *metric;      /* "bandwidth", "p99 latency", "max latency" */
	enum measure_unit unit;
	bool higher_is_better;
	char *target;            /* what it ran on: a path, a device, a matrix target's label */
	double value;            /* NAN when not measured */
	double noise_sd;         /* standard deviation of the samples; NAN when unknown */
	unsigned noise_n;        /* how many samples */
	double noise_min, noise_max; /* the lowest and highest sample; NAN when unknown */
	const char *noise_basis; /* "per-interval samples", "fio bandwidth samples", "repeat runs",
				  * "preset loops", or NULL */
	bool between_runs;       /* the noise is the spread between repeat runs (measure_combine_repeats) */
	char *status;            /* "ok", "error", "skipped", ... */
	char *reason;            /* NULL or why */
	char *params;            /* the test's exact parameters, "key=value, ..." */
	bool outlier;            /* readdisks: the disk's verdict is slow or fast */
	bool per_disk;           /* from a read test of disks: drawn as a per-disk chart */
};

/* The percentiles a latency curve is drawn through, in order. */
#define LAT_CURVE_POINTS 5
extern const char *const lat_curve_names[LAT_CURVE_POINTS]; /* "p50", "p90", "p99", "p99.9", "p99.99" */

/* One latency distribution of a run (a result's "lat_ns" with I/Os in it):
 * its percentiles in ns, NAN where the document has none. */
struct lat_curve {
	char *label;             /* "run randread 4K qd1 x1 on /dev/loop3" */
	double ns[LAT_CURVE_POINTS];
	double max_ns;
};

struct run_doc {
	struct jv *doc;
	char *id, *command, *host, *started_at, *argv;
	int exit_status;
	struct measure *m;
	size_t n, cap;
	struct lat_curve *curves; /* every latency the document carries, in its order */
	size_t ncurves, curves_cap;
};

/* Parses TEXT (a stored document) and extracts its measurements. Returns 0,
 * or -EINVAL with a message in ERR when it is not a JSON object. */
int run_doc_load(const char *text, size_t len, struct run_doc *ret, char *err, size_t errlen);
void run_doc_release(struct run_doc *d);

/* "bandwidth" in B/s, IOPS or ns: the unit as text ("B/s", "IOPS", "ns"). */
const char *measure_unit_name(enum measure_unit u);
/* VALUE for people: "212.4 MB/s", "1520 IOPS", "1.25 ms". */
void measure_format(enum measure_unit u, double value, char *buf, size_t len);

/* Whether A and B measure the same thing (test and metric). */
bool measure_same_test(const struct measure *a, const struct measure *b);

/* One measurement from the same one in N repeat runs (N >= 2): the mean of
 * their values, and as its noise the spread between the runs (standard
 * deviation, lowest, highest; N samples): what changes from run to run,
 * which a single run's own samples cannot show. A run that did not measure
 * it (status not "ok", no value) makes the whole NAN with that run's status.
 * The strings are borrowed from MS[0]. */
void measure_combine_repeats(const struct measure *const *ms, size_t n, struct measure *ret);

#endif
