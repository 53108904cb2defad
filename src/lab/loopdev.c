#include "lab/loopdev.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "basic/cleanup.h"
#include "bench/layout.h"
#include "bench/target.h"

/* Finds a free loop device and binds BACKING to it. Another process can
 * take the same free device between the two steps: then retry. */
static int attach(int backing, unsigned sector_size, struct loopdev *l)
{
	_cleanup_close_ int ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (ctl < 0)
		return -errno;
	for (int attempt = 0; attempt < 16; attempt++) {
		int nr = ioctl(ctl, LOOP_CTL_GET_FREE);
		if (nr < 0)
			return -errno;
		snprintf(l->path, sizeof(l->path), "/dev/loop%d", nr);
		snprintf(l->kname, sizeof(l->kname), "loop%d", nr);
		_cleanup_close_ int fd = open(l->path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		struct loop_config cfg;
		memset(&cfg, 0, sizeof(cfg));
		cfg.fd = (unsigned)backing;
		cfg.block_size = sector_size;
		cfg.info.lo_flags = LO_FLAGS_AUTOCLEAR | LO_FLAGS_DIRECT_IO;
		snprintf((char *)cfg.info.lo_file_name, sizeof(cfg.info.lo_file_name), "iotriage-lab");
		if (ioctl(fd, LOOP_CONFIGURE, &cfg) < 0) {
			if (errno == EBUSY)
				continue;
			return -errno;
		}
		struct stat st;
		if (fstat(fd, &st) < 0) {
			ioctl(fd, LOOP_CLR_FD, 0);
			return -errno;
		}
		l->major = major(st.st_rdev);
		l->minor = minor(st.st_rdev);
		l->fd = TAKE_FD(fd);
		return 0;
	}
	return -EBUSY;
}

int loopdev_create(const char *dir, uint64_t size, unsigned sector_size, struct loopdev *ret)
{
	struct loopdev l = LOOPDEV_INIT;
	_cleanup_close_ int backing = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (backing < 0)
		return -errno;
	int r = pattern_write_file(backing, 0, size, PATTERN_RANDOM, (uint64_t)getpid() ^ size);
	if (r < 0)
		return r;
	r = attach(backing, sector_size, &l);
	if (r < 0)
		return r;
	*ret = l;
	return 0;
}

void loopdev_destroy(struct loopdev *l)
{
	if (l->fd < 0)
		return;
	ioctl(l->fd, LOOP_CLR_FD, 0);
	close(l->fd);
	l->fd = -1;
	/* The kernel detaches an auto-clearing device from a work queue after
	 * the last close; wait (up to 3 s) so that "removed" is true when said. */
	char attached[128];
	snprintf(attached, sizeof(attached), "/sys/block/%s/loop", l->kname);
	const struct timespec tick = { 0, 10 * 1000 * 1000 };
	for (int i = 0; i < 300 && access(attached, F_OK) == 0; i++)
		nanosleep(&tick, NULL);
}
