/* explain.c - the minimal sets of named checks that rule a state out, the
 * executions that show each, and their concrete re-evaluation.
 * SPDX-License-Identifier: MIT
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "enum/enum.h"
#include "explain.h"
#include "smt/smt.h"
#include "unroll_hint.h"

const char *const lc_base_names[LC_NBASE] = {"po", "rf", "co", "fr", "rmw", "sc", "sync_bar", "data", "addr", "ctrl"};

/* ---- base relations of a witness -------------------------------------------------------- */

static rel_rel *running(const lx_program *p, const lc_witness *w, const rel_rel *x) {
  rel_rel *r = rel_new(p->nevents);
  for (size_t a = 0; a < p->nevents; a++)
    for (size_t b = 0; b < p->nevents; b++)
      if (rel_has(x, a, b) && lc_witness_runs(p, w, (int)a) && lc_witness_runs(p, w, (int)b)) rel_add(r, a, b);
  return r;
}

void lc_witness_base(const lx_program *p, const lc_witness *w, rel_rel *out[LC_NBASE]) {
  assert(p && w && out);
  rel_rel *rf = rel_new(p->nevents);
  for (size_t r = 0; r < p->nevents; r++)
    if (w->rf[r] >= 0) rel_add(rf, (size_t)w->rf[r], r);
  rel_rel *inv = rel_inverse(rf);
  out[0] = running(p, w, p->po);
  out[1] = rf;
  out[2] = rel_copy(w->co);
  out[3] = rel_seq(inv, w->co);
  out[4] = running(p, w, p->rmw);
  out[5] = rel_copy(w->sc);
  out[6] = rel_copy(w->bar);
  out[7] = running(p, w, p->data);
  out[8] = running(p, w, p->addr);
  out[9] = running(p, w, p->ctrl);
  rel_free(inv);
}

/* ---- violations ---------------------------------------------------------------------------- */

typedef LC_VEC(lc_edge) edge_vec;

static lc_edge to_edge(const cat_step *s, const int *orig) {
  lc_edge e = {orig[s->from], orig[s->to], s->name, s->inverse, s->base,
               s->line == CAT_DERIV_LEAF ? -1 : (int)s->line};
  return e;
}

static lc_edge *to_edges(const cat_step *s, size_t n, const int *orig) {
  lc_edge *e = lc_xcalloc(n + 1, sizeof(lc_edge));
  for (size_t i = 0; i < n; i++) e[i] = to_edge(&s[i], orig);
  return e;
}

static lc_edge flipped(lc_edge e) {
  int t = e.from;
  e.from = e.to;
  e.to = t;
  e.inverse = !e.inverse;
  return e;
}

/* The builtins' edges of the whole derivation, each in its relation's
 * direction, for pictures: each edge of a `let` replaced by its line's
 * chain (reversed and turned round for an edge against the let). */
static void flatten(lc_violation *v) {
  edge_vec todo = {0}, out = {0};
  for (size_t i = v->nedges; i-- > 0;) lc_vec_push(&todo, v->edges[i]);
  while (todo.n) {
    lc_edge e = todo.v[--todo.n];
    if (e.line < 0) {
      if (e.inverse) e = flipped(e);
      e.inverse = false;
      if (e.base) e.rel = e.base;
      lc_vec_push(&out, e);
      continue;
    }
    const lc_deriv *l = &v->lines[e.line];
    if (!e.inverse)
      for (size_t k = l->nsteps; k-- > 0;) lc_vec_push(&todo, l->steps[k]);
    else
      for (size_t k = 0; k < l->nsteps; k++) lc_vec_push(&todo, flipped(l->steps[k]));
  }
  lc_vec_free(&todo);
  v->leaves = out.v;
  v->nleaves = out.n;
}

/* Does the chain e[0..n) go from a to b, each edge starting where the
 * last ended? */
static bool chained(const lc_edge *e, size_t n, int a, int b) {
  if (!n) return a == b;
  for (size_t i = 0; i + 1 < n; i++)
    if (e[i].to != e[i + 1].from) return false;
  return e[0].from == a && e[n - 1].to == b;
}

typedef struct named_rel {
  const char *name;
  rel_rel *r;
} named_rel;

typedef LC_VEC(named_rel) rel_cache;

/* Is the edge's pair in its relation, evaluated again by name?  Edges
 * named by an expression's text (a product, a complement) are not. */
