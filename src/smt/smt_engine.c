/* smt_engine.c - encode a lowered test and a model in Z3, then list every
 * allowed final state with blocking clauses over the observables only.
 * SPDX-License-Identifier: MIT
 *
 * What Z3 chooses: one path per thread, rf (a source for every executed
 * read), co and sc (strict partial orders, transitive by clauses), barrier
 * arrival times, and which co-maximal write gives each observed location
 * its final value.  Everything else, the model's relations included, is a
 * term over those choices, so the model's checks (and its flags) are exact.
 * States are enumerated on one incremental solver: after each model, a
 * clause forbids that combination of observable values, so co orders and
 * rf choices that give the same state are never visited twice.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smt/smt.h"
#include "smt/smt_internal.h"

/* A Z3 error means we built a malformed term: a bug, not an input error. */
static void on_z3_error(Z3_context z, Z3_error_code code) {
  lc_die("Z3 error %d: %s", (int)code, Z3_get_error_msg(z, code));
}

static Z3_ast fresh_bool(smt_enc *e, const char *fmt, int a, int b) {
  char name[64];
  snprintf(name, sizeof name, fmt, a, b);
  return Z3_mk_const(e->z, Z3_mk_string_symbol(e->z, name), e->bool_sort);
}

static Z3_ast bv(smt_enc *e, lx_val v) { return Z3_mk_unsigned_int64(e->z, (uint64_t)v, e->bv_sort); }

static Z3_ast *matrix(smt_enc *e) {
  size_t cells = e->n * e->n;
  return lc_xcalloc(cells ? cells : 1, sizeof(Z3_ast));
}

/* At most one of xs is true: pairwise for a few, a cardinality constraint
 * beyond that. */
static void at_most_one(smt_enc *e, Z3_ast *xs, size_t k) {
  if (k <= 1) return;
  if (k <= 6) {
    for (size_t i = 0; i < k; i++)
      for (size_t j = i + 1; j < k; j++) smt_assert(e, smt_not(e, smt_and(e, xs[i], xs[j])));
    return;
  }
  smt_assert(e, Z3_mk_atmost(e->z, (unsigned)k, xs, 1));
}

/* ---- values -------------------------------------------------------------------- */

static Z3_ast expr(smt_enc *e, const lx_expr *x) {
  Z3_context z = e->z;
  if (x->kind == LX_X_CONST) return bv(e, x->c);
  if (x->kind == LX_X_READ) return e->val[x->event];
  Z3_ast a = expr(e, x->a), b = expr(e, x->b), zero = bv(e, 0);
  switch (x->op) {
  case LX_OP_ADD: return Z3_mk_bvadd(z, a, b);
  case LX_OP_SUB: return Z3_mk_bvsub(z, a, b);
  case LX_OP_MUL: return Z3_mk_bvmul(z, a, b);
  /* x/0 = 0 and x%0 = x, as lx_op_apply defines them. */
  case LX_OP_DIV: return Z3_mk_ite(z, Z3_mk_eq(z, b, zero), zero, Z3_mk_bvsdiv(z, a, b));
  case LX_OP_REM: return Z3_mk_ite(z, Z3_mk_eq(z, b, zero), a, Z3_mk_bvsrem(z, a, b));
  case LX_OP_AND: return Z3_mk_bvand(z, a, b);
  case LX_OP_OR: return Z3_mk_bvor(z, a, b);
  case LX_OP_XOR: return Z3_mk_bvxor(z, a, b);
  case LX_OP_MIN: return Z3_mk_ite(z, Z3_mk_bvslt(z, a, b), a, b);
  case LX_OP_MAX: return Z3_mk_ite(z, Z3_mk_bvsgt(z, a, b), a, b);
  case LX_OP_UMIN: return Z3_mk_ite(z, Z3_mk_bvult(z, a, b), a, b);
  case LX_OP_UMAX: return Z3_mk_ite(z, Z3_mk_bvugt(z, a, b), a, b);
  case LX_OP_INC: return Z3_mk_ite(z, Z3_mk_bvuge(z, a, b), zero, Z3_mk_bvadd(z, a, bv(e, 1)));
  case LX_OP_DEC: {
    Z3_ast c[2] = {Z3_mk_eq(z, a, zero), Z3_mk_bvugt(z, a, b)};
    return Z3_mk_ite(z, Z3_mk_or(z, 2, c), b, Z3_mk_bvsub(z, a, bv(e, 1)));
  }
  }
  return zero;
}

