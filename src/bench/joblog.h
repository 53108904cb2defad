/* bench/joblog.h: fio's time-series and histogram logs of a job
 * (write_bw_log, write_iops_log, write_lat_log, write_hist_log), collected
 * while the job runs (bench/job.c hands every counted completion to
 * joblog_io, from the worker that completed it) and written afterwards in
 * fio 3.33's formats, so fio's tools (fio2gnuplot, fio_generate_plots,
 * fiologparser_hist.py, fio-plot) read them.
 *
 * The files, N the worker's number as fio numbers its threads (1 for the
 * first clone of the first job, on across the file's jobs):
 *   PREFIX_bw.N.log    KiB/s          PREFIX_iops.N.log   I/Os per second
 *   PREFIX_lat.N.log   ns, queue to completion (fio's lat)
 *   PREFIX_clat.N.log  ns, submission to completion (fio's clat)
 *   PREFIX_slat.N.log  ns, queue to submission; empty for an engine that
 *                      does not separate them (fio's synchronous engines too)
 *   PREFIX_clat_hist.N.log  clat histograms; empty without log_hist_msec
 * A line is "time_ms, value, ddir, bs, prio" ("time_ms, value, ddir, bs,
 * offset, prio" with log_offset); ddir 0 read, 1 write; prio always 0. Times
 * are milliseconds from the end of the ramp (samples, like every statistic,
 * start after it). Without log_avg_msec every I/O is a line (bw: its bytes
 * over its clat, iops: 1); with it, one line per interval and direction:
 * bw and iops over each whole interval (a last, partial one dropped), the
 * latencies' mean (or max with log_max_value) over the I/Os completed in it
 * (what is left at the end flushed, as fio's finalize_logs), bs 0.
 * A histogram line is "time_ms, ddir, bs, c0, c1, ..." with fio's 1856
 * latency buckets (FIO_IO_U_PLAT_NR: the same log-linear layout as
 * bench/histogram.h, the last bucket holding everything above) summed in
 * groups of 2^log_hist_coarseness, counting the I/Os completed since the
 * line before, one line per log_hist_msec and direction.
 */
#ifndef IOTRIAGE_BENCH_JOBLOG_H
#define IOTRIAGE_BENCH_JOBLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JOBLOG_PLAT_NR 1856      /* fio's FIO_IO_U_PLAT_NR */
#define JOBLOG_MAX_COARSENESS 6  /* fio's log_hist_coarseness range */

enum joblog_kind { JOBLOG_BW, JOBLOG_IOPS, JOBLOG_LAT, JOBLOG_CLAT, JOBLOG_SLAT, JOBLOG_HIST, JOBLOG_KINDS };

/* What the job file asks for: a prefix per log ("" none). */
struct joblog_spec {
	char bw[256], iops[256], lat[256], hist[256];
	unsigned avg_msec;       /* log_avg_msec; 0: a line per I/O */
	unsigned hist_msec;      /* log_hist_msec; 0: no histogram lines */
	unsigned hist_coarseness;
	bool log_max;            /* log_max_value: the interval's largest, not its mean */
	bool log_offset;         /* the offset column */
	unsigned first_jobnum;   /* fio's number of the job's first worker (1-based) */
};

struct joblog_sample {
	uint64_t time_ms, value, offset;
	uint32_t bs;
	uint8_t ddir;
};

struct joblog_series {
	struct joblog_sample *v;
	size_t n, cap;
};

/* One completed, counted I/O, times in ns from the end of the ramp. */
struct joblog_io {
	uint64_t done_ns, submit_ns;
	uint64_t lat_ns, clat_ns, slat_ns;
	uint64_t offset;
	uint32_t bytes;
	int ddir;                /* 0 read, 1 write */
	bool has_slat;
};

struct joblog_worker;

struct joblog {
	struct joblog_spec spec;
	unsigned nr_workers;
	struct joblog_worker *workers;
};

/* Whether SPEC asks for any log. */
bool joblog_wanted(const struct joblog_spec *spec);

/* Room for NR workers (bench/job.c, before they start). -ENOMEM or 0. */
int joblog_begin(struct joblog *log, unsigned nr);
/* Worker W's completion IO: its lines (or its share of an interval's). */
void joblog_io(struct joblog *log, unsigned w, const struct joblog_io *io);
/* Worker W has ended at END_NS: the averaged latencies left are flushed. */
void joblog_finish(struct joblog *log, unsigned w, uint64_t end_ns);

/* Worker W's lines of KIND (not JOBLOG_HIST), for a document's series. */
const struct joblog_series *joblog_series(const struct joblog *log, unsigned w, enum joblog_kind kind);

/* Whether the job asked for the log of KIND (lat, clat and slat come together). */
bool joblog_asked(const struct joblog *log, enum joblog_kind kind);

/* The file of KIND for worker W: PREFIX_KIND.N.log (fio's name). */
void joblog_path(const struct joblog *log, enum joblog_kind kind, unsigned w, char *buf, size_t len);
/* Worker W's log of KIND as fio writes it, appended to OUT. */
struct strbuf;
void joblog_format(const struct joblog *log, enum joblog_kind kind, unsigned w, struct strbuf *out);

/* Every file asked for, each written whole (write_file_atomic); returns
 * the number written, or -errno with WHY naming the file. */
int joblog_write(const struct joblog *log, char *why, size_t len);

void joblog_release(struct joblog *log);

#endif
