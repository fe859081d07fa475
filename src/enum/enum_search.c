/* enum_search.c - the explicit engine: a depth-first search over the
 * choices of a candidate execution, the model evaluated on bitsets.
 * SPDX-License-Identifier: MIT
 *
 * Choices are made in this order: one path per thread (a frame), the
 * source of each read, the values (fixed by rf, except around a cycle of
 * value dependencies, where they are guessed from the location's domain
 * and checked), the Fence-SC order pair by pair, an arrival order of the
 * barriers, and co location by location, pair by pair; the co pairs a
 * read's source touches are settled as soon as it is chosen (settle_co).
 * A complete choice is a candidate execution; the model is evaluated on
 * it exactly (cat_rel_eval) and, if every check holds, its final states and flags
 * are recorded.
 *
 * Pruning never uses knowledge of a model.  At an inner node the model is
 * evaluated on may/must bounds of the choices still open (enum_model.c,
 * cat_mm_op underneath): a check that fails for every completion cuts the
 * subtree, and so does a subtree that can add nothing - every final state
 * it could reach is already known, and every pair each flag's relation
 * may have below is already listed.  (Flags list every racy pair some
 * allowed execution has, as the SMT engine does, so both engines report
 * the same pairs.)  Path conditions are checked as soon as
 * their values are known.  Tests of the pruning compare it with the
 * unpruned search (enum_options.no_prune).
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "cat/cat_rel.h"
#include "enum/enum_int.h"

/* Remembered orders per frame (try_remembered): enough for the sc orders
 * a ring of fences needs (one per place the ring may be cut). */
#define ENUM_MEMO 16

/* ---- a set of states ------------------------------------------------------------- */

typedef struct state_set {
  size_t w;                 /* values per state */
  lx_val *v;                /* n * w values */
  size_t n, cap;
  size_t *slot;             /* open addressing: state index + 1, 0 empty */
  size_t nslots;
} state_set;

static uint64_t hash_state(const lx_val *x, size_t w) {
  uint64_t h = 1469598103934665603u;
  for (size_t i = 0; i < w; i++) h = (h ^ (uint64_t)x[i]) * 1099511628211u;
  return h;
}

static size_t *find_slot(const state_set *s, const lx_val *x) {
  size_t i = (size_t)hash_state(x, s->w) & (s->nslots - 1);
  for (;; i = (i + 1) & (s->nslots - 1)) {
    size_t k = s->slot[i];
    if (!k || memcmp(s->v + (k - 1) * s->w, x, s->w * sizeof(lx_val)) == 0) return &s->slot[i];
  }
}

static bool set_has(const state_set *s, const lx_val *x) { return s->nslots && *find_slot(s, x) != 0; }

static void set_grow(state_set *s) {
  free(s->slot);
  s->nslots = s->nslots ? s->nslots * 2 : 64;
  s->slot = lc_xcalloc(s->nslots, sizeof(size_t));
  for (size_t k = 0; k < s->n; k++) *find_slot(s, s->v + k * s->w) = k + 1;
}

static void set_add(state_set *s, const lx_val *x) {
  if ((s->n + 1) * 2 > s->nslots) set_grow(s);
  size_t *slot = find_slot(s, x);
  if (*slot) return;
  if (s->n == s->cap) {
    s->cap = s->cap ? s->cap * 2 : 16;
    s->v = lc_xrealloc(s->v, s->cap * (s->w ? s->w : 1) * sizeof(lx_val));
  }
  memcpy(s->v + s->n * s->w, x, s->w * sizeof(lx_val));
  *slot = ++s->n;
}

/* ---- the search state ---------------------------------------------------------------- */

typedef struct search {
  const lx_program *p;
  const cat_model *m;
  const enum_options *o;
  lc_result *r;
  unsigned char *loop_known;  /* per path: cut at a loop an allowed execution is known to need more of */
  double deadline;
  bool stop;                /* an error or the time limit: r says which */
  size_t ticks;
  size_t max_nodes;         /* enum_find_bounded: nodes allowed (0: no limit) */
  bool over;                /* ... and they ran out */
  enum_cuts *cuts;          /* enum_find_query: what cut the search, or NULL */
  const enum_place *within; /* enum_find_query: the candidates wanted extend it, or NULL */
  bool *skip;               /* per check: not needed by this search, never evaluated */
  bool guessed_short;       /* a guess may have missed a value the target allows */

  enum_frame *f;
  int *rf;                  /* per read of the frame: its source, -1 while open */
  size_t *rf_order;         /* the reads in the order their sources are chosen */
  bool *co_no_apart;        /* per pair of co: leaving it unrelated fails (probe_co) */
  bool *sc_no_apart;        /* the same for the pairs of sc (probe_sc) */
  lx_val *val;              /* per event id: the value a read returns */
  bool *known;              /* per event id: val is set */
  bool *guessed;            /* per event id: val is a guess made while choosing rf */
  enum_order sc, co;
  rel_rel *bar_may, *bar_must;   /* bounds of sync_bar until it is chosen */
  rel_rel *bar;             /* the chosen sync_bar, or NULL */
  rel_rel **bars;           /* every sync_bar the arrival orders give */
  size_t nbars;

  state_set found;
  enum_values *values;      /* what each location's reads can return, for states_open */
  enum_sym *sym;            /* twin threads (enum_sym.c), or NULL */
  enum_sym_rf *sym_rf;      /* the swaps mapping this frame onto itself, or NULL */
  const lc_state_hook *hook;  /* judges new states as they are found, or NULL */
  bool frame_retry;           /* the frame takes a spin retry (lx_path.retry) */
  size_t *flag_check;       /* per flag: its index among the model's checks */
  rel_rel **listed;         /* per flag: the pairs listed, in event ids, both ways */
  rel_rel **frame_may;      /* per flag: pairs it may have in this frame (event ids;
                               only the frame's rows are ever set) */
  bool frame_may_known;     /* note_frame_flags ran in this frame */
  lx_val *obs;              /* scratch: one value per observable */
  bool *obs_known;          /* scratch: which of obs are set (the hook's partial hint) */

  enum_model *em;           /* the model over bounds, kept between nodes */
  uint64_t ver[ENUM_NCHOICES], clock;
  cat_mm_verdict *verdicts; /* per check of the model */

  /* enum_find: the one state wanted, the checks that count, what was found */
  const lc_state *target;
  const bool *on;
  int race_check, race_a, race_b;   /* enum_find_race: the flag and pair wanted */
  lc_witness *hit;
  bool *failing;
  /* enum_each_execution: every execution giving the target goes to `each`
   * (false: stop), none is kept in hit */
  bool (*each)(void *ctx, const lc_witness *w);
  void *each_ctx;

  /* The sc and co of the frame's last allowed executions, most recent
   * first (see try_remembered). */
  rel_rel *memo_sc[ENUM_MEMO], *memo_co[ENUM_MEMO];
  size_t nmemo;
  bool leaf_allowed;        /* the last leaf evaluated was allowed */
} search;

/* Does check i constrain executions in this search? */
static bool counts(const search *s, size_t i) {
  return !cat_model_check_is_flag(s->m, i) && (!s->on || s->on[i]);
}

/* Choice c moved: values built on it are stale. */
static void changed(search *s, unsigned c) { s->ver[c] = ++s->clock; }

static void fail(search *s, lc_result_status st, const char *msg) {
  if (!s->stop) lc_result_fail(s->r, st, "%s", msg);
  s->stop = true;
}

static void tick(search *s) {
  if (++s->r->solver_checks > s->max_nodes && s->max_nodes && !s->stop) {
    lc_result_fail(s->r, LC_RESULT_UNKNOWN, "the explicit engine's search for an execution ran out of nodes");
    s->stop = s->over = true;
  }
  if (s->deadline > 0 && (++s->ticks & 255) == 0 && lc_now() > s->deadline && !s->stop) {
    lc_result_fail(s->r, LC_RESULT_UNKNOWN,
                   "out of time (--timeout %g s) while enumerating candidate executions; no verdict",
                   s->o->timeout);
    s->stop = true;
  }
}

/* ---- builtins: bounds of the chosen relations --------------------------------------- */

static void rf_bounds(const search *s, rel_rel *may, rel_rel *must) {
  const enum_frame *f = s->f;
  for (size_t i = 0; i < f->nreads; i++) {
    size_t r = f->reads[i];
    if (s->rf[i] >= 0) {
      rel_add(must, (size_t)s->rf[i], r);
      rel_add(may, (size_t)s->rf[i], r);
      continue;
    }
    for (size_t c = 0; c < f->ncands[i]; c++) rel_add(may, f->cands[i][c], r);
  }
}

static void order_bounds(const enum_order *o, const rel_rel *first, rel_rel **may, rel_rel **must) {
  *may = enum_order_may(o);
  *must = rel_copy(o->before);
  if (!first) return;
  rel_union_into(*may, first);
  rel_union_into(*must, first);
}

/* fr = rf^-1; co, row by row: a read's row is the co rows of its
 * sources (may: of every source it may still read from; must: of the
 * one it reads from, once chosen).  Built straight, not as the inverse
 * and two products of new relations: fr is rebuilt at every node that
 * moves rf or co. */
static void or_row(rel_rel *d, size_t a, const rel_rel *s, size_t b) {
  uint64_t *to = rel_row(d, a);
  const uint64_t *from = rel_row(s, b);
  for (size_t k = 0; k < d->words; k++) to[k] |= from[k];
}

static void fr_bounds(const search *s, rel_rel **may, rel_rel **must) {
  const enum_frame *f = s->f;
  rel_rel *comay, *comust;
  order_bounds(&s->co, f->iwco, &comay, &comust);
  *may = rel_new(f->n);
  *must = rel_new(f->n);
  for (size_t i = 0; i < f->nreads; i++) {
    size_t r = f->reads[i];
    if (s->rf[i] >= 0) {
      or_row(*may, r, comay, (size_t)s->rf[i]);
      or_row(*must, r, comust, (size_t)s->rf[i]);
      continue;
    }
    for (size_t c = 0; c < f->ncands[i]; c++) or_row(*may, r, comay, f->cands[i][c]);
  }
  rel_free(comay);
  rel_free(comust);
}

/* The bounds of a chosen builtin; false when `name` is not one. */
static bool choice_bounds(const search *s, const char *name, rel_rel **may, rel_rel **must) {
  size_t n = s->f->n;
  if (strcmp(name, "rf") == 0) {
    *may = rel_new(n), *must = rel_new(n);
    rf_bounds(s, *may, *must);
  } else if (strcmp(name, "co") == 0) {
    order_bounds(&s->co, s->f->iwco, may, must);
  } else if (strcmp(name, "sc") == 0) {
    order_bounds(&s->sc, NULL, may, must);
  } else if (strcmp(name, "fr") == 0) {
    fr_bounds(s, may, must);
  } else if (strcmp(name, "sync_bar") == 0) {
    *may = rel_copy(s->bar ? s->bar : s->bar_may);
    *must = rel_copy(s->bar ? s->bar : s->bar_must);
  } else {
    return false;
  }
  return true;
}

static void *exact_builtin(void *uctx, const char *name, cat_type *type) {
  const search *s = uctx;
  void *v = enum_frame_static(s->f, name, type);
  rel_rel *may, *must;
  if (v || !choice_bounds(s, name, &may, &must)) return v;
  *type = CAT_TY_REL;
  rel_free(must);
  return may;
}

