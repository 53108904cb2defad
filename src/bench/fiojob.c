/* A fio job file read into iotriage's terms (see bench/fiojob.h). */
#include "bench/fiojob.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "basic/checksum.h"
#include "basic/parse.h"

#define LINE_MAX_LEN 1024
#define INCLUDE_MAX_DEPTH 8

struct parse_state {
	struct fiojob_file *out;
	struct fiojob global;
	struct fiojob *cur;      /* the section being read: &global or a job */
	const struct fiojob_env *env;
	const char *file;        /* the file being read (an include's name inside one) */
	unsigned line;
	unsigned depth;          /* include nesting */
	struct strbuf fio;       /* the text for fio */
	char *err;
	size_t errlen;
};

typedef int (*option_fn)(struct parse_state *ps, const char *key, const char *val);

static void where(const struct parse_state *ps, char *buf, size_t len)
{
	snprintf(buf, len, "%s%sline %u%s%s%s", ps->depth ? ps->file : "", ps->depth ? " " : "", ps->line,
		 ps->cur ? " [" : "", ps->cur ? ps->cur->name : "", ps->cur ? "]" : "");
}

static int fail(struct parse_state *ps, const char *fmt, ...)
{
	char what[400], at[200];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	where(ps, at, sizeof(at));
	snprintf(ps->err, ps->errlen, "%s: %s", at, what);
	return -EINVAL;
}

/* The file is fio's to run; the first reason is kept. Returns 0: parsing goes on. */
static int need_fio(struct parse_state *ps, const char *fmt, ...)
{
	if (ps->out->fio_reason[0])
		return 0;
	char what[256], at[200];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	where(ps, at, sizeof(at));
	snprintf(ps->out->fio_reason, sizeof(ps->out->fio_reason), "%s (%s)", what, at);
	return 0;
}

static int need_value(struct parse_state *ps, const char *key, const char *val)
{
	return val ? 0 : fail(ps, "option '%s' needs a value", key);
}

/* A number: fio's arithmetic when it starts with '(', else a size or a count. */
static int get_size(struct parse_state *ps, const char *key, const char *val, uint64_t min, uint64_t *ret)
{
	if (need_value(ps, key, val) < 0)
		return -EINVAL;
	uint64_t v = 0; /* set on success; -O3 cannot see that */
	int64_t e = 0;
	char why[200] = "";
	int r = val[0] == '(' ? fiojob_eval(val, true, &e) : fiojob_size(val, &v, why, sizeof(why));
	if (val[0] == '(')
		v = e < 0 ? 0 : (uint64_t)e;
	if (r < 0 || v < min || (val[0] == '(' && e < 0))
		return fail(ps, "%s=%s: expected a size such as 4k or 64m%s%s%s", key, val, min ? " (not 0)" : "",
			    why[0] ? ": " : "", why);
	*ret = v;
	return 0;
}

/* A whole number as fio reads one: decimal or hex, with fio's size suffixes
 * ("2k" is 2048), or fio's (...) arithmetic. */
static int get_uint(struct parse_state *ps, const char *key, const char *val, uint64_t min, uint64_t max,
		    uint64_t *ret)
{
	if (need_value(ps, key, val) < 0)
		return -EINVAL;
	int64_t e = 0;
	uint64_t v = 0;
	char why[200];
	int r = val[0] == '(' ? fiojob_eval(val, false, &e) : fiojob_size(val, &v, why, sizeof(why));
	if (val[0] == '(')
		v = e < 0 ? 0 : (uint64_t)e;
	if (r < 0 || (val[0] == '(' && e < 0) || v < min || v > max)
		return fail(ps, "%s=%s: expected a whole number from %llu to %llu", key, val,
			    (unsigned long long)min, (unsigned long long)max);
	*ret = v;
	return 0;
}

/* A flag: bare, or a number as fio reads one (0 is off, any other on). */
static int get_bool(struct parse_state *ps, const char *key, const char *val, bool *ret)
{
	uint64_t v = 1;
	char why[200];
	if (val && fiojob_size(val, &v, why, sizeof(why)) < 0)
		return fail(ps, "%s=%s: expected 0 or 1", key, val);
	*ret = v != 0;
	return 0;
}

static int get_time(struct parse_state *ps, const char *key, const char *val, uint64_t *ret)
{
	if (need_value(ps, key, val) < 0)
		return -EINVAL;
	if (val[0] == '(')
		return fail(ps, "%s=%s: arithmetic in a time is not supported (write the time itself)", key, val);
	char why[200];
	if (fiojob_time(val, ret, why, sizeof(why)) < 0)
		return fail(ps, "%s=%s: %s", key, val, why);
	return 0;
}

/* rw=read:N and rw=write:N skip N bytes after each I/O; on a random or
 * mixed mode ':N' means something else (new offsets every N I/Os), fio's. */
static int rw_modifier(struct parse_state *ps, const char *key, const char *val, const char *mod)
{
	if (strcmp(ps->cur->rw, "read") != 0 && strcmp(ps->cur->rw, "write") != 0)
		return need_fio(ps, "%s=%s: an offset modifier (':N') on a random or mixed mode is not run natively", key,
				val);
	if (mod[0] == '-')
		return need_fio(ps, "%s=%s: a backward or negative skip is not run natively", key, val);
	return get_size(ps, key, mod, 0, &ps->cur->seq_hole);
}

static int opt_rw(struct parse_state *ps, const char *key, const char *val)
{
	static const char *const modes[] = { "read",   "write", "randread", "randwrite", "rw",
					     "readwrite", "randrw", "trim",    "randtrim",  "trimwrite", NULL };
	if (need_value(ps, key, val) < 0)
		return -EINVAL;
	size_t n = strcspn(val, ":");
	snprintf(ps->cur->rw, sizeof(ps->cur->rw), "%.*s", (int)n, val);
	/* fio 3.33's own randtrimwrite depends on offset= (with one, a single
	 * trim and no write or no trim): nothing to measure against. */
	if (strcmp(ps->cur->rw, "randtrimwrite") == 0)
		return need_fio(ps, "%s=%s is not run natively", key, val);
	ps->cur->seq_hole = 0;
	for (size_t i = 0; modes[i]; i++)
		if (strcmp(ps->cur->rw, modes[i]) == 0)
			return val[n] ? rw_modifier(ps, key, val, val + n + 1) : 0;
	return fail(ps, "%s=%s: expected read, write, randread, randwrite, rw, readwrite, randrw, trim, randtrim, "
		    "trimwrite or randtrimwrite", key, val);
}

