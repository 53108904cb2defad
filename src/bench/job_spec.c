/* The rules of a job's spec: areas, offsets' steps, checks against a
 * target (see bench/job_spec.h). */
#include "bench/job_spec.h"

#include <errno.h>
#include <stdio.h>

int job_validate_timing(const struct job_spec *spec, char *msg, size_t len)
{
	if (spec->time_based && !spec->runtime_ns) {
		snprintf(msg, len, "a time-based run needs a runtime");
		return -EINVAL;
	}
	if (spec->ramp_ns && spec->runtime_ns && spec->ramp_ns > spec->runtime_ns) {
		snprintf(msg, len, "the ramp time (%.3g s) is longer than the runtime (%.3g s)",
			 (double)spec->ramp_ns / 1e9, (double)spec->runtime_ns / 1e9);
		return -EINVAL;
	}
	return 0;
}

/* The grain of offsets: the smallest block size. */
uint32_t job_grain(const struct job_spec *spec)
{
	return spec->bs_min ? spec->bs_min : spec->bs;
}

/* The step of random offsets in direction DIR: its ba, or the grain. */
uint64_t job_offset_step(const struct job_spec *spec, enum io_dir dir)
{
	return spec->ba[dir] ? spec->ba[dir] : job_grain(spec);
}

/* How many steps of DIR an area of SPAN holds with a block of the grain at
 * the last one (fio's last_block: SPAN less grain - ba when ba is smaller). */
uint64_t job_last_block(const struct job_spec *spec, uint64_t span, enum io_dir dir)
{
	uint64_t grain = job_grain(spec), ba = job_offset_step(spec, dir);
	return (span - (grain > ba ? grain - ba : 0)) / ba;
}

/* The direction a job's random offsets are placed for: its first. */
enum io_dir job_first_dir(const struct job_spec *spec)
{
	return spec->trim ? IO_TRIM : spec->read_pct > 0 ? IO_READ : IO_WRITE;
}

/* Whether a ba other than the grain places random offsets (a direction the job does). */
bool job_ba_used(const struct job_spec *spec)
{
	bool does[IO_DIRS] = { !spec->trim && spec->read_pct > 0, !spec->trim && spec->read_pct < 100, spec->trim };
	for (int d = 0; spec->random && d < IO_DIRS; d++)
		if (does[d] && job_offset_step(spec, (enum io_dir)d) != job_grain(spec))
			return true;
	return false;
}

/* blockalign: for uniform random offsets or zoned ones of one step (the
 * random map, the other distributions and several files place blocks by
 * the grain), a multiple of the direct I/O alignment, no larger than any
 * worker's area. Only the directions the job does count, as in fio. */
static int validate_ba(const struct job_spec *spec, const struct target *t, char *msg, size_t len)
{
	static const char *const names[IO_DIRS] = { "reads", "writes", "trims" };
	bool does[IO_DIRS] = { !spec->trim && spec->read_pct > 0, !spec->trim && spec->read_pct < 100, spec->trim };
	unsigned align = t->direct ? t->offset_align : 1;
	bool one_step = job_offset_step(spec, IO_READ) == job_offset_step(spec, IO_WRITE) || !does[IO_READ] || !does[IO_WRITE];
	for (int d = 0; job_ba_used(spec) && d < IO_DIRS; d++) {
		uint64_t ba = spec->ba[d];
		if (!does[d] || !ba || ba == job_grain(spec))
			continue;
		if (spec->random_map == JOB_MAP_ONCE || spec->nr_files > 1 ||
		    (spec->dist.kind != DIST_RANDOM && (spec->dist.kind != DIST_ZONED || !one_step))) {
			snprintf(msg, len, "blockalign (ba) needs uniform or zoned random offsets, one ba with zoned (no "
				 "random map, other random_distribution or several files)");
			return -EINVAL;
		}
		if (ba % align) {
			snprintf(msg, len, "blockalign (ba) %llu of the %s is not a multiple of %u bytes, the direct I/O "
				 "alignment of '%s'", (unsigned long long)ba, names[d], align, t->path);
			return -EINVAL;
		}
		for (unsigned i = 0; i < spec->numjobs; i++)
			if (job_worker_span(spec, t, i) < ba) {
				snprintf(msg, len, "blockalign (ba) %llu of the %s is larger than the %llu bytes of the "
					 "area", (unsigned long long)ba, names[d],
					 (unsigned long long)job_worker_span(spec, t, i));
				return -EINVAL;
			}
	}
	return 0;
}

