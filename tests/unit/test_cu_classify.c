/* test_cu_classify.c - the classify kernel that litmus-run generates, compiled
 * as C with the host's compiler and run on the host: given the registers
 * and final values a test launch would leave, it must put each instance in
 * the right dense bin (or, outside the domains, in the right hash-table
 * entry with its values) and reset every location to its initial value.
 * Slots the test launch did not write still hold the poison the classify
 * kernel leaves after reading: such instances are counted apart, and every
 * slot is poisoned again.  Broken variants (a shifted dense index, a hash
 * of the first value only, a wrong reset value, no poison) must be caught.
 * SPDX-License-Identifier: MIT
 *
 * The expected bins are worked out here from the sorted domains, not with
 * cu_dense_index; the reset is checked by counting initial values in each
 * location's block of memory, not through cu_loc_word.
 */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "cu_testlib.h"

/* Stand-ins for the CUDA built-ins the classify kernel calls: one thread
 * per block, blocks one after the other, so shared memory is a global
 * array and atomics are plain arithmetic. */
static const char shim[] =
  "#include <stdbool.h>\n"
  "#define CU_PRELUDE\n"
  "#define __shared__\n"
  "#define CU_DEV static inline\n"
  "#define CU_GLOBAL void\n"
  "typedef struct { unsigned x; } cu_dim;\n"
  "cu_dim threadIdx, blockIdx, blockDim, gridDim;\n"
  "cu_u32 cu_cls[1 << 16];\n"
  "static inline cu_u32 cu_add32(cu_u32 *p, cu_u32 v) { cu_u32 o = *p; *p += v; return o; }\n"
  "static inline cu_u64 cu_add64(cu_u64 *p, cu_u64 v) { cu_u64 o = *p; *p += v; return o; }\n"
  "#define atomicAdd(p, v) _Generic((p), cu_u32 *: cu_add32, cu_u64 *: cu_add64)((p), (v))\n"
  "static inline cu_u64 atomicCAS(cu_u64 *p, cu_u64 c, cu_u64 v) { cu_u64 o = *p; if (o == c) *p = v; return o; }\n"
  "#define __activemask() 1u\n"
  "#define __match_any_sync(m, v) 1u\n"
  "#define __ffs(x) __builtin_ffs((int)(x))\n"
  "#define __popc(x) __builtin_popcount(x)\n"
  "#define __syncthreads() ((void)0)\n";

static const char driver[] =
  "void cu_host_classify(const cu_launch *P, unsigned grid) {\n"
  "  gridDim.x = grid;\n"
  "  blockDim.x = 1;\n"
  "  threadIdx.x = 0;\n"
  "  for (blockIdx.x = 0; blockIdx.x < grid; blockIdx.x++) cu_classify(*P);\n"
  "}\n";

typedef void (*mutation)(lc_buf *src);
typedef void (*classify_fn)(const cu_launch *P, unsigned grid);

static void replace_first(lc_buf *b, const char *from, const char *to) {
  char *hit = strstr(b->s, from);
  assert_non_null(hit);
  lc_buf o;
  lc_buf_init(&o);
  lc_buf_putn(&o, b->s, (size_t)(hit - b->s));
  lc_buf_puts(&o, to);
  lc_buf_puts(&o, hit + strlen(from));
  lc_buf_fini(b);
  *b = o;
}

