/* cat_eval.c - evaluate a loaded model through a backend's operations.
 * SPDX-License-Identifier: MIT
 *
 * Values are computed on demand, starting from the checks in file order,
 * and kept in one slot per value of the model until their last use.  The
 * number of uses is counted up front over the code the checks need, so a
 * slot is released as soon as its last reader has consumed it.  A `let
 * rec` group is evaluated as a whole by Kleene iteration from empty
 * values; references between its members read the current iterate, and
 * references from its bodies to other values count as one use each,
 * however many rounds the iteration takes.  The counts depend on the
 * model only, so they are made once, at load (cat_count_uses).
 */
#include "cat/cat_int.h"

#include <assert.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct slot {
  cat_value v;
  bool has;
  size_t uses;      /* readers not yet served */
} slot;

typedef struct ev {
  const cat_model *m;
  const cat_backend *be;
  lc_diag *d;
  slot *slots;      /* per value of the model */
  cat_value *cur;   /* the current iterate of each let rec member */
  bool *needed;
  bool *mark;       /* schedule's scratch, all false between calls */
  bool failed;
} ev;

/* An evaluation result: an owned value, or one borrowed from a slot whose
 * use is consumed when the result is dropped. */
typedef struct res {
  cat_value v;
  bool owned;
  size_t from;      /* slot to release a use of, or CAT_NONE */
} res;

static void error(ev *E, lc_loc at, const char *fmt, ...) LC_PRINTF(3, 4);
static void error(ev *E, lc_loc at, const char *fmt, ...) {
  E->failed = true;
  const lc_source *saved = E->d->src;
  for (size_t i = 0; i < E->m->sources.n; i++)
    if (E->m->sources.v[i]->name == at.file) E->d->src = E->m->sources.v[i];
  va_list ap;
  va_start(ap, fmt);
  lc_vreport(E->d, LC_SEV_ERROR, at, fmt, ap);
  va_end(ap);
  E->d->src = saved;
}

static void release(ev *E, cat_type t, cat_value v) {
  if (v && E->be->release) E->be->release(E->be->ctx, t, v);
}

cat_type cat_op_result_type(cat_op op, cat_type operand) {
  switch (op) {
  case CAT_OP_EMPTY: case CAT_OP_UNION: case CAT_OP_INTER: case CAT_OP_DIFF: case CAT_OP_COMPL:
    return operand;
  case CAT_OP_DOMAIN: case CAT_OP_RANGE:
    return CAT_TY_SET;
  case CAT_OP_LINEAR:
    return CAT_TY_REL;
  default:
    return CAT_TY_REL;
  }
}

/* ---- counting uses ---------------------------------------------------------- */


/* A reference inside a group's body to a member of that group reads the
 * iterate, not a slot, so it is not a use. */
static bool internal(const ev *E, const cat_node *n) {
  return n->group != CAT_NONE && E->m->vals.v[n->ref].group == n->group;
}

/* Counts the uses under n, and those of each value it needs, once per
 * value.  With an explicit stack: a chain of definitions, each naming the
 * one before, is as deep as the model is long. */
static void count(ev *E, const cat_node *n) {
  LC_VEC(const cat_node *) st = {0};
  lc_vec_push(&st, n);
  while (st.n) {
    const cat_node *x = st.v[--st.n];
    if (x->kind != CAT_N_REF) {
      if (x->b) lc_vec_push(&st, x->b);
      if (x->a) lc_vec_push(&st, x->a);
      continue;
    }
    if (internal(E, x)) continue;
    E->slots[x->ref].uses++;
    size_t v = x->ref;
    if (E->needed[v]) continue;
    const cat_val *val = &E->m->vals.v[v];
    if (val->group == CAT_NONE) {
      E->needed[v] = true;
      if (val->kind == CAT_V_DEF) lc_vec_push(&st, val->body);
      continue;
    }
    const cat_group *g = &E->m->groups.v[val->group];
    for (size_t i = 0; i < g->n; i++) E->needed[g->members[i]] = true;
    for (size_t i = g->n; i-- > 0;) lc_vec_push(&st, E->m->vals.v[g->members[i]].body);
  }
  lc_vec_free(&st);
}

/* ---- values ------------------------------------------------------------------- */