static unsigned builtin_deps(void *uctx, const char *name) {
  (void)uctx;
  if (strcmp(name, "rf") == 0) return 1u << ENUM_RF;
  if (strcmp(name, "co") == 0) return 1u << ENUM_CO;
  if (strcmp(name, "fr") == 0) return 1u << ENUM_RF | 1u << ENUM_CO;
  if (strcmp(name, "sc") == 0) return 1u << ENUM_SC;
  if (strcmp(name, "sync_bar") == 0) return 1u << ENUM_BAR;
  return 0;
}

/* The choices first: they are rebuilt at every node that moves them,
 * the static relations once a frame (and the names of the static ones
 * are many to compare). */
static cat_mm *bounds_builtin(void *uctx, const char *name, cat_type *type) {
  const search *s = uctx;
  rel_rel *may, *must;
  if (choice_bounds(s, name, &may, &must)) {
    *type = CAT_TY_REL;
    return cat_mm_new(CAT_TY_REL, may, must);
  }
  void *v = enum_frame_static(s->f, name, type);
  return v ? cat_mm_new(*type, v, cat_rel_copy(*type, v)) : NULL;
}

/* ---- values and path conditions ---------------------------------------------------- */

static bool expr_known(const search *s, const lx_expr *e) {
  switch (e->kind) {
  case LX_X_CONST: return true;
  case LX_X_READ: return s->known[e->event];
  case LX_X_BIN: return expr_known(s, e->a) && expr_known(s, e->b);
  }
  return false;
}

/* Gives every read whose source's value can be computed its value, until
 * nothing changes; reads on a cycle of value dependencies stay unknown. */
static void propagate(search *s) {
  const enum_frame *f = s->f;
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = 0; i < f->nreads; i++) {
      int ev = f->orig[f->reads[i]];
      if (s->known[ev] || s->rf[i] < 0) continue;
      const lx_expr *x = enum_frame_event(f, (size_t)s->rf[i])->value;
      if (!expr_known(s, x)) continue;
      s->val[ev] = lx_expr_eval(x, s->val);
      s->known[ev] = changed = true;
    }
  }
}

static void reset_values(search *s) {
  for (size_t i = 0; i < s->f->nreads; i++) {
    int ev = s->f->orig[s->f->reads[i]];
    s->known[ev] = s->guessed[ev];
  }
}

/* False when a path condition whose values are known does not hold (all
 * of them must be known when `all`). */
static bool conds_hold(const search *s, bool all) {
  const enum_frame *f = s->f;
  for (size_t t = 0; t < s->p->nthreads; t++) {
    const lx_path *path = &s->p->paths[f->paths[t]];
    for (size_t c = 0; c < path->nconds; c++) {
      const lx_cond *k = &path->conds[c];
      if (!all && (!expr_known(s, k->a) || !expr_known(s, k->b))) continue;
      if (!lx_cmp_apply(k->cmp, lx_expr_eval(k->a, s->val), lx_expr_eval(k->b, s->val))) return false;
    }
  }
  return true;
}

/* ---- final states ------------------------------------------------------------------------ */

static bool co_maximal(const search *s, size_t w) {
  const rel_rel *b = s->co.before, *iw = s->f->iwco;
  for (size_t x = 0; x < s->f->n; x++)
    if (rel_has(b, w, x) || rel_has(iw, w, x)) return false;
  return true;
}

/* Calls fn on every observable valuation whose locations take the value
 * of a write that has no co successor yet (exactly the co-maximal writes
 * once co is complete: docs/model-language.md, item 5).  Stops and
 * returns false when fn does, or when *budget (0: none) runs out. */
typedef bool (*obs_fn)(search *s, void *ctx);

static bool each_final(search *s, size_t o, size_t *budget, obs_fn fn, void *ctx) {
  const lx_program *p = s->p;
  if (o == p->nobs) {
    if (*budget && --*budget == 0) return false;
    return fn(s, ctx);
  }
  const lx_obs *ob = &p->obs[o];
  if (ob->kind == LX_OBS_REG) {
    const lx_path *path = &p->paths[s->f->paths[ob->thread]];
    s->obs[o] = lx_expr_eval(path->regs[ob->slot], s->val);
    return each_final(s, o + 1, budget, fn, ctx);
  }
  for (size_t w = 0; w < s->f->n; w++) {
    const lx_event *e = enum_frame_event(s->f, w);
    if (e->kind != LX_EV_WRITE || e->ploc != ob->ploc || !co_maximal(s, w)) continue;
    s->obs[o] = lx_expr_eval(e->value, s->val);
    if (!each_final(s, o + 1, budget, fn, ctx)) return false;
  }
  return true;
}

static bool passes_filter(const search *s) {
  return !s->p->test->filter || lx_prop_eval(s->p, s->p->test->filter, s->obs);
}

static bool stop_if_new(search *s, void *ctx) {
  (void)ctx;
  return !passes_filter(s) || set_has(&s->found, s->obs);
}

/* Are the values every observable can take known yet? */
static bool one_known(const search *s, size_t o) {
  const lx_obs *ob = &s->p->obs[o];
  if (ob->kind == LX_OBS_REG) return expr_known(s, s->p->paths[s->f->paths[ob->thread]].regs[ob->slot]);
  for (size_t w = 0; w < s->f->n; w++) {
    const lx_event *e = enum_frame_event(s->f, w);
    if (e->kind == LX_EV_WRITE && e->ploc == ob->ploc && !expr_known(s, e->value)) return false;
  }
  return true;
}

static bool obs_known(const search *s) {
  for (size_t o = 0; o < s->p->nobs; o++)
    if (!one_known(s, o)) return false;
  return true;
}

/* Are the values the target state speaks of known (all of them, for the
 * filter)? */
static bool target_known(const search *s) {
  if (s->p->test->filter) return obs_known(s);
  for (size_t i = 0; i < s->target->n; i++)
    if (!one_known(s, (size_t)s->target->obs[i]) || (s->target->rhs[i] >= 0 && !one_known(s, (size_t)s->target->rhs[i])))
      return false;
  return true;
}

static bool each_possible(search *s, size_t o, size_t *budget, obs_fn fn, void *ctx);

/* each_possible for observable o, whose value is expression x: x over
 * every value its unknown reads can return (enum_values).  False as
 * each_final, and when those values are not bounded. */
static bool each_value(search *s, const lx_expr *x, size_t o, size_t *budget, obs_fn fn, void *ctx) {
  enum { MAX_UNKNOWN = 4 };
  int reads[MAX_UNKNOWN + 1];
  size_t n = enum_values_reads(x, reads, MAX_UNKNOWN + 1), k[MAX_UNKNOWN] = {0}, u = 0;
  if (n > MAX_UNKNOWN + 1) return false;
  for (size_t i = 0; i < n; i++)
    if (!s->known[reads[i]]) reads[u++] = reads[i];
  if (u > MAX_UNKNOWN) return false;
  const lx_val *dom[MAX_UNKNOWN];
  size_t ndom[MAX_UNKNOWN];
  lx_val saved[MAX_UNKNOWN];
  for (size_t i = 0; i < u; i++) {
    int l = s->p->events[reads[i]].ploc;
    if (l < 0 || s->values->over[l] || !s->values->n[l]) return false;
    dom[i] = s->values->v[l], ndom[i] = s->values->n[l], saved[i] = s->val[reads[i]];
  }
  bool more = true;
  for (;;) {
    for (size_t i = 0; i < u; i++) s->val[reads[i]] = dom[i][k[i]];
    s->obs[o] = lx_expr_eval(x, s->val);
    if (!each_possible(s, o + 1, budget, fn, ctx)) {
      more = false;
      break;
    }
    size_t i = 0;
    while (i < u && ++k[i] == ndom[i]) k[i++] = 0;
    if (i == u) break;
  }
  for (size_t i = 0; i < u; i++) s->val[reads[i]] = saved[i];
  return more;
}

/* each_final before the values are known: a value not known yet takes
 * each value its reads can return, so fn sees every valuation a
 * completion of the choice can give (and more).  A model with no check
 * that cuts (herd's c11_cos.cat alone) leaves "nothing new below" the
 * only cut: waiting for the values, a CAS loop's every source of a plain
 * read was tried once every state was found (a three-thread test of two
 * CAS loops, Dat3M's C11/manual/TSan.litmus: minutes, not one answer). */
static bool each_possible(search *s, size_t o, size_t *budget, obs_fn fn, void *ctx) {
  const lx_program *p = s->p;
  if (o == p->nobs) {
    if (*budget && --*budget == 0) return false;
    return fn(s, ctx);
  }
  const lx_obs *ob = &p->obs[o];
  if (ob->kind == LX_OBS_REG) return each_value(s, p->paths[s->f->paths[ob->thread]].regs[ob->slot], o, budget, fn, ctx);
  for (size_t w = 0; w < s->f->n; w++) {
    const lx_event *e = enum_frame_event(s->f, w);
    if (e->kind != LX_EV_WRITE || e->ploc != ob->ploc || !co_maximal(s, w)) continue;
    if (!each_value(s, e->value, o, budget, fn, ctx)) return false;
  }
  return true;
}

/* Could the current partial choice still reach a state not found yet? */
static bool states_open(search *s) {
  size_t budget = 257;
  if (obs_known(s)) return !each_final(s, 0, &budget, stop_if_new, NULL);
  return !each_possible(s, 0, &budget, stop_if_new, NULL);
}

/* Adds the images of state x, just recorded, under the swaps of twin
 * threads, and theirs, to the whole orbit.  `found` stays closed under
 * the swaps (of the states that pass the filter), so an image found
 * already has its orbit there: the walk stops at it, and each state costs
 * a lookup per swap.  States the filter drops are walked through (their
 * images may pass), kept in a list of their own. */
static void add_orbit(search *s, const lx_val *x) {
  size_t nobs = s->p->nobs, w = nobs ? nobs : 1, n = 1, cap = 16, nout = 0, capout = 4;
  lx_val *todo = lc_xcalloc(cap * w, sizeof(lx_val)), *out = lc_xcalloc(capout * w, sizeof(lx_val));
  lx_val *cur = lc_xcalloc(w, sizeof(lx_val)), *y = lc_xcalloc(w, sizeof(lx_val));
  memcpy(todo, x, nobs * sizeof(lx_val));
  const lt_prop *filter = s->p->test->filter;
  while (n) {
    n--;
    memcpy(cur, todo + n * w, nobs * sizeof(lx_val));
    for (size_t g = 0; g < s->sym->ngens; g++) {
      for (size_t o = 0; o < nobs; o++) y[s->sym->gens[g].obs[o]] = cur[o];
      if (!filter || lx_prop_eval(s->p, filter, y)) {
        if (set_has(&s->found, y)) continue;
        set_add(&s->found, y);
      } else {
        bool seen = false;
        for (size_t j = 0; j < nout && !seen; j++) seen = memcmp(out + j * w, y, nobs * sizeof(lx_val)) == 0;
        if (seen) continue;
        if (nout == capout) out = lc_xrealloc(out, (capout *= 2) * w * sizeof(lx_val));
        memcpy(out + nout++ * w, y, nobs * sizeof(lx_val));
      }
      if (n == cap) todo = lc_xrealloc(todo, (cap *= 2) * w * sizeof(lx_val));
      memcpy(todo + n++ * w, y, nobs * sizeof(lx_val));
    }
  }
  free(todo);
  free(out);
  free(cur);
  free(y);
}

