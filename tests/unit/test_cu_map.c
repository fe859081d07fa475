/* test_cu_map.c - the placement arithmetic the GPU runs (cu_map.h) and the
 * per-launch draws (cu_launch.c): every instance gets every role exactly
 * once, and the roles of an instance sit where the test places them.
 * SPDX-License-Identifier: MIT
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "cu_testlib.h"

/* ---- affine maps ---------------------------------------------------------------- */

static void test_cu_inverse_mod(void **state) {
  (void)state;
  const cu_u32 ns[] = {2, 3, 7, 32, 96, 256, 1000, 65536};
  for (size_t i = 0; i < LC_ARRAY_LEN(ns); i++)
    for (cu_u32 a = 1; a < ns[i] && a < 200; a++) {
      cu_u32 g = a, b = ns[i];
      while (b) { cu_u32 t = g % b; g = b; b = t; }
      if (g != 1) continue;
      assert_int_equal((uint64_t)a * cu_inverse_mod(a, ns[i]) % ns[i], 1);
    }
  assert_int_equal(cu_inverse_mod(1, 1), 0);
}

static void test_cu_affine_is_a_bijection(void **state) {
  (void)state;
  const cu_u32 n = 96, muls[] = {1, 5, 7, 95};
  for (size_t m = 0; m < LC_ARRAY_LEN(muls); m++)
    for (cu_u32 add = 0; add < n; add += 13) {
      char seen[96] = {0};
      for (cu_u32 x = 0; x < n; x++) {
        cu_u32 y = cu_affine(x, muls[m], add, n);
        assert_true(y < n);
        assert_false(seen[y]);
        seen[y] = 1;
        assert_int_equal(cu_unaffine(y, cu_inverse_mod(muls[m], n), add, n), x);
      }
    }
}

/* ---- a launch built by hand ------------------------------------------------------- */

typedef struct layout {
  int nroles;
  int cl[CU_MAX_ROLES], cta[CU_MAX_ROLES];   /* litmus cluster and CTA of each role */
} layout;

static int draw_for(cu_launch *P, const layout *L, cu_shape s, uint64_t it) {
  memset(P, 0, sizeof *P);
  P->nroles = (cu_u32)L->nroles;
  for (int k = 0; k < L->nroles; k++) P->role_cl[k] = (cu_u32)L->cl[k], P->role_cta[k] = (cu_u32)L->cta[k];
  P->nglobal = 2;
  return cu_launch_draw(P, &s, 0x1234abcdull, it);
}

/* Every role: instance -> thread is a bijection onto the testing threads,
 * and cu_role_instance inverts cu_role_thread. */
static void check_bijections(const cu_launch *P) {
  size_t nthreads = (size_t)P->ntest_clusters * P->cs * P->T;
  assert_int_equal(nthreads, P->ninst);
  char *seen = calloc(nthreads, 1);
  for (cu_u32 k = 0; k < P->nroles; k++) {
    memset(seen, 0, nthreads);
    for (cu_u32 i = 0; i < P->ninst; i++) {
      cu_u32 B, lane;
      cu_role_thread(P, k, i, &B, &lane);
      assert_true(B < P->ntest_clusters * P->cs);
      assert_true(lane < P->T);
      size_t t = (size_t)B * P->T + lane;
      assert_false(seen[t]);
      seen[t] = 1;
      assert_int_equal(cu_role_instance(P, k, B, lane), i);
    }
  }
  free(seen);
}

/* Same litmus CTA: same physical CTA, different lanes.  Same cluster:
 * same physical cluster.  Different litmus CTAs (and clusters): different
 * physical CTAs (clusters), also after undoing the shuffle. */
static void check_placement(const cu_launch *P) {
  for (cu_u32 i = 0; i < P->ninst; i++) {
    cu_u32 B[CU_MAX_ROLES], lane[CU_MAX_ROLES];
    for (cu_u32 k = 0; k < P->nroles; k++) cu_role_thread(P, k, i, &B[k], &lane[k]);
    for (cu_u32 a = 0; a < P->nroles; a++)
      for (cu_u32 b = a + 1; b < P->nroles; b++) {
        cu_u32 pa = cu_physical_cta(P, B[a]), pb = cu_physical_cta(P, B[b]);
        if (P->role_cta[a] == P->role_cta[b]) {
          assert_int_equal(B[a], B[b]);
          assert_int_not_equal(lane[a], lane[b]);
        } else {
          assert_int_not_equal(B[a], B[b]);
          assert_int_not_equal(pa, pb);
        }
        if (P->role_cl[a] == P->role_cl[b])
          assert_int_equal(pa / P->cs, pb / P->cs);
        else
          assert_int_not_equal(pa / P->cs, pb / P->cs);
      }
  }
}

