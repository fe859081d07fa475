/* enum_values.c - every value a read can return in any candidate
 * execution the explicit engine builds, per location, so that "nothing
 * new below" can cut a subtree whose observables are not known yet.
 * SPDX-License-Identifier: MIT
 *
 * lx_domains gives the values of acyclic chains of writes; the engine
 * also guesses values around a cycle of value dependencies (thin air)
 * from that domain, and what is computed from a guess need not be in it.
 * Closing the domain under every write's expression, each read taking
 * any value of its location, covers both: a read returns the value of a
 * write of its location (or a guess from lx_domains), and every write's
 * value is its expression over values its reads return.  The closure
 * stops at ENUM_VALUES_MAX values a location; past that the location
 * counts as unbounded and nothing is cut on its account.
 */
#include <stdlib.h>
#include <string.h>

#include "enum/enum_int.h"

/* Reads a write's expression may combine: more, and the write's location
 * counts as unbounded (the product of their values is the work). */
enum { MAX_READS = 6, MAX_COMBOS = 4096 };

static bool has(const enum_values *d, size_t l, lx_val v) {
  for (size_t i = 0; i < d->n[l]; i++)
    if (d->v[l][i] == v) return true;
  return false;
}

/* Adds v to location l; false when l has no room left (it is then
 * unbounded). */
static bool add(enum_values *d, size_t l, lx_val v, bool *changed) {
  if (d->over[l] || has(d, l, v)) return true;
  if (d->n[l] == ENUM_VALUES_MAX) {
    d->over[l] = *changed = true;
    return false;
  }
  d->v[l][d->n[l]++] = v;
  *changed = true;
  return true;
}

size_t enum_values_reads(const lx_expr *e, int *reads, size_t max) {
  /* an explicit stack: expressions nest as deep as the test writes them */
  const lx_expr *stack[64];
  size_t top = 0, n = 0;
  stack[top++] = e;
  while (top) {
    const lx_expr *x = stack[--top];
    if (x->kind == LX_X_READ) {
      bool seen = false;
      for (size_t i = 0; i < n && !seen; i++) seen = reads[i] == x->event;
      if (seen) continue;
      if (n == max) return max + 1;
      reads[n++] = x->event;
    } else if (x->kind == LX_X_BIN) {
      if (top + 2 > sizeof stack / sizeof *stack) return max + 1;
      if (x->a) stack[top++] = x->a;
      if (x->b) stack[top++] = x->b;
    }
  }
  return n;
}

/* Adds every value write w's expression gives over its reads' values. */
static void close_write(enum_values *d, const lx_program *p, const lx_event *w, lx_val *val, bool *changed) {
  size_t l = (size_t)w->ploc;
  if (d->over[l]) return;
  int reads[MAX_READS];
  size_t n = enum_values_reads(w->value, reads, MAX_READS), combos = 1;
  for (size_t i = 0; i < n && n <= MAX_READS; i++) {
    int rl = p->events[reads[i]].ploc;
    if (rl < 0 || d->over[rl] || !d->n[rl]) {
      /* an unbounded operand: unbounded; one with no value yet: later */
      if (rl < 0 || d->over[rl]) d->over[l] = *changed = true;
      return;
    }
    combos *= d->n[rl];
    if (combos > MAX_COMBOS) break;
  }
  if (n > MAX_READS || combos > MAX_COMBOS) {
    d->over[l] = *changed = true;
    return;
  }
  size_t k[MAX_READS] = {0};
  for (;;) {
    for (size_t i = 0; i < n; i++) val[reads[i]] = d->v[p->events[reads[i]].ploc][k[i]];
    if (!add(d, l, lx_expr_eval(w->value, val), changed)) return;
    size_t i = 0;
    while (i < n && ++k[i] == d->n[p->events[reads[i]].ploc]) k[i++] = 0;
    if (i == n) return;
  }
}

enum_values *enum_values_new(const lx_program *p) {
  enum_values *d = lc_xcalloc(1, sizeof *d);
  size_t nl = p->nplocs ? p->nplocs : 1;
  d->v = lc_xcalloc(nl, sizeof *d->v);
  d->n = lc_xcalloc(nl, sizeof *d->n);
  d->over = lc_xcalloc(nl, sizeof *d->over);
  bool changed = false;
  for (size_t l = 0; l < p->nplocs; l++) {
    d->v[l] = lc_xcalloc(ENUM_VALUES_MAX, sizeof(lx_val));
    const lx_ploc *pl = &p->plocs[l];
    if (pl->values_unbounded) d->over[l] = true;
    for (size_t i = 0; i < pl->nvalues && !d->over[l]; i++) add(d, l, pl->values[i], &changed);
  }
  lx_val *val = lc_xcalloc(p->nevents ? p->nevents : 1, sizeof(lx_val));
  /* Each round adds a value or marks a location unbounded, so there are at
   * most nplocs x (ENUM_VALUES_MAX + 1) rounds that change anything. */
  for (changed = true; changed;) {
    changed = false;
    for (size_t e = 0; e < p->nevents; e++) {
      const lx_event *w = &p->events[e];
      if (w->kind == LX_EV_WRITE && w->ploc >= 0 && w->value) close_write(d, p, w, val, &changed);
    }
  }
  free(val);
  return d;
}

void enum_values_free(enum_values *d, const lx_program *p) {
  if (!d) return;
  for (size_t l = 0; l < p->nplocs; l++) free(d->v[l]);
  free(d->v);
  free(d->n);
  free(d->over);
  free(d);
}
