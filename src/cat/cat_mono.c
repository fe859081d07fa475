/* cat_mono.c - does a model keep its answers when read events are deleted?
 * SPDX-License-Identifier: MIT
 *
 * Lowering may leave out the failed iterations of a side-effect-free spin
 * loop (exec/lower_spin.c) when deleting read events from an allowed
 * execution leaves an allowed execution with the same final state and the
 * same flagged pairs.  That holds for a model whose checks are monotone
 * (a relation of the smaller execution is contained in the larger one's,
 * restricted to the events left: acyclic, irreflexive and empty then still
 * hold) and whose flags are anti-monotone (a flagged pair of events left
 * stays flagged).  Every builtin is *stable* under deleting reads: its
 * value on the smaller execution is the larger one's restricted (po, rf,
 * co, fr, loc, the tags and scopes: a pair's membership depends on its two
 * events and the writes only).  Composition and closures are monotone
 * (a path may run through a deleted event) but not stable; a difference
 * or complement turns the polarity of what it subtracts.  The analysis is
 * syntactic over the loaded model: it may refuse a model that would do,
 * never accept one that would not.
 */
#include <assert.h>
#include <stdlib.h>

#include "cat/cat_int.h"

typedef struct polarity {
  bool empty;   /* always the empty set or relation */
  bool mono;    /* smaller execution: contained in the restriction */
  bool anti;    /* smaller execution: contains the restriction */
} polarity;

static const polarity STABLE = {false, true, true};
static const polarity NONE = {true, true, true};

static bool is_all(const cat_node *n, const polarity *vals, const cat_model *m);

static polarity node_polarity(const cat_node *n, const polarity *vals, const cat_model *m) {
  if (n->kind == CAT_N_REF) return m->vals.v[n->ref].kind == CAT_V_BUILTIN ? STABLE : vals[n->ref];
  polarity a = n->a ? node_polarity(n->a, vals, m) : NONE;
  polarity b = n->b ? node_polarity(n->b, vals, m) : NONE;
  polarity r = {false, false, false};
  switch (n->op) {
  case CAT_OP_EMPTY: return NONE;
  case CAT_OP_COMPL: r.mono = a.anti, r.anti = a.mono; break;
  case CAT_OP_UNION:
    r.empty = a.empty && b.empty, r.mono = a.mono && b.mono, r.anti = a.anti && b.anti;
    break;
  case CAT_OP_INTER:
  case CAT_OP_PRODUCT:
    if (a.empty || b.empty) return NONE;
    r.mono = a.mono && b.mono, r.anti = a.anti && b.anti;
    break;
  case CAT_OP_DIFF:
    if (a.empty || (is_all(n->a, vals, m) && is_all(n->b, vals, m))) return NONE;   /* `_ \ _`: an option not set */
    if (b.empty) return a;
    r.mono = a.mono && b.anti, r.anti = a.anti && b.mono;
    break;
  case CAT_OP_SEQ:
    if (a.empty || b.empty) return NONE;
    r.mono = a.mono && b.mono;
    break;
  case CAT_OP_IDSET:
  case CAT_OP_INVERSE: return a;
  case CAT_OP_PLUS:
  case CAT_OP_DOMAIN:
  case CAT_OP_RANGE:
    if (a.empty) return NONE;
    r.mono = a.mono;
    break;
  case CAT_OP_STAR:
  case CAT_OP_OPT:
    if (a.empty) return STABLE;   /* id */
    r.mono = a.mono;
    break;
  case CAT_OP_LINEAR:   /* a chosen order (herd's `with`): not analysed, so a check that reads it refuses the model */
    break;
  }
  return r;
}

static bool is_all(const cat_node *n, const polarity *vals, const cat_model *m) {
  return n->kind == CAT_N_OP && n->op == CAT_OP_COMPL && n->a && node_polarity(n->a, vals, m).empty;
}

bool cat_model_deletion_closed(const cat_model *m, bool flags) {
  assert(m);
  size_t n = m->vals.n;
  polarity *vals = lc_xcalloc(n ? n : 1, sizeof *vals);
  for (size_t i = 0; i < n; i++) vals[i] = NONE;   /* the least value: a `let rec` starts empty */
  /* Each round only weakens a value (a join), three properties per value:
   * at most 3n + 1 rounds. */
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = 0; i < n; i++) {
      const cat_val *v = &m->vals.v[i];
      if (v->kind != CAT_V_DEF || !v->body) continue;
      polarity p = node_polarity(v->body, vals, m), o = vals[i];
      polarity j = {o.empty && p.empty, o.mono && p.mono, o.anti && p.anti};
      if (j.empty != o.empty || j.mono != o.mono || j.anti != o.anti) vals[i] = j, changed = true;
    }
  }
  bool ok = true;
  for (size_t i = 0; i < m->checks.n && ok; i++) {
    const cat_check *c = &m->checks.v[i];
    polarity p = node_polarity(c->e, vals, m);
    if (c->flag) ok = !flags || p.anti;
    else ok = p.mono;
  }
  free(vals);
  return ok;
}
