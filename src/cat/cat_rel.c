/* cat_rel.c - exact and may/must backends over rel_ bitsets.
 * SPDX-License-Identifier: MIT
 */
#include "cat/cat_rel.h"
#include "cat/cat_int.h"
#include "cat/cat_lin.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* ---- exact operations ------------------------------------------------------ */

static void *set_op(size_t n, cat_op op, const rel_set *a, const rel_set *b) {
  rel_set *r;
  switch (op) {
  case CAT_OP_EMPTY: return rel_set_new(n);
  case CAT_OP_UNION: r = rel_set_copy(a); rel_set_union_into(r, b); return r;
  case CAT_OP_INTER: r = rel_set_copy(a); rel_set_inter_into(r, b); return r;
  case CAT_OP_DIFF: r = rel_set_copy(a); rel_set_diff_into(r, b); return r;
  case CAT_OP_COMPL: r = rel_set_copy(a); rel_set_compl_into(r); return r;
  case CAT_OP_PRODUCT: return rel_product(a, b);
  case CAT_OP_IDSET: return rel_idset(a);
  default: return NULL;
  }
}

static void *rel_op(size_t n, cat_op op, const rel_rel *a, const rel_rel *b) {
  rel_rel *r;
  switch (op) {
  case CAT_OP_EMPTY: return rel_new(n);
  case CAT_OP_UNION: r = rel_copy(a); rel_union_into(r, b); return r;
  case CAT_OP_INTER: r = rel_copy(a); rel_inter_into(r, b); return r;
  case CAT_OP_DIFF: r = rel_copy(a); rel_diff_into(r, b); return r;
  case CAT_OP_COMPL: r = rel_copy(a); rel_compl_into(r); return r;
  case CAT_OP_SEQ: return rel_seq(a, b);
  case CAT_OP_INVERSE: return rel_inverse(a);
  case CAT_OP_PLUS: r = rel_copy(a); rel_plus_into(r); return r;
  case CAT_OP_STAR: r = rel_copy(a); rel_star_into(r); return r;
  case CAT_OP_OPT: r = rel_copy(a); rel_opt_into(r); return r;
  case CAT_OP_DOMAIN: return rel_domain(a);
  case CAT_OP_RANGE: return rel_range(a);
  default: return NULL;
  }
}

void *cat_rel_op(size_t n, cat_op op, cat_type type, const void *a, const void *b) {
  return type == CAT_TY_SET ? set_op(n, op, a, b) : rel_op(n, op, a, b);
}

static void set_assign(rel_set *d, const rel_set *s) { memcpy(d->w, s->w, s->words * sizeof(uint64_t)); }

/* The result of op into d, a value of the result's type and size that is
 * neither operand; the operations an engine's search repeats most are
 * done in place, the rare ones through a new value. */