static Z3_ast compare(smt_enc *e, lt_cmp cmp, Z3_ast a, Z3_ast b) {
  Z3_context z = e->z;
  switch (cmp) {
  case LT_CMP_EQ: return Z3_mk_eq(z, a, b);
  case LT_CMP_NE: return Z3_mk_not(z, Z3_mk_eq(z, a, b));
  case LT_CMP_LT: return Z3_mk_bvslt(z, a, b);
  case LT_CMP_LE: return Z3_mk_bvsle(z, a, b);
  case LT_CMP_GT: return Z3_mk_bvsgt(z, a, b);
  case LT_CMP_GE: return Z3_mk_bvsge(z, a, b);
  }
  return e->T;
}

/* ---- paths ------------------------------------------------------------------------ */

static void encode_paths(smt_enc *e) {
  const lx_program *p = e->p;
  for (size_t t = 0; t < p->nthreads; t++) {
    const lx_thread *th = &p->threads[t];
    Z3_ast *sel = lc_xcalloc(th->npaths ? th->npaths : 1, sizeof(Z3_ast));
    for (size_t k = 0; k < th->npaths; k++) {
      int pi = th->paths[k];
      sel[k] = th->npaths == 1 && !p->paths[pi].cut ? e->T : fresh_bool(e, "path_%d_%d", th->id, (int)k);
      e->path[pi] = sel[k];
    }
    Z3_ast some = NULL;
    for (size_t k = 0; k < th->npaths; k++) some = smt_or(e, some, sel[k]);
    smt_assert(e, some);
    at_most_one(e, sel, th->npaths);
    free(sel);
  }
  for (size_t i = 0; i < p->nevents; i++) {
    const lx_event *ev = &p->events[i];
    e->exec[i] = ev->path < 0 ? e->T : e->path[ev->path];
  }
}

static void encode_path_conditions(smt_enc *e) {
  const lx_program *p = e->p;
  for (size_t pi = 0; pi < p->npaths; pi++) {
    const lx_path *path = &p->paths[pi];
    for (size_t c = 0; c < path->nconds; c++) {
      const lx_cond *cond = &path->conds[c];
      smt_assert(e, smt_implies(e, e->path[pi], compare(e, cond->cmp, expr(e, cond->a), expr(e, cond->b))));
    }
  }
}

/* ---- reads-from ---------------------------------------------------------------- */

static bool rf_possible(const smt_enc *e, size_t w, size_t r) {
  const lx_event *ew = &e->p->events[w], *er = &e->p->events[r];
  return ew->kind == LX_EV_WRITE && ew->ploc == er->ploc && w != r && e->exec[w] && e->exec[r] &&
         !rel_has(e->p->exclusive, w, r);
}

/* A read whose possible sources all write constants gets its value as an
 * if-then-else over its rf choices instead of a bit-vector variable: the
 * common case, and it keeps most tests purely Boolean. */
static bool encode_read_sources(smt_enc *e, size_t r, Z3_ast *cands) {
  const lx_program *p = e->p;
  size_t k = 0;
  bool constant = true;
  for (size_t w = 0; w < e->n; w++) {
    if (!rf_possible(e, w, r)) continue;
    Z3_ast x = fresh_bool(e, "rf_e%d_e%d", (int)w, (int)r);
    e->rf[w * e->n + r] = x;
    cands[k++] = x;
    smt_assert(e, smt_implies(e, x, smt_and(e, e->exec[w], e->exec[r])));
    constant &= p->events[w].value->kind == LX_X_CONST;
  }
  Z3_ast some = NULL;
  for (size_t i = 0; i < k; i++) some = smt_or(e, some, cands[i]);
  smt_assert(e, smt_implies(e, e->exec[r], some));
  at_most_one(e, cands, k);
  if (!constant) {
    char name[32];
    snprintf(name, sizeof name, "v_e%zu", r);
    e->val[r] = Z3_mk_const(e->z, Z3_mk_string_symbol(e->z, name), e->bv_sort);
    return true;
  }
  Z3_ast v = bv(e, 0);
  for (size_t w = e->n; w-- > 0;)
    if (e->rf[w * e->n + r]) v = Z3_mk_ite(e->z, e->rf[w * e->n + r], bv(e, p->events[w].value->c), v);
  e->val[r] = v;
  return false;
}

