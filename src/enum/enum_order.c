/* enum_order.c - strict partial orders chosen pair by pair, and the
 * arrival orders of barriers.
 * SPDX-License-Identifier: MIT
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "enum/enum_int.h"

/* ---- orders ------------------------------------------------------------------ */

void enum_order_init(enum_order *o, rel_rel *dom) {
  assert(o && dom);
  size_t n = dom->n;
  o->dom = dom;
  o->before = rel_new(n);
  o->apart = rel_new(n);
  o->pairs = lc_xcalloc(n * n / 2 + 1, sizeof *o->pairs);
  o->npairs = 0;
  for (size_t a = 0; a < n; a++)
    for (size_t b = a + 1; b < n; b++)
      if (rel_has(dom, a, b)) {
        o->pairs[o->npairs][0] = a;
        o->pairs[o->npairs][1] = b;
        o->npairs++;
      }
}

void enum_order_fini(enum_order *o) {
  rel_free(o->dom);
  rel_free(o->before);
  rel_free(o->apart);
  free(o->pairs);
  memset(o, 0, sizeof *o);
}

bool enum_order_decided(const enum_order *o, size_t a, size_t b) {
  assert(o && a < o->dom->n && b < o->dom->n);
  return rel_has(o->before, a, b) || rel_has(o->before, b, a) || rel_has(o->apart, a, b);
}

/* The closure of a transitive relation plus (a,b) adds exactly the pairs
 * from a or a predecessor of a to b or a successor of b. */
bool enum_order_relate(enum_order *o, size_t a, size_t b) {
  assert(o && a < o->dom->n && b < o->dom->n && a != b);
  size_t n = o->dom->n;
  for (size_t x = 0; x < n; x++) {
    if (x != a && !rel_has(o->before, x, a)) continue;
    for (size_t y = 0; y < n; y++) {
      if (y != b && !rel_has(o->before, b, y)) continue;
      if (x == y || rel_has(o->before, y, x) || rel_has(o->apart, x, y)) return false;
      rel_add(o->before, x, y);
    }
  }
  return true;
}

void enum_order_separate(enum_order *o, size_t a, size_t b) {
  assert(o && a < o->dom->n && b < o->dom->n);
  rel_add(o->apart, a, b);
  rel_add(o->apart, b, a);
}

rel_rel *enum_order_may(const enum_order *o) {
  assert(o && o->dom);
  rel_rel *may = rel_copy(o->dom);
  rel_diff_into(may, o->apart);
  /* less the inverse of before, pair by pair of before (asked at every
   * node that moves the order: the n * n tests were a tenth of the
   * explicit engine's time on small tests) */
  const rel_rel *bf = o->before;
  for (size_t b = 0; b < bf->n; b++) {
    const uint64_t *row = rel_row(bf, b);
    for (size_t w = 0; w < bf->words; w++)
      for (uint64_t bits = row[w]; bits; bits &= bits - 1) rel_del(may, w * 64 + (size_t)__builtin_ctzll(bits), b);
  }
  return may;
}

/* ---- barriers ------------------------------------------------------------------ */

static bool is_bar(const lx_event *e) { return e->kind == LX_EV_BAR_ARRIVE || e->kind == LX_EV_BAR_WAIT; }

/* Two barrier events of different threads may join one instance: same
 * CTA (same cluster for barrier.cluster, same GPU for the grid's), same number n and occurrence k, an id on both or on neither
 * (smt_engine.c same_instance).  The ids' values are compared by the
 * caller once they are known. */
static bool may_join(const enum_frame *f, size_t a, size_t w) {
  const lx_event *ea = enum_frame_event(f, a), *ew = enum_frame_event(f, w);
  if (ea->kind != LX_EV_BAR_ARRIVE || ew->kind != LX_EV_BAR_WAIT || ea->thread == ew->thread) return false;
  const lx_thread *ta = &f->p->threads[ea->thread], *tw = &f->p->threads[ew->thread];
  bool group = ea->bar_grid ? true : ea->bar_cluster ? ta->cluster == tw->cluster : ta->cta == tw->cta;
  return ta->gpu == tw->gpu && group && ea->bar_cluster == ew->bar_cluster && ea->bar_n == ew->bar_n &&
         ea->bar_k == ew->bar_k && !ea->bar_id == !ew->bar_id;
}

