/* Each engine really moves the bytes: reads return the file's content at
 * the right offsets, writes land where they were aimed, errors come back as
 * -errno. Runs on a real temporary file, buffered (so tmpfs works too). */
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/engine.h"
#include "tap.h"

#define BS 4096
#define DEPTH 8

static unsigned char expected_byte(uint64_t offset)
{
	return (unsigned char)((offset / BS) * 7 + 3);
}

static int make_file(char *path)
{
	int fd = mkstemp(path);
	if (fd < 0)
		return -1;
	unlink(path); /* the descriptor keeps it: nothing is left even if a check crashes */
	unsigned char block[BS];
	for (int b = 0; b < 64; b++) {
		memset(block, expected_byte((uint64_t)b * BS), BS);
		if (pwrite(fd, block, BS, (off_t)b * BS) != BS)
			return -1;
	}
	return fd;
}

/* Queues DEPTH reads at scattered offsets, commits, reaps them all. */
static int run_reads(const struct engine_ops *ops, int fd, int *ret_bad)
{
	static unsigned char bufs[DEPTH][BS];
	struct io_unit units[DEPTH];
	struct engine_ctx ctx = { .fd = fd, .iodepth = DEPTH, .units = units };
	for (unsigned i = 0; i < DEPTH; i++)
		units[i] = (struct io_unit){ .buf = bufs[i], .len = BS, .index = i,
					     .offset = (uint64_t)((i * 13) % 64) * BS, .dir = IO_READ };
	if (ops->init(&ctx) < 0)
		return -1;
	unsigned done = 0, queued = 0;
	for (unsigned i = 0; i < DEPTH; i++) {
		enum engine_queue_status st = ops->queue(&ctx, &units[i]);
		if (st == ENGINE_COMPLETED)
			done++;
		else if (st == ENGINE_QUEUED)
			queued++;
	}
	if (queued && ops->commit(&ctx) < 0)
		return -1;
	while (queued) {
		int n = ops->getevents(&ctx, 1, queued);
		if (n <= 0)
			return -1;
		queued -= (unsigned)n;
		done += (unsigned)n;
	}
	ops->cleanup(&ctx);
	int bad = 0;
	for (unsigned i = 0; i < DEPTH; i++) {
		if (units[i].result != BS)
			bad++;
		else
			for (unsigned k = 0; k < BS; k++)
				if (bufs[i][k] != expected_byte(units[i].offset)) {
					bad++;
					break;
				}
	}
	*ret_bad = bad;
	return (int)done;
}

static void test_engine_reads(const struct engine_ops *ops, int fd)
{
	char name[128];
	int bad = -1;
	int done = run_reads(ops, fd, &bad);
	snprintf(name, sizeof(name), "%s completes %d reads", ops->name, DEPTH);
	is_int(done, DEPTH, name);
	snprintf(name, sizeof(name), "%s reads return the bytes at their offsets", ops->name);
	is_int(bad, 0, name);
}

static void test_engine_write(const struct engine_ops *ops, int fd)
{
	static unsigned char buf[BS];
	memset(buf, 0xAB, BS);
	struct io_unit u = { .buf = buf, .len = BS, .offset = 5 * BS, .dir = IO_WRITE };
	struct engine_ctx ctx = { .fd = fd, .iodepth = 1, .units = &u };
	ops->init(&ctx);
	enum engine_queue_status st = ops->queue(&ctx, &u);
	if (st == ENGINE_QUEUED) {
		ops->commit(&ctx);
		ops->getevents(&ctx, 1, 1);
	}
	ops->cleanup(&ctx);
	unsigned char back[BS];
	char name[128];
	snprintf(name, sizeof(name), "%s write lands at its offset", ops->name);
	ok(pread(fd, back, BS, 5 * BS) == BS && back[0] == 0xAB && back[BS - 1] == 0xAB, name);
	memset(buf, expected_byte(5 * BS), BS);
	pwrite(fd, buf, BS, 5 * BS);
}

static void test_engine_error(const struct engine_ops *ops)
{
	/* A read on a write-only descriptor fails with EBADF. */
	char path[] = "/tmp/iotriage-engine-XXXXXX";
	int fd = mkstemp(path);
	unlink(path);
	int wfd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	static unsigned char buf[BS];
	struct io_unit u = { .buf = buf, .len = BS, .dir = IO_READ };
	struct engine_ctx ctx = { .fd = wfd, .iodepth = 1, .units = &u };
	ops->init(&ctx);
	if (ops->queue(&ctx, &u) == ENGINE_QUEUED) {
		ops->commit(&ctx);
		ops->getevents(&ctx, 1, 1);
	}
	ops->cleanup(&ctx);
	char name[128];
	snprintf(name, sizeof(name), "%s reports a failed read as -EBADF", ops->name);
	is_int(u.result, -EBADF, name);
	close(wfd);
	close(fd);
}

