/* The job loop: caps, counts, mixes, offsets and errors, with the null
 * engine (no device needed) and with psync on a real temporary file. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

static int cmp16(const void *a, const void *b)
{
	return memcmp(a, b, 16);
}

/* How many 512-byte sectors of the LEN bytes at BUF equal an earlier one
 * (sorting the whole sectors would be slow; their first 16 bytes are where
 * the scramble writes, and a match there is checked in full). */
static size_t repeated_sectors(const unsigned char *buf, size_t len)
{
	size_t n = len / 512, repeats = 0;
	unsigned char (*heads)[16] = malloc(n * 16);
	for (size_t i = 0; i < n; i++)
		memcpy(heads[i], buf + i * 512, 16);
	qsort(heads, n, 16, cmp16);
	for (size_t i = 1; i < n; i++)
		repeats += memcmp(heads[i - 1], heads[i], 16) == 0;
	free(heads);
	return repeats;
}

static int temp_file(char *path, off_t size)
{
	int fd = mkstemp(path);
	int r = ftruncate(fd, size);
	close(fd);
	return r;
}

/* Writes SIZE bytes sequentially (the same buffers are rewritten many times)
 * to a new file and appends its contents to OUT. */
static void write_and_read_back(struct job_spec spec, unsigned char *out, size_t size)
{
	char path[] = "/tmp/iotriage-job-XXXXXX";
	ok(temp_file(path, (off_t)size) == 0, "scratch file");
	struct target t = TARGET_INIT;
	is_int(target_open(path, true, false, false, &t), 0, "target_open read-write");
	struct job_result *r = NULL;
	is_int(job_run(&spec, &t, &engine_psync, &r), 0, "write job runs");
	is_int(r->write_bytes, size, "the whole file written");
	free(r);
	target_close(&t);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ok(read(fd, out, size) == (ssize_t)size, "read back");
	close(fd);
	unlink(path);
}

static void test_scramble(void)
{
	/* 8 MiB through 4 buffers of 64 KiB: each buffer is written 32 times. */
	size_t size = 8 << 20;
	unsigned char *data = malloc(2 * size);
	struct job_spec spec = base_spec();
	spec.read_pct = 0;
	spec.bs = 64 << 10;
	spec.iodepth = 1;
	spec.numjobs = 1;
	spec.size = size;
	spec.pattern = PATTERN_RANDOM;
	write_and_read_back(spec, data, size);
	write_and_read_back(spec, data + size, size);
	is_int(repeated_sectors(data, 2 * size), 0,
	       "no 512-byte sector repeats, within a run or across two runs with the same seed");
	spec.pattern = PATTERN_ZEROS;
	write_and_read_back(spec, data, size);
	is_int(repeated_sectors(data, size), size / 512 - 1, "--pattern zeros still writes zeros");
	free(data);
}

static void test_random_map_once(void)
{
	/* Every block once: a random write pass over a zeroed file leaves no
	 * block zero (uniform draws miss about 37% of them). */
	char path[] = "/tmp/iotriage-job-XXXXXX";
	/* 32 MiB: enough writes (tens of ms of CPU) that the thread's CPU time
	 * cannot round to nothing on a loaded machine (4 MiB did, now and then). */
	size_t size = 32 << 20;
	ok(temp_file(path, (off_t)size) == 0, "scratch file");
	struct target t = TARGET_INIT;
	is_int(target_open(path, true, false, false, &t), 0, "target_open read-write");
	struct job_spec spec = base_spec();
	spec.read_pct = 0;
	spec.random = true;
	spec.iodepth = 1;
	spec.size = size;
	spec.random_map = JOB_MAP_ONCE;
	struct job_result *r = NULL;
	is_int(job_run(&spec, &t, &engine_psync, &r), 0, "random write pass runs");
	is_int(r->random_map, JOB_MAP_ONCE, "the result states the map");
	ok(r->workers[0].user_seconds + r->workers[0].system_seconds > 0, "the worker's CPU time is measured");
	ok(r->workers[0].busy_seconds > 0, "and its wall time");
	free(r);
	target_close(&t);
	unsigned char *data = malloc(size);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ok(read(fd, data, size) == (ssize_t)size, "read back");
	close(fd);
	static const unsigned char zero[4096];
	size_t untouched = 0;
	for (size_t off = 0; off < size; off += 4096)
		untouched += memcmp(data + off, zero, 4096) == 0;
	is_int(untouched, 0, "every block written once");
	free(data);
	unlink(path);
}