static bool joins(const enum_frame *f, const lx_val *val, size_t a, size_t w) {
  if (!may_join(f, a, w)) return false;
  const lx_event *ea = enum_frame_event(f, a), *ew = enum_frame_event(f, w);
  return !ea->bar_id || lx_expr_eval(ea->bar_id, val) == lx_expr_eval(ew->bar_id, val);
}

rel_rel *enum_bar_may(const enum_frame *f) {
  assert(f);
  rel_rel *r = rel_new(f->n);
  for (size_t a = 0; a < f->n; a++)
    for (size_t w = 0; w < f->n; w++)
      if (may_join(f, a, w)) rel_add(r, a, w);
  return r;
}

/* Must every arrival of a wait's instance come before it?  With no count,
 * yes (every thread that reaches the instance); at the grid's barrier too,
 * whose count is every thread of the GPU (lower.c lower_bar). */
static bool forced_pair(const lx_event *w) { return !w->bar_count || w->bar_grid; }

/* The pairs of sync_bar every arrival order gives: a forced arrival and
 * its wait, with no id (an id's value is known only once the values are),
 * the wait not blocked.  A lower bound the search starts from, so that
 * hb through barriers prunes sources before the orders are chosen. */
rel_rel *enum_bar_must(const enum_frame *f) {
  assert(f);
  rel_rel *r = rel_new(f->n);
  for (size_t a = 0; a < f->n; a++)
    for (size_t w = 0; w < f->n; w++) {
      if (!may_join(f, a, w)) continue;
      const lx_event *ea = enum_frame_event(f, a), *ew = enum_frame_event(f, w);
      if (!ea->bar_id && !ew->bar_blocked && forced_pair(ew)) rel_add(r, a, w);
    }
  return r;
}

/* The barrier problem of a frame: its barrier events, the arrive -> wait
 * pairs of one instance, and the ones an arrival order may choose. */
typedef struct bars {
  const enum_frame *f;
  const lx_val *val;
  size_t *ev, nev;             /* barrier events (frame indices) */
  size_t (*pair)[2];           /* (arrive, wait), positions in ev */
  size_t npairs;
  bool *forced;                /* the wait has no count: the arrival must come first */
  LC_VEC(rel_rel *) out;
} bars;

static void bars_init(bars *B, const enum_frame *f, const lx_val *val) {
  memset(B, 0, sizeof *B);
  B->f = f;
  B->val = val;
  B->ev = lc_xcalloc(f->n, sizeof(size_t));
  for (size_t i = 0; i < f->n; i++)
    if (is_bar(enum_frame_event(f, i))) B->ev[B->nev++] = i;
  B->pair = lc_xcalloc(B->nev * B->nev + 1, sizeof *B->pair);
  B->forced = lc_xcalloc(B->nev * B->nev + 1, sizeof(bool));
  for (size_t i = 0; i < B->nev; i++)
    for (size_t j = 0; j < B->nev; j++)
      if (joins(f, val, B->ev[i], B->ev[j]) && !enum_frame_event(f, B->ev[j])->bar_blocked) {
        B->forced[B->npairs] = forced_pair(enum_frame_event(f, B->ev[j]));
        B->pair[B->npairs][0] = i;
        B->pair[B->npairs][1] = j;
        B->npairs++;
      }
}

static void bars_fini(bars *B) {
  free(B->ev);
  free(B->pair);
  free(B->forced);
}

/* A wait lowered as blocked (--termination) must stay so: even counting
 * every arrival of its instance in the frame, in any order, the quorum is
 * not met (smt_engine.c encode_release). */