static bool record(search *s, void *ctx) {
  if (!passes_filter(s)) return true;
  bool fresh = !set_has(&s->found, s->obs);
  set_add(&s->found, s->obs);
  if (fresh && s->sym) add_orbit(s, s->obs);
  *(bool *)ctx = true;
  if (fresh && s->hook && s->hook->state(s->hook->ctx, s->obs)) {
    s->stop = true;   /* the hook has its answer; the result stays OK */
    return false;
  }
  return true;
}

/* ---- evaluating the model ---------------------------------------------------------------- */

/* Can a flag gain a pair in this frame?  Its pairs there are bounded by
 * the bounds at the frame's root (note_frame_flags); the bounds of an
 * inner node are finer (flag_open) but cost an evaluation. */
static bool frame_flags_open(const search *s) {
  if (!s->frame_may_known) return s->r->nflags > 0;
  for (size_t k = 0; k < s->r->nflags; k++)
    for (size_t a = 0; a < s->f->n; a++) {
      const uint64_t *may = rel_row(s->frame_may[k], s->f->orig[a]), *listed = rel_row(s->listed[k], s->f->orig[a]);
      for (size_t w = 0; w < s->listed[k]->words; w++)
        if (may[w] & ~listed[w]) return true;
    }
  return false;
}

/* frame_flags_open for a frame that takes spin retries: a pair of events
 * outside them is flagged in the frame without the retries too (the
 * model is closed under deleting them, exec/lower_spin.c), so only the
 * pairs with a retry's read can be new. */
static bool retry_flags_open(const search *s) {
  if (!s->frame_may_known) return s->r->nflags > 0;
  for (size_t k = 0; k < s->r->nflags; k++)
    for (size_t a = 0; a < s->f->n; a++)
      for (size_t b = 0; b < s->f->n; b++) {
        int ea = s->f->orig[a], eb = s->f->orig[b];
        if ((s->p->events[ea].retry || s->p->events[eb].retry) && rel_has(s->frame_may[k], ea, eb) &&
            !rel_has(s->listed[k], ea, eb))
          return true;
      }
  return false;
}

/* Could the subtree add anything? */
static bool stop_if_target(search *s, void *ctx) {
  (void)ctx;
  return !passes_filter(s) || (s->target->n && !lc_state_holds(s->target, s->obs));
}

/* The value of a register observable, when known. */
static bool reg_value(const search *s, int o, lx_val *v) {
  const lx_obs *ob = &s->p->obs[o];
  if (ob->kind != LX_OBS_REG) return false;
  const lx_expr *x = s->p->paths[s->f->paths[ob->thread]].regs[ob->slot];
  if (!expr_known(s, x)) return false;
  *v = lx_expr_eval(x, s->val);
  return true;
}

/* Does a comparison of the target whose registers are known fail?  Asked
 * as soon as they are, not once every value the state names is: reads
 * are chosen thread after thread. */
static bool target_missed(const search *s) {
  for (size_t i = 0; i < s->target->n; i++) {
    lx_val a, b = s->target->val[i];
    if (!reg_value(s, s->target->obs[i], &a) || (s->target->rhs[i] >= 0 && !reg_value(s, s->target->rhs[i], &b)))
      continue;
    if (!lx_cmp_apply(s->target->cmp[i], a, b)) return true;
  }
  return false;
}

/* Could the current partial choice still give the state wanted? */
static bool target_open(search *s) {
  if (target_missed(s)) return false;
  if (!target_known(s)) return true;
  size_t budget = 257;
  return !each_final(s, 0, &budget, stop_if_target, NULL);
}

/* Every cut path of the choice is cut at a loop an allowed execution is
 * already known to need more iterations of: the choice can tell nothing new. */
static bool cuts_known(const search *s, const int *paths) {
  if (!s->o->cut_loops) return s->r->bound_reached;
  for (size_t t = 0; t < s->p->nthreads; t++)
    if (s->p->paths[paths[t]].cut && !s->loop_known[paths[t]]) return false;
  return true;
}

static bool anything_open(search *s) {
  if (s->target) return !s->f->cut && !s->hit && target_open(s);
  /* A frame with a spin loop's read-only retry has the states of the
   * frame without it (lx_path.retry, exec/lower_spin.c): only flagged
   * pairs can be new there (the termination hook's hangs take every frame) */
  if (s->frame_retry && !s->hook) return !s->f->cut && retry_flags_open(s);
  if (s->f->cut) return !cuts_known(s, s->f->paths) || (s->f->ub && !s->r->ub_reached);
  return states_open(s) || frame_flags_open(s);
}

static lc_diag *new_diag(lc_diag *d) {
  lc_diag_init(d, NULL, NULL);
  return d;
}

static void eval_error(search *s, lc_diag *d) {
  const char *msg = lc_diag_first_error(d);
  fail(s, LC_RESULT_ERROR, msg ? msg : "the model could not be evaluated");
}

/* Can flag k gain a pair below?  Not when each pair its relation may
 * still have is listed already. */
static bool flag_open(search *s, size_t k) {
  size_t i = s->flag_check[k];
  if (s->verdicts[i] == CAT_MM_HOLDS) return false;
  const rel_rel *may = enum_model_check_may(s->em, i);
  if (!may) return true;
  for (size_t a = 0; a < may->n; a++)
    for (size_t b = 0; b < may->n; b++)
      if (rel_has(may, a, b) && !rel_has(s->listed[k], s->f->orig[a], s->f->orig[b])) return true;
  return false;
}

/* Can a state below matter to the hook?  Registers whose values are
 * known are shown to its partial hint; locations, which co decides, are
 * not. */
static bool hook_open(search *s) {
  const lc_state_hook *h = s->hook;
  if (!h || !h->partial) return true;
  const lx_program *p = s->p;
  for (size_t o = 0; o < p->nshown; o++) {
    const lx_obs *ob = &p->obs[o];
    const lx_expr *x = ob->kind == LX_OBS_REG ? p->paths[s->f->paths[ob->thread]].regs[ob->slot] : NULL;
    s->obs_known[o] = x && expr_known(s, x);
    s->obs[o] = s->obs_known[o] ? lx_expr_eval(x, s->val) : 0;
  }
  return h->partial(h->ctx, s->obs, s->obs_known);
}

/* Is the subtree below the current partial choice worth exploring? */
static bool worth(search *s) {
  tick(s);
  if (s->stop) return false;
  if (s->o->no_prune) return true;
  if (!anything_open(s) || !hook_open(s)) return false;
  lc_diag d;
  int rc = enum_model_eval(s->em, bounds_builtin, builtin_deps, s, s->ver, s->clock, s->verdicts,
                           new_diag(&d));
  if (rc < 0) eval_error(s, &d);
  lc_diag_fini(&d);
  if (rc < 0) return false;
  uint64_t fails = 0;
  bool cut = false;
  for (size_t i = 0; i < cat_model_nchecks(s->m) && (!cut || s->cuts); i++)
    if (!cat_model_check_is_flag(s->m, i) && s->verdicts[i] == CAT_MM_FAILS) {
      cut |= counts(s, i);
      fails |= i < 64 ? (uint64_t)1 << i : 0;
    }
  if (cut && s->cuts) enum_cuts_note(s->cuts, fails, s->p, s->f, s->rf);
  if (cut) return false;
  if (s->target || s->f->cut || states_open(s)) return true;
  /* No new state below: only new pairs of a flag matter. */
  for (size_t k = 0; k < s->r->nflags; k++)
    if (flag_open(s, k)) return true;
  return false;
}

/* Before the frame's root is evaluated, a flag may have any pair. */
static void forget_frame_flags(search *s) { s->frame_may_known = false; }

/* At the frame's end: its rows are cleared one by one, so the next frame
 * starts from empty bounds.  Clearing whole relations cost each frame the
 * square of the program's events (a test whose loops make 29,000 events:
 * 9 minutes, nearly all in memset and complement). */
static void clear_frame_flags(search *s) {
  for (size_t k = 0; k < s->r->nflags && s->frame_may_known; k++)
    for (size_t a = 0; a < s->f->n; a++)
      memset(rel_row(s->frame_may[k], s->f->orig[a]), 0, s->frame_may[k]->words * sizeof(uint64_t));
  s->frame_may_known = false;
}

/* The bounds at the frame's root, just evaluated, in event ids.  A flag
 * whose check has no bounds may have any pair: its rows are all set. */
static void note_frame_flags(search *s) {
  s->frame_may_known = true;
  for (size_t k = 0; k < s->r->nflags; k++) {
    size_t i = s->flag_check[k];
    const rel_rel *may = enum_model_check_may(s->em, i);
    if (!may) {
      for (size_t a = 0; a < s->f->n; a++)
        for (size_t b = 0; b < s->f->n; b++) rel_add(s->frame_may[k], s->f->orig[a], s->f->orig[b]);
      continue;
    }
    if (s->verdicts[i] == CAT_MM_HOLDS) continue;
    for (size_t a = 0; a < may->n; a++)
      for (size_t b = 0; b < may->n; b++)
        if (rel_has(may, a, b)) rel_add(s->frame_may[k], s->f->orig[a], s->f->orig[b]);
  }
}

/* Lists pair (a, b) of flag k, event ids, unless it is; with twin
 * threads, also its images under their swaps (the pairs of the frames
 * not searched), the earlier event first when the relation holds both
 * ways (as a search of the image's frame would list it). */
static void list_pair(search *s, size_t k, int a, int b, bool both) {
  if (rel_has(s->listed[k], (size_t)a, (size_t)b)) return;
  size_t n = 1, cap = 8;
  int *todo = lc_xcalloc(2 * cap, sizeof(int));   /* pairs to list, each new */
  todo[0] = a;
  todo[1] = b;
  rel_add(s->listed[k], (size_t)a, (size_t)b);
  rel_add(s->listed[k], (size_t)b, (size_t)a);
  while (n) {
    n--;
    int x = todo[2 * n], y = todo[2 * n + 1];
    if (both && x > y && (x != a || y != b)) lc_flag_add_pair(&s->r->flags[k], y, x);
    else lc_flag_add_pair(&s->r->flags[k], x, y);
    for (size_t g = 0; s->sym && g < s->sym->ngens; g++) {
      int gx = s->sym->gens[g].ev[x], gy = s->sym->gens[g].ev[y];
      if (rel_has(s->listed[k], (size_t)gx, (size_t)gy)) continue;
      rel_add(s->listed[k], (size_t)gx, (size_t)gy);
      rel_add(s->listed[k], (size_t)gy, (size_t)gx);
      if (n == cap) {
        cap *= 2;
        todo = realloc(todo, 2 * cap * sizeof(int));
        if (!todo) abort();
      }
      todo[2 * n] = gx;
      todo[2 * n + 1] = gy;
      n++;
    }
  }
  free(todo);
}

/* Every pair of every raised flag, in event ids. */
static void raise_flags(search *s, const cat_rel_result *res) {
  for (size_t k = 0; k < s->r->nflags; k++) {
    const rel_rel *rel = res->checks[s->flag_check[k]].rel;
    if (!rel) continue;
    for (size_t a = 0; a < rel->n; a++)
      for (size_t b = 0; b < rel->n; b++)
        if (rel_has(rel, a, b)) list_pair(s, k, s->f->orig[a], s->f->orig[b], rel_has(rel, b, a));
  }
}

