/* enum_explain.c - the explicit engine's side of explanations: its answer
 * to the explainer's question, and the concrete evaluation of a witness
 * that judges what either engine found.
 * SPDX-License-Identifier: MIT
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "enum/enum_int.h"

/* ---- the explainer ----------------------------------------------------------------- */

typedef struct finder {
  const lx_program *p;
  const cat_model *m;
  enum_options o;
} finder;

/* "No candidate execution gives the state, whatever the model" is no
 * answer when it may have missed a value out of thin air: the explicit
 * engine guesses such values from the location's and the state's, where
 * Z3 has them all (enum_query.incomplete). */
static int find(void *ctx, const bool *on, const lc_state *state, lc_witness **w, bool *failing, char **msg) {
  finder *f = ctx;
  bool incomplete = false;
  enum_query q = {on, state, 0, NULL, NULL, NULL, &incomplete};
  int rc = enum_find_query(f->p, f->m, &f->o, &q, w, failing, msg);
  if (rc == 0 && incomplete && enum_counts_none(f->m, on)) {
    *msg = lc_xstrdup("a value out of thin air may give the state, beyond the values the explicit engine "
                      "guesses; Z3 has them all (--engine smt or auto)");
    rc = -1;
  }
  return rc;
}

bool enum_counts_none(const cat_model *m, const bool *on) {
  assert(m);
  for (size_t i = 0; on && i < cat_model_nchecks(m); i++)
    if (on[i]) return false;
  return on != NULL;
}

lc_explainer enum_explainer(const lx_program *p, const cat_model *m, double timeout) {
  assert(p && m);
  finder *f = lc_xcalloc(1, sizeof *f);
  f->p = p;
  f->m = m;
  f->o.timeout = timeout;
  return (lc_explainer){f, find, free};
}

/* ---- one execution, evaluated ---------------------------------------------------------- */

typedef struct judge {
  const enum_frame *f;
  const lc_witness *w;
} judge;

static rel_rel *to_frame(const enum_frame *f, const rel_rel *x) {
  rel_rel *r = rel_new(f->n);
  for (size_t i = 0; i < f->n; i++)
    for (size_t j = 0; j < f->n; j++)
      if (rel_has(x, (size_t)f->orig[i], (size_t)f->orig[j])) rel_add(r, i, j);
  return r;
}

static rel_rel *rf_frame(const judge *j) {
  rel_rel *r = rel_new(j->f->n);
  for (size_t i = 0; i < j->f->n; i++) {
    int src = j->w->rf[j->f->orig[i]];
    if (src >= 0 && j->f->idx[src] >= 0) rel_add(r, (size_t)j->f->idx[src], i);
  }
  return r;
}

static void *witness_builtin(void *uctx, const char *name, cat_type *type) {
  const judge *j = uctx;
  void *v = enum_frame_static(j->f, name, type);
  if (v) return v;
  *type = CAT_TY_REL;
  if (strcmp(name, "rf") == 0) return rf_frame(j);
  if (strcmp(name, "co") == 0) {
    rel_rel *co = to_frame(j->f, j->w->co);
    rel_union_into(co, j->f->iwco);
    return co;
  }
  if (strcmp(name, "sc") == 0) return to_frame(j->f, j->w->sc);
  if (strcmp(name, "sync_bar") == 0) return to_frame(j->f, j->w->bar);
  if (strcmp(name, "fr") == 0) {
    rel_rel *rf = rf_frame(j), *co = to_frame(j->f, j->w->co);
    rel_union_into(co, j->f->iwco);
    rel_rel *inv = rel_inverse(rf), *fr = rel_seq(inv, co);
    rel_free(rf), rel_free(co), rel_free(inv);
    return fr;
  }
  return NULL;
}

/* Read values match their sources and the paths' conditions hold. */
static const char *inconsistency(const enum_frame *f, const lc_witness *w) {
  for (size_t i = 0; i < f->nreads; i++) {
    int ev = f->orig[f->reads[i]], src = w->rf[ev];
    if (src < 0 || f->idx[src] < 0) return "a read has no source among the events that run";
    if (lx_expr_eval(f->p->events[src].value, w->val) != w->val[ev]) return "a read value differs from its source's";
  }
  for (size_t t = 0; t < f->p->nthreads; t++) {
    const lx_path *path = &f->p->paths[w->paths[t]];
    for (size_t c = 0; c < path->nconds; c++) {
      const lx_cond *k = &path->conds[c];
      if (!lx_cmp_apply(k->cmp, lx_expr_eval(k->a, w->val), lx_expr_eval(k->b, w->val)))
        return "a path condition does not hold";
    }
  }
  return NULL;
}