static int opt_bs(struct parse_state *ps, const char *key, const char *val)
{
	uint64_t v = 0; /* set on success; -O3 cannot see that */
	if (val && strchr(val, ','))
		return need_fio(ps, "%s=%s: separate read and write block sizes are not run natively", key, val);
	if (get_size(ps, key, val, 1, &v) < 0)
		return -EINVAL;
	if (v > (64U << 20))
		return need_fio(ps, "%s=%s: blocks over 64m are not run natively", key, val);
	if (ps->cur->nr_split) /* bssplit decides the sizes whatever bs says, in fio too */
		return 0;
	ps->cur->bs = (uint32_t)v;
	ps->cur->bs_min = 0;
	return 0;
}

/* ba=R[,W[,T]] (blockalign), read as fio reads a list of values for the
 * directions: a value not followed by a comma holds for the directions
 * after it too, an empty one leaves that direction as it was (ba=,8k: the
 * writes and trims). fio also splits at ':' or '-' when there is no comma:
 * such a value is fio's. */
static int opt_ba(struct parse_state *ps, const char *key, const char *val)
{
	if (need_value(ps, key, val) < 0)
		return -EINVAL;
	if (val[0] != '(' && !strchr(val, ',') && strpbrk(val, ":-"))
		return need_fio(ps, "%s=%s: values parted by ':' or '-' are not run natively (write R,W,T)", key, val);
	char list[LINE_MAX_LEN], *p = list;
	snprintf(list, sizeof(list), "%s", val);
	for (int d = 0; d < 3 && p; d++) {
		char *comma = strchr(p, ',');
		if (comma)
			*comma = '\0';
		uint64_t v = 0;
		if (*p && get_size(ps, key, p, 1, &v) < 0)
			return -EINVAL;
		for (int k = d; *p && k < (comma ? d + 1 : 3); k++)
			ps->cur->ba[k] = v;
		p = comma ? comma + 1 : NULL;
	}
	if (p && *p)
		return fail(ps, "%s=%s: expected at most three sizes (reads, writes, trims)", key, val);
	return 0;
}

/* wait_for=NAME: the job starts when job NAME has ended. */
static int opt_wait_for(struct parse_state *ps, const char *key, const char *val)
{
	if (need_value(ps, key, val) < 0)
		return -EINVAL;
	if (strlen(val) >= sizeof(ps->cur->wait_for))
		return fail(ps, "%s: the name is too long", key);
	snprintf(ps->cur->wait_for, sizeof(ps->cur->wait_for), "%s", val);
	return 0;
}

/* bsrange=MIN-MAX: sizes from MIN to MAX in steps of MIN. */
static int opt_bsrange(struct parse_state *ps, const char *key, const char *val)
{
	if (need_value(ps, key, val) < 0)
		return -EINVAL;
	if (strchr(val, ','))
		return need_fio(ps, "%s=%s: separate read and write ranges are not run natively", key, val);
	const char *dash = strchr(val, '-');
	char lo[64];
	uint64_t min = 0, max = 0;
	if (!dash || (size_t)(dash - val) >= sizeof(lo))
		return fail(ps, "%s=%s: expected MIN-MAX such as 4k-64k", key, val);
	snprintf(lo, sizeof(lo), "%.*s", (int)(dash - val), val);
	if (get_size(ps, key, lo, 1, &min) < 0 || get_size(ps, key, dash + 1, 1, &max) < 0)
		return -EINVAL;
	if (min > max) { /* fio swaps them */
		uint64_t t = min;
		min = max;
		max = t;
	}
	if (max > (64U << 20))
		return need_fio(ps, "%s=%s: blocks over 64m are not run natively", key, val);
	ps->cur->bs = (uint32_t)max;
	ps->cur->bs_min = min == max ? 0 : (uint32_t)min;
	ps->cur->nr_split = 0;
	return 0;
}

/* One bssplit entry "SIZE/PCT" (PCT may be empty: a share of what is left). */
static int split_entry(struct parse_state *ps, const char *key, const char *entry, uint64_t *bs, int *pct)
{
	char size[64];
	const char *slash = strchr(entry, '/');
	size_t n = slash ? (size_t)(slash - entry) : strlen(entry);
	snprintf(size, sizeof(size), "%.*s", (int)n, entry);
	if (get_size(ps, key, size, 1, bs) < 0)
		return -EINVAL;
	*pct = -1;
	uint64_t v = 0;
	if (slash && slash[1] && parse_uint(slash + 1, 0, 100, &v) < 0)
		return fail(ps, "%s: '%s': expected SIZE/PERCENT such as 4k/30", key, entry);
	if (slash && slash[1])
		*pct = (int)v;
	return 0;
}

/* bssplit=4k/30:64k/70: each I/O's size drawn by the percentages. */
static int opt_bssplit(struct parse_state *ps, const char *key, const char *val)
{
	if (need_value(ps, key, val) < 0)
		return -EINVAL;
	if (strchr(val, ','))
		return need_fio(ps, "%s=%s: separate read and write splits are not run natively", key, val);
	struct fiojob *j = ps->cur;
	char list[LINE_MAX_LEN], *save = NULL;
	snprintf(list, sizeof(list), "%s", val);
	unsigned given = 0, blanks = 0, n = 0;
	uint64_t min = UINT64_MAX, max = 0;
	int pcts[64];
	for (char *e = strtok_r(list, ":", &save); e; e = strtok_r(NULL, ":", &save)) {
		uint64_t bs = 0;
		if (n == 64)
			return need_fio(ps, "%s: more than 64 sizes are not run natively", key);
		if (split_entry(ps, key, e, &bs, &pcts[n]) < 0)
			return -EINVAL;
		if (bs > (64U << 20))
			return need_fio(ps, "%s=%s: blocks over 64m are not run natively", key, val);
		j->split[n].bs = (uint32_t)bs;
		given += pcts[n] < 0 ? 0 : (unsigned)pcts[n];
		blanks += pcts[n] < 0;
		min = bs < min ? bs : min;
		max = bs > max ? bs : max;
		n++;
	}
	if (!n || given > 100 || (!blanks && given != 100))
		return need_fio(ps, "%s=%s: percentages that do not add up to 100 are not run natively", key, val);
	for (unsigned i = 0, left = 100 - given; i < n; i++) {
		unsigned share = blanks ? left / blanks : 0;
		j->split[i].pct = pcts[i] >= 0 ? (unsigned)pcts[i] : share + (i == n - 1 && blanks ? left % blanks : 0);
	}
	j->nr_split = n;
	j->bs = (uint32_t)max;
	j->bs_min = min == max ? 0 : (uint32_t)min;
	return 0;
}

static int opt_iodepth(struct parse_state *ps, const char *key, const char *val)
{
	uint64_t v = 0; /* set on success; -O3 cannot see that */
	int r = get_uint(ps, key, val, 1, UINT32_MAX, &v);
	if (r == 0 && v > 4096)
		return need_fio(ps, "%s=%s: a queue over 4096 is not run natively", key, val);
	ps->cur->iodepth = (unsigned)v;
	return r;
}

