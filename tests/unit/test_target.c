/* test_target: bench/target.c on real things.
 *
 * Regular files (size, flags, alignment from statx's STATX_DIOALIGN where the
 * file system reports it), missing paths, directories, character devices,
 * and as root a loop device with 4096-byte logical sectors made with
 * `losetup --sector-size 4096` (run through basic/spawn): BLKSSZGET must give
 * 4096. The loop device gets LO_FLAGS_AUTOCLEAR as soon as it exists, while
 * the test holds it open, so it goes away with the test's last descriptor
 * even if the test dies; it is also detached explicitly at the end. */
#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <sched.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "basic/spawn.h"
#include "bench/layout.h"
#include "bench/target.h"
#include "tap.h"

static char dir[] = "/var/tmp/iotriage-test-target-XXXXXX";

static void make_file(const char *path, size_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	char buf[4096];
	memset(buf, 0x5a, sizeof(buf));
	for (size_t done = 0; fd >= 0 && done < size; done += sizeof(buf))
		if (write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
			break;
	if (fd >= 0)
		close(fd);
}

/* What statx says about PATH's O_DIRECT alignment; false when it does not say. */
static bool dioalign(const char *path, unsigned *offset, unsigned *mem)
{
	struct statx stx;
	if (statx(AT_FDCWD, path, 0, STATX_DIOALIGN, &stx) < 0 || !(stx.stx_mask & STATX_DIOALIGN))
		return false;
	*offset = stx.stx_dio_offset_align;
	*mem = stx.stx_dio_mem_align;
	return true;
}

/* A regular file read with and without O_DIRECT, at PATH of SIZE bytes. */
static void check_regular_file(const char *path, uint64_t size, const char *where)
{
	char name[160];
	struct target t = TARGET_INIT;

	snprintf(name, sizeof(name), "%s: a regular file opens for reading", where);
	is_int(target_open(path, false, false, false, &t), 0, name);
	ok(t.kind == TARGET_REGULAR_FILE, "it is a regular file");
	is_int(t.size, size, "its size is the file's size");
	is_int(t.offset_align, 1, "buffered: any offset will do");
	is_int(t.mem_align, 4096, "buffers are page-aligned");
	ok(t.fd >= 0 && (fcntl(t.fd, F_GETFL) & O_ACCMODE) == O_RDONLY, "a read target is opened O_RDONLY");
	ok((fcntl(t.fd, F_GETFD) & FD_CLOEXEC) != 0, "with O_CLOEXEC");
	ok(!(fcntl(t.fd, F_GETFL) & O_DIRECT) && !t.direct, "and without O_DIRECT when not asked");
	ok(!t.created && !t.writable, "not created, not writable");
	target_close(&t);
	is_int(t.fd, -1, "target_close forgets the descriptor");

	unsigned off = 0, mem = 0;
	bool reported = dioalign(path, &off, &mem);
	int r = target_open(path, false, true, false, &t);
	if (reported && off == 0) {
		is_int(r, -EINVAL, "O_DIRECT where the file system refuses it is -EINVAL");
		return;
	}
	if (r == -EINVAL) {
		ok(1, "O_DIRECT on a regular file # SKIP the file system refuses O_DIRECT");
		return;
	}
	snprintf(name, sizeof(name), "%s: the file opens with O_DIRECT", where);
	is_int(r, 0, name);
	ok(t.direct && (fcntl(t.fd, F_GETFL) & O_DIRECT), "O_DIRECT is set on the descriptor");
	if (reported) {
		snprintf(name, sizeof(name), "%s: offset alignment from STATX_DIOALIGN (%u)", where, off);
		is_int(t.offset_align, off, name);
		is_int(t.mem_align, mem > 4096 ? mem : 4096, "memory alignment: the larger of the page and statx's");
	} else {
		struct stat st;
		stat(path, &st);
		snprintf(name, sizeof(name), "%s: no STATX_DIOALIGN, so the block size (%u)", where,
			 (unsigned)st.st_blksize);
		is_int(t.offset_align, st.st_blksize, name);
	}
	target_close(&t);
}

static void test_errors(void)
{
	struct target t = TARGET_INIT;
	char path[4200];
	enum target_kind kind;

	snprintf(path, sizeof(path), "%s/missing", dir);
	is_int(target_open(path, false, false, false, &t), -ENOENT, "a missing path is -ENOENT");
	is_int(target_open(path, true, false, false, &t), -ENOENT, "a missing path for writing without create: -ENOENT");
	is_int(target_classify(path, &kind), -ENOENT, "classify: a missing path is -ENOENT");
	is_int(t.fd, -1, "a failed open leaves the target alone");
	snprintf(path, sizeof(path), "%s/no-such-dir/file", dir);
	is_int(target_open(path, true, false, true, &t), -ENOENT, "create in a missing directory: -ENOENT");
	ok(access(path, F_OK) < 0, "and nothing is left behind");

	is_int(target_open(dir, false, false, false, &t), -EISDIR, "a directory is -EISDIR");
	is_int(target_open(dir, true, false, true, &t), -EISDIR, "a directory is -EISDIR for writing too");
	is_int(target_classify(dir, &kind), -EISDIR, "classify: a directory is -EISDIR");
	is_int(target_open("/dev/null", false, false, false, &t), -ENOTBLK, "a character device is -ENOTBLK");
	is_int(target_classify("/dev/null", &kind), -ENOTBLK, "classify: a character device is -ENOTBLK");

	memset(path, 'a', sizeof(path) - 1);
	path[0] = '/';
	path[sizeof(path) - 1] = '\0';
	is_int(target_open(path, false, false, false, &t), -ENAMETOOLONG, "a path longer than 4095 bytes: -ENAMETOOLONG");
}

static void test_regular_files(void)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/file", dir);
	make_file(path, 1 << 20);
	check_regular_file(path, 1 << 20, "/var/tmp");
	enum target_kind kind = TARGET_BLOCK_DEVICE;
	is_int(target_classify(path, &kind), 0, "classify: a regular file");
	ok(kind == TARGET_REGULAR_FILE, "classify says regular file");

	/* Create, grow with pattern data, and the size follows. */
	char made[256];
	snprintf(made, sizeof(made), "%s/new", dir);
	struct target t = TARGET_INIT;
	is_int(target_open(made, true, false, true, &t), 0, "a new file is created for writing");
	ok(t.created && t.writable && t.size == 0, "it is marked created, writable, empty");
	ok((fcntl(t.fd, F_GETFL) & O_ACCMODE) == O_RDWR, "opened read-write");
	is_int(layout_file(&t, 3 << 20, PATTERN_RANDOM, NULL, NULL, NULL), 0, "laid out to 3 MiB");
	struct stat st;
	ok(stat(made, &st) == 0 && st.st_size == 3 << 20 && t.size == 3 << 20, "the file and the target are 3 MiB");
	unsigned char buf[4096];
	bool zeros = true;
	if (pread(t.fd, buf, sizeof(buf), 1 << 20) == (ssize_t)sizeof(buf))
		for (size_t i = 0; i < sizeof(buf); i++)
			if (buf[i])
				zeros = false;
	ok(!zeros, "laid out with data, not holes");
	is_int(layout_file(&t, 1 << 20, PATTERN_RANDOM, NULL, NULL, NULL), 0, "laying out to a smaller size does nothing");
	ok(stat(made, &st) == 0 && st.st_size == 3 << 20, "the file is not truncated");
	target_close(&t);
	unlink(made);
	unlink(path);
}