static bool edge_holds(const lx_program *p, const cat_model *m, const lc_witness *w, const lc_edge *e,
                       rel_cache *cache, char **msg) {
  size_t v;
  cat_type t;
  if (!cat_model_find_relation(m, e->rel, &v) && !(cat_builtin_type(e->rel, &t) && t == CAT_TY_REL)) return true;
  rel_rel *r = NULL;
  for (size_t i = 0; i < cache->n && !r; i++)
    if (strcmp(cache->v[i].name, e->rel) == 0) r = cache->v[i].r;
  if (!r) {
    r = enum_witness_relation(p, m, w, e->rel, msg);
    if (!r) return false;
    named_rel n = {e->rel, r};
    lc_vec_push(cache, n);
  }
  return e->inverse ? rel_has(r, (size_t)e->to, (size_t)e->from) : rel_has(r, (size_t)e->from, (size_t)e->to);
}

/* The derivation checked again: every chain connected, the violation's
 * own a cycle (or the pair), every edge in the relation it names. */
static bool verify(const lx_program *p, const cat_model *m, const lc_witness *w, const lc_violation *v, char **msg) {
  bool ok = v->nedges > 0;
  if (v->kind == CAT_CHECK_ACYCLIC) ok = ok && chained(v->edges, v->nedges, v->edges[0].from, v->edges[0].from);
  else ok = ok && chained(v->edges, v->nedges, v->a, v->b);
  for (size_t i = 0; ok && i < v->nlines; i++) ok = chained(v->lines[i].steps, v->lines[i].nsteps, v->lines[i].from, v->lines[i].to);
  rel_cache cache = {0};
  char *err = NULL;
  for (size_t i = 0; ok && i < v->nedges; i++) ok = edge_holds(p, m, w, &v->edges[i], &cache, &err);
  for (size_t i = 0; ok && i < v->nlines; i++) {
    lc_edge self = {v->lines[i].from, v->lines[i].to, v->lines[i].rel, false, NULL, -1};
    ok = edge_holds(p, m, w, &self, &cache, &err);
    for (size_t k = 0; ok && k < v->lines[i].nsteps; k++) ok = edge_holds(p, m, w, &v->lines[i].steps[k], &cache, &err);
  }
  for (size_t i = 0; i < cache.n; i++) rel_free(cache.v[i].r);
  lc_vec_free(&cache);
  if (!ok) {
    lc_buf b;
    lc_buf_init(&b);
    lc_buf_printf(&b, "the violation of %s shown is not one of its relation%s%s", v->name, err ? ": " : "",
                  err ? err : "");
    *msg = lc_buf_take(&b);
    lc_buf_fini(&b);
  }
  free(err);
  return ok;
}

static void violation_fini(lc_violation *v) {
  free(v->edges);
  for (size_t i = 0; i < v->nlines; i++) free(v->lines[i].steps);
  free(v->lines);
  free(v->leaves);
  if (v->arena) lc_arena_free(v->arena);
  memset(v, 0, sizeof *v);
}

/* How w fails check `check` (c, its evaluation with orig), told in the
 * check's relations and checked again.  0, or -1 with *msg. */
static int violation(const lx_program *p, const cat_model *m, const lc_witness *w, const cat_rel_check *c,
                     const int *orig, size_t check, lc_violation *out, char **msg) {
  memset(out, 0, sizeof *out);
  out->check = check;
  out->name = cat_model_check_name(m, check);
  out->kind = c->kind;
  out->a = out->b = -1;
  if (c->kind != CAT_CHECK_ACYCLIC) {
    out->a = orig[c->a];
    out->b = orig[c->b];
  }
  cat_derivation dv;
  if (enum_derive_witness(p, m, w, check, c, &dv, msg) < 0) return -1;
  out->arena = dv.arena;
  dv.arena = NULL;
  out->expr = dv.expr;
  out->unless = dv.unless;
  out->edges = to_edges(dv.top, dv.ntop, orig);
  out->nedges = dv.ntop;
  out->lines = lc_xcalloc(dv.nlines + 1, sizeof(lc_deriv));
  out->nlines = dv.nlines;
  for (size_t i = 0; i < dv.nlines; i++) {
    const cat_deriv_line *l = &dv.lines[i];
    out->lines[i] = (lc_deriv){orig[l->from], orig[l->to], l->name, to_edges(l->steps, l->nsteps, orig), l->nsteps};
  }
  cat_derivation_fini(&dv);
  flatten(out);
  return verify(p, m, w, out, msg) ? 0 : -1;
}

