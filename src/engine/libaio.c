/* libaio: Linux native AIO (io_submit/io_getevents). Asynchronous only with
 * O_DIRECT; buffered I/O completes inside io_submit. */
#include <errno.h>
#include <libaio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"

struct libaio_state {
	io_context_t aio;
	struct iocb *iocbs;        /* one per unit */
	struct iocb **pending;     /* queued, not yet submitted */
	unsigned nr_pending;
	struct io_event *events;
	struct io_unit **done;
	struct io_unit **failed;   /* refused by io_submit; reported by the next getevents */
	unsigned nr_failed;
};

static int libaio_probe(void)
{
	io_context_t aio = 0;
	int r = io_setup(1, &aio);
	if (r < 0)
		return r;
	io_destroy(aio);
	return 0;
}

static void libaio_cleanup(struct engine_ctx *ctx)
{
	struct libaio_state *s = ctx->priv;
	if (!s)
		return;
	if (s->aio)
		io_destroy(s->aio);
	free(s->iocbs);
	free(s->pending);
	free(s->events);
	free(s->done);
	free(s->failed);
	free(s);
	ctx->priv = NULL;
}

static int libaio_init(struct engine_ctx *ctx)
{
	struct libaio_state *s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	ctx->priv = s;
	s->iocbs = calloc(ctx->iodepth, sizeof(*s->iocbs));
	s->pending = calloc(ctx->iodepth, sizeof(*s->pending));
	s->events = calloc(ctx->iodepth, sizeof(*s->events));
	s->done = calloc(ctx->iodepth, sizeof(*s->done));
	s->failed = calloc(ctx->iodepth, sizeof(*s->failed));
	if (!s->iocbs || !s->pending || !s->events || !s->done || !s->failed) {
		libaio_cleanup(ctx);
		return -ENOMEM;
	}
	int r = io_setup((int)ctx->iodepth, &s->aio);
	if (r < 0) {
		s->aio = 0;
		libaio_cleanup(ctx);
		return r;
	}
	return 0;
}

static enum engine_queue_status libaio_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	struct libaio_state *s = ctx->priv;
	if (s->nr_pending == ctx->iodepth)
		return ENGINE_BUSY;
	if (u->dir == IO_TRIM) { /* no discard in native AIO: done now, as fio's libaio does */
		engine_trim(ctx, u);
		return ENGINE_COMPLETED;
	}
	struct iocb *cb = &s->iocbs[u->index];
	if (u->dir == IO_READ)
		io_prep_pread(cb, engine_fd(ctx, u), u->buf, u->len, (long long)u->offset);
	else
		io_prep_pwrite(cb, engine_fd(ctx, u), u->buf, u->len, (long long)u->offset);
	cb->data = u;
	s->pending[s->nr_pending++] = cb;
	return ENGINE_QUEUED;
}

static int libaio_commit(struct engine_ctx *ctx)
{
	struct libaio_state *s = ctx->priv;
	unsigned off = 0;
	while (off < s->nr_pending) {
		int r = io_submit(s->aio, (long)(s->nr_pending - off), s->pending + off);
		if (r == -EINTR || r == -EAGAIN || r == 0)
			continue;
		if (r < 0) {
			/* io_submit refuses the first iocb synchronously (EBADF,
			 * EINVAL): complete that unit with the error, as every other
			 * engine reports errors, and submit the rest. */
			struct io_unit *u = s->pending[off]->data;
			u->result = r;
			s->failed[s->nr_failed++] = u;
			off++;
			continue;
		}
		off += (unsigned)r;
	}
	s->nr_pending = 0;
	return 0;
}

static int libaio_getevents(struct engine_ctx *ctx, unsigned min, unsigned max)
{
	struct libaio_state *s = ctx->priv;
	if (s->nr_failed) {
		unsigned n = s->nr_failed < max ? s->nr_failed : max;
		for (unsigned i = 0; i < n; i++)
			s->done[i] = s->failed[i];
		memmove(s->failed, s->failed + n, (s->nr_failed - n) * sizeof(*s->failed));
		s->nr_failed -= n;
		return (int)n;
	}
	int r;
	do
		r = io_getevents(s->aio, (long)min, (long)max, s->events, NULL);
	while (r == -EINTR);
	if (r < 0)
		return r;
	for (int i = 0; i < r; i++) {
		struct io_unit *u = s->events[i].data;
		/* res is the byte count or -errno; res2 carries nothing we need. */
		u->result = (int64_t)(long)s->events[i].res;
		s->done[i] = u;
	}
	return r;
}

static struct io_unit *libaio_event(struct engine_ctx *ctx, unsigned i)
{
	struct libaio_state *s = ctx->priv;
	return s->done[i];
}

const struct engine_ops engine_libaio = {
	.name = "libaio",
	.summary = "Linux native asynchronous I/O (io_submit)",
	.synchronous = false,
	.separates_submission = true,
	.probe = libaio_probe,
	.init = libaio_init,
	.queue = libaio_queue,
	.commit = libaio_commit,
	.getevents = libaio_getevents,
	.event = libaio_event,
	.cleanup = libaio_cleanup,
};