static void unuse(ev *E, size_t v) {
  slot *s = &E->slots[v];
  if (s->uses > 0 && --s->uses == 0 && s->has) {
    release(E, E->m->vals.v[v].type, s->v);
    s->v = NULL;
    s->has = false;
  }
}

static void drop(ev *E, res r, cat_type t) {
  if (!r.v) return;
  if (r.owned) release(E, t, r.v);
  else if (r.from != CAT_NONE) unuse(E, r.from);
}

static cat_value apply(ev *E, const cat_node *n, cat_op op, cat_type t, cat_value a, cat_value b) {
  int before = E->d->nerrors;
  cat_value v = E->be->op(E->be->ctx, op, t, a, b);
  if (!v) {
    lc_message *last = E->d->msgs.n ? &E->d->msgs.v[E->d->msgs.n - 1] : NULL;
    if (E->d->nerrors == before) {
      error(E, n->loc, "the engine could not evaluate this expression");
    } else if (last && last->sev == LC_SEV_ERROR && !last->loc.file && n->loc.file) {
      /* the backend's message, at the expression it could not evaluate */
      char *msg = last->msg;
      free(last->text);
      E->d->msgs.n--;
      E->d->nerrors--;
      error(E, n->loc, "%s", msg);
      free(msg);
    } else {
      E->failed = true;
    }
  }
  return v;
}

/* A value the caller owns: a borrowed one is copied as v | v. */
static cat_value own(ev *E, const cat_node *n, res r, cat_type t) {
  if (!r.v || r.owned) return r.v;
  cat_value v = apply(E, n, CAT_OP_UNION, t, r.v, r.v);
  drop(E, r, t);
  return v;
}

static res eval(ev *E, const cat_node *n);
static bool demand(ev *E, size_t v);

static res eval_ref(ev *E, const cat_node *n) {
  if (internal(E, n)) return (res){E->cur[n->ref], false, CAT_NONE};
  if (!demand(E, n->ref)) return (res){NULL, false, CAT_NONE};
  /* Inside a group body the use is consumed once the group is done. */
  size_t from = n->group == CAT_NONE ? n->ref : CAT_NONE;
  return (res){E->slots[n->ref].v, false, from};
}

static res eval(ev *E, const cat_node *n) {
  if (n->kind == CAT_N_REF) return eval_ref(E, n);
  res a = {0}, b = {0};
  cat_value v = NULL;
  if (n->a) a = eval(E, n->a);
  if (n->b && !E->failed) b = eval(E, n->b);
  if (!E->failed) v = apply(E, n, n->op, n->type, a.v, b.v);
  if (n->a) drop(E, a, n->a->rtype);
  if (n->b) drop(E, b, n->b->rtype);
  return (res){v, true, CAT_NONE};
}

static bool demand_builtin(ev *E, size_t v) {
  const cat_val *val = &E->m->vals.v[v];
  cat_type t = val->type;
  int before = E->d->nerrors;
  cat_value x = E->be->builtin(E->be->ctx, val->name, &t);
  if (!x) {
    if (E->d->nerrors == before) error(E, val->loc, "the engine does not provide the builtin '%s'", val->name);
    E->failed = true;
    return false;
  }
  if (t != val->type) {
    release(E, t, x);
    error(E, val->loc, "the engine gives the builtin '%s' as %s, but it is %s", val->name,
          t == CAT_TY_SET ? "a set" : "a relation", val->type == CAT_TY_SET ? "a set" : "a relation");
    return false;
  }
  E->slots[v].v = x;
  E->slots[v].has = true;
  return true;
}

/* After a group is done, its bodies' references to other values have
 * been served. */
static void unuse_outside(ev *E, const cat_node *n) {
  if (n->kind == CAT_N_REF) {
    if (!internal(E, n)) unuse(E, n->ref);
    return;
  }
  if (n->a) unuse_outside(E, n->a);
  if (n->b) unuse_outside(E, n->b);
}

/* One round: every member's body over the current iterate.  Returns true
 * when the backend says nothing changed. */
