/* lab/loopdev.h: throwaway loop devices for the demo and the lab.
 *
 * The backing store is an unnamed file (O_TMPFILE) and the device is set to
 * clear itself when its last opener closes (LO_FLAGS_AUTOCLEAR). So even if
 * iotriage is killed with SIGKILL, the kernel detaches the device and frees
 * the file: nothing is left behind to find. Reads go through direct I/O on
 * the backing file (LO_FLAGS_DIRECT_IO), so they reach the disk, not the
 * page cache.
 */
#ifndef IOTRIAGE_LAB_LOOPDEV_H
#define IOTRIAGE_LAB_LOOPDEV_H

#include <stdint.h>

struct loopdev {
	int fd;              /* held open for the device's lifetime */
	char path[64];       /* "/dev/loop3" */
	char kname[32];      /* "loop3" */
	unsigned major, minor;
};

#define LOOPDEV_INIT { .fd = -1 }

/* Creates a loop device of SIZE bytes of random data, backed by an unnamed
 * file in DIR, with SECTOR_SIZE-byte logical sectors (512 or 4096).
 * Returns 0 or -errno. */
int loopdev_create(const char *dir, uint64_t size, unsigned sector_size, struct loopdev *ret);
/* Detaches the device. Safe to call on LOOPDEV_INIT or twice. */
void loopdev_destroy(struct loopdev *l);

#endif
