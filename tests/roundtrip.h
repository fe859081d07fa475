/* roundtrip.h - the printer's promise, checked: a test prints, the print
 * parses back to an equal test (lt_test_equal), and printing that gives
 * the same text.  Shared by tests/lt-roundtrip.c, the unit tests and the
 * fuzz target.
 * SPDX-License-Identifier: MIT
 */
#ifndef ROUNDTRIP_H
#define ROUNDTRIP_H

#include <stdlib.h>
#include <string.h>

#include "lc.h"
#include "litmus/ast.h"

static inline char *rt_print(const lt_test *t) {
  lc_buf b;
  lc_buf_init(&b);
  lt_print(&b, t);
  char *s = lc_buf_take(&b);
  lc_buf_fini(&b);
  return s;
}

/* NULL when t round-trips; otherwise what went wrong, with the print
 * (the caller frees it). */
static inline char *rt_check(const lt_test *t) {
  char *first = rt_print(t), *second = NULL;
  lc_source src;
  lc_diag d;
  lc_buf why;
  lc_buf_init(&why);
  lc_source_from_string(&src, "<printed>", first, strlen(first));
  lc_diag_init(&d, &src, NULL);
  lt_test *again = lt_parse(&src, &d);
  if (!again)
    lc_buf_printf(&why, "the print does not parse: %s\n", lc_diag_first_error(&d));
  else if (!lt_test_equal(t, again))
    lc_buf_puts(&why, "the print parses to a different test\n");
  else if (strcmp(first, second = rt_print(again)) != 0)
    lc_buf_printf(&why, "printing is not idempotent; the second print:\n%s", second);
  if (why.n) lc_buf_printf(&why, "--- the print:\n%s", first);
  lt_test_free(again);
  lc_diag_fini(&d);
  lc_source_fini(&src);
  free(first);
  free(second);
  char *s = why.n ? lc_buf_take(&why) : NULL;
  lc_buf_fini(&why);
  return s;
}

#endif
