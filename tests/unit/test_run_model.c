/* test_run_model.c - litmus-run's model phase: the result as JSON and
 * back, and the check and the --unroll hint in a child process (--timeout)
 * giving what they give in-process.
 * SPDX-License-Identifier: MIT
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "enum_fixture.h"
#include "run/run_model.h"
#include "term.h"

/* Racy (flag data-race raised, with pairs) and with a loop the unroll
 * bound cuts (bound reached, a termination verdict). */
static const char *const RACY_SPIN =
  "PTX racy-spin\n"
  "{ x=0; f=0; }\n"
  " P0@cta 0,gpu 0 | P1@cta 1,gpu 0       ;\n"
  " st.weak x, 1   | LC00:                ;\n"
  " st.relaxed.gpu f, 1 | ld.relaxed.gpu r0, f ;\n"
  "                | beq r0, 0, LC00      ;\n"
  "                | ld.weak r1, x        ;\n"
  "exists (P1:r1 == 0)\n";

typedef struct world {
  cat_model *m;
  fx_test x;
} world;

static int setup(void **state) {
  world *w = calloc(1, sizeof *w);
  *state = w;
  w->m = fx_model("ptx-v7.5");
  return w->m && fx_parse(&w->x, RACY_SPIN) ? 0 : -1;
}

static int teardown(void **state) {
  world *w = *state;
  fx_free(&w->x);
  cat_model_free(w->m);
  free(w);
  return 0;
}

static lc_result *check_hint(const world *w, double timeout, lc_unroll_hint *hint, lx_program **p) {
  lc_check_options o;
  lc_check_options_init(&o);
  o.engine = LC_ENGINE_SMT;
  o.termination = true;
  o.races = true;
  /* every retry unrolled, so that the bound is reached and its hint asked
   * for (a spin retry kept once reaches none: test_spin_reduce) */
  o.no_spin_reduce = true;
  o.timeout = timeout;
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  lc_result *r = run_model_check(w->x.t, w->m, &o, true, hint, p, &d);
  lc_diag_fini(&d);
  return r;
}

static lc_result *check(const world *w, double timeout, lx_program **p) { return check_hint(w, timeout, NULL, p); }

/* Every field the run uses, equal. */
static void assert_same(const lc_result *a, const lc_result *b) {
  assert_int_equal(a->status, b->status);
  assert_string_equal(a->engine, b->engine);
  assert_string_equal(a->model, b->model);
  assert_int_equal(a->nshown, b->nshown);
  assert_int_equal(a->nstates, b->nstates);
  assert_memory_equal(a->states, b->states, a->nstates * a->nshown * sizeof(lx_val));
  assert_int_equal(a->nflags, b->nflags);
  for (size_t f = 0; f < a->nflags; f++) {
    assert_string_equal(a->flags[f].name, b->flags[f].name);
    assert_int_equal(a->flags[f].raised, b->flags[f].raised);
    assert_int_equal(a->flags[f].ev_a, b->flags[f].ev_a);
    assert_int_equal(a->flags[f].npairs, b->flags[f].npairs);
    if (a->flags[f].npairs)
      assert_memory_equal(a->flags[f].pairs, b->flags[f].pairs, 2 * a->flags[f].npairs * sizeof(int));
  }
  assert_int_equal(a->bound_reached, b->bound_reached);
  assert_int_equal(a->termination, b->termination);
  assert_string_equal(a->termination_witness ? a->termination_witness : "-",
                      b->termination_witness ? b->termination_witness : "-");
}

static void test_dump_load(void **state) {
  world *w = *state;
  lx_program *p = NULL;
  lc_result *r = check(w, 0, &p);
  assert_non_null(r);
  assert_int_equal(r->status, LC_RESULT_OK);
  assert_true(r->nflags > 0 && r->flags[0].raised && r->flags[0].npairs > 0);
  assert_true(r->bound_reached);
  assert_int_equal(r->termination, LC_TERM_TERMINATES);
  r->seconds = 0.1 + 1e-17;   /* reals come back to the same double */
  char *text = run_model_result_dump(r);
  lc_result *back = run_model_result_load(text, p, w->m);
  assert_non_null(back);
  assert_same(r, back);
  assert_true(back->seconds == r->seconds);
  assert_ptr_equal(back->prog, p);
  char *again = run_model_result_dump(back);
  assert_string_equal(text, again);
  free(again);
  free(text);
  lc_result_free(back);
  lc_result_free(r);
  lx_program_free(p);
}

static void test_load_refuses(void **state) {
  world *w = *state;
  const char *bad[] = {"", "[]", "{\"status\":0}", "{\"status\":7,\"engine\":\"smt\"}",
                       "{\"status\":0,\"engine\":\"smt\",\"nstates\":1,\"states\":[],\"flags\":[],\"terms\":[]}",
                       "{\"status\":0,\"engine\":\"smt\",\"nstates\":0,\"states\":[],"
                       "\"flags\":[{\"name\":\"no-such-flag\",\"pairs\":[]}],\"terms\":[]}"};
  for (size_t i = 0; i < LC_ARRAY_LEN(bad); i++) assert_null(run_model_result_load(bad[i], w->x.p, w->m));
}

/* --timeout not reached: the child's answer is the in-process one. */
static void test_isolated_same(void **state) {
  world *w = *state;
  lx_program *p = NULL, *q = NULL;
  lc_result *in = check(w, 0, &p), *apart = check(w, 60, &q);
  assert_non_null(in);
  assert_non_null(apart);
  assert_same(in, apart);
  assert_true(apart->seconds >= apart->seconds_lower && apart->seconds_lower > 0);
  lc_result_free(in);
  lc_result_free(apart);
  lx_program_free(p);
  lx_program_free(q);
}

/* The --unroll hint: found in the child as in-process. */
static void test_isolated_hint(void **state) {
  world *w = *state;
  lx_program *p = NULL, *q = NULL;
  lc_unroll_hint in = {0}, apart = {0};
  lc_result *a = check_hint(w, 0, &in, &p), *b = check_hint(w, 60, &apart, &q);
  assert_true(a->bound_reached && b->bound_reached);
  assert_int_equal(in.from, 2);
  assert_true(in.tried > in.from);
  assert_int_equal(apart.from, in.from);
  assert_int_equal(apart.covers, in.covers);
  assert_int_equal(apart.tried, in.tried);
  assert_int_equal(apart.stopped, in.stopped);
  lc_result_free(a);
  lc_result_free(b);
  lx_program_free(p);
  lx_program_free(q);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_dump_load),
    cmocka_unit_test(test_load_refuses),
    cmocka_unit_test(test_isolated_same),
    cmocka_unit_test(test_isolated_hint),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