/* ---- the re-evaluation ---------------------------------------------------------------------- */

/* The final values w claims match its paths, values and co. */
static bool finals_match(const lx_program *p, const lc_witness *w) {
  for (size_t k = 0; k < p->nobs; k++) {
    const lx_obs *o = &p->obs[k];
    if (o->kind == LX_OBS_REG) {
      if (lx_expr_eval(p->paths[w->paths[o->thread]].regs[o->slot], w->val) != w->obs[k]) return false;
      continue;
    }
    bool some = false;
    for (size_t e = 0; e < p->nevents && !some; e++) {
      const lx_event *ev = &p->events[e];
      if (ev->kind != LX_EV_WRITE || ev->ploc != o->ploc || !lc_witness_runs(p, w, (int)e)) continue;
      bool last = true;
      for (size_t x = 0; x < p->nevents; x++) last &= !rel_has(w->co, e, x);
      some = last && lx_expr_eval(ev->value, w->val) == w->obs[k];
    }
    if (!some) return false;
  }
  return true;
}

typedef struct judged {
  cat_rel_result res;
  int *orig;
} judged;

/* Evaluates w; *msg when it is no execution of the state, or when the
 * engine's verdicts per check differ from the concrete ones. */
static bool judge(const lx_program *p, const cat_model *m, const lc_witness *w, const lc_state *st,
                  const bool *failing, judged *j, char **msg) {
  char *why = NULL;
  if (enum_eval_witness(p, m, w, &j->res, &j->orig, &why) < 0) {
    lc_buf b;
    lc_buf_init(&b);
    lc_buf_printf(&b, "an execution the engine gave is not a candidate execution: %s", why);
    *msg = lc_buf_take(&b);
    lc_buf_fini(&b);
    free(why);
    return false;
  }
  const char *bad = NULL;
  if (!finals_match(p, w) || (st && !lc_state_holds(st, w->obs))) bad = "its final state";
  for (size_t i = 0; !bad && failing && i < j->res.n; i++)
    if (!j->res.checks[i].flag && failing[i] != !j->res.checks[i].holds) bad = j->res.checks[i].name;
  if (!bad) return true;
  lc_buf b;
  lc_buf_init(&b);
  lc_buf_printf(&b, "the engines disagree on an execution: %s", bad);
  *msg = lc_buf_take(&b);
  lc_buf_fini(&b);
  cat_rel_result_fini(&j->res);
  free(j->orig);
  return false;
}

/* ---- minimal sets ------------------------------------------------------------------------------ */

typedef struct found {
  lc_witness *w;
  uint64_t fails;           /* bit k: fails the k-th named check */
} found;

/* ---- the explicit engine, Z3 where it is slow ---------------------------------------------- */

/* Under --engine auto each question goes to the explicit engine with
 * this many nodes of its search, then to Z3, whose encoding is built on
 * the first question it gets.  Evaluating only the checks a question
 * counts (enum_find_query), the explicit engine is the faster on every
 * question of the corpus: its hardest, that no execution of
 * Ticketlock-same-gpu's state passes WF-co + Atomicity + Causality, takes
 * 829 nodes (1,018 under PTX 6.0) and 6 to 14 ms, where Z3 took 30 to
 * 110 ms with its encoding.  Z3 stays for larger tests.  A budget of
 * nodes, not seconds, keeps the answers, hence the executions shown, the
 * same on any machine. */
#define MIXED_NODES 10000

typedef struct mixed {
  const lx_program *p;
  const cat_model *m;
  double timeout;
  lc_explainer smt;         /* .ctx NULL until Z3 is first asked */
  bool by_smt;              /* the last answer is Z3's */
  bool thin_air;            /* the state: only values out of thin air give it */
} mixed;

typedef struct explainer_run {
  const lx_program *p;
  const cat_model *m;
  lc_explainer ex;
  size_t *checks, k;        /* the named checks (model indices), k of them */
  LC_VEC(found) seen;       /* every execution found for the state */
  LC_VEC(uint64_t) minimal;
  size_t questions;
  char *message;
  bool cross;               /* the engine is not the explicit one: judge each answer */
  mixed *mx;                /* the mixed explainer's, else NULL */
  bool study;               /* the explicit engine answers: study each state first */
  double timeout;
  enum_cuts cuts;           /* what cut the search for the state with every check */
  bool cuts_hold;           /* ... which found no execution: cuts speak of the state */
  bool studied;             /* that search was made for this state */
} explainer_run;

