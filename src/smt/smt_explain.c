/* smt_explain.c - the SMT engine's answer to the explainer's question
 * (witness.h): the encoding with one assumption literal per named check,
 * so "passes these checks" is a check under assumptions, and a model read
 * back as a witness.
 * SPDX-License-Identifier: MIT
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smt/smt.h"
#include "smt/smt_internal.h"

typedef struct finder {
  const lx_program *p;
  const cat_model *m;
  double timeout;
  smt_enc e;
  obs_enc *obs;
  lc_result *r;
  bool ok;
  Z3_ast *lit;         /* per model check: its assumption literal (NULL for flags) */
  size_t *deferred;    /* per model check: its index among e.deferred */
  bool *guarded;       /* per model check: lit => holds is asserted */
} finder;

/* Z3's answer when unknown, as a message. */
static char *no_answer(finder *f, const char *doing) {
  lc_buf b;
  lc_buf_init(&b);
  lc_buf_printf(&b, "the solver gave no answer (%s) while %s", Z3_solver_get_reason_unknown(f->e.z, f->e.s), doing);
  char *s = lc_buf_take(&b);
  lc_buf_fini(&b);
  return s;
}

static void set_timeout(finder *f) {
  Z3_params params = Z3_mk_params(f->e.z);
  Z3_params_inc_ref(f->e.z, params);
  Z3_params_set_uint(f->e.z, params, Z3_mk_string_symbol(f->e.z, "relevancy"), 0);
  if (f->timeout > 0)
    Z3_params_set_uint(f->e.z, params, Z3_mk_string_symbol(f->e.z, "timeout"), (unsigned)(f->timeout * 1000) + 1);
  Z3_solver_set_params(f->e.z, f->e.s, params);
  Z3_params_dec_ref(f->e.z, params);
}

/* Moves what is asserted to a solver for QF_UFBV when the encoding is
 * bit-vectors and Booleans only, as it is without barriers (their arrival
 * times are integers).  Told the logic, Z3 sets its core up for it at
 * once; without, it first studies every assertion to choose its theories,
 * a third of the first question's cost on the corpus's Ticketlock tests
 * (0.036 s of taking the encoding in, 0.023 s with the logic). */
static void bv_solver(finder *f) {
  Z3_context z = f->e.z;
  for (size_t i = 0; i < f->e.n; i++)
    if (f->e.bar_time[i]) return;
  Z3_solver s = Z3_mk_solver_for_logic(z, Z3_mk_string_symbol(z, "QF_UFBV"));
  Z3_solver_inc_ref(z, s);
  Z3_ast_vector a = Z3_solver_get_assertions(z, f->e.s);
  Z3_ast_vector_inc_ref(z, a);
  for (unsigned i = 0; i < Z3_ast_vector_size(z, a); i++) Z3_solver_assert(z, s, Z3_ast_vector_get(z, a, i));
  Z3_ast_vector_dec_ref(z, a);
  Z3_solver_dec_ref(z, f->e.s);
  f->e.s = s;
}

/* The model's constraints come out of the backend in file order, flags
 * aside: the k-th of e.deferred is the k-th check that is not a flag.
 * Each is built, and asserted behind its literal, when a question first
 * needs it: building an acyclic check's closure and Z3's internal form of
 * what is asserted are most of the encoding's cost, and the checks a
 * question leaves out are not needed unless a model is read back
 * (Ticketlock-same-gpu's minimal set has three of eight). */
static void guard_checks(finder *f) {
  size_t nchecks = cat_model_nchecks(f->m), k = 0;
  for (size_t i = 0; i < nchecks; i++) {
    if (cat_model_check_is_flag(f->m, i) || k >= f->e.deferred.n) continue;
    char name[64];
    snprintf(name, sizeof name, "check%zu", i);
    f->lit[i] = Z3_mk_const(f->e.z, Z3_mk_string_symbol(f->e.z, name), f->e.bool_sort);
    f->deferred[i] = k++;
  }
}

static Z3_ast holds(finder *f, size_t i) { return smt_deferred_check(&f->e, f->deferred[i]); }

static void guard(finder *f, size_t i) {
  if (f->guarded[i]) return;
  smt_assert(&f->e, smt_implies(&f->e, f->lit[i], holds(f, i)));
  f->guarded[i] = true;
}

static void runs_pairs(finder *f, Z3_model mod, const Z3_ast *mat, const lc_witness *w, rel_rel *out) {
  size_t n = f->e.n;
  for (size_t a = 0; a < n; a++)
    for (size_t b = 0; b < n; b++)
      if (mat[a * n + b] && lc_witness_runs(f->p, w, (int)a) && lc_witness_runs(f->p, w, (int)b) &&
          smt_model_true(&f->e, mod, mat[a * n + b]))
        rel_add(out, a, b);
}

static lc_witness *read_witness(finder *f, Z3_model mod) {
  const lx_program *p = f->p;
  lc_witness *w = lc_witness_new(p);
  for (size_t t = 0; t < p->nthreads; t++) {
    const lx_thread *th = &p->threads[t];
    w->paths[t] = th->npaths ? th->paths[0] : -1;
    for (size_t k = 0; k < th->npaths; k++)
      if (smt_model_true(&f->e, mod, f->e.path[th->paths[k]])) w->paths[t] = th->paths[k];
  }
  size_t n = f->e.n;
  for (size_t r = 0; r < n; r++) {
    if (p->events[r].kind != LX_EV_READ || !lc_witness_runs(p, w, (int)r)) continue;
    if (f->e.val[r]) w->val[r] = smt_model_value(&f->e, mod, f->e.val[r]);
    for (size_t x = 0; x < n; x++)
      if (f->e.rf[x * n + r] && lc_witness_runs(p, w, (int)x) && smt_model_true(&f->e, mod, f->e.rf[x * n + r]))
        w->rf[r] = (int)x;
  }
  runs_pairs(f, mod, f->e.co, w, w->co);
  runs_pairs(f, mod, f->e.sc, w, w->sc);
  runs_pairs(f, mod, f->e.bar, w, w->bar);
  for (size_t k = 0; k < p->nobs; k++) w->obs[k] = smt_model_obs(&f->e, mod, f->obs, k);
  return w;
}

