/* ramdisk/null_blk.c: null_blk devices made through configfs, one directory
 * per device, with memory_backed=1 (without it null_blk discards writes and
 * is no RAM disk). Latency: irqmode=2 (a timer) with completion_nsec; at
 * --ndelay 0, irqmode=0 completes in the submitting context. The module is
 * loaded with nr_devices=0 so it makes no device of its own, and unloaded at
 * destroy when this batch loaded it and no other null_blk device exists. */
#include "ramdisk/ramdisk.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "basic/fsutil.h"

#define CONFIGFS "/kernel/config"

static void nullb_dir(const struct ramdisk_paths *p, char *buf, size_t len)
{
	snprintf(buf, len, "%s" CONFIGFS "/nullb", p->sysfs);
}

static enum ramdisk_avail null_blk_probe(const struct ramdisk_paths *p, char *why, size_t len)
{
	if (ramdisk_module_loaded(p, "null_blk")) {
		snprintf(why, len, "null_blk is loaded; devices are added through configfs");
		return RAMDISK_AVAILABLE;
	}
	int r = ramdisk_module_present(p, "null_blk");
	if (r == 1) {
		snprintf(why, len, "the null_blk module is in this kernel's modules");
		return RAMDISK_AVAILABLE;
	}
	snprintf(why, len, "null_blk is not in this kernel (%s)",
		 r == 0 ? "not in modules.dep" : "no modules.dep for the running kernel");
	return RAMDISK_ABSENT;
}

/* The configfs directory's name; 6.1 and later name the disk after it
 * (older kernels: nullb<index>). Never "iotriage-ramdiskN": that is the
 * friendly link's name in /dev. */
#define NULLB_DIR_PREFIX "iotriage-nullb"

static bool null_blk_owns(const struct ramdisk_paths *p, const char *kname)
{
	char path[256];
	if (strncmp(kname, "nullb", 5) != 0 && strncmp(kname, NULLB_DIR_PREFIX, strlen(NULLB_DIR_PREFIX)) != 0)
		return false;
	snprintf(path, sizeof(path), "%s/class/block/%s", p->sysfs, kname);
	return access(path, F_OK) == 0;
}

static int set_attr(const char *dir, const char *attr, const char *value, char *why, size_t len)
{
	char path[300];
	snprintf(path, sizeof(path), "%s/%s", dir, attr);
	int r = write_small_file(path, value);
	if (r < 0)
		snprintf(why, len, "cannot set null_blk %s=%s (%s): %s", attr, value, path, strerror(-r));
	return r;
}

static void remove_one(const char *dir)
{
	char path[300];
	snprintf(path, sizeof(path), "%s/power", dir);
	write_small_file(path, "0");
	rmdir(dir);
}

/* How many null_blk devices exist (ours or anyone's). */
static size_t count_nullb(const struct ramdisk_paths *p)
{
	char dir[256];
	snprintf(dir, sizeof(dir), "%s/class/block", p->sysfs);
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	size_t n = 0;
	struct dirent *de;
	while ((de = readdir(d)))
		if (strncmp(de->d_name, "nullb", 5) == 0 || strncmp(de->d_name, NULLB_DIR_PREFIX, strlen(NULLB_DIR_PREFIX)) == 0)
			n++;
	closedir(d);
	return n;
}

/* A new device's attributes in its configfs directory DIR, then power on. */
static int configure_device(const char *dir, const struct ramdisk_spec *spec, char *why, size_t len)
{
	char val[32];
	snprintf(val, sizeof(val), "%" PRIu64, spec->size >> 20);
	int r = set_attr(dir, "size", val, why, len);
	snprintf(val, sizeof(val), "%u", spec->sector_size ? spec->sector_size : 512);
	if (r == 0)
		r = set_attr(dir, "blocksize", val, why, len);
	if (r == 0)
		r = set_attr(dir, "memory_backed", "1", why, len);
	if (r == 0)
		r = set_attr(dir, "irqmode", spec->ndelay_ns ? "2" : "0", why, len);
	snprintf(val, sizeof(val), "%" PRIu64, spec->ndelay_ns);
	if (r == 0 && spec->ndelay_ns)
		r = set_attr(dir, "completion_nsec", val, why, len);
	if (r == 0)
		r = set_attr(dir, "power", "1", why, len);
	return r;
}

