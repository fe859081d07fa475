/* test_enum_sym.c - symmetry between twin threads and twin CTAs: found
 * where a swap maps the program onto itself, refused where it does not
 * (observed differently, placed apart, different locations, values or
 * scopes), and never changing an answer (the search with it against the
 * search without, and against the SMT engine): also where the sources of
 * reads are chosen up to it, on random tests of twins and on the shapes
 * it is for.
 * SPDX-License-Identifier: MIT
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>
#include <z3.h>

#include "enum/enum_int.h"
#include "enum_fixture.h"
#include "kernel/kernel.h"

/* A test from text: a kernel when `kernel`, else litmus (PTX or CUDA). */
static bool parse_any(fx_test *x, const char *text, bool kernel) {
  if (!kernel) return fx_parse(x, text);
  memset(x, 0, sizeof *x);
  lc_source_from_string(&x->src, "test.cu", text, strlen(text));
  lc_diag d;
  lc_diag_init(&d, &x->src, stderr);
  kn_options ko;
  memset(&ko, 0, sizeof ko);
  x->t = kn_read(&x->src, &ko, &d);
  if (x->t) x->p = lx_lower(x->t, NULL, &d);
  lc_diag_fini(&d);
  return x->p != NULL;
}

typedef struct sym_shape {
  size_t gens;
  int before[8], cta_before[8];
} sym_shape;

/* The symmetry found, and the answer with it equal to the answer without
 * it (no pruning, no symmetry) and to the SMT engine's. */
static sym_shape check(const char *text, bool kernel, const char *model) {
  fx_test x;
  assert_true(parse_any(&x, text, kernel));
  sym_shape z = {0, {0}, {0}};
  for (int i = 0; i < 8; i++) z.before[i] = z.cta_before[i] = -1;
  enum_sym *s = enum_sym_new(x.p);
  if (s) {
    z.gens = s->ngens;
    for (size_t t = 0; t < x.p->nthreads && t < 8; t++) {
      z.before[t] = s->before[t];
      z.cta_before[t] = s->cta_before ? s->cta_before[t] : -1;
    }
  }
  enum_sym_free(s);
  cat_model *m = fx_model(model);
  assert_non_null(m);
  enum_options with = {0, true, false, true}, without = {0, true, true, true};
  lc_result *a = enum_check(x.p, m, &with), *b = enum_check(x.p, m, &without);
  smt_options so = {0, true, 1, true};
  lc_result *c = smt_check(x.p, m, &so);
  assert_int_equal(a->status, LC_RESULT_OK);
  assert_true(fx_same(a, b));
  assert_true(fx_same(a, c));
  for (size_t f = 0; f < a->nflags; f++) {   /* every racy pair, not only the flag */
    assert_int_equal(a->flags[f].npairs, b->flags[f].npairs);
    assert_int_equal(a->flags[f].npairs, c->flags[f].npairs);
  }
  lc_result_free(a);
  lc_result_free(b);
  lc_result_free(c);
  cat_model_free(m);
  fx_free(&x);
  return z;
}

#define CPP_HEAD "CUDA T\n{\n [x] = 0;\n [y] = 0;\n}\n"

/* Two threads of one CTA adding to one counter: twins. */
static void test_cpp_twins(void **state) {
  (void)state;
  sym_shape z = check(CPP_HEAD
                      "P0@cta 0,gpu 0 (int* x) {\n atomicAdd(x, 1);\n}\n"
                      "P1@cta 0,gpu 0 (int* x) {\n atomicAdd(x, 1);\n}\n"
                      "exists ([x] == 2)\n",
                      false, "cuda-cpp");
  assert_int_equal(z.gens, 1);
  assert_int_equal(z.before[1], 0);
}

/* The same threads, one's result observed and the other's not: the swap
 * would move an observed register onto one nobody shows. */
static void test_cpp_observed_differently(void **state) {
  (void)state;
  sym_shape z = check(CPP_HEAD
                      "P0@cta 0,gpu 0 (int* x) {\n int r0 = atomicAdd(x, 1);\n}\n"
                      "P1@cta 0,gpu 0 (int* x) {\n int r0 = atomicAdd(x, 1);\n}\n"
                      "exists (0:r0 == 1)\n",
                      false, "cuda-cpp");
  assert_int_equal(z.gens, 0);
}

