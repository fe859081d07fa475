/* smt_cat.c - the cat backend of the SMT engine: sets and relations as
 * vectors and matrices of Z3 Booleans, relative to execution
 * (smt_internal.h).
 * SPDX-License-Identifier: MIT
 */
#include <assert.h>
#include <string.h>

#include "smt/smt_internal.h"

/* ---- Boolean helpers ---------------------------------------------------------- */

Z3_ast smt_and(smt_enc *e, Z3_ast a, Z3_ast b) {
  if (!a || !b) return NULL;
  if (a == e->T) return b;
  if (b == e->T || a == b) return a;
  Z3_ast args[2] = {a, b};
  return Z3_mk_and(e->z, 2, args);
}

Z3_ast smt_or(smt_enc *e, Z3_ast a, Z3_ast b) {
  if (!a) return b;
  if (!b || a == b) return a;
  if (a == e->T || b == e->T) return e->T;
  Z3_ast args[2] = {a, b};
  return Z3_mk_or(e->z, 2, args);
}

Z3_ast smt_not(smt_enc *e, Z3_ast a) {
  if (!a) return e->T;
  if (a == e->T) return NULL;
  return Z3_mk_not(e->z, a);
}

Z3_ast smt_implies(smt_enc *e, Z3_ast a, Z3_ast b) { return smt_or(e, smt_not(e, a), b); }

/* Asserting NULL (false) is legitimate: it makes the test have no allowed
 * execution, e.g. a model check no candidate can pass. */
void smt_assert(smt_enc *e, Z3_ast f) {
  if (f == e->T) return;
  Z3_solver_assert(e->z, e->s, f ? f : Z3_mk_false(e->z));
}

static bool can_run(const smt_enc *e, size_t a) { return e->exec[a] != NULL; }

static bool possible2(const smt_enc *e, size_t a, size_t b) {
  return can_run(e, a) && can_run(e, b) && !rel_has(e->p->exclusive, a, b);
}

Z3_ast smt_exec2(smt_enc *e, size_t a, size_t b) {
  if (!possible2(e, a, b)) return NULL;
  return smt_and(e, e->exec[a], e->exec[b]);
}

Z3_ast smt_exec_given(smt_enc *e, size_t y, size_t x, size_t z) {
  if (!possible2(e, y, x) || !possible2(e, y, z)) return NULL;
  const lx_event *ey = &e->p->events[y];
  if (ey->path < 0 || ey->path == e->p->events[x].path || ey->path == e->p->events[z].path) return e->T;
  return e->exec[y];
}

/* ---- values ------------------------------------------------------------------- */

static smt_val *new_val(smt_enc *e, cat_type type) {
  smt_val *v = lc_xmalloc(sizeof *v);
  size_t cells = type == CAT_TY_SET ? e->n : e->n * e->n;
  v->type = type;
  v->t = lc_xcalloc(cells ? cells : 1, sizeof(Z3_ast));
  lc_vec_push(&e->vals, v);
  return v;
}

#define AT(v, a, b) ((v)->t[(a) * e->n + (b)])

Z3_ast smt_pair(smt_enc *e, const smt_val *v, size_t a, size_t b) {
  return smt_and(e, smt_exec2(e, a, b), AT(v, a, b));
}

static smt_val *from_rel(smt_enc *e, const rel_rel *r) {
  smt_val *v = new_val(e, CAT_TY_REL);
  for (size_t a = 0; a < e->n; a++)
    for (size_t b = 0; b < e->n; b++)
      if (rel_has(r, a, b) && possible2(e, a, b)) AT(v, a, b) = e->T;
  return v;
}

static smt_val *from_set(smt_enc *e, const rel_set *s) {
  smt_val *v = new_val(e, CAT_TY_SET);
  for (size_t a = 0; a < e->n; a++)
    if (rel_set_has(s, a) && can_run(e, a)) v->t[a] = e->T;
  return v;
}

static smt_val *from_choice(smt_enc *e, Z3_ast *m) {
  smt_val *v = new_val(e, CAT_TY_REL);
  memcpy(v->t, m, e->n * e->n * sizeof(Z3_ast));
  return v;
}

