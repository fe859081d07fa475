/* test_cat_eval.c - evaluating models: the exact backend on small event
 * sets with known answers, value ownership, laziness, and the soundness
 * of the may/must backend on random values.
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
#include "cat/cat_rel.h"

/* ---- fixture: named builtin values over n events --------------------------------- */

enum { MAXB = 24 };

typedef struct fx {
  size_t n;
  size_t count;
  struct {
    const char *name;
    cat_type type;
    void *v;              /* rel_set* or rel_rel* */
    int calls;
  } b[MAXB];
} fx;

static void fx_init(fx *f, size_t n) {
  memset(f, 0, sizeof *f);
  f->n = n;
}

static void fx_fini(fx *f) {
  for (size_t i = 0; i < f->count; i++) cat_rel_free(f->b[i].type, f->b[i].v);
}

static void *fx_add(fx *f, const char *name, cat_type t) {
  assert_true(f->count < MAXB);
  f->b[f->count].name = name;
  f->b[f->count].type = t;
  f->b[f->count].v = t == CAT_TY_SET ? (void *)rel_set_new(f->n) : (void *)rel_new(f->n);
  return f->b[f->count++].v;
}

/* A relation from pairs "a>b a>b ..." */
static rel_rel *fx_rel(fx *f, const char *name, const char *pairs) {
  rel_rel *r = fx_add(f, name, CAT_TY_REL);
  for (const char *p = pairs; *p;) {
    char *end;
    size_t a = strtoul(p, &end, 10);
    assert_true(*end == '>');
    size_t b = strtoul(end + 1, &end, 10);
    rel_add(r, a, b);
    p = end;
    while (*p == ' ') p++;
  }
  return r;
}

static rel_set *fx_set(fx *f, const char *name, const char *members) {
  rel_set *s = fx_add(f, name, CAT_TY_SET);
  for (const char *p = members; *p;) {
    char *end;
    rel_set_add(s, strtoul(p, &end, 10));
    p = end;
    while (*p == ' ') p++;
  }
  return s;
}

static void *fx_builtin(void *u, const char *name, cat_type *type) {
  fx *f = u;
  for (size_t i = 0; i < f->count; i++)
    if (strcmp(f->b[i].name, name) == 0) {
      assert_int_equal(*type, f->b[i].type);
      f->b[i].calls++;
      return cat_rel_copy(f->b[i].type, f->b[i].v);
    }
  return NULL;
}

static int fx_calls(const fx *f, const char *name) {
  for (size_t i = 0; i < f->count; i++)
    if (strcmp(f->b[i].name, name) == 0) return f->b[i].calls;
  return -1;
}

static cat_model *load(const char *text) {
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  cat_model *m = cat_load_string("t.cat", text, NULL, &d);
  if (!m) fail_msg("%s", lc_diag_first_error(&d));
  lc_diag_fini(&d);
  return m;
}

/* Evaluates text with the exact backend; fails the test on an error. */
static void run(fx *f, const char *text, cat_rel_result *res) {
  cat_model *m = load(text);
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  if (cat_rel_eval(m, f->n, fx_builtin, f, res, &d) < 0) fail_msg("%s", lc_diag_first_error(&d));
  lc_diag_fini(&d);
  cat_model_free(m);
}

static const cat_rel_check *get(const cat_rel_result *r, const char *name) {
  const cat_rel_check *c = cat_rel_result_find(r, name);
  if (!c) fail_msg("no check %s", name);
  return c;
}

static void expect_pair(const cat_rel_result *r, const char *name, size_t a, size_t b) {
  const cat_rel_check *c = get(r, name);
  assert_false(c->holds);
  if (c->a != a || c->b != b) fail_msg("%s: pair (%zu,%zu), want (%zu,%zu)", name, c->a, c->b, a, b);
}

static void expect_holds(const cat_rel_result *r, const char *name) {
  if (!get(r, name)->holds) fail_msg("%s does not hold", name);
}

/* po: one thread 0 -> 1 -> 2 -> 3 -> 4 (transitive, as engines give it). */
static void chain(fx *f) {
  fx_init(f, 5);
  fx_rel(f, "po", "0>1 0>2 0>3 0>4 1>2 1>3 1>4 2>3 2>4 3>4");
  fx_rel(f, "rf", "1>3");
  fx_set(f, "W", "1");
  fx_set(f, "R", "3");
  fx_set(f, "F", "2");
}