static void encode_rf(smt_enc *e) {
  const lx_program *p = e->p;
  Z3_ast *cands = lc_xcalloc(e->n ? e->n : 1, sizeof(Z3_ast));
  bool *is_var = lc_xcalloc(e->n ? e->n : 1, sizeof(bool));
  for (size_t r = 0; r < e->n; r++)
    if (p->events[r].kind == LX_EV_READ && e->exec[r]) is_var[r] = encode_read_sources(e, r, cands);
  /* A variable's sources may compute their values from other reads, whose
   * terms all exist only now. */
  for (size_t r = 0; r < e->n; r++) {
    if (!is_var[r]) continue;
    for (size_t w = 0; w < e->n; w++) {
      Z3_ast x = e->rf[w * e->n + r];
      if (x) smt_assert(e, smt_implies(e, x, Z3_mk_eq(e->z, e->val[r], expr(e, p->events[w].value))));
    }
  }
  free(cands);
  free(is_var);
}

/* ---- coherence and the Fence-SC order ------------------------------------------------- */

/* A strict partial order over `members` (events that may be related): each
 * pair gets a variable, and antisymmetry and transitivity are clauses.
 * Initial writes come first without a variable (relative to execution,
 * "before every executed write" is simply true). */
static void encode_order(smt_enc *e, Z3_ast *m, const size_t *members, size_t k, const char *name) {
  for (size_t i = 0; i < k; i++)
    for (size_t j = 0; j < k; j++) {
      size_t a = members[i], b = members[j];
      if (a == b || !smt_exec2(e, a, b)) continue;
      bool ia = e->p->events[a].path < 0, ib = e->p->events[b].path < 0;
      if (ia || ib) {
        m[a * e->n + b] = ia && !ib ? e->T : NULL;
        continue;
      }
      char fmt[32];
      snprintf(fmt, sizeof fmt, "%s_e%%d_e%%d", name);
      m[a * e->n + b] = fresh_bool(e, fmt, (int)a, (int)b);
      smt_assert(e, smt_implies(e, m[a * e->n + b], smt_and(e, e->exec[a], e->exec[b])));
    }
  for (size_t i = 0; i < k; i++)
    for (size_t j = 0; j < k; j++) {
      size_t a = members[i], b = members[j];
      Z3_ast ab = m[a * e->n + b], ba = m[b * e->n + a];
      if (a < b && ab && ba && ab != e->T && ba != e->T) smt_assert(e, smt_not(e, smt_and(e, ab, ba)));
      if (!ab || ab == e->T) continue;
      for (size_t l = 0; l < k; l++) {
        size_t c = members[l];
        Z3_ast bc = m[b * e->n + c];
        if (c == a || c == b || !bc || bc == e->T) continue;
        Z3_ast ac = m[a * e->n + c];
        smt_assert(e, smt_implies(e, smt_and(e, ab, bc), ac));
      }
    }
}

static void encode_co_sc(smt_enc *e) {
  const lx_program *p = e->p;
  size_t *members = lc_xcalloc(e->n ? e->n : 1, sizeof(size_t));
  for (size_t l = 0; l < p->nplocs; l++) {
    size_t k = 0;
    for (size_t i = 0; i < e->n; i++)
      if (p->events[i].kind == LX_EV_WRITE && p->events[i].ploc == (int)l && e->exec[i]) members[k++] = i;
    encode_order(e, e->co, members, k, "co");
  }
  size_t k = 0;
  for (size_t i = 0; i < e->n; i++)
    if (lx_has(&p->events[i], LX_T_F) && lx_has(&p->events[i], LX_T_SC) && e->exec[i]) members[k++] = i;
  encode_order(e, e->sc, members, k, "sc");
  free(members);
}

/* ---- barriers ---------------------------------------------------------------------- */

static bool is_bar(const lx_event *ev) { return ev->kind == LX_EV_BAR_ARRIVE || ev->kind == LX_EV_BAR_WAIT; }

/* Two barrier events of different threads join the same instance: same
 * CTA, same instance number n, same occurrence k on their paths, and the
 * same id (docs/model-language.md, "barriers"). */
