/* ramdisk/scsi_debug.c: the first backend tried (a SCSI identity, so a
 * /dev/disk/by-id link, and per-command latency). One module load makes the whole
 * batch: add_host=N hosts of one target each, per_host_store=1 so that each
 * host gets its own store (without it every scsi_debug device shares one),
 * INQUIRY vendor IOTRIAGE, product RAMDISK, so the devices are recognisable
 * as ours. delay=0 makes --ndelay 0 answer at once (the module's default is
 * one jiffy); ndelay sets the per-command latency on an hrtimer, and can be
 * changed while the module is loaded (set_ndelay: the driver's attribute,
 * for every device of the module, all ours). Destroy
 * unloads the module; --force first deletes SCSI devices that are still
 * open (the kernel allows that; their users are left dangling). */
#include "ramdisk/ramdisk.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "basic/fsutil.h"
#include "basic/interrupt.h"

#define SD_VENDOR "IOTRIAGE"
#define SD_PRODUCT "RAMDISK"
#define SD_DRIVER "bus/pseudo/drivers/scsi_debug" /* the driver's runtime attributes */

static void attr_path(const struct ramdisk_paths *p, const char *kname, const char *attr, char *buf, size_t len)
{
	snprintf(buf, len, "%s/class/block/%s/device/%s", p->sysfs, kname, attr);
}

static bool scsi_debug_owns(const struct ramdisk_paths *p, const char *kname)
{
	char path[256], buf[64];
	if (strncmp(kname, "sd", 2) != 0)
		return false;
	attr_path(p, kname, "vendor", path, sizeof(path));
	if (read_small_file(path, buf, sizeof(buf)) < 0 || strcmp(buf, SD_VENDOR) != 0)
		return false;
	attr_path(p, kname, "model", path, sizeof(path));
	if (read_small_file(path, buf, sizeof(buf)) < 0 || strcmp(buf, SD_PRODUCT) != 0)
		return false;
	/* scsi_debug's hosts hang off its pseudo bus: .../pseudo_0/adapter0/host2/... */
	snprintf(path, sizeof(path), "%s/class/block/%s", p->sysfs, kname);
	char *real = realpath(path, NULL);
	bool ours = real && strstr(real, "/pseudo_0/adapter");
	free(real);
	return ours;
}

/* scsi_debug loaded with our INQUIRY vendor: left by a killed run or by a
 * forced destroy whose devices were still open. */
static bool loaded_by_us(const struct ramdisk_paths *p)
{
	char path[256], buf[64];
	snprintf(path, sizeof(path), "%s/module/scsi_debug/parameters/inq_vendor", p->sysfs);
	return read_small_file(path, buf, sizeof(buf)) > 0 && strcmp(buf, SD_VENDOR) == 0;
}

int ramdisk_scsi_debug_reap(const struct ramdisk_paths *p, char *why, size_t len)
{
	if (!ramdisk_module_loaded(p, "scsi_debug") || !loaded_by_us(p))
		return 0;
	int r = ramdisk_modprobe_remove("scsi_debug", why, len);
	if (r < 0)
		return r;
	snprintf(why, len, "unloaded scsi_debug, left loaded (vendor " SD_VENDOR ") by an earlier run");
	return 1;
}

static enum ramdisk_avail scsi_debug_probe(const struct ramdisk_paths *p, char *why, size_t len)
{
	if (ramdisk_module_loaded(p, "scsi_debug") && loaded_by_us(p)) {
		snprintf(why, len,
			 "scsi_debug is still loaded by an earlier iotriage run (a device of it is still open?); "
			 "close it and run 'iotriage ramdisk destroy'");
		return RAMDISK_BUSY;
	}
	if (ramdisk_module_loaded(p, "scsi_debug")) {
		snprintf(why, len,
			 "scsi_debug is already loaded (not by this batch): its size, sector size and stores are "
			 "fixed at load time; remove it with 'rmmod scsi_debug' or choose another --backend");
		return RAMDISK_BUSY;
	}
	int r = ramdisk_module_present(p, "scsi_debug");
	if (r == 1) {
		snprintf(why, len, "the scsi_debug module is in this kernel's modules");
		return RAMDISK_AVAILABLE;
	}
	snprintf(why, len, "scsi_debug is not in this kernel (%s)",
		 r == 0 ? "not in modules.dep" : "no modules.dep for the running kernel");
	return RAMDISK_ABSENT;
}

