/* triage/results/bundle.c: the support bundle (see bundle.h). */
#include "triage/results/bundle.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "basic/cleanup.h"
#include "basic/fsutil.h"
#include "basic/log.h"
#include "basic/spawn.h"
#include "basic/strbuf.h"
#include "basic/sysinfo.h"
#include "basic/timeutil.h"
#include "disk/enumerate.h"
#include "fs/mounts.h"
#include "output/json.h"
#include "store/store.h"
#include "triage/network/netcheck.h"

#define SPAWN_TIMEOUT_MS 60000

struct bundle_ctx {
	char stage[PATH_MAX];     /* the staging directory */
	char root[PATH_MAX];      /* stage/top */
	struct bundle_result *res;
	size_t cap;
	int error;                /* the first part that could not be written: -errno */
	char why[512];
};

size_t bundle_tail_offset(const char *data, size_t len, size_t max)
{
	if (len <= max)
		return 0;
	size_t off = len - max;
	const char *nl = memchr(data + off, '\n', len - off);
	return nl && nl + 1 < data + len ? (size_t)(nl + 1 - data) : off;
}

static struct bundle_part *part_add(struct bundle_ctx *c, const char *name)
{
	struct bundle_result *r = c->res;
	if (r->nparts == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 32;
		struct bundle_part *p = xreallocarray(r->parts, c->cap, sizeof(*p));
		r->parts = p;
	}
	struct bundle_part *p = &r->parts[r->nparts++];
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name);
	return p;
}

/* Writes DATA as part NAME, with NOTE ("" when none). */
static void part_write(struct bundle_ctx *c, const char *name, const char *data, size_t len, const char *note)
{
	struct bundle_part *p = part_add(c, name);
	snprintf(p->note, sizeof(p->note), "%s", note ? note : "");
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/%s", c->root, name);
	int r = mkdir_parents(path, 0700);
	if (r == 0)
		r = write_file_atomic(path, data, len, 0600);
	if (r < 0) {
		snprintf(p->note, sizeof(p->note), "cannot write: %s", strerror(-r));
		if (!c->error) {
			c->error = r;
			snprintf(c->why, sizeof(c->why), "cannot write '%s': %s", path, strerror(-r));
		}
		return;
	}
	p->bytes = len;
}

/* Part NAME from running ARGV: its stdout, then its stderr after a marker.
 * When ARGV is refused as a usage error (exit 2, nothing on stdout: zfs-fuse
 * has no zpool status -P), FALLBACK is run instead and the note says so. */
static void part_spawn2(struct bundle_ctx *c, const char *name, const char *const *argv,
			const char *const *fallback)
{
	struct spawn_result sr = { 0 };
	char note[256] = "";
	int r = spawn_run(argv, SPAWN_TIMEOUT_MS, &sr);
	if (fallback && r == 0 && sr.status == 2 && sr.out.len == 0) {
		spawn_result_release(&sr);
		memset(&sr, 0, sizeof(sr));
		r = spawn_run(fallback, SPAWN_TIMEOUT_MS, &sr);
		snprintf(note, sizeof(note), "'%s %s %s' refused (usage): ran '%s %s %s'", argv[0], argv[1],
			 argv[2], fallback[0], fallback[1], fallback[2]);
	}
	if (r == -ENOENT)
		snprintf(note, sizeof(note), "%s not installed", argv[0]);
	else if (r < 0)
		snprintf(note, sizeof(note), "cannot run %s: %s", argv[0], strerror(-r));
	else if (sr.status != 0)
		snprintf(note, sizeof(note), "%s: exit status %d", argv[0], sr.status);
	if (sr.err.len) {
		strbuf_adds(&sr.out, "\n--- stderr ---\n");
		strbuf_add(&sr.out, sr.err.buf, sr.err.len);
	}
	part_write(c, name, sr.out.buf ? sr.out.buf : "", sr.out.len, note);
	spawn_result_release(&sr);
}

static void part_spawn(struct bundle_ctx *c, const char *name, const char *const *argv)
{
	part_spawn2(c, name, argv, NULL);
}

