/* compare_out.h - litmus-compare's table as CSV, the rates of weak
 * outcomes per hardware column, and SVG plots.
 * SPDX-License-Identifier: MIT
 */
#ifndef COMPARE_OUT_H
#define COMPARE_OUT_H

#include "report/compare.h"

/* test,outcome,forbidden_seen, then one field per column: the count
 * (hardware) or allowed/forbidden (model), empty when absent. */
void cmp_print_csv(lc_buf *out, const cmp_table *t, bool only_differences);

/* Per test and hardware column: instances, weak ones (satisfying the
 * condition), seconds run. */
typedef struct cmp_rate {
  char *key, *column;
  uint64_t instances, weak;
  double seconds;
} cmp_rate;
typedef LC_VEC(cmp_rate) cmp_rates;

/* Reads the hardware columns' files again for the rates. */
int cmp_rates_load(cmp_rates *r, const cmp_table *t, lc_diag *d);
void cmp_rates_free(cmp_rates *r);
/* Weak outcomes per second and per million instances (text or CSV). */
void cmp_print_rates(lc_buf *out, const cmp_rates *r, bool csv);

/* One SVG per test into dir (DIR/NAME.svg): the outcome histogram of each
 * hardware column, outcomes seen that a model forbids in red with "!". */
void cmp_svg_test(lc_buf *out, const cmp_table *t, const cmp_test *x);
int cmp_write_svgs(const cmp_table *t, const char *dir, bool only_differences, lc_diag *d);

#endif
