/* The engines' output: fio 3.33 JSON captured on this machine, fio 2.x's
 * older schema (composed: no fio 2 here), dd's summary line (coreutils
 * 9.1), elbencho's table (the spec's worked example; elbencho is not
 * packaged here) in both of its layouts. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "poolbench/parse.h"
#include "poolbench/poolbench.h"
#include "tap.h"
#include "test_data.h"

int main(void)
{
	const char *buf;
	size_t n;
	char err[128];
	struct fio_summary s;
	struct jv *doc = NULL;

	buf = test_data("fio333_throughput_captured.json", &n);
	is_int(fio_parse(buf, n, &s, &doc, err, sizeof(err)), 0, "fio 3.33 throughput pass parses");
	is_str(s.version, "fio-3.33", "version");
	is_int(s.jobs, 1, "one job");
	is_int(s.read.bytes, 15728640, "read bytes exact");
	is_int(s.write.bytes + s.read.bytes, 33554432, "read + write = the 32 MiB file");
	ok(fabs(s.read.bw_bytes_per_s - 403298461) < 1, "read bw_bytes");
	ok(fabs(s.read.runtime_s - 0.039) < 1e-9, "runtime in seconds");
	ok(doc && jv_get(doc, "jobs"), "the parsed document is kept");
	jv_free(doc);

	buf = test_data("fio333_random_captured.json", &n);
	is_int(fio_parse(buf, n, &s, NULL, err, sizeof(err)), 0, "random pass (group_reporting) parses");
	ok(s.write.iops > 1000 && s.read.iops > 1000, "IOPS both ways");
	struct jv *rdoc = NULL;
	is_int(fio_parse(buf, n, &s, &rdoc, err, sizeof(err)), 0, "and keeps its document");
	const struct jv *wdir = jv_get(jv_at(jv_get(rdoc, "jobs"), 0), "write");
	struct hist_summary lat = { 0 };
	ok(fio_latency(wdir, "clat_ns", &lat), "the write direction's completion latency is read");
	ok(lat.count == 4180 && lat.min == 25739 && lat.max == 19538374 && lat.p50 == 150528 && lat.p9999 == 19529728,
	   "count, min, max, p50 and p99.99 as fio wrote them");
	ok(lat.p50 <= lat.p90 && lat.p90 <= lat.p99 && lat.p99 <= lat.p999 && lat.p999 <= lat.p9999, "percentiles in order");
	ok(!fio_latency(wdir, "slat_ns", &lat), "psync: no submission latency (N 0, no percentiles)");
	ok(!fio_latency(wdir, "nope_ns", &lat) && !fio_latency(NULL, "clat_ns", &lat), "a missing object is none");
	jv_free(rdoc);

	/* fio --output-format=json+ of tests/data/fio333_jsonplus_captured.fio: a
	 * result per job, latency from json+'s bins. */
	buf = test_data("fio333_jsonplus_captured.json", &n);
	is_int(fio_parse(buf, n, &s, &doc, err, sizeof(err)), 0, "fio's json+ parses");
	static const struct engine_ops label = { .name = "fio" };
	static struct job_result jr;
	is_int(fio_job_result(jv_at(jv_get(doc, "jobs"), 1), &label, &jr), 0, "its second job as a result");
	ok(jr.engine == &label && jr.write_ios == 16 && jr.write_bytes == 1048576 && jr.read_ios == 0,
	   "16 writes of 64k, no reads");
	ok(jr.ios == 16 && jr.bytes == 1048576 && fabs(jr.seconds - 0.004) < 1e-9, "totals, and fio's runtime");
	is_int(jr.iodepth, 4, "iodepth from its options");
	is_int((int)jr.lat_write.count, 16, "every write's latency from the bins");
	uint64_t p50 = hist_percentile(&jr.lat_write, 50);
	ok(p50 > 387072 * 0.97 && p50 < 387072 * 1.03, "p50 within a bucket of fio's own 387072 ns");
	ok(jr.stop == JOB_STOP_SIZE && !jr.error, "stopped by its size, no error");
	ok(jr.nr_workers == 1 && jr.workers[0].ios == 16 && jr.workers[0].voluntary_switches == jv_u64(jv_path(jv_at(jv_get(doc, "jobs"), 1), "ctx"), 1),
	   "one worker with fio's context switches");
	double usr = jv_number(jv_path(jv_at(jv_get(doc, "jobs"), 1), "usr_cpu"), -1) / 100 *
		     jv_number(jv_path(jv_at(jv_get(doc, "jobs"), 1), "job_runtime"), -1) / 1000;
	ok(fabs(jr.workers[0].user_seconds - usr) < 1e-12, "its user CPU time: usr_cpu% of job_runtime");
	is_int(fio_job_result(jv_at(jv_get(doc, "jobs"), 0), &label, &jr), 0, "the first job");
	ok(jr.read_ios == 16 && jr.lat_read.count == 16 && jr.lat_write.count == 0, "16 reads, each with its latency");
	is_int(fio_job_result(NULL, &label, &jr), -EINVAL, "no job, no result");
	jv_free(doc);

	buf = test_data("fio2_old_schema_composed.json", &n);
	is_int(fio_parse(buf, n, &s, NULL, err, sizeof(err)), 0, "fio 2.x schema after a warning line parses");
	is_int(s.jobs, 2, "two jobs summed");
	is_int(s.read.bytes, 2 * 8192 * 1024, "KiB io_bytes scaled to bytes");
	ok(s.read.bw_bytes_per_s == 2 * 4096 * 1024.0, "KiB/s bw scaled");
	ok(s.read.runtime_s == 2.5, "the longest job's runtime");

	is_int(fio_parse("fio: engine libaio not loadable", 31, &s, NULL, err, sizeof(err)), -EINVAL,
	       "fio's error text is not a document");
	ok(strstr(err, "no JSON") != NULL, "and says so");
	is_int(fio_parse("{\"x\": 1}", 8, &s, NULL, err, sizeof(err)), -EINVAL, "a document without jobs refused");

	uint64_t bytes;
	double secs;
	const char dd[] = "1024+0 records in\n1024+0 records out\n"
			  "1073741824 bytes (1.1 GB, 1.0 GiB) copied, 5.32025 s, 202 MB/s\n";
	is_int(dd_parse_summary(dd, &bytes, &secs), 0, "dd summary parses");
	ok(bytes == 1073741824ULL && fabs(secs - 5.32025) < 1e-9, "bytes and seconds");
	const char dd_short[] = "0+1 records in\n0+1 records out\n512 bytes copied, 0.000119 s, 4.3 MB/s\n";
	ok(dd_parse_summary(dd_short, &bytes, &secs) == 0 && bytes == 512, "dd's short form (no human size)");
	ok(dd_parse_summary("dd: error writing 'x': No space left on device\n", &bytes, &secs) == -EINVAL,
	   "dd's error is not a summary");

	double first, last;
	buf = test_data("elbencho_spec_example.txt", NULL);
	is_int(elbencho_parse_throughput(buf, "WRITE", &first, &last), 0, "elbencho WRITE row");
	ok(first == 290 * 1048576.0 && last == 247 * 1048576.0, "first and last done in bytes/s");
	is_int(elbencho_parse_throughput(buf, "READ", &first, &last), 0, "elbencho READ row");
	ok(first == 6215 * 1048576.0, "READ first done");
	buf = test_data("elbencho_multiline_composed.txt", NULL);
	ok(elbencho_parse_throughput(buf, "READ", &first, &last) == 0 && last == 5386 * 1048576.0,
	   "multi-line layout: the READ block's throughput row, not WRITE's");
	is_int(elbencho_parse_throughput(buf, "RMDIR", &first, &last), -ENOENT, "absent operation");

	unsigned mask;
	is_int(pb_tests_parse("all", &mask, err, sizeof(err)), 0, "--tests all");
	is_int(mask, (1u << PB_NTESTS) - 1, "all five");
	is_int(pb_tests_parse("dd,builtin", &mask, err, sizeof(err)), 0, "a list");
	is_int(mask, (1u << PB_DD) | (1u << PB_BUILTIN), "dd and builtin");
	is_int(pb_tests_parse("fio,bonnie", &mask, err, sizeof(err)), -EINVAL, "an unknown name refused");
	ok(strstr(err, "bonnie") != NULL, "naming it");
	is_int(pb_tests_parse("", &mask, err, sizeof(err)), -EINVAL, "an empty list refused");
	is_int(pb_tests_parse("dd,,fio", &mask, err, sizeof(err)), -EINVAL, "an empty name refused");
	return tap_done();
}
