/* The read batch: disks read serially or all at once, with their log
 * lines, then ranked. */
#include "triage/media/read_batch.h"

#include <fnmatch.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "basic/humanize.h"
#include "basic/interrupt.h"
#include "basic/log.h"
#include "basic/strbuf.h"
#include "triage/media/read_health.h"
#include "triage/media/read_link.h"

#define SYSFS_ROOT "/sys"
#define DEV_ROOT "/dev"

void readtest_opts_default(struct readtest_opts *opts)
{
	*opts = (struct readtest_opts){
		.size = READTEST_DEFAULT_SIZE,
		.bs = READTEST_DEFAULT_BS,
		.iodepth = 1,
		.engine = "auto",
		.progress = NULL, /* the command sets its terminal line */
	};
}

/* ---- one read, its log lines ---- */

/* Read by this process: not skipped, and on this host (the others are
 * read_remote's). */
static bool read_here(const struct disk_read *d)
{
	return d->status != READTEST_SKIPPED && !d->host[0];
}

static void log_starting(const struct disk_read *d, const struct readtest_opts *opts)
{
	char size[32], bs[32];
	human_size_exact(opts->size, size, sizeof(size));
	human_size_exact(opts->bs, bs, sizeof(bs));
	log_msg(LOG_INFO, "READ-DISK (%s): starting: O_DIRECT sequential read of %s in %s blocks, queue depth %u, engine %s",
		d->info.dev_path, size, bs, opts->iodepth, opts->engine);
}

static void log_outcome(const struct disk_read *d)
{
	if (d->status == READTEST_SKIPPED && d->info.skip_reason) {
		/* Not a disk: the terminal has one line for all of them. */
		log_file_only(LOG_INFO, "READ-DISK (%s): skipped: %s", d->info.dev_path, d->reason);
		return;
	}
	if (d->status == READTEST_SKIPPED) {
		log_msg(LOG_INFO, "READ-DISK (%s): skipped: %s", d->info.dev_path, d->reason);
		return;
	}
	if (d->status == READTEST_ERROR) {
		log_msg(LOG_ERR, "READ-DISK (%s): failed: %s", d->info.dev_path, d->reason);
		return;
	}
	char summary[160];
	human_dd_summary(d->res->bytes, d->res->seconds, summary, sizeof(summary));
	log_msg(LOG_INFO, "READ-DISK (%s): completed: %s", d->info.dev_path, summary);
	if (d->truncated)
		log_msg(LOG_WARN, "READ-DISK (%s): %s", d->info.dev_path, d->reason);
}

static void *finish_read_main(void *reader)
{
	readtest_finish(reader);
	return NULL;
}

/* The bytes a read of D is planned to take: the size asked for, or the
 * whole disk when it holds less. */
static uint64_t planned_bytes(const struct disk_read *d, const struct readtest_opts *opts)
{
	return d->info.size_bytes && d->info.size_bytes < opts->size ? d->info.size_bytes : opts->size;
}

/* Its progress units: bytes, or the IOPS pass's milliseconds (time-based:
 * planned in bytes, its percent and ETA would mean nothing). */
static uint64_t planned_units(const struct disk_read *d, const struct readtest_opts *opts)
{
	return opts->random ? readtest_planned_ms(opts) : planned_bytes(d, opts);
}

/* Starts B's progress over the disks still to read, AT_ONCE or one after
 * another; returns their number. The IOPS pass read at once takes one
 * runtime, whatever the number of disks. */
static size_t start_progress(struct read_batch *b, bool at_once)
{
	size_t disks = 0;
	uint64_t total = 0;
	for (size_t i = 0; i < b->count; i++) {
		if (!read_here(&b->reads[i]))
			continue;
		disks++;
		total += planned_units(&b->reads[i], &b->opts);
	}
	if (b->opts.random)
		progress_start_clock(b->progress, at_once && disks ? total / disks : total);
	else
		progress_start(b->progress, total, true);
	return disks;
}

/* Waits for the reader threads STARTED, telling the progress the bytes
 * read by all of them about every 100 ms (in the IOPS pass, the time the
 * longest-running one has run). */
