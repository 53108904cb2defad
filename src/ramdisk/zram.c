/* ramdisk/zram.c: zram devices made with hot_add and removed with reset +
 * hot_remove. zram offers 4096-byte sectors only and no latency injection.
 * zram0 (usually the machine's swap) is never touched, and neither is a
 * zram device this batch did not make. */
#include "ramdisk/ramdisk.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "basic/fsutil.h"
#include "basic/interrupt.h"

static void zram_attr(const struct ramdisk_paths *p, const char *kname, const char *attr, char *buf, size_t len)
{
	snprintf(buf, len, "%s/block/%s/%s", p->sysfs, kname, attr);
}

static enum ramdisk_avail zram_probe(const struct ramdisk_paths *p, char *why, size_t len)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/class/zram-control/hot_add", p->sysfs);
	if (access(path, F_OK) == 0) {
		snprintf(why, len, "zram is in the kernel (%s/class/zram-control)", p->sysfs);
		return RAMDISK_AVAILABLE;
	}
	snprintf(why, len, "zram is not loaded (no %s/class/zram-control)", p->sysfs);
	return RAMDISK_ABSENT;
}

static bool zram_owns(const struct ramdisk_paths *p, const char *kname)
{
	char path[256];
	if (strncmp(kname, "zram", 4) != 0 || strcmp(kname, "zram0") == 0)
		return false;
	zram_attr(p, kname, "comp_algorithm", path, sizeof(path));
	return access(path, F_OK) == 0;
}

/* Resets and removes zramID. -EBUSY while it is open (the kernel refuses). */
static int zram_remove_one(const struct ramdisk_paths *p, const char *kname, char *why, size_t len)
{
	char path[256], id[16];
	unsigned n;
	if (sscanf(kname, "zram%u", &n) != 1 || n == 0) {
		snprintf(why, len, "refusing to touch '%s'", kname);
		return -EPERM;
	}
	zram_attr(p, kname, "reset", path, sizeof(path));
	int r = write_small_file(path, "1");
	if (r < 0 && r != -ENOENT) {
		snprintf(why, len, "the kernel refuses to reset %s: %s", kname,
			 r == -EBUSY ? "it is still open (zram cannot be removed while in use)" : strerror(-r));
		return r;
	}
	snprintf(path, sizeof(path), "%s/class/zram-control/hot_remove", p->sysfs);
	snprintf(id, sizeof(id), "%u", n);
	r = write_small_file(path, id);
	if (r < 0 && r != -ENODEV) {
		snprintf(why, len, "the kernel refuses to remove %s: %s", kname,
			 r == -EBUSY ? "it is still open" : strerror(-r));
		return r;
	}
	return 0;
}

/* hot_add, then the record, in a child process: the kernel takes
 * milliseconds inside the hot_add read to make the disk, and a SIGKILL of
 * iotriage landing then would leave a device nobody recorded. The child is
 * not the process a user or the OOM killer kills, so it finishes the record
 * whatever happens to its parent. Returns the id, or -errno (WHY set). */
static int hot_add_recorded(const struct ramdisk_paths *p, struct ramdisk_dev *d, struct ramdisk_reservation *res,
			    char *why, size_t len)
{
	int pipefd[2];
	if (pipe2(pipefd, O_CLOEXEC) < 0)
		return -errno;
	pid_t pid = fork();
	if (pid < 0) {
		int r = -errno;
		close(pipefd[0]);
		close(pipefd[1]);
		return r;
	}
	if (pid == 0) {
		/* The child: no stdio, no exit handlers; only syscalls and snprintf. */
		close(pipefd[0]);
		char path[256], buf[32];
		int answer[2] = { 0, 0 };
		snprintf(path, sizeof(path), "%s/class/zram-control/hot_add", p->sysfs);
		int r = read_small_file(path, buf, sizeof(buf));
		if (r >= 0) {
			answer[0] = (int)strtoul(buf, NULL, 10);
			snprintf(d->kname, sizeof(d->kname), "zram%d", answer[0]);
			snprintf(d->path, sizeof(d->path), "%s/%s", p->dev, d->kname);
			r = answer[0] == 0 ? 0 : ramdisk_registry_commit(res, d);
		}
		answer[1] = r < 0 ? r : 0;
		if (write(pipefd[1], answer, sizeof(answer)) < 0)
			_exit(1);
		_exit(0);
	}
	close(pipefd[1]);
	int answer[2];
	ssize_t n;
	do
		n = read(pipefd[0], answer, sizeof(answer));
	while (n < 0 && errno == EINTR); /* a signal here waits for the child: it is making a disk */
	close(pipefd[0]);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	if (n != (ssize_t)sizeof(answer)) {
		snprintf(why, len, "the helper that adds a zram device died");
		return -EIO;
	}
	snprintf(d->kname, sizeof(d->kname), "zram%d", answer[0]);
	snprintf(d->path, sizeof(d->path), "%s/%s", p->dev, d->kname);
	if (answer[1] < 0) {
		snprintf(why, len, "cannot add a zram device and record it: %s", strerror(-answer[1]));
		return answer[1];
	}
	res->tmp[0] = answer[0] ? '\0' : res->tmp[0]; /* committed (renamed) by the child */
	return answer[0];
}

