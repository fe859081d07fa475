/* cu_map.h - arithmetic the host and the GPU share: which thread plays
 * which role of which test instance, where an instance's locations live,
 * and which histogram bin an outcome falls in.
 * SPDX-License-Identifier: MIT
 *
 * This file is compiled twice: into liblitmus (C11), and as text into every
 * generated kernel (CUDA C++ without headers).  The unit tests therefore
 * check the very arithmetic the device runs.  Keep it to the common subset
 * of both languages: no library calls, no headers but the one below, types
 * spelled cu_u32/cu_u64/cu_i64.
 *
 * Instances.  A launch runs `ninst` instances of the test on the testing
 * CTAs; instance i has a home (b, l) = (i / T, i % T), and b splits into a
 * cluster q = b / cs and a rank r = b % cs.  Role k (litmus thread k) of
 * instance i runs on logical CTA ((cmul*q + coff[c]) mod nq) * cs +
 * (r + roff[a]) mod cs, lane (lmul*l + loff[k]) mod T, where c and a are
 * the litmus cluster and CTA of role k.  For a fixed role these maps are
 * bijections (cmul and lmul are co-prime with their moduli), so every
 * thread plays every role exactly once per launch; roles of one litmus CTA
 * share the CTA and have distinct lane offsets; litmus CTAs of one cluster
 * have distinct rank offsets; litmus clusters have distinct cluster
 * offsets.  That is the whole placement argument.
 *
 * Logical CTAs are physical ones shuffled: cluster index by an affine map
 * mod the number of clusters, rank by an affine map mod cs, so that
 * cluster membership survives the shuffle.  Logical clusters below
 * ntest_clusters test; the others stress.
 */
#ifndef CU_MAP_H
#define CU_MAP_H

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
typedef unsigned int cu_u32;
typedef unsigned long long cu_u64;
typedef long long cu_i64;
#define CU_FN __device__ __forceinline__
#else
#include <stdint.h>
typedef uint32_t cu_u32;
typedef uint64_t cu_u64;
typedef int64_t cu_i64;
#define CU_FN static inline
#endif

enum {
  CU_MAX_ROLES = 32,      /* litmus threads */
  CU_MAX_GLOBALS = 32,    /* global locations */
  CU_MAX_SHOWN = 48,      /* observables in an outcome */
  CU_LINE_WORDS = 32,     /* words in one stress scratchpad line */
  CU_MAX_CLUSTERS = 65536,        /* keeps the CTA and lane maps in 32 bits */
  CU_MAX_INSTANCES = 1 << 26      /* per launch */
};

/* Counters the kernels keep in `counters`. */
enum {
  CU_CNT_CUT,             /* instances stopped by spin_limit or the watchdog's deadline */
  CU_CNT_FILTERED,        /* instances the test's filter rejects */
  CU_CNT_LATE,            /* of the cut ones: stopped by the deadline */
  CU_CNT_UNWRITTEN,       /* instances whose result slot still held CU_POISON: the test kernel missed them */
  CU_CNT_HASHED,          /* instances counted in the out-of-domain table */
  CU_CNT_LOST,            /* out-of-domain outcomes the full table could not take */
  CU_CNT_SAMPLED,         /* claims on a sample record (the first max_samples are kept) */
  CU_CNT_BARRIER_MISS,    /* testing CTAs that gave up waiting at the spin barrier */
  CU_NCOUNTERS,
  CU_NCTA_COUNTERS = CU_CNT_UNWRITTEN + 1   /* the first ones, counted per CTA first */
};

/* A looping role's cut word: it jumped back more often than the model's
 * unroll bound (its outcome is counted, as unexplored); it was stopped at
 * spin_limit or the deadline (the instance is cut); by the deadline. */
enum { CU_CUT_BEYOND = 1, CU_CUT_STOPPED = 2, CU_CUT_LATE = 4 };

/* Outcomes of instances beyond the unroll bound go to the out-of-domain
 * table under their hash with these bits flipped (the low bit stays 1, so
 * no key is 0), apart from the same outcome within the bound. */