static int opt_numjobs(struct parse_state *ps, const char *key, const char *val)
{
	uint64_t v = 0; /* set on success; -O3 cannot see that */
	int r = get_uint(ps, key, val, 1, UINT32_MAX, &v);
	if (r == 0 && v > 256)
		return need_fio(ps, "%s=%s: over 256 jobs are not run natively", key, val);
	ps->cur->numjobs = (unsigned)v;
	return r;
}

static int opt_rwmix(struct parse_state *ps, const char *key, const char *val)
{
	uint64_t v = 0; /* set on success; -O3 cannot see that */
	int r = get_uint(ps, key, val, 0, 100, &v);
	ps->cur->rwmixread = strcmp(key, "rwmixwrite") == 0 ? 100 - (unsigned)v : (unsigned)v;
	return r;
}

/* size= and io_size=: bytes, or "N%" (1 to 100) of the target and of size.
 * fio reads a '%' after the number as a percentage and ignores what follows
 * it, so "100%%" (a template escaped for Python's configparser, as in
 * fio-plot's precondition.fio) is 100% there too. */
static int opt_size(struct parse_state *ps, const char *key, const char *val)
{
	bool is_size = strcmp(key, "size") == 0;
	size_t digits = val ? strlen(val) : 0;
	while (digits > 0 && val[digits - 1] == '%')
		digits--;
	if (val && digits < strlen(val)) {
		char num[32];
		uint64_t pct = 0;
		snprintf(num, sizeof(num), "%.*s", (int)digits, val);
		if (parse_uint(num, 1, 100, &pct) < 0)
			return fail(ps, "%s=%s: expected a whole percentage from 1%% to 100%%", key, val);
		*(is_size ? &ps->cur->size_pct : &ps->cur->io_size_pct) = (unsigned)pct;
		*(is_size ? &ps->cur->size : &ps->cur->io_size) = 0;
		return 0;
	}
	*(is_size ? &ps->cur->size_pct : &ps->cur->io_size_pct) = 0;
	if (val && val[0] && tolower((unsigned char)val[strlen(val) - 1]) == 'z')
		return need_fio(ps, "%s=%s: a size in zones is not run natively", key, val);
	/* 0 is fio's default: the whole file (size), or size (io_size). */
	return get_size(ps, key, val, 0, is_size ? &ps->cur->size : &ps->cur->io_size);
}

static int opt_time(struct parse_state *ps, const char *key, const char *val)
{
	return get_time(ps, key, val, strcmp(key, "runtime") == 0 ? &ps->cur->runtime_ns : &ps->cur->ramp_ns);
}

static int opt_flag(struct parse_state *ps, const char *key, const char *val)
{
	/* fio's boolean options need a value; its "set" options (time_based, norandommap, stonewall) do not. */
	if (!val && (strcmp(key, "direct") == 0 || strcmp(key, "buffered") == 0 || strcmp(key, "randrepeat") == 0))
		return fail(ps, "option '%s' needs a value, 0 or 1 (fio refuses it bare)", key);
	if (strcmp(key, "time_based") == 0)
		return get_bool(ps, key, val, &ps->cur->time_based);
	if (strcmp(key, "randrepeat") == 0)
		return get_bool(ps, key, val, &ps->cur->randrepeat);
	if (strcmp(key, "norandommap") == 0)
		return get_bool(ps, key, val, &ps->cur->norandommap);
	if (strcmp(key, "stonewall") == 0)
		return get_bool(ps, key, val, &ps->cur->stonewall);
	if (strcmp(key, "refill_buffers") == 0)
		return get_bool(ps, key, val, &ps->cur->refill_buffers);
	if (get_bool(ps, key, val, &ps->cur->direct) < 0)
		return -EINVAL;
	if (strcmp(key, "buffered") == 0)
		ps->cur->direct = !ps->cur->direct;
	return 0;
}

static int opt_rate(struct parse_state *ps, const char *key, const char *val)
{
	if (val && strchr(val, ','))
		return need_fio(ps, "%s=%s: separate read and write rates are not run natively", key, val);
	if (strcmp(key, "rate") == 0)
		return get_size(ps, key, val, 1, &ps->cur->rate_bps);
	return get_uint(ps, key, val, 1, 100000000, &ps->cur->rate_iops);
}

/* fio's synchronous engines all issue one I/O at a time: psync is iotriage's. */
static int opt_ioengine(struct parse_state *ps, const char *key, const char *val)
{
	static const char *const names[][2] = { { "psync", "psync" }, { "sync", "psync" }, { "pvsync", "psync" },
						{ "libaio", "libaio" }, { "io_uring", "io_uring" }, { "null", "null" } };
	if (need_value(ps, key, val) < 0)
		return -EINVAL;
	snprintf(ps->cur->ioengine, sizeof(ps->cur->ioengine), "%s", val);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcasecmp(val, names[i][0]) == 0) { /* fio finds an engine whatever its case */
			snprintf(ps->cur->ioengine, sizeof(ps->cur->ioengine), "%s", names[i][1]);
			return 0;
		}
	return need_fio(ps, "ioengine=%s is not run natively (psync, sync, pvsync, libaio, io_uring and null are)", val);
}

static int opt_filename(struct parse_state *ps, const char *key, const char *val)
{
	if (need_value(ps, key, val) < 0)
		return -EINVAL;
	if (strlen(val) >= sizeof(ps->cur->files))
		return fail(ps, "%s: the name is too long", key);
	snprintf(ps->cur->files, sizeof(ps->cur->files), "%s", val);
	ps->cur->filename[0] = '\0';
	const char *cursor = val;
	char one[sizeof(ps->cur->filename)];
	unsigned n = 0;
	while (fiojob_next_file(&cursor, one, sizeof(one)))
		if (n++ == 0)
			snprintf(ps->cur->filename, sizeof(ps->cur->filename), "%s", one);
	if (n > 1) {
		ps->cur->filename[0] = '\0';
		return need_fio(ps, "%s=%s: several files (':' between them) are not run natively", key, val);
	}
	return 0;
}

/* name=: the job's name in its section; in [global] it changes nothing here. */
static int opt_name(struct parse_state *ps, const char *key, const char *val)
{
	if (need_value(ps, key, val) < 0)
		return -EINVAL;
	if (ps->cur != &ps->global)
		snprintf(ps->cur->name, sizeof(ps->cur->name), "%s", val);
	return 0;
}

/* Options that change only fio's report, its way of starting jobs or its
 * clock reads, never the I/O: iotriage keeps its own (one job after another,
 * a total per job, every latency measured, its own percentiles). */
