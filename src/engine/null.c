/* null: completes every I/O without touching the target. Asynchronous on
 * purpose, so that tests of the job loop exercise queue/commit/getevents. */
#include <errno.h>
#include <stdlib.h>

#include "engine/engine.h"

struct null_state {
	struct io_unit **queued;
	unsigned nr_queued;
	struct io_unit **done;
};

static int null_probe(void)
{
	return 0;
}

static int null_init(struct engine_ctx *ctx)
{
	struct null_state *s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->queued = calloc(ctx->iodepth, sizeof(*s->queued));
	s->done = calloc(ctx->iodepth, sizeof(*s->done));
	if (!s->queued || !s->done) {
		free(s->queued);
		free(s->done);
		free(s);
		return -ENOMEM;
	}
	ctx->priv = s;
	return 0;
}

static enum engine_queue_status null_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	struct null_state *s = ctx->priv;
	if (s->nr_queued == ctx->iodepth)
		return ENGINE_BUSY;
	u->result = u->len;
	s->queued[s->nr_queued++] = u;
	return ENGINE_QUEUED;
}

static int null_commit(struct engine_ctx *ctx)
{
	(void)ctx;
	return 0;
}

static int null_getevents(struct engine_ctx *ctx, unsigned min, unsigned max)
{
	(void)min;
	struct null_state *s = ctx->priv;
	unsigned n = s->nr_queued < max ? s->nr_queued : max;
	for (unsigned i = 0; i < n; i++)
		s->done[i] = s->queued[i];
	for (unsigned i = n; i < s->nr_queued; i++)
		s->queued[i - n] = s->queued[i];
	s->nr_queued -= n;
	return (int)n;
}

static struct io_unit *null_event(struct engine_ctx *ctx, unsigned i)
{
	struct null_state *s = ctx->priv;
	return s->done[i];
}

static void null_cleanup(struct engine_ctx *ctx)
{
	struct null_state *s = ctx->priv;
	if (!s)
		return;
	free(s->queued);
	free(s->done);
	free(s);
	ctx->priv = NULL;
}

const struct engine_ops engine_null = {
	.name = "null",
	.summary = "completes I/O without touching the target (for tests)",
	.synchronous = false,
	.diskless = true,
	.probe = null_probe,
	.init = null_init,
	.queue = null_queue,
	.commit = null_commit,
	.getevents = null_getevents,
	.event = null_event,
	.cleanup = null_cleanup,
};