#define CU_BEYOND_SALT 0x5a17c0de00000000ull

/* What the classify kernel leaves in every register and final-value slot
 * after reading it, so that a slot the next test launch does not write
 * is seen (as an unwritten instance), never counted as an outcome. */
enum { CU_POISON = 0x5eadbeef };

/* The parameter block of both kernels, passed by value at every launch. */
typedef struct cu_launch {
  /* device buffers */
  cu_u64 mem;             /* global locations: nglobal * ninst * stride words */
  cu_u64 regs;            /* observed registers: one word per (register, instance) */
  cu_u64 fin;             /* final values of observed shared locations, likewise */
  cu_u64 cut;             /* one u32 per (looping role, instance): CU_CUT_* bits */
  cu_u64 scratch;         /* stress scratchpad: stress_lines * CU_LINE_WORDS u32 */
  cu_u64 sync;            /* spin-barrier arrival counter (u32) */
  cu_u64 hist;            /* dense histogram: ndense u64 */
  cu_u64 allowed;         /* allowed-outcome bitmap over the dense bins (u32 words) */
  cu_u64 dom;             /* every observable's value domain, sorted, cu_i64 */
  cu_u64 hash;            /* out-of-domain outcomes: hash_cap entries of 2 + nshown u64 */
  cu_u64 samples;         /* forbidden instances: max_samples records of 2 + nshown + nroles u64 */
  cu_u64 counters;        /* CU_NCOUNTERS u64 */
  cu_u64 ctasm;           /* per physical CTA: the SM it runs on (u32), for the samples */
  cu_i64 alias_delta;     /* bytes from a global location to its generic-alias view */
  cu_u64 iteration;
  cu_u64 stress_seed;
  cu_u64 zero;            /* 0, but the compiler cannot know: keeps each access's address its own */
  cu_u64 watchdog_ns;     /* a testing thread's loops stop this long after its litmus code began */

  cu_u32 ninst;           /* instances per launch = testing CTAs * T */
  cu_u32 nctas;           /* CTAs in the grid (testing and stressing) */
  cu_u32 nclusters;       /* nctas / cs */
  cu_u32 ntest_clusters;  /* clusters that test */
  cu_u32 cs;              /* CTAs per cluster (1 without a cluster launch) */
  cu_u32 T;               /* threads per CTA */
  cu_u32 word;            /* bytes per location: 4 or 8 */
  cu_u32 stride;          /* words between consecutive instance slots of a global location */
  cu_u32 sstride;         /* the same in shared memory */
  cu_u32 nroles, nshown, nglobal;
  cu_u32 ndense;          /* dense bins (product of the domain sizes), 0 when too many */
  cu_u32 shared_hist;     /* the classify kernel counts in shared memory first */
  cu_u32 hash_cap;        /* a power of two */
  cu_u32 max_samples;
  cu_u32 phase;           /* classify kernel: 0 = only set the initial values, 1 = classify too */
  cu_u32 judge;           /* the allowed bitmap comes from a model: record forbidden instances */
  cu_u32 barrier;         /* testing CTAs meet at a bounded spin barrier before the test */
  cu_u32 barrier_spins;   /* how long to wait there */
  cu_u32 mem_stress, pre_stress, stress_pattern, stress_lines, stress_iters;
  cu_u32 pre_pattern, pre_lines, pre_iters;   /* pre-stress of the testing threads */
  cu_u32 loc_offset;      /* 0: locations apart; else words between the locations of one instance */
  cu_u32 spin_limit;      /* backward jumps of one loop of a role before the instance is cut */

  cu_u32 smul, smul_inv, sadd;   /* shuffle of cluster indices mod nclusters */
  cu_u32 rmul, rmul_inv, radd;   /* shuffle of ranks mod cs */
  cu_u32 cmul, cmul_inv;         /* role placement: clusters mod ntest_clusters */
  cu_u32 lmul, lmul_inv;         /* lanes mod T */
  cu_u32 pmul;                   /* instance slots of global locations mod ninst */
  cu_u32 dom_off[CU_MAX_SHOWN], dom_len[CU_MAX_SHOWN];
  cu_u32 role_cl[CU_MAX_ROLES], role_cta[CU_MAX_ROLES];  /* litmus cluster/CTA of each role */
  cu_u32 coff[CU_MAX_ROLES];     /* per litmus cluster */
  cu_u32 roff[CU_MAX_ROLES];     /* per litmus CTA */
  cu_u32 loff[CU_MAX_ROLES];     /* per role */
  cu_u32 padd[CU_MAX_GLOBALS];   /* per global location */
} cu_launch;