static void rel_op_into(size_t n, cat_op op, cat_type type, const void *a, const void *b, void *d) {
  if (type == CAT_TY_SET) {
    switch (op) {
    case CAT_OP_EMPTY: memset(((rel_set *)d)->w, 0, ((rel_set *)d)->words * sizeof(uint64_t)); return;
    case CAT_OP_UNION: set_assign(d, a); rel_set_union_into(d, b); return;
    case CAT_OP_INTER: set_assign(d, a); rel_set_inter_into(d, b); return;
    case CAT_OP_DIFF: set_assign(d, a); rel_set_diff_into(d, b); return;
    case CAT_OP_COMPL: set_assign(d, a); rel_set_compl_into(d); return;
    default: break;
    }
  } else {
    switch (op) {
    case CAT_OP_EMPTY: rel_clear(d); return;
    case CAT_OP_UNION: rel_assign(d, a); rel_union_into(d, b); return;
    case CAT_OP_INTER: rel_assign(d, a); rel_inter_into(d, b); return;
    case CAT_OP_DIFF: rel_assign(d, a); rel_diff_into(d, b); return;
    case CAT_OP_COMPL: rel_assign(d, a); rel_compl_into(d); return;
    case CAT_OP_SEQ: rel_seq_into(d, a, b); return;
    case CAT_OP_INVERSE: rel_inverse_into(d, a); return;
    case CAT_OP_PLUS: rel_assign(d, a); rel_plus_into(d); return;
    case CAT_OP_STAR: rel_assign(d, a); rel_star_into(d); return;
    case CAT_OP_OPT: rel_assign(d, a); rel_opt_into(d); return;
    default: break;
    }
  }
  /* the operations between sets and relations: [S], S * T, domain and
   * range, built by every model's definitions (each through a new value
   * and a copy, they were a fifth of the explicit engine's allocations) */
  switch (op) {
  case CAT_OP_IDSET: {
    rel_rel *r = d;
    rel_clear(r);
    REL_SET_FOREACH(i, (const rel_set *)a) rel_add(r, i, i);
    return;
  }
  case CAT_OP_PRODUCT: {
    rel_rel *r = d;
    const rel_set *sb = b;
    rel_clear(r);
    REL_SET_FOREACH(i, (const rel_set *)a) memcpy(rel_row(r, i), sb->w, r->words * sizeof(uint64_t));
    return;
  }
  case CAT_OP_DOMAIN: case CAT_OP_RANGE: {
    const rel_rel *r = a;
    rel_set *o = d;
    memset(o->w, 0, o->words * sizeof(uint64_t));
    for (size_t x = 0; x < r->n; x++) {
      const uint64_t *row = rel_row(r, x);
      for (size_t i = 0; i < r->words; i++) {
        if (op == CAT_OP_RANGE) o->w[i] |= row[i];
        else if (row[i]) {
          rel_set_add(o, x);
          break;
        }
      }
    }
    return;
  }
  default: break;
  }
  cat_type rt = cat_op_result_type(op, type);
  void *v = cat_rel_op(n, op, type, a, b);
  if (rt == CAT_TY_SET) set_assign(d, v);
  else rel_assign(d, v);
  cat_rel_free(rt, v);
}

bool cat_rel_same(cat_type type, const void *a, const void *b) {
  return type == CAT_TY_SET ? rel_set_equal(a, b) : rel_equal(a, b);
}

void *cat_rel_copy(cat_type type, const void *v) {
  return type == CAT_TY_SET ? (void *)rel_set_copy(v) : (void *)rel_copy(v);
}

void cat_rel_free(cat_type type, void *v) {
  if (type == CAT_TY_SET) rel_set_free(v);
  else rel_free(v);
}

static size_t size_of(cat_type type, const void *v) {
  return type == CAT_TY_SET ? ((const rel_set *)v)->n : ((const rel_rel *)v)->n;
}

/* n*n+1 rounds reach the fixed point of a monotone definition: each round
 * that changes something adds at least one of the n*n pairs. */
static size_t rec_limit(size_t n) { return n * n + 1; }

/* ---- exact backend --------------------------------------------------------------- */

/* A `with x from linearisations(S, r)` met in an evaluation: the orders
 * of the S and r it was last met with, kept while they stay the same. */
typedef struct choice {
  rel_set *s;
  rel_rel *r;
  cat_lin lin;
} choice;

typedef struct exact {
  size_t n;
  cat_rel_builtin_fn builtin;
  void *uctx;
  lc_diag *d;
  LC_VEC(cat_rel_check) checks;
  LC_VEC(choice) ch;         /* per choice point, in the order met */
  LC_VEC(size_t) pick;       /* per choice point: the order this evaluation takes */
  size_t met;                /* choice points met in this evaluation */
} exact;

static cat_value ex_builtin(void *ctx, const char *name, cat_type *type) {
  exact *x = ctx;
  void *v = x->builtin(x->uctx, name, type);
  if (v && size_of(*type, v) != x->n) {
    lc_error(x->d, (lc_loc){0}, "the engine's builtin '%s' has %zu events instead of %zu", name,
             size_of(*type, v), x->n);
    cat_rel_free(*type, v);
    return NULL;
  }
  return v;
}