static uint64_t to_bits(const explainer_run *r, const bool *failing) {
  uint64_t bits = 0;
  for (size_t i = 0; i < r->k; i++)
    if (failing[r->checks[i]]) bits |= (uint64_t)1 << i;
  return bits;
}

static void keep_found(explainer_run *r, lc_witness *w, const bool *failing) {
  found f = {w, to_bits(r, failing)};
  lc_vec_push(&r->seen, f);
}

/* Asks for an execution passing `set`: 1 (recorded in seen), 0, -1 (the
 * message in r), -2 (the mixed explainer's explicit engine ran out of
 * nodes on a question for it only). */
static int ask(explainer_run *r, uint64_t set, const lc_state *st) {
  size_t nc = cat_model_nchecks(r->m);
  bool *on = lc_xcalloc(nc + 1, sizeof(bool)), *failing = lc_xcalloc(nc + 1, sizeof(bool));
  for (size_t i = 0; i < r->k; i++) on[r->checks[i]] = (set >> i) & 1;
  lc_witness *w = NULL;
  r->questions++;
  int rc = r->ex.find(r->ex.ctx, on, st, &w, failing, &r->message);
  if (rc == 1) {
    /* The explicit engine's answers come from the judge's own evaluation;
     * those shown are evaluated again for their violations anyway. */
    judged j = {0};
    bool cross = r->cross || (r->mx && r->mx->by_smt);
    if (!cross || judge(r->p, r->m, w, st, failing, &j, &r->message)) {
      keep_found(r, w, failing);
      if (cross) cat_rel_result_fini(&j.res), free(j.orig);
    } else {
      lc_witness_free(w);
      rc = -1;
    }
  }
  free(on);
  free(failing);
  return rc;
}

static bool known_passing(const explainer_run *r, uint64_t set) {
  for (size_t i = 0; i < r->seen.n; i++)
    if (!(set & r->seen.v[i].fails)) return true;
  return false;
}

static bool has_minimal_subset(const explainer_run *r, uint64_t set) {
  for (size_t i = 0; i < r->minimal.n; i++)
    if ((r->minimal.v[i] & set) == r->minimal.v[i]) return true;
  return false;
}

/* The checks of `set` (bits over r->checks), as bits over the model's. */
static uint64_t model_bits(const explainer_run *r, uint64_t set) {
  uint64_t bits = 0;
  for (size_t i = 0; i < r->k; i++)
    if ((set >> i) & 1) bits |= r->checks[i] < 64 ? (uint64_t)1 << r->checks[i] : 0;
  return bits;
}

/* Does the study of the state prove that no execution passes `set`? */
static bool ruled_out_by_cuts(const explainer_run *r, uint64_t set) {
  return r->cuts_hold && enum_cuts_met_by(&r->cuts, model_bits(r, set));
}

/* Every set of `size` checks, in increasing order of their bits. */
static int sets_of_size(explainer_run *r, const lc_state *st, size_t size) {
  uint64_t all = r->k == 64 ? ~(uint64_t)0 : ((uint64_t)1 << r->k) - 1;
  for (uint64_t set = ((uint64_t)1 << size) - 1; set && set <= all;) {
    if (!has_minimal_subset(r, set) && !known_passing(r, set)) {
      int rc = ruled_out_by_cuts(r, set) ? 0 : ask(r, set, st);
      if (rc < 0) return -1;
      if (rc == 0) lc_vec_push(&r->minimal, set);
    }
    /* the next set with as many bits (Gosper's hack) */
    uint64_t c = set & -set, nx = set + c;
    if (!nx) break;
    set = (((nx ^ set) >> 2) / c) | nx;
  }
  return 0;
}

/* An execution failing check i alone, looked for below the place where
 * the study's search first cut with i alone: below it every candidate
 * fails i, and one passing the rest is most often a few nodes away
 * (Ticketlock-same-gpu: about 20, against 250 to 2,500 from the root). */
#define ALONE_NODES 2000