static void wait_all(struct read_batch *b, pthread_t *threads, bool *started)
{
	const struct timespec tick = { 0, 100 * 1000 * 1000 };
	for (;;) {
		size_t running = 0;
		uint64_t bytes = 0;
		for (size_t i = 0; i < b->count; i++) {
			if (started[i] && pthread_tryjoin_np(threads[i], NULL) == 0)
				started[i] = false;
			running += started[i];
			uint64_t done = __atomic_load_n(&b->reads[i].live_bytes, __ATOMIC_RELAXED);
			if (b->opts.random)
				bytes = done > bytes ? done : bytes;
			else
				bytes += done;
		}
		progress_set(b->progress, bytes);
		if (!running)
			return;
		nanosleep(&tick, NULL);
	}
}

/* Every reader is forked from this thread (see readtest_start), and all of
 * them before the first waiting thread starts: a fork while a thread of
 * ours runs can copy a lock that thread holds (a starting thread holds
 * the sanitizer's thread registry and allocator locks; GCC 12's libasan
 * takes none of them around fork) into a child that then waits on it
 * forever. The forked readers wait to be released, all within a few
 * microseconds: forks one after another (up to a second each under a
 * sanitizer in the lab VM) would stagger their reads. */
static void read_all_at_once(struct read_batch *b)
{
	struct readtest_opts opts = b->opts;
	opts.progress = NULL; /* several devices cannot share one progress line */
	opts.live = NULL;     /* told from here, by wait_all */
	pthread_t *threads = xcalloc(b->count, sizeof(*threads));
	struct readtest_reader **readers = xcalloc(b->count, sizeof(*readers));
	bool *started = xcalloc(b->count, sizeof(*started));
	size_t disks = start_progress(b, true);
	for (size_t i = 0; i < b->count; i++) {
		if (!read_here(&b->reads[i]))
			continue;
		log_starting(&b->reads[i], &b->opts);
		readers[i] = readtest_start(&b->reads[i], &opts);
	}
	for (size_t i = 0; i < b->count; i++)
		readtest_release(readers[i]);
	for (size_t i = 0; i < b->count; i++) {
		if (!readers[i])
			continue;
		if (pthread_create(&threads[i], NULL, finish_read_main, readers[i]) != 0)
			readtest_finish(readers[i]); /* waits here instead */
		else
			started[i] = true;
	}
	progress_what(b->progress, "reading %zu disk%s at once", disks, disks == 1 ? "" : "s");
	wait_all(b, threads, started);
	progress_finish(b->progress);
	for (size_t i = 0; i < b->count; i++)
		if (!b->reads[i].host[0])
			log_outcome(&b->reads[i]);
	free(readers);
	free(threads);
	free(started);
}

static void read_one_by_one(struct read_batch *b)
{
	struct readtest_opts opts = b->opts;
	opts.live = b->progress;
	size_t disks = start_progress(b, false), n = 0;
	for (size_t i = 0; i < b->count; i++) {
		struct disk_read *d = &b->reads[i];
		if (d->host[0])
			continue; /* read on its host, after these */
		if (d->status != READTEST_SKIPPED && interrupt_requested()) {
			d->status = READTEST_SKIPPED;
			snprintf(d->reason, sizeof(d->reason), "not read: interrupted");
		}
		if (d->status != READTEST_SKIPPED) {
			log_starting(d, &b->opts);
			progress_what(b->progress, "reading %s (disk %zu of %zu)", d->info.dev_path, ++n, disks);
			readtest_run(d, &opts);
			progress_part_end(b->progress, planned_units(d, &b->opts));
		}
		log_outcome(d);
	}
	progress_finish(b->progress);
}

size_t read_batch_execute(struct read_batch *b)
{
	read_link_gather(SYSFS_ROOT, b->reads, b->count);
	if (!b->health_swept) {
		b->health_swept = true;
		read_health_sweep(b->reads, b->count);
	}
	if (b->parallel)
		read_all_at_once(b);
	else
		read_one_by_one(b);
	read_remote_execute(b->reads, b->count, &b->opts, &b->remote);
	free(b->order);
	b->order = xcalloc(b->count, sizeof(*b->order));
	b->median_bw = readtest_rank(b->reads, b->count, b->order);
	size_t errors = 0;
	for (size_t i = 0; i < b->count; i++)
		errors += b->reads[i].status == READTEST_ERROR;
	return errors;
}

