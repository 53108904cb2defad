/* ramdisk/backend.c: the backend table, what each can do, kernel modules,
 * and the sysfs helpers the backends share. */
#include "ramdisk/ramdisk.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "basic/cleanup.h"
#include "basic/fsutil.h"
#include "basic/interrupt.h"
#include "basic/spawn.h"

const struct ramdisk_paths ramdisk_default_paths = {
	.dev = "/dev",
	.state = "/run/iotriage/ramdisk",
	.sysfs = "/sys",
	.modules = NULL,
};

#define BACKEND_ROW_(n) &ramdisk_##n,
const struct ramdisk_backend *const ramdisk_backends[] = { RAMDISK_BACKENDS(BACKEND_ROW_) NULL };
#define BACKEND_NAME_(n) #n,
const char *const ramdisk_backend_names[] = { RAMDISK_BACKENDS(BACKEND_NAME_) NULL };

const struct ramdisk_backend *ramdisk_backend_find(const char *name)
{
	for (size_t i = 0; ramdisk_backends[i]; i++)
		if (strcmp(ramdisk_backends[i]->name, name) == 0)
			return ramdisk_backends[i];
	return NULL;
}

bool ramdisk_backend_fits(const struct ramdisk_backend *b, const struct ramdisk_spec *spec, char *why,
			  size_t len)
{
	if (spec->ndelay_ns && !b->supports_ndelay) {
		snprintf(why, len, "%s cannot inject latency (--ndelay): the driver has no per-command delay", b->name);
		return false;
	}
	if (spec->sector_size == 512 && !b->sector_512) {
		snprintf(why, len, "%s offers only 4096-byte sectors", b->name);
		return false;
	}
	if (spec->sector_size == 4096 && !b->sector_4096) {
		snprintf(why, len, "%s offers only 512-byte sectors", b->name);
		return false;
	}
	return true;
}

int ramdisk_set_ndelay(const struct ramdisk_paths *p, const char *backend, uint64_t ndelay_ns, bool check_only,
		       char *why, size_t len)
{
	const struct ramdisk_backend *b = ramdisk_backend_find(backend);
	if (!b) {
		snprintf(why, len, "unknown RAM disk backend '%s'", backend);
		return -EINVAL;
	}
	if (!b->set_ndelay) {
		snprintf(why, len, "the %s backend %s; make the RAM disk with 'iotriage ramdisk create --backend "
			 "scsi_debug', whose delay can change at runtime", b->name,
			 b->supports_ndelay ? "fixes its per-command delay when the device is made"
					    : "has no per-command delay");
		return -EOPNOTSUPP;
	}
	if (ndelay_ns > RAMDISK_MAX_NDELAY_NS) {
		snprintf(why, len, "a per-command delay of %" PRIu64 " ns is over the most, %llu ns", ndelay_ns,
			 RAMDISK_MAX_NDELAY_NS);
		return -ERANGE;
	}
	return b->set_ndelay(p, ndelay_ns, check_only, why, len);
}

unsigned ramdisk_backend_sector_size(const struct ramdisk_backend *b, const struct ramdisk_spec *spec)
{
	if (spec->sector_size)
		return spec->sector_size;
	return b->sector_512 ? 512 : 4096;
}

bool ramdisk_module_loaded(const struct ramdisk_paths *p, const char *name)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/module/%s", p->sysfs, name);
	return access(path, F_OK) == 0;
}

/* "kernel/drivers/block/null_blk/null_blk.ko.xz" names module "null_blk";
 * '-' and '_' are the same in module names. */
static bool module_name_matches(const char *path, size_t len, const char *name)
{
	const char *base = path;
	for (size_t i = 0; i < len; i++)
		if (path[i] == '/')
			base = path + i + 1;
	size_t blen = (size_t)(path + len - base);
	size_t nlen = strlen(name);
	if (blen < nlen + 3 || strncmp(base + nlen, ".ko", 3) != 0)
		return false;
	for (size_t i = 0; i < nlen; i++) {
		char a = base[i] == '-' ? '_' : base[i], b = name[i] == '-' ? '_' : name[i];
		if (a != b)
			return false;
	}
	return true;
}

bool ramdisk_modules_dep_has(const char *text, const char *name)
{
	for (const char *line = text; line && *line;) {
		const char *colon = strchr(line, ':');
		const char *nl = strchr(line, '\n');
		if (colon && (!nl || colon < nl) && module_name_matches(line, (size_t)(colon - line), name))
			return true;
		line = nl ? nl + 1 : NULL;
	}
	return false;
}

static void modules_dir(const struct ramdisk_paths *p, char *buf, size_t len)
{
	if (p->modules) {
		snprintf(buf, len, "%s", p->modules);
		return;
	}
	struct utsname u;
	if (uname(&u) < 0)
		snprintf(u.release, sizeof(u.release), "unknown");
	snprintf(buf, len, "/lib/modules/%s", u.release);
}