/* The last BUNDLE_TAIL_BYTES of the file PATH into OUT. Returns 0 or -errno. */
static int read_tail(const char *path, struct strbuf *out)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0)
		return -errno;
	off_t start = st.st_size > (off_t)BUNDLE_TAIL_BYTES ? st.st_size - (off_t)BUNDLE_TAIL_BYTES : 0;
	char buf[65536];
	ssize_t n;
	while ((n = pread(fd, buf, sizeof(buf), start)) > 0) {
		strbuf_add(out, buf, (size_t)n);
		start += n;
		if (out->len >= BUNDLE_TAIL_BYTES)
			break;
	}
	return n < 0 ? -errno : 0;
}

static void part_log(struct bundle_ctx *c, const char *log_path)
{
	struct strbuf sb = { 0 };
	char note[256] = "";
	int r = log_path ? read_tail(log_path, &sb) : -ENOENT;
	if (r < 0)
		snprintf(note, sizeof(note), "cannot read '%s': %s", log_path ? log_path : "", strerror(-r));
	size_t off = sb.len ? bundle_tail_offset(sb.buf, sb.len, BUNDLE_TAIL_BYTES) : 0;
	part_write(c, "iotriage.log", sb.len ? sb.buf + off : "", sb.len - off, note);
	strbuf_release(&sb);
}

/* The kernel ring buffer from /dev/kmsg, one record per read. */
static int read_kmsg(struct strbuf *out)
{
	_cleanup_close_ int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	char rec[8192];
	for (;;) {
		ssize_t n = read(fd, rec, sizeof(rec));
		if (n > 0) {
			strbuf_add(out, rec, (size_t)n);
			continue;
		}
		if (n < 0 && errno == EPIPE) /* overwritten while reading: go on */
			continue;
		return n < 0 && errno != EAGAIN ? -errno : 0;
	}
}

static void part_kernel_log(struct bundle_ctx *c)
{
	static const char *const argv[] = { "dmesg", NULL };
	struct spawn_result sr = { 0 };
	char note[256] = "";
	int r = spawn_run(argv, SPAWN_TIMEOUT_MS, &sr);
	struct strbuf *text = &sr.out;
	struct strbuf kmsg = { 0 };
	if (r < 0 || sr.status != 0) {
		int k = read_kmsg(&kmsg);
		text = &kmsg;
		snprintf(note, sizeof(note), k < 0 ? "neither dmesg nor /dev/kmsg: %s" : "from /dev/kmsg",
			 strerror(-k));
	}
	size_t off = text->len ? bundle_tail_offset(text->buf, text->len, BUNDLE_TAIL_BYTES) : 0;
	part_write(c, "kernel.log", text->len ? text->buf + off : "", text->len - off, note);
	strbuf_release(&kmsg);
	spawn_result_release(&sr);
}

struct runs_walk {
	struct json json;
	char **ids;
	size_t nids, max;
};

static void add_run(const struct store_run_row *row, void *arg)
{
	struct runs_walk *w = arg;
	json_begin_object(&w->json, NULL);
	json_string(&w->json, "id", row->id);
	json_string(&w->json, "command", row->command);
	json_string(&w->json, "argv", row->argv);
	json_int(&w->json, "started_at", row->started_at);
	json_int(&w->json, "finished_at", row->finished_at);
	json_int(&w->json, "exit_status", row->exit_status);
	json_int(&w->json, "results", row->results);
	json_end_object(&w->json);
	if (w->nids < w->max)
		w->ids[w->nids++] = xstrdup(row->id);
}

/* The last N runs' documents from S, as runs/ID.json. */
static void part_run_documents(struct bundle_ctx *c, struct store *s, struct runs_walk *w)
{
	for (size_t i = 0; i < w->nids; i++) {
		char *id = NULL, *doc = NULL, name[64];
		snprintf(name, sizeof(name), "runs/%s.json", w->ids[i]);
		if (store_get_run(s, w->ids[i], &id, &doc) == 0 && doc)
			part_write(c, name, doc, strlen(doc), "");
		else
			part_write(c, name, "", 0, store_errmsg(s));
		free(id);
		free(doc);
	}
}