static int null_blk_create(const struct ramdisk_paths *p, const struct ramdisk_spec *spec,
			   struct ramdisk_dev *devs, char *why, size_t len)
{
	int claimed = ramdisk_registry_claim_for_create(p, why, len);
	if (claimed < 0)
		return claimed;
	bool loaded_now = false;
	if (!ramdisk_module_loaded(p, "null_blk")) {
		const char *params[] = { "nr_devices=0", NULL };
		int r = ramdisk_modprobe("null_blk", params, why, len);
		if (r < 0)
			return r;
		loaded_now = true;
	}
	char base[256], mnt[256];
	nullb_dir(p, base, sizeof(base));
	snprintf(mnt, sizeof(mnt), "%s" CONFIGFS, p->sysfs);
	if (access(base, F_OK) < 0 && mount("configfs", mnt, "configfs", 0, NULL) < 0 && errno != EBUSY) {
		snprintf(why, len, "configfs is not mounted on %s and cannot be: %s", mnt, strerror(errno));
		goto unload;
	}
	if (access(base, F_OK) < 0) {
		snprintf(why, len, "null_blk has no configfs directory (%s)", base);
		goto unload;
	}
	unsigned made = 0;
	int r = 0;
	for (; made < spec->count; made++) {
		struct ramdisk_dev *d = &devs[made];
		snprintf(d->configfs, sizeof(d->configfs), "%s/" NULLB_DIR_PREFIX "%u", base, d->index);
		if (mkdir(d->configfs, 0755) < 0) {
			r = -errno;
			snprintf(why, len, "cannot make '%s': %s", d->configfs, strerror(errno));
			goto undo;
		}
		r = configure_device(d->configfs, spec, why, len);
		if (r < 0) {
			made++;
			goto undo;
		}
		/* The disk is named after the directory, or nullb<index> on older kernels. */
		char path[300], idx[32], kname[32];
		snprintf(kname, sizeof(kname), NULLB_DIR_PREFIX "%u", d->index);
		snprintf(path, sizeof(path), "%s/index", d->configfs);
		if (!null_blk_owns(p, kname) && read_small_file(path, idx, sizeof(idx)) > 0)
			snprintf(kname, sizeof(kname), "nullb%s", idx);
		snprintf(d->backend, sizeof(d->backend), "null_blk");
		d->ndelay_ns = spec->ndelay_ns;
		d->module_loaded = loaded_now;
		r = ramdisk_wait_node(p, kname, 10000);
		if (r == 0)
			r = ramdisk_dev_fill(p, kname, d);
		if (r < 0) {
			snprintf(why, len, "null_blk device %s did not appear in %s: %s", kname, p->dev, strerror(-r));
			made++;
			goto undo;
		}
	}
	return 0;
undo:
	for (unsigned i = 0; i < made; i++)
		remove_one(devs[i].configfs);
	if (loaded_now && count_nullb(p) == 0) {
		char ignored[256];
		ramdisk_modprobe_remove("null_blk", ignored, sizeof(ignored));
	}
	return r;
unload:
	if (loaded_now) {
		char ignored[256];
		ramdisk_modprobe_remove("null_blk", ignored, sizeof(ignored));
	}
	return -ENOTSUP;
}

static int null_blk_destroy(const struct ramdisk_paths *p, struct ramdisk_dev *devs, size_t n, bool force,
			    char *why, size_t len)
{
	(void)force; /* power=0 removes the disk even while it is open */
	bool unload = false;
	for (size_t i = 0; i < n; i++) {
		if (devs[i].configfs[0] && access(devs[i].configfs, F_OK) == 0) {
			remove_one(devs[i].configfs);
			if (access(devs[i].configfs, F_OK) == 0) {
				snprintf(why, len, "cannot remove null_blk device '%s': %s", devs[i].configfs,
					 strerror(errno));
				return -EBUSY;
			}
		}
		devs[i].removed = true;
		unload |= devs[i].module_loaded;
	}
	if (unload && count_nullb(p) == 0 && ramdisk_module_loaded(p, "null_blk"))
		return ramdisk_modprobe_remove("null_blk", why, len);
	return 0;
}

int ramdisk_null_blk_reap(const struct ramdisk_paths *p, char *why, size_t len)
{
	char base[256];
	nullb_dir(p, base, sizeof(base));
	DIR *d = opendir(base);
	if (!d)
		return 0;
	int n = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, NULLB_DIR_PREFIX, strlen(NULLB_DIR_PREFIX)) != 0)
			continue;
		char dir[600];
		snprintf(dir, sizeof(dir), "%s/%s", base, de->d_name);
		remove_one(dir);
		n++;
	}
	closedir(d);
	if (n)
		snprintf(why, len, "removed %d null_blk device(s) left by an earlier run (%s/" NULLB_DIR_PREFIX "*)", n,
			 base);
	return n > 0;
}

const struct ramdisk_backend ramdisk_null_blk = {
	.name = "null_blk",
	.summary = "memory-backed null_blk devices (completion_nsec latency, 512 or 4096-byte sectors)",
	.supports_ndelay = true,
	.sector_512 = true,
	.sector_4096 = true,
	.can_force = true,
	.probe = null_blk_probe,
	.create = null_blk_create,
	.destroy = null_blk_destroy,
	.owns = null_blk_owns,
	.removes_devices = true,
	.reap = ramdisk_null_blk_reap,
};
