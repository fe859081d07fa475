/* gen_family.c - families of tests that grow with a size, for
 * benchmarking the engines (scripts/bench-engines).
 * SPDX-License-Identifier: MIT
 *
 * Every thread sits in a CTA of its own on GPU 0; accesses are .gpu.
 */
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "gen/gen_int.h"

static const char *const family_names[] = {"random", "chain", "sb", "iriw", "wr", "random-cpp", "spin", "iriw-sc"};

const char *gen_family_name(gen_family f) {
  return (size_t)f < LC_ARRAY_LEN(family_names) ? family_names[f] : "?";
}

int gen_family_parse(const char *s, gen_family *f) {
  assert(s && f);
  for (size_t i = 0; i < LC_ARRAY_LEN(family_names); i++)
    if (strcmp(s, family_names[i]) == 0) {
      *f = (gen_family)i;
      return 0;
    }
  return -1;
}

unsigned gen_family_min(gen_family f) { return f == GEN_IRIW || f == GEN_WR || f == GEN_IRIW_SC ? 1 : 2; }

static void begin(gen_build *b, gen_family f, unsigned n, const char *doc, size_t nthreads, size_t nrows) {
  char name[32];
  snprintf(name, sizeof name, "%s-%u", gen_family_name(f), n);
  gen_begin(b, name, doc, nthreads, nrows);
  for (size_t t = 0; t < nthreads; t++) gen_place(b, t, (int)t, -1, 0);
}

static const char *flag_name(char *buf, size_t size, unsigned k) {
  snprintf(buf, size, "f%u", k);
  return buf;
}

/* P0 writes x and releases f1; Pk acquires fk and releases fk+1; the last
 * thread acquires its flag and reads x.  Every read of a flag may see 0 or
 * 1, and x may read 0 unless every flag read saw 1: 2^N - 1 states. */
static lt_test *chain(unsigned n) {
  gen_build b;
  char f[16];
  begin(&b, GEN_CHAIN, n, "\"Release/acquire chain: 2^N - 1 allowed states.\"", n, 2);
  gen_init_loc(&b, "x", 0);
  for (unsigned k = 1; k < n; k++) gen_init_loc(&b, flag_name(f, sizeof f, k), 0);
  gen_put(&b, 0, 0, gen_st(&b, LT_SEM_WEAK, LT_SCOPE_NONE, "x", gen_imm(1)));
  gen_put(&b, 0, 1, gen_st(&b, LT_SEM_RELEASE, LT_SCOPE_GPU, flag_name(f, sizeof f, 1), gen_imm(1)));
  for (unsigned k = 1; k < n; k++) {
    gen_put(&b, k, 0, gen_ld(&b, LT_SEM_ACQUIRE, LT_SCOPE_GPU, 0, flag_name(f, sizeof f, k)));
    if (k + 1 < n)
      gen_put(&b, k, 1, gen_st(&b, LT_SEM_RELEASE, LT_SCOPE_GPU, flag_name(f, sizeof f, k + 1), gen_imm(1)));
    else
      gen_put(&b, k, 1, gen_ld(&b, LT_SEM_WEAK, LT_SCOPE_NONE, 1, "x"));
    gen_cond_reg(&b, (int)k, 0, LT_CMP_EQ, 1);
  }
  gen_cond_reg(&b, (int)n - 1, 1, LT_CMP_EQ, 0);
  return gen_finish(&b, LT_COND_EXISTS);
}

/* Pk: st xk; fence.sc; ld x(k+1 mod N).  Only "every read sees 0" is
 * forbidden: 2^N - 1 states. */
static lt_test *sb(unsigned n) {
  gen_build b;
  char x[16], y[16];
  begin(&b, GEN_SB, n, "\"Store buffering ring with fence.sc: 2^N - 1 allowed states.\"", n, 3);
  for (unsigned k = 0; k < n; k++) {
    snprintf(x, sizeof x, "x%u", k);
    gen_init_loc(&b, x, 0);
  }
  for (unsigned k = 0; k < n; k++) {
    snprintf(x, sizeof x, "x%u", k);
    snprintf(y, sizeof y, "x%u", (k + 1) % n);
    gen_put(&b, k, 0, gen_st(&b, LT_SEM_RELAXED, LT_SCOPE_GPU, x, gen_imm(1)));
    gen_put(&b, k, 1, gen_fence(&b, LT_SEM_SC, LT_SCOPE_GPU));
    gen_put(&b, k, 2, gen_ld(&b, LT_SEM_RELAXED, LT_SCOPE_GPU, 0, y));
    gen_cond_reg(&b, (int)k, 0, LT_CMP_EQ, 0);
  }
  return gen_finish(&b, LT_COND_EXISTS);
}

