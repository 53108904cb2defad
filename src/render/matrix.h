/* render/matrix.h: matrix's comparison on the terminal. */
#ifndef IOTRIAGE_RENDER_MATRIX_H
#define IOTRIAGE_RENDER_MATRIX_H

#include "triage/matrix/matrix.h"

/* One row per test, one column per target (its rate, or its status), the
 * best marked; then the hint to draw it. To stdout. */
void matrix_print_table(const struct matrix *m);

#endif