static void part_runs(struct bundle_ctx *c, const char *db_path, unsigned nruns)
{
	struct runs_walk w = { .ids = xcalloc(nruns + 1, sizeof(char *)), .max = nruns };
	char note[256] = "";
	json_init(&w.json);
	json_begin_object(&w.json, NULL);
	json_string(&w.json, "database", db_path);
	json_begin_array(&w.json, "runs");
	struct store *s = NULL;
	if (!db_path || access(db_path, F_OK) < 0) {
		snprintf(note, sizeof(note), "no database at '%s'", db_path ? db_path : "");
	} else if (store_open(db_path, &s) < 0 || store_list_runs(s, &(struct store_run_filter){ 0 }, add_run, &w) < 0) {
		snprintf(note, sizeof(note), "cannot read '%s': %s", db_path, s ? store_errmsg(s) : "cannot open");
	}
	json_end_array(&w.json);
	json_end_object(&w.json);
	part_write(c, "runs.json", w.json.out.buf, w.json.out.len, note);
	if (s)
		part_run_documents(c, s, &w);
	store_close(s);
	for (size_t i = 0; i < w.nids; i++)
		free(w.ids[i]);
	free(w.ids);
	json_release(&w.json);
}

static void json_disk(struct json *j, const struct disk_info *d)
{
	char key[512];
	disk_identity_key(d, key, sizeof(key));
	json_begin_object(j, NULL);
	json_string(j, "kname", d->kname);
	json_string(j, "dev_path", d->dev_path);
	json_string(j, "identity_key", key);
	json_string(j, "by_id", d->by_id);
	json_string(j, "vendor", d->vendor);
	json_string(j, "model", d->model);
	json_string(j, "serial", d->serial);
	json_string(j, "wwn", d->wwn);
	json_string(j, "transport", d->transport);
	json_uint(j, "size_bytes", d->size_bytes);
	json_bool(j, "rotational", d->rotational);
	json_string(j, "path_group", d->path_group);
	json_string(j, "backing_file", d->backing_file);
	json_string(j, "skip_reason", d->skip_reason);
	json_end_object(j);
}

/* Not a disk smartctl can ask: an empty device, a loop device, a RAM disk. */
static int smart_applies(const struct disk_info *d)
{
	return !d->skip_reason && strcmp(d->transport, "loop") != 0 && strcmp(d->transport, "zram") != 0 &&
	       strncmp(d->kname, "ram", 3) != 0 && strncmp(d->kname, "nullb", 5) != 0;
}

/* The inventory as disks.json, and smartctl -x of each disk as smart/KNAME.txt. */
static void part_disks(struct bundle_ctx *c)
{
	struct disk_list list = { 0 };
	struct json j;
	char note[256] = "";
	int r = disk_enumerate("/sys", "/dev", &list);
	if (r < 0)
		snprintf(note, sizeof(note), "cannot enumerate '/sys/block': %s", strerror(-r));
	json_init(&j);
	json_begin_object(&j, NULL);
	json_begin_array(&j, "disks");
	for (size_t i = 0; i < list.count; i++)
		json_disk(&j, &list.disks[i]);
	json_end_array(&j);
	json_end_object(&j);
	part_write(c, "disks.json", j.out.buf, j.out.len, note);
	json_release(&j);
	for (size_t i = 0; i < list.count; i++) {
		const struct disk_info *d = &list.disks[i];
		if (!smart_applies(d))
			continue;
		char name[128];
		snprintf(name, sizeof(name), "smart/%s.txt", d->kname);
		const char *argv[] = { "smartctl", "-x", d->dev_path, NULL };
		part_spawn(c, name, argv);
	}
	disk_list_free(&list);
}