/* ---- exact evaluation ------------------------------------------------------------- */

static void test_cat_closure(void **state) {
  (void)state;
  fx f;
  fx_init(&f, 5);
  fx_rel(&f, "rf", "0>1 1>2 2>3");
  cat_rel_result r;
  run(&f,
      "flag ~empty rf+ \\ rf as two-hops\n"
      "flag ~empty rf* \\ rf+ as refl\n"
      "empty rf+ \\ (rf | rf;rf | rf;rf;rf) as plus-exact\n"
      "flag ~empty rf? \\ rf as opt\n"
      "flag ~empty rf^-1 as inv\n",
      &r);
  expect_pair(&r, "two-hops", 0, 2);
  expect_pair(&r, "refl", 0, 0);
  expect_holds(&r, "plus-exact");
  expect_pair(&r, "opt", 0, 0);
  expect_pair(&r, "inv", 1, 0);
  assert_true(r.consistent);   /* flags do not count */
  cat_rel_result_fini(&r);
  fx_fini(&f);
}

static void test_cat_acyclic_witness(void **state) {
  (void)state;
  fx f;
  fx_init(&f, 5);
  fx_rel(&f, "co", "0>1 1>2 2>3 3>1 3>4");
  fx_set(&f, "SYS", "3");   /* only builtin names load; these two pick out the back edge */
  fx_set(&f, "CTA", "1");
  cat_rel_result r;
  run(&f, "acyclic co as A\nacyclic co \\ (SYS * CTA) as B\n", &r);
  const cat_rel_check *a = get(&r, "A");
  assert_false(a->holds);
  assert_int_equal(a->ncycle, 3);
  assert_int_equal(a->cycle[0], 1);
  assert_int_equal(a->cycle[1], 2);
  assert_int_equal(a->cycle[2], 3);
  expect_holds(&r, "B");
  assert_null(get(&r, "B")->cycle);
  assert_false(r.consistent);
  cat_rel_result_fini(&r);
  fx_fini(&f);
}

static void test_cat_acyclic_after_removing_edge(void **state) {
  (void)state;
  fx f;
  fx_init(&f, 4);
  fx_rel(&f, "co", "0>1 1>2 2>1");
  fx_set(&f, "W", "2");
  cat_rel_result r;
  run(&f, "acyclic co \\ ([W] ; co) as A\nirreflexive co;co as I\nirreflexive co as J\n", &r);
  expect_holds(&r, "A");
  const cat_rel_check *i = get(&r, "I");
  assert_false(i->holds);
  assert_int_equal(i->a, 1);
  assert_int_equal(i->b, 1);
  expect_holds(&r, "J");
  cat_rel_result_fini(&r);
  fx_fini(&f);
}

static void test_cat_seq_empty(void **state) {
  (void)state;
  fx f;
  chain(&f);
  cat_rel_result r;
  run(&f,
      "empty [W] ; po ; [W] as no-ww\n"
      "empty rf \\ po as rf-in-po\n"
      "flag ~empty [W]; po; [R] as wr\n"
      "empty 0 as zero\n"
      "flag ~empty _ as all\n"
      "empty W & R as set-check\n"
      "flag ~empty W | R as set-flag\n",
      &r);
  expect_holds(&r, "no-ww");
  expect_holds(&r, "rf-in-po");
  expect_pair(&r, "wr", 1, 3);
  expect_holds(&r, "zero");
  expect_pair(&r, "all", 0, 0);
  expect_holds(&r, "set-check");
  expect_pair(&r, "set-flag", 1, 1);   /* a set S is checked as [S] */
  cat_rel_result_fini(&r);
  fx_fini(&f);
}

static void test_cat_builtin_functions(void **state) {
  (void)state;
  fx f;
  chain(&f);
  cat_rel_result r;
  run(&f,
      "flag ~empty fencerel(F) as fr\n"
      "flag ~empty domain(rf) as dom\n"
      "flag ~empty range(rf) as ran\n"
      "flag ~empty (W * R) \\ rf as prod\n"
      "flag ~empty ~po & po^-1 as compl\n",
      &r);
  expect_pair(&r, "fr", 0, 3);
  expect_pair(&r, "dom", 1, 1);
  expect_pair(&r, "ran", 3, 3);
  expect_holds(&r, "prod");
  expect_pair(&r, "compl", 1, 0);
  cat_rel_result_fini(&r);
  fx_fini(&f);
}

