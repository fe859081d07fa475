/* cu_testlib.h - loading a litmus test from a string for the CUDA backend's
 * unit tests.
 * SPDX-License-Identifier: MIT
 */
#ifndef CU_TESTLIB_H
#define CU_TESTLIB_H

#include <string.h>

#include "cuda/cu_int.h"
#include "litmus/ast.h"

typedef struct cu_fixture {
  lc_source src;
  lc_diag d;
  lt_test *t;
  lx_program *p;
} cu_fixture;

/* Parses and lowers text as "t.litmus"; NULL when the front end rejects it. */
static inline lx_program *fx_load(cu_fixture *f, const char *text) {
  memset(f, 0, sizeof *f);
  lc_source_from_string(&f->src, "t.litmus", text, strlen(text));
  lc_diag_init(&f->d, &f->src, NULL);
  f->t = lt_parse(&f->src, &f->d);
  lx_options lo = {LX_DEFAULT_UNROLL, LX_DEFAULT_MAX_PATHS, 0, false, 0, 0};
  if (f->t) f->p = lx_lower(f->t, &lo, &f->d);
  return f->p;
}

static inline void fx_free(cu_fixture *f) {
  lx_program_free(f->p);
  lt_test_free(f->t);
  lc_diag_fini(&f->d);
  lc_source_fini(&f->src);
}

/* The text of the first error, "file:line:col: error: msg", or "". */
static inline const char *fx_error(const cu_fixture *f) {
  const char *e = lc_diag_first_error(&f->d);
  return e ? e : "";
}

#endif