/* ---- random numbers ---------------------------------------------------- */

CU_FN cu_u64 cu_splitmix64(cu_u64 *state) {
  cu_u64 z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* ---- affine permutations of [0, n) ---------------------------------------- */

/* x -> (mul*x + add) mod n, in 32 bits: the host keeps mul and add below n
 * and (n-1)*mul + add below 2^32 (cu_launch.c), because a 64-bit remainder
 * costs the GPU a long instruction sequence at every use. */
CU_FN cu_u32 cu_affine(cu_u32 x, cu_u32 mul, cu_u32 add, cu_u32 n) { return (x * mul + add) % n; }

/* The inverse, given mul's inverse mod n (n <= 65536, so d*mul_inv fits). */
CU_FN cu_u32 cu_unaffine(cu_u32 y, cu_u32 mul_inv, cu_u32 add, cu_u32 n) {
  cu_u32 d = y >= add ? y - add : y + n - add;
  return d * mul_inv % n;
}

/* ---- CTAs: physical <-> logical ---------------------------------------------- */

/* The logical CTA of physical CTA `block`; 1 when it tests, 0 when it stresses. */
CU_FN int cu_logical_cta(const cu_launch *P, cu_u32 block, cu_u32 *B) {
  cu_u32 q = cu_affine(block / P->cs, P->smul, P->sadd, P->nclusters);
  cu_u32 r = cu_affine(block % P->cs, P->rmul, P->radd, P->cs);
  *B = q * P->cs + r;
  return q < P->ntest_clusters;
}

CU_FN cu_u32 cu_physical_cta(const cu_launch *P, cu_u32 B) {
  cu_u32 q = cu_unaffine(B / P->cs, P->smul_inv, P->sadd, P->nclusters);
  cu_u32 r = cu_unaffine(B % P->cs, P->rmul_inv, P->radd, P->cs);
  return q * P->cs + r;
}

/* ---- roles <-> instances ------------------------------------------------------ */

/* Where role k of instance i runs: logical CTA *B, lane *lane. */
CU_FN void cu_role_thread(const cu_launch *P, cu_u32 k, cu_u32 i, cu_u32 *B, cu_u32 *lane) {
  cu_u32 b = i / P->T, l = i % P->T;
  cu_u32 q = cu_affine(b / P->cs, P->cmul, P->coff[P->role_cl[k]], P->ntest_clusters);
  cu_u32 r = cu_affine(b % P->cs, 1, P->roff[P->role_cta[k]], P->cs);
  *B = q * P->cs + r;
  *lane = cu_affine(l, P->lmul, P->loff[k], P->T);
}

/* The home CTA b of the instances whose role k runs on logical CTA B. */
CU_FN cu_u32 cu_role_home(const cu_launch *P, cu_u32 k, cu_u32 B) {
  cu_u32 q = cu_unaffine(B / P->cs, P->cmul_inv, P->coff[P->role_cl[k]], P->ntest_clusters);
  cu_u32 r = cu_unaffine(B % P->cs, 1, P->roff[P->role_cta[k]], P->cs);
  return q * P->cs + r;
}

/* The instance whose role k the thread (B, lane) plays. */
CU_FN cu_u32 cu_role_instance(const cu_launch *P, cu_u32 k, cu_u32 B, cu_u32 lane) {
  cu_u32 l = cu_unaffine(lane, P->lmul_inv, P->loff[k], P->T);
  return cu_role_home(P, k, B) * P->T + l;
}

/* ---- locations -------------------------------------------------------------------- */

/* The word index of global location g of instance i in `mem`.  Apart
 * (loc_offset 0): each location has an array of ninst slots of its own,
 * permuted differently.  Together (0 < loc_offset <= stride): an
 * instance's locations are loc_offset words apart in one slot of
 * nglobal * stride words, so that they share a cache line when
 * nglobal * loc_offset words fit in one. */
CU_FN cu_u64 cu_loc_word(const cu_launch *P, cu_u32 g, cu_u32 i) {
  if (P->loc_offset)
    return (cu_u64)cu_affine(i, P->pmul, P->padd[0], P->ninst) * P->nglobal * P->stride + (cu_u64)g * P->loc_offset;
  return ((cu_u64)g * P->ninst + cu_affine(i, P->pmul, P->padd[g], P->ninst)) * P->stride;
}

/* Shared locations of the roles of litmus CTA a live in their CTA, slot
 * i % T: all those roles run in one CTA, and the slot tells instances of
 * that CTA apart. */
CU_FN cu_u32 cu_shared_slot(const cu_launch *P, cu_u32 s, cu_u32 i) {
  return (s * P->T + i % P->T) * P->sstride;
}

/* ---- outcomes --------------------------------------------------------------------- */

/* The position of v in the sorted domain dom[0..n), or n when absent. */
CU_FN cu_u32 cu_digit(const cu_i64 *dom, cu_u32 n, cu_i64 v) {
  cu_u32 lo = 0, hi = n;
  while (lo < hi) {
    cu_u32 mid = lo + (hi - lo) / 2;
    if (dom[mid] < v) lo = mid + 1; else hi = mid;
  }
  return lo < n && dom[lo] == v ? lo : n;
}

/* The dense bin of outcome v[0..n): digits in mixed radix, observable 0
 * least significant.  Returns 0 when some value is outside its domain. */
CU_FN int cu_dense_index(const cu_launch *P, const cu_i64 *dom, const cu_i64 *v, cu_u32 n, cu_u32 *bin) {
  cu_u32 idx = 0, scale = 1;
  if (!P->ndense) return 0;
  for (cu_u32 j = 0; j < n; j++) {
    cu_u32 d = cu_digit(dom + P->dom_off[j], P->dom_len[j], v[j]);
    if (d == P->dom_len[j]) return 0;
    idx += d * scale;
    scale *= P->dom_len[j];
  }
  *bin = idx;
  return 1;
}

/* The inverse: the values of dense bin `bin`. */
CU_FN void cu_dense_values(const cu_launch *P, const cu_i64 *dom, cu_u32 bin, cu_u32 n, cu_i64 *v) {
  for (cu_u32 j = 0; j < n; j++) {
    v[j] = dom[P->dom_off[j] + bin % P->dom_len[j]];
    bin /= P->dom_len[j];
  }
}

CU_FN int cu_bit(const cu_u32 *bits, cu_u32 i) { return (int)((bits[i / 32] >> (i % 32)) & 1u); }

/* Never 0: 0 marks a free entry of the out-of-domain table. */
CU_FN cu_u64 cu_outcome_hash(const cu_i64 *v, cu_u32 n) {
  cu_u64 h = 0x243f6a8885a308d3ull;
  for (cu_u32 j = 0; j < n; j++) {
    cu_u64 s = h ^ (cu_u64)v[j];
    h = cu_splitmix64(&s);
  }
  return h | 1u;
}

/* Record sizes, in u64 words. */
CU_FN cu_u32 cu_hash_entry_words(cu_u32 nshown) { return 2 + nshown; }
CU_FN cu_u32 cu_sample_words(cu_u32 nshown, cu_u32 nroles) { return 2 + nshown + nroles; }

#endif
