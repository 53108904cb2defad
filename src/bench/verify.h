/* bench/verify.h: fio's verify= in iotriage's own block format. A verified
 * write carries a header in its first bytes: the magic "IOTV", the checksum
 * kind, the block's length and its offset in the target, and the checksum
 * (crc32c, md5 or sha256, basic/checksum.h) of the whole block with the
 * checksum field zeroed. Reading it back checks all of them, so a flipped
 * byte anywhere in the block, a block written at the wrong place and a block
 * never written by a verifying job are each told apart. The format is not
 * fio's: data written by fio's verify is checked by fio, and data written
 * here only here (a block without the magic is named as such).
 *
 * A written-block map (a bit per block of the worker's area) lets the
 * read-back visit every block written once, in offset order, as fio's
 * verify pass does after the writes. The same map is the random map of a
 * job whose block sizes vary (bench/job.c). With verify_backlog the blocks
 * are also read back during the writes (struct verify_backlog), and leave
 * the map as they are. */
#ifndef IOTRIAGE_BENCH_VERIFY_H
#define IOTRIAGE_BENCH_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "basic/checksum.h"

#define VERIFY_HEADER_BYTES 52
#define VERIFY_MIN_BLOCK 64

/* Stamps BUF (LEN bytes, at least VERIFY_MIN_BLOCK) for OFFSET. */
void verify_stamp(void *buf, uint32_t len, uint64_t offset, enum checksum_kind kind);

/* Checks BUF as read from OFFSET: 0, or -EILSEQ with WHY (what is wrong). */
int verify_check(const void *buf, uint32_t len, uint64_t offset, enum checksum_kind kind, char *why, size_t whylen);

struct verify_map {
	uint64_t *bits;
	uint64_t nblocks;
	uint64_t set;            /* blocks marked */
};

int verify_map_init(struct verify_map *m, uint64_t nblocks);
void verify_map_mark(struct verify_map *m, uint64_t block);
bool verify_map_has(const struct verify_map *m, uint64_t block);
/* The first unmarked block at or after FROM, or m->nblocks when none. */
uint64_t verify_map_next_free(const struct verify_map *m, uint64_t from);
/* Unmarks every block. */
void verify_map_clear(struct verify_map *m);
/* The first marked block at or after FROM, or m->nblocks when none. */
uint64_t verify_map_next(const struct verify_map *m, uint64_t from);
void verify_map_unmark(struct verify_map *m, uint64_t block);
void verify_map_release(struct verify_map *m);

/* fio's verify_backlog: the blocks a write job has written and not yet read
 * back, oldest first (fio's io_hist list), and fio's rule for when to read
 * them back (io_u.c, check_get_verify). When the list holds a multiple of
 * EVERY blocks and the last I/O done was not a read, a batch of BATCH reads
 * (0: EVERY) begins; each read takes the oldest block, unless its write is
 * still in flight (a write goes first then). A batch longer than the list
 * goes on with the blocks written next, one read after each write. */
struct verify_backlog {
	uint64_t every;
	uint64_t batch;
	uint64_t due;            /* reads left in the batch under way (fio's td->verify_batch) */
	uint64_t *ring;          /* block numbers, LEN of them from HEAD */
	size_t cap, head, len;
};

void verify_backlog_init(struct verify_backlog *b, uint64_t every, uint64_t batch);
/* A block whose write was just issued. Returns 0 or -ENOMEM. */
int verify_backlog_push(struct verify_backlog *b, uint64_t block);
/* The block to read back now, taken off the list: true with *BLOCK, or
 * false (a write goes next). LAST_READ: the last I/O done was a read;
 * WRITTEN: the blocks whose writes are done. */
bool verify_backlog_next(struct verify_backlog *b, bool last_read, const struct verify_map *written,
			 uint64_t *block);
void verify_backlog_release(struct verify_backlog *b);

#endif
