/* cmd/poolbench_cmd.c: what benchpool and rwpool share at the command
 * level: the temporary areas (create, tag, remove, stale removal), the
 * compression on them, the cache and perf notes, and the outcome table
 * and JSON. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/humanize.h"
#include "basic/log.h"
#include "basic/spawn.h"
#include "cmd/poolbench_cmd.h"
#include "output/table.h"
#include "pool/arc.h"

/* ---- the temporary areas ---- */

static const char *kind_word(enum scratch_kind k)
{
	return k == SCRATCH_ZFS ? "ZFS dataset" : k == SCRATCH_BTRFS ? "btrfs subvolume" : "directory";
}

int pool_areas_remove_stale(const struct bench_target *t, const char *tag)
{
	struct scratch stale[32];
	int n = scratch_find_stale(t->kind, t->parent, stale, 32);
	for (int i = 0; i < n; i++) {
		struct strbuf err = STRBUF_INIT;
		if (scratch_destroy(&stale[i], &err) == 0)
			log_msg(LOG_INFO, "%s (%s): removed %s '%s' left by an interrupted run (owner %s is gone)", tag,
				t->pool, kind_word(stale[i].kind), stale[i].name, stale[i].owner);
		else
			log_msg(LOG_WARN, "%s (%s): cannot remove stale %s '%s': %s", tag, t->pool,
				kind_word(stale[i].kind), stale[i].name, err.buf);
		strbuf_release(&err);
	}
	return n < 0 ? 0 : n;
}

int pool_area_create(const struct bench_target *t, const char *run_id, const char *suffix, const char *recordsize,
		     struct scratch *ret, const char *tag)
{
	/* ZFS only: the record size asked for, and no file data in the ARC so
	 * that reads come from the pool. */
	char rs[32] = "";
	const char *zprops[3] = { "primarycache=metadata", NULL, NULL };
	if (recordsize) {
		snprintf(rs, sizeof(rs), "recordsize=%s", recordsize);
		zprops[1] = rs;
	}
	struct strbuf err = STRBUF_INIT;
	int r = scratch_create(t->kind, t->parent, run_id, suffix, t->kind == SCRATCH_ZFS ? zprops : NULL, ret, &err);
	if (r < 0 && t->kind == SCRATCH_ZFS && recordsize && strstr(err.buf, "recordsize")) {
		/* An older ZFS (zfs-fuse: 128K at most) has no large records. */
		log_msg(LOG_WARN, "%s (%s): this ZFS refuses recordsize=%s (%.*s); using 128K", tag, t->pool, recordsize,
			(int)strcspn(err.buf, "\n"), err.buf);
		strbuf_reset(&err);
		snprintf(rs, sizeof(rs), "recordsize=128K");
		r = scratch_create(t->kind, t->parent, run_id, suffix, zprops, ret, &err);
	}
	if (r < 0)
		log_msg(LOG_ERR, "%s (%s): cannot create a temporary %s: %.*s", tag, t->pool, kind_word(t->kind),
			(int)strcspn(err.buf, "\n"), err.buf);
	else
		log_msg(LOG_INFO, "%s (%s): created temporary %s %s%s%s", tag, t->pool, kind_word(t->kind), ret->name,
			t->kind == SCRATCH_ZFS ? " with " : "", t->kind == SCRATCH_ZFS ? rs : "");
	strbuf_release(&err);
	return r;
}

void pool_areas_destroy(struct scratch *areas, size_t n, const char *pool, const char *tag)
{
	for (size_t i = 0; i < n; i++) {
		struct strbuf err = STRBUF_INIT;
		if (scratch_destroy(&areas[i], &err) == 0)
			log_msg(LOG_INFO, "%s (%s): removed temporary %s %s", tag, pool, kind_word(areas[i].kind),
				areas[i].name);
		else
			log_msg(LOG_ERR, "%s (%s): cannot remove temporary %s %s: %s", tag, pool,
				kind_word(areas[i].kind), areas[i].name, err.buf);
		strbuf_release(&err);
	}
}

/* Compression on an area, as its file system reports it ("off" when none). */
void pool_area_compression(const struct bench_target *t, const struct scratch *area, char *buf, size_t len)
{
	snprintf(buf, len, "off");
	if (t->kind == SCRATCH_ZFS) {
		scratch_zfs_get(area->name, "compression", buf, len);
	} else if (t->kind == SCRATCH_BTRFS) {
		const char *argv[] = { "btrfs", "property", "get", area->path, "compression", NULL };
		struct spawn_result res;
		if (spawn_run(argv, 30000, &res) == 0 && res.status == 0) {
			const char *eq = strchr(res.out.buf, '=');
			if (eq && eq[1] && eq[1] != '\n')
				snprintf(buf, len, "%.*s", (int)strcspn(eq + 1, "\n"), eq + 1);
		}
		spawn_result_release(&res);
	}
}

bool compression_is_on(const char *value)
{
	return value[0] && strcmp(value, "off") != 0 && strcmp(value, "none") != 0 && strcmp(value, "-") != 0;
}

/* ---- honesty notes ---- */

static uint64_t meminfo_bytes(const char *key)
{
	FILE *f = fopen("/proc/meminfo", "re");
	char line[256];
	unsigned long long kb = 0;
	size_t klen = strlen(key);
	while (f && fgets(line, sizeof(line), f))
		if (strncmp(line, key, klen) == 0 && line[klen] == ':')
			sscanf(line + klen + 1, "%llu", &kb);
	if (f)
		fclose(f);
	return kb * 1024;
}