static bool decide(enum_order *o, int how, size_t a, size_t b);

/* ---- remembered orders ------------------------------------------------------------- */

static void forget_memos(search *s) {
  for (size_t i = 0; i < s->nmemo; i++) {
    rel_free(s->memo_sc[i]);
    rel_free(s->memo_co[i]);
  }
  s->nmemo = 0;
}

/* Puts the current sc and co first among the remembered ones. */
static void remember(search *s) {
  size_t i = 0;
  while (i < s->nmemo && !(rel_equal(s->memo_sc[i], s->sc.before) && rel_equal(s->memo_co[i], s->co.before))) i++;
  rel_rel *sc, *co;
  if (i < s->nmemo) {
    sc = s->memo_sc[i];
    co = s->memo_co[i];
  } else {
    if (s->nmemo == ENUM_MEMO) {
      rel_free(s->memo_sc[--s->nmemo]);
      rel_free(s->memo_co[s->nmemo]);
    }
    sc = rel_copy(s->sc.before);
    co = rel_copy(s->co.before);
    i = s->nmemo++;
  }
  memmove(&s->memo_sc[1], &s->memo_sc[0], i * sizeof(rel_rel *));
  memmove(&s->memo_co[1], &s->memo_co[0], i * sizeof(rel_rel *));
  s->memo_sc[0] = sc;
  s->memo_co[0] = co;
}

/* Decides every open pair of o as `like` (a complete order) does; false
 * when that contradicts a decision already taken. */
static bool decide_like(enum_order *o, const rel_rel *like) {
  for (size_t k = 0; k < o->npairs; k++) {
    size_t a = o->pairs[k][0], b = o->pairs[k][1];
    if (enum_order_decided(o, a, b)) continue;
    int how = rel_has(like, a, b) ? 1 : rel_has(like, b, a) ? 2 : 0;
    if (!decide(o, how, a, b)) return false;
  }
  return true;
}

/* ---- enum_find: one execution giving a state -------------------------------------- */

static void map_rel(const search *s, const rel_rel *from, rel_rel *to) {
  for (size_t a = 0; from && a < from->n; a++)
    for (size_t b = 0; b < from->n; b++)
      if (rel_has(from, a, b)) rel_add(to, (size_t)s->f->orig[a], (size_t)s->f->orig[b]);
}

static void take_witness(search *s, const cat_rel_result *res) {
  const enum_frame *f = s->f;
  lc_witness *w = lc_witness_new(s->p);
  memcpy(w->paths, f->paths, s->p->nthreads * sizeof(int));
  for (size_t i = 0; i < f->nreads; i++) {
    int ev = f->orig[f->reads[i]];
    w->rf[ev] = f->orig[s->rf[i]];
    w->val[ev] = s->val[ev];
  }
  map_rel(s, s->co.before, w->co);
  map_rel(s, f->iwco, w->co);
  map_rel(s, s->sc.before, w->sc);
  map_rel(s, s->bar, w->bar);
  memcpy(w->obs, s->obs, s->p->nobs * sizeof(lx_val));
  for (size_t i = 0; i < res->n; i++) s->failing[i] = !res->checks[i].flag && !res->checks[i].holds;
  s->hit = w;
}

static bool hit_target(search *s, void *ctx) {
  if (!passes_filter(s) || (s->target->n && !lc_state_holds(s->target, s->obs))) return true;
  take_witness(s, ctx);
  if (!s->each) return false;
  bool more = s->each(s->each_ctx, s->hit);
  lc_witness_free(s->hit);
  s->hit = NULL;
  if (!more) s->stop = true;
  return more;
}

static bool races_here(const search *s, const cat_rel_result *res) {
  if (s->race_check < 0) return true;
  const rel_rel *rel = res->checks[s->race_check].rel;
  int a = s->f->idx[s->race_a], b = s->f->idx[s->race_b];
  return rel && a >= 0 && b >= 0 && (rel_has(rel, (size_t)a, (size_t)b) || rel_has(rel, (size_t)b, (size_t)a));
}

static void find_leaf(search *s, const cat_rel_result *res) {
  bool passes = true;
  uint64_t fails = 0;
  for (size_t i = 0; i < res->n && (passes || s->cuts); i++)
    if (!res->checks[i].flag && !res->checks[i].holds) {
      passes &= !counts(s, i);
      fails |= i < 64 ? (uint64_t)1 << i : 0;
    }
  if (!passes && s->cuts) enum_cuts_note(s->cuts, fails, s->p, s->f, s->rf);
  if (!passes) return;
  if (!races_here(s, res)) return;
  size_t budget = 0;
  each_final(s, 0, &budget, hit_target, (void *)res);
  if (s->hit) s->stop = true;
}

/* At a leaf every choice is made, so the bounds are exact (may = must)
 * and the incremental evaluation, which rebuilds only what the last
 * choice moved, decides every check: 1 allowed, 0 not.  -1 when the
 * relations themselves are needed (a flag of the frame may still gain a
 * pair) or some verdict is open: then the model is evaluated from scratch.
 * (iriw-8: 3.4 s of CPU before, 2.0 s after.) */
static int leaf_verdict(search *s) {
  if (s->target || s->o->no_prune || frame_flags_open(s)) return -1;
  lc_diag d;
  int rc = enum_model_eval(s->em, bounds_builtin, builtin_deps, s, s->ver, s->clock, s->verdicts,
                           new_diag(&d));
  lc_diag_fini(&d);
  if (rc < 0) return -1;
  for (size_t i = 0; i < cat_model_nchecks(s->m); i++) {
    if (!counts(s, i)) continue;
    if (s->verdicts[i] == CAT_MM_FAILS) return 0;
    if (s->verdicts[i] != CAT_MM_HOLDS) return -1;
  }
  return 1;
}

/* Path pi, cut, is taken by an allowed execution: its loop is one the
 * bound cuts.  Twins' executions are searched once (enum_sym.c), so the
 * same loop of each twin is marked too, as its own execution would. */
static void mark_cut_loop(search *s, size_t pi) {
  const lx_program *p = s->p;
  LC_VEC(size_t) todo = {0};
  lc_vec_push(&todo, pi);
  while (todo.n) {
    size_t q = todo.v[--todo.n];
    const lx_path *c = &p->paths[q];
    if (!c->cut || s->loop_known[q]) continue;
    lc_result_mark_cut(s->r, q);
    for (size_t k = 0; k < p->npaths; k++)   /* every path cut at that loop */
      s->loop_known[k] |= p->paths[k].cut && p->paths[k].thread == c->thread &&
                          p->paths[k].cut_at.line == c->cut_at.line && p->paths[k].cut_at.col == c->cut_at.col;
    for (size_t g = 0; s->sym && g < s->sym->ngens; g++) {
      size_t img = enum_sym_image(s->sym, g, p, q);
      if (img != q && !s->loop_known[img]) lc_vec_push(&todo, img);
    }
  }
  lc_vec_free(&todo);
}

/* The leaf's verdict: a cut execution that is allowed shows the bound was
 * reached; an allowed one gives its final states, and res (NULL when the
 * frame's flags are all listed) their pairs. */
static void leaf_done(search *s, bool consistent, const cat_rel_result *res) {
  if (consistent && s->f->cut) {
    s->r->bound_reached = true;
    const lx_program *p = s->p;
    for (size_t t = 0; t < p->nthreads; t++) mark_cut_loop(s, (size_t)s->f->paths[t]);
  }
  if (consistent && s->f->ub && !s->r->ub_reached) {
    s->r->ub_reached = true;
    for (size_t t = 0; t < s->p->nthreads; t++)
      if (s->p->paths[s->f->paths[t]].ub) {
        s->r->ub_path = (size_t)s->f->paths[t];
        break;
      }
  }
  s->leaf_allowed = consistent && !s->f->cut;
  if (!s->leaf_allowed) return;
  remember(s);
  bool some = false;
  size_t budget = 0;
  each_final(s, 0, &budget, record, &some);
  if (some && res) raise_flags(s, res);
}

/* A complete candidate execution. */
static void leaf(search *s) {
  tick(s);
  if (s->stop || (!s->o->no_prune && !anything_open(s))) return;
  int quick = leaf_verdict(s);
  if (quick >= 0) {
    leaf_done(s, quick == 1, NULL);
    return;
  }
  lc_diag d;
  cat_rel_result res;
  if (cat_rel_eval(s->m, s->f->n, exact_builtin, s, &res, new_diag(&d)) < 0) {
    eval_error(s, &d);
    lc_diag_fini(&d);
    return;
  }
  lc_diag_fini(&d);
  if (s->target) {
    if (!s->f->cut) find_leaf(s, &res);
  } else {
    leaf_done(s, res.consistent, &res);
  }
  cat_rel_result_fini(&res);
}

/* ---- the choices ------------------------------------------------------------------------- */

/* Called on a complete choice of some pairs; returns true to end the
 * search. */
typedef bool (*done_fn)(search *s, void *ctx);

static bool decide(enum_order *o, int how, size_t a, size_t b) {
  if (how == 0) {
    enum_order_separate(o, a, b);
    return true;
  }
  return how == 1 ? enum_order_relate(o, a, b) : enum_order_relate(o, b, a);
}

static size_t next_open(const enum_order *o, const size_t *idx, size_t n, size_t k) {
  while (k < n && enum_order_decided(o, o->pairs[idx[k]][0], o->pairs[idx[k]][1])) k++;
  return k;
}

/* Each open pair idx[k..n) of o: unrelated (first: orders with fewer
 * pairs are allowed more often), a before b, or b before a.  Returns
 * true when `done` ended the search. */
static bool search_pairs(search *s, enum_order *o, const size_t *idx, size_t n, size_t k, done_fn done,
                         void *ctx) {
  k = next_open(o, idx, n, k);
  if (k == n) return done(s, ctx);
  size_t a = o->pairs[idx[k]][0], b = o->pairs[idx[k]][1];
  rel_rel *before = rel_copy(o->before), *apart = rel_copy(o->apart);
  unsigned which = o == &s->co ? ENUM_CO : ENUM_SC;
  bool ended = false;
  for (int how = 0; how < 3 && !s->stop && !ended; how++) {
    if (how == 0 && (o == &s->co ? s->co_no_apart : s->sc_no_apart)[idx[k]]) continue;
    rel_assign(o->before, before);
    rel_assign(o->apart, apart);
    changed(s, which);
    if (!decide(o, how, a, b)) continue;
    if (next_open(o, idx, n, k + 1) == n || worth(s)) ended = search_pairs(s, o, idx, n, k + 1, done, ctx);
  }
  rel_assign(o->before, before);
  rel_assign(o->apart, apart);
  changed(s, which);
  rel_free(before);
  rel_free(apart);
  return ended;
}

/* ---- co ---------------------------------------------------------------------------------- */

