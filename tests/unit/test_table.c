/* test_table: output/table.c, rendered into a memory FILE and compared with
 * the exact text: column widths from the widest cell (header included), two
 * spaces between columns, 'r' columns padded on the left, 'l' columns on the
 * right except the last one (no trailing blanks), empty and NULL cells. */
#include <stdbool.h>
#include <stdlib.h>

#include "output/table.h"
#include "tap.h"

/* The table as text; the caller frees it. */
static char *render(const struct table *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		abort();
	table_print(t, f);
	fclose(f);
	return buf;
}

static void test_alignment(void)
{
	struct table t;
	table_init(&t, 3, (const char *[]){ "DEVICE", "SIZE", "BW" }, "lrr");
	table_add_row(&t, (const char *[]){ "/dev/sda", "1.0 GB", "1.2 GB/s" });
	table_add_row(&t, (const char *[]){ "/dev/nvme0n1", "512 MB", "3 MB/s" });
	char *s = render(&t);
	is_str(s,
	       "DEVICE          SIZE        BW\n"
	       "/dev/sda      1.0 GB  1.2 GB/s\n"
	       "/dev/nvme0n1  512 MB    3 MB/s\n",
	       "left column padded to its widest cell, right columns padded on the left");
	free(s);
	table_release(&t);
	ok(t.cells == NULL, "release frees the cells");
	table_release(&t); /* twice is harmless */
}

static void test_header_wider_than_cells(void)
{
	struct table t;
	table_init(&t, 2, (const char *[]){ "A-LONG-HEADER", "N" }, "rl");
	table_add_row(&t, (const char *[]){ "x", "12345" });
	char *s = render(&t);
	is_str(s,
	       "A-LONG-HEADER  N\n"
	       "            x  12345\n",
	       "a header wider than its cells sets the width; a left last column has no padding");
	free(s);
	table_release(&t);
}

static void test_no_trailing_blanks(void)
{
	struct table t;
	table_init(&t, 2, (const char *[]){ "NAME", "NOTE" }, "ll");
	table_add_row(&t, (const char *[]){ "a", "" });
	table_add_row(&t, (const char *[]){ "bbbbbb", "long note here" });
	char *s = render(&t);
	is_str(s,
	       "NAME    NOTE\n"
	       "a       \n"
	       "bbbbbb  long note here\n",
	       "an empty last cell leaves only the separator; nothing pads the last left column");
	ok(!strstr(s, "here \n"), "the longest last cell is not padded");
	free(s);
	table_release(&t);
}

static void test_empty_and_null_cells(void)
{
	struct table t;
	table_init(&t, 3, (const char *[]){ "A", "B", "C" }, "lrl");
	table_add_row(&t, (const char *[]){ NULL, "", "z" });
	table_add_row(&t, (const char *[]){ "xx", "yyy", NULL });
	char *s = render(&t);
	is_str(s,
	       "A     B  C\n"
	       "         z\n"
	       "xx  yyy  \n",
	       "NULL cells print as empty cells, padded like any other");
	free(s);
	table_release(&t);
}

static void test_header_only(void)
{
	struct table t;
	table_init(&t, 2, (const char *[]){ "K", "V" }, "lr");
	char *s = render(&t);
	is_str(s, "K  V\n", "a table without rows prints its header");
	is_int(t.nrows, 0, "no rows counted");
	free(s);
	table_release(&t);
}

static void test_right_last_column_padded(void)
{
	struct table t;
	table_init(&t, 2, (const char *[]){ "X", "VALUE" }, "lr");
	table_add_row(&t, (const char *[]){ "a", "1" });
	char *s = render(&t);
	is_str(s,
	       "X  VALUE\n"
	       "a      1\n",
	       "a right-aligned last column is padded on the left to line up");
	free(s);
	table_release(&t);
}

static void test_cells_are_copied(void)
{
	char cell[8] = "orig";
	struct table t;
	table_init(&t, 1, (const char *[]){ "H" }, "l");
	table_add_row(&t, (const char *[]){ cell });
	memcpy(cell, "XXXX", 5);
	char *s = render(&t);
	is_str(s, "H\norig\n", "cells are copied when added, not referenced");
	free(s);
	table_release(&t);
}

static void test_long_cell_and_many_rows(void)
{
	char longcell[301];
	memset(longcell, 'w', 300);
	longcell[300] = '\0';
	struct table t;
	table_init(&t, 2, (const char *[]){ "I", "R" }, "rl");
	for (int i = 0; i < 100; i++) {
		char num[8];
		snprintf(num, sizeof(num), "%d", i);
		table_add_row(&t, (const char *[]){ num, i == 57 ? longcell : "r" });
	}
	is_int(t.nrows, 100, "100 rows stored");
	char *s = render(&t);
	/* Every row: a 2-wide right-aligned number, two spaces, the cell. */
	size_t lines = 0;
	bool aligned = true;
	for (char *p = s; *p; lines++) {
		char *nl = strchr(p, '\n');
		if (!nl)
			break;
		if (p[2] != ' ' || p[3] != ' ' || p[4] == ' ')
			aligned = false;
		p = nl + 1;
	}
	is_int(lines, 101, "a header line and a line per row");
	ok(aligned, "the second column starts at the same place on every line");
	ok(strstr(s, "\n57  www") != NULL, "the 300-byte cell is printed whole");
	ok(strstr(s, "\n 9  r\n10  r\n") != NULL, "one-digit numbers are right-aligned under two-digit ones");
	is_int(strlen(s), 6 + 99 * 6 + (4 + 300 + 1), "total length: nothing padded after the last column");
	free(s);
	table_release(&t);
}

int main(void)
{
	test_alignment();
	test_header_wider_than_cells();
	test_no_trailing_blanks();
	test_empty_and_null_cells();
	test_header_only();
	test_right_last_column_padded();
	test_cells_are_copied();
	test_long_cell_and_many_rows();
	return tap_done();
}