void cache_note(const struct bench_target *t, uint64_t size, struct strbuf *note, uint64_t *ret_cache)
{
	struct arc_size arc = { 0 };
	if (t->kind == SCRATCH_ZFS)
		arc_read(&arc);
	uint64_t cache = arc.max_bytes ? arc.max_bytes : meminfo_bytes("MemTotal");
	char what[64];
	if (arc.max_bytes)
		snprintf(what, sizeof(what), "the %s ARC's maximum", arc.source);
	else
		snprintf(what, sizeof(what), "the RAM the page cache can use");
	*ret_cache = cache;
	if (size >= 2 * cache)
		return;
	char s[32], c[32];
	human_iec((double)size, s, sizeof(s));
	human_iec((double)cache, c, sizeof(c));
	strbuf_addf(note, "the test size (%s) is less than twice the cache (%s, %s): write figures mostly "
			  "measure the write cache, not the pool; use a size of %s or more for a figure that "
			  "means anything", s, c, what, c);
}

void perf_note(struct strbuf *note, bool *usable)
{
	const char *argv[] = { "perf", "stat", "-e", "task-clock", "true", NULL };
	struct spawn_result res;
	int r = spawn_run(argv, 20000, &res);
	*usable = r == 0 && res.status == 0;
	if (r == -ENOENT)
		strbuf_adds(note, "perf is not installed (Debian: linux-perf) for follow-on CPU profiling");
	else if (!*usable)
		strbuf_addf(note, "perf is present but not usable: %.*s", (int)strcspn(res.err.buf, "\n"), res.err.buf);
	else
		strbuf_adds(note, "perf is usable for follow-on CPU profiling");
	spawn_result_release(&res);
}

/* ---- output ---- */

void pb_outcome_json(struct json *j, const struct pb_outcome *o, const char *compression)
{
	static const char *const states[] = { "ok", "skipped", "failed", "interrupted" };
	json_begin_object(j, NULL);
	json_string(j, "test", pb_test_name(o->test));
	json_string(j, "status", states[o->state]);
	json_string(j, "reason", o->reason[0] ? o->reason : NULL);
	json_begin_array(j, "figures");
	for (size_t i = 0; i < o->nfigures; i++) {
		const struct pb_figure *f = &o->figures[i];
		json_begin_object(j, NULL);
		json_string(j, "pass", f->label);
		json_string(j, "direction", f->is_read ? "read" : "write");
		json_uint(j, "bytes", f->bytes);
		json_double(j, "seconds", f->seconds);
		json_double(j, "bw_bytes_per_s", f->bw_bytes_per_s);
		if (f->iops > 0)
			json_double(j, "iops", f->iops);
		if (f->is_read)
			json_string(j, "cache", f->cache);
		else {
			json_string(j, "pattern", f->pattern);
			json_string(j, "compression", compression);
		}
		if (f->last_done_seconds > 0) {
			json_double(j, "first_done_seconds", f->first_done_seconds);
			json_double(j, "last_done_seconds", f->last_done_seconds);
		}
		json_end_object(j);
	}
	json_end_array(j);
	if (o->fio_docs[0] || o->fio_docs[1]) {
		json_begin_object(j, "fio_json");
		if (o->fio_docs[0])
			json_value(j, "throughput", o->fio_docs[0]);
		if (o->fio_docs[1])
			json_value(j, "random", o->fio_docs[1]);
		json_end_object(j);
	}
	json_string(j, "raw", o->raw.len ? o->raw.buf : NULL);
	json_end_object(j);
}

void pb_outcomes_table(const struct pb_outcome *o, size_t n, const char *compression, FILE *out)
{
	static const char *const headers[] = { "TEST", "PASS", "BYTES", "TIME", "RATE", "IOPS", "SERVED BY / DATA" };
	struct table t;
	table_init(&t, 7, headers, "llrrrrl");
	for (size_t i = 0; i < n; i++) {
		if (o[i].state != PB_RAN || o[i].nfigures == 0) {
			char what[600];
			snprintf(what, sizeof(what), "%s: %s", o[i].state == PB_SKIPPED ? "skipped" :
				 o[i].state == PB_INTERRUPTED ? "interrupted" : "failed", o[i].reason);
			const char *row[] = { pb_test_name(o[i].test), "", "", "", "", "", what };
			table_add_row(&t, row);
		}
		for (size_t k = 0; k < o[i].nfigures; k++) {
			const struct pb_figure *f = &o[i].figures[k];
			char bytes[32], secs[32], rate[32], iops[32] = "", served[96];
			human_iec((double)f->bytes, bytes, sizeof(bytes));
			snprintf(secs, sizeof(secs), "%.2f s", f->seconds);
			human_rate(f->bw_bytes_per_s, rate, sizeof(rate));
			if (f->iops > 0)
				snprintf(iops, sizeof(iops), "%.0f", f->iops);
			if (f->is_read)
				snprintf(served, sizeof(served), "%s", f->cache ? f->cache : "");
			else
				snprintf(served, sizeof(served), "%s data, compression %s", f->pattern ? f->pattern : "?",
					 compression);
			const char *row[] = { k == 0 ? pb_test_name(o[i].test) : "", f->label, bytes, secs, rate, iops, served };
			table_add_row(&t, row);
		}
	}
	table_print(&t, out);
	table_release(&t);
}