/* Both observed: twins, the swap exchanging their registers. */
static void test_cpp_observed_alike(void **state) {
  (void)state;
  sym_shape z = check(CPP_HEAD
                      "P0@cta 0,gpu 0 (int* x) {\n int r0 = atomicAdd(x, 1);\n}\n"
                      "P1@cta 0,gpu 0 (int* x) {\n int r0 = atomicAdd(x, 1);\n}\n"
                      "exists (0:r0 == 1 /\\ 1:r0 == 0)\n",
                      false, "cuda-cpp");
  assert_int_equal(z.gens, 1);
}

/* Alike code, placed apart: P0 and P2 run the same block-scope code but
 * in different CTAs whose other threads differ, so neither the threads nor
 * the CTAs are twins (a block-scope atomic means something else across
 * CTAs). */
static void test_cpp_placed_apart(void **state) {
  (void)state;
  sym_shape z = check(CPP_HEAD
                      "P0@cta 0,gpu 0 (int* x) {\n atomicAdd_block(x, 1);\n}\n"
                      "P1@cta 0,gpu 0 (int* y) {\n atomicAdd(y, 1);\n}\n"
                      "P2@cta 1,gpu 0 (int* x) {\n atomicAdd_block(x, 1);\n}\n"
                      "exists ([x] == 2)\n",
                      false, "cuda-cpp");
  assert_int_equal(z.gens, 0);
}

/* Alike but for the scope of the atomic: no twins. */
static void test_cpp_other_scope(void **state) {
  (void)state;
  sym_shape z = check(CPP_HEAD
                      "P0@cta 0,gpu 0 (int* x) {\n atomicAdd_block(x, 1);\n}\n"
                      "P1@cta 0,gpu 0 (int* x) {\n atomicAdd(x, 1);\n}\n"
                      "exists ([x] == 2)\n",
                      false, "cuda-cpp");
  assert_int_equal(z.gens, 0);
}

/* Kernels: threads differ by threadIdx only. */
#define KERNEL(launch, body)                                            \
  "// @Launch: <<<" launch ">>>\n// @Input: x = {0, 0}\n"              \
  "// @Output: exists (x[0] == 2)\n"                                    \
  "__global__ void k(int *x) {\n" body "}\n"

/* threadIdx chooses between two copies of the same code: twins. */
static void test_kernel_same_code(void **state) {
  (void)state;
  sym_shape z = check(KERNEL("1, 2", " if (threadIdx.x == 0)\n  atomicAdd(x, 1);\n else\n  atomicAdd(x, 1);\n"), true,
                      "cuda-cpp");
  assert_int_equal(z.gens, 1);
}

/* threadIdx reaches the address: no twins (locations are never renamed). */
static void test_kernel_index(void **state) {
  (void)state;
  sym_shape z = check(KERNEL("1, 2", " atomicAdd(&x[threadIdx.x], 1);\n"), true, "cuda-cpp");
  assert_int_equal(z.gens, 0);
}

/* threadIdx reaches the value written: no twins. */
static void test_kernel_value(void **state) {
  (void)state;
  sym_shape z = check(KERNEL("1, 2", " atomicAdd(x, threadIdx.x + 1);\n"), true, "cuda-cpp");
  assert_int_equal(z.gens, 0);
}

/* Two blocks of one thread running the same code: twin CTAs, swapped
 * whole; with two threads each, twins in each block and the blocks
 * twins. */
static void test_kernel_twin_blocks(void **state) {
  (void)state;
  sym_shape z = check(KERNEL("2, 1", " atomicAdd(x, 1);\n"), true, "cuda-cpp");
  assert_int_equal(z.gens, 1);
  assert_int_equal(z.cta_before[1], 0);
  z = check(KERNEL("2, 2", " atomicAdd(x, 1);\n"), true, "cuda-cpp");
  assert_int_equal(z.gens, 3);
  assert_int_equal(z.before[1], 0);
  assert_int_equal(z.before[3], 2);
  assert_int_equal(z.cta_before[2], 0);
}

/* Blocks alike but for blockIdx reaching the address: no twin CTAs. */
static void test_kernel_blocks_apart(void **state) {
  (void)state;
  sym_shape z = check(KERNEL("2, 1", " atomicAdd(&x[blockIdx.x], 1);\n"), true, "cuda-cpp");
  assert_int_equal(z.gens, 0);
}

/* Block-scope atomics in each block's own thread pair: the threads of a
 * block are twins, and the blocks too (each pair keeps its scope). */
static void test_kernel_block_scope(void **state) {
  (void)state;
  sym_shape z = check(KERNEL("2, 2", " int v = atomicAdd_block(x, 1);\n if (v == 3)\n  atomicAdd(&x[1], 1);\n"), true,
                      "cuda-cpp");
  assert_int_equal(z.gens, 3);
}

