/* matrix's targets: the --target paths (a directory's file in a tagged
 * scratch subdirectory), temporary ZFS datasets for every recordsize x
 * compression, raw and qcow2 image files; and their removal on success,
 * failure and signals. What a killed run left carries the owner tag and is
 * removed by the next run (pool/scratch.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "basic/interrupt.h"
#include "basic/log.h"
#include "basic/strbuf.h"
#include "pool/areas.h"
#include "pool/target.h"
#include "triage/matrix/matrix_image.h"
#include "triage/matrix/matrix_targets.h"

/* Files in a user's directory go in a tagged scratch subdirectory
 * (pool/scratch.h), so that what a killed run left there is found and
 * removed by the next run, and nothing else is touched. Areas of dead
 * owners in DIR are removed first. */
static int make_dir_area(struct matrix *m, const char *dir, const char *run_id, const char *suffix,
			 struct scratch *area, char *why, size_t len)
{
	struct pool_target bt = { .kind = &pool_kind_dir };
	snprintf(bt.pool, sizeof(bt.pool), "%s", dir);
	snprintf(bt.parent, sizeof(bt.parent), "%s", dir);
	m->stale_removed += pool_areas_remove_stale(&bt, "MATRIX");
	struct strbuf err = STRBUF_INIT;
	int r = scratch_create(SCRATCH_DIR, dir, run_id, suffix, NULL, area, &err);
	if (r < 0)
		snprintf(why, len, "cannot make a temporary directory in '%s': %s", dir, err.len ? err.buf : strerror(-r));
	else
		log_msg(LOG_INFO, "MATRIX (%s): created temporary directory %s", dir, area->path);
	strbuf_release(&err);
	return r;
}

/* The target's test file is "matrix.dat" in its area. */
static void file_in_area(struct mx_target *t)
{
	char dir[PATH_MAX];
	memcpy(dir, t->area.path, sizeof(dir)); /* a copy: snprintf must not read what it writes into */
	dir[sizeof(dir) - 1] = '\0';
	snprintf(t->file, sizeof(t->file), "%s/matrix.dat", dir);
}

int mx_add_path_targets(struct matrix *m, const char *run_id, char *why, size_t len)
{
	for (size_t i = 0; i < m->npaths; i++) {
		struct mx_target *t = &m->targets[m->ntargets++];
		struct stat st;
		if (stat(m->paths[i], &st) < 0) {
			int e = errno;
			snprintf(why, len, "cannot use target '%s': %s", m->paths[i], strerror(e));
			return -e;
		}
		if (!S_ISDIR(st.st_mode) && !S_ISBLK(st.st_mode)) {
			snprintf(why, len, "target '%s' is neither a directory nor a block device", m->paths[i]);
			return -EINVAL;
		}
		t->kind = S_ISDIR(st.st_mode) ? MX_DIR : MX_DEVICE;
		snprintf(t->label, sizeof(t->label), "%s", m->paths[i]);
		snprintf(t->path, sizeof(t->path), "%s", m->paths[i]);
		if (t->kind == MX_DIR) {
			int r = make_dir_area(m, m->paths[i], run_id, "matrix", &t->area, why, len);
			if (r < 0)
				return r;
			t->created = true;
			file_in_area(t);
		} else {
			snprintf(t->file, sizeof(t->file), "%s", m->paths[i]);
		}
	}
	return 0;
}

static void upper(char *s)
{
	for (; *s; s++)
		if (*s >= 'a' && *s <= 'z')
			*s = (char)(*s - 'a' + 'A');
}