/* co is chosen location by location.  A location's orders are first
 * tried alone, the other locations' co left open; an order that fails
 * then fails in every combination (the bounds are sound), so
 *   - a location with no such order ends the search at once, instead of
 *     being rediscovered under every order of the locations chosen
 *     before it;
 *   - for a location whose final value is observed, the orders that pass
 *     alone are listed and combined first: which writes end up co-maximal
 *     is then known after each choice, so subtrees reaching only states
 *     already found are cut early;
 *   - the other locations' pairs are decided last, where the first
 *     allowed execution ends the search (nothing new below). */
typedef struct co_group {
  int ploc;
  bool observed;
  size_t *idx, n;           /* the location's pairs (indices in co.pairs) */
  LC_VEC(rel_rel *) before, apart;   /* observed: its orders that pass alone */
} co_group;

static bool done_leaf(search *s, void *ctx) {
  (void)ctx;
  leaf(s);
  return false;
}

static bool found_one(search *s, void *ctx) {
  (void)ctx;
  return worth(s);
}

static bool keep_option(search *s, void *ctx) {
  co_group *g = ctx;
  if (worth(s)) {
    lc_vec_push(&g->before, rel_copy(s->co.before));
    lc_vec_push(&g->apart, rel_copy(s->co.apart));
  }
  return false;
}

static bool observed_ploc(const lx_program *p, int ploc) {
  for (size_t o = 0; o < p->nobs; o++)
    if (p->obs[o].kind == LX_OBS_LOC && p->obs[o].ploc == ploc) return true;
  return false;
}

static size_t pair_span(const enum_order *o, size_t k) {
  size_t a = o->pairs[k][0], b = o->pairs[k][1];
  return a < b ? b - a : a - b;
}

/* Sorts idx[0..n), pairs of o, by how far apart their events are, stably.
 * Deciding neighbours first lets transitivity decide the rest: one thread
 * of 200 plain writes to x has 19,900 pairs, of which the 199 neighbours
 * ordered by po-loc fix every other before it is tried (17.5 s before,
 * 0.31 s after, on a 2-core machine). */
static void nearest_first(const enum_order *o, size_t *idx, size_t n) {
  size_t far = 0;
  for (size_t k = 0; k < n; k++)
    if (pair_span(o, idx[k]) > far) far = pair_span(o, idx[k]);
  size_t *count = lc_xcalloc(far + 2, sizeof(size_t)), *sorted = lc_xcalloc(n + 1, sizeof(size_t));
  for (size_t k = 0; k < n; k++) count[pair_span(o, idx[k]) + 1]++;
  for (size_t d = 1; d <= far + 1; d++) count[d] += count[d - 1];
  for (size_t k = 0; k < n; k++) sorted[count[pair_span(o, idx[k])]++] = idx[k];
  memcpy(idx, sorted, n * sizeof(size_t));
  free(sorted);
  free(count);
}

static size_t group_pairs(const search *s, co_group *groups) {
  const enum_order *o = &s->co;
  size_t ng = 0;
  for (size_t k = 0; k < o->npairs; k++) {
    int ploc = enum_frame_event(s->f, o->pairs[k][0])->ploc;
    size_t g = 0;
    while (g < ng && groups[g].ploc != ploc) g++;
    if (g == ng) {
      memset(&groups[ng], 0, sizeof groups[ng]);
      groups[ng].ploc = ploc;
      groups[ng].observed = observed_ploc(s->p, ploc);
      groups[ng++].idx = lc_xcalloc(o->npairs, sizeof(size_t));
    }
    groups[g].idx[groups[g].n++] = k;
  }
  for (size_t g = 0; g < ng; g++) nearest_first(o, groups[g].idx, groups[g].n);
  return ng;
}

static void free_group(co_group *g) {
  for (size_t i = 0; i < g->before.n; i++) {
    rel_free(g->before.v[i]);
    rel_free(g->apart.v[i]);
  }
  lc_vec_free(&g->before);
  lc_vec_free(&g->apart);
  free(g->idx);
}

/* Observed locations with fewer orders first; the rest after them. */
static int by_options(const void *x, const void *y) {
  const co_group *a = x, *b = y;
  if (a->observed != b->observed) return a->observed ? -1 : 1;
  return (a->before.n > b->before.n) - (a->before.n < b->before.n);
}

/* Groups [g, nobs) are observed: one listed order each; then the pairs
 * of the others, `rest`. */
static void combine(search *s, co_group *groups, size_t nobs, size_t g, const size_t *rest, size_t nrest) {
  if (g == nobs) {
    search_pairs(s, &s->co, rest, nrest, 0, done_leaf, NULL);
    return;
  }
  rel_rel *before = rel_copy(s->co.before), *apart = rel_copy(s->co.apart);
  for (size_t i = 0; i < groups[g].before.n && !s->stop; i++) {
    rel_assign(s->co.before, before);
    rel_assign(s->co.apart, apart);
    rel_union_into(s->co.before, groups[g].before.v[i]);
    rel_union_into(s->co.apart, groups[g].apart.v[i]);
    changed(s, ENUM_CO);
    if (worth(s)) combine(s, groups, nobs, g + 1, rest, nrest);
  }
  rel_assign(s->co.before, before);
  rel_assign(s->co.apart, apart);
  changed(s, ENUM_CO);
  rel_free(before);
  rel_free(apart);
}

/* Lists the observed locations' orders and checks the others have one;
 * false when some location has none. */
static bool prepare_groups(search *s, co_group *groups, size_t ng) {
  for (size_t g = 0; g < ng && !s->stop; g++) {
    if (groups[g].observed) {
      search_pairs(s, &s->co, groups[g].idx, groups[g].n, 0, keep_option, &groups[g]);
      if (!groups[g].before.n) return false;
    } else if (!search_pairs(s, &s->co, groups[g].idx, groups[g].n, 0, found_one, NULL)) {
      return false;
    }
  }
  return !s->stop;
}

static void search_co(search *s) {
  co_group *groups = lc_xcalloc(s->co.npairs + 1, sizeof *groups);
  size_t ng = group_pairs(s, groups), nobs = 0, nrest = 0;
  size_t *rest = lc_xcalloc(s->co.npairs + 1, sizeof(size_t));
  if (prepare_groups(s, groups, ng)) {
    qsort(groups, ng, sizeof *groups, by_options);
    while (nobs < ng && groups[nobs].observed) nobs++;
    for (size_t g = nobs; g < ng; g++)
      for (size_t k = 0; k < groups[g].n; k++) rest[nrest++] = groups[g].idx[k];
    combine(s, groups, nobs, 0, rest, nrest);
  }
  for (size_t g = 0; g < ng; g++) free_group(&groups[g]);
  free(groups);
  free(rest);
}

static void search_bar(search *s) {
  for (size_t i = 0; i < s->nbars && !s->stop; i++) {
    s->bar = s->bars[i];
    changed(s, ENUM_BAR);
    if (s->nbars == 1 || worth(s)) search_co(s);
  }
  s->bar = NULL;
  changed(s, ENUM_BAR);
}

/* Read values are known: before sc and co are searched pair by pair, each
 * remembered (sc, co) of the frame is tried whole, its decisions taken
 * for the pairs still open, until one gives an allowed execution.  A
 * choice that allowed one execution allows most of its neighbours (the
 * phase saving of SAT solvers): a ring of n fence.sc needs about n orders
 * for its 2^n - 1 states, not a search of the n(n-1)/2 pairs for each.
 * It is only a first leaf: the search proper follows, cut by `worth`
 * once the leaf has left nothing open, so nothing is lost when the guess
 * fails.  Explanations (a target) keep their own order of leaves. */
static void try_remembered(search *s, size_t from, size_t to) {
  if (s->target || s->o->no_prune || s->nbars != 1 || s->nmemo <= from) return;
  rel_rel *scb = rel_copy(s->sc.before), *sca = rel_copy(s->sc.apart);
  rel_rel *cob = rel_copy(s->co.before), *coa = rel_copy(s->co.apart);
  s->bar = s->bars[0];
  changed(s, ENUM_BAR);
  for (size_t i = from; i < s->nmemo && i < to && !s->stop && anything_open(s); i++) {
    rel_assign(s->sc.before, scb);
    rel_assign(s->sc.apart, sca);
    rel_assign(s->co.before, cob);
    rel_assign(s->co.apart, coa);
    changed(s, ENUM_SC);
    changed(s, ENUM_CO);
    if (!decide_like(&s->sc, s->memo_sc[i]) || !decide_like(&s->co, s->memo_co[i])) continue;
    s->leaf_allowed = false;
    leaf(s);
    if (s->leaf_allowed) break;
  }
  rel_assign(s->sc.before, scb);
  rel_assign(s->sc.apart, sca);
  rel_assign(s->co.before, cob);
  rel_assign(s->co.apart, coa);
  changed(s, ENUM_SC);
  changed(s, ENUM_CO);
  s->bar = NULL;
  changed(s, ENUM_BAR);
  rel_free(scb);
  rel_free(sca);
  rel_free(cob);
  rel_free(coa);
}

static bool after_sc(search *s, void *ctx) {
  (void)ctx;
  search_bar(s);
  return false;
}

/* Read values are known: each open pair of the Fence-SC order is tried
 * each way, every other pair open, and decided when one way is left,
 * until nothing moves (a decision may leave a single way to another pair
 * through transitivity or the model).  What fails on the bounds fails in
 * every completion, so this cuts only what the search would cut later,
 * once per completion of the pairs before it: with the order a model
 * needs given by a few forced pairs (IRIW with fence.sc between each
 * reader's loads: a reader's fence must come before another's whose
 * first load read what its second missed), a contradiction shows as a
 * pair with no way left, after O(pairs) evaluations instead of a search
 * of the n! orders of n fences.  False when a pair has no way left. */
static bool settle_sc(search *s) {
  if (s->o->no_prune || s->target) return true;
  enum_order *o = &s->sc;
  bool moved = true;
  while (moved && !s->stop) {
    moved = false;
    for (size_t k = 0; k < o->npairs && !s->stop; k++) {
      size_t a = o->pairs[k][0], b = o->pairs[k][1];
      if (enum_order_decided(o, a, b)) continue;
      rel_rel *before = rel_copy(o->before), *apart = rel_copy(o->apart);
      int left = 0, last = 0;
      static const int ways[3] = {1, 2, 0};
      for (int w = 0; w < 3 && left < 2 && !s->stop; w++) {
        int how = ways[w];
        if (how == 0 && s->sc_no_apart[k]) continue;
        rel_assign(o->before, before);
        rel_assign(o->apart, apart);
        changed(s, ENUM_SC);
        if (decide(o, how, a, b) && worth(s)) left++, last = how;
      }
      rel_assign(o->before, before);
      rel_assign(o->apart, apart);
      rel_free(before);
      rel_free(apart);
      changed(s, ENUM_SC);
      if (left == 0) return false;
      if (left == 1) {
        if (!decide(o, last, a, b)) return false;
        changed(s, ENUM_SC);
        moved = true;
      }
    }
  }
  return !s->stop;
}

