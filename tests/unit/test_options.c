/* Option tables drive getopt and --help; global options work anywhere. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cmd/options.h"
#include "tap.h"

enum { OPT_A = OPT_COMMAND_BASE, OPT_B };
static const struct opt_def defs[] = {
	{ "alpha", 'a', "N", "an option with a value", OPT_A, { 0 } },
	{ "beta", 0, NULL, "a flag", OPT_B, { 0 } },
	OPT_END,
};

/* Typed rows: parsed and stored by the table itself. */
struct typed_settings {
	unsigned depth;
	uint64_t size;
	uint64_t runtime_ns;
	const char *mode;
	bool direct;
	bool verbose;
	const char *label;
	bool size_given;
	int handled;
};
enum { OPT_DEPTH = OPT_COMMAND_BASE + 10, OPT_SIZE, OPT_RUNTIME, OPT_MODE, OPT_DIRECT, OPT_VERBOSE, OPT_LABEL, OPT_OTHER };
static const char *const modes[] = { "read", "write", "randread", NULL };
static const struct opt_def typed[] = {
	{ "iodepth", 'q', "N", "I/O in flight", OPT_DEPTH, OPT_V_UINT(struct typed_settings, depth, 1, 32, "1") },
	{ "size", 's', "SIZE", "bytes to move", OPT_SIZE,
	  { .type = OPT_TYPE_SIZE, .offset = offsetof(struct typed_settings, size), .min = 4096, .def = "1G",
	    .given_offset = OPT_GIVEN(struct typed_settings, size_given) } },
	{ "runtime", 0, "TIME", "time cap", OPT_RUNTIME, OPT_V_DURATION(struct typed_settings, runtime_ns, 1, 0, "30s") },
	{ "rw", 0, "MODE", "the workload", OPT_MODE, OPT_V_CHOICE(struct typed_settings, mode, modes, "read") },
	{ "direct", 0, "0|1", "O_DIRECT", OPT_DIRECT, OPT_V_BOOL01(struct typed_settings, direct, "1") },
	{ "verbose", 'v', NULL, "say more", OPT_VERBOSE, OPT_V_FLAG(struct typed_settings, verbose) },
	{ "label", 0, "TEXT", "a label", OPT_LABEL, OPT_V_STRING(struct typed_settings, label) },
	{ "other", 0, "X", "left to the handler", OPT_OTHER, { 0 } },
	OPT_END,
};
static const struct command_doc typed_doc = { "typed", "typed [options]", "Tests typed rows.", typed };

static int typed_handler(int id, const char *arg, void *state)
{
	struct typed_settings *t = state;
	(void)arg;
	if (id == OPT_OTHER)
		t->handled++;
	return 0;
}

/* Parses ARGV with the typed table; stderr captured into ERR. */
static int parse_typed_args(int argc, char **argv, struct typed_settings *t, char *err, size_t errlen)
{
	struct global_opts g = { 0 };
	FILE *saved = stderr;
	stderr = fmemopen(err, errlen, "w");
	int first = opts_parse_settings(&typed_doc, argc, argv, &g, typed_handler, t);
	fclose(stderr);
	stderr = saved;
	return first;
}

static void test_typed_rows(void)
{
	char err[512] = "";
	struct typed_settings t = { 0 };
	char *none[] = { "typed", NULL };
	ok(parse_typed_args(1, none, &t, err, sizeof(err)) == 1, "no options parse");
	ok(t.depth == 1 && t.size == (1ULL << 30) && t.runtime_ns == 30000000000ULL, "numeric defaults come from the rows");
	ok(t.mode && strcmp(t.mode, "read") == 0 && t.direct && !t.verbose && !t.label, "choice, 0|1, flag and string defaults");
	ok(!t.size_given, "a default is not 'given'");

	t = (struct typed_settings){ 0 };
	char *all[] = { "typed", "-q", "8", "--size", "64M", "--runtime", "2m", "--rw", "randread", "--direct", "0",
			"-v", "--label", "x y", "--other", "z", "OPERAND", NULL };
	int first = parse_typed_args(17, all, &t, err, sizeof(err));
	ok(first == 16, "every typed option is consumed, the operand left");
	ok(t.depth == 8 && t.size == (64ULL << 20) && t.runtime_ns == 120000000000ULL, "numbers, sizes and durations stored");
	ok(strcmp(t.mode, "randread") == 0 && !t.direct && t.verbose && strcmp(t.label, "x y") == 0, "choice, 0|1, flag, string stored");
	ok(t.size_given, "--size given is recorded");
	is_int(t.handled, 1, "a handler row goes to the handler");

	char *deep[] = { "typed", "--iodepth", "33", NULL };
	memset(err, 0, sizeof(err));
	is_int(parse_typed_args(3, deep, &t, err, sizeof(err)), OPTS_USAGE_ERROR, "out of range is a usage error");
	ok(strstr(err, "invalid --iodepth '33': expected 1 to 32") != NULL, "its message names the range from the row");
	char *small[] = { "typed", "--size", "1K", NULL };
	memset(err, 0, sizeof(err));
	is_int(parse_typed_args(3, small, &t, err, sizeof(err)), OPTS_USAGE_ERROR, "a size under the minimum is refused");
	char *mode[] = { "typed", "--rw", "trim", NULL };
	memset(err, 0, sizeof(err));
	is_int(parse_typed_args(3, mode, &t, err, sizeof(err)), OPTS_USAGE_ERROR, "an unknown choice is refused");
	ok(strstr(err, "unknown --rw 'trim': expected read, write or randread") != NULL, "listing the choices from the row");
	char *dir[] = { "typed", "--direct", "yes", NULL };
	memset(err, 0, sizeof(err));
	is_int(parse_typed_args(3, dir, &t, err, sizeof(err)), OPTS_USAGE_ERROR, "0|1 takes only 0 or 1");
	ok(strstr(err, "expected 0 or 1") != NULL, "and says so");

	char buf[4096] = "";
	FILE *mem = fmemopen(buf, sizeof(buf), "w");
	opts_print_help(mem, "typed", "Tests typed rows.", NULL, typed);
	fclose(mem);
	ok(strstr(buf, "I/O in flight (default 1)") && strstr(buf, "the workload (default read)"),
	   "--help shows each default from its row");
	ok(strstr(buf, "say more (default") == NULL, "a flag shows no default");
}