static int opt_cosmetic(struct parse_state *ps, const char *key, const char *val)
{
	if (!val && (strcmp(key, "gtod_reduce") == 0 || strcmp(key, "description") == 0 ||
		     strcmp(key, "percentile_list") == 0))
		return fail(ps, "option '%s' needs a value (fio refuses it bare)", key);
	return 0;
}

/* offset=, offset_increment= and number_ios=: bytes, bytes and a count. */
static int opt_offset(struct parse_state *ps, const char *key, const char *val)
{
	if (val && val[0] && val[strlen(val) - 1] == '%')
		return need_fio(ps, "%s=%s: an offset as a percentage is not run natively", key, val);
	if (val && val[0] && tolower((unsigned char)val[strlen(val) - 1]) == 'z')
		return need_fio(ps, "%s=%s: an offset in zones is not run natively", key, val);
	if (strcmp(key, "number_ios") == 0)
		return get_uint(ps, key, val, 0, UINT64_MAX, &ps->cur->number_ios);
	return get_size(ps, key, val, 0, strcmp(key, "offset") == 0 ? &ps->cur->offset : &ps->cur->offset_increment);
}

static int opt_loops(struct parse_state *ps, const char *key, const char *val)
{
	uint64_t v = 1;
	int r = get_uint(ps, key, val, 1, 1000000, &v);
	ps->cur->loops = (unsigned)v;
	return r;
}

/* startdelay= (seconds by default) and thinktime= (microseconds by
 * default, as fio reads them); a range (startdelay=1-5) is fio's. */
static int opt_delay(struct parse_state *ps, const char *key, const char *val)
{
	if (need_value(ps, key, val) < 0)
		return -EINVAL;
	if (strchr(val, '-') || strchr(val, ':'))
		return need_fio(ps, "%s=%s: a range of times is not run natively", key, val);
	if (strcmp(key, "startdelay") == 0)
		return get_time(ps, key, val, &ps->cur->startdelay_ns);
	if (strspn(val, "0123456789") == strlen(val)) {
		uint64_t us = 0;
		int r = get_uint(ps, key, val, 0, UINT32_MAX, &us);
		ps->cur->thinktime_ns = us * 1000;
		return r;
	}
	return get_time(ps, key, val, &ps->cur->thinktime_ns);
}

static int opt_thinkblocks(struct parse_state *ps, const char *key, const char *val)
{
	uint64_t v = 1;
	int r = get_uint(ps, key, val, 1, UINT32_MAX, &v);
	ps->cur->thinktime_blocks = (unsigned)v;
	return r;
}

/* fsync=N, fdatasync=N (0: none) and end_fsync. */
static int opt_sync(struct parse_state *ps, const char *key, const char *val)
{
	if (strcmp(key, "end_fsync") == 0)
		return get_bool(ps, key, val, &ps->cur->end_fsync);
	uint64_t v = 0;
	int r = get_uint(ps, key, val, 0, UINT32_MAX, &v);
	*(strcmp(key, "fsync") == 0 ? &ps->cur->fsync : &ps->cur->fdatasync) = (unsigned)v;
	return r;
}

/* verify= with the checksums built in (basic/checksum.h); do_verify,
 * verify_fatal, verify_backlog and verify_backlog_batch. fio's other kinds
 * (crc32, xxhash, meta, pattern, ...) are fio's. */
static int opt_verify(struct parse_state *ps, const char *key, const char *val)
{
	if (strcmp(key, "do_verify") == 0)
		return get_bool(ps, key, val, &ps->cur->do_verify);
	if (strcmp(key, "verify_fatal") == 0)
		return get_bool(ps, key, val, &ps->cur->verify_fatal);
	if (strcmp(key, "verify_backlog") == 0)
		return get_uint(ps, key, val, 0, UINT64_MAX, &ps->cur->verify_backlog);
	if (strcmp(key, "verify_backlog_batch") == 0) {
		uint64_t v = 0;
		int r = get_uint(ps, key, val, 0, UINT32_MAX, &v);
		ps->cur->verify_batch = (unsigned)v;
		return r;
	}
	if (need_value(ps, key, val) < 0)
		return -EINVAL;
	ps->cur->verify[0] = '\0';
	if (strcmp(val, "0") == 0 || strcmp(val, "null") == 0)
		return 0;
	int kind = checksum_find(val);
	if (kind < 0)
		return need_fio(ps, "%s=%s is not run natively (crc32c, md5 and sha256 are)", key, val);
	snprintf(ps->cur->verify, sizeof(ps->cur->verify), "%s", checksum_name(kind));
	return 0;
}

/* directory=, filename_format=, filesize=, nrfiles= and openfiles=. */
static int opt_files(struct parse_state *ps, const char *key, const char *val)
{
	if (need_value(ps, key, val) < 0)
		return -EINVAL;
	if (strcmp(key, "directory") == 0 || strcmp(key, "filename_format") == 0) {
		char *dst = key[0] == 'd' ? ps->cur->directory : ps->cur->filename_format;
		size_t room = key[0] == 'd' ? sizeof(ps->cur->directory) : sizeof(ps->cur->filename_format);
		if (strlen(val) >= room)
			return fail(ps, "%s: the name is too long", key);
		if (key[0] == 'd' && strchr(val, ':'))
			return need_fio(ps, "%s=%s: several directories are not run natively", key, val);
		if (key[0] == 'f' && strchr(val, '$') && !strstr(val, "$jobname") && !strstr(val, "$jobnum") &&
		    !strstr(val, "$filenum"))
			return need_fio(ps, "%s=%s: a keyword other than $jobname, $jobnum and $filenum", key, val);
		if (key[0] == 'f' && strstr(val, "$clientuid"))
			return need_fio(ps, "%s=%s: $clientuid is not run natively", key, val);
		snprintf(dst, room, "%s", val);
		return 0;
	}
	if (strcmp(key, "filesize") == 0) {
		if (strchr(val, '-') || strchr(val, ':'))
			return need_fio(ps, "%s=%s: a range of file sizes is not run natively", key, val);
		return get_size(ps, key, val, 1, &ps->cur->filesize);
	}
	uint64_t v = 1;
	int r = get_uint(ps, key, val, strcmp(key, "openfiles") == 0 ? 0 : 1, UINT32_MAX, &v);
	*(strcmp(key, "nrfiles") == 0 ? &ps->cur->nrfiles : &ps->cur->openfiles) = (unsigned)v;
	return r;
}

/* random_distribution=: fio's models (bench/distribution.h); zoned_abs and
 * separate read and write models are fio's. */
