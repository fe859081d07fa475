/* cu_outcome.c - value domains, dense histogram bins, the allowed bitmap.
 * SPDX-License-Identifier: MIT
 *
 * The device counts an outcome in a dense bin when every shown value lies
 * in its observable's domain, else in a small hash table (cu_gen.c).  A
 * domain holds what the program can produce, as far as the lowering knows
 * it, plus every value of an allowed state; so every allowed state has a
 * dense bin, and an outcome outside the dense bins is forbidden.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/cu_int.h"

typedef LC_VEC(cu_i64) valvec;

enum { VALUE_CAP = LX_MAX_DOMAIN };

/* The values e can take; false when too many (or unknown). */
static bool expr_values(const lx_program *p, const lx_expr *e, valvec *out) {
  switch (e->kind) {
  case LX_X_CONST:
    lc_vec_push(out, e->c);
    return true;
  case LX_X_READ: {
    const lx_ploc *pl = &p->plocs[p->events[e->event].ploc];
    if (pl->values_unbounded) return false;
    for (size_t i = 0; i < pl->nvalues; i++) lc_vec_push(out, pl->values[i]);
    return true;
  }
  case LX_X_BIN: {
    valvec a = {0}, b = {0};
    bool ok = expr_values(p, e->a, &a) && expr_values(p, e->b, &b) && a.n * b.n <= VALUE_CAP;
    for (size_t i = 0; ok && i < a.n; i++)
      for (size_t j = 0; j < b.n; j++) lc_vec_push(out, lx_op_apply(e->op, a.v[i], b.v[j]));
    lc_vec_free(&a);
    lc_vec_free(&b);
    return ok;
  }
  }
  return false;
}

static void obs_values(const lx_program *p, const lx_obs *o, valvec *out) {
  if (o->kind == LX_OBS_LOC) {
    const lx_ploc *pl = &p->plocs[o->ploc];
    lc_vec_push(out, pl->init);
    if (!pl->values_unbounded)
      for (size_t i = 0; i < pl->nvalues; i++) lc_vec_push(out, pl->values[i]);
    return;
  }
  const lx_thread *th = &p->threads[o->thread];
  valvec tmp = {0};
  for (size_t i = 0; i < th->npaths; i++) {
    tmp.n = 0;
    if (!expr_values(p, p->paths[th->paths[i]].regs[o->slot], &tmp) || out->n + tmp.n > VALUE_CAP) continue;
    for (size_t j = 0; j < tmp.n; j++) lc_vec_push(out, tmp.v[j]);
  }
  lc_vec_free(&tmp);
}

static int cmp_val(const void *a, const void *b) {
  cu_i64 x = *(const cu_i64 *)a, y = *(const cu_i64 *)b;
  return x < y ? -1 : x > y;
}

static size_t sort_unique(cu_i64 *v, size_t n) {
  if (!n) return 0;
  qsort(v, n, sizeof *v, cmp_val);
  size_t m = 1;
  for (size_t i = 1; i < n; i++)
    if (v[i] != v[m - 1]) v[m++] = v[i];
  return m;
}

static bool judged(const lc_result *allowed) { return allowed && allowed->status == LC_RESULT_OK; }

void cu_domains_build(cu_domains *dm, const lx_program *p, const lc_result *allowed) {
  assert(dm && p);
  memset(dm, 0, sizeof *dm);
  valvec all = {0};
  dm->nshown = p->nshown;
  dm->ndense = 1;
  for (size_t j = 0; j < p->nshown && j < CU_MAX_SHOWN; j++) {
    valvec v = {0};
    obs_values(p, &p->obs[j], &v);
    if (judged(allowed))
      for (size_t s = 0; s < allowed->nstates; s++) lc_vec_push(&v, lc_result_state(allowed, s)[j]);
    size_t n = sort_unique(v.v, v.n);
    dm->off[j] = (cu_u32)all.n;
    dm->len[j] = (cu_u32)n;
    for (size_t i = 0; i < n; i++) lc_vec_push(&all, v.v[i]);
    dm->ndense = dm->ndense > CU_MAX_DENSE ? dm->ndense : dm->ndense * n;
    lc_vec_free(&v);
  }
  dm->values = all.v;
  dm->nvalues = all.n;
}

void cu_domains_fini(cu_domains *dm) {
  free(dm->values);
  memset(dm, 0, sizeof *dm);
}

uint32_t *cu_allowed_bitmap(const cu_domains *dm, const cu_launch *P, const lc_result *allowed) {
  assert(dm && P);
  size_t words = (P->ndense + 31) / 32;
  uint32_t *bits = lc_xcalloc(words ? words : 1, sizeof *bits);
  if (!judged(allowed)) {
    memset(bits, 0xff, words * sizeof *bits);
    return bits;
  }
  for (size_t s = 0; s < allowed->nstates; s++) {
    cu_u32 bin;
    if (cu_dense_index(P, dm->values, lc_result_state(allowed, s), (cu_u32)dm->nshown, &bin))
      bits[bin / 32] |= 1u << (bin % 32);
  }
  return bits;
}