/* fencerel(F) = po; [F]; po: exactly the pairs around the fence. */
static void test_cat_fencerel_exact(void **state) {
  (void)state;
  fx f;
  chain(&f);
  fx_set(&f, "GPU", "0 1");   /* the events before the fence */
  fx_set(&f, "SYS", "3 4");   /* and after it */
  cat_rel_result r;
  run(&f, "empty fencerel(F) \\ (GPU * SYS) as sub\nempty (GPU * SYS) \\ fencerel(F) as sup\n", &r);
  expect_holds(&r, "sub");
  expect_holds(&r, "sup");
  cat_rel_result_fini(&r);
  fx_fini(&f);
}

static void test_cat_let_rec_fixpoint(void **state) {
  (void)state;
  fx f;
  fx_init(&f, 6);
  fx_rel(&f, "rf", "0>1 1>2 2>3 3>4 4>5");
  cat_rel_result r;
  run(&f,
      "let rec t = rf | t ; rf\n"
      "empty (t \\ rf+) | (rf+ \\ t) as closure\n"
      "let rec odd = rf | even ; rf and even = odd ; rf\n"
      "empty odd \\ (rf | rf;rf;rf | rf;rf;rf;rf;rf) as odd-sub\n"
      "empty (rf | rf;rf;rf | rf;rf;rf;rf;rf) \\ odd as odd-sup\n"
      "empty even \\ (rf;rf | rf;rf;rf;rf) as even-sub\n"
      "empty (rf;rf | rf;rf;rf;rf) \\ even as even-sup\n"
      "let rec s = domain(rf) | range([s] ; rf)\n"
      "flag ~empty ~s as not-s\n",
      &r);
  expect_holds(&r, "closure");
  expect_holds(&r, "odd-sub");
  expect_holds(&r, "odd-sup");
  expect_holds(&r, "even-sub");
  expect_holds(&r, "even-sup");
  assert_true(get(&r, "not-s")->holds);   /* every event is reached */
  cat_rel_result_fini(&r);
  fx_fini(&f);
}

/* herd allows definitions that are not monotone; iteration stops at the
 * limit and says nothing. */
static void test_cat_let_rec_not_monotone_stops(void **state) {
  (void)state;
  fx f;
  fx_init(&f, 2);
  fx_rel(&f, "rf", "0>1");
  cat_rel_result r;
  run(&f, "let rec a = ~a\nflag ~empty a as A\n", &r);
  assert_int_equal(r.n, 1);
  cat_rel_result_fini(&r);
  fx_fini(&f);
}

static void test_cat_function_expansion(void **state) {
  (void)state;
  fx f;
  chain(&f);
  cat_rel_result r;
  run(&f,
      "let seq2(a, b) = a ; b\n"
      "let between(S, T) = [S] ; po ; [T]\n"
      "let twice(r) = seq2(r, r)\n"
      "empty seq2(po, rf) \\ (po ; rf) as seq\n"
      "flag ~empty between(W, R) as wr\n"
      "flag ~empty twice(rf | po) \\ po as tw\n"
      "let both(a, b) = a & b\n"               /* one body, two types */
      "flag ~empty both(W | R, R) as sets\n"
      "flag ~empty both(po, rf) as rels\n",
      &r);
  expect_holds(&r, "seq");
  expect_pair(&r, "wr", 1, 3);
  assert_true(get(&r, "tw")->holds);
  expect_pair(&r, "sets", 3, 3);
  expect_pair(&r, "rels", 1, 3);
  cat_rel_result_fini(&r);
  fx_fini(&f);
}

/* herd's functions are values: `let imm = singlestep` names herd's
 * stdlib function again (the c11popl15 models), as `let` names a user
 * function or, inside `let ... in`, a local one; herd's stdlib
 * procedures (subseteq, inclusion, total) are there without an include. */
