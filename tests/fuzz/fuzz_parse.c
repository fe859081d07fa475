/* fuzz_parse.c - libFuzzer target for the front end.
 * SPDX-License-Identifier: MIT
 *
 * Besides "no crash, no hang, no leak, no out-of-bounds read" it checks the
 * front end's promises on every input: a rejected input gets exactly one
 * error; an accepted one prints, the print parses back to an equal test,
 * and printing that gives the same text.  Build and run: scripts/fuzz-parse.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lc.h"
#include "litmus/ast.h"

static char *print(const lt_test *t) {
  lc_buf b;
  lc_buf_init(&b);
  lt_print(&b, t);
  char *s = lc_buf_take(&b);
  lc_buf_fini(&b);
  return s;
}

static void broken(const char *what, const char *text) {
  fprintf(stderr, "fuzz_parse: %s\n--- print\n%s---\n", what, text);
  abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  lc_source src, again;
  lc_diag d, d2;
  lc_source_from_string(&src, "fuzz.litmus", (const char *)data, size);
  lc_diag_init(&d, &src, NULL);
  lt_test *t = lt_parse(&src, &d);
  if (!t) {
    if (d.nerrors != 1) broken("a rejected input must give exactly one error", "");
  } else {
    if (d.nerrors != 0) broken("an accepted input reported an error", "");
    char *first = print(t);
    lc_source_from_string(&again, "printed.litmus", first, strlen(first));
    lc_diag_init(&d2, &again, NULL);
    lt_test *t2 = lt_parse(&again, &d2);
    if (!t2) broken(lc_diag_first_error(&d2), first);
    if (!lt_test_equal(t, t2)) broken("the print parses to a different test", first);
    char *second = print(t2);
    if (strcmp(first, second) != 0) broken("printing is not idempotent", first);
    free(second);
    lt_test_free(t2);
    lc_diag_fini(&d2);
    lc_source_fini(&again);
    free(first);
  }
  lt_test_free(t);
  lc_diag_fini(&d);
  lc_source_fini(&src);
  return 0;
}