/* Twins in twin blocks racing on a plain store, the final value of x[1]
 * observed: the states and every racy pair the same with the swaps as
 * without them, and as the SMT engine's. */
static void test_kernel_racy_twins(void **state) {
  (void)state;
  sym_shape z = check("// @Launch: <<<2, 2>>>\n// @Input: x = {0, 0}\n"
                      "// @Output: exists (x[0] == 4 && x[1] == 0)\n"
                      "__global__ void k(int *x) {\n int v = atomicAdd(x, 1);\n x[1] = v;\n}\n",
                      true, "cuda-cpp");
  assert_int_equal(z.gens, 3);
}

/* A PTX test: two readers alike but one's registers observed. */
static void test_ptx_observed_differently(void **state) {
  (void)state;
  sym_shape z = check("PTX T\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 | P2@cta 0,gpu 0 ;\n"
                      " st.relaxed.gpu x, 1 | ld.relaxed.gpu r0, x | ld.relaxed.gpu r0, x ;\n"
                      "exists (P1:r0 == 1)\n",
                      false, "ptx-v7.5");
  assert_int_equal(z.gens, 0);
}

/* ---- sources of reads chosen up to symmetry --------------------------------- */

static bool no_state(void *ctx, const lx_val *obs) {
  (void)ctx, (void)obs;
  return false;
}

/* The explicit engine's answer with the swaps of twins (the sources of
 * reads chosen up to them, states and racy pairs added with their images)
 * and without any (a state hook turns them off and nothing else), on the
 * test of `text`: the same states, racy pairs and bound.  Returns the
 * number of swaps found, for the caller to know symmetry was exercised. */
static size_t same_with_and_without(const char *text, const char *model) {
  fx_test x;
  if (!fx_parse(&x, text)) fail_msg("does not parse:\n%s", text);
  cat_model *m = fx_model(model);
  assert_non_null(m);
  enum_sym *s = enum_sym_new(x.p);
  size_t gens = s ? s->ngens : 0;
  enum_sym_free(s);
  enum_options o = {0, true, false, true};
  lc_state_hook hook;
  memset(&hook, 0, sizeof hook);
  hook.state = no_state;
  lc_result *a = enum_check(x.p, m, &o), *b = enum_check_hooked(x.p, m, &o, &hook);
  assert_int_equal(a->status, LC_RESULT_OK);
  if (!fx_same(a, b)) fail_msg("%zu states with the swaps, %zu without, for:\n%s", a->nstates, b->nstates, text);
  for (size_t f = 0; f < a->nflags; f++) assert_int_equal(a->flags[f].npairs, b->flags[f].npairs);
  lc_result_free(a);
  lc_result_free(b);
  cat_model_free(m);
  fx_free(&x);
  return gens;
}

typedef struct rng {
  uint64_t v;
} rng;

static unsigned pick(rng *r, unsigned n) {
  r->v = r->v * 6364136223846793005u + 1442695040888963407u;
  return (unsigned)(r->v >> 33) % n;
}

/* A random test whose threads come in classes of copies: 2 to 3 kinds of
 * thread of 1 to 3 instructions (loads, stores, an atomic add, fences of
 * any scope) over x and y, each kind copied 1 to 3 times; each copy in a
 * CTA of its own or all of a kind in one; every register and location
 * observed, or (one test in four) a single copy's first register, which
 * breaks its class's symmetry. */
