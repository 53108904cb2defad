/* A fio job file read into iotriage's terms (see bench/fiojob.h). */
#include "bench/fiojob.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "basic/parse.h"

#define LINE_MAX_LEN 1024

struct parse_state {
	struct fiojob_file *out;
	struct fiojob global;
	struct fiojob *cur;      /* the section being read: &global or a job */
	unsigned line;
	char *err;
	size_t errlen;
};

typedef int (*option_fn)(struct parse_state *ps, const char *key, const char *val);

static int fail(struct parse_state *ps, const char *fmt, ...)
{
	char what[384];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(ps->err, ps->errlen, "line %u%s%s%s: %s", ps->line, ps->cur ? " [" : "",
		 ps->cur ? ps->cur->name : "", ps->cur ? "]" : "", what);
	return -EINVAL;
}

static int need_value(struct parse_state *ps, const char *key, const char *val)
{
	return val ? 0 : fail(ps, "option '%s' needs a value", key);
}

static int get_size(struct parse_state *ps, const char *key, const char *val, uint64_t min, uint64_t *ret)
{
	if (need_value(ps, key, val) < 0)
		return -EINVAL;
	uint64_t v = 0; /* set on success; -O3 cannot see that */
	if (parse_size(val, &v) < 0 || v < min)
		return fail(ps, "%s=%s: expected a size such as 4k or 64m%s", key, val,
			    min ? " (not 0)" : "");
	*ret = v;
	return 0;
}

static int get_uint(struct parse_state *ps, const char *key, const char *val, uint64_t min, uint64_t max,
		    uint64_t *ret)
{
	if (need_value(ps, key, val) < 0)
		return -EINVAL;
	if (parse_uint(val, min, max, ret) < 0)
		return fail(ps, "%s=%s: expected a whole number from %llu to %llu", key, val,
			    (unsigned long long)min, (unsigned long long)max);
	return 0;
}

/* A flag: bare, or =0/=1. */
static int get_bool(struct parse_state *ps, const char *key, const char *val, bool *ret)
{
	uint64_t v = 1;
	if (val && parse_uint(val, 0, 1, &v) < 0)
		return fail(ps, "%s=%s: expected 0 or 1", key, val);
	*ret = v != 0;
	return 0;
}

static int get_time(struct parse_state *ps, const char *key, const char *val, uint64_t *ret)
{
	if (need_value(ps, key, val) < 0)
		return -EINVAL;
	if (parse_duration_ns(val, ret) < 0)
		return fail(ps, "%s=%s: expected a time such as 30, 30s, 500ms or 2m", key, val);
	return 0;
}

static int opt_rw(struct parse_state *ps, const char *key, const char *val)
{
	static const char *const modes[] = { "read", "write", "randread", "randwrite", "rw", "readwrite", "randrw", NULL };
	if (need_value(ps, key, val) < 0)
		return -EINVAL;
	for (size_t i = 0; modes[i]; i++)
		if (strcmp(val, modes[i]) == 0) {
			snprintf(ps->cur->rw, sizeof(ps->cur->rw), "%s", val);
			return 0;
		}
	if (strchr(val, ':'))
		return fail(ps, "%s=%s: offset modifiers (':N') are not supported", key, val);
	return fail(ps, "%s=%s: expected read, write, randread, randwrite, rw, readwrite or randrw", key, val);
}

static int opt_bs(struct parse_state *ps, const char *key, const char *val)
{
	uint64_t v = 0; /* set on success; -O3 cannot see that */
	if (val && strchr(val, ','))
		return fail(ps, "%s=%s: separate read and write block sizes are not supported", key, val);
	if (get_size(ps, key, val, 1, &v) < 0)
		return -EINVAL;
	if (v > (64U << 20))
		return fail(ps, "%s=%s: at most 64m", key, val);
	ps->cur->bs = (uint32_t)v;
	return 0;
}

static int opt_iodepth(struct parse_state *ps, const char *key, const char *val)
{
	uint64_t v = 0; /* set on success; -O3 cannot see that */
	int r = get_uint(ps, key, val, 1, 4096, &v);
	ps->cur->iodepth = (unsigned)v;
	return r;
}

static int opt_numjobs(struct parse_state *ps, const char *key, const char *val)
{
	uint64_t v = 0; /* set on success; -O3 cannot see that */
	int r = get_uint(ps, key, val, 1, 256, &v);
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

static int opt_size(struct parse_state *ps, const char *key, const char *val)
{
	if (val && strchr(val, '%'))
		return fail(ps, "%s=%s: a percentage of the target is not supported", key, val);
	return get_size(ps, key, val, 1, strcmp(key, "size") == 0 ? &ps->cur->size : &ps->cur->io_size);
}

static int opt_time(struct parse_state *ps, const char *key, const char *val)
{
	return get_time(ps, key, val, strcmp(key, "runtime") == 0 ? &ps->cur->runtime_ns : &ps->cur->ramp_ns);
}

static int opt_flag(struct parse_state *ps, const char *key, const char *val)
{
	if (strcmp(key, "time_based") == 0)
		return get_bool(ps, key, val, &ps->cur->time_based);
	if (strcmp(key, "randrepeat") == 0)
		return get_bool(ps, key, val, &ps->cur->randrepeat);
	if (strcmp(key, "norandommap") == 0)
		return get_bool(ps, key, val, &ps->cur->norandommap);
	if (get_bool(ps, key, val, &ps->cur->direct) < 0)
		return -EINVAL;
	if (strcmp(key, "buffered") == 0)
		ps->cur->direct = !ps->cur->direct;
	return 0;
}

static int opt_rate(struct parse_state *ps, const char *key, const char *val)
{
	if (val && strchr(val, ','))
		return fail(ps, "%s=%s: separate read and write rates are not supported", key, val);
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
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(val, names[i][0]) == 0) {
			snprintf(ps->cur->ioengine, sizeof(ps->cur->ioengine), "%s", names[i][1]);
			return 0;
		}
	return fail(ps, "ioengine=%s is not supported (psync, sync, pvsync, libaio, io_uring or null)", val);
}

