/* domain.c - the values each location can hold.
 * SPDX-License-Identifier: MIT
 *
 * A value reaches a location through a chain of writes: a write computes
 * its value from reads of its own path, each read takes the value of some
 * write, and so on down to constants and initial values.  In one execution
 * every thread runs one path and no write's value depends on itself, so a
 * chain never uses two paths of one thread nor one write twice.  Values are
 * found as *derivations*: a value with the set of writes it came through.
 * Iterating "what each write can compute from the derivations its reads
 * can see" to a fixed point gives exactly the values of such chains: an
 * increment done by two threads under a lock reaches 2, not the 2 x
 * (number of unrolled copies) a plain fixed point over values reaches.
 *
 * Derivations can be many (products over the reads of an expression); past
 * a budget the plain fixed point over values is used instead, bounded by
 * the longest chain one path choice allows.
 */
#include <stdlib.h>
#include <string.h>

#include "exec/exec.h"
#include "exec/internal.h"

typedef LC_VEC(lx_val) val_vec;
typedef LC_VEC(int) int_vec;

typedef struct deriv {
  lx_val v;
  int *writes;              /* sorted event ids */
  size_t nwrites;
} deriv;

typedef LC_VEC(deriv) deriv_vec;

enum { MAX_DERIVS = 1024, MAX_STEPS = 200000 };

typedef struct dom {
  const lx_program *p;
  deriv_vec *d;             /* per physical location */
  lx_val *values;           /* per event: the value a read takes now */
  long steps;
  bool over;
} dom;

static bool subset(const int *a, size_t na, const int *b, size_t nb) {
  size_t j = 0;
  for (size_t i = 0; i < na; i++) {
    while (j < nb && b[j] < a[i]) j++;
    if (j == nb || b[j] != a[i]) return false;
  }
  return true;
}

/* Adds a derivation unless one with the same value and fewer writes is
 * there already (it explains the value with fewer constraints). */
static bool add_deriv(dom *D, int ploc, lx_val v, const int_vec *writes) {
  deriv_vec *dv = &D->d[ploc];
  for (size_t i = 0; i < dv->n; i++)
    if (dv->v[i].v == v && subset(dv->v[i].writes, dv->v[i].nwrites, writes->v, writes->n)) return false;
  if (dv->n >= MAX_DERIVS) {
    D->over = true;
    return false;
  }
  deriv nd = {v, lc_xcalloc(writes->n ? writes->n : 1, sizeof(int)), writes->n};
  if (writes->n) memcpy(nd.writes, writes->v, writes->n * sizeof(int));
  lc_vec_push(dv, nd);
  return true;
}

/* May writes `a` and `b` be in one execution: another thread, or one path. */
static bool compatible(const lx_program *p, int a, int b) {
  const lx_event *x = &p->events[a], *y = &p->events[b];
  return x->thread != y->thread || x->path == y->path;
}

static bool insert_write(const lx_program *p, int_vec *set, int w) {
  size_t i = 0;
  for (; i < set->n && set->v[i] < w; i++)
    if (!compatible(p, set->v[i], w)) return false;
  if (i < set->n && set->v[i] == w) return true;
  for (size_t j = i; j < set->n; j++)
    if (!compatible(p, set->v[j], w)) return false;
  lc_vec_push(set, 0);
  memmove(set->v + i + 1, set->v + i, (set->n - 1 - i) * sizeof(int));
  set->v[i] = w;
  return true;
}

static void collect_reads(const lx_expr *e, int_vec *reads) {
  if (e->kind == LX_X_READ) {
    for (size_t i = 0; i < reads->n; i++)
      if (reads->v[i] == e->event) return;
    lc_vec_push(reads, e->event);
  } else if (e->kind == LX_X_BIN) {
    collect_reads(e->a, reads);
    collect_reads(e->b, reads);
  }
}