static int fails_alone(explainer_run *r, const lc_state *st, size_t i) {
  size_t nc = cat_model_nchecks(r->m);
  bool *on = lc_xcalloc(nc + 1, sizeof(bool)), *failing = lc_xcalloc(nc + 1, sizeof(bool));
  for (size_t j = 0; j < r->k; j++) on[r->checks[j]] = j != i;
  enum_options o = {r->timeout, false, false, false};
  enum_query q = {on, st, ALONE_NODES, NULL, &r->cuts.alone[r->checks[i]], NULL, NULL};
  lc_witness *w = NULL;
  char *msg = NULL;
  r->questions++;
  int rc = enum_find_query(r->p, r->m, &o, &q, &w, failing, &msg);
  if (rc == 1) {
    keep_found(r, w, failing);
  }
  if (rc == -1) r->message = msg;
  else free(msg);
  free(on);
  free(failing);
  return rc;
}

/* Before the sets by size, the explicit engine searches once for an
 * execution passing every check, noting what cut its tree (enum_cuts):
 * each set meeting every set of checks it cut with is answered no at
 * once, without a search, and only a check that cut alone can fail alone,
 * so only for those is an execution failing it alone looked for (witnesses
 * every minimal set needs, which leave few sets to ask about).  A search
 * that runs out of nodes (the mixed explainer's budget) proves nothing.
 * Returns as ask does (-2: out of nodes). */
static int study(explainer_run *r, const lc_state *st) {
  if (r->mx && r->mx->thin_air) {   /* the explicit engine's tree misses those values */
    r->studied = true;
    return -2;
  }
  enum_cuts_fini(&r->cuts);
  enum_cuts_init(&r->cuts, r->m);
  size_t nc = cat_model_nchecks(r->m);
  bool *failing = lc_xcalloc(nc + 1, sizeof(bool));
  enum_options o = {r->timeout, false, false, false};
  bool incomplete = false;
  enum_query q = {NULL, st, r->mx ? MIXED_NODES : 0, &r->cuts, NULL, NULL, &incomplete};
  lc_witness *w = NULL;
  r->questions++;
  r->studied = true;
  int rc = enum_find_query(r->p, r->m, &o, &q, &w, failing, &r->message);
  if (rc == 1) {
    keep_found(r, w, failing);
  }
  free(failing);
  r->cuts_hold = rc == 0 && !incomplete && r->cuts.usable;
  return rc;
}

static int witnesses_alone(explainer_run *r, const lc_state *st) {
  uint64_t all = r->k == 64 ? ~(uint64_t)0 : ((uint64_t)1 << r->k) - 1;
  for (size_t i = 0; r->cuts_hold && i < r->k; i++) {
    if (!r->cuts.alone[r->checks[i]].paths || known_passing(r, all & ~((uint64_t)1 << i))) continue;
    if (fails_alone(r, st, i) == -1) return -1;
  }
  return 0;
}

static const found *witness_for(const explainer_run *r, uint64_t set, size_t i) {
  uint64_t rest = set & ~((uint64_t)1 << i);
  const found *best = NULL;
  for (size_t k = 0; k < r->seen.n; k++) {
    const found *f = &r->seen.v[k];
    if ((f->fails & rest) || !((f->fails >> i) & 1)) continue;
    if (!best || __builtin_popcountll(f->fails) < __builtin_popcountll(best->fails)) best = f;
  }
  return best;
}

static int make_reason(explainer_run *r, uint64_t set, const lc_state *st, lc_reason *out) {
  out->why = lc_xcalloc((size_t)__builtin_popcountll(set), sizeof(lc_why));
  out->n = 0;
  for (size_t i = 0; i < r->k; i++) {
    if (!((set >> i) & 1)) continue;
    const found *f = witness_for(r, set, i);
    if (!f && ask(r, set & ~((uint64_t)1 << i), st) < 0) return -1;
    if (!f) f = witness_for(r, set, i);
    if (!f) {
      r->message = lc_xstrdup("no execution fails a check of a minimal set alone");
      return -1;
    }
    lc_why *y = &out->why[out->n++];
    y->w = lc_witness_copy(r->p, f->w);
    judged j;
    if (!judge(r->p, r->m, y->w, st, NULL, &j, &r->message)) return -1;
    size_t c = r->checks[i];
    int rc = violation(r->p, r->m, y->w, &j.res.checks[c], j.orig, c, &y->v, &r->message);
    cat_rel_result_fini(&j.res);
    free(j.orig);
    if (rc < 0) return -1;
  }
  return 0;
}

