/* test_cat_lin.c - herd's `with x from linearisations(S, r)`: the orders
 * enumerated, one evaluation per choice until one passes every check, the
 * check NAME-exists when there is no order, and the may/must bounds.
 * Expected answers are derived by hand from herd's definition (the strict
 * total orders of S that include r+ & (S * S), doc/herd.tex).
 * SPDX-License-Identifier: MIT
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cat/cat.h"
#include "cat/cat_lin.h"
#include "cat/cat_rel.h"

enum { N = 4 };

static rel_rel *pairs(const char *p) {
  rel_rel *r = rel_new(N);
  while (*p) {
    char *end;
    size_t a = strtoul(p, &end, 10);
    size_t b = strtoul(end + 1, &end, 10);
    rel_add(r, a, b);
    p = end;
    while (*p == ' ') p++;
  }
  return r;
}

static rel_set *members(const char *p) {
  rel_set *s = rel_set_new(N);
  for (; *p; p++)
    if (*p != ' ') rel_set_add(s, (size_t)(*p - '0'));
  return s;
}

static size_t count(const char *s, const char *r, size_t cap, int *rc) {
  rel_set *ss = members(s);
  rel_rel *rr = pairs(r);
  cat_lin l;
  *rc = cat_lin_orders(ss, rr, cap, &l);
  size_t n = l.n;
  for (size_t i = 0; i < l.n; i++) {   /* each a strict total order of S that includes r within S */
    rel_rel *o = cat_lin_order(&l, i, N);
    assert_true(rel_irreflexive(o));
    for (size_t a = 0; a < N; a++)
      for (size_t b = 0; b < N; b++) {
        if (a != b && rel_set_has(ss, a) && rel_set_has(ss, b)) assert_true(rel_has(o, a, b) != rel_has(o, b, a));
        if (!rel_set_has(ss, a) || !rel_set_has(ss, b)) assert_false(rel_has(o, a, b));
      }
    rel_free(o);
  }
  cat_lin_fini(&l);
  rel_set_free(ss);
  rel_free(rr);
  return n;
}

static void test_lin_orders(void **state) {
  (void)state;
  int rc;
  assert_int_equal(count("012", "", 100, &rc), 6);
  assert_int_equal(rc, 0);
  assert_int_equal(count("012", "0>1", 100, &rc), 3);
  /* 0 before 1 through 3, which is not in S: r's closure counts */
  assert_int_equal(count("012", "0>3 3>1", 100, &rc), 3);
  assert_int_equal(count("012", "0>1 1>2", 100, &rc), 1);
  /* a cycle within S: no order */
  assert_int_equal(count("012", "0>1 1>0", 100, &rc), 0);
  assert_int_equal(rc, 0);
  /* a cycle outside S does not matter */
  assert_int_equal(count("01", "2>3 3>2", 100, &rc), 2);
  /* S empty: one order, the empty one */
  assert_int_equal(count("", "", 100, &rc), 1);
  /* past the cap */
  count("0123", "", 23, &rc);
  assert_int_equal(rc, -1);
  assert_int_equal(count("0123", "", 24, &rc), 24);
  assert_int_equal(rc, 0);
}

/* ---- the model: one evaluation per choice ----------------------------------------- */

typedef struct fx {
  rel_set *E;
  rel_rel *r, *x;
} fx;

static void *builtin(void *u, const char *name, cat_type *type) {
  fx *f = u;
  if (strcmp(name, "M") == 0 && *type == CAT_TY_SET) return rel_set_copy(f->E);
  if (strcmp(name, "po") == 0 && *type == CAT_TY_REL) return rel_copy(f->r);
  if (strcmp(name, "rf") == 0 && *type == CAT_TY_REL) return rel_copy(f->x);
  return NULL;
}

/* s must order 2 before 1 before 0 (rf's pairs, read backwards, forbid the rest) */
static const char *const model =
  "with s from linearisations(M, po)\n"
  "irreflexive s ; rf as C\n";

static cat_model *load(const char *text) {
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  cat_model *m = cat_load_string("t.cat", text, NULL, &d);
  if (!m) fail_msg("%s", lc_diag_first_error(&d));
  lc_diag_fini(&d);
  return m;
}