static void check_layout(const layout *L, cu_shape s) {
  for (uint64_t it = 0; it < 5; it++) {
    cu_launch P;
    assert_int_equal(draw_for(&P, L, s, it), 0);
    check_bijections(&P);
    check_placement(&P);
  }
}

static void test_cu_roles_same_cta(void **state) {
  (void)state;
  layout L = {3, {0, 0, 0}, {0, 0, 0}};
  check_layout(&L, (cu_shape){10, 1, 10, 64, true});
}

static void test_cu_roles_different_ctas(void **state) {
  (void)state;
  layout L = {4, {0, 1, 2, 3}, {0, 1, 2, 3}};
  check_layout(&L, (cu_shape){12, 1, 9, 32, true});
  check_layout(&L, (cu_shape){4, 1, 4, 32, false});
}

static void test_cu_roles_mixed(void **state) {
  (void)state;
  /* P0, P1 in CTA 0; P2 in CTA 1; P3 in CTA 2 */
  layout L = {4, {0, 0, 1, 2}, {0, 0, 1, 2}};
  check_layout(&L, (cu_shape){7, 1, 5, 96, true});
}

static void test_cu_roles_same_cluster(void **state) {
  (void)state;
  /* cluster 0 holds CTAs 0 and 1 (P0, P1, P2); cluster 1 holds CTA 2 (P3) */
  layout L = {4, {0, 0, 0, 1}, {0, 0, 1, 2}};
  check_layout(&L, (cu_shape){24, 4, 5, 32, true});
  check_layout(&L, (cu_shape){8, 2, 2, 64, false});
}

static void test_cu_shuffle_tests_exactly_ntest(void **state) {
  (void)state;
  layout L = {2, {0, 1}, {0, 1}};
  cu_launch P;
  assert_int_equal(draw_for(&P, &L, (cu_shape){30, 2, 6, 32, true}, 3), 0);
  int testing = 0;
  for (cu_u32 b = 0; b < P.nctas; b++) {
    cu_u32 B, B0;
    if (cu_logical_cta(&P, b, &B)) testing++;
    assert_int_equal(cu_physical_cta(&P, B), b);
    /* a physical cluster stays one logical cluster */
    cu_logical_cta(&P, b / P.cs * P.cs, &B0);
    assert_int_equal(B / P.cs, B0 / P.cs);
  }
  assert_int_equal(testing, 12);
}

static void test_cu_draw_refuses_too_small(void **state) {
  (void)state;
  cu_launch P;
  layout three = {3, {0, 1, 2}, {0, 1, 2}};
  assert_int_equal(draw_for(&P, &three, (cu_shape){4, 1, 2, 32, true}, 0), -1);   /* 3 clusters > 2 */
  layout crowd = {3, {0, 0, 0}, {0, 0, 0}};
  assert_int_equal(draw_for(&P, &crowd, (cu_shape){4, 1, 4, 2, true}, 0), -1);    /* 3 roles > 2 lanes */
  layout wide = {3, {0, 0, 0}, {0, 1, 2}};
  assert_int_equal(draw_for(&P, &wide, (cu_shape){8, 2, 4, 32, true}, 0), -1);    /* 3 CTAs > cluster of 2 */
  assert_int_equal(draw_for(&P, &three, (cu_shape){9, 2, 4, 32, true}, 0), -1);   /* 9 CTAs, clusters of 2 */
}

/* The seed decides everything: same seed and iteration, same launch. */
static void test_cu_draw_is_reproducible(void **state) {
  (void)state;
  layout L = {2, {0, 1}, {0, 1}};
  cu_launch a, b;
  assert_int_equal(draw_for(&a, &L, (cu_shape){16, 1, 16, 64, true}, 7), 0);
  assert_int_equal(draw_for(&b, &L, (cu_shape){16, 1, 16, 64, true}, 7), 0);
  assert_memory_equal(&a, &b, sizeof a);
  assert_int_equal(draw_for(&b, &L, (cu_shape){16, 1, 16, 64, true}, 8), 0);
  assert_memory_not_equal(&a, &b, sizeof a);
}

/* Instance slots of one location are distinct, within its array, and the
 * 32-bit arithmetic does not overflow even for large launches. */
static void test_cu_loc_word_bijection(void **state) {
  (void)state;
  layout L = {2, {0, 1}, {0, 1}};
  const cu_u32 sizes[][2] = {{16, 64}, {4096, 256}};
  for (size_t s = 0; s < LC_ARRAY_LEN(sizes); s++)
    for (uint64_t it = 0; it < 3; it++) {
      cu_launch P;
      assert_int_equal(draw_for(&P, &L, (cu_shape){sizes[s][0], 1, sizes[s][0], sizes[s][1], true}, it), 0);
      P.stride = 3;
      assert_true((uint64_t)(P.ninst - 1) * P.pmul + P.padd[0] < ((uint64_t)1 << 32));
      char *seen = calloc(P.ninst, 1);
      for (cu_u32 g = 0; g < 2; g++) {
        memset(seen, 0, P.ninst);
        for (cu_u32 i = 0; i < P.ninst; i++) {
          cu_u64 w = cu_loc_word(&P, g, i);
          assert_int_equal(w % 3, 0);
          assert_true(w / 3 >= (cu_u64)g * P.ninst && w / 3 < (cu_u64)(g + 1) * P.ninst);
          assert_false(seen[w / 3 - (cu_u64)g * P.ninst]);
          seen[w / 3 - (cu_u64)g * P.ninst] = 1;
        }
      }
      free(seen);
    }
}