int ramdisk_module_present(const struct ramdisk_paths *p, const char *name)
{
	char dir[256], path[300];
	modules_dir(p, dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/modules.dep", dir);
	_cleanup_fclose_ FILE *f = fopen(path, "re");
	if (!f)
		return -errno;
	char line[4096];
	while (fgets(line, sizeof(line), f))
		if (ramdisk_modules_dep_has(line, name))
			return 1;
	return 0;
}

static void copy_error(const struct spawn_result *res, const char *what, char *why, size_t len)
{
	const char *msg = res->err.len ? res->err.buf : res->out.buf;
	size_t n = strlen(msg ? msg : "");
	while (n > 0 && (msg[n - 1] == '\n' || msg[n - 1] == ' '))
		n--;
	if (res->signal)
		snprintf(why, len, "%s was killed by signal %d", what, res->signal);
	else
		snprintf(why, len, "%s failed (exit %d)%s%.*s", what, res->status, n ? ": " : "", (int)n,
			 msg ? msg : "");
}

static int run_modprobe(const char *const *argv, const char *what, char *why, size_t len)
{
	struct spawn_result res;
	int r = spawn_run(argv, 60000, &res);
	if (r == -ENOENT)
		snprintf(why, len, "%s is not installed (kmod)", argv[0]);
	else if (r < 0)
		snprintf(why, len, "cannot run %s: %s", what, strerror(-r));
	else if (res.status != 0) {
		copy_error(&res, what, why, len);
		r = -EIO;
	}
	spawn_result_release(&res);
	return r;
}

int ramdisk_modprobe(const char *name, const char *const *params, char *why, size_t len)
{
	const char *argv[24];
	size_t n = 0;
	argv[n++] = "modprobe";
	argv[n++] = name;
	for (size_t i = 0; params && params[i] && n < ARRAY_SIZE(argv) - 1; i++)
		argv[n++] = params[i];
	argv[n] = NULL;
	char what[64];
	snprintf(what, sizeof(what), "modprobe %s", name);
	return run_modprobe(argv, what, why, len);
}

int ramdisk_modprobe_remove(const char *name, char *why, size_t len)
{
	/* rmmod, not modprobe -r: only this module, never its dependencies
	 * (busybox's modprobe -r fails when a dependency is still in use). */
	const char *argv[] = { "rmmod", name, NULL };
	char what[64];
	snprintf(what, sizeof(what), "rmmod %s", name);
	return run_modprobe(argv, what, why, len);
}

int ramdisk_dev_fill(const struct ramdisk_paths *p, const char *name, struct ramdisk_dev *d)
{
	char path[256], buf[64], kname[32];
	snprintf(kname, sizeof(kname), "%s", name); /* NAME may be d->kname itself */
	snprintf(d->kname, sizeof(d->kname), "%s", kname);
	snprintf(d->path, sizeof(d->path), "%s/%s", p->dev, kname);
	snprintf(path, sizeof(path), "%s/class/block/%s/dev", p->sysfs, kname);
	unsigned maj, min;
	int r = read_small_file(path, buf, sizeof(buf));
	if (r < 0)
		return r;
	if (sscanf(buf, "%u:%u", &maj, &min) != 2)
		return -EINVAL;
	d->rdev = makedev(maj, min);
	snprintf(path, sizeof(path), "%s/class/block/%s/diskseq", p->sysfs, kname);
	d->diskseq = 0;
	if (read_small_file(path, buf, sizeof(buf)) > 0)
		d->diskseq = strtoull(buf, NULL, 10);
	snprintf(path, sizeof(path), "%s/class/block/%s/size", p->sysfs, kname);
	if (read_small_file(path, buf, sizeof(buf)) > 0)
		d->size = strtoull(buf, NULL, 10) * 512;
	snprintf(path, sizeof(path), "%s/class/block/%s/queue/logical_block_size", p->sysfs, kname);
	if (read_small_file(path, buf, sizeof(buf)) > 0)
		d->sector_size = (unsigned)strtoul(buf, NULL, 10);
	return 0;
}

int ramdisk_wait_node(const struct ramdisk_paths *p, const char *kname, int timeout_ms)
{
	char path[128];
	snprintf(path, sizeof(path), "%s/%s", p->dev, kname);
	const struct timespec tick = { 0, 10 * 1000 * 1000 };
	for (int waited = 0;; waited += 10) {
		struct stat st;
		if (stat(path, &st) == 0 && S_ISBLK(st.st_mode))
			return 0;
		if (waited >= timeout_ms)
			return -ENOENT;
		if (interrupt_requested())
			return -EINTR;
		nanosleep(&tick, NULL);
	}
}