static bool rec_round(ev *E, const cat_group *g, cat_value *next) {
  for (size_t i = 0; i < g->n && !E->failed; i++) {
    const cat_val *val = &E->m->vals.v[g->members[i]];
    next[i] = own(E, val->body, eval(E, val->body), val->type);
  }
  bool same = !E->failed && E->be->same;
  for (size_t i = 0; i < g->n; i++) {
    size_t v = g->members[i];
    cat_type t = E->m->vals.v[v].type;
    if (same && !E->be->same(E->be->ctx, t, E->cur[v], next[i])) same = false;
  }
  for (size_t i = 0; i < g->n; i++) {
    size_t v = g->members[i];
    if (E->failed) {
      release(E, E->m->vals.v[v].type, next[i]);
      continue;
    }
    release(E, E->m->vals.v[v].type, E->cur[v]);
    E->cur[v] = next[i];
  }
  return same;
}

static bool demand_group(ev *E, size_t gi) {
  const cat_group *g = &E->m->groups.v[gi];
  const cat_val *first = &E->m->vals.v[g->members[0]];
  if (!E->be->same && E->be->rec_limit == 0) {
    error(E, first->loc, "the engine cannot evaluate 'let rec' (it gives neither same nor rec_limit)");
    return false;
  }
  for (size_t i = 0; i < g->n && !E->failed; i++) {
    const cat_val *val = &E->m->vals.v[g->members[i]];
    E->cur[g->members[i]] = apply(E, val->body, CAT_OP_EMPTY, val->type, NULL, NULL);
  }
  cat_value *next = lc_xcalloc(g->n, sizeof *next);
  size_t limit = E->be->rec_limit * g->n;
  for (size_t round = 1; !E->failed; round++)
    if (rec_round(E, g, next) || (limit && round >= limit)) break;
  free(next);
  if (E->failed) return false;
  for (size_t i = 0; i < g->n; i++) {
    size_t v = g->members[i];
    E->slots[v].v = E->cur[v];
    E->slots[v].has = true;
    E->cur[v] = NULL;
  }
  for (size_t i = 0; i < g->n; i++) unuse_outside(E, E->m->vals.v[g->members[i]].body);
  return true;
}

static bool demand_one(ev *E, size_t v) {
  if (E->slots[v].has) return true;
  if (E->failed) return false;
  const cat_val *val = &E->m->vals.v[v];
  if (val->kind == CAT_V_BUILTIN) return demand_builtin(E, v);
  if (val->group != CAT_NONE) return demand_group(E, val->group);
  cat_value x = own(E, val->body, eval(E, val->body), val->type);
  if (!x) return false;
  E->slots[v].v = x;
  E->slots[v].has = true;
  return true;
}

/* The values v needs that are not computed yet, those it names last:
 * computing them in this order, each body finds the values it names in
 * their slots, so evaluation recurses as deep as one body, not as deep as
 * a chain of definitions each naming the one before (20,000 of them
 * overflowed the stack).  An explicit stack; E->mark is cleared after. */
typedef LC_VEC(size_t) size_vec;

static void schedule(ev *E, size_t v, size_vec *order) {
  typedef struct { size_t v; bool done; } item;
  LC_VEC(item) st = {0};
  LC_VEC(const cat_node *) nodes = {0};
  LC_VEC(size_t) touched = {0};
  item first = {v, false};
  lc_vec_push(&st, first);
  while (st.n) {
    item it = st.v[--st.n];
    if (it.done) {
      lc_vec_push(order, it.v);
      continue;
    }
    if (E->mark[it.v] || E->slots[it.v].has) continue;
    E->mark[it.v] = true;
    lc_vec_push(&touched, it.v);
    item again = {it.v, true};
    lc_vec_push(&st, again);
    const cat_val *val = &E->m->vals.v[it.v];
    if (val->kind == CAT_V_BUILTIN) continue;
    size_t nm = 1;
    const size_t *members = &it.v;
    if (val->group != CAT_NONE) {
      nm = E->m->groups.v[val->group].n;
      members = E->m->groups.v[val->group].members;
    }
    for (size_t i = 0; i < nm; i++) {
      nodes.n = 0;
      lc_vec_push(&nodes, E->m->vals.v[members[i]].body);
      while (nodes.n) {
        const cat_node *x = nodes.v[--nodes.n];
        if (x->kind == CAT_N_REF) {
          if (!internal(E, x) && !E->mark[x->ref] && !E->slots[x->ref].has) {
            item child = {x->ref, false};
            lc_vec_push(&st, child);
          }
          continue;
        }
        if (x->a) lc_vec_push(&nodes, x->a);
        if (x->b) lc_vec_push(&nodes, x->b);
      }
    }
  }
  for (size_t i = 0; i < touched.n; i++) E->mark[touched.v[i]] = false;
  lc_vec_free(&st);
  lc_vec_free(&nodes);
  lc_vec_free(&touched);
}