/* zpool status of every pool; btrfs show, and usage of each mounted btrfs. */
static void part_pools(struct bundle_ctx *c)
{
	static const char *const zpool[] = { "zpool", "status", "-DvP", NULL };
	static const char *const zpool_old[] = { "zpool", "status", "-Dv", NULL };
	static const char *const btrfs_show[] = { "btrfs", "filesystem", "show", NULL };
	part_spawn2(c, "pools/zpool-status.txt", zpool, zpool_old);
	part_spawn(c, "pools/btrfs-show.txt", btrfs_show);
	struct mount_table t = { 0 };
	if (mounts_load(&t) < 0)
		return;
	unsigned seen[64][2], nseen = 0;
	for (size_t i = 0; i < t.count && nseen < 64; i++) {
		const struct mount_entry *m = &t.entries[i];
		int dup = 0;
		for (unsigned k = 0; k < nseen; k++)
			dup |= seen[k][0] == m->major && seen[k][1] == m->minor;
		if (!mount_is_btrfs(m) || dup)
			continue;
		seen[nseen][0] = m->major;
		seen[nseen][1] = m->minor;
		char name[96];
		snprintf(name, sizeof(name), "pools/btrfs-usage-%u.txt", nseen++);
		const char *argv[] = { "btrfs", "filesystem", "usage", "-b", m->mountpoint, NULL };
		part_spawn(c, name, argv);
	}
	mount_table_release(&t);
}

static void part_netcheck(struct bundle_ctx *c, uint64_t window_ns)
{
	struct netcheck *nc = xcalloc(1, sizeof(*nc));
	nc->window_ns = window_ns;
	netcheck_gather(nc);
	netcheck_judge(nc);
	struct json j;
	json_init(&j);
	json_begin_object(&j, NULL);
	netcheck_json(nc, &j);
	json_end_object(&j);
	char note[64] = "";
	if (nc->errors)
		snprintf(note, sizeof(note), "%u checks could not be made", nc->errors);
	part_write(c, "netcheck.json", j.out.buf, j.out.len, note);
	json_release(&j);
	netcheck_release(nc);
	free(nc);
}

static void part_system(struct bundle_ctx *c)
{
	struct sysinfo_inventory inv;
	sysinfo_read(&inv);
	struct json j;
	json_init(&j);
	json_begin_object(&j, NULL);
	json_string(&j, "iotriage_version", IOTRIAGE_VERSION);
	json_string(&j, "cpu_model", inv.cpu_model[0] ? inv.cpu_model : NULL);
	json_uint(&j, "cpus", inv.cpus);
	json_uint(&j, "memory_bytes", inv.memory_bytes);
	json_string(&j, "kernel", inv.kernel);
	json_string(&j, "machine", inv.machine);
	json_string(&j, "distribution", inv.distribution[0] ? inv.distribution : NULL);
	json_end_object(&j);
	part_write(c, "system.json", j.out.buf, j.out.len, "");
	json_release(&j);
}

static void part_manifest(struct bundle_ctx *c)
{
	struct strbuf sb = { 0 };
	const struct bundle_result *r = c->res;
	strbuf_addf(&sb, "# iotriage %s support bundle %s\n# PART BYTES NOTE\n", IOTRIAGE_VERSION, r->top);
	for (size_t i = 0; i < r->nparts; i++)
		strbuf_addf(&sb, "%s\t%llu\t%s\n", r->parts[i].name, (unsigned long long)r->parts[i].bytes,
			    r->parts[i].note);
	strbuf_addf(&sb, "MANIFEST.txt\t-\tthis list\n");
	part_write(c, "MANIFEST.txt", sb.buf, sb.len, "");
	strbuf_release(&sb);
}

static int remove_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st, (void)type, (void)ftw;
	remove(path);
	return 0;
}

static void remove_tree(const char *dir)
{
	nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* The directory part of PATH ("." when none) into BUF. */
static void dir_of(const char *path, char *buf, size_t len)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		snprintf(buf, len, ".");
	else if (slash == path)
		snprintf(buf, len, "/");
	else
		snprintf(buf, len, "%.*s", (int)(slash - path), path);
}