static Z3_ast same_instance(smt_enc *e, size_t a, size_t b) {
  const lx_event *ea = &e->p->events[a], *eb = &e->p->events[b];
  const lx_thread *ta = &e->p->threads[ea->thread], *tb = &e->p->threads[eb->thread];
  if (ea->thread == eb->thread || ta->gpu != tb->gpu || ta->cta != tb->cta || ea->bar_n != eb->bar_n ||
      ea->bar_k != eb->bar_k || !smt_exec2(e, a, b))
    return NULL;
  if (!ea->bar_id != !eb->bar_id) return NULL;
  if (!ea->bar_id) return e->T;
  Z3_ast ia = expr(e, ea->bar_id), ib = expr(e, eb->bar_id);
  if (Z3_is_numeral_ast(e->z, ia) && Z3_is_numeral_ast(e->z, ib)) return ia == ib ? e->T : NULL;
  return Z3_mk_eq(e->z, ia, ib);
}

static Z3_ast before(smt_enc *e, size_t a, size_t b) {
  return Z3_mk_lt(e->z, e->bar_time[a], e->bar_time[b]);
}

/* A wait is released once its quorum has arrived: every arrival of its
 * instance when no count is given, else at least `count` arrivals (its own
 * included).  Arrivals after the release pass without synchronising. */
static void encode_release(smt_enc *e, size_t w) {
  const lx_event *ew = &e->p->events[w];
  Z3_context z = e->z;
  LC_VEC(Z3_ast) terms = {0};
  lc_vec_push(&terms, Z3_mk_int(z, 1, e->int_sort));
  for (size_t a = 0; a < e->n; a++) {
    if (e->p->events[a].kind != LX_EV_BAR_ARRIVE) continue;
    Z3_ast inst = same_instance(e, a, w);
    if (!inst) continue;
    Z3_ast joined = smt_and(e, smt_and(e, e->exec[a], inst), e->exec[w]);
    e->bar[a * e->n + w] = smt_and(e, inst, before(e, a, w));
    if (!ew->bar_count)
      smt_assert(e, smt_implies(e, joined, before(e, a, w)));
    else
      lc_vec_push(&terms, Z3_mk_ite(z, smt_and(e, joined, before(e, a, w)), Z3_mk_int(z, 1, e->int_sort),
                                    Z3_mk_int(z, 0, e->int_sort)));
  }
  if (ew->bar_count) {
    Z3_ast arrived = Z3_mk_add(z, (unsigned)terms.n, terms.v);
    Z3_ast quorum = Z3_mk_bv2int(z, expr(e, ew->bar_count), true);
    smt_assert(e, smt_implies(e, e->exec[w], Z3_mk_ge(z, arrived, quorum)));
  }
  lc_vec_free(&terms);
}

static void encode_barriers(smt_enc *e) {
  const lx_program *p = e->p;
  bool any = false;
  for (size_t i = 0; i < e->n; i++)
    if (is_bar(&p->events[i]) && e->exec[i]) {
      char name[32];
      snprintf(name, sizeof name, "t_e%zu", i);
      e->bar_time[i] = Z3_mk_const(e->z, Z3_mk_string_symbol(e->z, name), e->int_sort);
      any = true;
    }
  if (!any) return;
  /* A thread meets its barriers in program order. */
  for (size_t pi = 0; pi < p->npaths; pi++) {
    const lx_path *path = &p->paths[pi];
    int prev = -1;
    for (size_t i = 0; i < path->nevents; i++) {
      int ev = path->events[i];
      if (!is_bar(&p->events[ev])) continue;
      if (prev >= 0) smt_assert(e, before(e, (size_t)prev, (size_t)ev));
      prev = ev;
    }
  }
  for (size_t w = 0; w < e->n; w++)
    if (p->events[w].kind == LX_EV_BAR_WAIT && e->exec[w]) encode_release(e, w);
}

/* ---- observables ------------------------------------------------------------------ */

