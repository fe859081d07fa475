/* guard.c - which outcomes of a branch or a cas a path's conditions leave
 * possible, so that lowering never builds a path whose conditions contradict
 * each other (a failed cas followed by the branch that assumes it succeeded).
 * SPDX-License-Identifier: MIT
 *
 * Only conditions that compare one expression with a constant, or two
 * expressions with each other, are related to those of the same
 * expression or pair; any other condition is taken as satisfiable.  That keeps
 * the answer an over-approximation: a path is dropped only when its
 * conditions surely contradict.
 */
#include <stdint.h>

#include "exec/exec.h"
#include "exec/internal.h"

static bool same_expr(const lx_expr *a, const lx_expr *b) {
  if (a == b) return true;
  if (a->kind != b->kind) return false;
  switch (a->kind) {
  case LX_X_CONST: return a->c == b->c;
  case LX_X_READ: return a->event == b->event;
  case LX_X_BIN: return a->op == b->op && same_expr(a->a, b->a) && same_expr(a->b, b->b);
  }
  return false;
}

static lt_cmp swap_cmp(lt_cmp c) {
  switch (c) {
  case LT_CMP_LT: return LT_CMP_GT;
  case LT_CMP_LE: return LT_CMP_GE;
  case LT_CMP_GT: return LT_CMP_LT;
  case LT_CMP_GE: return LT_CMP_LE;
  default: return c;
  }
}

/* Writes `cond` as `x cmp c` with x not constant; false when it has no
 * such form. */
static bool normal_form(lt_cmp cmp, const lx_expr *a, const lx_expr *b, const lx_expr **x, lt_cmp *op, lx_val *c) {
  if (a->kind != LX_X_CONST && b->kind == LX_X_CONST) {
    *x = a, *op = cmp, *c = b->c;
    return true;
  }
  if (a->kind == LX_X_CONST && b->kind != LX_X_CONST) {
    *x = b, *op = swap_cmp(cmp), *c = a->c;
    return true;
  }
  return false;
}

typedef struct bound { lt_cmp op; lx_val c; } bound;

static bool all_hold(const bound *bs, size_t n, lx_val v) {
  for (size_t i = 0; i < n; i++)
    if (!lx_cmp_apply(bs[i].op, v, bs[i].c)) return false;
  return true;
}

/* A conjunction of `x op c_i` over the integers, if satisfiable, is
 * satisfied by one of c_i - 1, c_i, c_i + 1 or a value beyond them all:
 * the least solution is a bound, one past an excluded point, or unbounded. */
static bool satisfiable(const bound *bs, size_t n) {
  lx_val lo = 0, hi = 0;
  for (size_t i = 0; i < n; i++) {
    if (bs[i].c <= INT64_MIN + 2 || bs[i].c >= INT64_MAX - 2) return true;   /* too close to wrap: assume so */
    for (int d = -1; d <= 1; d++)
      if (all_hold(bs, n, bs[i].c + d)) return true;
    if (i == 0 || bs[i].c < lo) lo = bs[i].c;
    if (i == 0 || bs[i].c > hi) hi = bs[i].c;
  }
  return all_hold(bs, n, lo - 2) || all_hold(bs, n, hi + 2);
}

enum { MAX_BOUNDS = 64 };

/* `a cmp b`, neither constant, against the conditions comparing the same
 * two expressions (either way round): each is a bound on the integer
 * a - b against 0 (exact: no difference is computed, so none wraps).  A
 * cas that succeeded (v1 == v0) and then the branch taken when it failed
 * (v1 != v0): the spin loops of a semaphore, half their paths. */
static bool pair_possible(const lx_cond *conds, size_t nconds, lt_cmp cmp, const lx_expr *a, const lx_expr *b) {
  bound bs[MAX_BOUNDS];
  size_t n = 0;
  bs[n++] = (bound){cmp, 0};
  for (size_t i = 0; i < nconds && n < MAX_BOUNDS; i++) {
    const lx_cond *k = &conds[i];
    if (k->a->kind == LX_X_CONST || k->b->kind == LX_X_CONST) continue;
    if (same_expr(a, k->a) && same_expr(b, k->b)) bs[n++] = (bound){k->cmp, 0};
    else if (same_expr(a, k->b) && same_expr(b, k->a)) bs[n++] = (bound){swap_cmp(k->cmp), 0};
  }
  return satisfiable(bs, n);
}

bool lx_cond_possible(const lx_cond *conds, size_t nconds, lt_cmp cmp, const lx_expr *a, const lx_expr *b) {
  if (a->kind == LX_X_CONST && b->kind == LX_X_CONST) return lx_cmp_apply(cmp, a->c, b->c);
  if (a->kind != LX_X_CONST && b->kind != LX_X_CONST) return pair_possible(conds, nconds, cmp, a, b);
  const lx_expr *x;
  lt_cmp op;
  lx_val c;
  if (!normal_form(cmp, a, b, &x, &op, &c)) return true;
  bound bs[MAX_BOUNDS];
  size_t n = 0;
  bs[n++] = (bound){op, c};
  for (size_t i = 0; i < nconds && n < MAX_BOUNDS; i++) {
    const lx_expr *y;
    lt_cmp yop;
    lx_val yc;
    if (normal_form(conds[i].cmp, conds[i].a, conds[i].b, &y, &yop, &yc) && same_expr(x, y))
      bs[n++] = (bound){yop, yc};
  }
  return satisfiable(bs, n);
}
