#include "output/table.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "basic/strbuf.h"


/* Stores one row after those already stored (the header is row 0). */
static void append_row(struct table *t, const char *const *cells)
{
	size_t stored = t->cells ? t->nrows + 1 : 0;
	char **grown = xreallocarray(t->cells, (stored + 1) * t->ncols, sizeof(*grown));
	t->cells = grown;
	for (size_t c = 0; c < t->ncols; c++)
		t->cells[stored * t->ncols + c] = xstrdup(cells[c] ? cells[c] : "");
}

void table_init(struct table *t, size_t ncols, const char *const *headers, const char *align)
{
	memset(t, 0, sizeof(*t));
	t->ncols = ncols < sizeof(t->align) ? ncols : sizeof(t->align) - 1;
	snprintf(t->align, sizeof(t->align), "%s", align);
	append_row(t, headers);
}

void table_add_row(struct table *t, const char *const *cells)
{
	append_row(t, cells);
	t->nrows++;
}

void table_print(const struct table *t, FILE *out)
{
	size_t width[16] = { 0 };
	for (size_t r = 0; r <= t->nrows; r++)
		for (size_t c = 0; c < t->ncols; c++) {
			size_t w = strlen(t->cells[r * t->ncols + c]);
			if (w > width[c])
				width[c] = w;
		}
	for (size_t r = 0; r <= t->nrows; r++) {
		for (size_t c = 0; c < t->ncols; c++) {
			const char *cell = t->cells[r * t->ncols + c];
			bool last = c + 1 == t->ncols;
			bool right = t->align[c] == 'r';
			int w = (int)width[c];
			if (right)
				fprintf(out, "%*s", w, cell);
			else if (last)
				fputs(cell, out);
			else
				fprintf(out, "%-*s", w, cell);
			if (!last)
				fputs("  ", out);
		}
		fputc('\n', out);
	}
}

void table_release(struct table *t)
{
	if (!t->cells)
		return;
	for (size_t i = 0; i < (t->nrows + 1) * t->ncols; i++)
		free(t->cells[i]);
	free(t->cells);
	t->cells = NULL;
}
