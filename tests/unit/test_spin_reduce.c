/* test_spin_reduce.c - a spin loop's read-only retries kept once
 * (exec/lower_spin.c, cat_mono.c): the states, the flagged instruction
 * pairs and the termination answer are those of every retry unrolled, on
 * loops where a retry matters (a race only a failed read has, a hang) and
 * on loops that must not be touched (one that counts its retries); the
 * models that allow it, and one that does not.
 * SPDX-License-Identifier: MIT
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>
#include <z3.h>

#include "check.h"
#include "enum_fixture.h"
#include "term.h"

/* P1's failed reads (f=0 from the initial write, or f=2) race with P0's
 * weak write; the read that exits reads the release write and is ordered
 * after it.  The race is only in executions with a retry. */
static const char *const race_in_retry =
  "PTX race-in-retry\n{ f=0; }\n"
  " P0@cta 0,gpu 0      | P1@cta 1,gpu 0       ;\n"
  " st.weak f, 2        | L0:                  ;\n"
  " st.release.gpu f, 1 | ld.acquire.gpu r0, f ;\n"
  "                     | bne r0, 1, L0        ;\n"
  "exists (P1:r0 == 1)\n";

/* P1 counts its iterations: r1 is read before it is written, so the loop
 * is not memoryless and every retry stays (r1 = 1, 2, 3 at --unroll 2). */
static const char *const counting =
  "PTX count-retries\n{ f=0; }\n"
  " P0@cta 0,gpu 0      | P1@cta 1,gpu 0       ;\n"
  " st.relaxed.gpu f, 1 | mov r1, 0            ;\n"
  "                     | L0:                  ;\n"
  "                     | add r1, r1, 1        ;\n"
  "                     | ld.relaxed.gpu r0, f ;\n"
  "                     | bne r0, 1, L0        ;\n"
  "exists (P1:r1 == 3)\n";

/* A CAS lock with relaxed atomics around a weak counter: x ends at 1 or 2,
 * and the counter's accesses race. */
static const char *const cas_lock =
  "PTX SL-cas-rlx\n{ x=0; m=0; }\n"
  " P0@cta 0,gpu 0                   | P1@cta 1,gpu 0                   ;\n"
  " L0:                              | L0:                              ;\n"
  " atom.relaxed.gpu.cas r0, m, 0, 1 | atom.relaxed.gpu.cas r0, m, 0, 1 ;\n"
  " bne r0, 0, L0                    | bne r0, 0, L0                    ;\n"
  " ld.weak r1, x                    | ld.weak r1, x                    ;\n"
  " add r2, r1, 1                    | add r2, r1, 1                    ;\n"
  " st.weak x, r2                    | st.weak x, r2                    ;\n"
  " st.relaxed.gpu m, 0              | st.relaxed.gpu m, 0              ;\n"
  "exists (x == 1)\n";

/* A semaphore of one permit taken by a load and a CAS, each able to fail:
 * the loop has two backward jumps to one head. */
static const char *const semaphore =
  "PTX Sem-1\n{ s=1; x=0; }\n"
  " P0@cta 0,gpu 0                     | P1@cta 1,gpu 0                     ;\n"
  " L0:                                | L0:                                ;\n"
  " ld.relaxed.gpu r0, s               | ld.relaxed.gpu r0, s               ;\n"
  " beq r0, 0, L0                      | beq r0, 0, L0                      ;\n"
  " sub r1, r0, 1                      | sub r1, r0, 1                      ;\n"
  " atom.acquire.gpu.cas r2, s, r0, r1 | atom.acquire.gpu.cas r2, s, r0, r1 ;\n"
  " bne r2, r0, L0                     | bne r2, r0, L0                     ;\n"
  " ld.weak r3, x                      | ld.weak r3, x                      ;\n"
  " st.weak x, 1                       | st.weak x, 2                       ;\n"
  " atom.release.gpu.add r4, s, 1      | atom.release.gpu.add r4, s, 1      ;\n"
  "exists (x == 2 /\\ P1:r3 == 1)\n";

/* P1 waits for f=1, which nobody writes: it may spin for ever. */
static const char *const spin_forever =
  "PTX spin-forever\n{ f=0; }\n"
  " P0@cta 0,gpu 0      | P1@cta 1,gpu 0       ;\n"
  " st.relaxed.gpu f, 2 | L0:                  ;\n"
  "                     | ld.relaxed.gpu r0, f ;\n"
  "                     | bne r0, 1, L0        ;\n"
  "exists (P1:r0 == 1)\n";

