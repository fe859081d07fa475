/* diff.h - where two models part: the final states of one test that one
 * model allows and the other forbids, each with the checks of the
 * forbidding model that rule it out (litmus-check --diff-models,
 * docs/diff-models.md).
 * SPDX-License-Identifier: MIT
 *
 * The test is lowered once; each model checks the same events, so their
 * states are vectors over the same observables and compare value by
 * value.  A state one model forbids is explained under it (explain.h):
 * every minimal set of its named checks that rules the state out.
 */
#ifndef LC_DIFF_H
#define LC_DIFF_H

#include "cat/cat.h"
#include "check.h"

typedef enum {
  LC_DIFF_SAME,      /* both models allow exactly the same states */
  LC_DIFF_DIFFER,    /* some state one allows the other forbids */
  LC_DIFF_UNKNOWN    /* a model gave no answer (message says why) */
} lc_diff_kind;

/* A state one model allows and the other forbids. */
typedef struct lc_diff_state {
  char *state;              /* "P1:r0=1; P1:r1=0;" */
  int allowed_by;           /* 0: the first model, 1: the second */
  char *why;                /* the forbidding model's minimal sets of checks:
                               "Causality", "Coherence + FenceSC or SC-per-Location";
                               NULL when not asked or not found (message) */
  char *message;            /* why the explanation failed, or NULL */
} lc_diff_state;

typedef struct lc_diff {
  lc_diff_kind kind;
  char *message;            /* UNKNOWN: the engine's or lowering's message */
  lc_diff_state *v;         /* the states in the test's order of states */
  size_t n;
  size_t nstates[2];        /* states each model allows */
  double seconds;
} lc_diff;

/* Compares the states models m[0] and m[1] allow for t, lowered once
 * under o (o->termination is ignored).  With `explain`, each differing
 * state (at most max_explained; 0: all) gets the checks that forbid it.
 * Fills *out (lc_diff_fini frees it). */
void lc_diff_test(const lt_test *t, const cat_model *const m[2], const lc_check_options *o, bool explain,
                  size_t max_explained, lc_diff *out);
/* The same, calling phase(ctx) (when not NULL) as each part with a
 * deadline of its own begins: the lowering and both models' checks (one
 * o->timeout together), then each explanation (one each); a process that
 * runs the test apart resets its deadline there. */
void lc_diff_test_phases(const lt_test *t, const cat_model *const m[2], const lc_check_options *o, bool explain,
                         size_t max_explained, void (*phase)(void *ctx), void *ctx, lc_diff *out);
void lc_diff_fini(lc_diff *d);

#endif
