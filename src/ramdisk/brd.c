/* ramdisk/brd.c: the kernel's plain RAM disk. One module load makes the
 * batch (rd_nr devices of rd_size KiB, /dev/ram0..N-1), each with its own
 * pages; 512-byte sectors; no latency injection; destroy unloads the module
 * (which the kernel refuses while any device is open, so --force cannot
 * help). A brd already loaded by someone else is left alone. */
#include "ramdisk/ramdisk.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static enum ramdisk_avail brd_probe(const struct ramdisk_paths *p, char *why, size_t len)
{
	if (ramdisk_module_loaded(p, "brd")) {
		snprintf(why, len,
			 "brd is already loaded (not by this batch): its device count and size are fixed at load "
			 "time; remove it with 'rmmod brd' or choose another --backend");
		return RAMDISK_BUSY;
	}
	int r = ramdisk_module_present(p, "brd");
	if (r == 1) {
		snprintf(why, len, "the brd module is in this kernel's modules");
		return RAMDISK_AVAILABLE;
	}
	snprintf(why, len, "brd is not in this kernel (%s)",
		 r == 0 ? "not in modules.dep" : "no modules.dep for the running kernel");
	return RAMDISK_ABSENT;
}

static bool brd_owns(const struct ramdisk_paths *p, const char *kname)
{
	unsigned n;
	char path[256], tail;
	if (sscanf(kname, "ram%u%c", &n, &tail) != 1 || !ramdisk_module_loaded(p, "brd"))
		return false;
	snprintf(path, sizeof(path), "%s/class/block/%s", p->sysfs, kname);
	return access(path, F_OK) == 0;
}

static int brd_create(const struct ramdisk_paths *p, const struct ramdisk_spec *spec, struct ramdisk_dev *devs,
		      char *why, size_t len)
{
	int claimed = ramdisk_registry_claim_for_create(p, why, len);
	if (claimed < 0)
		return claimed;
	char rd_nr[32], rd_size[48];
	snprintf(rd_nr, sizeof(rd_nr), "rd_nr=%u", spec->count);
	snprintf(rd_size, sizeof(rd_size), "rd_size=%" PRIu64, spec->size >> 10);
	const char *params[] = { rd_nr, rd_size, "max_part=0", NULL };
	int r = ramdisk_modprobe("brd", params, why, len);
	if (r < 0)
		return r;
	for (unsigned i = 0; i < spec->count; i++) {
		struct ramdisk_dev *d = &devs[i];
		char kname[32];
		snprintf(kname, sizeof(kname), "ram%u", i);
		snprintf(d->backend, sizeof(d->backend), "brd");
		d->module_loaded = true;
		r = ramdisk_wait_node(p, kname, 10000);
		if (r == 0)
			r = ramdisk_dev_fill(p, kname, d);
		if (r < 0) {
			snprintf(why, len, "brd device %s did not appear in %s: %s", kname, p->dev, strerror(-r));
			char ignored[256];
			ramdisk_modprobe_remove("brd", ignored, sizeof(ignored));
			return r;
		}
	}
	return 0;
}

static int brd_destroy(const struct ramdisk_paths *p, struct ramdisk_dev *devs, size_t n, bool force, char *why,
		       size_t len)
{
	(void)force;
	int r = 0;
	if (ramdisk_module_loaded(p, "brd"))
		r = ramdisk_modprobe_remove("brd", why, len);
	if (r == 0)
		for (size_t i = 0; i < n; i++)
			devs[i].removed = true;
	return r;
}

const struct ramdisk_backend ramdisk_brd = {
	.name = "brd",
	.summary = "plain RAM disks /dev/ramN (512-byte sectors, no latency injection)",
	.supports_ndelay = false,
	.sector_512 = true,
	.sector_4096 = false,
	.can_force = false,
	.probe = brd_probe,
	.create = brd_create,
	.destroy = brd_destroy,
	.owns = brd_owns,
};
