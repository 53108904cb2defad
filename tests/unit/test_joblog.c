/* test_joblog.c: bench/joblog.c, fio's logs written as fio 3.33 writes them
 * (checked against fio's own logs captured in tests/data/fio_logs/, made by
 * the .fio files beside them), and bench/job.c feeding them (the ramp rule). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/strbuf.h"
#include "bench/fiojob.h"
#include "bench/job.h"
#include "bench/joblog.h"
#include "tap.h"
#include "test_data.h"

/* Every line of TEXT: whole numbers separated by ", ", the same number of
 * columns. Returns the columns (0 for an empty text), -1 when a line differs. */
static int shape(const char *text, int *lines)
{
	int cols = 0;
	*lines = 0;
	while (*text) {
		int n = 1;
		const char *p = text;
		for (; *p && *p != '\n'; p++) {
			if (*p == ',' && p[1] == ' ')
				n++, p++;
			else if (*p < '0' || *p > '9')
				return -1;
		}
		if (*lines && n != cols)
			return -1;
		cols = n;
		(*lines)++;
		text = *p ? p + 1 : p;
	}
	return cols;
}

/* Column COL (0-based) of line LINE. */
static unsigned long long field(const char *text, int line, int col)
{
	while (line-- > 0)
		text = strchr(text, '\n') + 1;
	while (col-- > 0)
		text = strchr(text, ',') + 2;
	return strtoull(text, NULL, 10);
}

static void format(const struct joblog *log, enum joblog_kind kind, unsigned w, struct strbuf *sb)
{
	strbuf_reset(sb);
	joblog_format(log, kind, w, sb);
	if (!sb->buf)
		strbuf_adds(sb, "");
}

/* fio's plat_val_to_idx (stat.c), to check the buckets against. */
static unsigned fio_idx(unsigned long long val)
{
	unsigned msb = val ? 63u - (unsigned)__builtin_clzll(val) : 0;
	if (msb <= 6)
		return (unsigned)val;
	unsigned error_bits = msb - 6, base = (error_bits + 1) << 6, offset = 63 & (unsigned)(val >> error_bits);
	return base + offset < JOBLOG_PLAT_NR - 1 ? base + offset : JOBLOG_PLAT_NR - 1;
}

/* A read and a write of 4 KiB every millisecond for 2 s (the last at
 * 2001 ms), clat 100 us, lat 110 us, slat 10 us. */
static void feed(struct joblog *log)
{
	for (uint64_t ms = 1; ms <= 2001; ms++)
		for (int d = 0; d < 2; d++) {
			struct joblog_io io = { .done_ns = ms * 1000000 + 1000, .submit_ns = ms * 1000000 - 100000,
						.lat_ns = 110000, .clat_ns = 100000 + (uint64_t)d * 50000, .slat_ns = 10000,
						.offset = ms * 4096, .bytes = 4096, .ddir = d, .has_slat = true };
			joblog_io(log, 0, &io);
		}
	joblog_finish(log, 0, 2001500000ULL);
}

