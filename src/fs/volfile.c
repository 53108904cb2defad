/* fs/volfile.c: the tagged temporary test file of `volumes`. */
#include "fs/volfile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "basic/cleanup.h"
#include "basic/interrupt.h"
#include "basic/procowner.h"
#include "bench/pattern.h"
#include "bench/layout.h"
#include "bench/target.h"

#define FILL_STEP (32ULL << 20)
#define RUN_ID_LEN 16

static bool valid_run_id(const char *s, size_t len)
{
	if (len != RUN_ID_LEN)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return true;
}

int volfile_format_tag(char *buf, size_t len, const char *run_id, const struct proc_owner *owner)
{
	int n = snprintf(buf, len, "iotriage-volumes run=%s pid=%ld start=%llu boot=%s\n", run_id, owner->pid,
			 owner->start, owner->boot[0] ? owner->boot : "unknown");
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : n;
}

int volfile_parse_tag(const char *text, size_t len, char *ret_run_id, size_t id_len, struct proc_owner *ret)
{
	char line[128];
	const char *nl = memchr(text, '\n', len < sizeof(line) ? len : sizeof(line));
	if (!nl)
		return -EINVAL;
	snprintf(line, sizeof(line), "%.*s", (int)(nl - text), text);
	char id[RUN_ID_LEN + 2];
	struct proc_owner o = { .boot = "" };
	int consumed = 0, k = 0;
	if (sscanf(line, "iotriage-volumes run=%17[0-9a-f] pid=%ld start=%llu%n", id, &o.pid, &o.start, &consumed) !=
		    3 ||
	    !valid_run_id(id, strlen(id)) || o.pid <= 0 || id_len <= RUN_ID_LEN)
		return -EINVAL;
	/* " boot=<first group of the boot id>": absent in tags of older versions. */
	if (line[consumed] &&
	    (sscanf(line + consumed, " boot=%39[0-9a-zA-Z]%n", o.boot, &k) != 1 || line[consumed + k] != '\0'))
		return -EINVAL;
	if (strcmp(o.boot, "unknown") == 0)
		o.boot[0] = '\0';
	snprintf(ret_run_id, id_len, "%s", id);
	*ret = o;
	return 0;
}

/* The tag line, then incompressible data to the end of the block. */
static int write_tag_block(int fd, const char *run_id)
{
	struct proc_owner self;
	int r = proc_owner_self(&self);
	if (r < 0)
		return r;
	_cleanup_free_ char *block = malloc(VOLFILE_TAG_BYTES);
	if (!block)
		return -ENOMEM;
	struct prng rng;
	prng_seed(&rng, (uint64_t)self.start ^ (uint64_t)self.pid);
	pattern_fill(block, VOLFILE_TAG_BYTES, PATTERN_RANDOM, &rng);
	char tag[128];
	int n = volfile_format_tag(tag, sizeof(tag), run_id, &self);
	if (n < 0)
		return n;
	memcpy(block, tag, (size_t)n);
	ssize_t w = pwrite(fd, block, VOLFILE_TAG_BYTES, 0);
	if (w < 0)
		return -errno;
	return w == VOLFILE_TAG_BYTES ? 0 : -ENOSPC;
}

int volfile_create(const char *dir, const char *run_id, bool force_named, struct volfile *ret)
{
	if (!valid_run_id(run_id, strlen(run_id)))
		return -EINVAL;
	struct volfile f = VOLFILE_INIT;
	f.dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (f.dirfd < 0)
		return -errno;
	int r = 0;
	if (!force_named) {
		f.fd = openat(f.dirfd, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
		/* Refused by the file system (FUSE, old kernels): fall back to a name. */
		if (f.fd < 0 && errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL) {
			r = -errno;
			goto fail;
		}
	}
	if (f.fd < 0) {
		snprintf(f.name, sizeof(f.name), "%s%s", VOLFILE_PREFIX, run_id);
		f.fd = openat(f.dirfd, f.name, O_CREAT | O_EXCL | O_RDWR | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (f.fd < 0) {
			r = -errno;
			f.name[0] = '\0';
			goto fail;
		}
		f.named = true;
	}
	r = write_tag_block(f.fd, run_id);
	if (r < 0)
		goto fail;
	f.size = VOLFILE_TAG_BYTES;
	*ret = f;
	return 0;
fail:
	volfile_remove(&f);
	return r;
}

int volfile_fill(struct volfile *f, uint64_t size, uint64_t seed, struct progress *live)
{
	while (f->size < size) {
		if (interrupt_requested())
			return -EINTR;
		uint64_t to = size - f->size > FILL_STEP ? f->size + FILL_STEP : size;
		int r = pattern_write_file(f->fd, f->size, to, PATTERN_RANDOM, seed ^ f->size);
		if (r < 0)
			return r;
		f->size = to;
		progress_part(live, f->size);
	}
	return 0;
}

void volfile_reopen_path(const struct volfile *f, char *buf, size_t len)
{
	snprintf(buf, len, "/proc/self/fd/%d", f->fd);
}

int volfile_remove(struct volfile *f)
{
	int r = 0;
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
	if (f->named && f->name[0] && unlinkat(f->dirfd, f->name, 0) < 0 && errno != ENOENT)
		r = -errno;
	f->named = false;
	f->name[0] = '\0';
	if (f->dirfd >= 0)
		close(f->dirfd);
	f->dirfd = -1;
	return r;
}

/* Whether NAME in DFD is a tagged file of a run that is gone; then removes it. */
static bool sweep_one(int dfd, const char *name, const char *proc_root)
{
	const char *id = name + strlen(VOLFILE_PREFIX);
	if (strncmp(name, VOLFILE_PREFIX, strlen(VOLFILE_PREFIX)) != 0 || !valid_run_id(id, strlen(id)))
		return false;
	/* O_NONBLOCK: a FIFO with that name must not hang the open. */
	_cleanup_close_ int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st, again;
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		return false;
	char head[128], tag_id[RUN_ID_LEN + 1];
	struct proc_owner owner;
	ssize_t n = pread(fd, head, sizeof(head), 0);
	if (n <= 0 || volfile_parse_tag(head, (size_t)n, tag_id, sizeof(tag_id), &owner) < 0 ||
	    strcmp(tag_id, id) != 0)
		return false;
	if (!proc_owner_gone(proc_root, &owner))
		return false; /* its run is still going */
	/* Remove the file that was checked, not one swapped in since. */
	if (fstatat(dfd, name, &again, AT_SYMLINK_NOFOLLOW) < 0 || again.st_dev != st.st_dev ||
	    again.st_ino != st.st_ino)
		return false;
	return unlinkat(dfd, name, 0) == 0;
}

int volfile_sweep_stale(const char *dir, const char *proc_root, size_t *ret_removed)
{
	*ret_removed = 0;
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	DIR *d = fdopendir(fd);
	if (!d) {
		int r = -errno;
		close(fd);
		return r;
	}
	struct dirent *e;
	while ((e = readdir(d)))
		if (e->d_name[0] == '.' && sweep_one(dirfd(d), e->d_name, proc_root))
			(*ret_removed)++;
	closedir(d);
	return 0;
}
