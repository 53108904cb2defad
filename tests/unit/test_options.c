/* Option tables drive getopt and --help; global options work anywhere. */
#include <stdio.h>
#include <string.h>

#include "cmd/options.h"
#include "tap.h"

enum { OPT_A = OPT_COMMAND_BASE, OPT_B };
static const struct opt_def defs[] = {
	{ "alpha", 'a', "N", "an option with a value", OPT_A },
	{ "beta", 0, NULL, "a flag", OPT_B },
	OPT_END,
};

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
	return tap_done();
}