static void test_averaged(void)
{
	struct joblog log = { .spec = { .bw = "avg", .iops = "avg", .lat = "avg", .hist = "avg", .avg_msec = 500,
					.hist_msec = 500, .hist_coarseness = 1, .first_jobnum = 1 } };
	is_int(joblog_begin(&log, 1), 0, "room for one worker");
	feed(&log);
	struct strbuf sb = STRBUF_INIT;
	size_t n = 0;
	int lines = 0, fio_lines = 0;
	const char *names[] = { "bw", "iops", "lat", "clat", "slat", "clat_hist" };
	for (int k = 0; k < JOBLOG_KINDS; k++) {
		char want[64], name[128];
		snprintf(want, sizeof(want), "fio_logs/fio333_avg_%s.1.log", names[k]);
		const char *fio = test_data(want, &n);
		format(&log, (enum joblog_kind)k, 0, &sb);
		snprintf(name, sizeof(name), "%s: as many columns as fio 3.33's (log_avg_msec, log_hist_coarseness=1)",
			 names[k]);
		is_int(shape(sb.buf, &lines), shape(fio, &fio_lines), name);
		snprintf(name, sizeof(name), "%s: as many lines as fio's over 2 s of a read and write mix", names[k]);
		ok(abs(lines - fio_lines) <= 2, name);
	}
	format(&log, JOBLOG_BW, 0, &sb);
	shape(sb.buf, &lines);
	is_int(lines, 8, "bw: a line per whole 500 ms interval and direction, the partial last one dropped");
	is_int(field(sb.buf, 0, 0), 499, "bw: the interval's end in ms (fio's 1 ms of slack: 499, as its capture)");
	is_int(field(sb.buf, 0, 1), 499 * 4096 * 1000ULL / 499 / 1024, "bw: KiB/s over the interval");
	is_int(field(sb.buf, 1, 2), 1, "bw: the write direction's line");
	is_int(field(sb.buf, 0, 3), 0, "bw: bs 0 in an averaged line, as fio's");
	format(&log, JOBLOG_IOPS, 0, &sb);
	is_int(field(sb.buf, 2, 1), 1000, "iops: I/Os per second over the interval");
	format(&log, JOBLOG_CLAT, 0, &sb);
	shape(sb.buf, &lines);
	is_int(lines, 10, "clat: 4 intervals and the partial one flushed at the end, each direction");
	is_int(field(sb.buf, 1, 1), 150000, "clat: the interval's mean in ns");
	is_int(field(sb.buf, 8, 0), 2001, "clat: the last, partial interval at the worker's end");
	format(&log, JOBLOG_HIST, 0, &sb);
	shape(sb.buf, &lines);
	is_int(shape(sb.buf, &lines), 3 + JOBLOG_PLAT_NR / 2, "hist: time, ddir, bs and 928 bucket pairs");
	is_int(field(sb.buf, 0, 2), 4096, "hist: the block size of the I/O that closed the window");
	unsigned long long total = 0;
	for (int c = 3; c < 3 + JOBLOG_PLAT_NR / 2; c++)
		total += field(sb.buf, 0, c);
	ok(total >= 499 && total <= 501, "hist: the window's I/Os counted once");
	is_int(field(sb.buf, 0, 3 + fio_idx(100000) / 2), total, "hist: every I/O in fio's bucket of its clat");
	strbuf_release(&sb);
	joblog_release(&log);
}

static void test_per_io(void)
{
	struct joblog log = { .spec = { .bw = "unit", .iops = "unit", .lat = "unit", .log_offset = true,
					.first_jobnum = 3 } };
	joblog_begin(&log, 2);
	struct joblog_io io = { .done_ns = 51000000, .lat_ns = 160000, .clat_ns = 159397, .offset = 4046848,
				.bytes = 4096, .ddir = 0 };
	joblog_io(&log, 1, &io);
	struct strbuf sb = STRBUF_INIT;
	size_t n = 0;
	int lines = 0, fio_lines = 0;
	format(&log, JOBLOG_BW, 1, &sb);
	is_int(shape(sb.buf, &lines), shape(test_data("fio_logs/fio333_unit_bw.1.log", &n), &fio_lines),
	       "per I/O with log_offset: fio's 6 columns");
	is_str(sb.buf, "51, 25696, 0, 4096, 4046848, 0\n", "per I/O bw: bytes over clat as fio (its captured line's figures)");
	format(&log, JOBLOG_IOPS, 1, &sb);
	is_str(sb.buf, "51, 1, 0, 4096, 4046848, 0\n", "per I/O iops: 1");
	format(&log, JOBLOG_SLAT, 1, &sb);
	is_str(sb.buf, "", "no slat lines for an engine without submission (as fio's psync)");
	is_int(shape(test_data("fio_logs/fio333_unit_slat.1.log", &n), &fio_lines), 0, "fio's psync slat log is empty too");
	char path[128];
	joblog_path(&log, JOBLOG_BW, 1, path, sizeof(path));
	is_str(path, "unit_bw.4.log", "the second worker of a job whose first is fio's thread 3");
	log.spec.hist[0] = 'h';
	joblog_path(&log, JOBLOG_HIST, 0, path, sizeof(path));
	is_str(path, "h_clat_hist.3.log", "the histogram log's name");
	strbuf_release(&sb);
	joblog_release(&log);
}