static int opt_filename(struct parse_state *ps, const char *key, const char *val)
{
	if (need_value(ps, key, val) < 0)
		return -EINVAL;
	if (strchr(val, ':'))
		return fail(ps, "%s=%s: several files (':') are not supported", key, val);
	if (strlen(val) >= sizeof(ps->cur->filename))
		return fail(ps, "%s: the name is too long", key);
	snprintf(ps->cur->filename, sizeof(ps->cur->filename), "%s", val);
	return 0;
}

/* Options that change only fio's report or its job order, which iotriage
 * keeps anyway (one job after another, a total per job). */
static int opt_ignored(struct parse_state *ps, const char *key, const char *val)
{
	(void)ps, (void)key, (void)val;
	return 0;
}

static const struct {
	const char *name;
	option_fn fn;
} options[] = {
	{ "rw", opt_rw }, { "readwrite", opt_rw }, { "bs", opt_bs }, { "blocksize", opt_bs },
	{ "iodepth", opt_iodepth }, { "numjobs", opt_numjobs }, { "size", opt_size }, { "io_size", opt_size },
	{ "runtime", opt_time }, { "ramp_time", opt_time }, { "time_based", opt_flag }, { "direct", opt_flag },
	{ "buffered", opt_flag }, { "randrepeat", opt_flag }, { "norandommap", opt_flag }, { "rwmixread", opt_rwmix }, { "rwmixwrite", opt_rwmix },
	{ "ioengine", opt_ioengine }, { "filename", opt_filename }, { "rate", opt_rate }, { "rate_iops", opt_rate },
	{ "group_reporting", opt_ignored }, { "stonewall", opt_ignored }, { "wait_for_previous", opt_ignored },
	{ "description", opt_ignored },
};

const char *const fiojob_supported[] = {
	"rw", "readwrite", "bs", "blocksize", "iodepth", "numjobs", "size", "io_size", "runtime", "ramp_time",
	"time_based", "direct", "buffered", "randrepeat", "norandommap", "rwmixread", "rwmixwrite", "ioengine", "filename",
	"rate", "rate_iops", "group_reporting", "stonewall", "wait_for_previous", "description", NULL,
};

static void job_defaults(struct fiojob *j, const char *name)
{
	*j = (struct fiojob){ .rwmixread = 50, .bs = 4096, .iodepth = 1, .numjobs = 1, .randrepeat = true };
	snprintf(j->rw, sizeof(j->rw), "read");
	snprintf(j->ioengine, sizeof(j->ioengine), "psync");
	snprintf(j->name, sizeof(j->name), "%s", name);
}

static char *trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	size_t n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	return s;
}

/* "[name]": a new job from the global options, or the global section again. */
static int begin_section(struct parse_state *ps, char *line)
{
	char *end = strchr(line, ']');
	if (!end || *trim(end + 1))
		return fail(ps, "a section header is '[name]'");
	*end = '\0';
	char *name = trim(line + 1);
	if (!*name || strlen(name) >= sizeof(ps->global.name))
		return fail(ps, "a section needs a name of 1 to %zu characters", sizeof(ps->global.name) - 1);
	if (strcmp(name, "global") == 0) {
		if (ps->out->njobs)
			return fail(ps, "[global] after a job section is not supported");
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

static int option_line(struct parse_state *ps, char *line)
{
	char *eq = strchr(line, '=');
	char *val = NULL;
	if (eq) {
		*eq = '\0';
		val = trim(eq + 1);
	}
	char *key = trim(line);
	if (!ps->cur)
		return fail(ps, "option '%s' before any section", key);
	for (size_t i = 0; i < sizeof(options) / sizeof(options[0]); i++)
		if (strcmp(key, options[i].name) == 0)
			return options[i].fn(ps, key, val);
	return fail(ps, "option '%s' is not supported by iotriage (it runs only options it measures the same way)",
		    key);
}

static int parse_line(struct parse_state *ps, char *raw)
{
	char *line = trim(raw);
	if (!*line || *line == '#' || *line == ';')
		return 0;
	return *line == '[' ? begin_section(ps, line) : option_line(ps, line);
}

int fiojob_parse(const char *text, size_t len, struct fiojob_file *out, char *err, size_t errlen)
{
	struct parse_state ps = { .out = out, .err = err, .errlen = errlen };
	out->njobs = 0;
	job_defaults(&ps.global, "global");
	if (len > FIOJOB_MAX_TEXT) {
		snprintf(err, errlen, "the job file is over %u bytes", FIOJOB_MAX_TEXT);
		return -EINVAL;
	}
	size_t pos = 0;
	while (pos < len && text[pos]) {
		char line[LINE_MAX_LEN];
		size_t n = 0;
		ps.line++;
		while (pos < len && text[pos] && text[pos] != '\n') {
			if (n + 1 >= sizeof(line))
				return fail(&ps, "the line is over %d characters", LINE_MAX_LEN - 1);
			line[n++] = text[pos++];
		}
		line[n] = '\0';
		if (pos < len && text[pos] == '\n')
			pos++;
		if (parse_line(&ps, line) < 0)
			return -EINVAL;
	}
	if (!out->njobs) {
		snprintf(err, errlen, "no job section (a [name] other than [global])");
		return -EINVAL;
	}
	return 0;
}
