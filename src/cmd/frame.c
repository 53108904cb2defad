/* The command frame (cmd/commands.h): parse, check, begin, main, finish. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "basic/log.h"
#include "basic/strbuf.h"
#include "cmd/commands.h"

int cmd_error(const char *command, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "iotriage %s: ", command);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 1;
}

static int check_operands(const char *name, const struct command_frame *f, int n, char **operands)
{
	if (n < f->min_operands)
		return opts_usage_error(name, "%s", f->operands_expected ? f->operands_expected : "missing operand");
	if (f->max_operands >= 0 && n > f->max_operands)
		return opts_usage_error(name, "unexpected operand '%s'", operands[f->max_operands]);
	return 0;
}

/* The run around main: its id, log and document, then its results. */
static int run_recorded(struct command_call *call)
{
	struct run_ctx rc;
	struct json doc;
	const char *run_name = call->frame->run_name ? call->frame->run_name : call->name;
	if (run_ctx_begin(&rc, run_name, call->argc, call->argv, call->g))
		return 1;
	json_init(&doc);
	run_ctx_json_head(&rc, &doc);
	call->rc = &rc;
	call->doc = &doc;
	int status = call->frame->main(call);
	if (call->discard_run)
		log_close();
	else
		status = run_ctx_finish(&rc, &doc, status, call->store_fn, call->store_arg);
	if (call->release_fn)
		call->release_fn(call->release_arg);
	json_release(&doc);
	call->rc = NULL;
	call->doc = NULL;
	return status;
}

int command_frame_execute(const char *name, const struct command_frame *f, int argc, char **argv,
			  struct global_opts *g)
{
	void *settings = xcalloc(1, f->settings_size ? f->settings_size : 1);
	int status;
	int first = opts_parse_settings(f->doc, argc, argv, g, f->handle, settings);
	if (first < 0) {
		status = opts_command_status(first);
		goto free_settings;
	}
	struct command_call call = {
		.name = name, .frame = f, .g = g, .settings = settings,
		.operands = argv + first, .noperands = argc - first,
		.argv = argv, .argc = argc,
	};
	status = check_operands(name, f, call.noperands, call.operands);
	if (status == 0 && (f->flags & CMD_NEEDS_ROOT) && geteuid() != 0)
		status = cmd_error(name, "needs root (raw devices, loop devices, cgroups)");
	if (status == 0 && f->check)
		status = f->check(&call);
	bool ran = status == 0 || call.answered;
	if (status == 0 && !call.answered)
		status = f->flags & CMD_RECORDS_RUN ? run_recorded(&call) : f->main(&call);
	if (ran && f->release)
		f->release(&call);
free_settings:
	free(settings);
	return status;
}

int command_execute(const struct command *cmd, int argc, char **argv, struct global_opts *g)
{
	if (cmd->frame)
		return command_frame_execute(cmd->name, cmd->frame, argc, argv, g);
	return cmd->run(argc, argv, g);
}