int job_validate(const struct job_spec *spec, const struct target *t, char *msg, size_t len)
{
	unsigned align = t->direct ? t->offset_align : 1;
	if (spec->bs == 0) {
		snprintf(msg, len, "block size must be greater than 0");
		return -EINVAL;
	}
	for (unsigned i = 0; spec->bs_min && i <= spec->nr_split; i++) {
		uint32_t b = i < spec->nr_split ? spec->split[i].bs : spec->bs_min;
		if (b % align) {
			snprintf(msg, len, "block size %u is not a multiple of %u bytes, the direct I/O alignment of '%s'",
				 b, align, t->path);
			return -EINVAL;
		}
	}
	if (spec->bs % align) {
		snprintf(msg, len,
			 "block size %u is not a multiple of %u bytes, the direct I/O alignment of '%s'",
			 spec->bs, align, t->path);
		return -EINVAL;
	}
	if (spec->size % align) {
		snprintf(msg, len, "size %llu is not a multiple of %u bytes, the direct I/O alignment of '%s'",
			 (unsigned long long)spec->size, align, t->path);
		return -EINVAL;
	}
	if (spec->io_limit % align) {
		snprintf(msg, len, "I/O size %llu is not a multiple of %u bytes, the direct I/O alignment of '%s'",
			 (unsigned long long)spec->io_limit, align, t->path);
		return -EINVAL;
	}
	if (spec->iodepth < 1 || spec->iodepth > JOB_MAX_IODEPTH) {
		snprintf(msg, len, "queue depth must be between 1 and %d", JOB_MAX_IODEPTH);
		return -EINVAL;
	}
	if (spec->numjobs < 1 || spec->numjobs > JOB_MAX_THREADS) {
		snprintf(msg, len, "number of jobs must be between 1 and %d", JOB_MAX_THREADS);
		return -EINVAL;
	}
	if (spec->read_pct > 100) {
		snprintf(msg, len, "read percentage must be between 0 and 100");
		return -EINVAL;
	}
	int r = job_validate_timing(spec, msg, len);
	if (r < 0)
		return r;
	if (spec->nr_files > 1 && (spec->bs_min || spec->verify || spec->trim || spec->sync_every || spec->offset ||
				   spec->offset_increment || spec->seq_hole || spec->numjobs > 1 ||
				   !spec->size || spec->size % ((uint64_t)spec->bs * spec->nr_files))) {
		snprintf(msg, len, "several files (nrfiles) need one worker, one block size dividing each file's "
			 "size, and no verify, trim, fsync or offset");
		return -EINVAL;
	}
	if (spec->verify && spec->bs < VERIFY_MIN_BLOCK) {
		snprintf(msg, len, "verify needs blocks of %d bytes or more (each carries a header)", VERIFY_MIN_BLOCK);
		return -EINVAL;
	}
	for (unsigned i = 0; i < spec->numjobs; i++) {
		uint64_t span = job_worker_span(spec, t, i), base = job_worker_base(spec, i);
		if (span < spec->bs) {
			snprintf(msg, len, "'%s' holds %llu bytes from byte %llu%s, less than one block of %u", t->path,
				 (unsigned long long)span, (unsigned long long)base,
				 spec->numjobs > 1 ? " (the last job's offset)" : "", spec->bs);
			return -EINVAL;
		}
	}
	return validate_ba(spec, t, msg, len);
}

uint64_t job_worker_base(const struct job_spec *spec, unsigned index)
{
	return spec->offset + (uint64_t)index * spec->offset_increment;
}

/* fio's rule: without a size the area runs from the offset to the end; a
 * size that runs past the end of a device is cut there (a file was laid
 * out to it, or the null engine never touches it). */
uint64_t job_worker_span(const struct job_spec *spec, const struct target *t, unsigned index)
{
	uint64_t base = job_worker_base(spec, index);
	uint64_t span = spec->size ? spec->size : t->size;
	if (!spec->size || (t->kind == TARGET_BLOCK_DEVICE && base + span > t->size))
		span = t->size > base ? t->size - base : 0;
	return span;
}

uint64_t job_file_bytes(const struct job_spec *spec)
{
	return job_worker_base(spec, spec->numjobs ? spec->numjobs - 1 : 0) + spec->size;
}

