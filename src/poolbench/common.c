/* poolbench/common.c: test names, outcomes, and the cache controls. */
#include "poolbench/poolbench.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "basic/fsutil.h"
#include "basic/pagecache.h"

static const char *const test_names[PB_NTESTS] = { "fio", "elbencho", "dd", "iozone", "builtin" };

const char *pb_test_name(enum pb_test t)
{
	return test_names[t];
}

int pb_tests_parse(const char *list, unsigned *ret_mask, char *err, size_t len)
{
	if (strcmp(list, "all") == 0) {
		*ret_mask = (1u << PB_NTESTS) - 1;
		return 0;
	}
	unsigned mask = 0;
	const char *p = list;
	do {
		size_t n = strcspn(p, ",");
		int found = -1;
		for (int t = 0; t < PB_NTESTS; t++)
			if (n == strlen(test_names[t]) && strncmp(p, test_names[t], n) == 0)
				found = t;
		if (found < 0) {
			snprintf(err, len, "unknown test '%.*s': expected fio, elbencho, dd, iozone, builtin or all",
				 (int)n, p);
			return -EINVAL;
		}
		mask |= 1u << found;
		p += n;
	} while (*p++ == ',');
	*ret_mask = mask;
	return 0;
}

void pb_outcome_init(struct pb_outcome *o, enum pb_test t)
{
	*o = (struct pb_outcome){ .test = t, .state = PB_RAN, .raw = STRBUF_INIT };
}

void pb_outcome_release(struct pb_outcome *o)
{
	strbuf_release(&o->raw);
	for (size_t i = 0; i < 2; i++)
		jv_free(o->fio_docs[i]);
	o->fio_docs[0] = o->fio_docs[1] = NULL;
}

struct pb_figure *pb_add_figure(struct pb_outcome *o, const char *label, bool is_read)
{
	if (o->nfigures == PB_MAX_FIGURES)
		return NULL;
	struct pb_figure *f = &o->figures[o->nfigures++];
	*f = (struct pb_figure){ .is_read = is_read };
	snprintf(f->label, sizeof(f->label), "%s", label);
	return f;
}

const char *pb_read_cache_label(const struct pb_context *c, bool bypassed)
{
	return bypassed && !c->arc_data_cached ? PB_CACHE_POOL : PB_CACHE_CACHE;
}

bool pb_drop_caches(int fd)
{
	return pagecache_drop(fd);
}

bool pb_skip_without_files(const struct pb_context *c, struct pb_outcome *o)
{
	if (!c->rbd_image && !c->block_device)
		return false;
	o->state = PB_SKIPPED;
	if (c->rbd_image)
		snprintf(o->reason, sizeof(o->reason), "an RBD image has no file system: only fio (its rbd engine) runs "
						       "there; a CephFS mount takes the other tests");
	else
		snprintf(o->reason, sizeof(o->reason), "a zvol is a block device: only fio and the built-in engine run "
						       "there; a dataset (benchpool without --zvol) takes the other tests");
	return true;
}

bool pb_direct_supported(const char *dir)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/.iotriage-direct-probe", dir);
	int fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_DIRECT | O_CLOEXEC, 0600);
	if (fd < 0) {
		if (errno == EINVAL)
			return false;
		/* O_CREAT|O_DIRECT may fail for other reasons: ask without O_DIRECT. */
		fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600);
		if (fd < 0)
			return false;
		close(fd);
		fd = open(path, O_WRONLY | O_DIRECT | O_CLOEXEC);
	}
	bool ok = fd >= 0;
	if (fd >= 0)
		close(fd);
	unlink(path);
	return ok;
}

bool pb_pool_full(int r, const char *text)
{
	if (r == -ENOSPC || r == -EDQUOT)
		return true;
	return text && (strstr(text, "No space left on device") || strstr(text, "Disk quota exceeded") ||
			strstr(text, "err=28") || strstr(text, "error=No space"));
}

void pb_failure_reason(int r, const char *detail, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s", pb_pool_full(r, detail) ? "the pool is full: " : "", detail);
}
