/* io_uring: one ring per worker thread, the target registered as a fixed
 * file and the unit buffers registered as fixed buffers when the kernel
 * allows it (saves a file lookup and a page pin per I/O).
 *
 * The ring is created with DEFER_TASKRUN (Linux 6.1+), falling back to
 * COOP_TASKRUN (5.19+), then to no flags. Without them every completion
 * that arrives from an io-wq worker or an interrupt interrupts the worker
 * thread to run its task work; on a device that cannot take non-blocking
 * submissions (zram, any bio-based driver, where every read is punted to
 * io-wq) that costs half the IOPS. Measured with bench/engine_vs_fio.sh. */
#include <errno.h>
#include <liburing.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "engine/engine.h"

struct uring_state {
	struct io_uring ring;
	bool ring_ready;
	bool fixed_buffers;
	bool fixed_file;
	struct io_unit **done;
};

static int uring_probe(void)
{
	struct io_uring ring;
	int r = io_uring_queue_init(2, &ring, 0);
	if (r < 0)
		return r;
	io_uring_queue_exit(&ring);
	return 0;
}

static void uring_cleanup(struct engine_ctx *ctx)
{
	struct uring_state *s = ctx->priv;
	if (!s)
		return;
	if (s->ring_ready)
		io_uring_queue_exit(&s->ring);
	free(s->done);
	free(s);
	ctx->priv = NULL;
}

static void uring_register(struct engine_ctx *ctx, struct uring_state *s)
{
	struct iovec *iov = calloc(ctx->iodepth, sizeof(*iov));
	if (iov) {
		for (unsigned i = 0; i < ctx->iodepth; i++)
			iov[i] = (struct iovec){ ctx->units[i].buf, ctx->units[i].len };
		/* Fails under a low RLIMIT_MEMLOCK; plain buffers still work. */
		s->fixed_buffers = io_uring_register_buffers(&s->ring, iov, ctx->iodepth) == 0;
		free(iov);
	}
	/* fio's nrfiles: every file registered, a unit's FILE its index */
	s->fixed_file = ctx->nr_files > 1 ? io_uring_register_files(&s->ring, ctx->fds, ctx->nr_files) == 0
					  : io_uring_register_files(&s->ring, &ctx->fd, 1) == 0;
}

static int uring_init(struct engine_ctx *ctx)
{
	struct uring_state *s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	ctx->priv = s;
	s->done = calloc(ctx->iodepth, sizeof(*s->done));
	if (!s->done) {
		uring_cleanup(ctx);
		return -ENOMEM;
	}
	static const unsigned setup_flags[] = {
		IORING_SETUP_SUBMIT_ALL | IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,
		IORING_SETUP_SUBMIT_ALL | IORING_SETUP_COOP_TASKRUN,
		IORING_SETUP_SUBMIT_ALL,
		0,
	};
	int r = -EINVAL;
	for (size_t i = 0; i < sizeof(setup_flags) / sizeof(setup_flags[0]) && r == -EINVAL; i++) {
		struct io_uring_params params;
		memset(&params, 0, sizeof(params));
		params.flags = setup_flags[i];
		r = io_uring_queue_init_params(ctx->iodepth, &s->ring, &params);
	}
	if (r < 0) {
		uring_cleanup(ctx);
		return r;
	}
	s->ring_ready = true;
	uring_register(ctx, s);
	return 0;
}

static enum engine_queue_status uring_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	struct uring_state *s = ctx->priv;
	if (u->dir == IO_TRIM) { /* done now, as fio's libaio does its trims */
		engine_trim(ctx, u);
		return ENGINE_COMPLETED;
	}
	struct io_uring_sqe *sqe = io_uring_get_sqe(&s->ring);
	if (!sqe)
		return ENGINE_BUSY;
	int fd = s->fixed_file ? (int)u->file : engine_fd(ctx, u);
	if (s->fixed_buffers) {
		if (u->dir == IO_READ)
			io_uring_prep_read_fixed(sqe, fd, u->buf, u->len, u->offset, (int)u->index);
		else
			io_uring_prep_write_fixed(sqe, fd, u->buf, u->len, u->offset, (int)u->index);
	} else {
		if (u->dir == IO_READ)
			io_uring_prep_read(sqe, fd, u->buf, u->len, u->offset);
		else
			io_uring_prep_write(sqe, fd, u->buf, u->len, u->offset);
	}
	if (s->fixed_file)
		sqe->flags |= IOSQE_FIXED_FILE;
	io_uring_sqe_set_data(sqe, u);
	return ENGINE_QUEUED;
}

/* Submits until the ring's submission queue is empty. The kernel stops a
 * batch at an SQE it refuses at submission (it completes that one with the
 * error) and leaves the ones after it in the queue: returning then would
 * leave them counted as in flight by the caller, which would wait forever
 * for their completions. IORING_SETUP_SUBMIT_ALL (5.18+) makes the kernel
 * go on past such an SQE; the loop covers older kernels. */
static int uring_commit(struct engine_ctx *ctx)
{
	struct uring_state *s = ctx->priv;
	while (io_uring_sq_ready(&s->ring) > 0) {
		int r = io_uring_submit(&s->ring);
		if (r == -EINTR || r == -EAGAIN)
			continue;
		if (r < 0)
			return r;
		if (r == 0)
			return -EIO; /* nothing taken and no error: never wait on what did not go */
	}
	return 0;
}

static int uring_getevents(struct engine_ctx *ctx, unsigned min, unsigned max)
{
	struct uring_state *s = ctx->priv;
	struct io_uring_cqe *cqe;
	if (min > 0) {
		int r;
		do
			r = io_uring_wait_cqe_nr(&s->ring, &cqe, min);
		while (r == -EINTR);
		if (r < 0)
			return r;
	}
	unsigned n = 0;
	unsigned head;
	io_uring_for_each_cqe(&s->ring, head, cqe)
	{
		if (n == max)
			break;
		struct io_unit *u = io_uring_cqe_get_data(cqe);
		u->result = cqe->res;
		s->done[n++] = u;
	}
	io_uring_cq_advance(&s->ring, n);
	return (int)n;
}

static struct io_unit *uring_event(struct engine_ctx *ctx, unsigned i)
{
	struct uring_state *s = ctx->priv;
	return s->done[i];
}

const struct engine_ops engine_io_uring = {
	.name = "io_uring",
	.summary = "io_uring with fixed buffers and files (liburing)",
	.synchronous = false,
	.separates_submission = true,
	.offloads_blocking = true,
	.probe = uring_probe,
	.init = uring_init,
	.queue = uring_queue,
	.commit = uring_commit,
	.getevents = uring_getevents,
	.event = uring_event,
	.cleanup = uring_cleanup,
};
