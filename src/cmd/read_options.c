/* The options the read commands share. */
#include "cmd/read_options.h"

#include <errno.h>
#include <string.h>

#include "basic/parse.h"
#include "bench/job.h"
#include "engine/engine.h"
#include "triage/read_group.h"

static int size_error(const char *command, const char *opt, const char *arg, int r)
{
	if (r == -ERANGE)
		return opts_usage_error(command, "invalid %s '%s': too large", opt, arg);
	return opts_usage_error(command,
				"invalid %s '%s': expected a number with an optional K, M, G, T or P suffix",
				opt, arg);
}

int readtest_parse_option(const char *command, int id, const char *arg, struct readtest_opts *opts)
{
	uint64_t v;
	int r;
	switch (id) {
	case OPT_RT_SIZE:
		r = parse_size(arg, &v);
		if (r < 0)
			return size_error(command, "--size", arg, r);
		if (v == 0)
			return opts_usage_error(command, "invalid --size '%s': must be greater than 0", arg);
		opts->size = v;
		return 0;
	case OPT_RT_BS:
		r = parse_size(arg, &v);
		if (r < 0)
			return size_error(command, "--bs", arg, r);
		if (v < 512 || v % 512 || v > (64U << 20))
			return opts_usage_error(command,
						"invalid --bs '%s': direct I/O needs a multiple of 512 bytes, "
						"from 512 to 64M",
						arg);
		opts->bs = (uint32_t)v;
		return 0;
	case OPT_RT_IODEPTH:
		r = parse_uint(arg, 1, JOB_MAX_IODEPTH, &v);
		if (r < 0)
			return opts_usage_error(command, "invalid --iodepth '%s': expected 1 to %d", arg,
						JOB_MAX_IODEPTH);
		opts->iodepth = (unsigned)v;
		return 0;
	case OPT_RT_ENGINE:
		if (strcmp(arg, "auto") != 0 && !engine_find(arg))
			return opts_usage_error(command,
						"unknown engine '%s': expected auto, psync, libaio, io_uring or null",
						arg);
		opts->engine = arg;
		return 0;
	}
	return 1;
}

int baseline_parse_option(const char *command, int id, const char *arg, struct read_batch *b)
{
	uint64_t v;
	switch (id) {
	case OPT_SAVE_BASELINE:
		b->save_baseline = true;
		return 0;
	case OPT_REGRESSION:
		if (parse_uint(arg, 1, 99, &v) < 0)
			return opts_usage_error(command, "invalid --regression '%s': expected a percentage from 1 to 99", arg);
		b->regression_pct = (double)v;
		return 0;
	}
	return 1;
}

int group_by_parse_option(const char *command, const char *arg, enum read_group_by *ret)
{
	if (read_group_parse(arg, ret) < 0)
		return opts_usage_error(command, "invalid --group-by '%s': expected vdev, controller, "
						 "enclosure or none", arg);
	return 0;
}