/* Creates one dataset; lz4 where this ZFS refuses it falls back to "on", and says so. */
void mx_create_dataset(struct matrix *m, struct mx_target *t, const char *run_id, const char *rs, const char *comp)
{
	char rsu[16], suffix[64], prs[48], pcomp[48];
	snprintf(rsu, sizeof(rsu), "%s", rs);
	upper(rsu);
	snprintf(t->recordsize, sizeof(t->recordsize), "%s", rsu);
	snprintf(t->compression_asked, sizeof(t->compression_asked), "%s", comp);
	snprintf(t->label, sizeof(t->label), "recordsize %s, compression %s", rsu, comp);
	snprintf(suffix, sizeof(suffix), "mx-%s-%s", rs, comp);
	for (char *c = suffix; *c; c++)
		*c = (char)(*c >= 'A' && *c <= 'Z' ? *c - 'A' + 'a' : *c);
	snprintf(prs, sizeof(prs), "recordsize=%s", rsu);
	snprintf(pcomp, sizeof(pcomp), "compression=%s", comp);
	const char *props[] = { prs, pcomp, "primarycache=metadata", NULL };
	struct strbuf err = STRBUF_INIT;
	int r = scratch_create(SCRATCH_ZFS, m->pool_parent, run_id, suffix, props, &t->area, &err);
	if (r < 0 && strcmp(comp, "lz4") == 0 && strstr(err.buf, "compression")) {
		snprintf(t->note, sizeof(t->note), "this ZFS has no lz4 (%.*s); compression=on used instead",
			 (int)strcspn(err.buf, "\n"), err.buf);
		log_msg(LOG_WARN, "MATRIX (%s): %s", m->pool, t->note);
		strbuf_reset(&err);
		props[1] = "compression=on";
		snprintf(t->label, sizeof(t->label), "recordsize %s, compression on (no lz4)", rsu);
		r = scratch_create(SCRATCH_ZFS, m->pool_parent, run_id, suffix, props, &t->area, &err);
	}
	t->kind = MX_DATASET;
	if (r < 0) {
		t->failed = true;
		snprintf(t->reason, sizeof(t->reason), "cannot create the dataset: %.*s", (int)strcspn(err.buf, "\n"),
			 err.buf);
		log_msg(LOG_ERR, "MATRIX (%s): %s with %s %s: %s", m->pool, t->reason, prs, pcomp, err.buf);
	} else {
		t->created = true;
		file_in_area(t);
		memcpy(t->path, t->area.path, sizeof(t->path));
		scratch_zfs_get(t->area.name, "compression", t->compression, sizeof(t->compression));
		log_msg(LOG_INFO, "MATRIX (%s): created temporary ZFS dataset %s with %s, compression=%s", m->pool,
			t->area.name, prs, t->compression);
	}
	strbuf_release(&err);
}

void mx_create_zvol(struct matrix *m, struct mx_target *t, const char *run_id, const char *vbs)
{
	char suffix[64], pvbs[48];
	snprintf(t->recordsize, sizeof(t->recordsize), "%s", vbs);
	upper(t->recordsize);
	snprintf(t->label, sizeof(t->label), "zvol, volblocksize %s", t->recordsize);
	snprintf(suffix, sizeof(suffix), "mx-zvol-%s", vbs);
	for (char *c = suffix; *c; c++)
		*c = (char)(*c >= 'A' && *c <= 'Z' ? *c - 'A' + 'a' : *c);
	snprintf(pvbs, sizeof(pvbs), "volblocksize=%s", t->recordsize);
	/* As the datasets: no data in the ARC, so reads come from the pool; and no
	 * compression, so incompressible writes are what they are. */
	const char *props[] = { pvbs, "primarycache=metadata", "compression=off", NULL };
	struct strbuf err = STRBUF_INIT;
	t->kind = MX_ZVOL;
	int r = scratch_create_zvol(m->pool_parent, run_id, suffix, m->size, props, &t->area, &err);
	if (r < 0) {
		t->failed = true;
		snprintf(t->reason, sizeof(t->reason), "cannot create the zvol: %.*s", (int)strcspn(err.buf, "\n"), err.buf);
		log_msg(LOG_ERR, "MATRIX (%s): %s", m->pool, t->reason);
	} else {
		t->created = true;
		snprintf(t->path, sizeof(t->path), "%s", t->area.path);
		snprintf(t->file, sizeof(t->file), "%s", t->area.path);
		snprintf(t->compression, sizeof(t->compression), "off");
		log_msg(LOG_INFO, "MATRIX (%s): created temporary zvol %s (%s) with %s, %" PRIu64 " bytes", m->pool,
			t->area.name, t->area.path, pvbs, m->size);
	}
	strbuf_release(&err);
}

