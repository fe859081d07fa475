/* fuzz_engines.c - libFuzzer target for the two engines: a small litmus
 * test (PTX or C++) parsed, lowered and checked by the explicit engine and
 * by Z3, under the shipped models (ptx-v7.5, ptx-v8 for Hopper
 * instructions, cuda-cpp for C++).
 * SPDX-License-Identifier: MIT
 *
 * The other targets stop at the front ends, so UB in the engines went
 * unseen (a memset of NULL in the explicit engine, on every check).  Here
 * both engines run under ASan and UBSan, and must agree: when both answer,
 * the same allowed states and the same flags.  Tests past a small size
 * are skipped (an engine's time grows exponentially with the events), and
 * each check gets a deadline (1 s).  Run from the source tree, so that
 * the models are found.  Build and run: scripts/fuzz-parse engines.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "exec/exec.h"
#include "litmus/ast.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* At most this many events (a test's size; the engines' time grows
 * exponentially with it). */
enum { MAX_EVENTS = 24 };

static cat_model *load(const char *name) {
  static const char *const search[] = {"models", NULL};
  lc_diag d;
  lc_diag_init(&d, NULL, stderr);
  cat_model *m = cat_load(name, search, &d);
  lc_diag_fini(&d);
  if (!m) {
    fprintf(stderr, "fuzz_engines: cannot load %s (run from the source tree)\n", name);
    abort();
  }
  return m;
}

static bool same_answer(const lc_result *a, const lc_result *b) {
  if (a->nstates != b->nstates || a->nshown != b->nshown || a->nflags != b->nflags) return false;
  return a->nstates == 0 || memcmp(a->states, b->states, a->nstates * a->nshown * sizeof *a->states) == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  /* the models, loaded once: a harness's state lives as long as the process */
  static cat_model *ptx, *hopper, *cpp;
  if (!ptx) ptx = load("ptx-v7.5"), hopper = load("ptx-v8"), cpp = load("cuda-cpp");
  lc_source src;
  lc_diag d;
  lc_source_from_string(&src, "fuzz.litmus", (const char *)data, size);
  lc_diag_init(&d, &src, NULL);
  lt_test *t = lt_parse(&src, &d);
  lx_options lo = {2, 64, lc_now() + 1.0, 0, 1.0, 0};
  lx_program *p = t ? lx_lower(t, &lo, &d) : NULL;
  if (p && p->nevents <= MAX_EVENTS) {
    const cat_model *m = t->cpp ? cpp : lt_uses_hopper(t) ? hopper : ptx;
    lc_result *r[2] = {NULL, NULL};
    for (int e = 0; e < 2; e++) {
      lc_check_options o;
      lc_check_options_init(&o);
      o.engine = e ? LC_ENGINE_SMT : LC_ENGINE_ENUM;
      o.timeout = 1.0;
      r[e] = lc_check_program(p, m, &o, lc_now());
    }
    if (r[0] && r[1] && r[0]->status == LC_RESULT_OK && r[1]->status == LC_RESULT_OK &&
        !r[0]->bound_reached && !r[1]->bound_reached && !same_answer(r[0], r[1])) {
      fprintf(stderr, "fuzz_engines: the engines disagree: enum %zu states, %zu flags; smt %zu states, "
              "%zu flags\n", r[0]->nstates, r[0]->nflags, r[1]->nstates, r[1]->nflags);
      abort();
    }
    lc_result_free(r[0]);
    lc_result_free(r[1]);
  }
  lx_program_free(p);
  lt_test_free(t);
  lc_diag_fini(&d);
  lc_source_fini(&src);
  return 0;
}