static const rel_rel *static_rel(const lx_program *p, const char *name) {
  const struct { const char *name; size_t off; } table[] = {
    {"id", offsetof(lx_program, id)}, {"po", offsetof(lx_program, po)},
    {"int", offsetof(lx_program, intra)}, {"ext", offsetof(lx_program, ext)},
    {"loc", offsetof(lx_program, loc)}, {"vloc", offsetof(lx_program, vloc)},
    {"rmw", offsetof(lx_program, rmw)}, {"addr", offsetof(lx_program, addr)},
    {"data", offsetof(lx_program, data)}, {"ctrl", offsetof(lx_program, ctrl)},
    {"scta", offsetof(lx_program, scta)}, {"scluster", offsetof(lx_program, scluster)},
    {"sgpu", offsetof(lx_program, sgpu)}, {"incl", offsetof(lx_program, incl)},
    {"sr", offsetof(lx_program, sr)}, {"iss", offsetof(lx_program, iss)},
  };
  for (size_t i = 0; i < LC_ARRAY_LEN(table); i++)
    if (strcmp(table[i].name, name) == 0) return *(rel_rel *const *)((const char *)p + table[i].off);
  return NULL;
}

static cat_value op(void *ctx, cat_op o, cat_type type, cat_value a, cat_value b);

static cat_value builtin(void *ctx, const char *name, cat_type *type) {
  smt_enc *e = ctx;
  const lx_program *p = e->p;
  lx_tag tag;
  if (strcmp(name, "_") == 0) {
    *type = CAT_TY_SET;
    return from_set(e, p->all);
  }
  if (strcmp(name, "M") == 0) {
    *type = CAT_TY_SET;
    smt_val *v = from_set(e, p->tagset[LX_T_R]);
    for (size_t i = 0; i < e->n; i++)
      if (rel_set_has(p->tagset[LX_T_W], i) && can_run(e, i)) v->t[i] = e->T;
    return v;
  }
  if (lx_tag_lookup(name, &tag)) {
    *type = CAT_TY_SET;
    return from_set(e, p->tagset[tag]);
  }
  *type = CAT_TY_REL;
  const rel_rel *r = static_rel(p, name);
  if (r) return from_rel(e, r);
  if (strcmp(name, "rf") == 0) return from_choice(e, e->rf);
  if (strcmp(name, "co") == 0) return from_choice(e, e->co);
  if (strcmp(name, "sc") == 0) return from_choice(e, e->sc);
  if (strcmp(name, "sync_bar") == 0) return from_choice(e, e->bar);
  if (strcmp(name, "fr") == 0) {
    smt_val *inv = op(e, CAT_OP_INVERSE, CAT_TY_REL, from_choice(e, e->rf), NULL);
    return op(e, CAT_OP_SEQ, CAT_TY_REL, inv, from_choice(e, e->co));
  }
  return NULL;
}

/* ---- operations ------------------------------------------------------------- */

static smt_val *pointwise(smt_enc *e, cat_op o, cat_type type, const smt_val *a, const smt_val *b) {
  smt_val *v = new_val(e, type);
  size_t cells = type == CAT_TY_SET ? e->n : e->n * e->n;
  for (size_t i = 0; i < cells; i++) {
    switch (o) {
    case CAT_OP_UNION: v->t[i] = smt_or(e, a->t[i], b->t[i]); break;
    case CAT_OP_INTER: v->t[i] = smt_and(e, a->t[i], b->t[i]); break;
    default: v->t[i] = smt_and(e, a->t[i], smt_not(e, b->t[i])); break;
    }
  }
  return v;
}

static smt_val *complement(smt_enc *e, cat_type type, const smt_val *a) {
  smt_val *v = new_val(e, type);
  if (type == CAT_TY_SET) {
    for (size_t i = 0; i < e->n; i++)
      if (can_run(e, i)) v->t[i] = smt_not(e, a->t[i]);
    return v;
  }
  for (size_t x = 0; x < e->n; x++)
    for (size_t y = 0; y < e->n; y++)
      if (possible2(e, x, y)) AT(v, x, y) = smt_not(e, AT(a, x, y));
  return v;
}

static smt_val *seq(smt_enc *e, const smt_val *a, const smt_val *b) {
  smt_val *v = new_val(e, CAT_TY_REL);
  for (size_t x = 0; x < e->n; x++)
    for (size_t y = 0; y < e->n; y++) {
      Z3_ast axy = AT(a, x, y);
      if (!axy) continue;
      for (size_t z = 0; z < e->n; z++) {
        Z3_ast byz = AT(b, y, z);
        if (!byz || !possible2(e, x, z)) continue;
        Z3_ast step = smt_and(e, smt_and(e, axy, smt_exec_given(e, y, x, z)), byz);
        AT(v, x, z) = smt_or(e, AT(v, x, z), step);
      }
    }
  return v;
}

