/* ramdisk/registry.c: which RAM disks are iotriage's. A record per device
 * in the state directory and a friendly link in /dev, both named
 * iotriage-ramdiskN. See ramdisk.h for what makes an entry stale. */
#include "basic/strbuf.h"
#include "ramdisk/ramdisk.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "basic/fsutil.h"
#include "basic/interrupt.h"
#include "basic/parse.h"

void ramdisk_record_format(const struct ramdisk_dev *d, char *buf, size_t len)
{
	snprintf(buf, len,
		 "index=%u\nbackend=%s\nkname=%s\ndev=%u:%u\ndiskseq=%" PRIu64 "\nsize=%" PRIu64
		 "\nsector_size=%u\nndelay_ns=%" PRIu64 "\nby_id=%s\nby_id_ours=%d\nconfigfs=%s\nmodule_loaded=%d\n"
		 "run_id=%s\n",
		 d->index, d->backend, d->kname, major(d->rdev), minor(d->rdev), d->diskseq, d->size, d->sector_size,
		 d->ndelay_ns, d->by_id, d->by_id_ours, d->configfs, d->module_loaded, d->run_id);
}

/* A record being read: the device and whether the keys it needs came. */
struct record_read {
	struct ramdisk_dev *d;
	bool have_index, have_kname;
};

static void record_set(const char *k, const char *v, void *arg)
{
	struct record_read *r = arg;
	struct ramdisk_dev *d = r->d;
	unsigned maj, min;
	if (strcmp(k, "index") == 0) {
		d->index = (unsigned)strtoul(v, NULL, 10);
		r->have_index = true;
	} else if (strcmp(k, "backend") == 0)
		snprintf(d->backend, sizeof(d->backend), "%s", v);
	else if (strcmp(k, "kname") == 0) {
		snprintf(d->kname, sizeof(d->kname), "%s", v);
		r->have_kname = *v && !strchr(v, '/');
	} else if (strcmp(k, "dev") == 0 && sscanf(v, "%u:%u", &maj, &min) == 2)
		d->rdev = makedev(maj, min);
	else if (strcmp(k, "diskseq") == 0)
		d->diskseq = strtoull(v, NULL, 10);
	else if (strcmp(k, "size") == 0)
		d->size = strtoull(v, NULL, 10);
	else if (strcmp(k, "sector_size") == 0)
		d->sector_size = (unsigned)strtoul(v, NULL, 10);
	else if (strcmp(k, "ndelay_ns") == 0)
		d->ndelay_ns = strtoull(v, NULL, 10);
	else if (strcmp(k, "by_id") == 0)
		snprintf(d->by_id, sizeof(d->by_id), "%s", v);
	else if (strcmp(k, "by_id_ours") == 0)
		d->by_id_ours = strcmp(v, "1") == 0;
	else if (strcmp(k, "configfs") == 0)
		snprintf(d->configfs, sizeof(d->configfs), "%s", v);
	else if (strcmp(k, "module_loaded") == 0)
		d->module_loaded = strcmp(v, "1") == 0;
	else if (strcmp(k, "run_id") == 0)
		snprintf(d->run_id, sizeof(d->run_id), "%s", v);
}

int ramdisk_record_parse(const char *text, struct ramdisk_dev *d)
{
	memset(d, 0, sizeof(*d));
	struct record_read r = { .d = d };
	if (parse_key_values(text, record_set, &r) < 0)
		return -EINVAL;
	return r.have_index && r.have_kname && d->backend[0] ? 0 : -EINVAL;
}

static void record_path(const struct ramdisk_paths *p, unsigned index, char *buf, size_t len)
{
	snprintf(buf, len, "%s/" RAMDISK_LINK_PREFIX "%u", p->state, index);
}

static void link_path(const struct ramdisk_paths *p, unsigned index, char *buf, size_t len)
{
	snprintf(buf, len, "%s/" RAMDISK_LINK_PREFIX "%u", p->dev, index);
}

int ramdisk_registry_save(const struct ramdisk_paths *p, const struct ramdisk_dev *d)
{
	char path[PATH_MAX], text[2048];
	record_path(p, d->index, path, sizeof(path));
	ramdisk_record_format(d, text, sizeof(text));
	int r = mkdir_p(p->state, 0755);
	if (r < 0)
		return r;
	return write_file_atomic(path, text, strlen(text), 0644);
}