static void test_cat_function_alias(void **state) {
  (void)state;
  fx f;
  chain(&f);
  cat_rel_result r;
  run(&f,
      "let imm = singlestep\n"
      "flag ~empty imm(po) as step\n"
      "flag ~empty imm(po) & (po ; po) as nested\n"
      "let seq2(a, b) = a ; b\n"
      "let s = seq2\n"
      "empty s(po, rf) \\ (po ; rf) as alias\n"
      "let x = let h = imm in h(rf)\n"
      "flag ~empty x as local\n"
      "call subseteq(rf, po) as sub\n"
      "call subseteq(po, rf) as notsub\n"
      "call total(po, R | W) as tot\n",
      &r);
  expect_pair(&r, "step", 0, 1);
  expect_holds(&r, "nested");
  expect_holds(&r, "alias");
  expect_pair(&r, "local", 1, 3);
  expect_holds(&r, "sub");
  expect_pair(&r, "notsub", 0, 1);
  expect_pair(&r, "tot", 1, 1);   /* herd's total: E * E has (e, e), r | r^-1 not */
  cat_rel_result_fini(&r);
  fx_fini(&f);
}

static void test_cat_shadowing(void **state) {
  (void)state;
  fx f;
  chain(&f);
  cat_rel_result r;
  run(&f,
      "let x = rf\n"
      "let x = x | po\n"              /* the previous x */
      "flag ~empty x \\ po as first\n"
      "let po = rf\n"                 /* a builtin shadowed */
      "flag ~empty po as shadowed\n"
      "let f(a) = a ; po\n"           /* the po of the function's definition */
      "let po = 0\n"
      "flag ~empty f(_ * _) as lexical\n",
      &r);
  assert_true(get(&r, "first")->holds);   /* rf is inside po */
  expect_pair(&r, "shadowed", 1, 3);
  expect_pair(&r, "lexical", 0, 3);
  cat_rel_result_fini(&r);
  fx_fini(&f);
}

/* --show's named relations: the lets (the last of a name bound twice),
 * function arguments' values left out, those a check names itself; and
 * their values, each a copy the caller owns. */
static void test_cat_named_relations(void **state) {
  (void)state;
  fx f;
  chain(&f);
  cat_model *m = load("let a = rf\n"
                      "let a = a | po\n"
                      "let b = po ; po\n"
                      "let S = W | R\n"
                      "let g(x) = x ; rf\n"
                      "let c = g(po | rf)\n"
                      "acyclic a | b as A\n"
                      "flag ~empty c as C\n");
  /* all of them: the language's own lets (po-loc, rfe, ...) first, then the file's */
  size_t *v = NULL, n = cat_model_relations(m, false, &v);
  assert_true(n >= 3);
  assert_string_equal(cat_model_value_name(m, v[n - 3]), "a");
  assert_string_equal(cat_model_value_name(m, v[n - 2]), "b");
  assert_string_equal(cat_model_value_name(m, v[n - 1]), "c");
  for (size_t i = 0; i < n; i++) assert_null(strchr(cat_model_value_name(m, v[i]), '('));
  free(v);
  n = cat_model_relations(m, true, &v);   /* a | b names a and b; c is read by C */
  assert_int_equal(n, 3);
  size_t id;
  assert_true(cat_model_find_relation(m, "a", &id));
  assert_int_equal(id, v[0]);
  assert_false(cat_model_find_relation(m, "S", &id));   /* a set */
  assert_false(cat_model_find_relation(m, "nosuch", &id));
  void *out[3] = {NULL, NULL, NULL};
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  assert_int_equal(cat_rel_eval_values(m, f.n, fx_builtin, &f, v, n, out, &d), 0);
  lc_diag_fini(&d);
  /* a = rf | po: 1>3 and po; b = po;po: 0>2 but not 0>1; c = (po | rf);rf: 0>3 */
  assert_true(rel_has(out[0], 1, 3) && rel_has(out[0], 0, 1));
  assert_true(rel_has(out[1], 0, 2) && !rel_has(out[1], 0, 1));
  assert_true(rel_has(out[2], 0, 3) && !rel_has(out[2], 1, 2));
  for (size_t i = 0; i < n; i++) rel_free(out[i]);
  free(v);
  cat_model_free(m);
  fx_fini(&f);
}

/* Builtins are asked for only when a check needs them, at most once. */
static void test_cat_lazy_builtins(void **state) {
  (void)state;
  fx f;
  chain(&f);
  fx_rel(&f, "co", "");
  cat_rel_result r;
  run(&f,
      "let unused = co ; co\n"
      "let twice = po | po\n"
      "acyclic po as A\nacyclic twice as B\nempty po & rf as C\n",
      &r);
  assert_int_equal(fx_calls(&f, "co"), 0);
  assert_int_equal(fx_calls(&f, "po"), 1);
  assert_int_equal(fx_calls(&f, "rf"), 1);
  cat_rel_result_fini(&r);
  fx_fini(&f);
}

