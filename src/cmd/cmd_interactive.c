/* interactive: the guided chooser. It lists the pools and disks (no
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
#include "pool/target.h"
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

/* What there is to choose from: pools, usable disks, tests. */
struct choices {
	struct disk_list disks;
	struct disk_info **usable;
	size_t ndisks;
	struct pool_target *pools;
	size_t npools;
};

static void list_choices(struct choices *c)
{
	disk_enumerate("/sys", "/dev", &c->disks);
	c->npools = pool_target_list_all(&c->pools);
	printf("iotriage interactive: choose a test and what to run it on.\n\nPools:\n");
	if (c->npools == 0)
		printf("  (none: no ZFS pool and no mounted btrfs file system)\n");
	for (size_t i = 0; i < c->npools; i++)
		printf("  %2zu) %-24s %-6s %s\n", i + 1, c->pools[i].pool, c->pools[i].kind->fstype, c->pools[i].mountpoint);
	printf("\nDisks:\n");
	c->usable = calloc(c->disks.count ? c->disks.count : 1, sizeof(*c->usable));
	if (!c->usable)
		abort();
	for (size_t i = 0; i < c->disks.count; i++) {
		const struct disk_info *d = &c->disks.disks[i];
		if (d->skip_reason)
			continue;
		c->usable[c->ndisks++] = &c->disks.disks[i];
		char size[32];
		human_size_exact(d->size_bytes, size, sizeof(size));
		printf("  %2zu) %-14s %10s  %-8s %s%s%s\n", c->ndisks, d->dev_path, size, d->transport[0] ? d->transport : "?",
		       d->model, d->model[0] && d->serial[0] ? " " : "", d->serial);
	}
	printf("\nTests:\n");
	for (size_t i = 0; i < NTESTS; i++)
		printf("  %2zu) %-14s %s\n", i + 1, tests[i].command, tests[i].what);
	putchar('\n');
}

/* The disk or pool CHOICE runs on, appended to ARGS. Returns false when
 * there is none or the user gave up. */
static bool ask_target(const struct test_choice *choice, const struct choices *c, const char **args, size_t *n)
{
	size_t pick = 1;
	if (choice->need == NEED_DISK) {
		pick = c->ndisks ? ask_number("Disk", c->ndisks) : 0;
		if (!c->ndisks)
			printf("There is no disk to read.\n");
		if (pick)
			args[(*n)++] = c->usable[pick - 1]->dev_path;
	} else if (choice->need == NEED_POOL) {
		pick = c->npools ? ask_number("Pool", c->npools) : 0;
		if (!c->npools)
			printf("There is no pool here to run %s on.\n", choice->command);
		if (pick)
			args[(*n)++] = c->pools[pick - 1].pool;
	}
	return pick != 0;
}

/* CHOICE's size option, asked for (into SIZE) and appended to ARGS.
 * Returns false when the user gave up. */
static bool ask_size(const struct test_choice *choice, char *size, size_t len, const char **args, size_t *n)
{
	uint64_t v = 0;
	for (int attempt = 0; attempt < MAX_ATTEMPTS && v == 0; attempt++) {
		if (!ask(choice->size_prompt, choice->size_default, size, len))
			break;
		if (parse_size(size, &v) < 0 || v == 0) {
			printf("  '%s' is not a size (e.g. 64M, 1G)\n", size);
			v = 0;
		}
	}
	if (!v)
		return false;
	args[(*n)++] = choice->size_option;
	args[(*n)++] = size;
	return true;
}

/* The command line ARGS stands for, shown, confirmed and run. */
static int confirm_and_run(const struct test_choice *choice, const char **args, size_t n, struct global_opts *g)
{
	char line[16];
	printf("\nRunning: iotriage");
	for (size_t i = 0; i < n; i++)
		printf(" %s", args[i]);
	printf("\n");
	if (ask("Go ahead? (y/n)", "y", line, sizeof(line)) && (line[0] == 'y' || line[0] == 'Y')) {
		const struct command *cmd = command_find(choice->command);
		return command_execute(cmd, (int)n, (char **)args, g);
	}
	printf("Not run.\n");
	return 1;
}

/* Asks, and runs the chosen command line with this run's global options. */
static int interactive_main(struct command_call *call)
{
	struct global_opts *g = call->g;
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fprintf(stderr, "Interactive mode requires a terminal; specify an operation instead\n");
		return 2;
	}

	struct choices c = { .ndisks = 0 };
	list_choices(&c);
	int status = 1;
	const char *args[16];
	size_t n = 0;
	char size[64];
	size_t t = ask_number("Test", NTESTS);
	const struct test_choice *choice = t ? &tests[t - 1] : NULL;
	if (choice) {
		args[n++] = choice->command;
		bool ok = ask_target(choice, &c, args, &n);
		if (ok && choice->size_option)
			ok = ask_size(choice, size, sizeof(size), args, &n);
		for (size_t i = 0; ok && choice->extra && choice->extra[i]; i++)
			args[n++] = choice->extra[i];
		args[n] = NULL;
		if (ok)
			status = confirm_and_run(choice, args, n, g);
		else
			printf("Nothing run.\n");
	} else {
		printf("Nothing run.\n");
	}
	free(c.usable);
	free(c.pools);
	disk_list_free(&c.disks);
	return status;
}

static const struct opt_def no_opts[] = { OPT_END };

static const struct command_doc interactive_doc = {
	"interactive", "interactive",
	"Lists the pools and disks, asks which test to run and its settings, shows the\n"
	"command line it stands for, and runs it. Needs a terminal.",
	no_opts,
};

/* Records no run of its own: the command it runs does. */
const struct command_frame interactive_frame = {
	.doc = &interactive_doc,
	.min_operands = 0,
	.max_operands = 0,
	.main = interactive_main,
};
