/* enum_cuts.c - what cut a search for a state (enum.h: enum_cuts): the
 * minimal sets of checks failing where it cut, and per check a place
 * where it failed alone.
 * SPDX-License-Identifier: MIT
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "enum/enum_int.h"

void enum_cuts_init(enum_cuts *c, const cat_model *m) {
  assert(c && m);
  memset(c, 0, sizeof *c);
  c->nchecks = cat_model_nchecks(m);
  c->usable = c->nchecks <= 64;
  c->alone = lc_xcalloc(c->nchecks + 1, sizeof(enum_place));
}

static void place_fini(enum_place *pl) {
  free(pl->paths);
  free(pl->rf);
  pl->paths = NULL;
  pl->rf = NULL;
}

void enum_cuts_fini(enum_cuts *c) {
  assert(c);
  for (size_t i = 0; i < c->nchecks; i++) place_fini(&c->alone[i]);
  free(c->alone);
  lc_vec_free(&c->sets);
  memset(c, 0, sizeof *c);
}

bool enum_cuts_met_by(const enum_cuts *c, uint64_t set) {
  assert(c);
  if (!c->usable) return false;
  for (size_t i = 0; i < c->sets.n; i++)
    if (!(c->sets.v[i] & set)) return false;
  return true;
}

/* Keeps the sets minimal: a superset of a set kept says nothing more. */
static void add_set(enum_cuts *c, uint64_t fails) {
  size_t kept = 0;
  for (size_t i = 0; i < c->sets.n; i++) {
    if ((c->sets.v[i] & fails) == c->sets.v[i]) return;
    if ((fails & c->sets.v[i]) != fails) c->sets.v[kept++] = c->sets.v[i];
  }
  c->sets.n = kept;
  lc_vec_push(&c->sets, fails);
}

static void keep_place(enum_place *pl, const lx_program *p, const enum_frame *f, const int *rf) {
  pl->paths = lc_xcalloc(p->nthreads + 1, sizeof(int));
  memcpy(pl->paths, f->paths, p->nthreads * sizeof(int));
  pl->rf = lc_xcalloc(p->nevents + 1, sizeof(int));
  for (size_t e = 0; e < p->nevents; e++) pl->rf[e] = -1;
  for (size_t i = 0; i < f->nreads; i++)
    if (rf[i] >= 0) pl->rf[f->orig[f->reads[i]]] = f->orig[rf[i]];
}

void enum_cuts_note(enum_cuts *c, uint64_t fails, const lx_program *p, const enum_frame *f, const int *rf) {
  assert(c && p && f && (rf || !f->nreads));
  if (!c->usable || !fails) return;
  add_set(c, fails);
  if (fails & (fails - 1)) return;
  size_t i = (size_t)__builtin_ctzll(fails);
  if (!c->alone[i].paths) keep_place(&c->alone[i], p, f, rf);
}