/* The order the evaluation takes at its next choice point. */
static cat_value ex_linear(exact *x, const rel_set *s, const rel_rel *r) {
  size_t k = x->met++;
  if (k == x->ch.n) {
    choice c = {0};
    lc_vec_push(&x->ch, c);
  }
  while (x->pick.n <= k) lc_vec_push(&x->pick, (size_t)0);
  choice *c = &x->ch.v[k];
  if (!c->s || !rel_set_equal(c->s, s) || !rel_equal(c->r, r)) {
    rel_set_free(c->s);
    rel_free(c->r);
    cat_lin_fini(&c->lin);
    c->s = rel_set_copy(s);
    c->r = rel_copy(r);
    if (cat_lin_orders(s, r, CAT_MAX_LINEARISATIONS, &c->lin) < 0) {
      lc_error(x->d, (lc_loc){0}, "'with ... from linearisations(S, r)': more than %d orders of the %zu events "
               "of S (their number grows as the factorial of the events r leaves unordered)",
               CAT_MAX_LINEARISATIONS, c->lin.k);
      rel_set_free(c->s);
      rel_free(c->r);
      c->s = NULL;
      c->r = NULL;
      return NULL;
    }
  }
  /* no order (r+ has a cycle within S): the model's NAME-exists check
   * fails, whatever this value */
  if (c->lin.n == 0) return rel_new(x->n);
  if (x->pick.v[k] >= c->lin.n) x->pick.v[k] = 0;
  return cat_lin_order(&c->lin, x->pick.v[k], x->n);
}

static cat_value ex_op(void *ctx, cat_op op, cat_type type, cat_value a, cat_value b) {
  if (op == CAT_OP_LINEAR) return ex_linear(ctx, a, b);
  return cat_rel_op(((exact *)ctx)->n, op, type, a, b);
}

static bool ex_same(void *ctx, cat_type type, cat_value a, cat_value b) {
  (void)ctx;
  return cat_rel_same(type, a, b);
}

static void ex_release(void *ctx, cat_type type, cat_value v) {
  (void)ctx;
  cat_rel_free(type, v);
}

static bool first_reflexive(const rel_rel *r, size_t *e) {
  for (size_t i = 0; i < r->n; i++)
    if (rel_has(r, i, i)) {
      *e = i;
      return true;
    }
  return false;
}

static void ex_check(void *ctx, cat_check_kind kind, bool flag, cat_value v, const char *name,
                     lc_loc at) {
  exact *x = ctx;
  const rel_rel *r = v;
  cat_rel_check c = {lc_xstrdup(name), kind, flag, at, true, NULL, 0, 0, 0, NULL};
  if (kind == CAT_CHECK_ACYCLIC) {
    c.cycle = lc_xmalloc((r->n ? r->n : 1) * sizeof *c.cycle);
    c.holds = rel_acyclic(r, c.cycle, &c.ncycle);
    if (c.holds) {
      free(c.cycle);
      c.cycle = NULL;
    }
  } else if (kind == CAT_CHECK_IRREFLEXIVE) {
    c.holds = !first_reflexive(r, &c.a);
    c.b = c.a;
  } else {
    c.holds = !rel_first_pair(r, &c.a, &c.b);
    if (flag && !c.holds) c.rel = rel_copy(r);
  }
  lc_vec_push(&x->checks, c);
}

static void free_checks(cat_rel_check *c, size_t n) {
  for (size_t i = 0; i < n; i++) {
    free(c[i].cycle);
    free(c[i].name);
    rel_free(c[i].rel);
  }
  free(c);
}

static void exact_fini(exact *x) {
  free_checks(x->checks.v, x->checks.n);
  for (size_t i = 0; i < x->ch.n; i++) {
    rel_set_free(x->ch.v[i].s);
    rel_free(x->ch.v[i].r);
    cat_lin_fini(&x->ch.v[i].lin);
  }
  lc_vec_free(&x->ch);
  lc_vec_free(&x->pick);
}

