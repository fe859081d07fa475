/* enum_fixture.h - what the explicit engine's and the generators' unit
 * tests share: tests from text, models from the source tree, and the two
 * engines run side by side.
 * SPDX-License-Identifier: MIT
 */
#ifndef ENUM_FIXTURE_H
#define ENUM_FIXTURE_H

#include <stdio.h>
#include <string.h>

#include "cat/cat.h"
#include "enum/enum.h"
#include "exec/exec.h"
#include "litmus/ast.h"
#include "smt/smt.h"

#ifndef LC_SRCDIR
#define LC_SRCDIR "."
#endif

static inline cat_model *fx_model(const char *name) {
  char path[512];
  snprintf(path, sizeof path, "%s/models/%s.cat", LC_SRCDIR, name);
  lc_diag d;
  lc_diag_init(&d, NULL, stderr);
  cat_model *m = cat_load(path, NULL, &d);
  lc_diag_fini(&d);
  return m;
}

/* A parsed test with the source it points into. */
typedef struct fx_test {
  lc_source src;
  lt_test *t;
  lx_program *p;
} fx_test;

static inline bool fx_parse(fx_test *x, const char *text) {
  memset(x, 0, sizeof *x);
  lc_source_from_string(&x->src, "test.litmus", text, strlen(text));
  lc_diag d;
  lc_diag_init(&d, &x->src, stderr);
  x->t = lt_parse(&x->src, &d);
  if (x->t) x->p = lx_lower(x->t, NULL, &d);
  lc_diag_fini(&d);
  return x->p != NULL;
}

static inline void fx_free(fx_test *x) {
  lx_program_free(x->p);
  lt_test_free(x->t);
  lc_source_fini(&x->src);
}

/* Same status, states, flags raised and bound? */
static inline bool fx_same(const lc_result *a, const lc_result *b) {
  if (a->status != b->status || a->nstates != b->nstates || a->nshown != b->nshown ||
      a->nflags != b->nflags || a->bound_reached != b->bound_reached)
    return false;
  for (size_t i = 0; i < a->nstates; i++)
    if (memcmp(lc_result_state(a, i), lc_result_state(b, i), a->nshown * sizeof(lx_val)) != 0) return false;
  for (size_t f = 0; f < a->nflags; f++)
    if (a->flags[f].raised != b->flags[f].raised) return false;
  return true;
}

#endif