/* Compiles the classify kernel of pl (mutated) into a shared object. */
static void *compile(const cu_plan *pl, mutation mutate, classify_fn *fn) {
  lc_buf src;
  lc_buf_init(&src);
  lc_buf_puts(&src, cu_map_text);
  lc_buf_puts(&src, shim);
  cu_gen_classify_prelude(&src);
  lc_buf_puts(&src, "#define CU_CLASSIFY_ONLY\n");
  cu_gen_body(&src, pl);
  lc_buf_puts(&src, driver);
  if (mutate) mutate(&src);
  char dir[] = "/tmp/test_cu_classify.XXXXXX";
  assert_non_null(mkdtemp(dir));
  char c[64], so[64];
  snprintf(c, sizeof c, "%s/k.c", dir);
  snprintf(so, sizeof so, "%s/k.so", dir);
  FILE *f = fopen(c, "w");
  assert_non_null(f);
  fputs(src.s, f);
  fclose(f);
  lc_buf_fini(&src);
  const char *cc = getenv("CC") && *getenv("CC") ? getenv("CC") : "cc";
  char cmd[512];
  snprintf(cmd, sizeof cmd, "%s -std=c11 -O1 -shared -fPIC -w -o %s %s", cc, so, c);
  int st = system(cmd);
  void *h = st == 0 ? dlopen(so, RTLD_NOW | RTLD_LOCAL) : NULL;
  unlink(c);
  unlink(so);
  rmdir(dir);
  if (!h) fail_msg("cannot compile the classify kernel as C (%s)", cmd);
  void *p = dlsym(h, "cu_host_classify");
  assert_non_null(p);
  memcpy(fn, &p, sizeof *fn);
  return h;
}

/* ---- a launch's worth of instances ---------------------------------------------- */

typedef struct harness {
  cu_fixture f;
  cu_plan *pl;
  cu_launch P;
  cu_domains dm;
  uint64_t *mem, *regs, *fin, *hist, *hash, *counters;   /* word-sized storage, used as u32 or u64 */
  uint32_t *cut, sync, allowed[64];
  size_t wsize;
} harness;

static void setup_launch(harness *h, const char *text) {
  assert_non_null(fx_load(&h->f, text));
  h->pl = cu_plan_new(h->f.p, &h->f.d);
  assert_non_null(h->pl);
  cu_launch *P = &h->P;
  memset(P, 0, sizeof *P);
  cu_launch_roles(P, h->pl);
  for (cu_u32 k = 0; k < P->nroles; k++) P->role_cl[k] = P->role_cta[k];
  cu_shape shape = {4, 1, 4, 8, true};
  assert_int_equal(cu_launch_draw(P, &shape, 12345, 3), 0);
  cu_domains_build(&h->dm, h->f.p, NULL);
  for (size_t j = 0; j < h->dm.nshown; j++) P->dom_off[j] = h->dm.off[j], P->dom_len[j] = h->dm.len[j];
  P->ndense = (cu_u32)h->dm.ndense;
  P->shared_hist = 1;
  P->word = (cu_u32)(h->pl->width / 8);
  P->stride = P->sstride = 2;
  P->hash_cap = 64;
  P->phase = 1;
  h->wsize = P->word;
  size_t n = P->ninst;
  h->mem = calloc((size_t)P->nglobal * n * P->stride + 1, 8);
  h->regs = calloc((size_t)h->pl->nregout * n + 1, 8);
  h->fin = calloc((size_t)h->pl->nfin * n + 1, 8);
  h->cut = calloc((size_t)h->pl->ncut * n + 1, 4);
  h->hist = calloc(P->ndense + 1, 8);
  h->hash = calloc((size_t)P->hash_cap * cu_hash_entry_words(P->nshown), 8);
  h->counters = calloc(CU_NCOUNTERS, 8);
  P->mem = (cu_u64)(uintptr_t)h->mem;
  P->regs = (cu_u64)(uintptr_t)h->regs;
  P->fin = (cu_u64)(uintptr_t)h->fin;
  P->cut = (cu_u64)(uintptr_t)h->cut;
  P->sync = (cu_u64)(uintptr_t)&h->sync;
  P->hist = (cu_u64)(uintptr_t)h->hist;
  P->allowed = (cu_u64)(uintptr_t)h->allowed;
  P->dom = (cu_u64)(uintptr_t)h->dm.values;
  P->hash = (cu_u64)(uintptr_t)h->hash;
  P->counters = (cu_u64)(uintptr_t)h->counters;
}

static void teardown_launch(harness *h) {
  free(h->mem), free(h->regs), free(h->fin), free(h->cut), free(h->hist), free(h->hash), free(h->counters);
  cu_domains_fini(&h->dm);
  cu_plan_free(h->pl);
  fx_free(&h->f);
}

