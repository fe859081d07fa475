/* test_enum_sym.c - symmetry between twin threads and twin CTAs: found
 * where a swap maps the program onto itself, refused where it does not
 * (observed differently, placed apart, different locations, values or
 * scopes), and never changing an answer (the search with it against the
 * search without, and against the SMT engine).
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
  };
  int failed = cmocka_run_group_tests(tests, NULL, NULL);
  Z3_finalize_memory();   /* Z3's global tables, so valgrind sees no leak */
  return failed;
}