static void test_ramp_time_based_rate(void)
{
	struct job_spec spec = base_spec();
	spec.size = 1 << 20;
	spec.runtime_ns = 200 * 1000 * 1000ULL;
	spec.time_based = true;
	struct target t = fake_target(1 << 20);
	struct job_result *r = NULL;
	job_run(&spec, &t, &engine_null, &r);
	is_int(r->stop, JOB_STOP_TIME, "a time-based run ends at the runtime");
	ok(r->bytes > 8 * spec.size, "it went over the 1 MiB area many times");
	free(r);

	spec.ramp_ns = 300 * 1000 * 1000ULL;
	job_run(&spec, &t, &engine_null, &r);
	ok(r->seconds >= 0.19 && r->seconds < 0.29, "the ramp is not in the measured time");
	ok(r->ramp_seconds > 0.29, "the ramp is stated");
	free(r);

	/* Without time_based the size cap counts from the end of the ramp. */
	spec.time_based = false;
	spec.runtime_ns = 0;
	spec.ramp_ns = 50 * 1000 * 1000ULL;
	job_run(&spec, &t, &engine_null, &r);
	is_int(r->bytes, spec.size, "exactly the size after the ramp");
	free(r);

	spec = base_spec();
	spec.runtime_ns = 500 * 1000 * 1000ULL;
	spec.time_based = true;
	spec.rate_iops = 2000;
	job_run(&spec, &t, &engine_null, &r);
	ok(r->ios >= 900 && r->ios <= 1010, "--rate-iops 2000 for 0.5 s: about 1000 I/Os");
	free(r);
	spec.rate_iops = 0;
	spec.rate_bps = 4 << 20; /* 1024 blocks of 4 KiB per second */
	job_run(&spec, &t, &engine_null, &r);
	ok(r->ios >= 460 && r->ios <= 515, "--rate 4M for 0.5 s: about 512 I/Os of 4 KiB");
	free(r);

	char msg[256];
	spec = base_spec();
	spec.time_based = true;
	is_int(job_validate(&spec, &t, msg, sizeof(msg)), -EINVAL, "time-based without a runtime refused");
	spec.runtime_ns = 1000000000ULL;
	spec.ramp_ns = 2000000000ULL;
	is_int(job_validate(&spec, &t, msg, sizeof(msg)), -EINVAL, "a ramp longer than the runtime refused");
	ok(strstr(msg, "ramp time") != NULL, "the message names the ramp time");
}

/* Submission latency: recorded for the I/Os whose completion latency is,
 * ramp included, only by engines that submit apart from completing. */
static void check_slat(const struct engine_ops *engine, const struct target *t)
{
	struct job_spec spec = base_spec();
	spec.random = true;
	spec.iodepth = 16;
	spec.numjobs = 2;
	spec.ramp_ns = 50 * 1000 * 1000ULL;
	spec.runtime_ns = 150 * 1000 * 1000ULL;
	spec.time_based = true;
	struct job_result *r = NULL;
	char name[128];
	snprintf(name, sizeof(name), "%s job with a ramp runs", engine->name);
	is_int(job_run(&spec, t, engine, &r), 0, name);
	ok(r->has_slat, "io_uring and libaio separate submission");
	ok(r->read_ios > 0, "it did I/O after the ramp");
	is_int(r->slat_read.count, r->read_ios, "one slat sample per counted I/O, none from the ramp");
	is_int(r->slat_read.count, r->lat_read.count, "as many as lat samples");
	ok(r->slat_read.min > 0, "every slat is above 0");
	ok(r->slat_read.max <= r->lat_read.max, "no slat above the longest lat");
	ok(hist_percentile(&r->slat_read, 50) <= hist_percentile(&r->lat_read, 50), "slat p50 <= lat p50");
	is_int(r->slat_write.count, 0, "no writes, no write slat");
	free(r);
}