/* The next combination of choices, the last point met moving fastest (a
 * point met later may depend on an earlier choice, so its count is the
 * one this evaluation saw); false after the last. */
static bool next_pick(exact *x) {
  x->pick.n = x->met;
  for (size_t i = x->met; i-- > 0;) {
    size_t count = x->ch.v[i].lin.n ? x->ch.v[i].lin.n : 1;
    if (++x->pick.v[i] < count) {
      x->pick.n = i + 1;
      return true;
    }
    x->pick.v[i] = 0;
  }
  x->pick.n = 0;
  return false;
}

static bool consistent(const cat_rel_check *c, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!c[i].flag && !c[i].holds) return false;
  return true;
}

/* herd's `with x from E` evaluates the rest of the model once per choice:
 * an execution is allowed when one choice passes every check.  The
 * choices are tried in turn until one does; the result is that one's, or
 * the first choice's when none does, and x->pick is left at it. */
static int eval_choices(const cat_model *m, exact *x, const cat_backend *be, cat_rel_result *res, lc_diag *d) {
  cat_rel_result first = {0};
  bool have_first = false;
  for (size_t tries = 1;; tries++) {
    x->met = 0;
    x->checks.n = 0;
    if (cat_eval(m, be, d) < 0) {
      free_checks(first.checks, first.n);
      return -1;
    }
    bool ok = consistent(x->checks.v, x->checks.n);
    if (ok || x->met == 0) {
      free_checks(first.checks, first.n);
      break;
    }
    if (!have_first) {
      first.checks = x->checks.v;
      first.n = x->checks.n;
      memset(&x->checks, 0, sizeof x->checks);
      have_first = true;
    } else {
      free_checks(x->checks.v, x->checks.n);
      memset(&x->checks, 0, sizeof x->checks);
    }
    if (!next_pick(x)) {
      x->checks.v = first.checks;
      x->checks.n = first.n;
      x->checks.cap = first.n;
      break;
    }
    if (tries >= CAT_MAX_LINEARISATIONS) {
      free_checks(first.checks, first.n);
      lc_error(d, (lc_loc){0}, "'with ... from linearisations': more than %d choices tried for one execution",
               CAT_MAX_LINEARISATIONS);
      return -1;
    }
  }
  if (res) {
    res->checks = x->checks.v;
    res->n = x->checks.n;
    res->consistent = consistent(res->checks, res->n);
    memset(&x->checks, 0, sizeof x->checks);
  }
  return 0;
}

int cat_rel_eval(const cat_model *m, size_t n, cat_rel_builtin_fn builtin, void *uctx,
                 cat_rel_result *res, lc_diag *d) {
  assert(m && builtin && res && d);
  exact x = {.n = n, .builtin = builtin, .uctx = uctx, .d = d};
  cat_backend be = {ex_builtin, ex_op, ex_same, rec_limit(n), ex_check, ex_release, &x, NULL};
  memset(res, 0, sizeof *res);
  int rc = eval_choices(m, &x, &be, res, d);
  exact_fini(&x);
  return rc;
}

static bool has_choice(const cat_model *m) {
  for (size_t i = 0; i < m->vals.n; i++) {
    const cat_node *b = m->vals.v[i].body;
    if (m->vals.v[i].kind == CAT_V_DEF && b && b->kind == CAT_N_OP && b->op == CAT_OP_LINEAR) return true;
  }
  return false;
}