size_t read_batch_count(const struct read_batch *b, enum readtest_status s)
{
	size_t n = 0;
	for (size_t i = 0; i < b->count; i++)
		n += b->reads[i].status == s;
	return n;
}

void read_batch_release(struct read_batch *b)
{
	for (size_t i = 0; i < b->count; i++)
		disk_read_release(&b->reads[i]);
	free(b->reads);
	free(b->order);
	b->reads = NULL;
	b->order = NULL;
	b->count = 0;
}

void read_describe_path(const char *path, struct disk_info *info)
{
	struct stat st;
	/* A whole disk gets its sysfs description, a partition its parent's
	 * identity with its own name, number and size (disk_describe_devnum). */
	if (stat(path, &st) == 0 && S_ISBLK(st.st_mode))
		disk_describe_devnum(SYSFS_ROOT, DEV_ROOT, major(st.st_rdev), minor(st.st_rdev), info);
	/* Keep the path as the user gave it: it is how they know the device. */
	snprintf(info->dev_path, sizeof(info->dev_path), "%s", path);
	if (!info->kname[0]) {
		const char *slash = strrchr(path, '/');
		snprintf(info->kname, sizeof(info->kname), "%s", slash ? slash + 1 : path);
	}
}

static bool matches(const struct disk_info *d, const char *const *globs, size_t n)
{
	if (n == 0)
		return true;
	for (size_t i = 0; i < n; i++)
		if (fnmatch(globs[i], d->kname, 0) == 0 || fnmatch(globs[i], d->dev_path, 0) == 0)
			return true;
	return false;
}

/* The kinds of device that are not disks (disk/enumerate.h's skip
 * reasons), in the words of the summary line. */
static const struct {
	const char *reason, *words;
} not_disk_kinds[] = {
	{ "loop device not attached", "unattached loop" },
	{ "zram device not initialised", "uninitialised zram" },
	{ "no medium", "empty removable" },
};

/* One line for every device of B that is not a disk, by kind. */
static void log_not_disks(const struct read_batch *b)
{
	size_t n = sizeof(not_disk_kinds) / sizeof(not_disk_kinds[0]);
	size_t counts[sizeof(not_disk_kinds) / sizeof(not_disk_kinds[0]) + 1] = { 0 }, total = 0;
	for (size_t i = 0; i < b->count; i++) {
		const char *reason = b->reads[i].info.skip_reason;
		if (!reason)
			continue;
		size_t k = 0;
		while (k < n && strcmp(reason, not_disk_kinds[k].reason) != 0)
			k++;
		counts[k]++; /* k == n: any other empty device */
		total++;
	}
	if (!total)
		return;
	struct strbuf line = STRBUF_INIT;
	for (size_t k = 0; k <= n; k++)
		if (counts[k])
			strbuf_addf(&line, "%s%zu %s", line.len ? ", " : "", counts[k],
				    k < n ? not_disk_kinds[k].words : "empty");
	log_msg(LOG_INFO, "skipped %zu %s: %s (--json lists each)", total,
		total == 1 ? "device that is not a disk" : "devices that are not disks", line.buf);
	strbuf_release(&line);
}

int read_batch_add_system_disks(struct read_batch *b, const char *const *globs, size_t nglobs)
{
	struct disk_list list;
	int r = disk_enumerate(SYSFS_ROOT, DEV_ROOT, &list);
	if (r < 0)
		return r;
	b->reads = xcalloc(list.count, sizeof(*b->reads));
	for (size_t i = 0; i < list.count; i++) {
		if (!matches(&list.disks[i], globs, nglobs))
			continue;
		struct disk_read *d = &b->reads[b->count++];
		d->info = list.disks[i];
		if (d->info.skip_reason) {
			d->status = READTEST_SKIPPED;
			snprintf(d->reason, sizeof(d->reason), "%s", d->info.skip_reason);
		}
	}
	disk_list_free(&list);
	log_not_disks(b);
	return 0;
}