int ramdisk_registry_reserve(const struct ramdisk_paths *p, unsigned index, struct ramdisk_reservation *ret)
{
	ret->fd = -1;
	int r = mkdir_p(p->state, 0755);
	if (r < 0)
		return r;
	record_path(p, index, ret->path, sizeof(ret->path));
	snprintf(ret->tmp, sizeof(ret->tmp), "%s.tmp.XXXXXX", ret->path);
	ret->fd = mkostemp(ret->tmp, O_CLOEXEC);
	if (ret->fd < 0)
		return -errno;
	fchmod(ret->fd, 0644);
	return 0;
}

int ramdisk_registry_commit(struct ramdisk_reservation *r, const struct ramdisk_dev *d)
{
	char text[2048];
	ramdisk_record_format(d, text, sizeof(text));
	size_t len = strlen(text);
	if (pwrite(r->fd, text, len, 0) != (ssize_t)len)
		return errno ? -errno : -EIO;
	if (rename(r->tmp, r->path) < 0)
		return -errno;
	r->tmp[0] = '\0';
	return 0;
}

void ramdisk_registry_release(struct ramdisk_reservation *r)
{
	if (r->tmp[0] && r->fd >= 0)
		unlink(r->tmp);
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
}

int ramdisk_registry_link(const struct ramdisk_paths *p, struct ramdisk_dev *d)
{
	char path[PATH_MAX], tmp[PATH_MAX + 16];
	link_path(p, d->index, path, sizeof(path));
	snprintf(d->link, sizeof(d->link), "%s", path);
	/* Never replace anything but a link (a device node, a file). */
	struct stat st;
	if (lstat(path, &st) == 0 && !S_ISLNK(st.st_mode))
		return -EEXIST;
	/* A new link under a temporary name, renamed over any old one. */
	snprintf(tmp, sizeof(tmp), "%s.tmp%d", path, (int)getpid());
	unlink(tmp);
	if (symlink(d->path, tmp) < 0)
		return -errno;
	if (rename(tmp, path) < 0) {
		int r = -errno;
		unlink(tmp);
		return r;
	}
	return 0;
}

static bool parse_index(const char *name, unsigned *ret, bool *ret_tmp);

/* Removes "iotriage-ramdiskN.tmp*" in DIR: the temporaries of a killed write. */
static void remove_temporaries(const char *dir, unsigned index)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *de;
	while ((de = readdir(d))) {
		unsigned i;
		bool tmp;
		if (parse_index(de->d_name, &i, &tmp) && tmp && i == index) {
			char path[PATH_MAX];
			snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
			unlink(path);
		}
	}
	closedir(d);
}

int ramdisk_registry_remove(const struct ramdisk_paths *p, const struct ramdisk_dev *d)
{
	remove_temporaries(p->state, d->index);
	remove_temporaries(p->dev, d->index);
	char path[PATH_MAX];
	int r = 0;
	link_path(p, d->index, path, sizeof(path));
	struct stat st;
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode) && unlink(path) < 0)
		r = -errno;
	record_path(p, d->index, path, sizeof(path));
	if (unlink(path) < 0 && errno != ENOENT && r == 0)
		r = -errno;
	/* The state directory goes with its last record (and /run/iotriage, when empty). */
	if (rmdir(p->state) == 0) {
		char parent[PATH_MAX];
		snprintf(parent, sizeof(parent), "%s", p->state);
		char *slash = strrchr(parent, '/');
		if (slash && slash != parent) {
			*slash = '\0';
			rmdir(parent);
		}
	}
	return r;
}

int ramdisk_registry_forget(const struct ramdisk_paths *p, const struct ramdisk_entry *e)
{
	char why[200];
	/* What looks stale may be another run's record in the making: only
	 * with the registry to ourselves is anything removed. */
	int r = ramdisk_registry_claim(p, 0, why, sizeof(why));
	if (r < 0)
		return r;
	return ramdisk_registry_remove(p, &e->dev);
}

/* The claim: an flock on "<state>.lock", held until this process exits. */
static int claim_fd = -1;

static void lock_path(const struct ramdisk_paths *p, char *buf, size_t len)
{
	snprintf(buf, len, "%s.lock", p->state);
}