/* Warshall's algorithm on terms: exact, and n^3 small steps in total. */
static smt_val *closure(smt_enc *e, const smt_val *a, bool reflexive) {
  smt_val *v = new_val(e, CAT_TY_REL);
  memcpy(v->t, a->t, e->n * e->n * sizeof(Z3_ast));
  for (size_t k = 0; k < e->n; k++)
    for (size_t i = 0; i < e->n; i++) {
      Z3_ast ik = AT(v, i, k);
      if (!ik || i == k) continue;
      for (size_t j = 0; j < e->n; j++) {
        Z3_ast kj = AT(v, k, j);
        if (!kj || j == k || !possible2(e, i, j)) continue;
        Z3_ast step = smt_and(e, smt_and(e, ik, smt_exec_given(e, k, i, j)), kj);
        AT(v, i, j) = smt_or(e, AT(v, i, j), step);
      }
    }
  if (reflexive)
    for (size_t i = 0; i < e->n; i++)
      if (can_run(e, i)) AT(v, i, i) = e->T;
  return v;
}

static smt_val *project(smt_enc *e, const smt_val *a, bool domain) {
  smt_val *v = new_val(e, CAT_TY_SET);
  for (size_t x = 0; x < e->n; x++)
    for (size_t y = 0; y < e->n; y++) {
      Z3_ast t = domain ? AT(a, x, y) : AT(a, y, x);
      if (t) v->t[x] = smt_or(e, v->t[x], smt_and(e, t, smt_exec_given(e, y, x, x)));
    }
  return v;
}

/* herd's `with x from linearisations(S, r)`: herd evaluates the rest of
 * the model once per strict total order of S that includes r+ & (S * S);
 * here the order is fresh, the solver's choice, so an execution is allowed
 * when some order passes every check, as in herd.  The order is required
 * to extend r+ and be total only when r+ has no cycle within S: else
 * there is none, and the model's NAME-exists check fails. */
static smt_val *linear(smt_enc *e, const smt_val *s, const smt_val *r) {
  smt_val *rp = closure(e, r, false);
  smt_val *v = new_val(e, CAT_TY_REL);
  Z3_ast acyclic = e->T;
  for (size_t x = 0; x < e->n; x++)
    if (AT(rp, x, x) && s->t[x])
      acyclic = smt_and(e, acyclic, smt_not(e, smt_and(e, e->exec[x], smt_and(e, s->t[x], AT(rp, x, x)))));
  for (size_t x = 0; x < e->n; x++)
    for (size_t y = 0; y < e->n; y++) {
      if (x == y || !s->t[x] || !s->t[y] || !possible2(e, x, y)) continue;
      AT(v, x, y) = Z3_mk_fresh_const(e->z, "lin", e->bool_sort);
      smt_assert(e, smt_implies(e, AT(v, x, y), smt_and(e, smt_exec2(e, x, y), smt_and(e, s->t[x], s->t[y]))));
    }
  for (size_t x = 0; x < e->n; x++)
    for (size_t y = 0; y < e->n; y++) {
      Z3_ast xy = AT(v, x, y);
      if (!xy) continue;
      Z3_ast both = smt_and(e, acyclic, smt_and(e, smt_exec2(e, x, y), smt_and(e, s->t[x], s->t[y])));
      if (x < y) {
        smt_assert(e, smt_not(e, smt_and(e, xy, AT(v, y, x))));
        smt_assert(e, smt_implies(e, both, smt_or(e, xy, AT(v, y, x))));
      }
      if (AT(rp, x, y)) smt_assert(e, smt_implies(e, smt_and(e, both, AT(rp, x, y)), xy));
      for (size_t z = 0; z < e->n; z++) {
        Z3_ast yz = AT(v, y, z);
        if (z == x || z == y || !yz) continue;
        smt_assert(e, smt_implies(e, smt_and(e, xy, yz), AT(v, x, z)));
      }
    }
  return v;
}

