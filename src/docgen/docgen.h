/* docgen/docgen.h: the manual pages and the bash completion, written from the
 * command table (cmd/commands.h) and each command's option rows
 * (cmd/options.h): usage, summary, options with their argument, help,
 * default and choices. The iotriage-docgen build tool (src/docgen/main.c); a layer of its own
 * above cmd/, since it reads the command table. */
#ifndef IOTRIAGE_DOCGEN_DOCGEN_H
#define IOTRIAGE_DOCGEN_DOCGEN_H

#include "cmd/options.h"

/* Calls FN for every command doc of the table, in order: a framed
 * command's doc, or each of a dispatching command's docs. */
typedef void (*docgen_doc_fn)(const char *command, const struct command_doc *doc, void *arg);
void docgen_each_doc(docgen_doc_fn fn, void *arg);

/* A command page's DETAILS: the behaviour beyond --help's text, for the
 * pages named (a doc's name: "readdisks", "ramdisk wire"); paragraphs split
 * by a blank line. The main page's own sections, the same way
 * (docgen/details.c). Both tables end with a NULL text. */
struct docgen_details {
	const char *pages[4];
	const char *text;
};
struct docgen_section {
	const char *heading;
	const char *text;
};
const struct docgen_details *docgen_details_table(void);
const struct docgen_section *docgen_main_sections(void);

/* Writes iotriage.1 and one iotriage-NAME.1 per command doc ("ramdisk
 * create" -> iotriage-ramdisk-create.1) into DIR. Returns 0 or -errno;
 * -ENOENT when a details entry names a page no command has. */
int docgen_man(const char *dir);

/* Writes the bash completion script to PATH. Returns 0 or -errno. */
int docgen_bash(const char *path);

#endif
