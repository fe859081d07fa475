/* test_enum_engine.c - the explicit engine against known answers, against
 * itself without pruning, and against the SMT engine.
 * SPDX-License-Identifier: MIT
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>
#include <z3.h>

#include "enum_fixture.h"
#include "executions.h"
#include "gen/gen.h"

typedef struct models {
  cat_model *v75, *v60, *sc;
} models;

static int setup(void **state) {
  models *m = calloc(1, sizeof *m);
  m->v75 = fx_model("ptx-v7.5");
  m->v60 = fx_model("ptx-v6.0");
  m->sc = fx_model("sc");
  *state = m;
  return m->v75 && m->v60 && m->sc ? 0 : -1;
}

static int teardown(void **state) {
  models *m = *state;
  cat_model_free(m->v75);
  cat_model_free(m->v60);
  cat_model_free(m->sc);
  free(m);
  return 0;
}

static lc_result *run_enum(const lx_program *p, const cat_model *m, bool prune) {
  enum_options o = {0, true, !prune, false};
  lc_result *r = enum_check(p, m, &o);
  assert_int_equal(r->status, LC_RESULT_OK);
  return r;
}

static size_t count_states(const char *text, const cat_model *m, bool *race) {
  fx_test x;
  assert_true(fx_parse(&x, text));
  lc_result *r = run_enum(x.p, m, true);
  size_t n = r->nstates;
  if (race) *race = r->nflags && r->flags[0].raised;
  lc_result_free(r);
  fx_free(&x);
  return n;
}

#define MP(w, r, where) \
  "PTX MP\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@" where ",gpu 0 ;\n" \
  " st.weak x, 1 | ld." r " r0, y ;\n st." w " y, 1 | ld.weak r1, x ;\n" \
  "exists (P1:r0 == 1 /\\ P1:r1 == 0)\n"

static void test_enum_mp(void **state) {
  models *m = *state;
  bool race;
  assert_int_equal(count_states(MP("weak", "weak", "cta 1"), m->v75, &race), 4);
  assert_true(race);
  /* Synchronised when the flag is seen; a race when it is not. */
  assert_int_equal(count_states(MP("release.gpu", "acquire.gpu", "cta 1"), m->v75, &race), 3);
  assert_true(race);
  /* .cta scopes do not reach another CTA (ptx-model.md §1.5). */
  assert_int_equal(count_states(MP("release.cta", "acquire.cta", "cta 1"), m->v75, &race), 4);
  assert_int_equal(count_states(MP("release.cta", "acquire.cta", "cta 0"), m->v75, &race), 3);
  assert_int_equal(count_states(MP("weak", "weak", "cta 1"), m->sc, NULL), 3);
}

/* Racy weak writes leave two co-maximal writes: both final values. */
static void test_enum_final_values(void **state) {
  models *m = *state;
  bool race;
  assert_int_equal(count_states("PTX W\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
                                " st.weak x, 1 | st.weak x, 2 ;\nexists (x == 1)\n",
                                m->v75, &race),
                   2);
  assert_true(race);
}

/* A filter keeps the states it accepts, and flags come only from them. */
static void test_enum_filter(void **state) {
  models *m = *state;
  assert_int_equal(count_states("PTX F\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
                                " st.weak x, 1 | ld.weak r0, y ;\n st.weak y, 1 | ld.weak r1, x ;\n"
                                "filter (P1:r0 == 0)\nexists (P1:r1 == 0)\n",
                                m->v75, NULL),
                   2);
  bool race;
  count_states("PTX F2\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
               " st.weak x, 1 | ld.weak r0, x ;\nfilter (P1:r0 == 7)\nexists (P1:r0 == 0)\n",
               m->v75, &race);
  assert_false(race);
}

/* A thin-air cycle of values is guessed from the domain, then rejected
 * by the model: only 0 is read. */
static void test_enum_thin_air(void **state) {
  models *m = *state;
  assert_int_equal(count_states("PTX LB\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
                                " ld.relaxed.gpu r0, x | ld.relaxed.gpu r1, y ;\n"
                                " st.relaxed.gpu y, r0 | st.relaxed.gpu x, r1 ;\n"
                                "exists (P0:r0 == 1)\n",
                                m->v75, NULL),
                   1);
}