/* Chooses a derivation for reads[k..] given the writes used so far. */
static bool derive(dom *D, const lx_event *w, const int_vec *reads, size_t k, const int_vec *used) {
  if (++D->steps > MAX_STEPS) {
    D->over = true;
    return false;
  }
  if (k == reads->n) return add_deriv(D, w->ploc, lx_expr_eval(w->value, D->values), used);
  bool changed = false;
  int r = reads->v[k];
  const deriv_vec *dv = &D->d[D->p->events[r].ploc];
  size_t n = dv->n;   /* derivations added meanwhile are for the next round */
  for (size_t i = 0; i < n && !D->over; i++) {
    const deriv *dr = &D->d[D->p->events[r].ploc].v[i];
    int_vec next = {0};
    for (size_t j = 0; j < used->n; j++) lc_vec_push(&next, used->v[j]);
    bool ok = true;
    for (size_t j = 0; j < dr->nwrites && ok; j++)
      ok = dr->writes[j] != w->id && insert_write(D->p, &next, dr->writes[j]);
    if (ok) {
      D->values[r] = dr->v;
      changed |= derive(D, w, reads, k + 1, &next);
    }
    lc_vec_free(&next);
  }
  return changed;
}

static bool derive_write(dom *D, const lx_event *w) {
  if (w->value->kind == LX_X_CONST) {
    int_vec none = {0};
    return add_deriv(D, w->ploc, w->value->c, &none);
  }
  int_vec reads = {0}, used = {0};
  collect_reads(w->value, &reads);
  lc_vec_push(&used, w->id);
  bool changed = derive(D, w, &reads, 0, &used);
  lc_vec_free(&reads);
  lc_vec_free(&used);
  return changed;
}

/* Derivations of every location; false past the budget. */
static bool derivations(const lx_program *p, val_vec *doms) {
  dom D = {p, lc_xcalloc(p->nplocs ? p->nplocs : 1, sizeof(deriv_vec)),
           lc_xcalloc(p->nevents ? p->nevents : 1, sizeof(lx_val)), 0, false};
  int_vec none = {0};
  for (size_t l = 0; l < p->nplocs; l++) add_deriv(&D, (int)l, p->plocs[l].init, &none);
  for (bool changed = true; changed && !D.over;) {
    changed = false;
    for (size_t i = p->ninit; i < p->nevents && !D.over; i++)
      if (p->events[i].kind == LX_EV_WRITE) changed |= derive_write(&D, &p->events[i]);
  }
  for (size_t l = 0; l < p->nplocs; l++) {
    for (size_t i = 0; i < D.d[l].n; i++) {
      bool seen = false;
      for (size_t j = 0; j < doms[l].n && !seen; j++) seen = doms[l].v[j] == D.d[l].v[i].v;
      if (!seen) lc_vec_push(&doms[l], D.d[l].v[i].v);
      free(D.d[l].v[i].writes);
    }
    lc_vec_free(&D.d[l]);
  }
  bool ok = !D.over;
  free(D.d);
  free(D.values);
  return ok;
}

/* ---- the plain fixed point over values ----------------------------------- */

/* The values of a location or an expression, in order of arrival, with a
 * hash table beside them: sets reach LX_MAX_DOMAIN values, and a linear
 * search per value made the fixed point quadratic in them (a 40-line test
 * multiplying and dividing a register took 14 s to lower). */
typedef struct val_set {
  val_vec v;
  lx_val *keys;
  bool *full;
  size_t cap;               /* a power of two, at least twice v.n */
} val_set;

static size_t slot_of(const val_set *s, lx_val x) {
  uint64_t h = (uint64_t)x * 0x9E3779B97F4A7C15u;
  size_t i = (size_t)(h >> 32) & (s->cap - 1);
  while (s->full[i] && s->keys[i] != x) i = (i + 1) & (s->cap - 1);
  return i;
}

static void set_grow(val_set *s) {
  size_t cap = s->cap ? s->cap * 2 : 16;
  free(s->keys);
  free(s->full);
  s->cap = cap;
  s->keys = lc_xcalloc(cap, sizeof(lx_val));
  s->full = lc_xcalloc(cap, sizeof(bool));
  for (size_t k = 0; k < s->v.n; k++) {
    size_t i = slot_of(s, s->v.v[k]);
    s->full[i] = true;
    s->keys[i] = s->v.v[k];
  }
}

static bool set_add(val_set *s, lx_val x) {
  if (2 * (s->v.n + 1) > s->cap) set_grow(s);
  size_t i = slot_of(s, x);
  if (s->full[i]) return false;
  s->full[i] = true;
  s->keys[i] = x;
  lc_vec_push(&s->v, x);
  return true;
}

static void set_fini(val_set *s) {
  lc_vec_free(&s->v);
  free(s->keys);
  free(s->full);
  memset(s, 0, sizeof *s);
}

