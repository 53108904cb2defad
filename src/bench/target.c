#include "bench/target.h"
#include "bench/irq_path.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "basic/cleanup.h"

static int classify_mode(mode_t mode, enum target_kind *ret_kind)
{
	if (S_ISBLK(mode))
		*ret_kind = TARGET_BLOCK_DEVICE;
	else if (S_ISREG(mode))
		*ret_kind = TARGET_REGULAR_FILE;
	else if (S_ISDIR(mode))
		return -EISDIR;
	else
		return -ENOTBLK;
	return 0;
}

int target_classify(const char *path, enum target_kind *ret_kind)
{
	struct stat st;
	if (stat(path, &st) < 0)
		return -errno;
	return classify_mode(st.st_mode, ret_kind);
}

/* bio-based drivers (zram, brd, most RAM disks) have no mq/ directory. */
static bool is_bio_based(dev_t rdev)
{
	char mq[128];
	snprintf(mq, sizeof(mq), "/sys/dev/block/%u:%u/mq", major(rdev), minor(rdev));
	return access(mq, F_OK) < 0 && errno == ENOENT;
}

static int measure_block_device(struct target *t)
{
	uint64_t bytes;
	int lbs;
	if (ioctl(t->fd, BLKGETSIZE64, &bytes) < 0)
		return -errno;
	if (ioctl(t->fd, BLKSSZGET, &lbs) < 0)
		return -errno;
	t->size = bytes;
	t->logical_block_size = (unsigned)lbs;
	t->offset_align = (unsigned)lbs;
	/* Page alignment satisfies every device's DMA alignment. */
	t->mem_align = 4096;
	return 0;
}

static int measure_regular_file(struct target *t, const struct stat *st)
{
	t->size = (uint64_t)st->st_size;
	t->offset_align = 1;
	t->mem_align = 4096;
	if (!t->direct)
		return 0;
	struct statx stx;
	if (statx(t->fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &stx) == 0 &&
	    (stx.stx_mask & STATX_DIOALIGN)) {
		if (stx.stx_dio_offset_align == 0)
			return -EINVAL; /* the file system refuses O_DIRECT on this file */
		t->offset_align = stx.stx_dio_offset_align;
		if (stx.stx_dio_mem_align > t->mem_align)
			t->mem_align = stx.stx_dio_mem_align;
	} else {
		/* Older kernels and FUSE do not say; the file system's block size
		 * is safe, up to a page: no O_DIRECT path needs more, and st_blksize
		 * is only the preferred size where it is larger (CephFS says its
		 * 4 MiB object size, NFS its 1 MiB transfer size). */
		t->offset_align = st->st_blksize > 4096 ? 4096 : (unsigned)st->st_blksize;
	}
	return 0;
}

int target_open(const char *path, bool write, bool direct, bool create, struct target *ret)
{
	struct target t = TARGET_INIT;
	if (snprintf(t.path, sizeof(t.path), "%s", path) >= (int)sizeof(t.path))
		return -ENAMETOOLONG;
	t.direct = direct;
	t.writable = write;

	struct stat st;
	if (stat(path, &st) < 0) {
		if (errno != ENOENT || !(write && create))
			return -errno;
		t.created = true;
	} else {
		enum target_kind kind;
		int r = classify_mode(st.st_mode, &kind);
		if (r < 0)
			return r;
	}

	int flags = O_CLOEXEC | (write ? O_RDWR : O_RDONLY) | (direct ? O_DIRECT : 0);
	if (write && create)
		flags |= O_CREAT;
	_cleanup_close_ int fd = open(path, flags, 0644);
	int r = fd < 0 ? -errno : 0;
	if (r == 0 && fstat(fd, &st) < 0)
		r = -errno;
	if (r == 0)
		r = classify_mode(st.st_mode, &t.kind);
	if (r == 0) {
		t.fd = fd;
		if (t.kind == TARGET_BLOCK_DEVICE) {
			t.rdev = st.st_rdev;
			t.bio_based = is_bio_based(st.st_rdev);
			t.shared_irq = irq_path_shared(st.st_rdev);
			r = measure_block_device(&t);
		} else {
			t.shared_irq = irq_path_shared(st.st_dev);
			r = measure_regular_file(&t, &st);
		}
	}
	if (r < 0) {
		/* O_CREAT succeeds before O_DIRECT is refused: leave nothing behind. */
		if (t.created)
			unlink(path);
		return r;
	}
	t.fd = TAKE_FD(fd);
	*ret = t;
	return 0;
}

void target_close(struct target *t)
{
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
}
