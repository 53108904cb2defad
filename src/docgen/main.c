/* iotriage-docgen: the manual pages and the bash completion, made at build
 * time from the command and option tables that drive parsing and --help
 * (docgen/docgen.h), so the three never disagree.
 *
 *   iotriage-docgen man DIR     iotriage.1 and iotriage-COMMAND.1 pages
 *   iotriage-docgen bash FILE   the bash completion script
 */
#include <stdio.h>
#include <string.h>

#include "docgen/docgen.h"

int main(int argc, char **argv)
{
	if (argc != 3 || (strcmp(argv[1], "man") && strcmp(argv[1], "bash"))) {
		fputs("usage: iotriage-docgen man DIR | bash FILE\n", stderr);
		return 2;
	}
	int r = strcmp(argv[1], "man") == 0 ? docgen_man(argv[2]) : docgen_bash(argv[2]);
	if (r < 0) {
		fprintf(stderr, "iotriage-docgen: cannot write '%s': %s\n", argv[2], strerror(-r));
		return 1;
	}
	return 0;
}