static int opt_distribution(struct parse_state *ps, const char *key, const char *val)
{
	if (need_value(ps, key, val) < 0)
		return -EINVAL;
	char why[200];
	int r = dist_parse(val, &ps->cur->dist, why, sizeof(why));
	if (r == -ENOTSUP)
		return need_fio(ps, "%s=%s", key, why);
	return r < 0 ? fail(ps, "%s=%s", key, why) : 0;
}

/* buffer_compress_percentage=, buffer_compress_chunk=, dedupe_percentage=
 * and dedupe_mode= (repeat, fio's default; working_set is fio's). */
static int opt_shrinkable(struct parse_state *ps, const char *key, const char *val)
{
	uint64_t v = 0;
	if (strcmp(key, "dedupe_mode") == 0) {
		if (need_value(ps, key, val) < 0)
			return -EINVAL;
		if (strcmp(val, "repeat") == 0)
			return 0;
		return strcmp(val, "working_set") == 0 ? need_fio(ps, "%s=%s is not run natively (repeat is)", key, val)
						       : fail(ps, "%s=%s: expected repeat or working_set", key, val);
	}
	if (strcmp(key, "buffer_compress_chunk") == 0) {
		int r = get_size(ps, key, val, 0, &v);
		if (r == 0 && v > (64U << 20))
			return need_fio(ps, "%s=%s: a chunk over 64m is not run natively", key, val);
		ps->cur->compress_chunk = (uint32_t)v;
		return r;
	}
	int r = get_uint(ps, key, val, 0, 100, &v);
	*(strcmp(key, "dedupe_percentage") == 0 ? &ps->cur->dedupe_pct : &ps->cur->compress_pct) = (unsigned)v;
	return r;
}

/* write_bw_log=, write_iops_log=, write_lat_log=, write_hist_log=: a
 * prefix, or bare (the job's name, jobs_finish); the others are numbers or
 * flags; per_job_logs=0 (one file for every clone) is fio's. */
static int opt_log(struct parse_state *ps, const char *key, const char *val)
{
	struct fiojob_logs *l = &ps->cur->logs;
	static const char *const names[] = { "write_bw_log", "write_iops_log", "write_lat_log", "write_hist_log" };
	bool *on[] = { &l->bw, &l->iops, &l->lat, &l->hist };
	char *name[] = { l->bw_name, l->iops_name, l->lat_name, l->hist_name };
	for (size_t i = 0; i < 4; i++) {
		if (strcmp(key, names[i]) != 0)
			continue;
		if (val && strlen(val) >= sizeof(l->bw_name))
			return fail(ps, "%s: the name is too long", key);
		*on[i] = true; /* bare: the prefix so far (from [global]), else the job's name */
		if (val)
			snprintf(name[i], sizeof(l->bw_name), "%s", val);
		return 0;
	}
	uint64_t v = 0;
	if (strcmp(key, "log_max_value") == 0)
		return get_bool(ps, key, val, &l->log_max);
	if (strcmp(key, "log_offset") == 0)
		return get_bool(ps, key, val, &l->log_offset);
	if (strcmp(key, "per_job_logs") == 0) {
		bool per_job = true;
		if (get_bool(ps, key, val, &per_job) < 0)
			return -EINVAL;
		return per_job ? 0 : need_fio(ps, "%s=%s: one log for every clone is not written natively", key, val);
	}
	if (strcmp(key, "log_hist_coarseness") == 0) {
		int r = get_uint(ps, key, val, 0, 6, &v);
		l->hist_coarseness = (unsigned)v;
		return r;
	}
	int r = get_uint(ps, key, val, 0, UINT32_MAX, &v);
	*(strcmp(key, "log_avg_msec") == 0 ? &l->avg_msec : &l->hist_msec) = (unsigned)v;
	return r;
}

static const struct {
	const char *name;
	option_fn fn;
} options[] = {
	{ "write_bw_log", opt_log }, { "write_iops_log", opt_log }, { "write_lat_log", opt_log },
	{ "write_hist_log", opt_log }, { "log_avg_msec", opt_log }, { "log_hist_msec", opt_log },
	{ "log_hist_coarseness", opt_log }, { "log_max_value", opt_log }, { "log_offset", opt_log },
	{ "per_job_logs", opt_log },
	{ "rw", opt_rw }, { "bs", opt_bs }, { "iodepth", opt_iodepth }, { "numjobs", opt_numjobs },
	{ "size", opt_size }, { "io_size", opt_size }, { "runtime", opt_time }, { "ramp_time", opt_time },
	{ "time_based", opt_flag }, { "direct", opt_flag }, { "buffered", opt_flag }, { "randrepeat", opt_flag },
	{ "norandommap", opt_flag }, { "rwmixread", opt_rwmix }, { "rwmixwrite", opt_rwmix },
	{ "ioengine", opt_ioengine }, { "filename", opt_filename }, { "rate", opt_rate }, { "rate_iops", opt_rate },
	{ "name", opt_name }, { "description", opt_cosmetic }, { "thread", opt_cosmetic },
	{ "new_group", opt_cosmetic }, { "gtod_reduce", opt_cosmetic }, { "percentile_list", opt_cosmetic },
	{ "group_reporting", opt_cosmetic }, { "stonewall", opt_flag },
	{ "offset", opt_offset }, { "offset_increment", opt_offset }, { "number_ios", opt_offset },
	{ "loops", opt_loops }, { "startdelay", opt_delay }, { "thinktime", opt_delay },
	{ "thinktime_blocks", opt_thinkblocks }, { "fsync", opt_sync }, { "fdatasync", opt_sync },
	{ "end_fsync", opt_sync }, { "verify", opt_verify }, { "do_verify", opt_verify },
	{ "verify_fatal", opt_verify }, { "directory", opt_files }, { "filename_format", opt_files },
	{ "filesize", opt_files }, { "nrfiles", opt_files }, { "openfiles", opt_files },
	{ "bsrange", opt_bsrange }, { "bssplit", opt_bssplit }, { "wait_for", opt_wait_for },
	{ "random_distribution", opt_distribution }, { "buffer_compress_percentage", opt_shrinkable },
	{ "buffer_compress_chunk", opt_shrinkable }, { "dedupe_percentage", opt_shrinkable },
	{ "dedupe_mode", opt_shrinkable }, { "refill_buffers", opt_flag }, { "ba", opt_ba },
	{ "verify_backlog", opt_verify }, { "verify_backlog_batch", opt_verify },
};