/* Read values are all known: conditions, barriers, then sc, sync_bar, co. */
static void after_values(search *s) {
  if (!conds_hold(s, true)) return;
  rel_rel *coarse_may = s->bar_may, *coarse_must = s->bar_must;
  s->bars = enum_bar_choices(s->f, s->val, &s->nbars);
  s->bar_may = rel_new(s->f->n);
  s->bar_must = s->nbars ? rel_copy(s->bars[0]) : rel_new(s->f->n);
  for (size_t i = 0; i < s->nbars; i++) {
    rel_union_into(s->bar_may, s->bars[i]);
    rel_inter_into(s->bar_must, s->bars[i]);
  }
  changed(s, ENUM_BAR);
  /* the last allowed order first; when it fails, the pairs that cannot
   * go another way, and only then the other remembered orders: those
   * that contradict a settled pair are dropped unevaluated */
  try_remembered(s, 0, 1);
  size_t *all = lc_xcalloc(s->sc.npairs + 1, sizeof(size_t));
  for (size_t k = 0; k < s->sc.npairs; k++) all[k] = k;
  rel_rel *scb = rel_copy(s->sc.before), *sca = rel_copy(s->sc.apart);
  if (s->nbars && worth(s)) {
    size_t nodes = s->r->solver_checks;
    /* asked again only when settling or a remembered order moved something */
    bool settled = settle_sc(s);
    if (settled) try_remembered(s, 1, ENUM_MEMO);
    if (settled && !s->stop && (s->r->solver_checks == nodes || worth(s)))
      search_pairs(s, &s->sc, all, s->sc.npairs, 0, after_sc, NULL);
  }
  rel_assign(s->sc.before, scb);
  rel_assign(s->sc.apart, sca);
  changed(s, ENUM_SC);
  rel_free(scb);
  rel_free(sca);
  free(all);
  for (size_t i = 0; i < s->nbars; i++) rel_free(s->bars[i]);
  free(s->bars);
  s->bars = NULL;
  s->nbars = 0;
  rel_free(s->bar_may);
  rel_free(s->bar_must);
  s->bar_may = coarse_may;
  s->bar_must = coarse_must;
  changed(s, ENUM_BAR);
}

/* Every read has its source.  Reads on a cycle of value dependencies get
 * each value of their location's domain in turn (lx_domains bounds what
 * any execution can produce); every guess is checked against its source
 * as soon as the source's value is known, and so are the paths'
 * conditions: a wrong guess is dropped when its cycle closes, not after
 * guessing the other reads of the frame. */
static bool values_agree(const search *s) {
  const enum_frame *f = s->f;
  for (size_t i = 0; i < f->nreads; i++) {
    int ev = f->orig[f->reads[i]];
    if (!s->known[ev] || s->rf[i] < 0) continue;
    const lx_expr *x = enum_frame_event(f, (size_t)s->rf[i])->value;
    if (expr_known(s, x) && s->val[ev] != lx_expr_eval(x, s->val)) return false;
  }
  return true;
}

/* The k-th value to guess for a read of pl: the domain's, then (when
 * explaining a state) the state's; false for one guessed already. */
static bool guess_value(const search *s, const lx_ploc *pl, size_t k, lx_val *v) {
  *v = k < pl->nvalues ? pl->values[k] : s->target->val[k - pl->nvalues];
  for (size_t j = 0; j < k; j++)
    if ((j < pl->nvalues ? pl->values[j] : s->target->val[j - pl->nvalues]) == *v) return false;
  return true;
}

static void guess_values(search *s) {
  const enum_frame *f = s->f;
  propagate(s);
  if (!values_agree(s) || !conds_hold(s, false)) return;
  size_t i = 0;
  while (i < f->nreads && s->known[f->orig[f->reads[i]]]) i++;
  if (i == f->nreads) {
    after_values(s);   /* which asks `worth` after trying the remembered orders */
    return;
  }
  /* A cycle of value dependencies is a cycle of rf and dependencies,
   * which models forbid: ask the model before guessing. */
  if (!worth(s)) return;
  int ev = f->orig[f->reads[i]];
  const lx_ploc *pl = &s->p->plocs[s->p->events[ev].ploc];
  if (pl->values_unbounded) {
    fail(s, LC_RESULT_ERROR, "a cycle of value dependencies over a location with too many "
                             "possible values for the explicit engine");
    return;
  }
  size_t bytes = s->p->nevents * sizeof(lx_val), kbytes = s->p->nevents * sizeof(bool);
  lx_val *val = lc_xmalloc(bytes ? bytes : 1);
  bool *known = lc_xmalloc(kbytes ? kbytes : 1);
  memcpy(val, s->val, bytes);
  memcpy(known, s->known, kbytes);
  /* Explaining a state, its values are guessed too: out of thin air, they
   * lie outside the domains, which bound what allowed executions produce. */
  size_t extra = s->target ? s->target->n : 0;
  for (size_t k = 0; k < pl->nvalues + extra && !s->stop; k++) {
    memcpy(s->val, val, bytes);
    memcpy(s->known, known, kbytes);
    if (!guess_value(s, pl, k, &s->val[ev])) continue;
    s->known[ev] = true;
    guess_values(s);
  }
  memcpy(s->val, val, bytes);
  memcpy(s->known, known, kbytes);
  free(val);
  free(known);
}

static void search_rf(search *s, size_t k);

/* Does an unknown value of x wait on read ev, through reads whose
 * sources are chosen? */
static bool waits_on(const search *s, const lx_expr *x, int ev, bool *seen) {
  if (x->kind == LX_X_BIN) return waits_on(s, x->a, ev, seen) || waits_on(s, x->b, ev, seen);
  if (x->kind != LX_X_READ || s->known[x->event]) return false;
  if (x->event == ev) return true;
  if (seen[x->event]) return false;
  seen[x->event] = true;
  const enum_frame *f = s->f;
  for (size_t i = 0; i < f->nreads; i++)
    if (f->orig[f->reads[i]] == x->event)
      return s->rf[i] >= 0 && waits_on(s, enum_frame_event(f, (size_t)s->rf[i])->value, ev, seen);
  return false;
}

/* Has the source just chosen for read i closed a cycle of value
 * dependencies through it? */
static bool closes_cycle(const search *s, size_t i) {
  int ev = s->f->orig[s->f->reads[i]];
  bool *seen = lc_xcalloc(s->p->nevents + 1, sizeof(bool));
  bool closed = waits_on(s, enum_frame_event(s->f, (size_t)s->rf[i])->value, ev, seen);
  free(seen);
  return closed;
}

/* Explaining a state, a cycle of value dependencies is broken where it
 * closes: read i's value is guessed there, so the paths' conditions and
 * the state's values cut the sources still to choose (waiting for every
 * source first lets the cycles' guesses multiply unpruned, as when no
 * check that rules such cycles out is asked about). */
/* Does the target name every value it allows (each comparison "= k")?
 * Otherwise a value read around a cycle of dependencies (out of thin
 * air) may give it while none of the location's values, nor the target's
 * constants, does: x = x & 1 reads 1 out of thin air for "x != 0". */
static bool target_pins_values(const lc_state *t) {
  for (size_t i = 0; i < t->n; i++)
    if (t->cmp[i] != LT_CMP_EQ || t->rhs[i] >= 0) return false;
  return true;
}

static void guess_rf(search *s, size_t pos) {
  size_t i = s->rf_order[pos];
  int ev = s->f->orig[s->f->reads[i]];
  const lx_ploc *pl = &s->p->plocs[s->p->events[ev].ploc];
  if (!worth(s)) return;
  s->guessed_short |= !target_pins_values(s->target);
  for (size_t k = 0; k < pl->nvalues + s->target->n && !s->stop; k++) {
    if (!guess_value(s, pl, k, &s->val[ev])) continue;
    s->guessed[ev] = true;
    reset_values(s);
    propagate(s);
    if (values_agree(s) && conds_hold(s, false) && (pos + 1 == s->f->nreads || worth(s))) search_rf(s, pos + 1);
  }
  s->guessed[ev] = false;
  reset_values(s);
}

/* Does co pair k of the frame have an end among the writes read i's
 * source touches: the source and, for the read of an RMW, its write? */
static bool pair_touched(const search *s, size_t k, size_t i) {
  const enum_frame *f = s->f;
  size_t a = s->co.pairs[k][0], b = s->co.pairs[k][1], src = (size_t)s->rf[i];
  int partner = enum_frame_event(f, f->reads[i])->rmw;
  int w = partner >= 0 ? f->idx[partner] : -1;
  return a == src || b == src || (w >= 0 && (a == (size_t)w || b == (size_t)w));
}

/* Tries each way of co pair k, every other undecided pair open; decides
 * the pair when one way is left.  Returns the ways left.  With every_way
 * (the frame's root) all three are asked, and whether leaving the pair
 * unrelated failed is kept in co_no_apart; otherwise the two orders come
 * first, and a pair with both left stays open, its third way unasked. */
static int settle_pair(search *s, size_t k, bool every_way) {
  enum_order *o = &s->co;
  size_t a = o->pairs[k][0], b = o->pairs[k][1];
  rel_rel *before = rel_copy(o->before), *apart = rel_copy(o->apart);
  int left = 0, last = 0;
  static const int ways[3] = {1, 2, 0};
  for (int w = 0; w < 3 && (every_way || left < 2) && !s->stop; w++) {
    int how = ways[w];
    if (how == 0 && s->co_no_apart[k]) continue;
    rel_assign(o->before, before);
    rel_assign(o->apart, apart);
    changed(s, ENUM_CO);
    bool ok = decide(o, how, a, b) && worth(s);
    if (ok) left++, last = how;
    if (how == 0 && every_way) s->co_no_apart[k] = !ok;
  }
  rel_assign(o->before, before);
  rel_assign(o->apart, apart);
  rel_free(before);
  rel_free(apart);
  if (left == 1) decide(o, last, a, b);
  changed(s, ENUM_CO);
  return left;
}

/* Once read i has its source, the co pairs it touches are settled as
 * probe_co settles every pair at the frame's root: a way that fails on
 * the bounds now fails in every completion.  Without this, k RMWs to one
 * location get all k^k assignments of sources before co is chosen, and
 * two RMWs reading one write are refuted only at the leaves (spin-1-201
 * of the spin family: 400,000 nodes before, 7,000 after).  One pass: a
 * second, over pairs a decision of the first may have forced, pruned
 * nothing more on the spin family and cost a seventh of its nodes.
 * False when a pair has no way left. */
static bool settle_co(search *s, size_t i) {
  if (s->o->no_prune) return true;
  for (size_t k = 0; k < s->co.npairs && !s->stop; k++) {
    if (enum_order_decided(&s->co, s->co.pairs[k][0], s->co.pairs[k][1]) || !pair_touched(s, k, i)) continue;
    if (!settle_pair(s, k, false)) return false;
  }
  return !s->stop;
}

/* The source of the k-th read of rf_order, then of the next ones. */
static void search_rf(search *s, size_t k) {
  const enum_frame *f = s->f;
  if (k == f->nreads) {
    reset_values(s);
    guess_values(s);
    return;
  }
  size_t i = s->rf_order[k];
  rel_rel *before = rel_copy(s->co.before), *apart = rel_copy(s->co.apart);
  for (size_t c = 0; c < f->ncands[i] && !s->stop; c++) {
    rel_assign(s->co.before, before);
    rel_assign(s->co.apart, apart);
    changed(s, ENUM_CO);
    s->rf[i] = (int)f->cands[i][c];
    /* a choice some swap of twins maps onto a smaller one: that one is searched */
    if (!enum_sym_rf_least(s->sym_rf, s->rf, s->rf_order, k + 1)) continue;
    changed(s, ENUM_RF);
    reset_values(s);
    propagate(s);
    if (!conds_hold(s, false)) continue;
    if (!settle_co(s, i)) continue;
    if (s->target) {
      int ev = f->orig[f->reads[i]];
      if (!values_agree(s)) continue;
      if (!s->known[ev] && !s->p->plocs[s->p->events[ev].ploc].values_unbounded && closes_cycle(s, i)) {
        guess_rf(s, k);
        continue;
      }
    }
    if (k + 1 == f->nreads || worth(s)) search_rf(s, k + 1);
  }
  rel_assign(s->co.before, before);
  rel_assign(s->co.apart, apart);
  changed(s, ENUM_CO);
  rel_free(before);
  rel_free(apart);
  s->rf[i] = -1;
  changed(s, ENUM_RF);
}