static Z3_ast final_register(smt_enc *e, const lx_obs *o) {
  const lx_thread *th = &e->p->threads[o->thread];
  Z3_ast v = NULL;
  for (size_t k = th->npaths; k-- > 0;) {
    const lx_path *path = &e->p->paths[th->paths[k]];
    if (path->cut) continue;
    Z3_ast x = expr(e, path->regs[o->slot]);
    v = v ? Z3_mk_ite(e->z, e->path[th->paths[k]], x, v) : x;
  }
  return v ? v : bv(e, 0);
}

/* The final value of a location comes from a co-maximal write, chosen by
 * the solver among them (docs/model-language.md, item 5). */
static Z3_ast final_location(smt_enc *e, int ploc) {
  const lx_program *p = e->p;
  LC_VEC(Z3_ast) last = {0};
  LC_VEC(size_t) writes = {0};
  for (size_t w = 0; w < e->n; w++)
    if (p->events[w].kind == LX_EV_WRITE && p->events[w].ploc == ploc && e->exec[w]) lc_vec_push(&writes, w);
  Z3_ast some = NULL, v = bv(e, 0);
  for (size_t i = 0; i < writes.n; i++) {
    size_t w = writes.v[i];
    Z3_ast x = fresh_bool(e, "last_e%d_%d", (int)w, ploc);
    lc_vec_push(&last, x);
    some = smt_or(e, some, x);
    smt_assert(e, smt_implies(e, x, e->exec[w]));
    for (size_t j = 0; j < writes.n; j++) {
      size_t w2 = writes.v[j];
      Z3_ast later = smt_and(e, smt_exec2(e, w, w2), e->co[w * e->n + w2]);
      if (w2 != w && later) smt_assert(e, smt_implies(e, x, smt_not(e, smt_and(e, e->exec[w2], later))));
    }
  }
  smt_assert(e, some);
  at_most_one(e, last.v, last.n);
  for (size_t i = writes.n; i-- > 0;) v = Z3_mk_ite(e->z, last.v[i], expr(e, p->events[writes.v[i]].value), v);
  lc_vec_free(&last);
  lc_vec_free(&writes);
  return v;
}

static Z3_ast *encode_observables(smt_enc *e) {
  const lx_program *p = e->p;
  Z3_ast *obs = lc_xcalloc(p->nobs ? p->nobs : 1, sizeof(Z3_ast));
  for (size_t i = 0; i < p->nobs; i++)
    obs[i] = p->obs[i].kind == LX_OBS_REG ? final_register(e, &p->obs[i]) : final_location(e, p->obs[i].ploc);
  return obs;
}

static Z3_ast term(smt_enc *e, const lt_term *t, Z3_ast *obs) {
  if (t->kind == LT_TERM_CONST) return bv(e, t->value);
  if (t->kind == LT_TERM_ADDR) {
    for (size_t i = 0; i < e->p->nlocs; i++)
      if (strcmp(e->p->locs[i].name, t->loc) == 0) return bv(e, lx_addr_value((int)i));
    return bv(e, 0);
  }
  int i = lx_obs_index(e->p, t);
  return i >= 0 ? obs[i] : bv(e, 0);
}

static Z3_ast prop(smt_enc *e, const lt_prop *pr, Z3_ast *obs) {
  switch (pr->kind) {
  case LT_PROP_TRUE: return e->T;
  case LT_PROP_FALSE: return NULL;
  case LT_PROP_CMP: return compare(e, pr->cmp, term(e, &pr->lhs, obs), term(e, &pr->rhs, obs));
  case LT_PROP_NOT: return smt_not(e, prop(e, pr->l, obs));
  case LT_PROP_AND: return smt_and(e, prop(e, pr->l, obs), prop(e, pr->r, obs));
  case LT_PROP_OR: return smt_or(e, prop(e, pr->l, obs), prop(e, pr->r, obs));
  }
  return NULL;
}

/* ---- solving ------------------------------------------------------------------------- */

typedef struct query {
  smt_enc *e;
  lc_result *r;
  double deadline;   /* lc_now() seconds, 0 = none */
} query;

/* One satisfiability check, under what is left of the time budget. */
static Z3_lbool solve(query *q) {
  smt_enc *e = q->e;
  if (q->deadline > 0) {
    double left = q->deadline - lc_now();
    if (left <= 0) return Z3_L_UNDEF;
    Z3_params params = Z3_mk_params(e->z);
    Z3_params_inc_ref(e->z, params);
    Z3_params_set_uint(e->z, params, Z3_mk_string_symbol(e->z, "timeout"), (unsigned)(left * 1000) + 1);
    Z3_solver_set_params(e->z, e->s, params);
    Z3_params_dec_ref(e->z, params);
  }
  q->r->solver_checks++;
  return Z3_solver_check(e->z, e->s);
}