static void test_slat(void)
{
	char path[] = "/tmp/iotriage-job-XXXXXX";
	ok(temp_file(path, 4 << 20) == 0, "scratch file");
	struct target t = TARGET_INIT;
	is_int(target_open(path, false, false, false, &t), 0, "target_open read-only");
	const struct engine_ops *engines[] = { &engine_io_uring, &engine_libaio };
	for (size_t i = 0; i < 2; i++) {
		if (engines[i]->probe() < 0) {
			ok(1, "# SKIP engine does not work on this kernel");
			continue;
		}
		check_slat(engines[i], &t);
	}
	struct job_spec spec = base_spec();
	spec.size = 1 << 20;
	struct job_result *r = NULL;
	job_run(&spec, &t, &engine_psync, &r);
	ok(!r->has_slat && r->slat_read.count == 0, "psync: no slat (it completes inside queue)");
	free(r);
	job_run(&spec, &t, &engine_null, &r);
	ok(!r->has_slat && r->slat_read.count == 0, "null: no slat");
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

/* fio's trim modes: every I/O a trim (a hole punched in a file), or a trim
 * and then a write of the same block, the writes counted against the size. */
static void test_trim(void)
{
	struct job_spec spec = base_spec();
	struct target t = fake_target(1 << 20);
	spec.read_pct = 0;
	spec.trim = JOB_TRIM_WRITE;
	spec.random = true;
	struct job_result *r = NULL;
	is_int(job_run(&spec, &t, &engine_null, &r), 0, "null trimwrite runs");
	ok(r->trim_ios == 256 && r->write_ios == 256 && r->trim_bytes == 1 << 20, "a trim and a write of every block");
	is_int(r->ios, 512, "trims count among the I/Os");
	free(r);

	char path[] = "/tmp/iotriage-job-XXXXXX";
	int fd = mkstemp(path);
	static char block[65536];
	memset(block, 0xab, sizeof(block));
	bool written = true;
	for (int i = 0; i < 64; i++)
		written = written && write(fd, block, sizeof(block)) == (ssize_t)sizeof(block);
	ok(written && fsync(fd) == 0, "4 MiB of data written");
	close(fd);
	struct stat st;
	stat(path, &st);
	uint64_t before = (uint64_t)st.st_blocks;
	is_int(target_open(path, true, false, false, &t), 0, "target_open read-write");
	spec = base_spec();
	spec.read_pct = 0;
	spec.trim = JOB_TRIM_ONLY;
	spec.bs = 65536;
	spec.size = 2 << 20;
	is_int(job_run(&spec, &t, &engine_psync, &r), 0, "psync trim runs");
	ok(r->trim_ios == 32 && r->write_ios == 0 && r->read_ios == 0 && r->stop == JOB_STOP_SIZE, "32 trims, nothing else");
	ok(r->lat_trim.count == 32, "each trim's latency recorded");
	free(r);
	target_close(&t);
	stat(path, &st);
	ok(before >= 8192 && before - (uint64_t)st.st_blocks >= 4096, "the file's first 2 MiB are holes now");
	fd = open(path, O_RDONLY);
	ok(pread(fd, block, sizeof(block), 65536) == (ssize_t)sizeof(block) && block[0] == 0 && block[65535] == 0,
	   "a trimmed block reads back as zeros");
	close(fd);
	unlink(path);
}

/* fio's nrfiles, roundrobin: block B of the area is block B / N of file
 * B % N, so a sequential pass takes the files in turn, each from its start. */
static void test_nrfiles_map(void)
{
	uint64_t off = 1;
	is_int(job_file_block(0, 4096, 3, &off), 0, "block 0: file 0");
	is_int(off, 0, "block 0: at the file's start");
	is_int(job_file_block(4096, 4096, 3, &off), 1, "block 1: file 1");
	is_int(off, 0, "block 1: at file 1's start");
	is_int(job_file_block(3 * 4096, 4096, 3, &off), 0, "block 3: file 0 again");
	is_int(off, 4096, "block 3: file 0's second block");
	is_int(job_file_block(8 * 4096 + 512, 4096, 3, &off), 2, "a byte of block 8: file 2");
	is_int(off, 2 * 4096 + 512, "block 8: file 2's third block, the byte inside kept");
}

/* Every block of every file written, by each engine, sequential and
 * random: the files start as holes of zeros and the data is random. */
static void nrfiles_run(const struct engine_ops *engine, bool random)
{
	enum { N = 3, EACH = 16 * 4096 };
	char paths[N][32];
	struct target t[N];
	int fds[N];
	for (int k = 0; k < N; k++) {
		snprintf(paths[k], sizeof(paths[k]), "/tmp/iotriage-nrf-XXXXXX");
		ok(temp_file(paths[k], EACH) == 0, "scratch file");
		t[k] = (struct target)TARGET_INIT;
		is_int(target_open(paths[k], true, false, false, &t[k]), 0, "target_open read-write");
		fds[k] = t[k].fd;
	}
	struct job_spec spec = base_spec();
	spec.read_pct = 0;
	spec.random = random;
	spec.random_map = JOB_MAP_ONCE;
	spec.pattern = PATTERN_RANDOM;
	spec.size = (uint64_t)N * EACH;
	spec.nr_files = N;
	spec.file_fds = fds;
	char msg[200] = "";
	is_int(job_validate(&spec, &t[0], msg, sizeof(msg)), 0, "nrfiles job valid");
	struct job_result *r = NULL;
	is_int(job_run(&spec, &t[0], engine, &r), 0, "nrfiles job runs");
	is_int(r->write_ios, N * EACH / 4096, "one write per block of every file");
	free(r);
	static unsigned char buf[EACH], zero[4096];
	for (int k = 0; k < N; k++) {
		target_close(&t[k]);
		int fd = open(paths[k], O_RDONLY | O_CLOEXEC);
		ok(read(fd, buf, EACH) == EACH, "read back");
		close(fd);
		unlink(paths[k]);
		int zeros = 0;
		for (size_t b = 0; b < EACH; b += 4096)
			zeros += memcmp(buf + b, zero, 4096) == 0;
		is_int(zeros, 0, "every block of the file written");
	}
}

static void test_nrfiles(void)
{
	test_nrfiles_map();
	nrfiles_run(&engine_psync, false);
	nrfiles_run(&engine_psync, true);
	if (engine_io_uring.probe() == 0)
		nrfiles_run(&engine_io_uring, true);
	if (engine_libaio.probe() == 0)
		nrfiles_run(&engine_libaio, false);
	struct job_spec spec = base_spec();
	struct target t = fake_target(1 << 20);
	spec.size = 3 * 4096 * 4;
	spec.nr_files = 3;
	spec.verify = CHECKSUM_CRC32C;
	char msg[200] = "";
	is_int(job_validate(&spec, &t, msg, sizeof(msg)), -EINVAL, "nrfiles with verify refused");
	spec.verify = CHECKSUM_NONE;
	spec.size = 3 * 4096 + 4096;
	is_int(job_validate(&spec, &t, msg, sizeof(msg)), -EINVAL, "nrfiles with a partial block per file refused");
}

/* SPEC run with a per-I/O log (fio's write_iops_log, log_offset=1): each
 * I/O in completion order, its direction ('R' or 'W') in DIRS, its offset in
 * OFFS (N of them). */
static struct job_result *run_logged(struct job_spec spec, const struct target *t, const struct engine_ops *e,
				     char *dirs, uint64_t *offs, size_t max, size_t *n)
{
	struct joblog log = { .spec = { .iops = "unit", .log_offset = true, .first_jobnum = 1 } };
	spec.log = &log;
	struct job_result *r = NULL;
	*n = 0;
	if (job_run(&spec, t, e, &r) == 0) {
		const struct joblog_series *ser = joblog_series(&log, 0, JOBLOG_IOPS);
		for (size_t i = 0; i < ser->n && i < max; i++, (*n)++) {
			dirs[i] = ser->v[i].ddir ? 'W' : 'R';
			offs[i] = ser->v[i].offset;
		}
	}
	dirs[*n] = '\0';
	joblog_release(&log);
	return r;
}

/* blockalign: random offsets in steps of ba, where a block still fits; the
 * rules job_validate holds it to. */
static void test_blockalign(void)
{
	static char dirs[1025];
	static uint64_t offs[1024];
	size_t n = 0;
	struct target t = fake_target(1 << 20);
	struct job_spec spec = base_spec();
	spec.random = true;
	spec.iodepth = 1;
	spec.size = 1 << 20;
	spec.bs = 8192;
	spec.ba[IO_READ] = 4096;
	struct job_result *r = run_logged(spec, &t, &engine_null, dirs, offs, 1024, &n);
	is_int(n, 128, "size / bs I/Os with ba under bs");
	size_t off_grain = 0, misaligned = 0, past = 0;
	for (size_t i = 0; i < n; i++) {
		misaligned += offs[i] % 4096 != 0;
		off_grain += offs[i] % 8192 != 0;
		past += offs[i] + 8192 > (1 << 20);
	}
	is_int(misaligned, 0, "every offset a multiple of ba");
	ok(off_grain > 20, "and many not of bs");
	is_int(past, 0, "a whole block at every offset (the last ba - bs short of the end)");
	free(r);
	spec.bs = 4096;
	spec.ba[IO_READ] = 64 << 10;
	r = run_logged(spec, &t, &engine_null, dirs, offs, 1024, &n);
	misaligned = 0;
	for (size_t i = 0; i < n; i++)
		misaligned += offs[i] % (64 << 10) != 0;
	ok(n == 256 && misaligned == 0, "ba over bs: offsets in its steps, as many I/Os");
	free(r);
	char why[128];
	is_int(dist_parse("zoned:100/10", &spec.dist, why, sizeof(why)), 0, "random_distribution=zoned:100/10");
	spec.bs = 8192;
	spec.ba[IO_READ] = 4096;
	r = run_logged(spec, &t, &engine_null, dirs, offs, 1024, &n);
	size_t outside = 0;
	misaligned = 0;
	for (size_t i = 0; i < n; i++) {
		misaligned += offs[i] % 4096 != 0;
		outside += offs[i] >= 25 * 4096; /* fio: 10% of last_block's 255 steps of 4k (1m less 8k - 4k) */
	}
	ok(n == 128 && misaligned == 0 && outside == 0, "zoned with ba: offsets in ba steps, all in the first zone");
	free(r);
	char msg[256] = "";
	is_int(job_validate(&spec, &t, msg, sizeof(msg)), 0, "ba with zoned is run");
	is_int(dist_parse("zipf:1.2", &spec.dist, why, sizeof(why)), 0, "random_distribution=zipf:1.2");
	is_int(job_validate(&spec, &t, msg, sizeof(msg)), -EINVAL, "ba with zipf is refused");
	spec.dist = (struct dist_spec)DIST_SPEC_INIT;
	spec.bs = 4096;
	spec.ba[IO_READ] = 256;
	is_int(job_validate(&spec, &t, msg, sizeof(msg)), -EINVAL, "a ba off the direct I/O alignment is refused");
	ok(strstr(msg, "blockalign (ba) 256 of the reads is not a multiple of 512") != NULL, "naming it");
	spec.ba[IO_READ] = 2 << 20;
	is_int(job_validate(&spec, &t, msg, sizeof(msg)), -EINVAL, "a ba larger than the area is refused");
	spec.ba[IO_READ] = 2048;
	spec.random_map = JOB_MAP_ONCE;
	is_int(job_validate(&spec, &t, msg, sizeof(msg)), -EINVAL, "ba with the random map is refused");
	spec.random_map = JOB_MAP_UNIFORM;
	spec.ba[IO_READ] = 0;
	spec.ba[IO_WRITE] = 256;
	is_int(job_validate(&spec, &t, msg, sizeof(msg)), 0, "a direction the job does not do is not checked");
	spec.random = false;
	spec.ba[IO_READ] = 256;
	is_int(job_validate(&spec, &t, msg, sizeof(msg)), 0, "sequential I/O does not use ba");
}

/* fio's rule for the backlog's reads, on the list alone. */
static void test_backlog_rule(void)
{
	struct verify_backlog b;
	struct verify_map written;
	uint64_t block = 99;
	verify_backlog_init(&b, 2, 0);
	verify_map_init(&written, 16);
	verify_backlog_push(&b, 5);
	ok(!verify_backlog_next(&b, false, &written, &block), "one block of two: no read yet");
	verify_backlog_push(&b, 3);
	ok(!verify_backlog_next(&b, false, &written, &block), "two, but the oldest still in flight: a write goes first");
	verify_map_mark(&written, 5);
	ok(verify_backlog_next(&b, false, &written, &block) && block == 5, "then the oldest, block 5");
	ok(!verify_backlog_next(&b, false, &written, &block), "block 3 in flight: nothing");
	verify_map_mark(&written, 3);
	ok(verify_backlog_next(&b, true, &written, &block) && block == 3, "the batch goes on after a read");
	ok(!verify_backlog_next(&b, false, &written, &block), "the list empty: nothing");
	for (uint64_t k = 0; k < 200; k++) { /* the ring grows */
		verify_backlog_push(&b, k % 16);
		verify_map_mark(&written, k % 16);
	}
	ok(!verify_backlog_next(&b, true, &written, &block), "a batch does not begin after a read");
	ok(verify_backlog_next(&b, false, &written, &block) && block == 0, "it begins after a write, oldest first");
	verify_backlog_release(&b);
	verify_map_release(&written);
}

/* verify_backlog on a file with psync: the reads between the writes in
 * fio 3.33's order (its write_iops_log of the same job, bs=4k, size=256k,
 * psync), every block checked once. */
static void test_verify_backlog(void)
{
	static const char fio_10_4[] = "WWWWWWWWWWRRRRWWWWRRRRWWWWRRRRWWWWRRRRWWWWRRRRWWWWRRRRWWWWRRRRWWWWRRRRWWWW"
				       "RRRRWWWWRRRRWWWWRRRRWWWWRRRRWWWWRRRRWWWWRRRRWWRRRRRRRR";
	static const char fio_10_25[] = "WWWWWWWWWWRRRRRRRRRRWRWRWRWRWRWRWRWRWRWRWRWRWRWRWRWWWWWWWWWWRRRRRRRRRRWRWR"
					"WRWRWRWRWRWRWRWRWRWRWRWRWRWWWWWWWWWWRRRRRRRRRRWRWRWRWR";
	static char dirs[1025];
	static uint64_t offs[1024];
	size_t n = 0;
	char path[] = "/tmp/iotriage-job-XXXXXX";
	ok(temp_file(path, 256 << 10) == 0, "scratch file");
	struct target t = TARGET_INIT;
	is_int(target_open(path, true, false, false, &t), 0, "target_open read-write");
	struct job_spec spec = base_spec();
	spec.read_pct = 0;
	spec.random = true;
	spec.random_map = JOB_MAP_ONCE;
	spec.iodepth = 1;
	spec.size = 256 << 10;
	spec.verify = CHECKSUM_MD5;
	spec.verify_read = true;
	spec.verify_backlog = 10;
	spec.verify_batch = 4;
	struct job_result *r = run_logged(spec, &t, &engine_psync, dirs, offs, 1024, &n);
	is_str(dirs, fio_10_4, "verify_backlog=10, batch 4: fio's order of reads and writes");
	ok(r->write_ios == 64 && r->read_ios == 64 && r->verify_blocks == 64 && r->verify_errors == 0,
	   "every block written once and checked once");
	is_int(r->verify_backlog_blocks, 56, "56 of them during the writes");
	free(r);
	spec.verify_batch = 25;
	r = run_logged(spec, &t, &engine_psync, dirs, offs, 1024, &n);
	is_str(dirs, fio_10_25, "batch 25: the batch goes on with each block as it is written");
	free(r);
	spec.read_pct = 100; /* a read job keeps no backlog: it checks what it reads */
	r = run_logged(spec, &t, &engine_psync, dirs, offs, 1024, &n);
	ok(r->read_ios == 64 && r->write_ios == 0 && r->verify_backlog_blocks == 0, "a read job: no backlog");
	free(r);
	target_close(&t);
	unlink(path);
}

int main(void)
{
	test_size_cap();
	test_short_tail();
	test_time_cap();
	test_validate();
	test_mixed_on_file();
	test_target_errors();
	test_scramble();
	test_random_map_once();
	test_ramp_time_based_rate();
	test_slat();
	test_trim();
	test_nrfiles();
	test_blockalign();
	test_backlog_rule();
	test_verify_backlog();
	return tap_done();
}