/* Reads with one source or none first (a read with none ends the frame
 * before anything is chosen; one source costs no branching); then
 * location by location, each location's RMW reads first, fewest sources
 * first among those: the co pairs a source settles (settle_co) are the
 * location's, so conflicts between its RMWs show while few of its reads
 * are chosen (on the spin family a tenth fewer evaluations than fewest
 * sources first throughout).  Any order visits the same candidate
 * executions. */
/* Is e the read of an RMW whose location a state names?  The sources of
 * such reads make the chain of RMWs that leaves the final value (a
 * counter every thread adds to): chosen first, once a state is found
 * "nothing new below" cuts the choices of every other read (a semaphore
 * of retries on s guarding counters x and y: 2x2 threads from 502,003
 * evaluations to 1,281).  Plain reads of such a location are not moved:
 * their sources are free until a lock's chain is chosen (the 2x2 CAS lock
 * around a plain counter took 6.6 times the evaluations with them first). */
static bool rmw_observed(const enum_frame *f, const lx_event *e) {
  if (e->rmw < 0) return false;
  for (size_t o = 0; o < f->p->nobs; o++)
    if (f->p->obs[o].kind == LX_OBS_LOC && f->p->obs[o].ploc == e->ploc) return true;
  return false;
}

static size_t read_rank(const enum_frame *f, size_t i, const bool *observed) {
  if (f->ncands[i] <= 1) return f->ncands[i];
  const lx_event *e = enum_frame_event(f, f->reads[i]);
  return (size_t)!observed[i] << 40 | ((size_t)e->ploc + 1) << 20 | (size_t)(e->rmw < 0) << 19 | f->ncands[i];
}

static size_t order_reads(const enum_frame *f, size_t *order) {
  bool *observed = lc_xcalloc(f->nreads ? f->nreads : 1, sizeof(bool));
  for (size_t i = 0; i < f->nreads; i++) observed[i] = rmw_observed(f, enum_frame_event(f, f->reads[i]));
  for (size_t i = 0; i < f->nreads; i++) {
    size_t j = i, r = read_rank(f, i, observed);
    for (; j > 0 && read_rank(f, order[j - 1], observed) > r; j--) order[j] = order[j - 1];
    order[j] = i;
  }
  free(observed);
  return f->nreads;
}

/* Tries each source of each read alone, every other choice open, and
 * drops those the search would cut there: a failed check on bounds
 * fails for every completion (the bounds are sound), and what else cuts
 * a subtree (nothing new below it, the hook's hints) only grows with the
 * states and pairs found.  A source dropped here would be tried, and cut,
 * under every choice of the reads before it.  False when a read is left
 * with no source. */
static bool probe_sources(search *s) {
  enum_frame *f = s->f;
  /* in the order of the search: a frame with a read left sourceless,
   * most often one with few sources, ends the sooner */
  for (size_t k = 0; k < f->nreads && !s->stop; k++) {
    size_t i = s->rf_order[k], kept = 0;
    for (size_t c = 0; c < f->ncands[i]; c++) {
      s->rf[i] = (int)f->cands[i][c];
      changed(s, ENUM_RF);
      reset_values(s);
      propagate(s);
      if (conds_hold(s, false) && worth(s)) f->cands[i][kept++] = f->cands[i][c];
    }
    f->ncands[i] = kept;
    s->rf[i] = -1;
    changed(s, ENUM_RF);
    reset_values(s);
    if (!kept) return false;
  }
  order_reads(f, s->rf_order);
  return !s->stop;
}

/* The same for co, pair by pair, every other pair open: a pair that
 * cannot stay unrelated (WF-co: morally strong writes are ordered) is
 * never left so by search_pairs, and a pair with one way left is decided
 * that way for the whole frame.  False when a pair has no way left. */
static bool probe_co(search *s) {
  enum_order *o = &s->co;
  size_t *idx = lc_xcalloc(o->npairs + 1, sizeof(size_t));
  for (size_t k = 0; k < o->npairs; k++) idx[k] = k;
  nearest_first(o, idx, o->npairs);
  bool ok = true;
  for (size_t i = 0; i < o->npairs && ok && !s->stop; i++) {
    size_t k = idx[i];
    if (!enum_order_decided(o, o->pairs[k][0], o->pairs[k][1])) ok = settle_pair(s, k, true) != 0;
  }
  free(idx);
  return ok && !s->stop;
}

/* The same for sc at the frame's root, every way of each pair: a pair
 * that cannot stay unrelated (WF-sc: morally strong fence.sc are
 * ordered) is never left so by settle_sc and search_pairs. */
static bool probe_sc(search *s) {
  enum_order *o = &s->sc;
  for (size_t k = 0; k < o->npairs && !s->stop; k++) {
    size_t a = o->pairs[k][0], b = o->pairs[k][1];
    if (enum_order_decided(o, a, b)) continue;
    rel_rel *before = rel_copy(o->before), *apart = rel_copy(o->apart);
    int left = 0, last = 0;
    for (int how = 0; how < 3 && !s->stop; how++) {
      rel_assign(o->before, before);
      rel_assign(o->apart, apart);
      changed(s, ENUM_SC);
      bool ok = decide(o, how, a, b) && worth(s);
      if (ok) left++, last = how;
      if (how == 0) s->sc_no_apart[k] = !ok;
    }
    rel_assign(o->before, before);
    rel_assign(o->apart, apart);
    rel_free(before);
    rel_free(apart);
    changed(s, ENUM_SC);
    if (left == 0) return false;
    if (left == 1 && !decide(o, last, a, b)) return false;
    changed(s, ENUM_SC);
  }
  return !s->stop;
}

/* enum_find_query's `within`: only its sources for the reads it gives. */
static void keep_within(search *s) {
  enum_frame *f = s->f;
  for (size_t i = 0; s->within && i < f->nreads; i++) {
    int want = s->within->rf[f->orig[f->reads[i]]], kept = 0;
    for (size_t c = 0; want >= 0 && c < f->ncands[i]; c++)
      if (f->orig[f->cands[i][c]] == want) f->cands[i][kept++] = f->cands[i][c];
    if (want >= 0) f->ncands[i] = (size_t)kept;
  }
}

static bool some_read_sourceless(const enum_frame *f) {
  for (size_t i = 0; i < f->nreads; i++)
    if (!f->ncands[i]) return true;
  return false;
}

/* ---- frames ----------------------------------------------------------------------------- */

static bool any_cut(const lx_program *p, const int *paths) {
  for (size_t t = 0; t < p->nthreads; t++)
    if (p->paths[paths[t]].cut) return true;
  return false;
}



static bool any_ub(const lx_program *p, const int *paths) {
  for (size_t t = 0; t < p->nthreads; t++)
    if (p->paths[paths[t]].ub) return true;
  return false;
}

static void search_frame(search *s, const int *paths) {
  enum_frame *f = enum_frame_new(s->p, paths);
  s->f = f;
  s->frame_retry = false;
  for (size_t t = 0; t < s->p->nthreads; t++) s->frame_retry |= s->p->paths[paths[t]].retry;
  s->rf = lc_xcalloc(f->nreads ? f->nreads : 1, sizeof(int));
  for (size_t i = 0; i < f->nreads; i++) s->rf[i] = -1;
  s->rf_order = lc_xcalloc(f->nreads, sizeof(size_t));
  order_reads(f, s->rf_order);
  enum_order_init(&s->co, rel_copy(f->codom));
  enum_order_init(&s->sc, rel_copy(f->scdom));
  s->co_no_apart = lc_xcalloc(s->co.npairs, sizeof(bool));
  /* A total co leaves no two writes to one location unrelated
   * (cat_model_co_total): each pair is one way or the other. */
  if (cat_model_co_total(s->m, !s->p->test->cpp))
    for (size_t k = 0; k < s->co.npairs; k++) s->co_no_apart[k] = true;
  s->sc_no_apart = lc_xcalloc(s->sc.npairs + 1, sizeof(bool));
  s->bar_may = enum_bar_may(f);
  s->bar_must = enum_bar_must(f);
  /* Values read in the previous frame must not look known in this one. */
  memset(s->known, 0, s->p->nevents * sizeof(bool));
  enum_model_reset(s->em, f->n);
  for (unsigned c = 0; c < ENUM_NCHOICES; c++) changed(s, c);
  forget_frame_flags(s);
  keep_within(s);
  if (!some_read_sourceless(f) && worth(s)) {
    note_frame_flags(s);
    if (s->o->no_prune || (probe_sources(s) && probe_co(s) && probe_sc(s))) {
      /* after probe_sources, which fixes the order of the reads */
      s->sym_rf = enum_sym_rf_new(s->sym, f);
      search_rf(s, 0);
      enum_sym_rf_free(s->sym_rf);
      s->sym_rf = NULL;
    }
  }
  clear_frame_flags(s);
  rel_free(s->bar_may);
  rel_free(s->bar_must);
  s->bar_may = s->bar_must = NULL;
  forget_memos(s);
  enum_order_fini(&s->co);
  enum_order_fini(&s->sc);
  free(s->rf);
  free(s->rf_order);
  free(s->co_no_apart);
  s->co_no_apart = NULL;
  free(s->sc_no_apart);
  s->sc_no_apart = NULL;
  s->rf = NULL;
  s->rf_order = NULL;
  enum_frame_free(f);
  s->f = NULL;
}

/* A thread's paths in the order their frames are searched: shortest
 * first, where the executions are found soonest and are the simplest to
 * show (the corpus's Ticketlock tests: the lock taken at the first try).
 * Listing states, the states found early let "nothing new below" cut the
 * longer frames (each_possible): a CAS loop whose every source and value
 * is open under a model with no check (Dat3M's C11/manual/TSan.litmus
 * under herd's c11_cos.cat) spent minutes guessing values in the frame of
 * the third try before any state was known; its first try gives every
 * state at once. */
static int *path_order(const search *s, size_t t) {
  const lx_thread *th = &s->p->threads[t];
  int *order = lc_xcalloc(th->npaths + 1, sizeof(int));
  for (size_t i = 0; i < th->npaths; i++) {
    size_t j = i, len = s->p->paths[th->paths[i]].nevents;
    for (; j > 0 && s->p->paths[order[j - 1]].nevents > len; j--) order[j] = order[j - 1];
    order[j] = th->paths[i];
  }
  return order;
}