int ramdisk_registry_claim(const struct ramdisk_paths *p, int timeout_ms, char *why, size_t len)
{
	if (claim_fd >= 0)
		return 0;
	char path[PATH_MAX], parent[PATH_MAX];
	lock_path(p, path, sizeof(path));
	snprintf(parent, sizeof(parent), "%s", path);
	char *slash = strrchr(parent, '/');
	if (slash && slash != parent) {
		*slash = '\0';
		mkdir_p(parent, 0755);
	}
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0) {
		int r = -errno;
		snprintf(why, len, "cannot open the lock '%s': %s", path, strerror(-r));
		return r;
	}
	for (int waited = 0; flock(fd, LOCK_EX | LOCK_NB) < 0; waited += 100) {
		int r = -errno;
		if (r == -EINTR)
			continue;
		/* Ctrl-C (or a fleet's remote run told to stop) while another run
		 * holds the claim: give up now, nothing has been made yet. */
		if (r == -EWOULDBLOCK && interrupt_requested()) {
			snprintf(why, len, "interrupted while waiting for another iotriage to finish with RAM disks");
			close(fd);
			return -EINTR;
		}
		if (r != -EWOULDBLOCK || waited >= timeout_ms) {
			char holder[32] = "";
			if (pread(fd, holder, sizeof(holder) - 1, 0) > 0)
				holder[strcspn(holder, "\n")] = '\0';
			if (r == -EWOULDBLOCK)
				snprintf(why, len, "another iotriage (pid %s) is creating or removing RAM disks (waited %d s); "
					 "try again when it is done", holder[0] ? holder : "?", waited / 1000);
			else
				snprintf(why, len, "cannot lock '%s': %s", path, strerror(-r));
			close(fd);
			return r == -EWOULDBLOCK ? -EBUSY : r;
		}
		usleep(100 * 1000);
	}
	char pid[32];
	int n = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) == 0 && pwrite(fd, pid, (size_t)n, 0) < 0)
		(void)0; /* the pid is for messages only */
	claim_fd = fd;
	return 0;
}

int ramdisk_registry_claim_for_create(const struct ramdisk_paths *p, char *why, size_t len)
{
	int r = ramdisk_registry_claim(p, RAMDISK_CLAIM_WAIT_MS, why, len);
	if (r < 0)
		return r;
	/* Under the claim: did another run create RAM disks since this one looked? */
	struct ramdisk_entry *list = NULL;
	size_t n = 0;
	r = ramdisk_registry_scan(p, &list, &n);
	if (r < 0) {
		snprintf(why, len, "cannot read the records in '%s': %s", p->state, strerror(-r));
		return r;
	}
	for (size_t i = 0; i < n; i++) {
		if (list[i].state != RAMDISK_LIVE)
			continue;
		snprintf(why, len, "another iotriage run created RAM disks meanwhile (%s -> %s, %s); "
			 "nothing created: use them, or run 'iotriage ramdisk destroy' first",
			 list[i].dev.link, list[i].dev.path, list[i].dev.backend);
		free(list);
		return -EEXIST;
	}
	free(list);
	return 0;
}

/* Parses "iotriage-ramdiskN", or "iotriage-ramdiskN.tmp..." (a temporary
 * of write_file_atomic or of the link's rename) with *RET_TMP set. */
static bool parse_index(const char *name, unsigned *ret, bool *ret_tmp)
{
	size_t plen = strlen(RAMDISK_LINK_PREFIX);
	if (strncmp(name, RAMDISK_LINK_PREFIX, plen) != 0 || name[plen] < '0' || name[plen] > '9')
		return false;
	unsigned v = 0;
	const char *c = name + plen;
	for (; *c >= '0' && *c <= '9'; c++) {
		if (v > 100000)
			return false;
		v = v * 10 + (unsigned)(*c - '0');
	}
	if (*c && strncmp(c, ".tmp", 4) != 0)
		return false;
	*ret = v;
	*ret_tmp = *c != '\0';
	return true;
}

static struct ramdisk_entry *entry_for(struct ramdisk_entry **list, size_t *n, size_t *cap, unsigned index)
{
	for (size_t i = 0; i < *n; i++)
		if ((*list)[i].dev.index == index)
			return &(*list)[i];
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 8;
		struct ramdisk_entry *grown = xreallocarray(*list, *cap, sizeof(**list));
		*list = grown;
	}
	struct ramdisk_entry *e = &(*list)[(*n)++];
	memset(e, 0, sizeof(*e));
	e->dev.index = index;
	return e;
}