static void test_cat_missing_builtin_reported_at_first_use(void **state) {
  (void)state;
  fx f;
  chain(&f);
  cat_model *m = load("let x = po\nlet y = x | sync_bar\nacyclic y as A\nacyclic sync_bar as B\n");
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  cat_rel_result r;
  assert_int_equal(cat_rel_eval(m, f.n, fx_builtin, &f, &r, &d), -1);
  assert_string_equal(lc_diag_first_error(&d),
                      "t.cat:2:13: error: the engine does not provide the builtin 'sync_bar'");
  assert_int_equal(r.n, 0);
  lc_diag_fini(&d);
  cat_model_free(m);
  fx_fini(&f);
}

static void test_cat_wrong_size_builtin(void **state) {
  (void)state;
  fx f;
  chain(&f);
  cat_model *m = load("acyclic po as A\n");
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  cat_rel_result r;
  assert_int_equal(cat_rel_eval(m, 7, fx_builtin, &f, &r, &d), -1);
  assert_string_equal(lc_diag_first_error(&d), "error: the engine's builtin 'po' has 5 events instead of 7");
  lc_diag_fini(&d);
  cat_model_free(m);
  fx_fini(&f);
}

/* ---- ownership: a backend that counts values ----------------------------------------- */

typedef struct counting {
  fx *f;
  long live, made, checks;
  bool fail_builtin;      /* return NULL for "co" */
} counting;

static cat_value cnt_builtin(void *ctx, const char *name, cat_type *type) {
  counting *c = ctx;
  if (c->fail_builtin && strcmp(name, "co") == 0) return NULL;
  void *v = fx_builtin(c->f, name, type);
  if (v) c->live++, c->made++;
  return v;
}

static cat_value cnt_op(void *ctx, cat_op op, cat_type type, cat_value a, cat_value b) {
  counting *c = ctx;
  c->live++, c->made++;
  return cat_rel_op(c->f->n, op, type, a, b);
}

static bool cnt_same(void *ctx, cat_type type, cat_value a, cat_value b) {
  (void)ctx;
  return cat_rel_same(type, a, b);
}

static void cnt_check(void *ctx, cat_check_kind kind, bool flag, cat_value v, const char *name, lc_loc at) {
  (void)kind, (void)flag, (void)v, (void)name, (void)at;
  ((counting *)ctx)->checks++;
}

static void cnt_release(void *ctx, cat_type type, cat_value v) {
  counting *c = ctx;
  c->live--;
  cat_rel_free(type, v);
}

static void test_cat_every_value_released_once(void **state) {
  (void)state;
  static const char *const models[] = {
    "let a = po ; rf\nlet b = a | a\nacyclic b as A\nirreflexive a as B\nempty a & b as C\n",
    "let rec t = rf | t ; po and u = t | u\nlet f(x, y) = x ; y | t\nacyclic f(u, po; po) as A\n"
    "flag ~empty f(rf, rf) as B\n",
    "let rec a = b and b = a | po\nempty a as A\n",   /* a member that only names another */
    "let x = po\nlet y = x\nlet z = y\nempty z as A\nempty x as B\n",
    "let g(S) = [S] ; po\nlet h(S) = g(S) ; g(S)\nempty h(W | R) as A\nempty h(W) as B\n",
    "let a = po\nlet rec t = t | a ; co\nempty t as A\n",   /* co missing when fail_builtin */
  };
  for (int fail = 0; fail < 2; fail++)
    for (size_t i = 0; i < LC_ARRAY_LEN(models); i++) {
      fx f;
      chain(&f);
      fx_rel(&f, "co", "1>1");
      counting c = {&f, 0, 0, 0, fail == 1};
      cat_backend be = {cnt_builtin, cnt_op, cnt_same, 50, cnt_check, cnt_release, &c, NULL};
      cat_model *m = load(models[i]);
      lc_diag d;
      lc_diag_init(&d, NULL, NULL);
      int rc = cat_eval(m, &be, &d);
      assert_int_equal(rc, fail && strstr(models[i], "co") ? -1 : 0);
      if (c.live != 0) fail_msg("model %zu (fail=%d): %ld values not released", i, fail, c.live);
      assert_true(c.made > 0);
      if (rc == 0) assert_int_equal(c.checks, cat_model_nchecks(m));
      lc_diag_fini(&d);
      cat_model_free(m);
      fx_fini(&f);
    }
}