static void random_twins(rng *r, lc_buf *b) {
  static const char *const scopes[] = {"cta", "gpu", "sys"};
  static const char *const locs[] = {"x", "y"};
  char code[3][3][64];
  unsigned nkinds = 2 + pick(r, 2), len[3], copies[3], nregs[3], nt = 0, nevents = 0;
  for (unsigned k = 0; k < nkinds; k++) {
    /* at most 10 instructions in all: the search without the swaps
     * stays under a second */
    do {
      len[k] = 1 + pick(r, 3);
      copies[k] = 1 + pick(r, k == 0 ? 3 : 2);
    } while (nevents + len[k] * copies[k] > 10 - (nkinds - 1 - k));
    nevents += len[k] * copies[k];
    nregs[k] = 0;
    for (unsigned i = 0; i < len[k]; i++) {
      const char *sc = scopes[pick(r, 3)], *l = locs[pick(r, 2)];
      switch (pick(r, 6)) {
      case 0: snprintf(code[k][i], sizeof code[k][i], "st.%s.%s %s, %u", pick(r, 2) ? "relaxed" : "release", sc, l, 1 + pick(r, 2)); break;
      case 1:
      case 2: snprintf(code[k][i], sizeof code[k][i], "ld.%s.%s r%u, %s", pick(r, 2) ? "relaxed" : "acquire", sc, nregs[k]++, l); break;
      case 3: snprintf(code[k][i], sizeof code[k][i], "atom.relaxed.%s.add r%u, %s, 1", sc, nregs[k]++, l); break;
      case 4: snprintf(code[k][i], sizeof code[k][i], "fence.sc.%s", sc); break;
      default: snprintf(code[k][i], sizeof code[k][i], "fence.acq_rel.%s", sc); break;
      }
    }
    nt += copies[k];
  }
  bool shared_cta = pick(r, 2), one_observed = pick(r, 4) == 0;
  lc_buf_printf(b, "PTX T\n{ x=0; y=0; }\n");
  unsigned t = 0, rows = 0;
  for (unsigned k = 0; k < nkinds; k++) {
    rows = len[k] > rows ? len[k] : rows;
    for (unsigned c = 0; c < copies[k]; c++, t++)
      lc_buf_printf(b, "%s P%u@cta %u,gpu 0", t ? " |" : "", t, shared_cta ? k : t);
  }
  lc_buf_printf(b, " ;\n");
  for (unsigned i = 0; i < rows; i++) {
    t = 0;
    for (unsigned k = 0; k < nkinds; k++)
      for (unsigned c = 0; c < copies[k]; c++, t++) lc_buf_printf(b, "%s %s", t ? " |" : "", i < len[k] ? code[k][i] : "");
    lc_buf_printf(b, " ;\n");
  }
  lc_buf_printf(b, "locations [x; y;");
  t = 0;
  bool named = false;
  for (unsigned k = 0; k < nkinds; k++)
    for (unsigned c = 0; c < copies[k]; c++, t++)
      for (unsigned g = 0; g < nregs[k]; g++) {
        if (one_observed && (named || g)) continue;
        lc_buf_printf(b, " P%u:r%u;", t, g);
        named = true;
      }
  lc_buf_printf(b, "]\nexists (x == 1)\n");
}

/* Many random tests of twins: the same answers with the swaps as without
 * them, under the PTX model and under SC. */
static void test_random_twins(void **state) {
  (void)state;
  rng r = {20261127};
  size_t with_swaps = 0;
  for (int i = 0; i < 120; i++) {
    lc_buf b;
    lc_buf_init(&b);
    random_twins(&r, &b);
    with_swaps += same_with_and_without(b.s, i % 4 == 3 ? "sc" : "ptx-v7.5") > 0;
    lc_buf_fini(&b);
  }
  assert_true(with_swaps > 60);
}

/* The shapes the symmetry is for, each with its readers (or writers)
 * twins, at every scope: IRIW with and without fence.sc, WRC with twin
 * middles and twin readers, 2+2W with twin writers, CoRR with twin
 * readers. */