static cat_value op(void *ctx, cat_op o, cat_type type, cat_value va, cat_value vb) {
  smt_enc *e = ctx;
  const smt_val *a = va, *b = vb;
  smt_val *v;
  switch (o) {
  case CAT_OP_EMPTY: return new_val(e, type);
  case CAT_OP_UNION:
  case CAT_OP_INTER:
  case CAT_OP_DIFF: return pointwise(e, o, type, a, b);
  case CAT_OP_COMPL: return complement(e, type, a);
  case CAT_OP_SEQ: return seq(e, a, b);
  case CAT_OP_PRODUCT:
    v = new_val(e, CAT_TY_REL);
    for (size_t x = 0; x < e->n; x++)
      for (size_t y = 0; y < e->n; y++)
        if (possible2(e, x, y)) AT(v, x, y) = smt_and(e, a->t[x], b->t[y]);
    return v;
  case CAT_OP_IDSET:
    v = new_val(e, CAT_TY_REL);
    for (size_t x = 0; x < e->n; x++) AT(v, x, x) = a->t[x];
    return v;
  case CAT_OP_INVERSE:
    v = new_val(e, CAT_TY_REL);
    for (size_t x = 0; x < e->n; x++)
      for (size_t y = 0; y < e->n; y++) AT(v, y, x) = AT(a, x, y);
    return v;
  case CAT_OP_PLUS: return closure(e, a, false);
  case CAT_OP_STAR: return closure(e, a, true);
  case CAT_OP_OPT:
    v = new_val(e, CAT_TY_REL);
    memcpy(v->t, a->t, e->n * e->n * sizeof(Z3_ast));
    for (size_t x = 0; x < e->n; x++)
      if (can_run(e, x)) AT(v, x, x) = e->T;
    return v;
  case CAT_OP_DOMAIN: return project(e, a, true);
  case CAT_OP_RANGE: return project(e, a, false);
  case CAT_OP_LINEAR: return linear(e, a, b);
  }
  return NULL;
}

static bool same(void *ctx, cat_type type, cat_value a, cat_value b) {
  smt_enc *e = ctx;
  size_t cells = type == CAT_TY_SET ? e->n : e->n * e->n;
  return memcmp(((smt_val *)a)->t, ((smt_val *)b)->t, cells * sizeof(Z3_ast)) == 0;
}

/* ---- checks --------------------------------------------------------------------- */

static Z3_ast nonempty(smt_enc *e, const smt_val *v) {
  Z3_ast any = NULL;
  if (v->type == CAT_TY_SET) {
    for (size_t a = 0; a < e->n; a++) any = smt_or(e, any, smt_and(e, e->exec[a], v->t[a]));
    return any;
  }
  for (size_t a = 0; a < e->n; a++)
    for (size_t b = 0; b < e->n; b++)
      if (AT(v, a, b)) any = smt_or(e, any, smt_pair(e, v, a, b));
  return any;
}

static Z3_ast irreflexive(smt_enc *e, const smt_val *v) {
  Z3_ast all = e->T;
  for (size_t a = 0; a < e->n; a++)
    if (AT(v, a, a)) all = smt_and(e, all, smt_not(e, smt_and(e, e->exec[a], AT(v, a, a))));
  return all;
}

static Z3_ast holds(smt_enc *e, cat_check_kind kind, const smt_val *v) {
  switch (kind) {
  case CAT_CHECK_ACYCLIC: return irreflexive(e, closure(e, v, false));
  case CAT_CHECK_IRREFLEXIVE: return irreflexive(e, v);
  default: return smt_not(e, nonempty(e, v));
  }
}

static void check(void *ctx, cat_check_kind kind, bool flag, cat_value cv, const char *name, lc_loc at) {
  smt_enc *e = ctx;
  smt_val *v = cv;
  if (flag) {
    smt_flag f = {name, v};
    lc_vec_push(&e->flags, f);
    return;
  }
  if (e->defer_checks) {
    smt_deferred c = {kind, v, NULL};
    lc_vec_push(&e->deferred, c);
    return;
  }
  lc_vec_push(&e->checks, holds(e, kind, v));
}

Z3_ast smt_deferred_check(smt_enc *e, size_t k) {
  assert(e && k < e->deferred.n);
  smt_deferred *c = &e->deferred.v[k];
  if (!c->holds) c->holds = holds(e, c->kind, c->v);
  return c->holds;
}

cat_backend smt_cat_backend(smt_enc *e) {
  assert(e && e->p && e->z);
  cat_backend be = {0};
  be.builtin = builtin;
  be.op = op;
  be.same = same;
  be.rec_limit = e->n * e->n + 1;
  be.check = check;
  be.release = NULL;   /* values are freed with the encoding */
  be.ctx = e;
  return be;
}

Z3_ast smt_flag_nonempty(smt_enc *e, const smt_val *v) { return nonempty(e, v); }