static bool never_released(const bars *B, size_t j) {
  const lx_event *w = enum_frame_event(B->f, B->ev[j]);
  int64_t arrived = 1;
  for (size_t i = 0; i < B->nev; i++) arrived += joins(B->f, B->val, B->ev[i], B->ev[j]);
  return arrived < lx_expr_eval(w->bar_count, B->val);
}

/* A wait with a count is released once that many threads, itself
 * included, have arrived (smt_engine.c encode_release).  A blocked wait
 * with no count is left to the termination judge (term.c), which knows
 * which CTA-mates finished. */
static bool quorums_met(const bars *B, const bool *chosen) {
  for (size_t j = 0; j < B->nev; j++) {
    const lx_event *w = enum_frame_event(B->f, B->ev[j]);
    if (w->kind != LX_EV_BAR_WAIT || !w->bar_count) continue;
    if (w->bar_blocked && !never_released(B, j)) return false;
    if (w->bar_blocked) continue;
    int64_t arrived = 1;
    for (size_t k = 0; k < B->npairs; k++) arrived += B->pair[k][1] == j && chosen[k];
    if (arrived < lx_expr_eval(w->bar_count, B->val)) return false;
  }
  return true;
}

/* Is there an arrival time per barrier event, increasing along each
 * thread, with chosen arrivals strictly before their wait and the others
 * at or after it?  Ties are allowed, so the constraints are satisfiable
 * exactly when no cycle of them contains a strict one. */
static bool times_exist(const bars *B, const bool *chosen) {
  size_t m = B->nev;
  rel_rel *reach = rel_new(m), *strict = rel_new(m);
  for (size_t i = 0; i < m; i++)
    for (size_t j = 0; j < m; j++) {
      const lx_event *a = enum_frame_event(B->f, B->ev[i]), *b = enum_frame_event(B->f, B->ev[j]);
      if (a->thread == b->thread && a->pos < b->pos) rel_add(strict, i, j);
    }
  for (size_t k = 0; k < B->npairs; k++) {
    size_t a = B->pair[k][0], w = B->pair[k][1];
    if (chosen[k]) rel_add(strict, a, w);
    else rel_add(reach, w, a);
  }
  rel_union_into(reach, strict);
  rel_plus_into(reach);
  bool ok = true;
  for (size_t i = 0; i < m && ok; i++)
    for (size_t j = 0; j < m && ok; j++)
      if (rel_has(strict, i, j) && rel_has(reach, j, i)) ok = false;
  rel_free(reach);
  rel_free(strict);
  return ok;
}

static void emit(bars *B, const bool *chosen) {
  rel_rel *r = rel_new(B->f->n);
  for (size_t k = 0; k < B->npairs; k++)
    if (chosen[k]) rel_add(r, B->ev[B->pair[k][0]], B->ev[B->pair[k][1]]);
  lc_vec_push(&B->out, r);
}

/* Each free pair (a wait with a count) in or out, the forced ones in: the
 * subsets of the free pairs in depth-first order, in before out, walked
 * without recursion (a barrier of a large CTA has tens of thousands of
 * pairs). */
static void choose(bars *B, bool *chosen) {
  for (size_t k = 0; k < B->npairs; k++) chosen[k] = true;
  for (;;) {
    if (quorums_met(B, chosen) && times_exist(B, chosen)) emit(B, chosen);
    size_t k = B->npairs;
    while (k > 0 && (B->forced[k - 1] || !chosen[k - 1])) k--;
    if (k == 0) return;
    chosen[k - 1] = false;
    for (size_t j = k; j < B->npairs; j++) chosen[j] = true;
  }
}

rel_rel **enum_bar_choices(const enum_frame *f, const lx_val *val, size_t *n) {
  assert(f && val && n);
  bars B;
  bars_init(&B, f, val);
  bool *chosen = lc_xcalloc(B.npairs + 1, sizeof(bool));
  choose(&B, chosen);
  free(chosen);
  bars_fini(&B);
  *n = B.out.n;
  if (!B.out.v) return lc_xcalloc(1, sizeof(rel_rel *));
  return B.out.v;
}