static void put_word(const harness *h, uint64_t *base, size_t idx, int64_t v) {
  if (h->wsize == 8) base[idx] = (uint64_t)v;
  else ((uint32_t *)base)[idx] = (uint32_t)v;
}

static int64_t get_word(const harness *h, const uint64_t *base, size_t idx) {
  return h->wsize == 8 ? (int64_t)base[idx] : (int64_t)(int32_t)((const uint32_t *)base)[idx];
}

/* Instance i's outcome: values of the domains in mixed order (the first
 * outcome more often than the others), and every
 * seventh instance one outside them (same first value, three second ones,
 * so that a hash of the first value alone merges them). */
static bool outcome(const harness *h, cu_u32 i, int64_t *v) {
  bool out = i % 7 == 6;
  cu_u32 r = i % 3 == 0 ? 0 : i;   /* uneven, so that a shifted bin shows */
  for (size_t j = 0; j < h->dm.nshown; j++) {
    v[j] = h->dm.values[h->dm.off[j] + r % h->dm.len[j]];
    r /= h->dm.len[j];
  }
  if (out) {
    v[0] = 1000;
    if (h->dm.nshown > 1) v[1] = 2000 + i % 3;
  }
  return out;
}

/* Instances the test kernel "missed": their first register or final slot
 * still holds the poison the classify kernel left there. */
static bool missed(const harness *h, cu_u32 i) {
  if (i % 11 != 5) return false;
  for (size_t j = 0; j < h->f.p->nshown; j++)
    if (h->pl->obs_reg[j] >= 0 || h->pl->obs_fin[j] >= 0) return true;
  return false;
}

/* Registers and finals where the test kernel leaves them; the rest of
 * the location memory garbage, so that only a reset makes it initial. */
static void fill(harness *h) {
  const lx_program *p = h->f.p;
  size_t words = (size_t)h->P.nglobal * h->P.ninst * h->P.stride;
  for (size_t w = 0; w < words; w++) put_word(h, h->mem, w, 0x5a5a5a5 + (int64_t)w);
  for (cu_u32 i = 0; i < h->P.ninst; i++) {
    int64_t v[CU_MAX_SHOWN];
    outcome(h, i, v);
    bool poison = missed(h, i);
    for (size_t j = 0; j < p->nshown; j++) {
      if (poison && (h->pl->obs_reg[j] >= 0 || h->pl->obs_fin[j] >= 0)) {
        v[j] = h->wsize == 8 ? (int64_t)(uint64_t)CU_POISON : (int64_t)(int32_t)(uint32_t)CU_POISON;
        poison = false;
      }
      if (h->pl->obs_reg[j] >= 0) put_word(h, h->regs, (size_t)h->pl->obs_reg[j] * h->P.ninst + i, v[j]);
      else if (h->pl->obs_fin[j] >= 0) put_word(h, h->fin, (size_t)h->pl->obs_fin[j] * h->P.ninst + i, v[j]);
      else put_word(h, h->mem, cu_loc_word(&h->P, (cu_u32)h->pl->gidx[p->obs[j].ploc], i), v[j]);
    }
  }
}

/* The dense bin of v, from the sorted domains; false outside them. */
static bool expected_bin(const harness *h, const int64_t *v, uint64_t *bin) {
  uint64_t b = 0, scale = 1;
  for (size_t j = 0; j < h->dm.nshown; j++) {
    size_t pos = h->dm.len[j];
    for (size_t x = 0; x < h->dm.len[j]; x++)
      if (h->dm.values[h->dm.off[j] + x] == v[j]) pos = x;
    if (pos == h->dm.len[j]) return false;
    b += pos * scale;
    scale *= h->dm.len[j];
  }
  *bin = b;
  return true;
}

static uint64_t hashed_count(const harness *h, const int64_t *v) {
  size_t w = cu_hash_entry_words(h->P.nshown);
  for (size_t e = 0; e < h->P.hash_cap; e++) {
    const uint64_t *ent = h->hash + e * w;
    if (ent[0] && memcmp(ent + 2, v, h->P.nshown * sizeof *v) == 0) return ent[1];
  }
  return 0;
}