/* tar of STAGE/TOP into a temporary beside OUTPUT, fsync'd, renamed onto it. */
static int write_archive(const struct bundle_ctx *c, const char *output, char *why, size_t len)
{
	char tmp[PATH_MAX];
	if (snprintf(tmp, sizeof(tmp), "%s.tmp.XXXXXX", output) >= (int)sizeof(tmp))
		return snprintf(why, len, "'%s': name too long", output), -ENAMETOOLONG;
	int fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		snprintf(why, len, "cannot create '%s': %s", tmp, strerror(e));
		return -e;
	}
	const char *argv[] = { "tar", "-C", c->stage, "-czf", tmp, c->res->top, NULL };
	struct strbuf err = { 0 };
	int r = spawn_check(argv, 10 * SPAWN_TIMEOUT_MS, NULL, &err);
	if (r == 0 && fsync(fd) < 0)
		r = -errno;
	close(fd);
	if (r == 0 && rename(tmp, output) < 0)
		r = -errno;
	if (r < 0) {
		snprintf(why, len, "cannot write '%s': %s", output, err.len ? err.buf : strerror(-r));
		unlink(tmp);
	}
	strbuf_release(&err);
	return r;
}

static int make_stage(struct bundle_ctx *c, const char *output, char *why, size_t len)
{
	char dir[PATH_MAX], host[64] = "host", stamp[32];
	dir_of(output, dir, sizeof(dir));
	snprintf(c->stage, sizeof(c->stage), "%s/.iotriage-bundle.XXXXXX", dir);
	if (!mkdtemp(c->stage)) {
		int e = errno;
		snprintf(why, len, "cannot create a staging directory in '%s': %s", dir, strerror(e));
		return -e;
	}
	gethostname(host, sizeof(host) - 1);
	time_format_stamp(time(NULL), stamp, sizeof(stamp));
	snprintf(c->res->top, sizeof(c->res->top), "iotriage-bundle-%s-%s", host, stamp);
	snprintf(c->root, sizeof(c->root), "%s/%s", c->stage, c->res->top);
	if (mkdir(c->root, 0700) < 0) {
		int e = errno;
		snprintf(why, len, "cannot create '%s': %s", c->root, strerror(e));
		remove_tree(c->stage);
		return -e;
	}
	return 0;
}

int bundle_make(const struct bundle_opts *o, struct bundle_result *ret, char *why, size_t len)
{
	memset(ret, 0, sizeof(*ret));
	struct bundle_ctx c = { .res = ret };
	int r = make_stage(&c, o->output, why, len);
	if (r < 0)
		return r;
	log_msg(LOG_INFO, "BUNDLE: gathering into '%s'", c.root);
	part_system(&c);
	part_log(&c, o->log_path);
	part_runs(&c, o->db_path, o->runs);
	part_disks(&c);
	part_pools(&c);
	part_netcheck(&c, o->window_ns);
	part_kernel_log(&c);
	part_manifest(&c);
	r = c.error;
	if (r < 0)
		snprintf(why, len, "%s", c.why);
	else
		r = write_archive(&c, o->output, why, len);
	remove_tree(c.stage);
	if (r < 0) {
		bundle_result_release(ret);
		return r;
	}
	log_msg(LOG_INFO, "BUNDLE: wrote '%s' (%zu parts)", o->output, ret->nparts);
	return 0;
}

void bundle_result_release(struct bundle_result *r)
{
	free(r->parts);
	r->parts = NULL;
	r->nparts = 0;
}

void bundle_json(const struct bundle_result *r, const char *output, struct json *j)
{
	json_begin_object(j, NULL);
	json_string(j, "command", "bundle");
	json_string(j, "output", output);
	json_string(j, "top", r->top);
	json_begin_array(j, "parts");
	for (size_t i = 0; i < r->nparts; i++) {
		json_begin_object(j, NULL);
		json_string(j, "name", r->parts[i].name);
		json_uint(j, "bytes", r->parts[i].bytes);
		json_string(j, "note", r->parts[i].note[0] ? r->parts[i].note : NULL);
		json_end_object(j);
	}
	json_end_array(j);
	json_end_object(j);
}
