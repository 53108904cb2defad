/* The job loop: caps, counts, mixes, offsets and errors, with the null
 * engine (no device needed) and with psync on a real temporary file. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/job.h"
#include "tap.h"

static struct job_spec base_spec(void)
{
	return (struct job_spec){ .read_pct = 100, .bs = 4096, .iodepth = 8, .numjobs = 1, .seed = 7 };
}

static struct target fake_target(uint64_t size)
{
	struct target t = TARGET_INIT;
	snprintf(t.path, sizeof(t.path), "/nonexistent");
	t.fd = -1;
	t.size = size;
	t.offset_align = 512;
	t.mem_align = 4096;
	t.direct = true;
	return t;
}

static void test_size_cap(void)
{
	struct job_spec spec = base_spec();
	spec.numjobs = 3;
	spec.size = 1 << 20;
	struct target t = fake_target(8 << 20);
	struct job_result *r = NULL;
	is_int(job_run(&spec, &t, &engine_null, &r), 0, "null job runs");
	is_int(r->bytes, 3 << 20, "each of 3 jobs moves exactly its size cap");
	is_int(r->ios, 3 * 256, "bytes / bs I/Os");
	is_int(r->stop, JOB_STOP_SIZE, "stopped by the size cap");
	is_int(r->lat_read.count, 768, "every I/O has a latency sample");
	is_int(r->nr_workers, 3, "three workers reported");
	ok(r->first_done_seconds <= r->last_done_seconds, "first done <= last done");
	is_int(r->workers[1].bytes, 1 << 20, "per-job bytes");
	is_int(r->iodepth, 8, "null engine keeps the queue depth");
	free(r);
}

static void test_short_tail(void)
{
	/* A size that is not a whole number of blocks ends with a short I/O. */
	struct job_spec spec = base_spec();
	spec.size = 10 * 4096 + 512;
	struct target t = fake_target(1 << 20);
	struct job_result *r = NULL;
	job_run(&spec, &t, &engine_null, &r);
	is_int(r->bytes, 10 * 4096 + 512, "the last I/O is cut to the size cap");
	is_int(r->ios, 11, "11 I/Os for 10.125 blocks");
	free(r);
}

static void test_time_cap(void)
{
	struct job_spec spec = base_spec();
	spec.size = 1ULL << 50; /* never reached */
	spec.runtime_ns = 200 * 1000 * 1000ULL;
	struct target t = fake_target(1ULL << 50);
	struct job_result *r = NULL;
	job_run(&spec, &t, &engine_null, &r);
	is_int(r->stop, JOB_STOP_TIME, "stopped by the time cap");
	ok(r->seconds >= 0.2 && r->seconds < 2.0, "ran about the capped time");
	ok(r->bytes < spec.size && r->bytes > 0, "reports the bytes actually done");
	free(r);
}

static void test_validate(void)
{
	struct target t = fake_target(1 << 20);
	t.offset_align = 4096;
	char msg[256];
	struct job_spec spec = base_spec();
	spec.bs = 512;
	is_int(job_validate(&spec, &t, msg, sizeof(msg)), -EINVAL, "bs below a 4K device's alignment is refused");
	ok(strstr(msg, "not a multiple of 4096") != NULL, "the message names the alignment");
	spec = base_spec();
	spec.bs = 3;
	t.direct = false;
	is_int(job_validate(&spec, &t, msg, sizeof(msg)), 0, "any bs is fine for buffered I/O");
	t.direct = true;
	t.offset_align = 512;
	spec = base_spec();
	spec.bs = 2 << 20;
	is_int(job_validate(&spec, &t, msg, sizeof(msg)), -EINVAL, "a target smaller than one block is refused");
	spec = base_spec();
	spec.numjobs = 0;
	is_int(job_validate(&spec, &t, msg, sizeof(msg)), -EINVAL, "zero jobs refused");
	spec = base_spec();
	spec.size = 1000;
	is_int(job_validate(&spec, &t, msg, sizeof(msg)), -EINVAL, "unaligned size refused under O_DIRECT");
}

static void test_mixed_on_file(void)
{
	char path[] = "/tmp/iotriage-job-XXXXXX";
	int fd = mkstemp(path);
	ok(ftruncate(fd, 4 << 20) == 0, "4 MiB file");
	close(fd);
	struct target t = TARGET_INIT;
	is_int(target_open(path, true, false, false, &t), 0, "target_open read-write");
	struct job_spec spec = base_spec();
	spec.random = true;
	spec.read_pct = 70;
	spec.iodepth = 1;
	spec.size = 4 << 20;
	struct job_result *r = NULL;
	is_int(job_run(&spec, &t, &engine_psync, &r), 0, "psync mixed job runs");
	is_int(r->read_ios + r->write_ios, 1024, "every I/O is a read or a write");
	double pct = 100.0 * (double)r->read_ios / (double)r->ios;
	ok(pct > 62 && pct < 78, "about 70% reads");
	is_int(r->iodepth, 1, "psync runs at queue depth 1");
	free(r);
	target_close(&t);

	/* Reading past the end of a file that shrank is an error, not a success. */
	is_int(target_open(path, false, false, false, &t), 0, "reopen read-only");
	ok(truncate(path, 1 << 20) == 0, "shrink to 1 MiB");
	spec = base_spec();
	spec.size = 4 << 20;
	spec.iodepth = 1;
	job_run(&spec, &t, &engine_psync, &r);
	is_int(r->stop, JOB_STOP_ERROR, "short read stops the job with an error");
	is_int(r->error, -ENODATA, "reported as no data");
	is_int(r->bytes, 1 << 20, "bytes actually read are kept");
	free(r);
	target_close(&t);
	unlink(path);
}

static void test_target_errors(void)
{
	struct target t = TARGET_INIT;
	is_int(target_open("/nonexistent/iotriage", false, true, false, &t), -ENOENT, "missing path");
	is_int(target_open("/tmp", false, true, false, &t), -EISDIR, "directory");
	is_int(target_open("/dev/null", false, false, false, &t), -ENOTBLK, "character device");
}

int main(void)
{
	test_size_cap();
	test_short_tail();
	test_time_cap();
	test_validate();
	test_mixed_on_file();
	test_target_errors();
	return tap_done();
}