static bool unknown(query *q, const char *what) {
  const char *why = Z3_solver_get_reason_unknown(q->e->z, q->e->s);
  lc_result_fail(q->r, LC_RESULT_UNKNOWN, "the solver gave no answer while %s (%s)", what,
                 why && *why ? why : "unknown");
  return false;
}

static lx_val model_value(smt_enc *e, Z3_model m, Z3_ast t) {
  Z3_ast out;
  uint64_t u = 0;
  if (Z3_model_eval(e->z, m, t, true, &out)) Z3_get_numeral_uint64(e->z, out, &u);
  return (lx_val)u;
}

static bool model_true(smt_enc *e, Z3_model m, Z3_ast t) {
  Z3_ast out;
  if (!t) return false;
  return Z3_model_eval(e->z, m, t, true, &out) && Z3_get_bool_value(e->z, out) == Z3_L_TRUE;
}

/* Is there an allowed execution that goes past the unroll bound? */
static bool query_bound(query *q) {
  smt_enc *e = q->e;
  const lx_program *p = e->p;
  Z3_ast any = NULL;
  for (size_t pi = 0; pi < p->npaths; pi++)
    if (p->paths[pi].cut) any = smt_or(e, any, e->path[pi]);
  if (!any) return true;
  Z3_solver_push(e->z, e->s);
  smt_assert(e, any);
  Z3_lbool res = solve(q);
  Z3_solver_pop(e->z, e->s, 1);
  if (res == Z3_L_UNDEF) return unknown(q, "looking for executions cut by the unroll bound");
  q->r->bound_reached = res == Z3_L_TRUE;
  for (size_t pi = 0; pi < p->npaths; pi++)
    if (p->paths[pi].cut) smt_assert(e, smt_not(e, e->path[pi]));
  return true;
}

static bool query_flags(query *q) {
  smt_enc *e = q->e;
  q->r->nflags = e->flags.n;
  q->r->flags = lc_xcalloc(e->flags.n ? e->flags.n : 1, sizeof(lc_flag));
  for (size_t f = 0; f < e->flags.n; f++) {
    lc_flag *out = &q->r->flags[f];
    out->name = e->flags.v[f].name;
    out->ev_a = out->ev_b = -1;
    Z3_solver_push(e->z, e->s);
    smt_assert(e, smt_flag_nonempty(e, e->flags.v[f].v));
    Z3_lbool res = solve(q);
    if (res == Z3_L_TRUE) {
      Z3_model m = Z3_solver_get_model(e->z, e->s);
      Z3_model_inc_ref(e->z, m);
      out->raised = true;
      for (size_t a = 0; a < e->n && out->ev_a < 0; a++)
        for (size_t b = 0; b < e->n && out->ev_a < 0; b++)
          if (model_true(e, m, smt_pair(e, e->flags.v[f].v, a, b))) {
            out->ev_a = (int)a;
            out->ev_b = (int)b;
          }
      Z3_model_dec_ref(e->z, m);
    }
    Z3_solver_pop(e->z, e->s, 1);
    if (res == Z3_L_UNDEF) return unknown(q, "checking the model's flags");
  }
  return true;
}

static bool enumerate(query *q, Z3_ast *obs) {
  smt_enc *e = q->e;
  size_t k = e->p->nshown;
  lx_val *vals = lc_xcalloc(k ? k : 1, sizeof(lx_val));
  bool ok = true;
  for (;;) {
    Z3_lbool res = solve(q);
    if (res == Z3_L_FALSE) break;
    if (res == Z3_L_UNDEF) {
      ok = unknown(q, "listing the allowed states");
      break;
    }
    Z3_model m = Z3_solver_get_model(e->z, e->s);
    Z3_model_inc_ref(e->z, m);
    Z3_ast differ = NULL;
    for (size_t i = 0; i < k; i++) {
      vals[i] = model_value(e, m, obs[i]);
      differ = smt_or(e, differ, Z3_mk_not(e->z, Z3_mk_eq(e->z, obs[i], bv(e, vals[i]))));
    }
    Z3_model_dec_ref(e->z, m);
    lc_result_add_state(q->r, vals);
    if (!differ) break;   /* nothing observed: one state */
    smt_assert(e, differ);
  }
  free(vals);
  return ok;
}

