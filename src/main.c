/* iotriage: storage performance triage. main() handles the options that
 * come before the command, finds the command in the table and runs it. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "basic/interrupt.h"
#include "basic/session_watch.h"
#include "cmd/commands.h"
#include "cmd/options.h"
#include "cmd/runctx.h"
#include "remote/handshake.h"

enum { OPT_VERSION = OPT_COMMAND_BASE };

static const struct opt_def main_opts[] = {
	{ "version", 'V', NULL, "print the version and exit", OPT_VERSION, { 0 } },
	OPT_END,
};

static void print_main_help(FILE *out)
{
	opts_print_help(out, "[global options] COMMAND [options] [operands]",
			"Finds which layer of a storage stack is losing the performance.", NULL, main_opts);
	fputs("\ncommands, in the method's order:\n", out);
	for (const struct command *c = commands; c->name; c++) {
		if (c == commands || strcmp(c->group, c[-1].group) != 0)
			fprintf(out, "\n %s\n", c->group);
		fprintf(out, "  %-12s %s\n", c->name, c->summary);
	}
	fputs("\nRun 'iotriage COMMAND --help' for a command's options.\n", out);
}

/* JSON is usually piped: a full disk or closed pipe must not pass silently. */
static int close_stdout(int status)
{
	if (fflush(stdout) != 0 || ferror(stdout) || fclose(stdout) != 0) {
		if (errno != EPIPE)
			fprintf(stderr, "iotriage: error writing to standard output: %s\n", strerror(errno));
		return status ? status : 1;
	}
	return status;
}

/* --version; with --json the fleet's handshake (remote/handshake.h). */
static int print_version(const struct global_opts *g)
{
	if (!g->json) {
		printf("iotriage %s\n", IOTRIAGE_VERSION);
		return close_stdout(0);
	}
	struct host_identity id;
	struct json j;
	handshake_local(&id, run_ctx_schema_version());
	json_init(&j);
	handshake_write(&j, &id);
	fputs(j.out.buf, stdout);
	json_release(&j);
	return close_stdout(0);
}

int main(int argc, char **argv)
{
	struct global_opts g = { 0 };
	struct opts_parser p;
	const char *arg;
	bool version = false;
	int c;

	interrupt_install();
	/* Hidden: a run started by `iotriage fleet` over ssh (basic/session_watch.h). */
	if (argc > 1 && strcmp(argv[1], "--fleet-session") == 0 && session_watch_start() == 0) {
		argv[1] = argv[0];
		argv++;
		argc--;
	}
	opts_begin(&p, NULL, argc, argv, main_opts, &g);
	while ((c = opts_next(&p, &arg)) > 0)
		if (c == OPT_VERSION)
			version = true;
	int first = opts_end(&p);
	if (c < 0)
		return 2;
	if (version)
		return print_version(&g);
	if (g.help) {
		print_main_help(stdout);
		return close_stdout(0);
	}
	if (first >= argc) {
		/* On a terminal, no command means the guided chooser (the chooser a new user expects). */
		if (isatty(STDIN_FILENO) && isatty(STDOUT_FILENO)) {
			char *interactive_argv[] = { (char *)"interactive", NULL };
			return close_stdout(command_frame_execute("interactive", &interactive_frame, 1, interactive_argv, &g));
		}
		print_main_help(stderr);
		return 2;
	}
	const struct command *cmd = command_find(argv[first]);
	if (!cmd) {
		fprintf(stderr, "iotriage: '%s' is not an iotriage command. See 'iotriage --help'.\n",
			argv[first]);
		return 2;
	}
	int status = command_execute(cmd, argc - first, argv + first, &g);
	return close_stdout(status);
}