typedef struct run {
  lc_result *r;
  lx_program *p;
} run;

static run check(const fx_test *x, const cat_model *m, lc_engine e, bool reduce, bool term) {
  lc_check_options o;
  lc_check_options_init(&o);
  o.engine = e;
  o.no_spin_reduce = !reduce;
  o.termination = term;
  lc_diag d;
  lc_diag_init(&d, NULL, stderr);
  run k = {NULL, NULL};
  k.r = lc_check_test(x->t, m, &o, &k.p, &d);
  lc_diag_fini(&d);
  assert_non_null(k.r);
  assert_int_equal(k.r->status, LC_RESULT_OK);
  return k;
}

static void run_free(run *k) {
  lc_result_free(k->r);
  lx_program_free(k->p);
}

/* Is the instruction pair (a, b) of flag f of run k, by source position,
 * among the pairs of flag f of run l? */
static bool pair_in(const run *k, size_t f, int a, int b, const run *l) {
  const lx_event *ea = &k->p->events[a], *eb = &k->p->events[b];
  const lc_flag *g = &l->r->flags[f];
  for (size_t i = 0; i < g->npairs; i++) {
    const lx_event *xa = &l->p->events[g->pairs[2 * i]], *xb = &l->p->events[g->pairs[2 * i + 1]];
    if ((xa->instr == ea->instr && xb->instr == eb->instr) || (xa->instr == eb->instr && xb->instr == ea->instr))
      return true;
  }
  return false;
}

/* The same states, and the same flagged pairs of instructions. */
static void assert_same(const run *k, const run *l) {
  assert_int_equal(k->r->nstates, l->r->nstates);
  assert_int_equal(k->r->nshown, l->r->nshown);
  for (size_t i = 0; i < k->r->nstates; i++)
    assert_memory_equal(lc_result_state(k->r, i), lc_result_state(l->r, i), k->r->nshown * sizeof(lx_val));
  assert_int_equal(k->r->nflags, l->r->nflags);
  for (size_t f = 0; f < k->r->nflags; f++) {
    assert_int_equal(k->r->flags[f].raised, l->r->flags[f].raised);
    for (size_t i = 0; i < k->r->flags[f].npairs; i++)
      assert_true(pair_in(k, f, k->r->flags[f].pairs[2 * i], k->r->flags[f].pairs[2 * i + 1], l));
    for (size_t i = 0; i < l->r->flags[f].npairs; i++)
      assert_true(pair_in(l, f, l->r->flags[f].pairs[2 * i], l->r->flags[f].pairs[2 * i + 1], k));
  }
}

/* Both engines, kept once and unrolled, the same answers; returns the
 * reduced run of the explicit engine (the caller frees it). */
static run both_ways(const char *text, const char *model, bool term, size_t *paths_all) {
  cat_model *m = fx_model(model);
  assert_non_null(m);
  fx_test x;
  assert_true(fx_parse(&x, text));
  run all = check(&x, m, LC_ENGINE_ENUM, false, term);
  run once = check(&x, m, LC_ENGINE_ENUM, true, term);
  run smt = check(&x, m, LC_ENGINE_SMT, true, term);
  assert_same(&all, &once);
  assert_same(&smt, &once);
  assert_int_equal(all.r->termination, once.r->termination);
  assert_int_equal(smt.r->termination, once.r->termination);
  *paths_all = all.p->npaths;
  run_free(&all);
  run_free(&smt);
  fx_free(&x);
  cat_model_free(m);
  return once;
}

static void test_race_in_retry(void **state) {
  (void)state;
  size_t paths;
  run k = both_ways(race_in_retry, "ptx-v7.5", false, &paths);
  /* P1: exit at once, after one retry, and (dropped) after two */
  assert_true(k.p->npaths < paths);
  assert_int_equal(k.p->spun, 1);
  assert_int_equal(k.r->nstates, 1);
  assert_int_equal(k.r->nflags, 1);
  assert_true(k.r->flags[0].raised);
  assert_int_equal(k.r->flags[0].npairs, 1);   /* the weak write and P1's load */
  const lx_event *a = &k.p->events[k.r->flags[0].pairs[0]], *b = &k.p->events[k.r->flags[0].pairs[1]];
  assert_true(a->retry || b->retry);
  run_free(&k);
}

