/* The bash completion (docgen/docgen.h): commands, options, option choices,
 * and live values for operands: disks from sysfs, ZFS pools and btrfs
 * labels, run ids from the results database. */
#include "docgen/docgen.h"

#include <stdbool.h>
#include <string.h>

#include "basic/fsutil.h"
#include "basic/strbuf.h"
#include "cmd/commands.h"

/* Values computed when Tab is pressed, by the shell functions below. */
static const char completion_head[] =
	"# bash completion for iotriage, generated from its command and option tables\n"
	"# (iotriage-docgen bash): do not edit.\n\n"
	"_iotriage_disks() {\n"
	"\tlocal d\n"
	"\tfor d in /sys/block/*; do [ -e \"$d/dev\" ] && echo \"/dev/${d##*/}\"; done\n"
	"}\n"
	"_iotriage_pools() {\n"
	"\tzpool list -H -o name 2>/dev/null\n"
	"\tbtrfs filesystem show 2>/dev/null | sed -n \"s/^Label: '\\([^']*\\)'.*/\\1/p\"\n"
	"}\n"
	"_iotriage_runs() {\n"
	"\t\"${COMP_WORDS[0]}\" history 2>/dev/null | sed -n 's/^\\([0-9a-f]\\{16\\}\\) .*/\\1/p'\n"
	"}\n\n";

/* Options that take a value, as a case pattern ("--size|-s|--bs|-b"). */
static void value_options(const struct opt_def *defs, struct strbuf *out)
{
	for (const struct opt_def *d = defs; d && d->long_name; d++) {
		if (!d->arg)
			continue;
		strbuf_addf(out, "%s--%s", out->len ? "|" : "", d->long_name);
		if (d->short_name)
			strbuf_addf(out, "|-%c", d->short_name);
	}
}

static void option_words(const struct opt_def *defs, struct strbuf *out)
{
	for (const struct opt_def *d = defs; d && d->long_name; d++)
		strbuf_addf(out, " --%s", d->long_name);
}

/* A case branch per option with a known set of values. */
static void choice_cases(const struct opt_def *defs, struct strbuf *out)
{
	for (const struct opt_def *d = defs; d && d->long_name; d++) {
		if (!d->v.choices && d->v.type != OPT_TYPE_BOOL01)
			continue;
		strbuf_addf(out, "\t\t--%s", d->long_name);
		if (d->short_name)
			strbuf_addf(out, "|-%c", d->short_name);
		strbuf_adds(out, ") COMPREPLY=($(compgen -W \"");
		if (d->v.type == OPT_TYPE_BOOL01)
			strbuf_adds(out, "0 1");
		for (const char *const *c = d->v.choices; c && *c; c++)
			strbuf_addf(out, "%s%s", c == d->v.choices ? "" : " ", *c);
		strbuf_adds(out, "\" -- \"$cur\")); return ;;\n");
	}
}

/* What the operands are, from the usage line. */
static const char *operand_values(const char *usage)
{
	if (strstr(usage, "DEVICE") || strstr(usage, "TARGET"))
		return "$(_iotriage_disks)";
	if (strstr(usage, "POOL"))
		return "$(_iotriage_pools)";
	if (strstr(usage, "RUN"))
		return "$(_iotriage_runs)";
	return NULL;
}

static void command_case(const char *command, const struct command_doc *doc, void *arg)
{
	struct strbuf *out = arg;
	/* "ramdisk create" is matched on both words: the command and its first operand. */
	const char *sub = strchr(doc->name, ' ');
	strbuf_addf(out, "\t\"%s\")\n\t\tcase \"$prev\" in\n", sub ? doc->name : command);
	choice_cases(doc->opts, out);
	struct strbuf values = STRBUF_INIT;
	value_options(doc->opts, &values);
	if (values.len)
		strbuf_addf(out, "\t\t%s) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n", values.buf);
	strbuf_release(&values);
	strbuf_adds(out, "\t\tesac\n\t\twords=\"");
	option_words(doc->opts, out);
	strbuf_adds(out, "\"\n");
	const char *operands = operand_values(doc->usage);
	if (operands)
		strbuf_addf(out, "\t\t[[ $cur == -* ]] || words=\"$words %s\"\n", operands);
	strbuf_adds(out, "\t\t;;\n");
}

static void subcommand_words(const char *command, const struct command_doc *doc, void *arg)
{
	struct strbuf *out = arg;
	const char *sub = strchr(doc->name, ' ');
	if (sub && strncmp(doc->name, command, strlen(command)) == 0)
		strbuf_addf(out, "\t\"%s\") words=\"$words%s\" ;;&\n", command, sub);
}

static void completion_function(struct strbuf *out)
{
	struct strbuf globals = STRBUF_INIT;
	value_options(global_opts_table, &globals);
	strbuf_addf(out, "_iotriage() {\n"
			 "\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
			 "\tlocal cmd=\"\" sub=\"\" words=\"\" i skip=0\n"
			 "\tfor ((i = 1; i < COMP_CWORD; i++)); do\n"
			 "\t\tlocal w=${COMP_WORDS[i]}\n"
			 "\t\tif ((skip)); then skip=0; continue; fi\n"
			 "\t\tcase \"$w\" in\n"
			 "\t\t%s) skip=1 ;;\n"
			 "\t\t-*) ;;\n"
			 "\t\t*) if [[ -z $cmd ]]; then cmd=$w; elif [[ -z $sub ]]; then sub=$w; fi ;;\n"
			 "\t\tesac\n"
			 "\tdone\n"
			 "\tcase \"$prev\" in\n\t%s) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n\tesac\n",
		    globals.buf, globals.buf);
	strbuf_release(&globals);
	strbuf_adds(out, "\tif [[ -z $cmd ]]; then\n\t\tCOMPREPLY=($(compgen -W \"");
	for (const struct command *c = commands; c->name; c++)
		strbuf_addf(out, "%s ", c->name);
	option_words(global_opts_table, out);
	strbuf_adds(out, "\" -- \"$cur\"))\n\t\treturn\n\tfi\n"
			 "\tif [[ -z $sub && $cur != -* ]]; then\n\t\tcase \"$cmd\" in\n");
	docgen_each_doc(subcommand_words, out);
	strbuf_adds(out, "\t\tesac\n\t\tif [[ -n $words ]]; then\n"
			 "\t\t\tCOMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n\t\t\treturn\n\t\tfi\n\tfi\n"
			 "\tlocal key=$cmd\n\t[[ -n $sub ]] && key=\"$cmd $sub\"\n\tcase \"$key\" in\n");
	docgen_each_doc(command_case, out);
	strbuf_adds(out, "\tesac\n\twords=\"$words");
	option_words(global_opts_table, out);
	strbuf_adds(out, "\"\n\tCOMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n}\n"
			 "complete -F _iotriage iotriage\n");
}

int docgen_bash(const char *path)
{
	struct strbuf out = STRBUF_INIT;
	strbuf_adds(&out, completion_head);
	completion_function(&out);
	int r = write_file_atomic(path, out.buf, out.len, 0644);
	strbuf_release(&out);
	return r;
}
