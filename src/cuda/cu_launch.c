/* cu_launch.c - the random part of each launch, drawn from the run's seed.
 * SPDX-License-Identifier: MIT
 *
 * Launch `iteration` of a run with seed s draws everything from one
 * splitmix64 stream started at s and the iteration number, so a run is
 * reproducible from its seed, and any launch can be redrawn on its own.
 */
#include "cuda/cu_int.h"

#include <assert.h>

static cu_u32 gcd(cu_u32 a, cu_u32 b) {
  while (b) {
    cu_u32 t = a % b;
    a = b;
    b = t;
  }
  return a;
}

cu_u32 cu_inverse_mod(cu_u32 a, cu_u32 n) {
  if (n <= 1) return 0;
  int64_t t = 0, nt = 1, r = n, nr = a % n;
  while (nr) {
    int64_t q = r / nr, x;
    x = t - q * nt, t = nt, nt = x;
    x = r - q * nr, r = nr, nr = x;
  }
  return (cu_u32)(t < 0 ? t + n : t);
}

static cu_u32 draw_below(cu_u64 *rng, cu_u32 n) { return n ? (cu_u32)(cu_splitmix64(rng) % n) : 0; }

/* A multiplier co-prime with n that keeps cu_affine in 32 bits:
 * (n-1)*m + (n-1) < 2^32. */
static cu_u32 draw_coprime(cu_u64 *rng, cu_u32 n) {
  uint64_t limit = n ? (((uint64_t)1 << 32) - n) / n : 1;
  if (limit > n) limit = n;
  if (n <= 2 || limit <= 2) return 1;
  for (;;) {
    cu_u32 m = 1 + draw_below(rng, (cu_u32)limit - 1);
    if (gcd(m, n) == 1) return m;
  }
}

/* Fills out[idx[0..count)] with distinct values below n (count <= n). */
static void draw_distinct(cu_u64 *rng, cu_u32 n, cu_u32 *out, const int *idx, int count) {
  for (int i = 0; i < count; i++) {
    bool clash;
    do {
      out[idx[i]] = draw_below(rng, n);
      clash = false;
      for (int j = 0; j < i; j++) clash |= out[idx[j]] == out[idx[i]];
    } while (clash);
  }
}

void cu_launch_roles(cu_launch *P, const cu_plan *pl) {
  assert(P && pl);
  P->nroles = (cu_u32)pl->nroles;
  for (size_t k = 0; k < pl->nroles; k++) {
    P->role_cl[k] = (cu_u32)pl->roles[k].lcl;
    P->role_cta[k] = (cu_u32)pl->roles[k].lcta;
  }
  P->nglobal = (cu_u32)pl->nglobal;
  P->nshown = (cu_u32)pl->p->nshown;
}

/* Litmus clusters get distinct cluster offsets, the litmus CTAs of one
 * cluster distinct rank offsets, the roles of one CTA distinct lanes. */
static int draw_placement(cu_launch *P, cu_u64 *rng) {
  int n = (int)P->nroles, nlcl = 0, nlcta = 0;
  for (int k = 0; k < n; k++) {
    if ((int)P->role_cl[k] >= nlcl) nlcl = (int)P->role_cl[k] + 1;
    if ((int)P->role_cta[k] >= nlcta) nlcta = (int)P->role_cta[k] + 1;
  }
  int idx[CU_MAX_ROLES] = {0};
  for (int c = 0; c < nlcl; c++) idx[c] = c;
  if ((cu_u32)nlcl > P->ntest_clusters) return -1;
  draw_distinct(rng, P->ntest_clusters, P->coff, idx, nlcl);
  for (int c = 0; c < nlcl; c++) {
    int m = 0;
    for (int a = 0; a < nlcta; a++)
      for (int k = 0; k < n; k++)
        if ((int)P->role_cta[k] == a && (int)P->role_cl[k] == c) {
          idx[m++] = a;
          break;
        }
    if ((cu_u32)m > P->cs) return -1;
    draw_distinct(rng, P->cs, P->roff, idx, m);
  }
  for (int a = 0; a < nlcta; a++) {
    int m = 0;
    for (int k = 0; k < n; k++)
      if ((int)P->role_cta[k] == a) idx[m++] = k;
    if ((cu_u32)m > P->T) return -1;
    draw_distinct(rng, P->T, P->loff, idx, m);
  }
  return 0;
}

static void draw_shuffle(cu_launch *P, cu_u64 *rng, bool shuffle) {
  P->smul = shuffle ? draw_coprime(rng, P->nclusters) : 1;
  P->sadd = shuffle ? draw_below(rng, P->nclusters) : 0;
  P->rmul = shuffle ? draw_coprime(rng, P->cs) : 1;
  P->radd = shuffle ? draw_below(rng, P->cs) : 0;
  P->smul_inv = cu_inverse_mod(P->smul, P->nclusters);
  P->rmul_inv = cu_inverse_mod(P->rmul, P->cs);
}

int cu_launch_draw(cu_launch *P, const cu_shape *s, uint64_t seed, uint64_t iteration) {
  assert(P && s);
  if (!s->cs || !s->T || !s->nctas || s->nctas % s->cs || !s->ntest_clusters ||
      s->ntest_clusters > s->nctas / s->cs || s->nctas / s->cs > CU_MAX_CLUSTERS || s->T > 1024 ||
      (uint64_t)s->ntest_clusters * s->cs * s->T > CU_MAX_INSTANCES)
    return -1;
  P->nctas = s->nctas;
  P->cs = s->cs;
  P->nclusters = s->nctas / s->cs;
  P->ntest_clusters = s->ntest_clusters;
  P->T = s->T;
  P->ninst = s->ntest_clusters * s->cs * s->T;
  P->iteration = iteration;
  cu_u64 rng = seed ^ (iteration * 0xd1b54a32d192ed03ull);
  cu_splitmix64(&rng);
  draw_shuffle(P, &rng, s->shuffle);
  P->cmul = draw_coprime(&rng, P->ntest_clusters);
  P->cmul_inv = cu_inverse_mod(P->cmul, P->ntest_clusters);
  P->lmul = draw_coprime(&rng, P->T);
  P->lmul_inv = cu_inverse_mod(P->lmul, P->T);
  if (draw_placement(P, &rng) < 0) return -1;
  P->pmul = draw_coprime(&rng, P->ninst);
  for (cu_u32 g = 0; g < P->nglobal; g++) P->padd[g] = draw_below(&rng, P->ninst);
  P->stress_seed = cu_splitmix64(&rng);
  return 0;
}
