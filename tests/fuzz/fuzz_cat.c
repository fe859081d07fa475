/* fuzz_cat.c - libFuzzer target for the cat loader (lexer, parser, type
 * checks, includes of the shipped models), then the evaluation of a model
 * it accepts over five events, each builtin a relation or set made from
 * its name (cat_rel_eval: closures, let rec, negated checks, ...).
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
#include "cat/cat_rel.h"
#include "base/rel.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { NEV = 5 };

/* A builtin over NEV events: the bits of a hash of its name. */
static void *builtin(void *u, const char *name, cat_type *type) {
  (void)u;
  uint64_t h = 1469598103934665603u;
  for (const char *p = name; *p; p++) h = (h ^ (uint8_t)*p) * 1099511628211u;
  if (*type == CAT_TY_SET) {
    rel_set *s = rel_set_new(NEV);
    for (size_t i = 0; i < NEV; i++)
      if (h >> i & 1) rel_set_add(s, i);
    return s;
  }
  rel_rel *r = rel_new(NEV);
  for (size_t a = 0; a < NEV; a++)
    for (size_t b = 0; b < NEV; b++)
      if (h >> (a * NEV + b) & 1) rel_add(r, a, b);
  return r;
}

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
  if (m) {
    cat_rel_result r;
    lc_diag e;
    lc_diag_init(&e, NULL, NULL);
    if (cat_rel_eval(m, NEV, builtin, NULL, &r, &e) == 0) cat_rel_result_fini(&r);
    else if (e.nerrors == 0) {
      fprintf(stderr, "fuzz_cat: the evaluation failed without an error\n");
      abort();
    }
    lc_diag_fini(&e);
  }
  cat_model_free(m);
  lc_diag_fini(&d);
  free(text);
  return 0;
}