/* NULL when the classify kernel counted and reset right, else what is wrong. */
static const char *verify(harness *h) {
  const lx_program *p = h->f.p;
  uint64_t *want = calloc(h->P.ndense + 1, 8), nout = 0, nmissed = 0;
  const char *why = NULL;
  for (cu_u32 i = 0; i < h->P.ninst; i++) {
    int64_t v[CU_MAX_SHOWN];
    uint64_t b;
    if (missed(h, i)) nmissed++;
    else if (outcome(h, i, v)) nout++;
    else if (expected_bin(h, v, &b)) want[b]++;
  }
  for (uint64_t b = 0; b < h->P.ndense && !why; b++)
    if (want[b] != h->hist[b]) why = "a dense bin's count";
  if (!why && h->counters[CU_CNT_HASHED] != nout) why = "the count of outcomes outside the domains";
  if (!why && h->counters[CU_CNT_UNWRITTEN] != nmissed) why = "the count of unwritten instances";
  for (cu_u32 i = 0; i < h->P.ninst && !why; i++) {
    int64_t v[CU_MAX_SHOWN];
    if (missed(h, i) || !outcome(h, i, v)) continue;
    uint64_t same = 0;
    for (cu_u32 x = 0; x < h->P.ninst; x++) {
      int64_t u[CU_MAX_SHOWN];
      if (!missed(h, x) && outcome(h, x, u) && memcmp(u, v, h->P.nshown * sizeof *v) == 0) same++;
    }
    if (hashed_count(h, v) != same) why = "a hash-table entry (values or count)";
  }
  /* every register and final slot is poisoned for the next launch */
  for (size_t w = 0; w < (size_t)h->pl->nregout * h->P.ninst && !why; w++)
    if ((uint32_t)get_word(h, h->regs, w) != (uint32_t)CU_POISON) why = "the poisoning of a register slot";
  for (size_t w = 0; w < (size_t)h->pl->nfin * h->P.ninst && !why; w++)
    if ((uint32_t)get_word(h, h->fin, w) != (uint32_t)CU_POISON) why = "the poisoning of a final slot";
  /* every location's block holds ninst initial values after the reset */
  for (size_t l = 0; l < p->nplocs && !why; l++) {
    int g = h->pl->gidx[l];
    if (g < 0) continue;
    size_t n = 0, words = (size_t)h->P.ninst * h->P.stride;
    for (size_t w = 0; w < words; w++) n += get_word(h, h->mem, (size_t)g * words + w) == p->plocs[l].init;
    if (n != h->P.ninst) why = "the reset of a location";
  }
  free(want);
  return why;
}

static const char *classify(const char *text, mutation mutate) {
  harness h;
  setup_launch(&h, text);
  classify_fn fn;
  void *so = compile(h.pl, mutate, &fn);
  fill(&h);
  fn(&h.P, 3);
  const char *why = verify(&h);
  dlclose(so);
  teardown_launch(&h);
  return why;
}

static const char *const mp =
  "PTX MP\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
  " st.weak x, 1 | ld.weak r0, y ;\n st.weak y, 1 | ld.weak r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n";
/* finals of global locations, 64-bit values, a shared location's final */
static const char *const finals =
  "PTX W\n{ x=3; y=5000000000; s=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
  " st.weak x, 1 | st.weak y, 2 ;\n st.relaxed.cta s, 1 | st.weak x, 2 ;\ns: shared\n"
  "exists (x == 1 /\\ y == 2 /\\ s == 1)\n";

static void test_classify_counts_and_resets(void **state) {
  (void)state;
  const char *why = classify(mp, NULL);
  if (why) fail_msg("MP: wrong %s", why);
  why = classify(finals, NULL);
  if (why) fail_msg("finals: wrong %s", why);
}

