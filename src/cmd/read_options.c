/* The options the read commands share. */
#include "cmd/read_options.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "basic/parse.h"
#include "cmd/progress.h"
#include "cmd/runctx.h"
#include "engine/engine.h"
#include "triage/media/read_group.h"

static int size_error(const char *command, const char *opt, const char *arg, int r)
{
	if (r == -ERANGE)
		return opts_usage_error(command, "invalid %s '%s': too large", opt, arg);
	return opts_usage_error(command,
				"invalid %s '%s': expected a number with an optional K, M, G, T or P suffix",
				opt, arg);
}

int engine_option(const char *command, const char *arg, const char **ret)
{
	for (const char *const *c = engine_choices; *c; c++)
		if (strcmp(*c, arg) == 0) {
			*ret = *c;
			return 0;
		}
	/* The list as a choice row would say it. */
	const struct opt_def row = { .long_name = "engine",
				     .v = { .type = OPT_TYPE_CHOICE, .choices = engine_choices } };
	char expected[160];
	opts_describe_expected(&row, expected, sizeof(expected));
	return opts_usage_error(command, "unknown engine '%s': expected %s", arg, expected);
}

/* The read tests' --bs: a multiple of 512 bytes (every logical sector
 * size divides it) from 512 to 64M. */
static int readtest_bs_option(const char *command, const char *arg, uint32_t *ret)
{
	uint64_t v;
	int r = parse_size(arg, &v);
	if (r < 0)
		return size_error(command, "--bs", arg, r);
	if (v < 512 || v % 512 || v > (64U << 20))
		return opts_usage_error(command,
					"invalid --bs '%s': direct I/O needs a multiple of 512 bytes, from 512 to 64M",
					arg);
	*ret = (uint32_t)v;
	return 0;
}

int read_settings_option(const char *command, int id, const char *arg, struct read_settings *rs)
{
	struct readtest_opts *opts = &rs->batch.opts;
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
		rs->bs_stored++;
		return readtest_bs_option(command, arg, &opts->bs);
	case OPT_RT_ENGINE:
		return engine_option(command, arg, &opts->engine);
	case OPT_GROUP_BY:
		if (read_group_parse(arg, &rs->batch.group_by) < 0)
			return opts_usage_error(command, "invalid --group-by '%s': expected vdev, controller, "
							 "enclosure or none", arg);
		return 0;
	}
	return 1;
}

void read_settings_apply(struct read_settings *rs, bool json, const char *command)
{
	rs->batch.regression_pct = rs->regression_pct;
	rs->batch.remote.schema_version = run_ctx_schema_version();
	rs->batch.progress = cmd_progress_attach(&rs->live, json, command);
}
