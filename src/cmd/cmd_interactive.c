/* interactive: the spec's guided chooser. It lists the pools and disks (no
 * ids to look up), asks for the test and its settings, shows the command
 * it is about to run, and runs it, in this process, through the same
 * command table as the command line. It needs a terminal; it is also what
 * runs when iotriage is started on a terminal with no command. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "basic/humanize.h"
#include "basic/interrupt.h"
#include "basic/parse.h"
#include "cmd/bench_target.h"
#include "cmd/commands.h"
#include "disk/enumerate.h"

#define MAX_ATTEMPTS 5

enum need { NEED_NOTHING, NEED_DISK, NEED_POOL };

struct test_choice {
	const char *command;
	const char *what;
	enum need need;
	const char *size_option;   /* the size option to ask for, NULL when none */
	const char *size_prompt;
	const char *size_default;
	const char *const *extra;  /* fixed extra arguments */
};

static const char *const quick_extra[] = { "--quick", NULL };

static const struct test_choice tests[] = {
	{ "readdisk", "read one disk (O_DIRECT, sequential)", NEED_DISK, "--size", "Size to read", "1000M", NULL },
	{ "readdisks", "read every disk and compare them", NEED_NOTHING, "--size", "Size to read from each disk", "1000M", NULL },
	{ "readpooldisks", "read one pool's members, by device group", NEED_POOL, "--size", "Size to read from each member",
	  "1000M", NULL },
	{ "benchpool", "benchmark a pool through its file system", NEED_POOL, NULL, NULL, NULL, NULL },
	{ "rwpool", "write a file into a pool and read it back", NEED_POOL, "--size", "Size to write", "1G", NULL },
	{ "netcheck", "rule out the network", NEED_NOTHING, NULL, NULL, NULL, NULL },
	{ "doctor", "the whole method on a pool, with a verdict (quick)", NEED_POOL, NULL, NULL, NULL, quick_extra },
};
#define NTESTS (sizeof(tests) / sizeof(tests[0]))

/* One line from the user, without its newline. Returns false at the end of
 * input or on an interrupt. */
static bool ask(const char *prompt, const char *fallback, char *buf, size_t len)
{
	if (fallback)
		printf("%s [%s]: ", prompt, fallback);
	else
		printf("%s: ", prompt);
	fflush(stdout);
	if (!fgets(buf, (int)len, stdin) || interrupt_requested())
		return false;
	buf[strcspn(buf, "\r\n")] = '\0';
	if (!buf[0] && fallback)
		snprintf(buf, len, "%s", fallback);
	return true;
}

/* A number from 1 to MAX. Returns it, or 0 when the user gave up. */
static size_t ask_number(const char *prompt, size_t max)
{
	char line[64], text[128];
	snprintf(text, sizeof(text), "%s (1-%zu)", prompt, max);
	for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
		if (!ask(text, NULL, line, sizeof(line)))
			return 0;
		uint64_t v;
		if (parse_uint(line, 1, max, &v) == 0)
			return (size_t)v;
		printf("  '%s' is not a number from 1 to %zu\n", line, max);
	}
	return 0;
}

int cmd_interactive(int argc, char **argv, struct global_opts *g)
{
	static const struct opt_def no_opts[] = { OPT_END };
	static const struct command_doc doc = {
		"interactive", "interactive",
		"Lists the pools and disks, asks which test to run and its settings, shows the\n"
		"command line it stands for, and runs it. Needs a terminal.",
		no_opts,
	};
	int first = opts_parse_command(&doc, argc, argv, g, NULL, NULL);
	if (first < 0)
		return opts_command_status(first);
	if (first < argc)
		return opts_usage_error("interactive", "unexpected operand '%s'", argv[first]);
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fprintf(stderr, "Interactive mode requires a terminal; specify an operation instead\n");
		return 2;
	}

	struct disk_list disks = { 0 };
	disk_enumerate("/sys", "/dev", &disks);
	struct bench_target *pools = NULL;
	size_t npools = bench_target_list_all(&pools);
	size_t ndisks = 0;
	printf("iotriage interactive: choose a test and what to run it on.\n\nPools:\n");
	if (npools == 0)
		printf("  (none: no ZFS pool and no mounted btrfs file system)\n");
	for (size_t i = 0; i < npools; i++)
		printf("  %2zu) %-24s %-6s %s\n", i + 1, pools[i].pool, pools[i].fstype, pools[i].mountpoint);
	printf("\nDisks:\n");
	struct disk_info **usable = calloc(disks.count ? disks.count : 1, sizeof(*usable));
	if (!usable)
		abort();
	for (size_t i = 0; i < disks.count; i++) {
		const struct disk_info *d = &disks.disks[i];
		if (d->skip_reason)
			continue;
		usable[ndisks++] = &disks.disks[i];
		char size[32];
		human_size_exact(d->size_bytes, size, sizeof(size));
		printf("  %2zu) %-14s %10s  %-8s %s%s%s\n", ndisks, d->dev_path, size, d->transport[0] ? d->transport : "?",
		       d->model, d->model[0] && d->serial[0] ? " " : "", d->serial);
	}
	printf("\nTests:\n");
	for (size_t i = 0; i < NTESTS; i++)
		printf("  %2zu) %-14s %s\n", i + 1, tests[i].command, tests[i].what);
	putchar('\n');

	int status = 1;
	const char *args[16];
	size_t n = 0;
	char size[64], line[16];
	size_t t = ask_number("Test", NTESTS);
	const struct test_choice *choice = t ? &tests[t - 1] : NULL;
	if (!choice)
		printf("Nothing run.\n");
	if (choice) {
		args[n++] = choice->command;
		size_t pick = 1;
		if (choice->need == NEED_DISK) {
			pick = ndisks ? ask_number("Disk", ndisks) : 0;
			if (!ndisks)
				printf("There is no disk to read.\n");
			if (pick)
				args[n++] = usable[pick - 1]->dev_path;
		} else if (choice->need == NEED_POOL) {
			pick = npools ? ask_number("Pool", npools) : 0;
			if (!npools)
				printf("There is no pool here to run %s on.\n", choice->command);
			if (pick)
				args[n++] = pools[pick - 1].pool;
		}
		if (pick && choice->size_option) {
			uint64_t v = 0;
			for (int attempt = 0; attempt < MAX_ATTEMPTS && v == 0; attempt++) {
				if (!ask(choice->size_prompt, choice->size_default, size, sizeof(size)))
					break;
				if (parse_size(size, &v) < 0 || v == 0) {
					printf("  '%s' is not a size (e.g. 64M, 1G)\n", size);
					v = 0;
				}
			}
			if (v) {
				args[n++] = choice->size_option;
				args[n++] = size;
			} else {
				pick = 0;
			}
		}
		for (size_t i = 0; pick && choice->extra && choice->extra[i]; i++)
			args[n++] = choice->extra[i];
		args[n] = NULL;
		if (!pick)
			printf("Nothing run.\n");
		if (pick) {
			printf("\nRunning: iotriage");
			for (size_t i = 0; i < n; i++)
				printf(" %s", args[i]);
			printf("\n");
			if (ask("Go ahead? (y/n)", "y", line, sizeof(line)) && (line[0] == 'y' || line[0] == 'Y')) {
				const struct command *cmd = command_find(choice->command);
				status = cmd->run((int)n, (char **)args, g);
			} else {
				printf("Not run.\n");
			}
		}
	}
	free(usable);
	free(pools);
	disk_list_free(&disks);
	return status;
}