static void explain_forbidden(explainer_run *r, const lc_state *st, lc_explanation *x) {
  if (r->k > 20) {
    x->kind = LC_EXPLAIN_ERROR;
    x->message = lc_xstrdup("the model has more than 20 named checks; too many sets to try");
    return;
  }
  int rc = ask(r, 0, st);
  if (rc <= 0) {
    x->kind = rc == 0 ? LC_EXPLAIN_NO_CANDIDATE : LC_EXPLAIN_ERROR;
    return;
  }
  if (r->study && !r->studied && study(r, st) == -1) rc = -1;
  else rc = r->study ? witnesses_alone(r, st) : 0;
  for (size_t size = 1; size <= r->k && rc == 0; size++) rc = sets_of_size(r, st, size);
  x->reasons = lc_xcalloc(r->minimal.n + 1, sizeof(lc_reason));
  for (size_t i = 0; rc == 0 && i < r->minimal.n; i++) {
    rc = make_reason(r, r->minimal.v[i], st, &x->reasons[i]);
    x->nreasons = i + 1;
  }
  x->kind = rc == 0 ? LC_EXPLAIN_FORBIDDEN : LC_EXPLAIN_ERROR;
}

/* Does the checked result already say no allowed state gives st?  Only
 * when st speaks of shown observables (the result lists their values).
 * Executions cut by the unroll bound give no state in the result, and no
 * engine's answer to the explainer's question either (witness.h): a
 * result that reached the bound answers as well. */
static bool known_forbidden(const lc_result *res, const lc_state *st) {
  if (!res || res->status != LC_RESULT_OK) return false;
  for (size_t i = 0; i < st->n; i++)
    if ((size_t)st->obs[i] >= res->nshown) return false;
  lx_val *full = lc_xcalloc(res->prog->nobs + 1, sizeof(lx_val));
  bool some = false;
  for (size_t i = 0; i < res->nstates && !some; i++) {
    memcpy(full, lc_result_state(res, i), res->nshown * sizeof(lx_val));
    some = lc_state_holds(st, full);
  }
  free(full);
  return !some;
}

static void explain_one(explainer_run *r, const lc_state *st, const lc_result *res, lc_explanation *x) {
  if (res && lc_result_verdict(res).unfinished) {
    /* the checks that rule out the executions giving st within the bound
     * (two threads in one critical section: WF-mo, Atomicity) are not why
     * st is never seen: no execution that ends is allowed at all */
    lc_buf b;
    lc_buf_init(&b);
    lc_unfinished_text(&b, res);
    x->kind = LC_EXPLAIN_UNFINISHED;
    x->message = lc_buf_take(&b);
    lc_buf_fini(&b);
    return;
  }
  uint64_t all = r->k == 64 ? ~(uint64_t)0 : ((uint64_t)1 << r->k) - 1;
  int rc = known_forbidden(res, st) ? 0 : r->study ? study(r, st) : ask(r, all, st);
  if (rc == -2) rc = ask(r, all, st);
  if (rc == 1) {
    x->kind = LC_EXPLAIN_ALLOWED;
    x->witness = lc_witness_copy(r->p, r->seen.v[r->seen.n - 1].w);
  } else if (rc == 0) {
    explain_forbidden(r, st, x);
  } else {
    x->kind = LC_EXPLAIN_ERROR;
  }
  if (x->kind == LC_EXPLAIN_ERROR) x->message = r->message ? r->message : lc_xstrdup("no answer");
  else free(r->message);
  r->message = NULL;
}

static void reset_run(explainer_run *r) {
  for (size_t i = 0; i < r->seen.n; i++) lc_witness_free(r->seen.v[i].w);
  r->seen.n = 0;
  r->minimal.n = 0;
  r->cuts_hold = r->studied = false;
  if (r->mx) r->mx->thin_air = false;
}