/* fio's aliases (its option table's .alias), each to the option's name. */
static const char *const aliases[][2] = {
	{ "readwrite", "rw" }, { "iodepth_batch_submit", "iodepth_batch" },
	{ "iodepth_batch_complete", "iodepth_batch_complete_min" }, { "io_limit", "io_size" },
	{ "fill_fs", "fill_device" }, { "fileoffset", "offset" }, { "blocksize", "bs" }, { "blockalign", "ba" },
	{ "blocksize_range", "bsrange" }, { "blocksize_unaligned", "bs_unaligned" }, { "allrandrepeat", "randrepeat" },
	{ "nr_files", "nrfiles" }, { "timeout", "runtime" }, { "iomem", "mem" }, { "mem_align", "iomem_align" },
	{ "data_placement", "dataplacement" }, { "fdp_pli_select", "plid_select" }, { "fdp_pli", "plids" },
	{ "ratemin", "rate_min" }, { "ratecycle", "rate_cycle" }, { "wait_for_previous", "stonewall" },
	{ "disable_bw", "disable_bw_measurement" }, { "threads", "thread" },
};

const char *const fiojob_supported[] = {
	"rw", "readwrite", "bs", "blocksize", "iodepth", "numjobs", "size", "io_size", "io_limit", "runtime",
	"timeout", "ramp_time", "time_based", "direct", "buffered", "randrepeat", "allrandrepeat", "norandommap",
	"rwmixread", "rwmixwrite", "ioengine", "filename", "rate", "rate_iops", "stonewall", "wait_for_previous",
	"offset", "fileoffset", "offset_increment", "number_ios", "loops", "startdelay", "thinktime",
	"thinktime_blocks", "fsync", "fdatasync", "end_fsync", "verify", "do_verify", "verify_fatal", "directory",
	"filename_format", "filesize", "nrfiles", "nr_files", "openfiles", "bsrange", "blocksize_range", "bssplit",
	"wait_for", "random_distribution", "buffer_compress_percentage", "buffer_compress_chunk",
	"dedupe_percentage", "dedupe_mode", "refill_buffers",
	"write_bw_log", "write_iops_log", "write_lat_log", "write_hist_log", "log_avg_msec",
	"log_hist_msec", "log_hist_coarseness", "log_max_value", "log_offset", "per_job_logs", "ba", "blockalign",
	"verify_backlog", "verify_backlog_batch", NULL,
};

const char *const fiojob_cosmetic[] = {
	"name", "description", "thread", "threads", "new_group", "gtod_reduce", "percentile_list",
	"group_reporting", NULL,
};

static void job_defaults(struct fiojob *j, const char *name)
{
	*j = (struct fiojob){ .rwmixread = 50, .bs = 4096, .iodepth = 1, .numjobs = 1, .randrepeat = true,
			      .loops = 1, .thinktime_blocks = 1, .do_verify = true, .nrfiles = 1,
			      .dist = DIST_SPEC_INIT };
	snprintf(j->rw, sizeof(j->rw), "read");
	snprintf(j->ioengine, sizeof(j->ioengine), "psync");
	snprintf(j->name, sizeof(j->name), "%s", name);
}

static char *trim(char *s)
{
	while (*s && (isspace((unsigned char)*s) || iscntrl((unsigned char)*s)))
		s++;
	size_t n = strlen(s);
	while (n && (isspace((unsigned char)s[n - 1]) || iscntrl((unsigned char)s[n - 1])))
		s[--n] = '\0';
	return s;
}

/* "[name]": a new job from the global options, or a global section (a name
 * starting "global", as fio reads it; its options reach the jobs after it). */
static int begin_section(struct parse_state *ps, char *line)
{
	size_t len = strlen(line);
	if (ps->depth)
		return fail(ps, "a section in an included file (fio refuses it too)");
	if (len < 2 || line[len - 1] != ']')
		return fail(ps, "a section header is '[name]'");
	line[len - 1] = '\0';
	char *name = line + 1;
	if (!*name || strlen(name) >= sizeof(ps->global.name))
		return fail(ps, "a section needs a name of 1 to %zu characters", sizeof(ps->global.name) - 1);
	strbuf_addf(&ps->fio, "[%s]\n", name);
	if (strncmp(name, "global", 6) == 0) {
		ps->cur = &ps->global;
		return 0;
	}
	if (ps->out->njobs == FIOJOB_MAX_JOBS)
		return fail(ps, "more than %d job sections", FIOJOB_MAX_JOBS);
	struct fiojob *j = &ps->out->jobs[ps->out->njobs++];
	*j = ps->global;
	snprintf(j->name, sizeof(j->name), "%s", name);
	ps->cur = j;
	return 0;
}

static const char *canonical(const char *key)
{
	for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
		if (strcmp(key, aliases[i][0]) == 0)
			return aliases[i][1];
	return key;
}

static int option_line(struct parse_state *ps, char *raw)
{
	char line[LINE_MAX_LEN], why[300];
	int r = fiojob_expand_env(raw, ps->env, line, sizeof(line), why, sizeof(why));
	if (r < 0)
		return r == -E2BIG ? fail(ps, "the line is over %d characters with its variables", LINE_MAX_LEN - 1)
				   : fail(ps, "%s", why);
	if (!ps->cur)
		return fail(ps, "option '%s' before any section", line);
	strbuf_addf(&ps->fio, "%s\n", line);
	char *eq = strchr(line, '=');
	char *val = NULL, value[LINE_MAX_LEN];
	if (eq) {
		*eq = '\0';
		if (fiojob_expand_keywords(trim(eq + 1), ps->env, value, sizeof(value), why, sizeof(why)) < 0)
			return fail(ps, "%s=%s", trim(line), why);
		val = value;
	}
	const char *key = canonical(trim(line));
	for (size_t i = 0; i < sizeof(options) / sizeof(options[0]); i++)
		if (strcmp(key, options[i].name) == 0)
			return options[i].fn(ps, key, val);
	if (strcmp(key, trim(line)) != 0)
		return need_fio(ps, "option '%s' (fio's alias of '%s') is not run natively", trim(line), key);
	return need_fio(ps, "option '%s' is not run natively", key);
}

static int parse_text(struct parse_state *ps, const char *text, size_t len);

/* "include FILE": its lines join the current section, as in fio. */
static int include_file(struct parse_state *ps, const char *name)
{
	if (!ps->env || !ps->env->read_include)
		return fail(ps, "include %s: included files are not read here", name);
	if (ps->depth >= INCLUDE_MAX_DEPTH)
		return fail(ps, "include %s: more than %d includes deep", name, INCLUDE_MAX_DEPTH);
	char *text = NULL, why[300];
	size_t len = 0;
	const char *from = ps->file;
	if (ps->env->read_include(name, from, &text, &len, why, sizeof(why), ps->env->arg) < 0)
		return fail(ps, "include %s: %s", name, why);
	unsigned line = ps->line;
	ps->file = name;
	ps->depth++;
	int r = parse_text(ps, text, len);
	ps->depth--;
	ps->file = from;
	ps->line = line;
	free(text);
	return r;
}