int cat_rel_eval_values(const cat_model *m, size_t n, cat_rel_builtin_fn builtin, void *uctx, const size_t *vals,
                        size_t nvals, void **out, lc_diag *d) {
  assert(m && builtin && d);
  exact x = {.n = n, .builtin = builtin, .uctx = uctx, .d = d};
  cat_backend be = {ex_builtin, ex_op, ex_same, rec_limit(n), ex_check, ex_release, &x, NULL};
  /* the values under the choices cat_rel_eval answers with */
  int rc = has_choice(m) ? eval_choices(m, &x, &be, NULL, d) : 0;
  x.met = 0;
  if (rc == 0) rc = cat_eval_values(m, &be, vals, nvals, out, d);
  exact_fini(&x);
  return rc;
}

void cat_rel_result_fini(cat_rel_result *res) {
  if (!res) return;
  free_checks(res->checks, res->n);
  memset(res, 0, sizeof *res);
}

const cat_rel_check *cat_rel_result_find(const cat_rel_result *res, const char *name) {
  assert(res && name);
  for (size_t i = 0; i < res->n; i++)
    if (strcmp(res->checks[i].name, name) == 0) return &res->checks[i];
  return NULL;
}

/* ---- may/must values --------------------------------------------------------------- */

cat_mm *cat_mm_new(cat_type type, void *may, void *must) {
  assert(may && must);
  cat_mm *x = lc_xmalloc(sizeof *x);
  x->type = type;
  x->may = may;
  x->must = must;
  return x;
}

cat_mm *cat_mm_exact(cat_type type, const void *v) {
  return cat_mm_new(type, cat_rel_copy(type, v), cat_rel_copy(type, v));
}

cat_mm *cat_mm_copy(const cat_mm *x) {
  assert(x);
  return cat_mm_new(x->type, cat_rel_copy(x->type, x->may), cat_rel_copy(x->type, x->must));
}

void cat_mm_free(cat_mm *x) {
  if (!x) return;
  cat_rel_free(x->type, x->may);
  cat_rel_free(x->type, x->must);
  free(x);
}

bool cat_mm_same(const cat_mm *a, const cat_mm *b) {
  assert(a && b);
  return a->type == b->type && cat_rel_same(a->type, a->may, b->may) &&
         cat_rel_same(a->type, a->must, b->must);
}

void cat_mm_op_into(size_t n, cat_op op, cat_type type, const cat_mm *a, const cat_mm *b, cat_mm *d) {
  assert(d && (a || op == CAT_OP_EMPTY) && d != a && d != b);
  switch (op) {
  case CAT_OP_LINEAR:
    cat_lin_bounds(a->may, a->must, b->must, d->may, d->must);
    return;
  case CAT_OP_EMPTY:
    rel_op_into(n, op, type, NULL, NULL, d->may);
    rel_op_into(n, op, type, NULL, NULL, d->must);
    return;
  case CAT_OP_DIFF:
    rel_op_into(n, op, type, a->may, b->must, d->may);
    rel_op_into(n, op, type, a->must, b->may, d->must);
    return;
  case CAT_OP_COMPL:
    rel_op_into(n, op, type, a->must, NULL, d->may);
    rel_op_into(n, op, type, a->may, NULL, d->must);
    return;
  default:
    rel_op_into(n, op, type, a->may, b ? b->may : NULL, d->may);
    rel_op_into(n, op, type, a->must, b ? b->must : NULL, d->must);
  }
}

cat_mm *cat_mm_op(size_t n, cat_op op, cat_type type, const cat_mm *a, const cat_mm *b) {
  cat_type rt = cat_op_result_type(op, type);
  switch (op) {
  case CAT_OP_LINEAR: {
    cat_mm *r = cat_mm_new(rt, rel_new(n), rel_new(n));
    cat_lin_bounds(a->may, a->must, b->must, r->may, r->must);
    return r;
  }
  case CAT_OP_EMPTY:
    return cat_mm_new(rt, cat_rel_op(n, op, type, NULL, NULL), cat_rel_op(n, op, type, NULL, NULL));
  case CAT_OP_DIFF:
    return cat_mm_new(rt, cat_rel_op(n, op, type, a->may, b->must),
                      cat_rel_op(n, op, type, a->must, b->may));
  case CAT_OP_COMPL:
    return cat_mm_new(rt, cat_rel_op(n, op, type, a->must, NULL), cat_rel_op(n, op, type, a->may, NULL));
  default:
    return cat_mm_new(rt, cat_rel_op(n, op, type, a->may, b ? b->may : NULL),
                      cat_rel_op(n, op, type, a->must, b ? b->must : NULL));
  }
}