/* Loops are cut at the unroll bound; the engine says so. */
static void test_enum_bound(void **state) {
  models *m = *state;
  fx_test x;
  assert_true(fx_parse(&x, "PTX L\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
                           " st.relaxed.gpu x, 1 | LC10: ;\n | ld.relaxed.gpu r0, x ;\n"
                           " | beq r0, 0, LC10 ;\nexists (P1:r0 == 1)\n"));
  lc_result *r = run_enum(x.p, m->v75, true);
  assert_true(r->bound_reached);
  assert_int_equal(r->nstates, 1);
  lc_result_free(r);
  fx_free(&x);
}

static void test_enum_no_races(void **state) {
  models *m = *state;
  fx_test x;
  assert_true(fx_parse(&x, MP("weak", "weak", "cta 1")));
  enum_options o = {0, false, false, false};
  lc_result *r = enum_check(x.p, m->v75, &o);
  assert_int_equal(r->nflags, 0);
  assert_int_equal(r->nstates, 4);
  lc_result_free(r);
  fx_free(&x);
}

/* Pruning changes nothing (on tests small enough to enumerate in full),
 * and both engines agree, on random tests under each model. */
static void compare_random(const cat_model *m, uint64_t seed, size_t count) {
  gen_options go;
  gen_options_init(&go);
  go.seed = seed;
  go.max_threads = 3;
  go.max_instrs = 2;
  for (size_t i = 0; i < count; i++) {
    lt_test *t = gen_random(&go, i);
    lc_diag d;
    lc_diag_init(&d, NULL, stderr);
    lx_program *p = lx_lower(t, NULL, &d);
    lc_diag_fini(&d);
    assert_non_null(p);
    lc_result *pruned = run_enum(p, m, true), *full = run_enum(p, m, false);
    smt_options so = {0, true, 1, false};
    lc_result *smt = smt_check(p, m, &so);
    if (!fx_same(pruned, full) || !fx_same(pruned, smt)) fail_msg("engines differ on %s", t->name);
    lc_result_free(pruned);
    lc_result_free(full);
    lc_result_free(smt);
    lx_program_free(p);
    lt_test_free(t);
  }
}

static void test_enum_random_v75(void **state) { compare_random(((models *)*state)->v75, 11, 25); }
static void test_enum_random_v60(void **state) { compare_random(((models *)*state)->v60, 12, 15); }
static void test_enum_random_sc(void **state) { compare_random(((models *)*state)->sc, 13, 15); }

/* The explicit engine replays the walk of the model it recorded, and
 * walks it again when a `let rec` group converges in another number of
 * rounds than recorded: a model whose groups take more rounds the
 * longer the chains of rf and co an execution has, checked against the
 * unpruned search (no replay) and against Z3. */
static void test_enum_random_let_rec(void **state) {
  (void)state;
  static const char *const text =
      "let rec hb = po | rf | hb ; hb\n"
      "let rec ob = (rf ; po) | (co ; ob) | (ob ; fr) and obr = ob^-1 ; po | obr ; co\n"
      "acyclic hb | co as Order\n"
      "irreflexive ob ; fr as Obs\n"
      "empty obr & id as Back\n"
      "flag ~empty (hb & loc & (W * R)) as seen\n";
  lc_diag d;
  lc_diag_init(&d, NULL, stderr);
  cat_model *m = cat_load_string("rec.cat", text, NULL, &d);
  lc_diag_fini(&d);
  assert_non_null(m);
  compare_random(m, 14, 25);
  cat_model_free(m);
}

/* ---- every execution (--show) -------------------------------------------------------- */

static const char *const mp_rel_acq =
    "PTX MP\n{ x=0; y=0; }\n"
    " P0@cta 0,gpu 0      | P1@cta 1,gpu 0       ;\n"
    " st.weak x, 1        | ld.acquire.gpu r0, y ;\n"
    " st.release.gpu y, 1 | ld.weak r1, x        ;\n"
    "exists (P1:r0 == 1 /\\ P1:r1 == 0)\n";