static int parse_line(struct parse_state *ps, char *raw)
{
	char *line = trim(raw);
	if (!*line || *line == '#' || *line == ';')
		return 0;
	line[strcspn(line, ";#")] = '\0'; /* fio cuts a line at its first ';' or '#' */
	line = trim(line);
	if (*line == '[')
		return begin_section(ps, line);
	if (strncmp(line, "include", 7) == 0 && isspace((unsigned char)line[7]))
		return include_file(ps, trim(line + 8));
	return option_line(ps, line);
}

static int parse_text(struct parse_state *ps, const char *text, size_t len)
{
	size_t pos = 0;
	ps->line = 0;
	while (pos < len && text[pos]) {
		char line[LINE_MAX_LEN];
		size_t n = 0;
		ps->line++;
		while (pos < len && text[pos] && text[pos] != '\n') {
			if (n + 1 >= sizeof(line))
				return fail(ps, "the line is over %d characters", LINE_MAX_LEN - 1);
			line[n++] = text[pos++];
		}
		line[n] = '\0';
		if (pos < len && text[pos] == '\n')
			pos++;
		if (parse_line(ps, line) < 0)
			return -EINVAL;
	}
	return 0;
}

/* fio's engines that change or remove their files whatever rw says. */
static bool engine_changes_files(const char *engine)
{
	static const char *const names[] = { "filedelete", "dirdelete", "filecreate", "dircreate", "ftruncate",
					     "falloc", "e4defrag", NULL };
	for (size_t i = 0; names[i]; i++)
		if (strcmp(engine, names[i]) == 0)
			return true;
	return false;
}

uint32_t fiojob_grain(const struct fiojob *job)
{
	return job->bs_min ? job->bs_min : job->bs;
}

/* fio uses ba= for random I/O only (the smallest block size otherwise), and
 * one that differs from that size in any direction turns the random map
 * off ("Any use of blockalign= turns off randommap"). */
static bool ba_changes_offsets(const struct fiojob *j)
{
	uint64_t grain = fiojob_grain(j);
	if (strncmp(j->rw, "rand", 4) != 0)
		return false;
	for (int d = 0; d < 3; d++)
		if (j->ba[d] && j->ba[d] != grain)
			return true;
	return false;
}

/* random_distribution=zoned with ba: fio places the zones' blocks ba apart
 * (its last_block), natively when the job's directions share one ba (the
 * others draw the distribution's blocks by the block size and place them ba
 * apart, squeezed or past the end: fio's). */
static bool ba_with_dist_native(const struct fiojob *j)
{
	uint64_t grain = fiojob_grain(j);
	uint64_t r = j->ba[0] ? j->ba[0] : grain, w = j->ba[1] ? j->ba[1] : grain;
	return j->dist.kind == DIST_ZONED && (strcmp(j->rw, "randrw") != 0 || r == w);
}

/* Native options iotriage runs only in some combinations: the others are fio's. */
/* Why several files (nrfiles) are fio's, NULL when run natively: files of
 * one fixed block size named by filename_format in turn (fio's roundrobin),
 * all open at once, without the options that address one file. */
static const char *nrfiles_why(const struct fiojob *j)
{
	uint64_t each = j->filesize ? j->filesize : j->size / j->nrfiles;
	if (j->nrfiles > FIOJOB_MAX_NRFILES)
		return "nrfiles= over 64";
	if (j->openfiles && j->openfiles < j->nrfiles)
		return "openfiles= under nrfiles= (files opened and closed in turn)";
	if (j->filename[0] || j->files[0])
		return "nrfiles= over 1 with filename=";
	if (!each || each % j->bs || j->size_pct)
		return "nrfiles= over 1 without a size that is a whole number of blocks per file";
	if (j->bs_min || j->verify[0] || strstr(j->rw, "trim") || j->fsync || j->fdatasync || j->offset ||
	    j->offset_increment || j->seq_hole || j->numjobs > 1 || strcmp(j->ioengine, "null") == 0 ||
	    ba_changes_offsets(j))
		return "nrfiles= over 1 with bsrange/bssplit, ba, verify, trim, fsync, offset, ':N', numjobs or the null "
		       "engine";
	return NULL;
}

static void job_combinations(struct fiojob_file *out, const struct fiojob *j)
{
	bool reads = strcmp(j->rw, "read") == 0 || strcmp(j->rw, "randread") == 0;
	bool writes = strcmp(j->rw, "write") == 0 || strcmp(j->rw, "randwrite") == 0;
	bool trims = strstr(j->rw, "trim") != NULL;
	const char *why = NULL;
	if (trims && (j->fsync || j->fdatasync || j->verify[0]))
		why = "fsync=, fdatasync= or verify= with trims";
	else if (trims && (j->logs.bw || j->logs.iops || j->logs.lat || j->logs.hist))
		why = "a bw, iops, lat or hist log of trims";
	else if ((j->fsync || j->fdatasync) && !writes)
		why = "fsync= or fdatasync= with reads in the mix (fio counts its syncs around reads its own way)";
	else if (j->fsync && j->fdatasync)
		why = "both fsync= and fdatasync=";
	else if (j->verify[0] && !reads && !writes)
		why = "verify= with a read/write mix";
	else if (j->verify[0] && writes && ba_changes_offsets(j))
		why = "verify= on random writes with ba= (it turns the random map off: blocks written over again)";
	else if (j->verify[0] && (j->norandommap || j->time_based) && writes)
		why = "verify= on writes with norandommap or time_based (blocks written over again)";
	else if (j->verify[0] && j->bs_min)
		why = "verify= with block sizes that vary (bsrange= or bssplit=)";
	else if (j->seq_hole && j->bs_min)
		why = "an offset modifier (':N') with block sizes that vary";
	else if (j->verify[0] && (j->compress_pct || j->dedupe_pct))
		why = "verify= with buffer_compress_percentage= or dedupe_percentage=";
	else if (j->verify[0] && j->do_verify && j->verify_backlog && writes &&
		 (j->loops > 1 || j->number_ios || (j->io_size && j->size && j->io_size > j->size)))
		why = "verify_backlog= with loops=, number_ios= or io_size= over size= (fio counts the blocks it reads "
		      "back against them)";
	else if (ba_changes_offsets(j) && j->dist.kind != DIST_RANDOM && !ba_with_dist_native(j))
		why = "ba= with random_distribution= other than zoned, or with zoned and a ba per direction";
	else if (j->nrfiles > 1)
		why = nrfiles_why(j);
	else if (j->numjobs > 1 && !j->filename[0] && (j->directory[0] || j->filename_format[0] || j->filesize))
		why = "numjobs= over 1 with a file per job (directory=, filename_format= or filesize= without filename=)";
	if (why)
		snprintf(out->fio_reason, sizeof(out->fio_reason), "job [%s]: %s is not run natively", j->name, why);
}

