/* render/matrix.c: matrix's comparison on the terminal (see matrix.h). */
#include "render/matrix.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/humanize.h"
#include "output/table.h"

/* The comparison: one row per test, one column per target, the best marked. */
void matrix_print_table(const struct matrix *m)
{
	size_t ncols = m->ntargets + 2;
	const char **headers = calloc(ncols, sizeof(*headers));
	char align[16] = "l";
	headers[0] = "TEST";
	for (size_t i = 0; i < m->ntargets; i++) {
		headers[i + 1] = m->targets[i].label;
		if (i + 2 < sizeof(align))
			align[i + 1] = 'r';
	}
	headers[ncols - 1] = "BEST";
	if (ncols - 1 < sizeof(align) - 1)
		align[ncols - 1] = 'l';
	struct table t;
	table_init(&t, ncols, headers, align);
	char (*cells)[48] = calloc(ncols, sizeof(*cells));
	const char **row = calloc(ncols, sizeof(*row));
	for (size_t k = 0; k < m->ntests; k++) {
		size_t best = SIZE_MAX;
		snprintf(cells[0], sizeof(cells[0]), "%s", m->tests[k].name);
		for (size_t i = 0; i < m->ntargets; i++) {
			const struct mx_result *r = &m->results[i][k];
			if (strcmp(r->status, "ok") == 0) {
				human_rate(r->bw, cells[i + 1], sizeof(cells[i + 1]));
				if (best == SIZE_MAX || r->bw > m->results[best][k].bw)
					best = i;
			} else {
				snprintf(cells[i + 1], sizeof(cells[i + 1]), "%s", r->status);
			}
		}
		snprintf(cells[ncols - 1], sizeof(cells[0]), "%s", best == SIZE_MAX ? "-" : m->targets[best].label);
		for (size_t c = 0; c < ncols; c++)
			row[c] = cells[c];
		table_add_row(&t, row);
	}
	table_print(&t, stdout);
	printf("Higher is better. 'iotriage report <run id> --html FILE' draws one chart per test.\n");
	table_release(&t);
	free(cells);
	free(row);
	free(headers);
}