static void test_twin_shapes(void **state) {
  (void)state;
  static const char *const scopes[] = {"cta", "gpu", "sys"};
  static const char *const shapes[] = {
    /* IRIW+fence.sc, 2 readers of each order */
    "PTX T\n{ x=0; y=0; }\n"
    " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 | P2@cta 2,gpu 0 | P3@cta 3,gpu 0 | P4@cta 4,gpu 0 | P5@cta 5,gpu 0 ;\n"
    " st.relaxed.S x, 1 | st.relaxed.S y, 1 | ld.relaxed.S r0, x | ld.relaxed.S r0, y | ld.relaxed.S r0, x | ld.relaxed.S r0, y ;\n"
    " | | fence.sc.S | fence.sc.S | fence.sc.S | fence.sc.S ;\n"
    " | | ld.relaxed.S r1, y | ld.relaxed.S r1, x | ld.relaxed.S r1, y | ld.relaxed.S r1, x ;\n"
    "locations [P2:r0; P2:r1; P3:r0; P3:r1; P4:r0; P4:r1; P5:r0; P5:r1;]\n"
    "exists (P2:r0 == 1 /\\ P2:r1 == 0 /\\ P3:r0 == 1 /\\ P3:r1 == 0)\n",
    /* IRIW, acquire loads, 3 readers of one order */
    "PTX T\n{ x=0; y=0; }\n"
    " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 | P2@cta 2,gpu 0 | P3@cta 3,gpu 0 | P4@cta 4,gpu 0 ;\n"
    " st.relaxed.S x, 1 | st.relaxed.S y, 1 | ld.acquire.S r0, x | ld.acquire.S r0, x | ld.acquire.S r0, x ;\n"
    " | | ld.acquire.S r1, y | ld.acquire.S r1, y | ld.acquire.S r1, y ;\n"
    "exists (P2:r0 == 1 /\\ P2:r1 == 0 /\\ P3:r0 == 1 /\\ P3:r1 == 0 /\\ P4:r0 == 1 /\\ P4:r1 == 0)\n",
    /* WRC+fence.sc: twin middles writing y, twin readers */
    "PTX T\n{ x=0; y=0; }\n"
    " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 | P2@cta 2,gpu 0 | P3@cta 3,gpu 0 | P4@cta 4,gpu 0 ;\n"
    " st.relaxed.S x, 1 | ld.relaxed.S r0, x | ld.relaxed.S r0, x | ld.relaxed.S r0, y | ld.relaxed.S r0, y ;\n"
    " | fence.sc.S | fence.sc.S | fence.sc.S | fence.sc.S ;\n"
    " | st.relaxed.S y, 1 | st.relaxed.S y, 1 | ld.relaxed.S r1, x | ld.relaxed.S r1, x ;\n"
    "locations [P1:r0; P2:r0; P3:r0; P3:r1; P4:r0; P4:r1;]\n"
    "exists (P1:r0 == 1 /\\ P3:r0 == 1 /\\ P3:r1 == 0)\n",
    /* 2+2W+fence.sc, two writers of each kind, the final values observed */
    "PTX T\n{ x=0; y=0; }\n"
    " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 | P2@cta 2,gpu 0 | P3@cta 3,gpu 0 ;\n"
    " st.relaxed.S x, 1 | st.relaxed.S x, 1 | st.relaxed.S y, 1 | st.relaxed.S y, 1 ;\n"
    " fence.sc.S | fence.sc.S | fence.sc.S | fence.sc.S ;\n"
    " st.relaxed.S y, 2 | st.relaxed.S y, 2 | st.relaxed.S x, 2 | st.relaxed.S x, 2 ;\n"
    "exists (x == 2 /\\ y == 2)\n",
    /* CoRR: two writers, three twin readers in one CTA */
    "PTX T\n{ x=0; }\n"
    " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 | P2@cta 2,gpu 0 | P3@cta 2,gpu 0 | P4@cta 2,gpu 0 ;\n"
    " st.relaxed.S x, 1 | st.relaxed.S x, 2 | ld.relaxed.S r0, x | ld.relaxed.S r0, x | ld.relaxed.S r0, x ;\n"
    " | | ld.relaxed.S r1, x | ld.relaxed.S r1, x | ld.relaxed.S r1, x ;\n"
    "locations [P2:r0; P2:r1; P3:r0; P3:r1; P4:r0; P4:r1;]\n"
    "exists (P2:r0 == 2 /\\ P2:r1 == 1)\n",
  };
  for (size_t i = 0; i < LC_ARRAY_LEN(shapes); i++)
    for (size_t k = 0; k < LC_ARRAY_LEN(scopes); k++) {
      lc_buf b;
      lc_buf_init(&b);
      for (const char *c = shapes[i]; *c; c++) {
        if (c[0] == '.' && c[1] == 'S' && (c[2] == ' ' || c[2] == '\n')) {
          lc_buf_printf(&b, ".%s", scopes[k]);
          c++;
        } else {
          lc_buf_printf(&b, "%c", *c);
        }
      }
      assert_true(same_with_and_without(b.s, "ptx-v7.5") > 0);
      lc_buf_fini(&b);
    }
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_cpp_twins),
    cmocka_unit_test(test_cpp_observed_differently),
    cmocka_unit_test(test_cpp_observed_alike),
    cmocka_unit_test(test_cpp_placed_apart),
    cmocka_unit_test(test_cpp_other_scope),
    cmocka_unit_test(test_kernel_same_code),
    cmocka_unit_test(test_kernel_index),
    cmocka_unit_test(test_kernel_value),
    cmocka_unit_test(test_kernel_twin_blocks),
    cmocka_unit_test(test_kernel_blocks_apart),
    cmocka_unit_test(test_kernel_block_scope),
    cmocka_unit_test(test_kernel_racy_twins),
    cmocka_unit_test(test_ptx_observed_differently),
    cmocka_unit_test(test_random_twins),
    cmocka_unit_test(test_twin_shapes),
  };
  int failed = cmocka_run_group_tests(tests, NULL, NULL);
  Z3_finalize_memory();   /* Z3's global tables, so valgrind sees no leak */
  return failed;
}