static bool demand(ev *E, size_t v) {
  if (E->slots[v].has) return true;
  if (E->failed) return false;
  size_vec order = {0};
  schedule(E, v, &order);
  bool ok = true;
  for (size_t i = 0; i < order.n && ok; i++) ok = demand_one(E, order.v[i]);
  lc_vec_free(&order);
  return ok && E->slots[v].has;
}

/* ---- checks --------------------------------------------------------------------- */

static void cleanup(ev *E) {
  for (size_t i = 0; i < E->m->vals.n; i++) {
    cat_type t = E->m->vals.v[i].type;
    if (E->slots[i].has) release(E, t, E->slots[i].v);
    release(E, t, E->cur[i]);
  }
  free(E->slots);
  free(E->cur);
  free(E->needed);
  free(E->mark);
}

size_t *cat_count_uses(const cat_model *m) {
  assert(m);
  size_t n = m->vals.n ? m->vals.n : 1;
  ev E = {m, NULL, NULL, lc_xcalloc(n, sizeof(slot)), NULL, lc_xcalloc(n, sizeof(bool)), NULL, false};
  for (size_t i = 0; i < m->checks.n; i++) count(&E, m->checks.v[i].e);
  size_t *uses = lc_xcalloc(n, sizeof(size_t));
  for (size_t i = 0; i < m->vals.n; i++) uses[i] = E.slots[i].uses;
  free(E.slots);
  free(E.needed);
  return uses;
}

int cat_eval(const cat_model *m, const cat_backend *be, lc_diag *d) {
  assert(m && be && be->builtin && be->op && be->check && (be->same || be->rec_limit) && d);
  size_t n = m->vals.n ? m->vals.n : 1;
  ev E = {m, be, d, lc_xcalloc(n, sizeof(slot)), lc_xcalloc(n, sizeof(cat_value)), NULL, lc_xcalloc(n, sizeof(bool)), false};
  for (size_t i = 0; i < m->vals.n; i++) E.slots[i].uses = m->uses[i];
  for (size_t i = 0; i < m->checks.n && !E.failed; i++) {
    const cat_check *c = &m->checks.v[i];
    if (be->skip && be->skip[i]) {
      be->check(be->ctx, c->kind, c->flag, NULL, c->name, c->loc);
      continue;
    }
    res r = eval(&E, c->e);
    if (E.failed) {
      drop(&E, r, CAT_TY_REL);
      break;
    }
    be->check(be->ctx, c->kind, c->flag, r.v, c->name, c->loc);
    drop(&E, r, CAT_TY_REL);
  }
  cleanup(&E);
  return E.failed ? -1 : 0;
}

int cat_eval_values(const cat_model *m, const cat_backend *be, const size_t *vals, size_t n, cat_value *out,
                    lc_diag *d) {
  assert(m && be && be->builtin && be->op && (be->same || be->rec_limit) && (vals || !n) && (out || !n) && d);
  size_t nv = m->vals.n ? m->vals.n : 1;
  ev E = {m, be, d, lc_xcalloc(nv, sizeof(slot)), lc_xcalloc(nv, sizeof(cat_value)), NULL, lc_xcalloc(nv, sizeof(bool)), false};
  /* several values are asked for, each read by the others perhaps: none
   * is released before the end */
  for (size_t i = 0; i < m->vals.n; i++) E.slots[i].uses = SIZE_MAX / 2;
  size_t k = 0;
  for (; k < n && !E.failed; k++) {
    assert(vals[k] < m->vals.n);
    if (!demand(&E, vals[k])) break;
    cat_type t = m->vals.v[vals[k]].type;
    out[k] = be->op(be->ctx, CAT_OP_UNION, t, E.slots[vals[k]].v, E.slots[vals[k]].v);
    if (!out[k]) E.failed = true;
  }
  if (E.failed)
    for (size_t i = 0; i < k && i < n; i++) release(&E, m->vals.v[vals[i]].type, out[i]), out[i] = NULL;
  cleanup(&E);
  return E.failed ? -1 : 0;
}