/* ---- may/must --------------------------------------------------------------------- */

typedef struct rng { uint64_t s; } rng;

static uint64_t next(rng *r) {
  r->s ^= r->s >> 12;
  r->s ^= r->s << 25;
  r->s ^= r->s >> 27;
  return r->s * 2685821657736338717ULL;
}

static bool subset(cat_type t, const void *a, const void *b) {
  void *d = cat_rel_op(t == CAT_TY_SET ? ((const rel_set *)a)->n : ((const rel_rel *)a)->n,
                       CAT_OP_DIFF, t, a, b);
  bool e = t == CAT_TY_SET ? rel_set_empty(d) : rel_empty(d);
  cat_rel_free(t, d);
  return e;
}

/* Random bounds (may, must) and a concrete value between them. */
static void rand_bounds(rng *g, cat_type t, size_t n, cat_mm **bounds, void **val) {
  void *may = cat_rel_op(n, CAT_OP_EMPTY, t, NULL, NULL);
  void *must = cat_rel_op(n, CAT_OP_EMPTY, t, NULL, NULL);
  void *v = cat_rel_op(n, CAT_OP_EMPTY, t, NULL, NULL);
  size_t rows = t == CAT_TY_SET ? 1 : n;
  for (size_t a = 0; a < rows; a++)
    for (size_t b = 0; b < n; b++) {
      unsigned k = next(g) % 6;   /* 0-1 outside may, 2 must, 3-5 may only */
      if (k < 2) continue;
      bool in_must = k == 2, in_v = in_must || (next(g) & 1);
      if (t == CAT_TY_SET) {
        rel_set_add(may, b);
        if (in_must) rel_set_add(must, b);
        if (in_v) rel_set_add(v, b);
      } else {
        rel_add(may, a, b);
        if (in_must) rel_add(must, a, b);
        if (in_v) rel_add(v, a, b);
      }
    }
  *bounds = cat_mm_new(t, may, must);
  *val = v;
}

/* A random expression, evaluated at once both ways. */
typedef struct pair_val {
  cat_type t;
  cat_mm *mm;
  void *v;
} pair_val;

static pair_val gen(rng *g, size_t n, cat_type want, int depth) {
  pair_val r = {want, NULL, NULL};
  unsigned k = depth <= 0 ? 0 : (unsigned)(next(g) % 10);
  static const cat_op rel_unary[] = {CAT_OP_COMPL, CAT_OP_INVERSE, CAT_OP_PLUS, CAT_OP_STAR, CAT_OP_OPT};
  static const cat_op binary[] = {CAT_OP_UNION, CAT_OP_INTER, CAT_OP_DIFF};
  cat_op op;
  pair_val a = {0}, b = {0};
  if (k <= 1) {
    rand_bounds(g, want, n, &r.mm, &r.v);
    return r;
  }
  if (k <= 4) {
    op = binary[next(g) % 3];
    a = gen(g, n, want, depth - 1);
    b = gen(g, n, want, depth - 1);
  } else if (want == CAT_TY_REL && k <= 6) {
    op = k == 5 ? CAT_OP_SEQ : CAT_OP_PRODUCT;
    a = gen(g, n, op == CAT_OP_SEQ ? CAT_TY_REL : CAT_TY_SET, depth - 1);
    b = gen(g, n, a.t, depth - 1);
  } else if (want == CAT_TY_REL && k <= 8) {
    op = rel_unary[next(g) % 5];
    a = gen(g, n, CAT_TY_REL, depth - 1);
  } else if (want == CAT_TY_REL) {
    op = CAT_OP_IDSET;
    a = gen(g, n, CAT_TY_SET, depth - 1);
  } else if (k <= 6) {
    op = CAT_OP_COMPL;
    a = gen(g, n, CAT_TY_SET, depth - 1);
  } else {
    op = k <= 8 ? CAT_OP_DOMAIN : CAT_OP_RANGE;
    a = gen(g, n, CAT_TY_REL, depth - 1);
  }
  r.mm = cat_mm_op(n, op, a.t, a.mm, b.mm);
  r.v = cat_rel_op(n, op, a.t, a.v, b.v);
  assert_int_equal(r.mm->type, want);
  /* the in-place form gives the same, whatever its room held before */
  cat_mm *room;
  void *junk;
  rand_bounds(g, want, n, &room, &junk);
  cat_mm_op_into(n, op, a.t, a.mm, b.mm, room);
  assert_true(cat_mm_same(room, r.mm));
  cat_mm_free(room);
  cat_rel_free(want, junk);
  cat_mm_free(a.mm), cat_mm_free(b.mm);
  cat_rel_free(a.t, a.v);
  if (b.v) cat_rel_free(b.t, b.v);
  return r;
}