static void shift_dense_index(lc_buf *s) {
  replace_first(s, "cu_dense_index(P, (const cu_i64 *)P->dom, v, n, &bin)",
                "cu_dense_index(P, (const cu_i64 *)P->dom, v, n, &bin) && (bin = (bin + 1) % P->ndense, true)");
}
static void hash_first_value(lc_buf *s) { replace_first(s, "cu_outcome_hash(v, n)", "cu_outcome_hash(v, 1)"); }
static void wrong_reset(lc_buf *s) { replace_first(s, "= (cu_word)0LL;  // y", "= (cu_word)7LL;  // y"); }
static void no_poison(lc_buf *s) { replace_first(s, "= (cu_word)CU_POISON;", "= (cu_word)0;"); }

static void test_classify_catches_broken_kernels(void **state) {
  (void)state;
  const char *why = classify(mp, shift_dense_index);
  assert_non_null(why);
  assert_string_equal(why, "a dense bin's count");
  why = classify(mp, hash_first_value);
  assert_non_null(why);
  assert_string_equal(why, "a hash-table entry (values or count)");
  why = classify(mp, wrong_reset);
  assert_non_null(why);
  assert_string_equal(why, "the reset of a location");
  why = classify(mp, no_poison);
  assert_non_null(why);
  assert_string_equal(why, "the poisoning of a register slot");
}

/* A looping role's cut word: a stopped instance is counted cut (and late
 * when the deadline stopped it), in no bin; one beyond the unroll bound is
 * counted under the salted hash of its outcome, never in a dense bin. */
static const char *const spin =
  "PTX S\n{ f=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
  " st.relaxed.gpu f, 1 | LC00: ;\n | ld.relaxed.gpu r0, f ;\n | beq r0, 0, LC00 ;\n"
  "exists (P1:r0 == 1)\n";

static uint32_t cut_word(cu_u32 i) {
  static const uint32_t words[] = {0, CU_CUT_BEYOND, CU_CUT_STOPPED, CU_CUT_STOPPED | CU_CUT_LATE,
                                   CU_CUT_BEYOND | CU_CUT_STOPPED};
  return words[i % 5];
}

static void test_classify_cut_and_beyond(void **state) {
  (void)state;
  harness h;
  setup_launch(&h, spin);
  assert_int_equal(h.pl->ncut, 1);
  classify_fn fn;
  void *so = compile(h.pl, NULL, &fn);
  fill(&h);
  for (cu_u32 i = 0; i < h.P.ninst; i++) h.cut[i] = cut_word(i);
  fn(&h.P, 3);
  uint64_t cut = 0, late = 0, beyond = 0, counted = 0, dense = 0, salted = 0;
  for (cu_u32 i = 0; i < h.P.ninst; i++) {
    if (missed(&h, i)) continue;
    uint32_t c = cut_word(i);
    cut += (c & CU_CUT_STOPPED) != 0;
    late += (c & CU_CUT_LATE) != 0;
    beyond += c == CU_CUT_BEYOND;
    counted += !(c & CU_CUT_STOPPED);
  }
  for (cu_u32 b = 0; b < h.P.ndense; b++) dense += h.hist[b];
  size_t w = cu_hash_entry_words(h.P.nshown);
  for (size_t e = 0; e < h.P.hash_cap; e++) {
    const uint64_t *ent = h.hash + e * w;
    if (ent[0] && ent[0] == (cu_outcome_hash((const cu_i64 *)(ent + 2), h.P.nshown) ^ CU_BEYOND_SALT))
      salted += ent[1];
  }
  assert_int_equal(h.counters[CU_CNT_CUT], cut);
  assert_int_equal(h.counters[CU_CNT_LATE], late);
  assert_int_equal(salted, beyond);
  assert_int_equal(dense + h.counters[CU_CNT_HASHED], counted);
  assert_true(beyond > 0 && late > 0);
  dlclose(so);
  teardown_launch(&h);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_classify_counts_and_resets),
    cmocka_unit_test(test_classify_cut_and_beyond),
    cmocka_unit_test(test_classify_catches_broken_kernels),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