static void eval(const char *r, cat_rel_result *res, rel_rel **s) {
  fx f = {members("012"), pairs(r), pairs("1>0 2>1 2>0")};
  cat_model *m = load(model);
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  if (cat_rel_eval(m, N, builtin, &f, res, &d) < 0) fail_msg("%s", lc_diag_first_error(&d));
  size_t v;
  assert_true(cat_model_find_relation(m, "s", &v));
  void *out = NULL;
  if (cat_rel_eval_values(m, N, builtin, &f, &v, 1, &out, &d) < 0) fail_msg("%s", lc_diag_first_error(&d));
  *s = out;
  lc_diag_fini(&d);
  cat_model_free(m);
  rel_set_free(f.E);
  rel_free(f.r);
  rel_free(f.x);
}

static void test_with_linearisations(void **state) {
  (void)state;
  cat_rel_result res;
  rel_rel *s;
  /* six orders, the last of them (2, 1, 0) passes: allowed, and the
   * value of s is that order */
  eval("", &res, &s);
  assert_true(res.consistent);
  assert_int_equal(res.n, 2);
  assert_string_equal(res.checks[0].name, "s-exists");
  assert_true(res.checks[0].holds);
  rel_rel *want = pairs("2>1 2>0 1>0");
  assert_true(rel_equal(s, want));
  rel_free(s);
  cat_rel_result_fini(&res);
  /* po puts 0 before 1: no order passes C */
  eval("0>1", &res, &s);
  assert_false(res.consistent);
  assert_true(res.checks[0].holds);
  assert_false(res.checks[1].holds);
  rel_free(s);
  cat_rel_result_fini(&res);
  /* po is cyclic within M: there is no order, s-exists fails */
  eval("0>1 1>0", &res, &s);
  assert_false(res.consistent);
  assert_false(res.checks[0].holds);
  rel_free(s);
  cat_rel_result_fini(&res);
  rel_free(want);
}

/* Two choices, the second depending on the first: every combination is
 * tried (the first order of t that passes follows the last order of s). */
static void test_with_nested(void **state) {
  (void)state;
  fx f = {members("012"), pairs(""), pairs("1>0 2>1 2>0")};
  cat_model *m = load("with s from linearisations(M, po)\n"
                      "with t from linearisations(M, s^-1)\n"
                      "irreflexive t ; rf^-1 as C\n"
                      "irreflexive s ; rf as D\n");
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  cat_rel_result res;
  assert_int_equal(cat_rel_eval(m, N, builtin, &f, &res, &d), 0);
  assert_true(res.consistent);
  cat_rel_result_fini(&res);
  lc_diag_fini(&d);
  cat_model_free(m);
  rel_set_free(f.E);
  rel_free(f.r);
  rel_free(f.x);
}

/* Nine events and no order between them: 9! orders, past the cap, an
 * error at the with's expression. */
static void *nine(void *u, const char *name, cat_type *type) {
  (void)u;
  if (strcmp(name, "M") != 0 || *type != CAT_TY_SET) return NULL;
  rel_set *s = rel_set_new(9);
  for (size_t i = 0; i < 9; i++) rel_set_add(s, i);
  return s;
}

static void test_with_too_many(void **state) {
  (void)state;
  cat_model *m = load("with s from linearisations(M, 0)\nacyclic s as A\n");
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  cat_rel_result res;
  assert_int_equal(cat_rel_eval(m, 9, nine, NULL, &res, &d), -1);
  const char *e = lc_diag_first_error(&d);
  assert_non_null(e);
  if (!strstr(e, "t.cat:1:13: error: ") || !strstr(e, "more than 100000 orders of the 9 events"))
    fail_msg("%s", e);
  lc_diag_fini(&d);
  cat_model_free(m);
}

/* may: every pair of two possible members; must: r's closure within the
 * certain members */
static void test_lin_bounds(void **state) {
  (void)state;
  cat_mm *s = cat_mm_new(CAT_TY_SET, members("012"), members("01"));
  cat_mm *r = cat_mm_new(CAT_TY_REL, pairs("0>3 3>1 1>2"), pairs("0>3 3>1"));
  cat_mm *o = cat_mm_op(N, CAT_OP_LINEAR, CAT_TY_SET, s, r);
  rel_rel *may = pairs("0>1 0>2 1>0 1>2 2>0 2>1"), *must = pairs("0>1");
  assert_true(rel_equal(o->may, may));
  assert_true(rel_equal(o->must, must));
  cat_mm_free(s), cat_mm_free(r), cat_mm_free(o);
  rel_free(may), rel_free(must);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_lin_orders),
    cmocka_unit_test(test_with_linearisations),
    cmocka_unit_test(test_with_nested),
    cmocka_unit_test(test_with_too_many),
    cmocka_unit_test(test_lin_bounds),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