static void test_cat_mm_ops_sound_random(void **state) {
  (void)state;
  rng g = {0x5eed5eed5eedULL};
  size_t tight = 0;
  for (int i = 0; i < 4000; i++) {
    size_t n = 1 + next(&g) % 9;
    cat_type t = next(&g) % 3 ? CAT_TY_REL : CAT_TY_SET;
    pair_val p = gen(&g, n, t, 1 + (int)(next(&g) % 4));
    if (!subset(t, p.mm->must, p.mm->may)) fail_msg("case %d: must not within may", i);
    if (!subset(t, p.mm->must, p.v)) fail_msg("case %d: a must pair is missing from the value", i);
    if (!subset(t, p.v, p.mm->may)) fail_msg("case %d: the value has a pair outside may", i);
    tight += cat_rel_same(t, p.mm->may, p.mm->must);
    cat_mm_free(p.mm);
    cat_rel_free(t, p.v);
  }
  assert_true(tight < 4000);   /* the bounds are not trivially exact */
}

/* Bounds for whole models, through cat_eval and let rec: a concrete
 * execution drawn within the builtins' bounds evaluates within the
 * bounds of every checked relation. */
typedef struct mmfx {
  size_t n;
  const char *names[6];
  cat_type types[6];
  cat_mm *bounds[6];
  void *vals[6];
} mmfx;

static cat_mm *mmfx_builtin(void *u, const char *name, cat_type *type) {
  mmfx *f = u;
  for (size_t i = 0; i < 6; i++)
    if (strcmp(f->names[i], name) == 0) return cat_mm_copy(f->bounds[i]);
  (void)type;
  return NULL;
}

static void *mmfx_exact(void *u, const char *name, cat_type *type) {
  mmfx *f = u;
  for (size_t i = 0; i < 6; i++)
    if (strcmp(f->names[i], name) == 0) return cat_rel_copy(*type, f->vals[i]);
  return NULL;
}

typedef struct capture {
  size_t n;
  LC_VEC(rel_rel *) vals;
} capture;

static cat_value cap_builtin(void *ctx, const char *name, cat_type *type) {
  return mmfx_exact(((void **)ctx)[1], name, type);
}
static cat_value cap_op(void *ctx, cat_op op, cat_type t, cat_value a, cat_value b) {
  return cat_rel_op(((capture *)((void **)ctx)[0])->n, op, t, a, b);
}
static bool cap_same(void *ctx, cat_type t, cat_value a, cat_value b) {
  (void)ctx;
  return cat_rel_same(t, a, b);
}
static void cap_check(void *ctx, cat_check_kind k, bool flag, cat_value v, const char *name, lc_loc at) {
  (void)k, (void)flag, (void)name, (void)at;
  capture *c = ((void **)ctx)[0];
  lc_vec_push(&c->vals, rel_copy(v));
}
static void cap_release(void *ctx, cat_type t, cat_value v) {
  (void)ctx;
  cat_rel_free(t, v);
}