/* A batch whose middle SQE the kernel refuses at submission (an unknown
 * opcode): every unit must still complete, the refused one with its error.
 * Without it, the SQE after the refused one stays in the ring while the
 * worker counts it in flight and waits for it forever (the alarm ends the
 * test then). The SQE is reached through the ring, the first member of the
 * engine's private state. */
static void test_uring_refused_sqe(int fd)
{
	static unsigned char bufs[3][BS];
	struct io_unit units[3];
	struct engine_ctx ctx = { .fd = fd, .iodepth = 3, .units = units };
	for (unsigned i = 0; i < 3; i++)
		units[i] = (struct io_unit){ .buf = bufs[i], .len = BS, .index = i, .offset = i * BS, .dir = IO_READ };
	if (engine_io_uring.init(&ctx) < 0) {
		ok(0, "io_uring ring for the refused-SQE batch");
		return;
	}
	for (unsigned i = 0; i < 3; i++) {
		engine_io_uring.queue(&ctx, &units[i]);
		if (i == 1) {
			struct io_uring *ring = ctx.priv;
			ring->sq.sqes[(ring->sq.sqe_tail - 1) & *ring->sq.kring_mask].opcode = 0xfe;
		}
	}
	alarm(10);
	int r = engine_io_uring.commit(&ctx);
	unsigned reaped = 0;
	while (r == 0 && reaped < 3) {
		int n = engine_io_uring.getevents(&ctx, 1, 3 - reaped);
		if (n <= 0)
			break;
		reaped += (unsigned)n;
	}
	alarm(0);
	engine_io_uring.cleanup(&ctx);
	is_int(reaped, 3, "io_uring: a batch with a refused SQE still completes every unit");
	ok(units[1].result < 0 && units[0].result == BS && units[2].result == BS,
	   "io_uring: the refused SQE fails alone, the units around it read their blocks");
}

int main(void)
{
	char path[] = "/tmp/iotriage-engine-XXXXXX";
	int fd = make_file(path);
	ok(fd >= 0, "test file created");
	const struct engine_ops *real[] = { &engine_psync, &engine_libaio, &engine_io_uring };
	for (size_t i = 0; i < 3; i++) {
		ok(real[i]->probe() == 0, real[i]->name);
		test_engine_reads(real[i], fd);
		test_engine_write(real[i], fd);
		test_engine_error(real[i]);
	}
	test_uring_refused_sqe(fd);

	ok(engine_find("io_uring") == &engine_io_uring, "engine_find by name");
	ok(engine_find("spdk") == NULL, "engine_find of an unknown name is NULL");
	char reason[160];
	struct engine_target_traits mq = { .synchronous_device = false }, sync = { .synchronous_device = true };
	ok(engine_select("auto", 1, &mq, reason, sizeof(reason)) == &engine_psync, "auto picks psync at depth 1");
	ok(strstr(reason, "queue depth 1") != NULL, "auto says why");
	ok(engine_select("auto", 1, &sync, reason, sizeof(reason)) == &engine_psync,
	   "auto picks psync at depth 1 on a synchronous device");
	ok(engine_select("auto", 32, &mq, reason, sizeof(reason)) == &engine_io_uring,
	   "auto picks io_uring at depth 32 on a blk-mq device");
	ok(engine_select("auto", 32, &sync, reason, sizeof(reason)) == &engine_libaio,
	   "auto picks libaio at depth 32 on a synchronous device");
	ok(strstr(reason, "completes I/O as it is submitted") != NULL, "and says why");
	ok(engine_select("libaio", 1, &mq, reason, sizeof(reason)) == &engine_libaio && strcmp(reason, "requested") == 0,
	   "a named engine is used as requested");
	ok(engine_select("bogus", 1, &mq, reason, sizeof(reason)) == NULL && strstr(reason, "unknown engine 'bogus'"),
	   "an unknown engine is refused with its name");

	close(fd);
	{
		size_t n = 0;
		bool same = engine_choices[0] && strcmp(engine_choices[0], "auto") == 0;
		for (; engine_all[n]; n++)
			same = same && engine_choices[n + 1] && strcmp(engine_choices[n + 1], engine_all[n]->name) == 0;
		ok(same && engine_choices[n + 1] == NULL, "the --engine choices are auto and every engine, in order");
	}
	return tap_done();
}