static int zram_create(const struct ramdisk_paths *p, const struct ramdisk_spec *spec, struct ramdisk_dev *devs,
		       char *why, size_t len)
{
	int claimed = ramdisk_registry_claim_for_create(p, why, len);
	if (claimed < 0)
		return claimed;
	char path[256], buf[32];
	unsigned made = 0;
	int r = 0;
	for (; made < spec->count; made++) {
		struct ramdisk_dev *d = &devs[made];
		struct ramdisk_reservation res;
		if (interrupt_requested()) { /* between devices: undo those made */
			snprintf(why, len, "interrupted after %u of %u devices", made, spec->count);
			r = -EINTR;
			goto undo;
		}
		r = ramdisk_registry_reserve(p, d->index, &res);
		if (r < 0) {
			snprintf(why, len, "cannot make a record in %s: %s", p->state, strerror(-r));
			goto undo;
		}
		snprintf(d->backend, sizeof(d->backend), "zram");
		d->ndelay_ns = 0;
		int id = hot_add_recorded(p, d, &res, why, len);
		ramdisk_registry_release(&res);
		if (id < 0) {
			r = id;
			if (strncmp(d->kname, "zram", 4) == 0 && strcmp(d->kname, "zram0") != 0)
				made++; /* the device exists: remove it */
			goto undo;
		}
		if (id == 0) { /* only when zram0 did not exist; leave it alone */
			snprintf(why, len, "the kernel handed out zram0, which iotriage never uses");
			r = -EEXIST;
			goto undo;
		}
		zram_attr(p, d->kname, "comp_algorithm", path, sizeof(path));
		write_small_file(path, "lzo-rle"); /* the default; older kernels call it lzo */
		zram_attr(p, d->kname, "disksize", path, sizeof(path));
		snprintf(buf, sizeof(buf), "%" PRIu64, spec->size);
		r = write_small_file(path, buf);
		if (r < 0) {
			snprintf(why, len, "cannot set the size of %s to %" PRIu64 " bytes: %s", d->kname, spec->size,
				 strerror(-r));
			made++;
			goto undo;
		}
		r = ramdisk_wait_node(p, d->kname, 5000);
		if (r == 0)
			r = ramdisk_dev_fill(p, d->kname, d);
		if (r < 0) {
			snprintf(why, len, "%s did not appear in %s: %s", d->kname, p->dev, strerror(-r));
			made++;
			goto undo;
		}
	}
	return 0;
undo:
	for (unsigned i = 0; i < made; i++) {
		char ignored[128];
		if (strncmp(devs[i].kname, "zram", 4) == 0 && strcmp(devs[i].kname, "zram0") != 0)
			zram_remove_one(p, devs[i].kname, ignored, sizeof(ignored));
		ramdisk_registry_remove(p, &devs[i]);
	}
	return r;
}

static int zram_destroy(const struct ramdisk_paths *p, struct ramdisk_dev *devs, size_t n, bool force, char *why,
			size_t len)
{
	(void)force; /* zram cannot remove an open device: force changes nothing */
	for (size_t i = 0; i < n; i++) {
		int r = zram_remove_one(p, devs[i].kname, why, len);
		if (r < 0)
			return r;
		devs[i].removed = true;
	}
	return 0;
}

const struct ramdisk_backend ramdisk_zram = {
	.name = "zram",
	.summary = "compressed RAM block devices (4096-byte sectors, no latency injection)",
	.supports_ndelay = false,
	.sector_512 = false,
	.sector_4096 = true,
	.can_force = false,
	.probe = zram_probe,
	.create = zram_create,
	.destroy = zram_destroy,
	.owns = zram_owns,
	.adds_devices = true,
	.removes_devices = true,
};
