/* cat_rel.c - exact and may/must backends over rel_ bitsets.
 * SPDX-License-Identifier: MIT
 */
#include "cat/cat_rel.h"

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

typedef struct exact {
  size_t n;
  cat_rel_builtin_fn builtin;
  void *uctx;
  lc_diag *d;
  LC_VEC(cat_rel_check) checks;
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

static cat_value ex_op(void *ctx, cat_op op, cat_type type, cat_value a, cat_value b) {
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

int cat_rel_eval(const cat_model *m, size_t n, cat_rel_builtin_fn builtin, void *uctx,
                 cat_rel_result *res, lc_diag *d) {
  assert(m && builtin && res && d);
  exact x = {n, builtin, uctx, d, {0}};
  cat_backend be = {ex_builtin, ex_op, ex_same, rec_limit(n), ex_check, ex_release, &x, NULL};
  memset(res, 0, sizeof *res);
  if (cat_eval(m, &be, d) < 0) {
    free_checks(x.checks.v, x.checks.n);
    return -1;
  }
  res->checks = x.checks.v;
  res->n = x.checks.n;
  res->consistent = true;
  for (size_t i = 0; i < res->n; i++)
    if (!res->checks[i].flag && !res->checks[i].holds) res->consistent = false;
  return 0;
}

int cat_rel_eval_values(const cat_model *m, size_t n, cat_rel_builtin_fn builtin, void *uctx, const size_t *vals,
                        size_t nvals, void **out, lc_diag *d) {
  assert(m && builtin && d);
  exact x = {n, builtin, uctx, d, {0}};
  cat_backend be = {ex_builtin, ex_op, ex_same, rec_limit(n), ex_check, ex_release, &x, NULL};
  int rc = cat_eval_values(m, &be, vals, nvals, out, d);
  free_checks(x.checks.v, x.checks.n);
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