static int mixed_find(void *ctx, const bool *on, const lc_state *st, lc_witness **w, bool *failing, char **msg) {
  mixed *x = ctx;
  x->by_smt = false;
  enum_options o = {x->timeout, false, false, false};
  bool incomplete = false, none = enum_counts_none(x->m, on);
  enum_query q = {on, st, MIXED_NODES, NULL, NULL, NULL, &incomplete};
  int rc = x->thin_air ? -2 : enum_find_query(x->p, x->m, &o, &q, w, failing, msg);
  /* "no candidate whatever the model" the explicit engine may say only
   * for want of a value out of thin air (enum_query.incomplete): Z3 has
   * them all, and when it finds one, it answers the state's questions */
  if (rc == 0 && incomplete && none) rc = -2;
  x->by_smt = rc == -2;
  if (rc != -2) return rc;
  if (!x->smt.ctx) x->smt = smt_explainer(x->p, x->m, x->timeout);
  rc = x->smt.find(x->smt.ctx, on, st, w, failing, msg);
  x->thin_air |= rc == 1 && incomplete && none;
  return rc;
}

static void mixed_free(void *ctx) {
  mixed *x = ctx;
  if (x->smt.ctx) x->smt.free(x->smt.ctx);
  free(x);
}

static lc_explainer mixed_explainer(const lx_program *p, const cat_model *m, double timeout, mixed **mx) {
  mixed *x = lc_xcalloc(1, sizeof *x);
  x->p = p;
  x->m = m;
  x->timeout = timeout;
  *mx = x;
  return (lc_explainer){x, mixed_find, mixed_free};
}

/* The engine named in the result: "enum+smt" when both answered. */
static const char *mixed_name(const lc_explainer *ex) {
  return ((const mixed *)ex->ctx)->smt.ctx ? "enum+smt" : "enum";
}

/* engine: LC_ENGINE_AUTO for the mixed explainer. */
static lc_explain_result *explain_with(const lx_program *p, const cat_model *m, lc_engine engine, double timeout,
                                       const lc_state *states, size_t n, const lc_result *checked) {
  lc_explain_result *x = lc_xcalloc(1, sizeof *x);
  x->prog = p;
  x->model = m;
  x->engine = lc_engine_name(engine);
  x->ex = lc_xcalloc(n + 1, sizeof(lc_explanation));
  x->n = n;
  explainer_run r = {0};
  r.p = p;
  r.m = m;
  r.cross = engine == LC_ENGINE_SMT;
  r.study = engine != LC_ENGINE_SMT;
  r.timeout = timeout;
  enum_cuts_init(&r.cuts, m);
  if (engine == LC_ENGINE_AUTO) r.ex = mixed_explainer(p, m, timeout, &r.mx);
  else r.ex = engine == LC_ENGINE_ENUM ? enum_explainer(p, m, timeout) : smt_explainer(p, m, timeout);
  size_t nc = cat_model_nchecks(m);
  r.checks = lc_xcalloc(nc + 1, sizeof(size_t));
  for (size_t i = 0; i < nc; i++)
    if (!cat_model_check_is_flag(m, i)) r.checks[r.k++] = i;
  for (size_t i = 0; i < n; i++) {
    lc_state_copy(&states[i], &x->ex[i].state);
    explain_one(&r, &x->ex[i].state, checked, &x->ex[i]);
    reset_run(&r);
  }
  lc_vec_free(&r.seen);
  lc_vec_free(&r.minimal);
  enum_cuts_fini(&r.cuts);
  free(r.checks);
  if (engine == LC_ENGINE_AUTO) x->engine = mixed_name(&r.ex);
  r.ex.free(r.ex.ctx);
  x->questions = r.questions;
  return x;
}

/* --engine auto for explanations: the mixed explainer (the explicit
 * engine, Z3 where it runs out of nodes) on the tests the listing gives
 * the explicit engine and on those with loops; Z3 on the others (many
 * writes to one location or many fence.sc, where Z3 lists faster). */
static bool has_cut(const lx_program *p) {
  for (size_t i = 0; i < p->npaths; i++)
    if (p->paths[i].cut) return true;
  return false;
}

lc_explain_result *lc_explain(const lx_program *p, const cat_model *m, lc_engine engine, double timeout,
                              const lc_state *states, size_t n, const lc_result *checked) {
  assert(p && m && (states || !n));
  double start = lc_now();
  lc_engine e = engine;
  if (e == LC_ENGINE_AUTO && !has_cut(p) && lc_engine_choose(p) == LC_ENGINE_SMT) e = LC_ENGINE_SMT;
  lc_explain_result *x = explain_with(p, m, e, timeout, states, n, checked);
  x->seconds = lc_now() - start;
  return x;
}

