/* engine/engine.h: the I/O engine contract, modelled on fio's ioengine_ops.
 *
 * A worker thread owns one struct engine_ctx and drives it like this:
 *
 *   ops->init(ctx)                               once, in the worker thread
 *   loop:
 *     ops->queue(ctx, u)  -> ENGINE_COMPLETED    done already (synchronous engines)
 *                         -> ENGINE_QUEUED       accepted; completes later
 *                         -> ENGINE_BUSY         no room: reap first, then retry
 *     ops->commit(ctx)                           submit everything queued so far
 *     n = ops->getevents(ctx, min, max)          wait for at least MIN completions
 *     ops->event(ctx, i) for i < n               the completed units
 *   ops->cleanup(ctx)
 *
 * A unit's result is the byte count transferred or -errno. Engines never
 * print and never exit. probe() tells whether the engine works on this
 * kernel at all (io_uring can be compiled in and still be disabled), so a
 * caller can fall back and say why.
 */
#ifndef IOTRIAGE_ENGINE_ENGINE_H
#define IOTRIAGE_ENGINE_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* IO_TRIM: the range discarded (fio's trim): BLKDISCARD on a block device,
 * a hole punched (fallocate) in a regular file. Every engine but null does
 * it synchronously inside queue() (ENGINE_COMPLETED), as fio's libaio does
 * its trims (os_trim): psync, libaio and io_uring alike. */
enum io_dir { IO_READ, IO_WRITE, IO_TRIM };
#define IO_DIRS 3

struct io_unit {
	void *buf;
	uint64_t offset;
	uint32_t len;
	enum io_dir dir;
	uint64_t start_ns;       /* just before queue(), set by the caller */
	uint64_t submit_ns;      /* when the commit() that sent it returned, set by the caller */
	int64_t result;   /* bytes transferred, or -errno */
	unsigned index;   /* slot in ctx->units; also the registered-buffer index */
	unsigned file;    /* which of ctx->fds (fio's nrfiles); 0 with one file */
	void *engine_priv;
};

enum engine_queue_status { ENGINE_COMPLETED, ENGINE_QUEUED, ENGINE_BUSY };

struct engine_ctx {
	int fd;
	/* fio's nrfiles: NR_FILES descriptors (FDS[0] is FD), a unit's FILE
	 * picks one; NR_FILES 0 or 1: FD alone. */
	const int *fds;
	unsigned nr_files;
	bool block_device;       /* trims are BLKDISCARD, not a punched hole */
	unsigned iodepth;        /* most units in flight at once */
	struct io_unit *units;   /* iodepth units with their buffers, set by the caller */
	void *priv;              /* the engine's own state */
};

struct engine_ops {
	const char *name;
	const char *summary;
	bool synchronous;        /* completes inside queue(); queue depth is 1 */
	bool separates_submission; /* the I/O is still in flight when commit() returns, so its
				    * submission latency (fio's slat) is a figure of its own:
				    * io_uring and libaio; psync and null finish it in queue() */
	bool offloads_blocking;  /* I/O a device cannot take without blocking runs on kernel
				  * worker threads (io_uring's io-wq) */
	bool diskless;           /* never touches the target (null, fio's FIO_DISKLESSIO): the
				  * target is never created, laid out or opened for writing */
	int (*probe)(void);
	int (*init)(struct engine_ctx *ctx);
	enum engine_queue_status (*queue)(struct engine_ctx *ctx, struct io_unit *u);
	int (*commit)(struct engine_ctx *ctx);
	int (*getevents)(struct engine_ctx *ctx, unsigned min, unsigned max);
	struct io_unit *(*event)(struct engine_ctx *ctx, unsigned i);
	void (*cleanup)(struct engine_ctx *ctx);
};

extern const struct engine_ops engine_psync;
extern const struct engine_ops engine_libaio;
extern const struct engine_ops engine_io_uring;
extern const struct engine_ops engine_null;

/* U's trim, done now on CTX's target: sets U->result to its length or
 * -errno (EOPNOTSUPP where the device or file system cannot discard). */
void engine_trim(const struct engine_ctx *ctx, struct io_unit *u);

/* The descriptor U goes to. */
static inline int engine_fd(const struct engine_ctx *ctx, const struct io_unit *u)
{
	return ctx->nr_files > 1 ? ctx->fds[u->file] : ctx->fd;
}

/* NULL when no engine has that name. */
const struct engine_ops *engine_find(const char *name);
/* All engines, NULL-terminated, in the order --help lists them. */
extern const struct engine_ops *const engine_all[];
/* "auto" and every engine's name, NULL-terminated: the --engine choices. */
extern const char *const engine_choices[];

/* What "auto" needs to know about the target. */
struct engine_target_traits {
	bool synchronous_device; /* bio-based block device (zram, brd): completes on submit */
};

/* Resolves "auto" (or a name) to an engine for a workload at IODEPTH,
 * falling back when a probe fails. REASON gets one line saying why this
 * engine was chosen. Returns NULL (with REASON set) when NAME is unknown or
 * the named engine does not work here.
 *
 * The auto rules come from bench/engine_vs_fio.sh on zram and loop devices:
 *   queue depth 1                 -> psync (fewest steps per I/O on every target)
 *   deeper, synchronous device    -> libaio (io_submit runs the whole batch inline;
 *                                    io_uring must punt each I/O to a worker)
 *   deeper, anything else         -> io_uring, else libaio */
const struct engine_ops *engine_select(const char *name, unsigned iodepth,
				       const struct engine_target_traits *traits, char *reason,
				       size_t reason_len);

#endif