static int find(void *ctx, const bool *on, const lc_state *state, lc_witness **w, bool *failing, char **msg) {
  finder *f = ctx;
  if (!f->ok) {
    *msg = lc_xstrdup(f->r->message ? f->r->message : "the SMT encoding failed");
    return -1;
  }
  size_t nchecks = cat_model_nchecks(f->m), na = 0;
  Z3_ast *assume = lc_xcalloc(nchecks + 1, sizeof(Z3_ast));
  for (size_t i = 0; i < nchecks; i++)
    if (f->lit[i] && (!on || on[i])) guard(f, i), assume[na++] = f->lit[i];
  Z3_solver_push(f->e.z, f->e.s);
  for (size_t i = 0; i < state->n; i++) smt_assert(&f->e, smt_obs_cmp(&f->e, f->obs, (size_t)state->obs[i], state->cmp[i], state->val[i], state->rhs[i]));
  Z3_lbool res = Z3_solver_check_assumptions(f->e.z, f->e.s, (unsigned)na, assume);
  int rc = res == Z3_L_TRUE ? 1 : res == Z3_L_FALSE ? 0 : -1;
  if (rc == 1) {
    Z3_model mod = Z3_solver_get_model(f->e.z, f->e.s);
    Z3_model_inc_ref(f->e.z, mod);
    *w = read_witness(f, mod);
    for (size_t i = 0; i < nchecks; i++) failing[i] = f->lit[i] && !smt_model_true(&f->e, mod, holds(f, i));
    Z3_model_dec_ref(f->e.z, mod);
  } else if (rc < 0) {
    *msg = no_answer(f, "explaining a state");
  }
  Z3_solver_pop(f->e.z, f->e.s, 1);
  free(assume);
  return rc;
}

int smt_find_race(lc_explainer *ex, const char *flag, int a, int b, lc_witness **w, char **msg) {
  assert(ex && ex->ctx && flag && w && msg);
  finder *f = ex->ctx;
  if (!f->ok) {
    *msg = lc_xstrdup(f->r->message ? f->r->message : "the SMT encoding failed");
    return -1;
  }
  const smt_val *v = NULL;
  for (size_t i = 0; i < f->e.flags.n; i++)
    if (strcmp(f->e.flags.v[i].name, flag) == 0) v = f->e.flags.v[i].v;
  if (!v) return 0;
  size_t nchecks = cat_model_nchecks(f->m), na = 0;
  Z3_ast *assume = lc_xcalloc(nchecks + 1, sizeof(Z3_ast));
  for (size_t i = 0; i < nchecks; i++)
    if (f->lit[i]) guard(f, i), assume[na++] = f->lit[i];
  Z3_solver_push(f->e.z, f->e.s);
  smt_assert(&f->e, smt_or(&f->e, smt_pair(&f->e, v, (size_t)a, (size_t)b), smt_pair(&f->e, v, (size_t)b, (size_t)a)));
  Z3_lbool res = Z3_solver_check_assumptions(f->e.z, f->e.s, (unsigned)na, assume);
  int rc = res == Z3_L_TRUE ? 1 : res == Z3_L_FALSE ? 0 : -1;
  if (rc == 1) {
    Z3_model mod = Z3_solver_get_model(f->e.z, f->e.s);
    Z3_model_inc_ref(f->e.z, mod);
    *w = read_witness(f, mod);
    Z3_model_dec_ref(f->e.z, mod);
  } else if (rc < 0) {
    *msg = no_answer(f, "looking for an execution in which a pair races");
  }
  Z3_solver_pop(f->e.z, f->e.s, 1);
  free(assume);
  return rc;
}

static void finder_free(void *ctx) {
  finder *f = ctx;
  smt_free_observables(f->obs, f->p->nobs);
  smt_enc_fini(&f->e);
  lc_result_free(f->r);
  free(f->lit);
  free(f->deferred);
  free(f->guarded);
  free(f);
}

lc_explainer smt_explainer(const lx_program *p, const cat_model *m, double timeout) {
  assert(p && m);
  finder *f = lc_xcalloc(1, sizeof *f);
  f->p = p;
  f->m = m;
  f->timeout = timeout;
  f->r = lc_result_new(p, "smt", cat_model_name(m));
  f->lit = lc_xcalloc(cat_model_nchecks(m) + 1, sizeof(Z3_ast));
  f->deferred = lc_xcalloc(cat_model_nchecks(m) + 1, sizeof(size_t));
  f->guarded = lc_xcalloc(cat_model_nchecks(m) + 1, sizeof(bool));
  smt_enc_init(&f->e, p);
  f->e.skip_cut = true;
  f->e.defer_checks = true;
  f->ok = smt_encode(&f->e, m, f->r, &f->obs);
  if (f->ok) {
    guard_checks(f);
    bv_solver(f);
    set_timeout(f);
  }
  return (lc_explainer){f, find, finder_free};
}