/* ---- the entry point ------------------------------------------------------------------ */

static void enc_init(smt_enc *e, const lx_program *p) {
  memset(e, 0, sizeof *e);
  Z3_config cfg = Z3_mk_config();
  Z3_set_param_value(cfg, "model", "true");
  e->z = Z3_mk_context(cfg);
  Z3_del_config(cfg);
  Z3_set_error_handler(e->z, on_z3_error);
  e->s = Z3_mk_simple_solver(e->z);
  Z3_solver_inc_ref(e->z, e->s);
  e->p = p;
  e->n = p->nevents;
  e->T = Z3_mk_true(e->z);
  e->bool_sort = Z3_mk_bool_sort(e->z);
  e->bv_sort = Z3_mk_bv_sort(e->z, 64);
  e->int_sort = Z3_mk_int_sort(e->z);
  e->path = lc_xcalloc(p->npaths ? p->npaths : 1, sizeof(Z3_ast));
  e->exec = lc_xcalloc(e->n ? e->n : 1, sizeof(Z3_ast));
  e->val = lc_xcalloc(e->n ? e->n : 1, sizeof(Z3_ast));
  e->bar_time = lc_xcalloc(e->n ? e->n : 1, sizeof(Z3_ast));
  e->rf = matrix(e);
  e->co = matrix(e);
  e->sc = matrix(e);
  e->bar = matrix(e);
}

static void enc_fini(smt_enc *e) {
  for (size_t i = 0; i < e->vals.n; i++) {
    free(e->vals.v[i]->t);
    free(e->vals.v[i]);
  }
  lc_vec_free(&e->vals);
  lc_vec_free(&e->flags);
  lc_vec_free(&e->checks);
  free(e->path);
  free(e->exec);
  free(e->val);
  free(e->bar_time);
  free(e->rf);
  free(e->co);
  free(e->sc);
  free(e->bar);
  Z3_solver_dec_ref(e->z, e->s);
  Z3_del_context(e->z);
}

static bool encode(smt_enc *e, const cat_model *m, lc_result *r, Z3_ast **obs) {
  encode_paths(e);
  encode_rf(e);
  encode_path_conditions(e);
  encode_co_sc(e);
  encode_barriers(e);
  *obs = encode_observables(e);
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  cat_backend be = smt_cat_backend(e);
  int rc = cat_eval(m, &be, &d);
  if (rc < 0) {
    const char *msg = lc_diag_first_error(&d);
    lc_result_fail(r, LC_RESULT_ERROR, "%s", msg ? msg : "the model could not be evaluated");
  }
  lc_diag_fini(&d);
  if (rc < 0) return false;
  for (size_t i = 0; i < e->checks.n; i++) smt_assert(e, e->checks.v[i]);
  /* The filter speaks of final states, and an execution cut by the unroll
   * bound has none: its registers would be read off a path it did not
   * take.  So the filter constrains finished executions only, and
   * query_bound reports a cut execution whatever the filter says. */
  if (e->p->test->filter) {
    Z3_ast cut = NULL;
    for (size_t pi = 0; pi < e->p->npaths; pi++)
      if (e->p->paths[pi].cut) cut = smt_or(e, cut, e->path[pi]);
    smt_assert(e, smt_or(e, cut, prop(e, e->p->test->filter, *obs)));
  }
  return true;
}

lc_result *smt_check(const lx_program *p, const cat_model *m, const smt_options *o) {
  double start = lc_now();
  lc_result *r = lc_result_new(p, "smt", cat_model_name(m));
  smt_enc e;
  enc_init(&e, p);
  query q = {&e, r, o && o->timeout > 0 ? start + o->timeout : 0};
  Z3_ast *obs = NULL;
  bool races = !o || o->races;
  if (encode(&e, m, r, &obs) && query_bound(&q) && (!races || query_flags(&q))) enumerate(&q, obs);
  free(obs);
  enc_fini(&e);
  lc_result_sort(r);
  r->seconds = lc_now() - start;
  return r;
}
