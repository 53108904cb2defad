/* psync: pread/pwrite, one I/O at a time. The same system calls dd makes. */
#include <errno.h>
#include <unistd.h>

#include "engine/engine.h"

static int psync_probe(void)
{
	return 0;
}

static int psync_init(struct engine_ctx *ctx)
{
	ctx->priv = NULL;
	return 0;
}

static enum engine_queue_status psync_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	if (u->dir == IO_TRIM) {
		engine_trim(ctx, u);
		return ENGINE_COMPLETED;
	}
	ssize_t n;
	do {
		if (u->dir == IO_READ)
			n = pread(engine_fd(ctx, u), u->buf, u->len, (off_t)u->offset);
		else
			n = pwrite(engine_fd(ctx, u), u->buf, u->len, (off_t)u->offset);
	} while (n < 0 && errno == EINTR);
	u->result = n < 0 ? -errno : n;
	return ENGINE_COMPLETED;
}

static int psync_commit(struct engine_ctx *ctx)
{
	(void)ctx;
	return 0;
}

static int psync_getevents(struct engine_ctx *ctx, unsigned min, unsigned max)
{
	(void)ctx, (void)min, (void)max;
	return 0;
}

static struct io_unit *psync_event(struct engine_ctx *ctx, unsigned i)
{
	(void)ctx, (void)i;
	return NULL;
}

static void psync_cleanup(struct engine_ctx *ctx)
{
	(void)ctx;
}

const struct engine_ops engine_psync = {
	.name = "psync",
	.summary = "pread/pwrite, one I/O at a time",
	.synchronous = true,
	.probe = psync_probe,
	.init = psync_init,
	.queue = psync_queue,
	.commit = psync_commit,
	.getevents = psync_getevents,
	.event = psync_event,
	.cleanup = psync_cleanup,
};