static void collect(const char *dir, bool links, struct ramdisk_entry **list, size_t *n, size_t *cap)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *de;
	while ((de = readdir(d))) {
		unsigned index;
		bool tmp;
		if (!parse_index(de->d_name, &index, &tmp) || (tmp && links))
			continue;
		char path[PATH_MAX];
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		struct stat st;
		if (lstat(path, &st) < 0)
			continue;
		if (links && !S_ISLNK(st.st_mode))
			continue;
		if (!links && !S_ISREG(st.st_mode))
			continue;
		struct ramdisk_entry *e = entry_for(list, n, cap, index);
		if (links) {
			e->has_link = true;
		} else if (!tmp || !e->has_record) {
			/* A run killed between writing a record and renaming it into
			 * place left the whole record in the temporary: use it. */
			e->has_record = true;
			snprintf(e->record_file, sizeof(e->record_file), "%s", path);
		}
	}
	closedir(d);
}

static void verify(const struct ramdisk_paths *p, struct ramdisk_entry *e)
{
	char path[PATH_MAX], text[4096];
	unsigned index = e->dev.index;
	if (!e->has_record) {
		char target[PATH_MAX] = "?";
		link_path(p, index, path, sizeof(path));
		ssize_t k = readlink(path, target, sizeof(target) - 1);
		if (k >= 0)
			target[k] = '\0';
		snprintf(e->dev.link, sizeof(e->dev.link), "%s", path);
		snprintf(e->dev.path, sizeof(e->dev.path), "%.63s", target);
		e->state = RAMDISK_STALE;
		snprintf(e->stale_why, sizeof(e->stale_why),
			 "link to '%.60s' without a record (left by a killed run); the device is not touched", target);
		return;
	}
	snprintf(path, sizeof(path), "%s", e->record_file);
	int r = read_small_file(path, text, sizeof(text));
	struct ramdisk_dev rec;
	if (r < 0 || ramdisk_record_parse(text, &rec) < 0 || rec.index != index) {
		e->state = RAMDISK_STALE;
		snprintf(e->stale_why, sizeof(e->stale_why), "unreadable record '%.120s'", path);
		return;
	}
	e->dev = rec;
	snprintf(e->dev.path, sizeof(e->dev.path), "%s/%s", p->dev, rec.kname);
	link_path(p, index, e->dev.link, sizeof(e->dev.link));
	const struct ramdisk_backend *b = ramdisk_backend_find(rec.backend);
	struct ramdisk_dev now;
	memset(&now, 0, sizeof(now));
	if (!b || !b->owns(p, rec.kname) || ramdisk_dev_fill(p, rec.kname, &now) < 0) {
		e->state = RAMDISK_STALE;
		snprintf(e->stale_why, sizeof(e->stale_why), "its device %s (%s) no longer exists", rec.kname,
			 rec.backend);
		return;
	}
	/* A record written before the device was sized has no number yet. */
	if ((rec.rdev && now.rdev != rec.rdev) || (rec.diskseq && now.diskseq && now.diskseq != rec.diskseq)) {
		e->state = RAMDISK_STALE;
		snprintf(e->stale_why, sizeof(e->stale_why),
			 "%s is now another disk (device number or diskseq changed); it is not touched", rec.kname);
		return;
	}
	e->dev.rdev = now.rdev;
	e->dev.diskseq = now.diskseq;
	e->dev.size = now.size;
	e->dev.sector_size = now.sector_size;
	e->state = RAMDISK_LIVE;
	/* A link that points elsewhere counts as missing (repaired by root). */
	char target[PATH_MAX];
	ssize_t k = readlink(e->dev.link, target, sizeof(target) - 1);
	if (k >= 0)
		target[k] = '\0';
	e->has_link = k >= 0 && strcmp(target, e->dev.path) == 0;
}

static int cmp_entry(const void *a, const void *b)
{
	const struct ramdisk_entry *x = a, *y = b;
	return x->dev.index < y->dev.index ? -1 : x->dev.index > y->dev.index;
}

int ramdisk_registry_scan(const struct ramdisk_paths *p, struct ramdisk_entry **ret, size_t *ret_n)
{
	struct ramdisk_entry *list = NULL;
	size_t n = 0, cap = 0;
	collect(p->state, false, &list, &n, &cap);
	collect(p->dev, true, &list, &n, &cap);
	for (size_t i = 0; i < n; i++)
		verify(p, &list[i]);
	if (n)
		qsort(list, n, sizeof(*list), cmp_entry);
	*ret = list;
	*ret_n = n;
	return 0;
}