/* A bare write_*_log with no prefix before it names its files after the job, as fio's. */
static void logs_named(struct fiojob *j)
{
	struct fiojob_logs *l = &j->logs;
	bool on[] = { l->bw, l->iops, l->lat, l->hist };
	char *name[] = { l->bw_name, l->iops_name, l->lat_name, l->hist_name };
	for (size_t i = 0; i < 4; i++)
		if (on[i] && !name[i][0])
			snprintf(name[i], sizeof(l->bw_name), "%s", j->name);
}

static void jobs_finish(struct fiojob_file *out)
{
	for (size_t i = 0; i < out->njobs; i++) {
		struct fiojob *j = &out->jobs[i];
		if (j->dist.kind != DIST_RANDOM || ba_changes_offsets(j)) /* fio turns the random map off for both */
			j->norandommap = true;
		logs_named(j);
		j->may_write = (strcmp(j->rw, "read") != 0 && strcmp(j->rw, "randread") != 0) ||
			       engine_changes_files(j->ioengine);
		if (!out->fio_reason[0])
			job_combinations(out, j);
		/* fio starts every job at once unless it waits for those before it
		 * (stonewall) or for the one just before it (wait_for). */
		bool waits = j->stonewall || (i && strcmp(j->wait_for, out->jobs[i - 1].name) == 0);
		if (i && !waits && !out->fio_reason[0])
			snprintf(out->fio_reason, sizeof(out->fio_reason),
				 "jobs [%s] and [%s] run at the same time (no stonewall or wait_for=%s in [%s]): iotriage runs "
				 "jobs one after another only", out->jobs[i - 1].name, j->name, out->jobs[i - 1].name, j->name);
	}
}

int fiojob_parse_env(const char *text, size_t len, const struct fiojob_env *env, struct fiojob_file *out,
		     char *err, size_t errlen)
{
	struct parse_state ps = { .out = out, .env = env, .file = env ? env->path : NULL, .err = err,
				  .errlen = errlen, .fio = STRBUF_INIT };
	out->njobs = 0;
	out->fio_reason[0] = '\0';
	out->fio_text = NULL;
	job_defaults(&ps.global, "global");
	if (len > FIOJOB_MAX_TEXT) {
		snprintf(err, errlen, "the job file is over %u bytes", FIOJOB_MAX_TEXT);
		return -EINVAL;
	}
	int r = parse_text(&ps, text, len);
	if (r == 0 && !out->njobs) {
		snprintf(err, errlen, "no job section (a [name] other than [global])");
		r = -EINVAL;
	}
	jobs_finish(out);
	out->fio_text = strbuf_detach(&ps.fio);
	return r;
}

int fiojob_parse(const char *text, size_t len, struct fiojob_file *out, char *err, size_t errlen)
{
	return fiojob_parse_env(text, len, NULL, out, err, errlen);
}

void fiojob_file_release(struct fiojob_file *f)
{
	free(f->fio_text);
	f->fio_text = NULL;
}

/* fio's filename_format keywords for clone 0, file 0. */
static void expand_format(const char *fmt, const char *jobname, unsigned filenum, struct strbuf *out)
{
	char num[16];
	snprintf(num, sizeof(num), "%u", filenum);
	const char *const keys[][2] = { { "$jobname", NULL }, { "$jobnum", "0" }, { "$filenum", num } };
	while (*fmt) {
		size_t i = 0;
		for (; i < 3; i++)
			if (strncmp(fmt, keys[i][0], strlen(keys[i][0])) == 0)
				break;
		if (i == 3) {
			strbuf_addch(out, *fmt++);
			continue;
		}
		strbuf_adds(out, keys[i][1] ? keys[i][1] : jobname);
		fmt += strlen(keys[i][0]);
	}
}

bool fiojob_file_path(const struct fiojob *job, const char *dir, char *buf, size_t len)
{
	return fiojob_file_path_n(job, dir, 0, buf, len);
}

bool fiojob_file_path_n(const struct fiojob *job, const char *dir, unsigned filenum, char *buf, size_t len)
{
	if (!job->filename[0] && !job->directory[0] && !job->filename_format[0] && !job->filesize && job->nrfiles < 2)
		return false;
	struct strbuf sb = STRBUF_INIT;
	const char *d = dir ? dir : job->directory;
	bool absolute = job->filename[0] == '/';
	if (d[0] && !absolute)
		strbuf_addf(&sb, "%s%s", d, d[strlen(d) - 1] == '/' ? "" : "/");
	if (job->filename[0])
		strbuf_adds(&sb, job->filename);
	else
		expand_format(job->filename_format[0] ? job->filename_format : "$jobname.$jobnum.$filenum", job->name,
			      filenum, &sb);
	snprintf(buf, len, "%s", sb.buf);
	strbuf_release(&sb);
	return true;
}

bool fiojob_next_file(const char **cursor, char *buf, size_t len)
{
	const char *p = *cursor;
	while (p && *p == ':')
		p++;
	if (!p || !*p)
		return false;
	size_t n = 0;
	for (; *p && *p != ':'; p++) {
		if (*p == '\\' && p[1] == ':')
			p++;
		if (n + 1 < len)
			buf[n++] = *p;
	}
	buf[n] = '\0';
	*cursor = p;
	return true;
}

/* Options that name or count the files: TARGET, one file, replaces them all. */
static bool names_files(const char *line)
{
	static const char *const keys[] = { "filename", "directory", "filename_format", "opendir", "nrfiles",
					    "nr_files", NULL };
	size_t n = strcspn(line, "=");
	while (n && isspace((unsigned char)line[n - 1]))
		n--;
	for (size_t i = 0; keys[i]; i++)
		if (strlen(keys[i]) == n && strncmp(line, keys[i], n) == 0)
			return true;
	return false;
}

void fiojob_fio_text(const struct fiojob_file *f, const char *target, struct strbuf *out)
{
	const char *text = f->fio_text ? f->fio_text : "";
	if (target) {
		strbuf_adds(out, "[global]\nfilename=");
		for (const char *p = target; *p; p++) {
			if (*p == ':')
				strbuf_addch(out, '\\');
			strbuf_addch(out, *p);
		}
		strbuf_addch(out, '\n');
	}
	while (*text) {
		size_t n = strcspn(text, "\n");
		char line[LINE_MAX_LEN];
		snprintf(line, sizeof(line), "%.*s", (int)n, text);
		if (!target || !names_files(line))
			strbuf_addf(out, "%s\n", line);
		text += n + (text[n] == '\n');
	}
}
