#include "engine/engine.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>

const struct engine_ops *const engine_all[] = {
	&engine_psync, &engine_libaio, &engine_io_uring, &engine_null, NULL,
};

/* The same names, as the --engine choices (options rows need a constant
 * array); test_engine checks that the two lists agree. */
const char *const engine_choices[] = { "auto", "psync", "libaio", "io_uring", "null", NULL };

void engine_trim(const struct engine_ctx *ctx, struct io_unit *u)
{
	int r;
	do {
		if (ctx->block_device) {
			uint64_t range[2] = { u->offset, u->len };
			r = ioctl(engine_fd(ctx, u), BLKDISCARD, range);
		} else {
			r = fallocate(engine_fd(ctx, u), FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)u->offset, (off_t)u->len);
		}
	} while (r < 0 && errno == EINTR);
	u->result = r < 0 ? -errno : (int64_t)u->len;
}

const struct engine_ops *engine_find(const char *name)
{
	for (size_t i = 0; engine_all[i]; i++)
		if (strcmp(engine_all[i]->name, name) == 0)
			return engine_all[i];
	return NULL;
}

const struct engine_ops *engine_select(const char *name, unsigned iodepth,
				       const struct engine_target_traits *traits, char *reason,
				       size_t reason_len)
{
	if (strcmp(name, "auto") != 0) {
		const struct engine_ops *ops = engine_find(name);
		if (!ops) {
			snprintf(reason, reason_len, "unknown engine '%s'", name);
			return NULL;
		}
		int r = ops->probe();
		if (r < 0) {
			snprintf(reason, reason_len, "engine '%s' does not work on this system: %s",
				 name, strerror(-r));
			return NULL;
		}
		snprintf(reason, reason_len, "requested");
		return ops;
	}

	/* At queue depth 1 a synchronous read has the fewest steps per I/O;
	 * deeper queues need an asynchronous engine, io_uring first. */
	if (iodepth <= 1) {
		snprintf(reason, reason_len, "auto: queue depth 1, synchronous I/O has the least overhead");
		return &engine_psync;
	}
	if (traits && traits->synchronous_device && engine_libaio.probe() == 0) {
		snprintf(reason, reason_len,
			 "auto: queue depth %u on a device that completes I/O as it is submitted, "
			 "libaio batches it in one call",
			 iodepth);
		return &engine_libaio;
	}
	if (engine_io_uring.probe() == 0) {
		snprintf(reason, reason_len, "auto: queue depth %u, io_uring available", iodepth);
		return &engine_io_uring;
	}
	if (engine_libaio.probe() == 0) {
		snprintf(reason, reason_len, "auto: queue depth %u, io_uring unavailable, using libaio",
			 iodepth);
		return &engine_libaio;
	}
	snprintf(reason, reason_len,
		 "auto: no asynchronous engine works here, using psync at queue depth 1");
	return &engine_psync;
}