/* The ramp rule: I/Os before the ramp's end are in no log. */
static void test_job_ramp(void)
{
	struct joblog log = { .spec = { .iops = "r", .first_jobnum = 1 } };
	struct job_spec spec = { .read_pct = 100, .bs = 4096, .iodepth = 1, .numjobs = 2, .seed = 1,
				 .runtime_ns = 300000000, .ramp_ns = 100000000, .time_based = true, .rate_iops = 1000,
				 .log = &log };
	struct target t = TARGET_INIT;
	t.fd = -1;
	t.size = 1 << 20;
	t.offset_align = 512;
	t.mem_align = 4096;
	struct job_result *r = NULL;
	is_int(job_run(&spec, &t, &engine_null, &r), 0, "a rate-capped null job with a ramp runs");
	size_t logged = joblog_series(&log, 0, JOBLOG_IOPS)->n + joblog_series(&log, 1, JOBLOG_IOPS)->n;
	is_int(logged, r->read_ios, "a line per counted I/O: none of the ramp's");
	const struct joblog_series *s = joblog_series(&log, 0, JOBLOG_IOPS);
	ok(s->n > 0 && s->v[s->n - 1].time_ms <= 310, "times run from the ramp's end to the runtime");
	free(r);
	joblog_release(&log);
}

static void test_parse(void)
{
	struct fiojob_file f;
	char err[256];
	const char *text = "[global]\nwrite_bw_log\nwrite_lat_log=lat\nlog_avg_msec=500\nlog_offset=1\n"
			   "[a]\nwrite_hist_log=h\nlog_hist_msec=250\nlog_hist_coarseness=2\n";
	is_int(fiojob_parse(text, strlen(text), &f, err, sizeof(err)), 0, "the log options parse");
	is_str(f.fio_reason, "", "and run natively");
	is_str(f.jobs[0].logs.bw_name, "a", "a bare write_bw_log is named after the job");
	is_str(f.jobs[0].logs.lat_name, "lat", "write_lat_log's prefix");
	ok(f.jobs[0].logs.hist && f.jobs[0].logs.hist_msec == 250 && f.jobs[0].logs.hist_coarseness == 2 &&
		   f.jobs[0].logs.avg_msec == 500 && f.jobs[0].logs.log_offset && !f.jobs[0].logs.iops,
	   "the intervals, coarseness and log_offset");
	fiojob_file_release(&f);
	text = "[global]\nwrite_bw_log=g\n[a]\nwrite_bw_log\n";
	fiojob_parse(text, strlen(text), &f, err, sizeof(err));
	is_str(f.jobs[0].logs.bw_name, "g", "a bare write_bw_log keeps [global]'s prefix (fio 3.33 does)");
	fiojob_file_release(&f);
	text = "[a]\nwrite_bw_log\nper_job_logs=0\n";
	fiojob_parse(text, strlen(text), &f, err, sizeof(err));
	ok(strstr(f.fio_reason, "per_job_logs") != NULL, "per_job_logs=0 is fio's");
	fiojob_file_release(&f);
	text = "[a]\nwrite_bw_log\nlog_compression=1m\n";
	fiojob_parse(text, strlen(text), &f, err, sizeof(err));
	ok(strstr(f.fio_reason, "log_compression") != NULL, "compressed logs are fio's");
	fiojob_file_release(&f);
	text = "[a]\nlog_hist_coarseness=7\n";
	is_int(fiojob_parse(text, strlen(text), &f, err, sizeof(err)), -EINVAL, "a coarseness over 6 is refused");
	fiojob_file_release(&f);
}

int main(void)
{
	test_averaged();
	test_per_io();
	test_job_ramp();
	test_parse();
	return tap_done();
}