struct found {
	char kname[32];
	unsigned host;
};

static int cmp_found(const void *a, const void *b)
{
	const struct found *x = a, *y = b;
	return x->host < y->host ? -1 : x->host > y->host;
}

/* Our devices (vendor IOTRIAGE on scsi_debug), ordered by SCSI host. */
static size_t find_devices(const struct ramdisk_paths *p, struct found *out, size_t max)
{
	char dir[256];
	snprintf(dir, sizeof(dir), "%s/class/block", p->sysfs);
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	size_t n = 0;
	struct dirent *de;
	while ((de = readdir(d)) && n < max) {
		if (strncmp(de->d_name, "sd", 2) != 0 || !scsi_debug_owns(p, de->d_name))
			continue;
		char link[256], target[256];
		snprintf(link, sizeof(link), "%s/%s/device", dir, de->d_name);
		ssize_t k = readlink(link, target, sizeof(target) - 1);
		if (k < 0)
			continue;
		target[k] = '\0';
		const char *hctl = strrchr(target, '/');
		unsigned host = 0;
		if (!hctl || sscanf(hctl + 1, "%u:", &host) != 1)
			continue;
		snprintf(out[n].kname, sizeof(out[n].kname), "%s", de->d_name);
		out[n].host = host;
		n++;
	}
	closedir(d);
	qsort(out, n, sizeof(*out), cmp_found);
	return n;
}

static int scsi_debug_create(const struct ramdisk_paths *p, const struct ramdisk_spec *spec,
			     struct ramdisk_dev *devs, char *why, size_t len)
{
	int claimed = ramdisk_registry_claim_for_create(p, why, len);
	if (claimed < 0)
		return claimed;
	if (!ramdisk_module_loaded(p, "sd_mod")) {
		int r = ramdisk_modprobe("sd_mod", NULL, why, len);
		if (r < 0)
			return r;
	}
	char add_host[32], size_mb[32], sector[32], delay[32];
	snprintf(add_host, sizeof(add_host), "add_host=%u", spec->count);
	snprintf(size_mb, sizeof(size_mb), "dev_size_mb=%" PRIu64, spec->size >> 20);
	snprintf(sector, sizeof(sector), "sector_size=%u", spec->sector_size ? spec->sector_size : 512);
	if (spec->ndelay_ns)
		snprintf(delay, sizeof(delay), "ndelay=%" PRIu64, spec->ndelay_ns);
	else
		snprintf(delay, sizeof(delay), "delay=0");
	const char *params[] = { add_host, "num_tgts=1", "max_luns=1", "per_host_store=1", size_mb, sector, delay,
				 "inq_vendor=" SD_VENDOR, "inq_product=" SD_PRODUCT, NULL };
	int r = ramdisk_modprobe("scsi_debug", params, why, len);
	if (r < 0)
		return r;

	/* sd probes asynchronously: wait for every disk (TCG guests are slow). */
	struct found found[RAMDISK_MAX_COUNT];
	size_t n = 0;
	const struct timespec tick = { 0, 50 * 1000 * 1000 };
	for (int i = 0; i < 1200 && !interrupt_requested(); i++) {
		n = find_devices(p, found, RAMDISK_MAX_COUNT);
		if (n >= spec->count)
			break;
		nanosleep(&tick, NULL);
	}
	if (n < spec->count) {
		snprintf(why, len, "scsi_debug made %zu of %u disks within 60 s", n, spec->count);
		r = interrupt_requested() ? -EINTR : -ETIMEDOUT;
		goto unload;
	}
	for (unsigned i = 0; i < spec->count; i++) {
		struct ramdisk_dev *d = &devs[i];
		snprintf(d->backend, sizeof(d->backend), "scsi_debug");
		d->ndelay_ns = spec->ndelay_ns;
		d->module_loaded = true;
		r = ramdisk_wait_node(p, found[i].kname, 10000);
		if (r == 0)
			r = ramdisk_dev_fill(p, found[i].kname, d);
		if (r < 0) {
			snprintf(why, len, "%s did not appear in %s: %s", found[i].kname, p->dev, strerror(-r));
			goto unload;
		}
	}
	return 0;
unload: {
	char ignored[256];
	ramdisk_modprobe_remove("scsi_debug", ignored, sizeof(ignored));
	return r;
}
}