/* The values an expression can take when each read returns any value its
 * location can hold: an over-approximation (two uses of one read are
 * treated as independent). */
static void eval_set(const lx_program *p, const lx_expr *e, val_set *doms, val_set *out, bool *overflow) {
  if (e->kind == LX_X_CONST) {
    set_add(out, e->c);
    return;
  }
  if (e->kind == LX_X_READ) {
    const val_vec *d = &doms[p->events[e->event].ploc].v;
    for (size_t i = 0; i < d->n; i++) set_add(out, d->v[i]);
    return;
  }
  val_set a = {0}, b = {0};
  eval_set(p, e->a, doms, &a, overflow);
  eval_set(p, e->b, doms, &b, overflow);
  for (size_t i = 0; i < a.v.n && !*overflow; i++)
    for (size_t j = 0; j < b.v.n && !*overflow; j++) {
      set_add(out, lx_op_apply(e->op, a.v.v[i], b.v.v[j]));
      if (out->v.n > LX_MAX_DOMAIN) *overflow = true;
    }
  set_fini(&a);
  set_fini(&b);
}

/* The most writes one execution can have: the longest path of each
 * thread, summed.  A chain of reads-from steps is no longer. */
static size_t longest_chain(const lx_program *p) {
  size_t total = 0;
  for (size_t t = 0; t < p->nthreads; t++) {
    size_t most = 0;
    for (size_t k = 0; k < p->threads[t].npaths; k++) {
      const lx_path *path = &p->paths[p->threads[t].paths[k]];
      size_t n = 0;
      for (size_t i = 0; i < path->nevents; i++) n += p->events[path->events[i]].kind == LX_EV_WRITE;
      if (n > most) most = n;
    }
    total += most;
  }
  return total;
}

/* Iterates to a fixed point; a value needing a chain of k reads-from steps
 * appears by round k, so longest_chain rounds bound what any execution can
 * produce. */
static void plain_fixpoint(const lx_program *p, val_vec *doms, bool *overflow) {
  val_set *sets = lc_xcalloc(p->nplocs ? p->nplocs : 1, sizeof(val_set));
  for (size_t l = 0; l < p->nplocs; l++) set_add(&sets[l], p->plocs[l].init);
  size_t rounds = longest_chain(p);
  for (size_t round = 0; round < rounds; round++) {
    bool changed = false;
    for (size_t i = p->ninit; i < p->nevents; i++) {
      const lx_event *e = &p->events[i];
      if (e->kind != LX_EV_WRITE || overflow[e->ploc]) continue;
      val_set vals = {0};
      eval_set(p, e->value, sets, &vals, &overflow[e->ploc]);
      for (size_t k = 0; k < vals.v.n && !overflow[e->ploc]; k++) {
        changed |= set_add(&sets[e->ploc], vals.v.v[k]);
        if (sets[e->ploc].v.n > LX_MAX_DOMAIN) overflow[e->ploc] = true;
      }
      set_fini(&vals);
    }
    if (!changed) break;
  }
  for (size_t l = 0; l < p->nplocs; l++) {
    lc_vec_free(&doms[l]);
    doms[l] = sets[l].v;
    sets[l].v = (val_vec){0};
    set_fini(&sets[l]);
  }
  free(sets);
}

static int cmp_val(const void *x, const void *y) {
  lx_val a = *(const lx_val *)x, b = *(const lx_val *)y;
  return (a > b) - (a < b);
}

void lx_domains(lx_program *p) {
  val_vec *doms = lc_xcalloc(p->nplocs ? p->nplocs : 1, sizeof(val_vec));
  bool *overflow = lc_xcalloc(p->nplocs ? p->nplocs : 1, sizeof(bool));
  if (!derivations(p, doms)) plain_fixpoint(p, doms, overflow);
  for (size_t l = 0; l < p->nplocs; l++) {
    lx_ploc *pl = &p->plocs[l];
    pl->values_unbounded = overflow[l];
    if (doms[l].n) qsort(doms[l].v, doms[l].n, sizeof(lx_val), cmp_val);
    pl->nvalues = doms[l].n;
    pl->values = lc_arena_alloc(p->arena, (doms[l].n ? doms[l].n : 1) * sizeof(lx_val));
    if (doms[l].n) memcpy(pl->values, doms[l].v, doms[l].n * sizeof(lx_val));
    lc_vec_free(&doms[l]);
  }
  free(doms);
  free(overflow);
}
