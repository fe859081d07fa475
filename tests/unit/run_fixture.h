/* run_fixture.h - a litmus test from a string, lowered, for the run and
 * host unit tests.
 * SPDX-License-Identifier: MIT
 */
#ifndef RUN_FIXTURE_H
#define RUN_FIXTURE_H

#include <string.h>

#include "exec/exec.h"
#include "litmus/ast.h"
#include "result.h"

typedef struct fixture {
  lc_source src;
  lt_test *test;
  lx_program *prog;
} fixture;

/* Parses and lowers text; returns 0, or -1 with the diagnostics on stderr. */
static inline int fixture_load(fixture *f, const char *name, const char *text) {
  memset(f, 0, sizeof *f);
  lc_source_from_string(&f->src, name, text, strlen(text));
  lc_diag d;
  lc_diag_init(&d, &f->src, stderr);
  f->test = lt_parse(&f->src, &d);
  if (f->test) f->prog = lx_lower(f->test, NULL, &d);
  lc_diag_fini(&d);
  return f->prog ? 0 : -1;
}

static inline void fixture_fini(fixture *f) {
  lx_program_free(f->prog);
  lt_test_free(f->test);
  lc_source_fini(&f->src);
}

/* The model's states, given as rows of nshown values. */
static inline lc_result *fixture_states(const lx_program *p, const lx_val *rows, size_t nrows) {
  lc_result *r = lc_result_new(p, "smt", "PTX v7.5");
  for (size_t i = 0; i < nrows; i++) lc_result_add_state(r, rows + i * p->nshown);
  lc_result_sort(r);
  return r;
}

static const char *const SB_TEXT =
  "PTX SB\n"
  "{ x=0; y=0; }\n"
  " P0@cta 0,gpu 0       | P1@cta 1,gpu 0       ;\n"
  " st.relaxed.gpu x, 1  | st.relaxed.gpu y, 1  ;\n"
  " ld.relaxed.gpu r0, y | ld.relaxed.gpu r1, x ;\n"
  "exists (P0:r0 == 0 /\\ P1:r1 == 0)\n";

static const char *const MP_TEXT =
  "PTX MP\n"
  "{ x=0; y=0; }\n"
  " P0@cta 0,gpu 0      | P1@cta 1,gpu 0       ;\n"
  " st.weak x, 1        | ld.acquire.gpu r0, y ;\n"
  " st.release.gpu y, 1 | ld.weak r1, x        ;\n"
  "~exists (P1:r0 == 1 /\\ P1:r1 == 0)\n";

#endif