static void test_counting_loop_untouched(void **state) {
  (void)state;
  size_t paths;
  run k = both_ways(counting, "ptx-v7.5", false, &paths);
  assert_int_equal(k.p->npaths, paths);
  assert_int_equal(k.p->spun, 0);
  assert_int_equal(k.r->nstates, 3);   /* r1 = 1, 2, 3 */
  run_free(&k);
}

static void test_cas_lock(void **state) {
  (void)state;
  size_t paths;
  run k = both_ways(cas_lock, "ptx-v7.5", false, &paths);
  assert_true(k.p->npaths < paths);
  assert_int_equal(k.r->nstates, 2);   /* x=1, x=2 */
  assert_true(k.r->flags[0].raised);
  run_free(&k);
  k = both_ways(cas_lock, "ptx-v6.0", false, &paths);
  run_free(&k);
}

static void test_semaphore(void **state) {
  (void)state;
  size_t paths;
  run k = both_ways(semaphore, "ptx-v7.5", false, &paths);
  assert_true(k.p->npaths < paths);
  run_free(&k);
  k = both_ways(semaphore, "sc", false, &paths);
  run_free(&k);
}

static void test_hang_kept(void **state) {
  (void)state;
  size_t paths;
  run k = both_ways(spin_forever, "ptx-v7.5", true, &paths);
  assert_int_equal(k.r->nstates, 0);
  assert_int_equal(k.r->termination, LC_TERM_MAY_HANG);
  run_free(&k);
}

static void test_models(void **state) {
  (void)state;
  const char *const closed[] = {"ptx-v7.5", "ptx-v6.0", "ptx-v8", "sc", "cuda-cpp"};
  for (size_t i = 0; i < sizeof closed / sizeof *closed; i++) {
    cat_model *m = fx_model(closed[i]);
    assert_non_null(m);
    assert_true(cat_model_deletion_closed(m, true));
    cat_model_free(m);
  }
  char path[512];
  snprintf(path, sizeof path, "%s/models/cuda-cpp.cat", LC_SRCDIR);
  const char *const visible[] = {"na-reads=visible", NULL};
  lc_diag d;
  lc_diag_init(&d, NULL, stderr);
  /* C11's visible non-atomic reads: a write must happen before the read of
   * it, and a deleted acquire read may have been what made it so */
  cat_model *m = cat_load_set(path, NULL, visible, &d);
  assert_non_null(m);
  assert_false(cat_model_deletion_closed(m, true));
  cat_model_free(m);
  /* a difference with a closure subtracted: not monotone */
  m = cat_load_string("t.cat", "\"t\"\nempty (rf \\ (po; po))\n", NULL, &d);
  assert_non_null(m);
  assert_false(cat_model_deletion_closed(m, true));
  lc_check_options o;
  lc_check_options_init(&o);
  assert_false(lc_spin_reduce(m, &o));
  cat_model_free(m);
  /* a flag must be anti-monotone when flags are evaluated, not otherwise */
  m = cat_load_string("t.cat", "\"t\"\nacyclic po | rf\nflag ~empty rf; po as seen\n", NULL, &d);
  assert_non_null(m);
  assert_false(cat_model_deletion_closed(m, true));
  assert_true(cat_model_deletion_closed(m, false));
  cat_model_free(m);
  /* a check over an order herd's `with` chooses is not analysed: refused */
  m = cat_load_string("t.cat", "\"t\"\nwith s from linearisations(W, po)\nacyclic s | rf\n", NULL, &d);
  assert_non_null(m);
  assert_false(cat_model_deletion_closed(m, true));
  cat_model_free(m);
  lc_diag_fini(&d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_race_in_retry),
    cmocka_unit_test(test_counting_loop_untouched),
    cmocka_unit_test(test_cas_lock),
    cmocka_unit_test(test_semaphore),
    cmocka_unit_test(test_hang_kept),
    cmocka_unit_test(test_models),
  };
  int rc = cmocka_run_group_tests(tests, NULL, NULL);
  Z3_finalize_memory();
  return rc;
}