typedef struct each_ctx {
  const lx_program *p;
  const cat_model *m;
  size_t n, stop_at;
} each_ctx;

/* Every execution handed over is one the model allows. */
static bool each_judged(void *ctx, const lc_witness *w) {
  each_ctx *c = ctx;
  cat_rel_result res;
  int *orig = NULL;
  char *msg = NULL;
  assert_int_equal(enum_eval_witness(c->p, c->m, w, &res, &orig, &msg), 0);
  assert_true(res.consistent);
  cat_rel_result_fini(&res);
  free(orig);
  return ++c->n != c->stop_at;
}

static size_t count_executions(fx_test *x, const cat_model *m, const char *state, size_t stop_at) {
  lc_state st = {0};
  char *msg = NULL;
  if (state) assert_int_equal(lc_state_parse(x->p, state, &st, &msg), 0);
  each_ctx c = {x->p, m, 0, stop_at};
  bool incomplete = true;
  assert_int_equal(enum_each_execution(x->p, m, NULL, state ? &st : NULL, each_judged, &c, &incomplete, &msg), 0);
  assert_false(incomplete);
  if (state) lc_state_fini(&st);
  return c.n;
}

static void test_enum_each_execution(void **state) {
  (void)state;
  cat_model *m = fx_model("ptx-v7.5");
  assert_non_null(m);
  fx_test x;
  assert_true(fx_parse(&x, mp_rel_acq));
  assert_int_equal(count_executions(&x, m, NULL, 0), 3);                 /* 4 states less the forbidden one */
  assert_int_equal(count_executions(&x, m, "P1:r0=1; P1:r1=1;", 0), 1);
  assert_int_equal(count_executions(&x, m, "P1:r0=1; P1:r1=0;", 0), 0);
  assert_int_equal(count_executions(&x, m, "P1:r0=0;", 0), 2);
  assert_int_equal(count_executions(&x, m, NULL, 2), 2);                 /* the callback stops it */
  /* the list: all counted, the first kept, with the relations asked for */
  char *msg = NULL;
  lc_show_result *s = lc_show(x.p, m, NULL, 1, "sw,cause", 0, &msg);
  assert_non_null(s);
  assert_int_equal(s->count, 3);
  assert_int_equal(s->n, 1);
  assert_int_equal(s->nrels, 2);
  assert_string_equal(s->rel_names[0], "sw");
  assert_false(s->stopped || s->rels_default);
  lc_show_free(s);
  assert_null(lc_show(x.p, m, NULL, 1, "sw,nosuch", 0, &msg));
  assert_non_null(strstr(msg, "'nosuch'"));
  free(msg);
  /* in the execution reading the release, sw relates it to the acquire */
  lc_state st;
  assert_int_equal(lc_state_parse(x.p, "P1:r0=1; P1:r1=1;", &st, &msg), 0);
  s = lc_show(x.p, m, &st, 10, "sw", 0, &msg);
  lc_state_fini(&st);
  assert_int_equal(s->n, 1);
  size_t pairs = 0;
  for (size_t a = 0; a < x.p->nevents; a++)
    for (size_t b = 0; b < x.p->nevents; b++) pairs += rel_has(s->ex[0].rels[0], a, b);
  assert_int_equal(pairs, 1);
  lc_show_free(s);
  fx_free(&x);
  cat_model_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_enum_mp),
    cmocka_unit_test(test_enum_each_execution),
    cmocka_unit_test(test_enum_final_values),
    cmocka_unit_test(test_enum_filter),
    cmocka_unit_test(test_enum_thin_air),
    cmocka_unit_test(test_enum_bound),
    cmocka_unit_test(test_enum_no_races),
    cmocka_unit_test(test_enum_random_v75),
    cmocka_unit_test(test_enum_random_v60),
    cmocka_unit_test(test_enum_random_sc),
    cmocka_unit_test(test_enum_random_let_rec),
  };
  int failed = cmocka_run_group_tests(tests, setup, teardown);
  Z3_finalize_memory();   /* Z3's global tables, so valgrind sees no leak */
  return failed;
}