static void free_reason(lc_reason *rs) {
  for (size_t k = 0; k < rs->n; k++) {
    lc_witness_free(rs->why[k].w);
    violation_fini(&rs->why[k].v);
  }
  free(rs->why);
}

void lc_explain_free(lc_explain_result *x) {
  if (!x) return;
  for (size_t i = 0; i < x->n; i++) {
    lc_explanation *e = &x->ex[i];
    lc_state_fini(&e->state);
    lc_witness_free(e->witness);
    for (size_t j = 0; j < e->nreasons; j++) free_reason(&e->reasons[j]);
    free(e->reasons);
    free(e->message);
  }
  free(x->ex);
  for (size_t i = 0; i < x->nraces; i++) {
    lc_witness_free(x->races[i].w);
    free(x->races[i].message);
  }
  free(x->races);
  free(x);
}

bool lc_explain_failed(const lc_explain_result *x) {
  assert(x);
  for (size_t i = 0; i < x->n; i++)
    if (x->ex[i].kind == LC_EXPLAIN_ERROR) return true;
  for (size_t i = 0; i < x->nraces; i++)
    if (!x->races[i].w) return true;
  return false;
}

/* ---- races ------------------------------------------------------------------------------------ */

/* Has the flag's relation the pair (either way) in the evaluation j? */
static bool races_in(const judged *j, const lc_race *rc) {
  for (size_t i = 0; i < j->res.n; i++) {
    const cat_rel_check *c = &j->res.checks[i];
    if (!c->flag || !c->rel || strcmp(c->name, rc->flag) != 0) continue;
    size_t a = c->rel->n, b = c->rel->n;
    for (size_t k = 0; k < c->rel->n; k++) {
      if (j->orig[k] == rc->a) a = k;
      if (j->orig[k] == rc->b) b = k;
    }
    return a < c->rel->n && b < c->rel->n && (rel_has(c->rel, a, b) || rel_has(c->rel, b, a));
  }
  return false;
}

/* Judges a race's execution found by Z3: allowed (every named check
 * holds) and the flag's relation has the pair, as the explicit engine's
 * evaluation sees it.  NULL, or what is wrong. */
static char *judge_race(const lc_explain_result *x, const lc_race *rc) {
  bool *failing = lc_xcalloc(cat_model_nchecks(x->model) + 1, sizeof(bool));
  judged j;
  char *msg = NULL;
  if (judge(x->prog, x->model, rc->w, NULL, failing, &j, &msg)) {
    if (!races_in(&j, rc)) msg = lc_xstrdup("the engines disagree on a race's execution: the pair does not race in it");
    cat_rel_result_fini(&j.res);
    free(j.orig);
  }
  free(failing);
  return msg;
}

void lc_explain_races(lc_explain_result *x, const lc_result *r, double timeout) {
  assert(x && r);
  size_t total = 0;
  for (size_t f = 0; f < r->nflags; f++) total += r->flags[f].npairs ? r->flags[f].npairs : r->flags[f].raised;
  x->races = lc_xcalloc(total + 1, sizeof(lc_race));
  /* Z3 finds the executions when it explained the states; the explicit
   * engine's evaluation then judges each. */
  lc_explainer smt = {0};
  if (total && strcmp(x->engine, "smt") == 0) smt = smt_explainer(x->prog, x->model, timeout);
  for (size_t f = 0; f < r->nflags; f++) {
    const lc_flag *fl = &r->flags[f];
    size_t np = fl->npairs ? fl->npairs : fl->raised;
    for (size_t k = 0; k < np; k++) {
      lc_race *rc = &x->races[x->nraces++];
      rc->flag = fl->name;
      rc->a = fl->npairs ? fl->pairs[2 * k] : fl->ev_a;
      rc->b = fl->npairs ? fl->pairs[2 * k + 1] : fl->ev_b;
      int got;
      if (smt.ctx) {
        got = smt_find_race(&smt, fl->name, rc->a, rc->b, &rc->w, &rc->message);
        if (got == 1 && (rc->message = judge_race(x, rc))) lc_witness_free(rc->w), rc->w = NULL;
      } else {
        enum_options o = {timeout, false, false, false};
        got = enum_find_race(x->prog, x->model, &o, fl->name, rc->a, rc->b, &rc->w, &rc->message);
      }
      if (got == 0) rc->message = lc_xstrdup("no allowed execution has this pair");
    }
  }
  if (smt.ctx) smt.free(smt.ctx);
}