/* Locations together (--loc-offset): every (location, instance) its own
 * word inside the array, an instance's locations loc_offset words apart
 * in one slot, so with 4-byte words and offset 1 two locations share a
 * 128-byte line. */
static void test_cu_loc_word_together(void **state) {
  (void)state;
  layout L = {2, {0, 1}, {0, 1}};
  for (cu_u32 off = 1; off <= 16; off *= 4) {
    cu_launch P;
    assert_int_equal(draw_for(&P, &L, (cu_shape){16, 1, 16, 64, true}, 5), 0);
    P.stride = 16;
    P.nglobal = 2;
    P.loc_offset = off;
    uint64_t words = (uint64_t)P.nglobal * P.ninst * P.stride;
    char *seen = calloc(words, 1);
    for (cu_u32 i = 0; i < P.ninst; i++) {
      cu_u64 w0 = cu_loc_word(&P, 0, i), w1 = cu_loc_word(&P, 1, i);
      assert_int_equal(w1 - w0, off);
      assert_int_equal(w0 % (P.nglobal * P.stride), 0);   /* a slot starts on a line (32 words) */
      assert_true(w1 < words);
      if (off == 1) assert_int_equal(w0 / 32, w1 / 32);
      assert_false(seen[w0] || seen[w1]);
      seen[w0] = seen[w1] = 1;
    }
    free(seen);
  }
}

/* ---- placement from litmus text --------------------------------------------------- */

static const char *const placed_tests[] = {
  "PTX p1\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 | P2@cta 1,gpu 0 ;\n"
  " st.weak x, 1 | ld.weak r0, x | ld.weak r0, x ;\nexists (P1:r0 == 1)\n",
  "PTX p2\n{ x=0; }\n P0@cta 0,cluster 0,gpu 0 | P1@cta 1,cluster 0,gpu 0 | P2@cta 2,cluster 1,gpu 0 ;\n"
  " st.weak x, 1 | ld.weak r0, x | ld.weak r0, x ;\nexists (P1:r0 == 1)\n",
  "PTX p3\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 1 ;\n st.weak x, 1 | ld.weak r0, x ;\nexists (P1:r0 == 1)\n",
};

static void test_cu_placement_from_tests(void **state) {
  (void)state;
  for (size_t t = 0; t < LC_ARRAY_LEN(placed_tests); t++) {
    cu_fixture f;
    assert_non_null(fx_load(&f, placed_tests[t]));
    cu_plan *pl = cu_plan_new(f.p, &f.d);
    assert_non_null(pl);
    cu_launch P;
    memset(&P, 0, sizeof P);
    cu_launch_roles(&P, pl);
    cu_u32 cs = (cu_u32)pl->ctas_per_cl;
    assert_int_equal(cu_launch_draw(&P, &(cu_shape){6 * cs, cs, 4, 32, true}, 99, 0), 0);
    check_bijections(&P);
    check_placement(&P);
    /* the written placement, read back from the plan */
    for (size_t a = 0; a < pl->nroles; a++)
      for (size_t b = 0; b < pl->nroles; b++) {
        const lx_thread *ta = &f.p->threads[a], *tb = &f.p->threads[b];
        bool same_cta = ta->gpu == tb->gpu && ta->cta == tb->cta;
        assert_int_equal(pl->roles[a].lcta == pl->roles[b].lcta, same_cta);
      }
    assert_int_equal(pl->multi_gpu, t == 2);
    cu_plan_free(pl);
    fx_free(&f);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_cu_inverse_mod),
    cmocka_unit_test(test_cu_affine_is_a_bijection),
    cmocka_unit_test(test_cu_roles_same_cta),
    cmocka_unit_test(test_cu_roles_different_ctas),
    cmocka_unit_test(test_cu_roles_mixed),
    cmocka_unit_test(test_cu_roles_same_cluster),
    cmocka_unit_test(test_cu_shuffle_tests_exactly_ntest),
    cmocka_unit_test(test_cu_draw_refuses_too_small),
    cmocka_unit_test(test_cu_draw_is_reproducible),
    cmocka_unit_test(test_cu_loc_word_bijection),
    cmocka_unit_test(test_cu_loc_word_together),
    cmocka_unit_test(test_cu_placement_from_tests),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
