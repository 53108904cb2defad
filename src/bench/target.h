/* bench/target.h: the file or block device a job runs against, opened with
 * the right flags and measured: its size and the alignment O_DIRECT needs.
 *
 * Alignment comes from the device itself: BLKSSZGET for block devices (so a
 * 4096-byte-sector device gets 4096-aligned offsets and lengths), statx's
 * STATX_DIOALIGN for regular files. Read targets are always opened O_RDONLY.
 *
 * Errors (returned as -errno, never printed):
 *   -ENOENT  no such path            -EISDIR  a directory
 *   -ENOTBLK neither a block device nor a regular file
 *   -EINVAL  O_DIRECT requested where the file system does not support it
 *   -EACCES/-EPERM  permission refused (the kernel's answer, passed on)
 */
#ifndef IOTRIAGE_BENCH_TARGET_H
#define IOTRIAGE_BENCH_TARGET_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "bench/pattern.h"

enum target_kind { TARGET_BLOCK_DEVICE, TARGET_REGULAR_FILE };

struct target {
	char path[4096];
	int fd;
	enum target_kind kind;
	dev_t rdev;                  /* block devices: the device number */
	uint64_t size;               /* bytes; for a new file, 0 */
	unsigned offset_align;       /* O_DIRECT offset and length alignment */
	unsigned mem_align;          /* O_DIRECT buffer alignment */
	unsigned logical_block_size; /* block devices: BLKSSZGET */
	bool direct;
	bool writable;
	bool created;                /* target_open created the file */
	bool bio_based;              /* a block device without blk-mq (zram, brd): I/O completes
				      * in the submitting call and cannot be issued non-blocking */
	bool shared_irq;             /* completions come by an interrupt some CPUs take, not
				      * all (bench/irq_path.h): a pinned worker would wait on it */
};

#define TARGET_INIT { .fd = -1 }

/* Opens PATH. WRITE opens read-write (creating a regular file when CREATE);
 * DIRECT adds O_DIRECT. Returns 0 or -errno. */
int target_open(const char *path, bool write, bool direct, bool create, struct target *ret);
void target_close(struct target *t);

/* Kind of PATH without opening it: 0 and *ret_kind, or -errno as above. */
int target_classify(const char *path, enum target_kind *ret_kind);

#endif