/* A handler row with a default: the handler gets it first, as if given. */
struct handled_settings {
	char seen[64];
};
enum { OPT_BLOCK = OPT_COMMAND_BASE + 30 };
static const struct opt_def handled[] = {
	{ "block", 0, "SIZE", "a value with two rules", OPT_BLOCK, { .def = "1M" } },
	OPT_END,
};
static const struct command_doc handled_doc = { "handled", "handled", "Tests handler defaults.", handled };

static int handled_handler(int id, const char *arg, void *state)
{
	struct handled_settings *h = state;
	if (id == OPT_BLOCK)
		snprintf(h->seen + strlen(h->seen), sizeof(h->seen) - strlen(h->seen), "%s;", arg);
	return 0;
}

static void test_handler_defaults(void)
{
	struct handled_settings h = { "" };
	struct global_opts g = { 0 };
	char *none[] = { "handled", NULL };
	is_int(opts_parse_settings(&handled_doc, 1, none, &g, handled_handler, &h), 1, "no options parse");
	is_str(h.seen, "1M;", "a handler row's default goes to the handler");
	h = (struct handled_settings){ "" };
	char *given[] = { "handled", "--block", "4K", NULL };
	opts_parse_settings(&handled_doc, 3, given, &g, handled_handler, &h);
	is_str(h.seen, "1M;4K;", "before the value given");
}

int main(void)
{
	char *argv1[] = { "cmd", "/dev/sdb", "--alpha", "5", "--json", "--beta", "--db", "/x.db", NULL };
	struct global_opts g = { 0 };
	struct opts_parser p;
	const char *arg = NULL;
	int c, seen_a = 0, seen_b = 0;
	opts_begin(&p, "cmd", 8, argv1, defs, &g);
	while ((c = opts_next(&p, &arg)) > 0) {
		if (c == OPT_A && strcmp(arg, "5") == 0)
			seen_a++;
		if (c == OPT_B)
			seen_b++;
	}
	int first = opts_end(&p);
	is_int(c, 0, "parse ends cleanly");
	ok(seen_a == 1 && seen_b == 1, "options after an operand are parsed");
	ok(g.json, "--json after the command is a global option");
	is_str(g.db_path, "/x.db", "--db value stored");
	is_str(argv1[first], "/dev/sdb", "the operand is left after the options");

	char *argv2[] = { "cmd", "--gamma", NULL };
	g = (struct global_opts){ 0 };
	opts_begin(&p, "cmd", 2, argv2, defs, &g);
	FILE *saved = stderr;
	stderr = fopen("/dev/null", "w");
	c = opts_next(&p, &arg);
	fclose(stderr);
	stderr = saved;
	opts_end(&p);
	is_int(c, -1, "an unknown option is an error");

	char *argv3[] = { "cmd", "-a", NULL };
	opts_begin(&p, "cmd", 2, argv3, defs, &g);
	stderr = fopen("/dev/null", "w");
	c = opts_next(&p, &arg);
	fclose(stderr);
	stderr = saved;
	opts_end(&p);
	is_int(c, -1, "a missing value is an error");

	char *argv4[] = { "cmd", "-h", NULL };
	g = (struct global_opts){ 0 };
	opts_begin(&p, "cmd", 2, argv4, defs, &g);
	while ((c = opts_next(&p, &arg)) > 0)
		;
	opts_end(&p);
	ok(g.help, "-h sets help");

	char buf[4096] = "";
	FILE *mem = fmemopen(buf, sizeof(buf), "w");
	opts_print_help(mem, "cmd [options] DEV", "Does a thing.", NULL, defs);
	fclose(mem);
	ok(strstr(buf, "usage: iotriage cmd [options] DEV") != NULL, "help has the usage line");
	ok(strstr(buf, "-a, --alpha N") != NULL && strstr(buf, "an option with a value"),
	   "help lists command options from the table");
	ok(strstr(buf, "--json") != NULL && strstr(buf, "--results-dir DIR"), "help lists global options");
	test_typed_rows();
	test_handler_defaults();
	return tap_done();
}
