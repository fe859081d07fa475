/* cat_cost.c - what a model costs an engine, read from the model alone:
 * the sets herd's `with x from linearisations(S, r)` orders, as a test of
 * one event's membership, so the engine choice can count the orders the
 * explicit engine enumerates (lc_check_program); and whether its checks
 * read a `let rec` fixpoint, which costs Z3 more than the explicit engine.
 * SPDX-License-Identifier: MIT
 */
#include "cat/cat_int.h"

#include <assert.h>
#include <stdlib.h>

/* Deeper definitions than this count as unknown: the walk recurses over
 * the model's nodes, so it is bounded here, not by the input. */
enum { COST_DEPTH = 64 };

typedef struct {
  cat_set_member_fn has;
  void *ctx;
  const cat_model *m;
} walk;

/* May (and must) the event belong to the set node x? */
static void member(const walk *w, const cat_node *x, int depth, bool *may, bool *must) {
  *may = true, *must = false;   /* unknown */
  if (depth > COST_DEPTH || x->rtype != CAT_TY_SET) return;
  if (x->kind == CAT_N_REF) {
    const cat_val *v = &w->m->vals.v[x->ref];
    if (v->kind == CAT_V_DEF && v->body && v->group == CAT_NONE) {
      member(w, v->body, depth + 1, may, must);
      return;
    }
    int k = v->kind == CAT_V_BUILTIN && v->name ? w->has(w->ctx, v->name) : -1;
    if (k >= 0) *may = *must = k == 1;
    return;
  }
  bool amay, amust, bmay = false, bmust = false;
  switch (x->op) {
  case CAT_OP_EMPTY: *may = false; return;
  case CAT_OP_UNION: case CAT_OP_INTER: case CAT_OP_DIFF:
    member(w, x->a, depth + 1, &amay, &amust);
    member(w, x->b, depth + 1, &bmay, &bmust);
    if (x->op == CAT_OP_UNION) *may = amay || bmay, *must = amust || bmust;
    else if (x->op == CAT_OP_INTER) *may = amay && bmay, *must = amust && bmust;
    else *may = amay && !bmust, *must = amust && !bmay;
    return;
  case CAT_OP_COMPL:
    member(w, x->a, depth + 1, &amay, &amust);
    *may = !amust, *must = !amay;
    return;
  default: return;   /* domain, range: unknown */
  }
}

size_t cat_model_nlinear(const cat_model *m) {
  assert(m);
  size_t n = 0;
  for (size_t i = 0; i < m->vals.n; i++) {
    const cat_node *b = m->vals.v[i].body;
    n += m->vals.v[i].kind == CAT_V_DEF && b && b->kind == CAT_N_OP && b->op == CAT_OP_LINEAR;
  }
  return n;
}

bool cat_model_linear_may(const cat_model *m, size_t i, cat_set_member_fn has, void *ctx) {
  assert(m && has);
  walk w = {has, ctx, m};
  for (size_t v = 0; v < m->vals.n; v++) {
    const cat_node *b = m->vals.v[v].body;
    if (m->vals.v[v].kind != CAT_V_DEF || !b || b->kind != CAT_N_OP || b->op != CAT_OP_LINEAR || i--) continue;
    bool may, must;
    member(&w, b->a, 0, &may, &must);
    return may;
  }
  return false;
}

bool cat_model_checks_fixpoint(const cat_model *m) {
  assert(m);
  bool *seen = lc_xcalloc(m->vals.n + 1, sizeof(bool)), found = false;
  LC_VEC(const cat_node *) todo = {0};
  for (size_t i = 0; i < m->checks.n; i++)
    if (!m->checks.v[i].flag) lc_vec_push(&todo, m->checks.v[i].e);
  while (todo.n && !found) {
    const cat_node *x = todo.v[--todo.n];
    if (!x) continue;
    if (x->kind == CAT_N_REF) {
      if (x->ref >= m->vals.n || seen[x->ref]) continue;
      seen[x->ref] = true;
      const cat_val *v = &m->vals.v[x->ref];
      found = v->kind == CAT_V_DEF && v->group != CAT_NONE;
      if (v->kind == CAT_V_DEF) lc_vec_push(&todo, v->body);
      continue;
    }
    lc_vec_push(&todo, x->a);
    lc_vec_push(&todo, x->b);
  }
  lc_vec_free(&todo);
  free(seen);
  return found;
}