int enum_eval_witness(const lx_program *p, const cat_model *m, const lc_witness *w, cat_rel_result *res,
                      int **orig, char **msg) {
  assert(p && m && w && res && orig && msg);
  memset(res, 0, sizeof *res);
  *orig = NULL;
  enum_frame *f = enum_frame_new(p, w->paths);
  const char *bad = inconsistency(f, w);
  int rc = -1;
  if (bad) {
    *msg = lc_xstrdup(bad);
  } else {
    judge j = {f, w};
    lc_diag d;
    lc_diag_init(&d, NULL, NULL);
    rc = cat_rel_eval(m, f->n, witness_builtin, &j, res, &d);
    if (rc < 0) {
      const char *e = lc_diag_first_error(&d);
      *msg = lc_xstrdup(e ? e : "the model could not be evaluated");
    }
    lc_diag_fini(&d);
  }
  if (rc == 0) {
    *orig = lc_xcalloc(f->n ? f->n : 1, sizeof(int));
    memcpy(*orig, f->orig, f->n * sizeof(int));
  }
  enum_frame_free(f);
  return rc;
}

int enum_eval_relations(const lx_program *p, const cat_model *m, const lc_witness *w, const size_t *vals, size_t n,
                        rel_rel **out, char **msg) {
  assert(p && m && w && (vals || !n) && (out || !n) && msg);
  enum_frame *f = enum_frame_new(p, w->paths);
  const char *bad = inconsistency(f, w);
  int rc = -1;
  void **v = lc_xcalloc(n + 1, sizeof(void *));
  if (bad) {
    *msg = lc_xstrdup(bad);
  } else {
    judge j = {f, w};
    lc_diag d;
    lc_diag_init(&d, NULL, NULL);
    rc = cat_rel_eval_values(m, f->n, witness_builtin, &j, vals, n, v, &d);
    if (rc < 0) {
      const char *e = lc_diag_first_error(&d);
      *msg = lc_xstrdup(e ? e : "the model could not be evaluated");
    }
    lc_diag_fini(&d);
  }
  for (size_t i = 0; rc == 0 && i < n; i++) {
    /* frame indices to event ids */
    const rel_rel *r = v[i];
    out[i] = rel_new(p->nevents);
    for (size_t a = 0; a < r->n; a++)
      for (size_t b = 0; b < r->n; b++)
        if (rel_has(r, a, b)) rel_add(out[i], (size_t)f->orig[a], (size_t)f->orig[b]);
    rel_free(v[i]);
  }
  free(v);
  enum_frame_free(f);
  return rc;
}

int enum_derive_witness(const lx_program *p, const cat_model *m, const lc_witness *w, size_t check,
                        const cat_rel_check *failed, cat_derivation *out, char **msg) {
  assert(p && m && w && failed && out && msg);
  enum_frame *f = enum_frame_new(p, w->paths);
  judge j = {f, w};
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  int rc = cat_rel_derive(m, check, f->n, witness_builtin, &j, failed, out, &d);
  if (rc < 0) {
    const char *e = lc_diag_first_error(&d);
    *msg = lc_xstrdup(e ? e : "the model could not be evaluated");
  }
  lc_diag_fini(&d);
  enum_frame_free(f);
  return rc;
}

rel_rel *enum_witness_relation(const lx_program *p, const cat_model *m, const lc_witness *w, const char *name,
                               char **msg) {
  assert(p && m && w && name && msg);
  enum_frame *f = enum_frame_new(p, w->paths);
  judge j = {f, w};
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  rel_rel *r = cat_rel_value(m, name, f->n, witness_builtin, &j, &d), *out = NULL;
  if (!r) {
    const char *e = lc_diag_first_error(&d);
    *msg = lc_xstrdup(e ? e : "the model could not be evaluated");
  } else {
    out = rel_new(p->nevents);
    for (size_t a = 0; a < r->n; a++)
      for (size_t b = 0; b < r->n; b++)
        if (rel_has(r, a, b)) rel_add(out, (size_t)f->orig[a], (size_t)f->orig[b]);
    rel_free(r);
  }
  lc_diag_fini(&d);
  enum_frame_free(f);
  return out;
}
