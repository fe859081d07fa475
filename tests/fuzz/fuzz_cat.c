/* fuzz_cat.c - libFuzzer target for the cat loader (lexer, parser, type
 * checks, includes of the shipped models).
 * SPDX-License-Identifier: MIT
 *
 * A model the loader refuses must come with an error; one it accepts with
 * none.  Run from the source tree, so that `include "ptx-common.cat"`
 * finds models/.  Build and run: scripts/fuzz-parse cat.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cat/cat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  /* the loader takes a C string: an input with a NUL ends there */
  char *text = lc_xstrndup((const char *)data, size);
  static const char *const search[] = {"models", NULL};
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  cat_model *m = cat_load_string("fuzz.cat", text, search, &d);
  if ((!m) != (d.nerrors != 0)) {
    fprintf(stderr, "fuzz_cat: %s model with %d errors\n", m ? "an accepted" : "a refused", d.nerrors);
    abort();
  }
  cat_model_free(m);
  lc_diag_fini(&d);
  free(text);
  return 0;
}
