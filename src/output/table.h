/* output/table.h: aligned text tables for the terminal.
 *
 *   struct table t; table_init(&t, 3, (const char *[]){"DEVICE", "SIZE", "BW"}, "lrr");
 *   table_add_row(&t, (const char *[]){"/dev/sda", "1.0 GB", "1.2 GB/s"});
 *   table_print(&t, stdout); table_release(&t);
 *
 * ALIGN has one letter per column: 'l' left, 'r' right. Cells are copied.
 */
#ifndef IOTRIAGE_OUTPUT_TABLE_H
#define IOTRIAGE_OUTPUT_TABLE_H

#include <stddef.h>
#include <stdio.h>

struct table {
	size_t ncols, nrows;
	char **cells;        /* (nrows + 1) * ncols, the header first */
	char align[16];
};

void table_init(struct table *t, size_t ncols, const char *const *headers, const char *align);
void table_add_row(struct table *t, const char *const *cells);
void table_print(const struct table *t, FILE *out);
void table_release(struct table *t);

#endif