static int detach(const char *dev)
{
	const char *argv[] = { "losetup", "-d", dev, NULL };
	return spawn_check(argv, 10000, NULL, NULL);
}

static void test_loop_4k(void)
{
	if (geteuid() != 0) {
		ok(1, "4096-byte-sector loop device # SKIP a loop device needs root");
		return;
	}
	char backing[256];
	snprintf(backing, sizeof(backing), "%s/loop.img", dir);
	make_file(backing, 8 << 20);

	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	const char *argv[] = { "losetup", "-f", "--show", "--sector-size", "4096", "--direct-io=on", backing, NULL };
	int r = spawn_check(argv, 20000, &out, &err);
	if (r < 0) {
		char why[300];
		snprintf(why, sizeof(why), "4096-byte-sector loop device # SKIP %s", err.buf);
		ok(1, why);
		strbuf_release(&out);
		strbuf_release(&err);
		unlink(backing);
		return;
	}
	char dev[64];
	snprintf(dev, sizeof(dev), "%.*s", (int)strcspn(out.buf, "\n"), out.buf);
	strbuf_release(&out);
	strbuf_release(&err);

	/* Held open with autoclear set: nothing survives the test. */
	int hold = open(dev, O_RDONLY | O_CLOEXEC);
	struct loop_info64 info;
	if (hold >= 0 && ioctl(hold, LOOP_GET_STATUS64, &info) == 0) {
		info.lo_flags |= LO_FLAGS_AUTOCLEAR;
		ioctl(hold, LOOP_SET_STATUS64, &info);
	}
	unlink(backing);
	ok(hold >= 0, "the loop device opens");

	struct target t = TARGET_INIT;
	is_int(target_open(dev, false, true, false, &t), 0, "the 4096-byte-sector loop device opens with O_DIRECT");
	ok(t.kind == TARGET_BLOCK_DEVICE, "it is a block device");
	is_int(t.logical_block_size, 4096, "BLKSSZGET: logical block size 4096");
	is_int(t.offset_align, 4096, "O_DIRECT offsets and lengths aligned to 4096");
	is_int(t.mem_align, 4096, "buffers aligned to the page");
	is_int(t.size, 8 << 20, "size: the 8 MiB backing file");
	struct stat st;
	ok(stat(dev, &st) == 0 && t.rdev == st.st_rdev && major(t.rdev) == 7, "rdev is the loop device's number");
	ok(!t.bio_based, "a loop device is blk-mq, not bio-based");
	/* A 512-byte read at a 512-byte offset is refused by the device itself. */
	void *buf = NULL;
	if (posix_memalign(&buf, 4096, 4096) == 0) {
		errno = 0;
		ssize_t n = pread(t.fd, buf, 512, 512);
		ok(n < 0 && errno == EINVAL, "the device refuses a 512-byte O_DIRECT read: 4096 is the real alignment");
		ok(pread(t.fd, buf, 4096, 4096) == 4096, "and accepts a 4096-byte aligned one");
		free(buf);
	}
	enum target_kind kind = TARGET_REGULAR_FILE;
	ok(target_classify(dev, &kind) == 0 && kind == TARGET_BLOCK_DEVICE, "classify: a block device");
	target_close(&t);

	/* A file on ext4 on that device: STATX_DIOALIGN says 4096. */
	char mnt[256];
	snprintf(mnt, sizeof(mnt), "%s/mnt", dir);
	const char *mkfs[] = { "mkfs.ext4", "-q", "-F", dev, NULL };
	/* In a private mount namespace: no other process sees the mount, and it
	 * goes away with this process whatever happens. */
	if (mkdir(mnt, 0700) == 0 && spawn_check(mkfs, 60000, NULL, NULL) == 0 && unshare(CLONE_NEWNS) == 0 &&
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0 && mount(dev, mnt, "ext4", 0, NULL) == 0) {
		char file[300];
		snprintf(file, sizeof(file), "%s/f", mnt);
		make_file(file, 1 << 20);
		unsigned off = 0, mem = 0;
		if (dioalign(file, &off, &mem))
			is_int(off, 4096, "ext4 on the 4K device reports a 4096 O_DIRECT offset alignment");
		check_regular_file(file, 1 << 20, "ext4 on 4K loop");
		unlink(file);
		umount2(mnt, 0);
	} else {
		ok(1, "ext4 on the 4K loop device # SKIP mkfs.ext4, a private mount namespace or the mount failed");
	}
	rmdir(mnt);

	r = detach(dev);
	if (hold >= 0)
		close(hold);
	/* Detached explicitly, or by autoclear when the last descriptor closed. */
	char attr[128];
	snprintf(attr, sizeof(attr), "/sys/block/%s/loop/backing_file", dev + 5);
	for (int i = 0; i < 50 && access(attr, F_OK) == 0; i++)
		usleep(100 * 1000);
	ok(access(attr, F_OK) < 0, "the loop device is detached at the end");
}

int main(void)
{
	if (!mkdtemp(dir)) {
		printf("Bail out! cannot create %s\n", dir);
		return 1;
	}
	test_errors();
	test_regular_files();
	test_loop_4k();
	rmdir(dir);
	return tap_done();
}
