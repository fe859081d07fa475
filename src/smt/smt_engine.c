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
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smt/smt.h"
#include "smt/smt_internal.h"

/* A Z3 error means we built a malformed term: a bug, not an input error;
 * but out of memory (its memory_max_size, or an address-space limit) is
 * a bounded answer, which the process's status tells (lc.h). */
static void on_z3_error(Z3_context z, Z3_error_code code) {
  if (code == Z3_MEMOUT_FAIL) lc_out_of_memory("Z3");
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

/* ---- mbarrier states (the layout of exec/mbar.c, on bit-vectors) ---- */

typedef struct mb_fields {
  Z3_ast expected, pending, tx, phase;   /* 16, 16, 24, 7 bits */
} mb_fields;

static mb_fields mb_split(Z3_context z, Z3_ast s) {
  mb_fields f = {Z3_mk_extract(z, 15, 0, s), Z3_mk_extract(z, 31, 16, s), Z3_mk_extract(z, 55, 32, s),
                 Z3_mk_extract(z, 62, 56, s)};
  return f;
}

static Z3_ast mb_join(Z3_context z, mb_fields f) {
  Z3_ast top = Z3_mk_concat(z, Z3_mk_int(z, 0, Z3_mk_bv_sort(z, 1)), f.phase);
  return Z3_mk_concat(z, Z3_mk_concat(z, Z3_mk_concat(z, top, f.tx), f.pending), f.expected);
}

static Z3_ast bits(Z3_context z, unsigned n, unsigned v) { return Z3_mk_unsigned_int(z, v, Z3_mk_bv_sort(z, n)); }

static mb_fields mb_complete(Z3_context z, mb_fields f) {
  Z3_ast c[2] = {Z3_mk_eq(z, f.pending, bits(z, 16, 0)), Z3_mk_eq(z, f.tx, bits(z, 24, 0))};
  Z3_ast done = Z3_mk_and(z, 2, c);
  f.phase = Z3_mk_ite(z, done, Z3_mk_bvadd(z, f.phase, bits(z, 7, 1)), f.phase);
  f.pending = Z3_mk_ite(z, done, f.expected, f.pending);
  return f;
}

static mb_fields mb_arrive(Z3_context z, mb_fields f, Z3_ast n16) {
  f.pending = Z3_mk_ite(z, Z3_mk_bvugt(z, n16, f.pending), bits(z, 16, 0), Z3_mk_bvsub(z, f.pending, n16));
  return f;
}

static Z3_ast mb_expr(smt_enc *e, lx_op op, Z3_ast a, Z3_ast b) {
  Z3_context z = e->z;
  mb_fields f = mb_split(z, a);
  Z3_ast b16 = Z3_mk_extract(z, 15, 0, b), b24 = Z3_mk_extract(z, 23, 0, b);
  Z3_ast one = bv(e, 1), zero = bv(e, 0);
  switch (op) {
  case LX_OP_MB_INIT: {
    mb_fields i = {Z3_mk_extract(z, 15, 0, a), Z3_mk_extract(z, 15, 0, a), bits(z, 24, 0), bits(z, 7, 0)};
    return mb_join(z, i);
  }
  case LX_OP_MB_ARRIVE: return mb_join(z, mb_complete(z, mb_arrive(z, f, b16)));
  case LX_OP_MB_ARRIVE_TX:
    f.tx = Z3_mk_bvadd(z, f.tx, b24);
    return mb_join(z, mb_complete(z, mb_arrive(z, f, bits(z, 16, 1))));
  case LX_OP_MB_EXPECT:
    f.tx = Z3_mk_bvadd(z, f.tx, b24);
    return mb_join(z, mb_complete(z, f));
  case LX_OP_MB_COMPLETE:
    f.tx = Z3_mk_bvsub(z, f.tx, b24);
    return mb_join(z, mb_complete(z, f));
  case LX_OP_MB_DROP:
    f.expected = Z3_mk_bvsub(z, f.expected, bits(z, 16, 1));
    return mb_join(z, mb_complete(z, mb_arrive(z, f, b16)));
  case LX_OP_MB_PHASE: return Z3_mk_zero_ext(z, 57, f.phase);
  case LX_OP_MB_DONE:
    return Z3_mk_ite(z, Z3_mk_eq(z, f.phase, Z3_mk_extract(z, 6, 0, b)), zero, one);
  case LX_OP_MB_DONE_PARITY:
    return Z3_mk_ite(z, Z3_mk_eq(z, Z3_mk_extract(z, 0, 0, f.phase), Z3_mk_extract(z, 0, 0, b)), zero, one);
  default: return zero;
  }
}

/* Floats, as lx_op_apply computes them: binary32 bits in the low half, IEEE
 * arithmetic rounded to nearest even, a NaN result the canonical
 * 0x7fffffff (SMT-LIB leaves a NaN's bits open), F2I truncating with a NaN
 * 0 and the 64-bit range's ends past it. */
static Z3_ast float_expr(smt_enc *e, lx_op op, Z3_ast a, Z3_ast b) {
  Z3_context z = e->z;
  Z3_sort fs = Z3_mk_fpa_sort_single(z);
  Z3_ast rne = Z3_mk_fpa_rne(z);
  Z3_ast fa = Z3_mk_fpa_to_fp_bv(z, Z3_mk_extract(z, 31, 0, a), fs);
  Z3_ast fb = Z3_mk_fpa_to_fp_bv(z, Z3_mk_extract(z, 31, 0, b), fs);
  Z3_ast r;
  switch (op) {
  case LX_OP_FADD: r = Z3_mk_fpa_add(z, rne, fa, fb); break;
  case LX_OP_FSUB: r = Z3_mk_fpa_sub(z, rne, fa, fb); break;
  case LX_OP_FMUL: r = Z3_mk_fpa_mul(z, rne, fa, fb); break;
  case LX_OP_FDIV: r = Z3_mk_fpa_div(z, rne, fa, fb); break;
  case LX_OP_I2F: r = Z3_mk_fpa_to_fp_signed(z, rne, a, fs); break;
  case LX_OP_U2F: r = Z3_mk_fpa_to_fp_unsigned(z, rne, a, fs); break;
  case LX_OP_F2I: {
    Z3_ast top = Z3_mk_fpa_numeral_float(z, 9223372036854775808.0f, fs);
    Z3_ast bot = Z3_mk_fpa_numeral_float(z, -9223372036854775808.0f, fs);
    Z3_ast v = Z3_mk_fpa_to_sbv(z, Z3_mk_fpa_rtz(z), fa, 64);
    v = Z3_mk_ite(z, Z3_mk_fpa_leq(z, fa, bot), bv(e, INT64_MIN), v);
    v = Z3_mk_ite(z, Z3_mk_fpa_geq(z, fa, top), bv(e, INT64_MAX), v);
    return Z3_mk_ite(z, Z3_mk_fpa_is_nan(z, fa), bv(e, 0), v);
  }
  case LX_OP_FKEY: {
    Z3_ast mag = Z3_mk_bvand(z, a, bv(e, 0x7fffffff));
    Z3_ast neg = Z3_mk_eq(z, Z3_mk_extract(z, 31, 31, a), Z3_mk_int(z, 1, Z3_mk_bv_sort(z, 1)));
    return Z3_mk_ite(z, neg, Z3_mk_bvneg(z, mag), mag);
  }
  case LX_OP_FUNORD: {
    Z3_ast c[2] = {Z3_mk_fpa_is_nan(z, fa), Z3_mk_fpa_is_nan(z, fb)};
    return Z3_mk_ite(z, Z3_mk_or(z, 2, c), bv(e, 1), bv(e, 0));
  }
  default: return bv(e, 0);
  }
  Z3_ast bits = Z3_mk_zero_ext(z, 32, Z3_mk_fpa_to_ieee_bv(z, r));
  return Z3_mk_ite(z, Z3_mk_fpa_is_nan(z, r), bv(e, 0x7fffffff), bits);
}

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
  case LX_OP_U32: return Z3_mk_zero_ext(z, 32, Z3_mk_extract(z, 31, 0, a));
  case LX_OP_S32: return Z3_mk_sign_ext(z, 32, Z3_mk_extract(z, 31, 0, a));
  /* SMT-LIB's shifts by 64 or more give 0 (the sign for bvashr): the clamp
   * lx_op_apply spells out */
  case LX_OP_FADD: case LX_OP_FSUB: case LX_OP_FMUL: case LX_OP_FDIV:
  case LX_OP_I2F: case LX_OP_U2F: case LX_OP_F2I: case LX_OP_FKEY: case LX_OP_FUNORD:
    return float_expr(e, x->op, a, b);
  case LX_OP_SHL: return Z3_mk_bvshl(z, a, b);
  case LX_OP_SHR: return Z3_mk_bvlshr(z, a, b);
  case LX_OP_SAR: return Z3_mk_bvashr(z, a, b);
  default: return mb_expr(e, x->op, a, b);
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

/* Relevancy propagation only pays off for quantifiers and big theory
 * terms; on these Boolean encodings turning it off halved the time of the
 * busiest benchmark family (writers and readers of one location).
 * timeout_ms 0 means none. */
static void solver_params(smt_enc *e, unsigned timeout_ms) {
  Z3_params params = Z3_mk_params(e->z);
  Z3_params_inc_ref(e->z, params);
  Z3_params_set_uint(e->z, params, Z3_mk_string_symbol(e->z, "relevancy"), 0);
  if (timeout_ms) Z3_params_set_uint(e->z, params, Z3_mk_string_symbol(e->z, "timeout"), timeout_ms);
  Z3_solver_set_params(e->z, e->s, params);
  Z3_params_dec_ref(e->z, params);
}

/* ---- paths ------------------------------------------------------------------------ */

/* "Some path cut by the unroll bound runs" (NULL: none can). */
static Z3_ast any_cut(smt_enc *e) {
  Z3_ast any = NULL;
  for (size_t pi = 0; pi < e->p->npaths; pi++)
    if (e->p->paths[pi].cut) any = smt_or(e, any, e->path[pi]);
  return any;
}

static Z3_ast any_ub(smt_enc *e) {
  Z3_ast any = NULL;
  for (size_t pi = 0; pi < e->p->npaths; pi++)
    if (e->p->paths[pi].ub) any = smt_or(e, any, e->path[pi]);
  return any;
}

/* No path cut by the unroll bound runs: one clause per path. */
static void forbid_cut(smt_enc *e) {
  for (size_t pi = 0; pi < e->p->npaths; pi++)
    if (e->p->paths[pi].cut) smt_assert(e, smt_not(e, e->path[pi]));
}

static void encode_paths(smt_enc *e) {
  const lx_program *p = e->p;
  for (size_t t = 0; t < p->nthreads; t++) {
    const lx_thread *th = &p->threads[t];
    Z3_ast *sel = lc_xcalloc(th->npaths ? th->npaths : 1, sizeof(Z3_ast));
    size_t live = 0;
    for (size_t k = 0; k < th->npaths; k++) live += !(e->skip_cut && p->paths[th->paths[k]].cut);
    /* A path that cannot run keeps a NULL selector, as its events do:
     * every term over them vanishes (can_run). */
    size_t n = 0;
    for (size_t k = 0; k < th->npaths; k++) {
      int pi = th->paths[k];
      if (e->skip_cut && p->paths[pi].cut) continue;
      sel[n] = live == 1 && !p->paths[pi].cut ? e->T : fresh_bool(e, "path_%d_%d", th->id, (int)k);
      e->path[pi] = sel[n++];
    }
    Z3_ast some = NULL;
    for (size_t k = 0; k < n; k++) some = smt_or(e, some, sel[k]);
    smt_assert(e, some);
    at_most_one(e, sel, n);
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
    for (size_t c = 0; c < path->nconds && e->path[pi]; c++) {
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

enum { SMT_DOMAIN_MAX = 64 };   /* larger domains stay free: the disjunction costs */

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
    /* Values lie in what the location can hold (lx_domains), as the
     * explicit engine guesses them around a cycle of value dependencies:
     * left free, a cycle that a model allows (herd's C models read from
     * thin air) takes every bit-vector, and the states never end (LB with
     * data dependencies under c11_cos.cat).  Not for an explanation
     * (defer_checks): the state it explains may hold a value out of thin
     * air, which it shows in the execution a check forbids, as the
     * explicit engine's explainer guesses the state's values too. */
    const lx_ploc *pl = &p->plocs[p->events[r].ploc];
    if (!e->defer_checks && !pl->values_unbounded && pl->nvalues && pl->nvalues <= SMT_DOMAIN_MAX) {
      Z3_ast in = NULL;
      for (size_t i = 0; i < pl->nvalues; i++) in = smt_or(e, in, Z3_mk_eq(e->z, e->val[r], bv(e, pl->values[i])));
      smt_assert(e, smt_implies(e, e->exec[r], in));
    }
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
static void encode_order(smt_enc *e, Z3_ast *m, const size_t *members, size_t k, const char *name, bool total) {
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
      if (a < b && ab && ba && ab != e->T && ba != e->T) {
        smt_assert(e, smt_not(e, smt_and(e, ab, ba)));
        /* a total order: two executed members are related one way */
        if (total) smt_assert(e, smt_implies(e, smt_and(e, e->exec[a], e->exec[b]), smt_or(e, ab, ba)));
      }
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

static void encode_co_sc(smt_enc *e, const cat_model *cm) {
  const lx_program *p = e->p;
  bool total = cat_model_co_total(cm, !p->test->cpp);
  size_t *members = lc_xcalloc(e->n ? e->n : 1, sizeof(size_t));
  for (size_t l = 0; l < p->nplocs; l++) {
    size_t k = 0;
    for (size_t i = 0; i < e->n; i++)
      if (p->events[i].kind == LX_EV_WRITE && p->events[i].ploc == (int)l && e->exec[i]) members[k++] = i;
    encode_order(e, e->co, members, k, "co", total);
  }
  size_t k = 0;
  for (size_t i = 0; i < e->n; i++)
    if (lx_has(&p->events[i], LX_T_F) && lx_has(&p->events[i], LX_T_SC) && e->exec[i]) members[k++] = i;
  encode_order(e, e->sc, members, k, "sc", false);
  free(members);
}

/* ---- barriers ---------------------------------------------------------------------- */

static bool is_bar(const lx_event *ev) { return ev->kind == LX_EV_BAR_ARRIVE || ev->kind == LX_EV_BAR_WAIT; }

/* Two barrier events of different threads join the same instance: same
 * CTA (same cluster for barrier.cluster, same GPU for the grid's), same instance number n, same occurrence k on their paths, and the
 * same id (docs/model-language.md, "barriers"). */
static Z3_ast same_instance(smt_enc *e, size_t a, size_t b) {
  const lx_event *ea = &e->p->events[a], *eb = &e->p->events[b];
  const lx_thread *ta = &e->p->threads[ea->thread], *tb = &e->p->threads[eb->thread];
  bool group = ea->bar_grid ? true : ea->bar_cluster ? ta->cluster == tb->cluster : ta->cta == tb->cta;
  if (ea->thread == eb->thread || ta->gpu != tb->gpu || !group || ea->bar_cluster != eb->bar_cluster ||
      ea->bar_n != eb->bar_n || ea->bar_k != eb->bar_k || !smt_exec2(e, a, b))
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
/* A wait lowered as blocked (--termination) is never released: even with
 * every arrival of its instance counted, the quorum is not met.  One with
 * no count waits for CTA-mates that never arrive, which the termination
 * judge tells from the paths the state's threads took (term.c), as the
 * explicit engine leaves it too (enum_order.c quorums_met). */
static void encode_blocked(smt_enc *e, size_t w) {
  const lx_event *ew = &e->p->events[w];
  Z3_context z = e->z;
  if (!ew->bar_count) return;
  LC_VEC(Z3_ast) terms = {0};
  lc_vec_push(&terms, Z3_mk_int(z, 1, e->int_sort));
  for (size_t a = 0; a < e->n; a++) {
    if (e->p->events[a].kind != LX_EV_BAR_ARRIVE) continue;
    Z3_ast inst = same_instance(e, a, w);
    if (!inst) continue;
    Z3_ast joined = smt_and(e, e->exec[a], inst);
    lc_vec_push(&terms, Z3_mk_ite(z, joined ? joined : Z3_mk_false(z), Z3_mk_int(z, 1, e->int_sort),
                                  Z3_mk_int(z, 0, e->int_sort)));
  }
  Z3_ast arrived = Z3_mk_add(z, (unsigned)terms.n, terms.v);
  Z3_ast quorum = Z3_mk_bv2int(z, expr(e, ew->bar_count), true);
  smt_assert(e, smt_implies(e, e->exec[w], Z3_mk_lt(z, arrived, quorum)));
  lc_vec_free(&terms);
}

static void encode_release(smt_enc *e, size_t w) {
  const lx_event *ew = &e->p->events[w];
  Z3_context z = e->z;
  if (ew->bar_blocked) {
    encode_blocked(e, w);
    return;
  }
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
    for (size_t i = 0; i < path->nevents && e->path[pi]; i++) {
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

/* An observable whose every value is a constant behind a condition (the
 * common case: registers loaded from locations written with constants)
 * also gets, per value, a Boolean `is` equivalent to "the observable has
 * this value".  Enumeration then fixes and blocks values with plain
 * literals, which the solver propagates without any bit-vector reasoning. */
typedef struct obs_case {
  Z3_ast cond;
  lx_val value;
} obs_case;

typedef LC_VEC(obs_case) case_vec;

typedef struct obs_enc {
  Z3_ast term;           /* the value as a bit-vector */
  bool constant;         /* cases cover every way the observable gets a value */
  case_vec cases;
  lx_val *values;        /* distinct values of the cases, with their literals */
  Z3_ast *is;
  size_t nvalues;
} obs_enc;

static void add_case(obs_enc *o, Z3_ast cond, lx_val v) {
  obs_case c = {cond, v};
  if (cond) lc_vec_push(&o->cases, c);
}

/* Cases of an expression under `guard`; false when some value is computed. */
static bool expr_cases(smt_enc *e, const lx_expr *x, Z3_ast guard, obs_enc *o) {
  if (x->kind == LX_X_CONST) {
    add_case(o, guard, x->c);
    return true;
  }
  if (x->kind != LX_X_READ) return false;
  for (size_t w = 0; w < e->n; w++) {
    Z3_ast src = e->rf[w * e->n + (size_t)x->event];
    if (!src) continue;
    if (e->p->events[w].value->kind != LX_X_CONST) return false;
    add_case(o, smt_and(e, guard, src), e->p->events[w].value->c);
  }
  return true;
}

static void final_register(smt_enc *e, const lx_obs *ob, obs_enc *o) {
  const lx_thread *th = &e->p->threads[ob->thread];
  Z3_ast v = NULL;
  o->constant = true;
  for (size_t k = th->npaths; k-- > 0;) {
    const lx_path *path = &e->p->paths[th->paths[k]];
    if (path->cut) continue;
    Z3_ast x = expr(e, path->regs[ob->slot]);
    v = v ? Z3_mk_ite(e->z, e->path[th->paths[k]], x, v) : x;
    o->constant &= expr_cases(e, path->regs[ob->slot], e->path[th->paths[k]], o);
  }
  o->term = v ? v : bv(e, 0);
}

/* The final value of a location comes from a co-maximal write, chosen by
 * the solver among them (docs/model-language.md, item 5). */
static void final_location(smt_enc *e, int ploc, obs_enc *o) {
  const lx_program *p = e->p;
  LC_VEC(Z3_ast) last = {0};
  LC_VEC(size_t) writes = {0};
  for (size_t w = 0; w < e->n; w++)
    if (p->events[w].kind == LX_EV_WRITE && p->events[w].ploc == ploc && e->exec[w]) lc_vec_push(&writes, w);
  Z3_ast some = NULL, v = bv(e, 0);
  o->constant = true;
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
    o->constant &= expr_cases(e, p->events[w].value, x, o);
  }
  smt_assert(e, some);
  at_most_one(e, last.v, last.n);
  for (size_t i = writes.n; i-- > 0;) v = Z3_mk_ite(e->z, last.v[i], expr(e, p->events[writes.v[i]].value), v);
  lc_vec_free(&last);
  lc_vec_free(&writes);
  o->term = v;
}

/* One literal per value, defined as the disjunction of its cases. */
static void value_literals(smt_enc *e, obs_enc *o, size_t k) {
  o->values = lc_xcalloc(o->cases.n ? o->cases.n : 1, sizeof(lx_val));
  o->is = lc_xcalloc(o->cases.n ? o->cases.n : 1, sizeof(Z3_ast));
  for (size_t c = 0; c < o->cases.n; c++) {
    size_t i = 0;
    while (i < o->nvalues && o->values[i] != o->cases.v[c].value) i++;
    if (i == o->nvalues) o->values[o->nvalues++] = o->cases.v[c].value;
    o->is[i] = smt_or(e, o->is[i], o->cases.v[c].cond);
  }
  for (size_t i = 0; i < o->nvalues; i++) {
    Z3_ast lit = fresh_bool(e, "obs%d_v%d", (int)k, (int)i);
    smt_assert(e, Z3_mk_eq(e->z, lit, o->is[i] == e->T ? Z3_mk_true(e->z) : o->is[i]));
    o->is[i] = lit;
  }
}

static obs_enc *encode_observables(smt_enc *e) {
  const lx_program *p = e->p;
  obs_enc *obs = lc_xcalloc(p->nobs ? p->nobs : 1, sizeof(obs_enc));
  for (size_t i = 0; i < p->nobs; i++) {
    if (p->obs[i].kind == LX_OBS_REG) final_register(e, &p->obs[i], &obs[i]);
    else final_location(e, p->obs[i].ploc, &obs[i]);
    if (obs[i].constant && p->obs[i].shown) value_literals(e, &obs[i], i);
  }
  return obs;
}

static void free_observables(obs_enc *obs, size_t n) {
  for (size_t i = 0; obs && i < n; i++) {
    lc_vec_free(&obs[i].cases);
    free(obs[i].values);
    free(obs[i].is);
  }
  free(obs);
}

static Z3_ast term(smt_enc *e, const lt_term *t, obs_enc *obs) {
  if (t->kind == LT_TERM_CONST) return bv(e, t->value);
  if (t->kind == LT_TERM_ADDR) {
    for (size_t i = 0; i < e->p->nlocs; i++)
      if (strcmp(e->p->locs[i].name, t->loc) == 0) return bv(e, lx_addr_value((int)i));
    return bv(e, 0);
  }
  int i = lx_obs_index(e->p, t);
  return i >= 0 ? obs[i].term : bv(e, 0);
}

static Z3_ast prop(smt_enc *e, const lt_prop *pr, obs_enc *obs) {
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
  double timeout;    /* seconds, 0 = none */
  double deadline;   /* lc_now() seconds, 0 = none */
  bool timed_out;
  const lc_state_hook *hook;   /* judges new states, or NULL */
  bool cut_loops;    /* smt_options.cut_loops */
} query;

/* Gives the solver what is left of the time budget. */
static void set_timeout(query *q) {
  if (q->deadline > 0) solver_params(q->e, (unsigned)((q->deadline - lc_now()) * 1000) + 1);
}

/* One satisfiability check under n assumption literals, within what is
 * left of the time budget. */
static Z3_lbool solve_assuming(query *q, unsigned n, const Z3_ast *lits) {
  if (q->deadline > 0 && q->deadline <= lc_now()) {
    q->timed_out = true;
    return Z3_L_UNDEF;
  }
  set_timeout(q);
  q->r->solver_checks++;
  return n ? Z3_solver_check_assumptions(q->e->z, q->e->s, n, lits) : Z3_solver_check(q->e->z, q->e->s);
}

static Z3_lbool solve(query *q) { return solve_assuming(q, 0, NULL); }

static bool unknown(query *q, const char *what) {
  const char *why = q->timed_out ? "timeout" : Z3_solver_get_reason_unknown(q->e->z, q->e->s);
  if (q->timed_out || (why && (strcmp(why, "timeout") == 0 || strcmp(why, "canceled") == 0)))
    lc_result_fail(q->r, LC_RESULT_UNKNOWN, "out of time (--timeout %g s) while %s; no verdict", q->timeout, what);
  else
    lc_result_fail(q->r, LC_RESULT_UNKNOWN, "the solver gave no answer (%s) while %s; no verdict",
                   why && *why ? why : "unknown", what);
  return false;
}

static lx_val model_value(smt_enc *e, Z3_model m, Z3_ast t) {
  Z3_ast out;
  uint64_t u = 0;
  if (Z3_model_eval(e->z, m, t, true, &out)) Z3_get_numeral_uint64(e->z, out, &u);
  return (lx_val)u;
}

/* Constants are looked up directly: far cheaper than Z3_model_eval, which
 * runs the rewriter, and the enumeration reads a literal per value of
 * every observable after every check. */
static bool model_true(smt_enc *e, Z3_model m, Z3_ast t) {
  Z3_ast out;
  if (!t) return false;
  if (Z3_is_app(e->z, t)) {
    Z3_app app = Z3_to_app(e->z, t);
    if (Z3_get_app_num_args(e->z, app) == 0 && Z3_get_decl_kind(e->z, Z3_get_app_decl(e->z, app)) == Z3_OP_UNINTERPRETED) {
      out = Z3_model_get_const_interp(e->z, m, Z3_get_app_decl(e->z, app));
      return out && Z3_get_bool_value(e->z, out) == Z3_L_TRUE;
    }
  }
  return Z3_model_eval(e->z, m, t, true, &out) && Z3_get_bool_value(e->z, out) == Z3_L_TRUE;
}

/* Is there an allowed execution that goes past the unroll bound? */
static bool query_bound(query *q) {
  smt_enc *e = q->e;
  Z3_ast ub = any_ub(e);
  if (ub) {   /* first the cut paths that end in undefined behaviour */
    Z3_solver_push(e->z, e->s);
    smt_assert(e, ub);
    Z3_lbool res = solve(q);
    if (res == Z3_L_TRUE) {   /* which place: a path of the execution found */
      Z3_model m = Z3_solver_get_model(e->z, e->s);
      Z3_model_inc_ref(e->z, m);
      for (size_t pi = 0; pi < e->p->npaths && !q->r->ub_reached; pi++)
        if (e->p->paths[pi].ub && model_true(e, m, e->path[pi])) q->r->ub_reached = true, q->r->ub_path = pi;
      Z3_model_dec_ref(e->z, m);
    }
    Z3_solver_pop(e->z, e->s, 1);
    if (res == Z3_L_UNDEF) return unknown(q, "looking for executions with undefined behaviour");
    q->r->ub_reached = res == Z3_L_TRUE;
  }
  if (!any_cut(e)) return true;
  /* Which loops: each model found marks the cut paths it takes, and the
   * next query asks for a cut path of a loop not yet marked, so the
   * warning names exactly the loops some allowed execution needs more
   * iterations of (a query per such loop, and one more). */
  const lx_program *p = e->p;
  unsigned char *loop_seen = lc_xcalloc(p->npaths ? p->npaths : 1, 1);
  Z3_lbool res = Z3_L_TRUE;
  for (;;) {
    Z3_ast any = NULL;
    for (size_t pi = 0; pi < p->npaths; pi++)
      if (p->paths[pi].cut && !loop_seen[pi]) any = smt_or(e, any, e->path[pi]);
    if (!any) break;
    Z3_solver_push(e->z, e->s);
    smt_assert(e, any);
    res = solve(q);
    if (res == Z3_L_TRUE) {
      q->r->bound_reached = true;
      Z3_model m = Z3_solver_get_model(e->z, e->s);
      Z3_model_inc_ref(e->z, m);
      for (size_t pi = 0; pi < p->npaths; pi++) {
        if (!p->paths[pi].cut || loop_seen[pi] || !model_true(e, m, e->path[pi])) continue;
        lc_result_mark_cut(q->r, pi);
        for (size_t k = 0; k < p->npaths && q->cut_loops; k++)   /* the other paths cut at that loop */
          loop_seen[k] |= p->paths[k].cut && p->paths[k].thread == p->paths[pi].thread &&
                          p->paths[k].cut_at.line == p->paths[pi].cut_at.line &&
                          p->paths[k].cut_at.col == p->paths[pi].cut_at.col;
      }
      Z3_model_dec_ref(e->z, m);
    }
    Z3_solver_pop(e->z, e->s, 1);
    if (res != Z3_L_TRUE || !q->cut_loops) break;
  }
  free(loop_seen);
  if (res == Z3_L_UNDEF) return unknown(q, "looking for executions cut by the unroll bound");
  forbid_cut(e);
  return true;
}

/* Every pair of a flag's relation that some allowed execution has: each
 * model found contributes all its pairs, and the next query asks for a
 * pair not yet seen, so the list does not depend on which model Z3 finds
 * first. */
static bool flag_pairs(query *q, const smt_val *v, lc_flag *out) {
  smt_enc *e = q->e;
  for (;;) {
    Z3_ast fresh = NULL;
    for (size_t a = 0; a < e->n; a++)
      for (size_t b = 0; b < e->n; b++)
        if (v->t[a * e->n + b] && !lc_flag_has_pair(out, (int)a, (int)b))
          fresh = smt_or(e, fresh, smt_pair(e, v, a, b));
    if (!fresh) return true;
    Z3_solver_push(e->z, e->s);
    smt_assert(e, fresh);
    Z3_lbool res = solve(q);
    if (res == Z3_L_TRUE) {
      Z3_model m = Z3_solver_get_model(e->z, e->s);
      Z3_model_inc_ref(e->z, m);
      for (size_t a = 0; a < e->n; a++)
        for (size_t b = 0; b < e->n; b++)
          if (v->t[a * e->n + b] && model_true(e, m, smt_pair(e, v, a, b))) lc_flag_add_pair(out, (int)a, (int)b);
      Z3_model_dec_ref(e->z, m);
    }
    Z3_solver_pop(e->z, e->s, 1);
    if (res == Z3_L_UNDEF) return unknown(q, "checking the model's flags");
    if (res == Z3_L_FALSE) return true;
  }
}

static bool query_flags(query *q) {
  smt_enc *e = q->e;
  q->r->nflags = e->flags.n;
  q->r->flags = lc_xcalloc(e->flags.n ? e->flags.n : 1, sizeof(lc_flag));
  for (size_t f = 0; f < e->flags.n; f++) {
    lc_flag *out = &q->r->flags[f];
    out->name = e->flags.v[f].name;
    out->ev_a = out->ev_b = -1;
    if (!flag_pairs(q, e->flags.v[f].v, out)) return false;
  }
  return true;
}

/* Depth-first over the observables, one solver scope per level: below a
 * prefix o_1..o_k of fixed values, the values of o_(k+1) are enumerated by
 * blocking each one found, and those blocking clauses vanish with the
 * scope.  The clause database therefore stays as small as the encoding
 * however many states there are (global blocking clauses made every check
 * slower: 3 ms a check after 16,000 states), and the subtree that follows
 * a model already found is walked without any check.  (Passing the fixed
 * and blocked values as assumptions instead of scopes was measured slower
 * on every benchmark family.) */
typedef struct walk {
  query *q;
  obs_enc *obs;
  size_t n;
  lx_val *vals;       /* the current model's values of all observables */
  bool ok;
  size_t cut;         /* depth at which to stop and record prefixes (n: none) */
  LC_VEC(lx_val) prefixes;
} walk;

/* The literal "o_k has value v": a value's `is` literal when there is
 * one, else the bit-vector equation. */
static Z3_ast is_value(walk *w, size_t k, lx_val v) {
  const obs_enc *o = &w->obs[k];
  for (size_t i = 0; i < o->nvalues; i++)
    if (o->values[i] == v) return o->is[i];
  return Z3_mk_eq(w->q->e->z, o->term, bv(w->q->e, v));
}

static lx_val observed(smt_enc *e, Z3_model m, const obs_enc *o) {
  for (size_t i = 0; i < o->nvalues; i++)
    if (model_true(e, m, o->is[i])) return o->values[i];
  return model_value(e, m, o->term);
}

static void read_model(walk *w, size_t from) {
  smt_enc *e = w->q->e;
  Z3_model m = Z3_solver_get_model(e->z, e->s);
  Z3_model_inc_ref(e->z, m);
  for (size_t i = from; i < w->n; i++) w->vals[i] = observed(e, m, &w->obs[i]);
  Z3_model_dec_ref(e->z, m);
}

static void explore(walk *w, size_t k);

/* Records the state in w->vals; a hook that has its answer ends the
 * walk (w->ok false, the result left OK). */
static void add_state(walk *w) {
  lc_result *r = w->q->r;
  size_t before = r->nstates;
  lc_result_add_state(r, w->vals);
  const lc_state_hook *h = w->q->hook;
  if (h && r->nstates > before && h->state(h->ctx, w->vals)) w->ok = false;
}

/* Explores o_k = vals[k] (known feasible), then every other value.  When
 * the observable's possible values are all known (its constant cases) and
 * all have been seen, no check is needed to know there is no other: that
 * saves the unsat check of every node, half of all checks for two-valued
 * observables, and the most expensive half. */
static void explore_values(walk *w, size_t k) {
  smt_enc *e = w->q->e;
  size_t seen = 0;
  Z3_solver_push(e->z, e->s);
  while (w->ok) {
    Z3_ast lit = is_value(w, k, w->vals[k]);
    Z3_solver_push(e->z, e->s);
    smt_assert(e, lit);
    explore(w, k + 1);
    Z3_solver_pop(e->z, e->s, 1);
    if (!w->ok || ++seen == w->obs[k].nvalues) break;
    smt_assert(e, smt_not(e, lit));
    Z3_lbool res = solve(w->q);
    if (res == Z3_L_FALSE) break;
    if (res == Z3_L_UNDEF) {
      w->ok = unknown(w->q, "listing the allowed states");
      break;
    }
    read_model(w, k);
  }
  Z3_solver_pop(e->z, e->s, 1);
}

/* The last observable, when its values are known: each value not yet
 * seen is a state exactly when assuming its literal is satisfiable, which
 * needs no model at all. */
static void explore_last(walk *w, size_t k) {
  const obs_enc *o = &w->obs[k];
  add_state(w);
  lx_val first = w->vals[k];
  for (size_t i = 0; i < o->nvalues && w->ok; i++) {
    if (o->values[i] == first) continue;
    Z3_lbool res = solve_assuming(w->q, 1, &o->is[i]);
    if (res == Z3_L_UNDEF) w->ok = unknown(w->q, "listing the allowed states");
    if (res != Z3_L_TRUE) continue;
    w->vals[k] = o->values[i];
    add_state(w);
  }
  w->vals[k] = first;
}

static void explore(walk *w, size_t k) {
  if (k == w->cut && k < w->n) {
    for (size_t i = 0; i < k; i++) lc_vec_push(&w->prefixes, w->vals[i]);
  } else if (k == w->n) add_state(w);
  else if (k + 1 == w->n && w->obs[k].nvalues) explore_last(w, k);
  else explore_values(w, k);
}

static walk new_walk(query *q, obs_enc *obs, size_t cut) {
  size_t n = q->e->p->nshown;
  walk w = {q, obs, n, lc_xcalloc(n ? n : 1, sizeof(lx_val)), true, cut, {0}};
  return w;
}

/* Explores from depth k below the asserted prefix vals[0..k). */
static void explore_below(walk *w, size_t k) {
  Z3_lbool res = solve(w->q);
  if (res == Z3_L_UNDEF) w->ok = unknown(w->q, "listing the allowed states");
  if (res == Z3_L_TRUE) {
    read_model(w, 0);
    explore(w, k);
  }
}

static bool enumerate(query *q, obs_enc *obs) {
  walk w = new_walk(q, obs, q->e->p->nshown);
  explore_below(&w, 0);
  free(w.vals);
  return w.ok;
}

/* ---- the entry point ------------------------------------------------------------------ */

static void enc_init(smt_enc *e, const lx_program *p) {
  memset(e, 0, sizeof *e);
  Z3_config cfg = Z3_mk_config();
  Z3_set_param_value(cfg, "model", "true");
  e->z = Z3_mk_context(cfg);
  Z3_del_config(cfg);
  Z3_set_error_handler(e->z, on_z3_error);
  /* The SMT core, incremental; Z3's SAT-based QF_FD/QF_BV solvers were
   * measured 2x slower at listing states. */
  e->s = Z3_mk_simple_solver(e->z);
  Z3_solver_inc_ref(e->z, e->s);
  solver_params(e, 0);
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

/* Z3's own count of the work its solver did ("rlimit count", the
 * resource counter behind its rlimit option): unlike time, the same on
 * every run and machine for one Z3 version (tests/cost-guard.sh). */
static double z3_work(const smt_enc *e) {
  Z3_stats st = Z3_solver_get_statistics(e->z, e->s);
  Z3_stats_inc_ref(e->z, st);
  double work = 0;
  for (unsigned i = 0; i < Z3_stats_size(e->z, st); i++)
    if (strcmp(Z3_stats_get_key(e->z, st, i), "rlimit count") == 0)
      work += Z3_stats_is_uint(e->z, st, i) ? (double)Z3_stats_get_uint_value(e->z, st, i)
                                            : Z3_stats_get_double_value(e->z, st, i);
  Z3_stats_dec_ref(e->z, st);
  return work;
}

static void enc_fini(smt_enc *e) {
  for (size_t i = 0; i < e->vals.n; i++) {
    free(e->vals.v[i]->t);
    free(e->vals.v[i]);
  }
  lc_vec_free(&e->vals);
  lc_vec_free(&e->flags);
  lc_vec_free(&e->checks);
  lc_vec_free(&e->deferred);
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

static bool encode(smt_enc *e, const cat_model *m, lc_result *r, obs_enc **obs) {
  encode_paths(e);
  encode_rf(e);
  encode_path_conditions(e);
  encode_co_sc(e, m);
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
  for (size_t i = 0; i < e->checks.n && !e->defer_checks; i++) smt_assert(e, e->checks.v[i]);
  /* The filter speaks of final states, and an execution cut by the unroll
   * bound has none: its registers would be read off a path it did not
   * take.  So the filter constrains finished executions only, and
   * query_bound reports a cut execution whatever the filter says. */
  if (e->p->test->filter) {
    Z3_ast cut = any_cut(e);
    smt_assert(e, smt_or(e, cut, prop(e, e->p->test->filter, *obs)));
  }
  return true;
}

/* ---- splitting one test's states among threads --------------------------------------- */

/* The walk is cut at a depth with enough prefixes to keep every thread
 * busy; each thread builds its own encoding (a Z3 context is not shared
 * between threads) and walks the subtrees of the prefixes it takes. */
typedef struct split {
  const lx_program *p;
  const cat_model *m;
  const lx_val *prefixes;
  size_t nprefixes, depth;
  atomic_size_t next;
  double timeout, deadline;
} split;

typedef struct split_job {
  split *sp;
  lc_result *r;
  pthread_t thread;
} split_job;

static void walk_prefixes(split *sp, query *q, obs_enc *obs) {
  walk w = new_walk(q, obs, q->e->p->nshown);
  for (size_t i; w.ok && (i = atomic_fetch_add(&sp->next, 1)) < sp->nprefixes;) {
    Z3_solver_push(q->e->z, q->e->s);
    for (size_t k = 0; k < sp->depth; k++) {
      w.vals[k] = sp->prefixes[i * sp->depth + k];
      smt_assert(q->e, is_value(&w, k, w.vals[k]));
    }
    explore_below(&w, sp->depth);
    Z3_solver_pop(q->e->z, q->e->s, 1);
  }
  free(w.vals);
}

static void *split_worker(void *arg) {
  split_job *job = arg;
  split *sp = job->sp;
  smt_enc e;
  enc_init(&e, sp->p);
  query q = {&e, job->r, sp->timeout, sp->deadline, false, NULL, false};
  obs_enc *obs = NULL;
  if (encode(&e, sp->m, job->r, &obs)) {
    forbid_cut(&e);
    walk_prefixes(sp, &q, obs);
  }
  free_observables(obs, sp->p->nobs);
  job->r->solver_work += z3_work(&e);
  enc_fini(&e);
  return NULL;
}

/* A depth whose prefixes (bounded by the product of the observables'
 * known value counts) number at least 8 per thread. */
static size_t split_depth(const obs_enc *obs, size_t n, unsigned threads) {
  size_t d = 0, prefixes = 1;
  while (d < n && prefixes < 8 * (size_t)threads) prefixes *= obs[d++].nvalues > 1 ? obs[d - 1].nvalues : 2;
  return d;
}

static bool enumerate_split(query *q, obs_enc *obs, const cat_model *m, unsigned threads) {
  size_t depth = split_depth(obs, q->e->p->nshown, threads);
  walk w = new_walk(q, obs, depth);
  explore_below(&w, 0);
  split sp = {q->e->p, m, w.prefixes.v, w.prefixes.n / (depth ? depth : 1), depth, 0, q->timeout, q->deadline};
  split_job *jobs = lc_xcalloc(threads, sizeof(split_job));
  for (unsigned t = 0; w.ok && depth > 0 && t < threads; t++) {
    jobs[t].sp = &sp;
    jobs[t].r = lc_result_new(q->e->p, "smt", q->r->model);
    pthread_create(&jobs[t].thread, NULL, split_worker, &jobs[t]);
  }
  for (unsigned t = 0; t < threads; t++) {
    if (!jobs[t].r) continue;
    pthread_join(jobs[t].thread, NULL);
    lc_result *part = jobs[t].r;
    for (size_t i = 0; i < part->nstates; i++) lc_result_add_state(q->r, lc_result_state(part, i));
    q->r->solver_checks += part->solver_checks;
    q->r->solver_work += part->solver_work;
    if (part->status != LC_RESULT_OK && w.ok) {
      lc_result_fail(q->r, part->status, "%s", part->message);
      w.ok = false;
    }
    lc_result_free(part);
  }
  free(jobs);
  free(w.vals);
  lc_vec_free(&w.prefixes);
  return w.ok;
}

lc_result *smt_check(const lx_program *p, const cat_model *m, const smt_options *o) {
  return smt_check_hooked(p, m, o, NULL);
}

lc_result *smt_check_hooked(const lx_program *p, const cat_model *m, const smt_options *o,
                            const lc_state_hook *hook) {
  assert(p && m && (!hook || hook->state));
  double start = lc_now();
  lc_result *r = lc_result_new(p, "smt", cat_model_name(m));
  smt_enc e;
  enc_init(&e, p);
  double timeout = o ? o->timeout : 0;
  query q = {&e, r, timeout, timeout > 0 ? start + timeout : 0, false, hook, false};
  obs_enc *obs = NULL;
  bool races = !o || o->races;
  bool ok = encode(&e, m, r, &obs);
  r->seconds_encode = lc_now() - start;
  double t = lc_now();
  q.cut_loops = o && o->cut_loops;
  if (ok) ok = query_bound(&q) && (!races || query_flags(&q));
  r->seconds_flags = lc_now() - t;
  t = lc_now();
  unsigned threads = o && o->threads > 1 && !hook ? o->threads : 1;
  if (ok && threads > 1 && p->nshown > 1) enumerate_split(&q, obs, m, threads);
  else if (ok) enumerate(&q, obs);
  r->seconds_states = lc_now() - t;
  free_observables(obs, p->nobs);
  r->solver_work += z3_work(&e);
  enc_fini(&e);
  lc_result_sort(r);
  r->seconds = lc_now() - start;
  return r;
}

/* ---- for explanations (smt_explain.c) ------------------------------------------------ */

void smt_enc_init(smt_enc *e, const lx_program *p) {
  assert(e && p);
  enc_init(e, p);
}

void smt_enc_fini(smt_enc *e) { enc_fini(e); }

bool smt_encode(smt_enc *e, const cat_model *m, lc_result *r, obs_enc **obs) {
  assert(e && e->p && m && r && obs);
  return encode(e, m, r, obs);
}

void smt_free_observables(obs_enc *obs, size_t n) { free_observables(obs, n); }

Z3_ast smt_obs_cmp(smt_enc *e, const obs_enc *obs, size_t k, lt_cmp cmp, lx_val v, int rhs) {
  assert(e && obs && k < e->p->nobs && (rhs < 0 || (size_t)rhs < e->p->nobs));
  return compare(e, cmp, obs[k].term, rhs >= 0 ? obs[rhs].term : bv(e, v));
}

bool smt_model_true(smt_enc *e, Z3_model m, Z3_ast t) { return model_true(e, m, t); }
lx_val smt_model_value(smt_enc *e, Z3_model m, Z3_ast t) { return model_value(e, m, t); }

lx_val smt_model_obs(smt_enc *e, Z3_model m, const obs_enc *obs, size_t k) {
  assert(e && m && obs && k < e->p->nobs);
  return model_value(e, m, obs[k].term);
}