/* Every combination of one path per thread, odometer style. */
static void search_frames(search *s) {
  const lx_program *p = s->p;
  size_t nt = p->nthreads;
  size_t *k = lc_xcalloc(nt ? nt : 1, sizeof(size_t));
  int *paths = lc_xcalloc(nt ? nt : 1, sizeof(int));
  int **order = lc_xcalloc(nt + 1, sizeof(int *));
  for (size_t t = 0; t < nt; t++) order[t] = path_order(s, t);
  for (size_t t = 0; t < nt; t++)
    if (!p->threads[t].npaths) goto out;
  size_t moved = nt;   /* the highest thread whose path just changed */
  for (;;) {
    for (size_t t = 0; t < nt; t++) paths[t] = order[t][k[t]];
    /* The hook's suffix hint, from the highest thread moved down: a
     * suffix it rejects is skipped whole, every combination of the
     * threads below it (the odometer's order kept). */
    size_t skip = 0;
    for (size_t from = moved; s->hook && s->hook->suffix && from > 0 && !skip; from--)
      if (from < nt && !s->hook->suffix(s->hook->ctx, paths, from)) skip = from;
    if (skip) {
      for (size_t t = 0; t < skip; t++) k[t] = p->threads[t].npaths - 1;
    } else {
      bool wanted = !s->hook || !s->hook->frame || s->hook->frame(s->hook->ctx, paths);
      wanted &= !s->within || memcmp(paths, s->within->paths, nt * sizeof(int)) == 0;
      bool known = any_cut(p, paths) && cuts_known(s, paths) && !(any_ub(p, paths) && !s->r->ub_reached);
      if (wanted && !known && enum_sym_canonical(s->sym, k, nt, p)) search_frame(s, paths);
    }
    size_t t = 0;
    while (t < nt && ++k[t] == p->threads[t].npaths) k[t++] = 0;
    if (t == nt || s->stop) break;
    moved = t;
  }
out:
  for (size_t t = 0; t < nt; t++) free(order[t]);
  free(order);
  free(k);
  free(paths);
}

/* ---- the entry point ---------------------------------------------------------------------- */

static void setup_flags(search *s) {
  size_t nchecks = cat_model_nchecks(s->m), n = 0;
  s->flag_check = lc_xcalloc(nchecks ? nchecks : 1, sizeof(size_t));
  s->listed = lc_xcalloc(nchecks ? nchecks : 1, sizeof(rel_rel *));
  s->frame_may = lc_xcalloc(nchecks ? nchecks : 1, sizeof(rel_rel *));
  s->r->flags = lc_xcalloc(nchecks ? nchecks : 1, sizeof(lc_flag));
  for (size_t i = 0; i < nchecks; i++) {
    if (!cat_model_check_is_flag(s->m, i)) continue;
    /* Flags are evaluated anyway; without --races none is reported. */
    if (!s->o->races) continue;
    s->flag_check[n] = i;
    s->r->flags[n] = (lc_flag){cat_model_check_name(s->m, i), false, -1, -1, NULL, 0, false};
    s->listed[n] = rel_new(s->p->nevents);
    s->frame_may[n] = rel_new(s->p->nevents);
    n++;
  }
  s->r->nflags = n;
}

typedef struct row {
  const lx_val *v;
  size_t w;
} row;

static int cmp_row(const void *x, const void *y) {
  const row *a = x, *b = y;
  for (size_t i = 0; i < a->w; i++)
    if (a->v[i] != b->v[i]) return a->v[i] < b->v[i] ? -1 : 1;
  return 0;
}

/* States go to the result already sorted, so lc_result_sort has nothing
 * to move. */
static void store_states(search *s) {
  const state_set *set = &s->found;
  row *rows = lc_xcalloc(set->n ? set->n : 1, sizeof(row));
  for (size_t i = 0; i < set->n; i++) rows[i] = (row){set->v + i * set->w, set->w};
  qsort(rows, set->n, sizeof(row), cmp_row);
  for (size_t i = 0; i < set->n; i++) lc_result_add_state(s->r, rows[i].v);
  free(rows);
  lc_result_sort(s->r);
}

static void search_init(search *s, const lx_program *p, const cat_model *m, const enum_options *o,
                        double start) {
  memset(s, 0, sizeof *s);
  s->p = p;
  s->m = m;
  s->o = o;
  s->r = lc_result_new(p, "enum", cat_model_name(m));
  s->loop_known = lc_xcalloc(p->npaths ? p->npaths : 1, 1);
  s->deadline = o->timeout > 0 ? start + o->timeout : 0;
  s->val = lc_xcalloc(p->nevents ? p->nevents : 1, sizeof(lx_val));
  s->known = lc_xcalloc(p->nevents ? p->nevents : 1, sizeof(bool));
  s->guessed = lc_xcalloc(p->nevents ? p->nevents : 1, sizeof(bool));
  s->obs = lc_xcalloc(p->nobs ? p->nobs : 1, sizeof(lx_val));
  s->obs_known = lc_xcalloc(p->nobs, sizeof(bool));
  s->found.w = p->nshown;
  s->values = enum_values_new(p);
  s->em = enum_model_new(m);
  s->clock = 1;
  s->verdicts = lc_xcalloc(cat_model_nchecks(m) + 1, sizeof(cat_mm_verdict));
  setup_flags(s);
}

static void search_fini(search *s) {
  if (s->r) s->r->solver_work += (double)enum_model_work(s->em);
  free(s->found.v);
  free(s->found.slot);
  enum_values_free(s->values, s->p);
  for (size_t k = 0; k < s->r->nflags; k++) {
    rel_free(s->listed[k]);
    rel_free(s->frame_may[k]);
  }
  free(s->listed);
  free(s->frame_may);
  free(s->flag_check);
  free(s->val);
  free(s->known);
  free(s->guessed);
  free(s->obs);
  free(s->obs_known);
  free(s->verdicts);
  free(s->skip);
  enum_sym_free(s->sym);
  free(s->loop_known);
  enum_model_free(s->em);
}

lc_result *enum_check(const lx_program *p, const cat_model *m, const enum_options *o) {
  return enum_check_hooked(p, m, o, NULL);
}

lc_result *enum_check_hooked(const lx_program *p, const cat_model *m, const enum_options *o,
                             const lc_state_hook *hook) {
  assert(p && m);
  double start = lc_now();
  enum_options defaults = {0, true, false, true};
  search s;
  search_init(&s, p, m, o ? o : &defaults, start);
  s.hook = hook;
  /* a hook judges states as they come, and sees one frame at a time */
  if (!hook && !s.o->no_prune) s.sym = enum_sym_new(p);
  search_frames(&s);
  /* out of time, the states found so far are no answer (the reports
   * print none), and twin threads may have found many: not copied */
  if (s.r->status == LC_RESULT_OK) store_states(&s);
  search_fini(&s);
  s.r->seconds = lc_now() - start;
  return s.r;
}

/* Looking for one execution, the flags other than the race asked about
 * are never needed, nor the checks that do not count unless the search's
 * cuts are noted: on the corpus's explanations, a third of the model's
 * evaluation. */
static void skip_unneeded(search *s) {
  size_t nc = cat_model_nchecks(s->m);
  s->skip = lc_xcalloc(nc + 1, sizeof(bool));
  for (size_t i = 0; i < nc; i++)
    s->skip[i] = cat_model_check_is_flag(s->m, i) ? (int)i != s->race_check : !s->cuts && !counts(s, i);
  enum_model_skip(s->em, s->skip);
}

int enum_find(const lx_program *p, const cat_model *m, const enum_options *o, const bool *on,
              const lc_state *target, lc_witness **w, bool *failing, char **msg) {
  assert(p && m && target && w && failing && msg);
  enum_query q = {on, target, 0, NULL, NULL, NULL, NULL};
  return enum_find_query(p, m, o, &q, w, failing, msg);
}

int enum_find_query(const lx_program *p, const cat_model *m, const enum_options *o, const enum_query *q,
                    lc_witness **w, bool *failing, char **msg) {
  assert(p && m && q && q->target && w && failing && msg);
  enum_options opt = {o ? o->timeout : 0, false, o && o->no_prune, false};
  search s;
  search_init(&s, p, m, &opt, lc_now());
  s.max_nodes = q->max_nodes;
  s.cuts = q->cuts && q->cuts->usable ? q->cuts : NULL;
  s.within = q->within && q->within->paths ? q->within : NULL;
  s.target = q->target;
  s.on = q->on;
  if (s.cuts) enum_model_every_check(s.em, true);
  s.race_check = -1;
  skip_unneeded(&s);
  s.failing = failing;
  search_frames(&s);
  if (q->nodes) *q->nodes += s.r->solver_checks;
  if (q->incomplete) *q->incomplete = s.guessed_short && !s.hit;
  int rc = s.hit ? 1 : 0;
  if (s.over) {
    rc = -2;
  } else if (s.r->status != LC_RESULT_OK) {
    rc = -1;
    *msg = lc_xstrdup(s.r->message ? s.r->message : "the explicit engine failed");
  }
  *w = rc == 1 ? s.hit : NULL;
  if (rc != 1) lc_witness_free(s.hit);
  search_fini(&s);
  lc_result_free(s.r);
  return rc;
}

int enum_each_execution(const lx_program *p, const cat_model *m, const enum_options *o, const lc_state *target,
                        bool (*each)(void *ctx, const lc_witness *w), void *ctx, bool *incomplete, char **msg) {
  assert(p && m && each && msg);
  enum_options opt = {o ? o->timeout : 0, false, o && o->no_prune, false};
  lc_state any = {0};
  search s;
  search_init(&s, p, m, &opt, lc_now());
  s.target = target ? target : &any;
  s.race_check = -1;
  s.each = each;
  s.each_ctx = ctx;
  s.failing = lc_xcalloc(cat_model_nchecks(m) + 1, sizeof(bool));
  search_frames(&s);
  if (incomplete) *incomplete = s.guessed_short;
  int rc = 0;
  if (s.r->status != LC_RESULT_OK) {
    rc = -1;
    *msg = lc_xstrdup(s.r->message ? s.r->message : "the explicit engine failed");
  }
  free(s.failing);
  search_fini(&s);
  lc_result_free(s.r);
  return rc;
}

int enum_find_race(const lx_program *p, const cat_model *m, const enum_options *o, const char *flag, int a,
                   int b, lc_witness **w, char **msg) {
  assert(p && m && flag && w && msg && a >= 0 && b >= 0 && (size_t)a < p->nevents && (size_t)b < p->nevents);
  enum_options opt = {o ? o->timeout : 0, false, false, false};
  lc_state any = {0};
  search s;
  search_init(&s, p, m, &opt, lc_now());
  s.target = &any;
  s.race_check = -1;
  for (size_t i = 0; i < cat_model_nchecks(m); i++)
    if (cat_model_check_is_flag(m, i) && strcmp(cat_model_check_name(m, i), flag) == 0) s.race_check = (int)i;
  s.race_a = a;
  s.race_b = b;
  skip_unneeded(&s);
  s.failing = lc_xcalloc(cat_model_nchecks(m) + 1, sizeof(bool));
  if (s.race_check >= 0) search_frames(&s);
  int rc = s.hit ? 1 : 0;
  if (s.r->status != LC_RESULT_OK) {
    rc = -1;
    *msg = lc_xstrdup(s.r->message ? s.r->message : "the explicit engine failed");
  }
  *w = rc == 1 ? s.hit : NULL;
  if (rc != 1) lc_witness_free(s.hit);
  free(s.failing);
  search_fini(&s);
  lc_result_free(s.r);
  return rc;
}