/* ---- may/must backend ---------------------------------------------------------------- */

typedef struct mm {
  size_t n;
  cat_mm_builtin_fn builtin;
  void *uctx;
  lc_diag *d;
  LC_VEC(cat_mm_check) checks;
} mm;

static cat_value mm_builtin(void *ctx, const char *name, cat_type *type) {
  mm *x = ctx;
  cat_mm *v = x->builtin(x->uctx, name, type);
  if (v && (v->type != *type || size_of(v->type, v->may) != x->n || size_of(v->type, v->must) != x->n)) {
    lc_error(x->d, (lc_loc){0}, "the engine's bounds for builtin '%s' do not have its type or %zu events",
             name, x->n);
    cat_mm_free(v);
    return NULL;
  }
  return v;
}

static cat_value mm_op(void *ctx, cat_op op, cat_type type, cat_value a, cat_value b) {
  return cat_mm_op(((mm *)ctx)->n, op, type, a, b);
}

static bool mm_same(void *ctx, cat_type type, cat_value a, cat_value b) {
  (void)ctx;
  (void)type;
  return cat_mm_same(a, b);
}

static void mm_release(void *ctx, cat_type type, cat_value v) {
  (void)ctx;
  (void)type;
  cat_mm_free(v);
}

/* Does the check hold for this value of its relation? */
static bool holds(cat_check_kind kind, const rel_rel *r) {
  if (kind == CAT_CHECK_ACYCLIC) return rel_acyclic(r, NULL, NULL);
  if (kind == CAT_CHECK_IRREFLEXIVE) return rel_irreflexive(r);
  return rel_empty(r);
}

static void mm_check(void *ctx, cat_check_kind kind, bool flag, cat_value v, const char *name,
                     lc_loc at) {
  mm *x = ctx;
  const cat_mm *b = v;
  cat_mm_verdict verdict = holds(kind, b->may) ? CAT_MM_HOLDS
                         : !holds(kind, b->must) ? CAT_MM_FAILS : CAT_MM_UNKNOWN;
  cat_mm_check c = {lc_xstrdup(name), kind, flag, at, verdict, cat_mm_copy(b)};
  lc_vec_push(&x->checks, c);
}

static void free_mm_checks(cat_mm_check *c, size_t n) {
  for (size_t i = 0; i < n; i++) {
    cat_mm_free(c[i].value);
    free(c[i].name);
  }
  free(c);
}

int cat_mm_eval(const cat_model *m, size_t n, cat_mm_builtin_fn builtin, void *uctx,
                cat_mm_result *res, lc_diag *d) {
  assert(m && builtin && res && d);
  mm x = {n, builtin, uctx, d, {0}};
  cat_backend be = {mm_builtin, mm_op, mm_same, rec_limit(n), mm_check, mm_release, &x, NULL};
  memset(res, 0, sizeof *res);
  if (cat_eval(m, &be, d) < 0) {
    free_mm_checks(x.checks.v, x.checks.n);
    return -1;
  }
  res->checks = x.checks.v;
  res->n = x.checks.n;
  return 0;
}

void cat_mm_result_fini(cat_mm_result *res) {
  if (!res) return;
  free_mm_checks(res->checks, res->n);
  memset(res, 0, sizeof *res);
}

const cat_mm_check *cat_mm_result_find(const cat_mm_result *res, const char *name) {
  assert(res && name);
  for (size_t i = 0; i < res->n; i++)
    if (strcmp(res->checks[i].name, name) == 0) return &res->checks[i];
  return NULL;
}