/* P0 writes x, P1 writes y; each of N readers reads both, in alternating
 * orders, with acquire loads (which do not forbid IRIW in PTX). */
static lt_test *iriw(unsigned n) {
  gen_build b;
  begin(&b, GEN_IRIW, n, "\"IRIW with N readers of x and y.\"", n + 2, 2);
  gen_init_loc(&b, "x", 0);
  gen_init_loc(&b, "y", 0);
  gen_put(&b, 0, 0, gen_st(&b, LT_SEM_RELAXED, LT_SCOPE_GPU, "x", gen_imm(1)));
  gen_put(&b, 1, 0, gen_st(&b, LT_SEM_RELAXED, LT_SCOPE_GPU, "y", gen_imm(1)));
  for (unsigned k = 0; k < n; k++) {
    const char *first = k % 2 ? "y" : "x", *second = k % 2 ? "x" : "y";
    gen_put(&b, k + 2, 0, gen_ld(&b, LT_SEM_ACQUIRE, LT_SCOPE_GPU, 0, first));
    gen_put(&b, k + 2, 1, gen_ld(&b, LT_SEM_ACQUIRE, LT_SCOPE_GPU, 1, second));
    gen_cond_reg(&b, (int)k + 2, 0, LT_CMP_EQ, 1);
    gen_cond_reg(&b, (int)k + 2, 1, LT_CMP_EQ, 0);
  }
  return gen_finish(&b, LT_COND_EXISTS);
}

/* IRIW whose readers separate their two relaxed loads with fence.sc: the
 * Fence-SC order forbids two readers seeing the writes in opposite orders
 * (the shape whose n! orders of fences the explicit engine once searched
 * for every choice of rf; docs/explicit-engine.md). */
static lt_test *iriw_sc(unsigned n) {
  gen_build b;
  begin(&b, GEN_IRIW_SC, n, "\"IRIW with N readers of x and y, fence.sc between their loads.\"", n + 2, 3);
  gen_init_loc(&b, "x", 0);
  gen_init_loc(&b, "y", 0);
  gen_put(&b, 0, 0, gen_st(&b, LT_SEM_RELAXED, LT_SCOPE_GPU, "x", gen_imm(1)));
  gen_put(&b, 1, 0, gen_st(&b, LT_SEM_RELAXED, LT_SCOPE_GPU, "y", gen_imm(1)));
  for (unsigned k = 0; k < n; k++) {
    const char *first = k % 2 ? "y" : "x", *second = k % 2 ? "x" : "y";
    gen_put(&b, k + 2, 0, gen_ld(&b, LT_SEM_RELAXED, LT_SCOPE_GPU, 0, first));
    gen_put(&b, k + 2, 1, gen_fence(&b, LT_SEM_SC, LT_SCOPE_GPU));
    gen_put(&b, k + 2, 2, gen_ld(&b, LT_SEM_RELAXED, LT_SCOPE_GPU, 1, second));
    gen_cond_reg(&b, (int)k + 2, 0, LT_CMP_EQ, 1);
    gen_cond_reg(&b, (int)k + 2, 1, LT_CMP_EQ, 0);
  }
  return gen_finish(&b, LT_COND_EXISTS);
}

/* N writers store 1..N to x, N readers load it once: any reader may see
 * any write, (N+1)^N states. */
static lt_test *wr(unsigned n) {
  gen_build b;
  begin(&b, GEN_WR, n, "\"N writers and N readers of one location.\"", 2 * n, 1);
  gen_init_loc(&b, "x", 0);
  for (unsigned k = 0; k < n; k++) {
    gen_put(&b, k, 0, gen_st(&b, LT_SEM_RELAXED, LT_SCOPE_GPU, "x", gen_imm(k + 1)));
    gen_put(&b, n + k, 0, gen_ld(&b, LT_SEM_RELAXED, LT_SCOPE_GPU, 0, "x"));
    gen_cond_reg(&b, (int)(n + k), 0, LT_CMP_EQ, k + 1);
  }
  return gen_finish(&b, LT_COND_EXISTS);
}

lt_test *gen_family_test(gen_family f, unsigned n) {
  if (n < gen_family_min(f)) return NULL;
  switch (f) {
  case GEN_CHAIN: return chain(n);
  case GEN_SB: return sb(n);
  case GEN_IRIW: return iriw(n);
  case GEN_WR: return wr(n);
  case GEN_IRIW_SC: return iriw_sc(n);
  default: return NULL;
  }
}