static void test_cat_mm_eval_sound_random(void **state) {
  (void)state;
  cat_model *m = load(
      "let rec t = rf | t ; (po \\ co)\n"
      "let rec a = [W] ; po | b ; rf and b = a ; (co | po^-1) | [R]\n"
      "let e = ~(t | a) & (W * R) | [domain(b) \\ W]\n"
      "acyclic t | co as A\n"
      "irreflexive a ; b as B\n"
      "empty e \\ po as C\n"
      "flag ~empty (t \\ a)+ as D\n");
  rng g = {2024};
  size_t verdicts[3] = {0};
  for (int i = 0; i < 1500; i++) {
    mmfx f = {1 + next(&g) % 7, {"po", "rf", "co", "W", "R", "id"},
              {CAT_TY_REL, CAT_TY_REL, CAT_TY_REL, CAT_TY_SET, CAT_TY_SET, CAT_TY_REL}, {0}, {0}};
    for (size_t j = 0; j < 6; j++) rand_bounds(&g, f.types[j], f.n, &f.bounds[j], &f.vals[j]);
    lc_diag d;
    lc_diag_init(&d, NULL, NULL);
    cat_mm_result mr;
    assert_int_equal(cat_mm_eval(m, f.n, mmfx_builtin, &f, &mr, &d), 0);
    capture cap = {f.n, {0}};
    void *ctx[2] = {&cap, &f};
    cat_backend be = {cap_builtin, cap_op, cap_same, f.n * f.n + 1, cap_check, cap_release, ctx, NULL};
    assert_int_equal(cat_eval(m, &be, &d), 0);
    cat_rel_result er;
    assert_int_equal(cat_rel_eval(m, f.n, mmfx_exact, &f, &er, &d), 0);
    assert_int_equal(mr.n, cap.vals.n);
    for (size_t c = 0; c < mr.n; c++) {
      const cat_mm *b = mr.checks[c].value;
      if (!subset(CAT_TY_REL, b->must, cap.vals.v[c]) || !subset(CAT_TY_REL, cap.vals.v[c], b->may))
        fail_msg("case %d, check %s: value outside its bounds", i, mr.checks[c].name);
      cat_mm_verdict v = mr.checks[c].verdict;
      verdicts[v]++;
      if (v == CAT_MM_HOLDS) assert_true(er.checks[c].holds);
      if (v == CAT_MM_FAILS) assert_false(er.checks[c].holds);
      rel_free(cap.vals.v[c]);
    }
    lc_vec_free(&cap.vals);
    cat_rel_result_fini(&er);
    cat_mm_result_fini(&mr);
    lc_diag_fini(&d);
    for (size_t j = 0; j < 6; j++) {
      cat_mm_free(f.bounds[j]);
      cat_rel_free(f.types[j], f.vals[j]);
    }
  }
  assert_true(verdicts[CAT_MM_HOLDS] > 0 && verdicts[CAT_MM_FAILS] > 0 && verdicts[CAT_MM_UNKNOWN] > 0);
  cat_model_free(m);
}

static void test_cat_mm_complement_and_difference(void **state) {
  (void)state;
  size_t n = 3;
  rel_rel *may = rel_new(n), *must = rel_new(n);
  rel_add(may, 0, 1);
  rel_add(may, 1, 2);
  rel_add(must, 0, 1);
  cat_mm *a = cat_mm_new(CAT_TY_REL, may, must);
  cat_mm *c = cat_mm_op(n, CAT_OP_COMPL, CAT_TY_REL, a, NULL);
  assert_false(rel_has(c->may, 0, 1));   /* certainly in a: certainly not in ~a */
  assert_true(rel_has(c->may, 1, 2));
  assert_false(rel_has(c->must, 1, 2));   /* maybe in a: maybe in ~a */
  assert_true(rel_has(c->must, 2, 0));
  cat_mm *d = cat_mm_op(n, CAT_OP_DIFF, CAT_TY_REL, c, a);
  assert_true(rel_equal(d->must, c->must));
  assert_false(rel_has(d->may, 0, 1));
  cat_mm_free(a), cat_mm_free(c), cat_mm_free(d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_cat_closure),
    cmocka_unit_test(test_cat_acyclic_witness),
    cmocka_unit_test(test_cat_acyclic_after_removing_edge),
    cmocka_unit_test(test_cat_seq_empty),
    cmocka_unit_test(test_cat_builtin_functions),
    cmocka_unit_test(test_cat_fencerel_exact),
    cmocka_unit_test(test_cat_let_rec_fixpoint),
    cmocka_unit_test(test_cat_let_rec_not_monotone_stops),
    cmocka_unit_test(test_cat_function_expansion),
    cmocka_unit_test(test_cat_function_alias),
    cmocka_unit_test(test_cat_shadowing),
    cmocka_unit_test(test_cat_lazy_builtins),
    cmocka_unit_test(test_cat_missing_builtin_reported_at_first_use),
    cmocka_unit_test(test_cat_wrong_size_builtin),
    cmocka_unit_test(test_cat_every_value_released_once),
    cmocka_unit_test(test_cat_named_relations),
    cmocka_unit_test(test_cat_mm_ops_sound_random),
    cmocka_unit_test(test_cat_mm_eval_sound_random),
    cmocka_unit_test(test_cat_mm_complement_and_difference),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