static int scsi_debug_destroy(const struct ramdisk_paths *p, struct ramdisk_dev *devs, size_t n, bool force,
			      char *why, size_t len)
{
	if (force) {
		for (size_t i = 0; i < n; i++) {
			char path[256];
			attr_path(p, devs[i].kname, "delete", path, sizeof(path));
			if (scsi_debug_owns(p, devs[i].kname))
				write_small_file(path, "1");
		}
	}
	int r = 0;
	/* After deleting devices the module's references drop a moment later. */
	const struct timespec tick = { 0, 200 * 1000 * 1000 };
	for (int attempt = 0; attempt < (force ? 10 : 1) && ramdisk_module_loaded(p, "scsi_debug"); attempt++) {
		if (attempt)
			nanosleep(&tick, NULL);
		r = ramdisk_modprobe_remove("scsi_debug", why, len);
	}
	if (r == 0 || force)
		for (size_t i = 0; i < n; i++)
			devs[i].removed = true;
	if (r < 0 && force) {
		/* The devices are gone; the kernel keeps the module (and its stores)
		 * while a deleted device is still held open. */
		snprintf(why, len,
			 "the devices are deleted, but the kernel keeps scsi_debug (and its memory) loaded while a "
			 "deleted device is still held open; once it is closed, 'iotriage ramdisk destroy' unloads it");
		return 1;
	}
	return r;
}

/* Writes VAL to the driver's ATTR. The module answers EBUSY while
 * commands are queued (the last reads may still complete): a few tries. */
static int driver_write(const struct ramdisk_paths *p, const char *attr, const char *val, char *why, size_t len)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/" SD_DRIVER "/%s", p->sysfs, attr);
	const struct timespec tick = { 0, 20 * 1000 * 1000 };
	int r = -EBUSY;
	for (int i = 0; i < 100 && r == -EBUSY; i++) {
		if (i)
			nanosleep(&tick, NULL);
		r = write_small_file(path, val);
	}
	if (r < 0)
		snprintf(why, len, "cannot write %s to %s: %s", val, path, strerror(-r));
	return r;
}

static int scsi_debug_set_ndelay(const struct ramdisk_paths *p, uint64_t ndelay_ns, bool check_only, char *why,
				 size_t len)
{
	/* The delay is the module's: changed only when every device is ours. */
	if (!ramdisk_module_loaded(p, "scsi_debug") || !loaded_by_us(p)) {
		snprintf(why, len, "scsi_debug is not loaded by iotriage (its delay is the module's, for all its "
			 "devices): make the RAM disk with 'iotriage ramdisk create --backend scsi_debug'");
		return -EPERM;
	}
	char path[256];
	snprintf(path, sizeof(path), "%s/" SD_DRIVER "/ndelay", p->sysfs);
	if (access(path, W_OK) < 0) {
		int r = -errno;
		snprintf(why, len, "scsi_debug's delay cannot be changed here: %s: %s", path, strerror(errno));
		return r;
	}
	if (check_only)
		return 0;
	char val[32];
	snprintf(val, sizeof(val), "%" PRIu64, ndelay_ns);
	int r = driver_write(p, "ndelay", val, why, len);
	/* ndelay=0 falls back to the module's default delay of one jiffy;
	 * delay=0 answers at once, as creation does */
	if (r == 0 && ndelay_ns == 0)
		r = driver_write(p, "delay", "0", why, len);
	return r;
}

const struct ramdisk_backend ramdisk_scsi_debug = {
	.name = "scsi_debug",
	.summary = "emulated SCSI disks (by-id identity, ndelay, 512 or 4096-byte sectors)",
	.supports_ndelay = true,
	.sector_512 = true,
	.sector_4096 = true,
	.can_force = true,
	.probe = scsi_debug_probe,
	.create = scsi_debug_create,
	.destroy = scsi_debug_destroy,
	.owns = scsi_debug_owns,
	.set_ndelay = scsi_debug_set_ndelay,
	.attach_identity = ramdisk_byid_attach,
	.reap = ramdisk_scsi_debug_reap,
};