void mx_destroy_targets(struct matrix *m)
{
	for (size_t i = 0; i < m->ntargets; i++) {
		struct mx_target *t = &m->targets[i];
		if (t->created) {
			pool_areas_destroy(&t->area, 1, t->kind == MX_DIR ? t->path : m->pool, "MATRIX");
			t->created = false;
		}
	}
	if (m->images_area_made) {
		pool_areas_destroy(&m->images_area, 1, m->images_dir, "MATRIX");
		m->images_area_made = false;
	}
}

/* The raw image first (its file is the qcow2's source), then the qcow2. */
int mx_add_image_targets(struct matrix *m, const char *run_id, char *why, size_t len)
{
	static const char *const formats[] = { "raw", "qcow2" };
	if (make_dir_area(m, m->images_dir, run_id, "images", &m->images_area, why, len) < 0)
		return -EIO;
	m->images_area_made = true;
	for (size_t i = 0; i < 2 && !interrupt_requested(); i++) {
		struct mx_target *t = &m->targets[m->ntargets++];
		t->kind = MX_IMAGE;
		snprintf(t->format, sizeof(t->format), "%s", formats[i]);
		snprintf(t->label, sizeof(t->label), "%s image in %s", formats[i], m->images_dir);
		snprintf(t->path, sizeof(t->path), "%s", m->images_dir);
		snprintf(t->note, sizeof(t->note), "through QEMU's %s driver (qemu-img bench); its writes are a constant "
			 "byte pattern, which a compressing file system shrinks", formats[i]);
		char err[512] = "";
		if (mx_image_create(m->images_area.path, run_id, formats[i], m->size, t->file, sizeof(t->file), err, sizeof(err)) < 0) {
			t->failed = true;
			snprintf(t->reason, sizeof(t->reason), "%s", err);
			log_msg(LOG_WARN, "MATRIX (%s): %s", t->label, err);
		} else {
			log_msg(LOG_INFO, "MATRIX (%s): %s, %" PRIu64 " bytes of incompressible data", t->label, t->file, m->size);
		}
	}
	return 0;
}

int mx_set_up_targets(struct matrix *m, const char *run_id, char *why, size_t len)
{
	int r = mx_add_path_targets(m, run_id, why, len);
	if (r == 0 && m->pool) {
		struct pool_target pool;
		r = pool_target_resolve(m->pool, "zfs", &pool);
		if (r == 0) {
			snprintf(m->pool_parent, sizeof(m->pool_parent), "%s", pool.parent);
			m->stale_removed += pool_areas_remove_stale(&pool, "MATRIX");
		}
		for (size_t a = 0; r == 0 && a < m->nrs && !interrupt_requested(); a++)
			for (size_t b = 0; b < m->ncomp && !interrupt_requested(); b++)
				mx_create_dataset(m, &m->targets[m->ntargets++], run_id, m->recordsizes[a], m->compressions[b]);
		for (size_t a = 0; r == 0 && m->zvols && a < m->nrs && !interrupt_requested(); a++)
			mx_create_zvol(m, &m->targets[m->ntargets++], run_id, m->recordsizes[a]);
	}
	if (r == 0 && m->images_dir) {
		struct stat st;
		if (stat(m->images_dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
			snprintf(why, len, "--images '%s' is not a directory", m->images_dir);
			r = -EINVAL;
		} else {
			r = mx_add_image_targets(m, run_id, why, len);
		}
	}
	return r;
}
