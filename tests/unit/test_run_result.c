/* test_run_result.c - the histogram of a run: bins, finishing, comparing
 * with the model's states.
 * SPDX-License-Identifier: MIT
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "run/run.h"
#include "run_fixture.h"

static int setup_sb(void **state) {
  fixture *f = malloc(sizeof *f);
  if (fixture_load(f, "SB.litmus", SB_TEXT) < 0) return -1;
  *state = f;
  return 0;
}

static int teardown(void **state) {
  fixture_fini(*state);
  free(*state);
  return 0;
}

static void test_run_params_defaults(void **state) {
  (void)state;
  run_params p;
  run_params_init(&p);
  assert_int_equal(p.iterations, 0);
  assert_int_equal(p.instances, 0);
  assert_true(p.seconds == 0);
  assert_true(p.barrier);
  assert_true(p.shuffle);
  assert_int_equal(p.stride, 16);
  assert_int_equal(p.max_forbidden, 8);
  assert_int_equal(p.spin_limit, 0);   /* the backend's default */
  assert_true(p.watchdog == 1.0);
  assert_true(p.pin);
  assert_null(p.stop);
}

static void test_run_bins_add(void **state) {
  fixture *f = *state;
  run_result r;
  run_result_init(&r, f->prog, "host");
  assert_int_equal(r.nshown, 2);
  lx_val a[] = {1, 0}, b[] = {0, 0};
  size_t ia = run_result_add(&r, a, 3);
  size_t ib = run_result_add(&r, b, 1);
  assert_int_not_equal(ia, ib);
  assert_int_equal(run_result_add(&r, a, 2), ia);
  assert_int_equal(run_result_add_unexplored(&r, b, 4), ib);
  assert_int_equal(r.nbins, 2);
  assert_int_equal(r.bins[ia].count, 5);
  assert_int_equal(r.bins[ib].count, 5);
  assert_int_equal(r.bins[ib].unexplored, 4);
  run_result_fini(&r);
}

/* Enough distinct outcomes to grow the index several times; every one
 * must still be found in its own bin. */
static void test_run_bins_many(void **state) {
  fixture *f = *state;
  run_result r;
  run_result_init(&r, f->prog, "host");
  for (int round = 0; round < 3; round++)
    for (lx_val i = 0; i < 1000; i++) {
      lx_val v[] = {i % 37, i};
      run_result_add(&r, v, 1);
    }
  assert_int_equal(r.nbins, 1000);
  for (size_t i = 0; i < r.nbins; i++) assert_int_equal(r.bins[i].count, 3);
  run_result_fini(&r);
}

static void test_run_finish_sorts(void **state) {
  fixture *f = *state;
  run_result r;
  run_result_init(&r, f->prog, "host");
  lx_val v[][2] = {{1, 1}, {0, 1}, {1, 0}, {0, 0}};
  for (size_t i = 0; i < 4; i++) run_result_add(&r, v[i], i + 1);
  r.instances = 10;
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  assert_int_equal(run_result_finish(&r, &d), 0);
  lx_val want[][2] = {{0, 0}, {0, 1}, {1, 0}, {1, 1}};
  uint64_t counts[] = {4, 2, 3, 1};
  for (size_t i = 0; i < 4; i++) {
    assert_memory_equal(r.bins[i].values, want[i], sizeof want[i]);
    assert_int_equal(r.bins[i].count, counts[i]);
    assert_int_equal(r.bins[i].positive, i == 0);
  }
  /* the index follows the sort */
  assert_int_equal(run_result_add(&r, want[2], 1), 2);
  lc_diag_fini(&d);
  run_result_fini(&r);
}

static void test_run_finish_mismatch(void **state) {
  fixture *f = *state;
  run_result r;
  run_result_init(&r, f->prog, "host");
  lx_val v[] = {0, 1};
  run_result_add(&r, v, 5);
  r.incomplete = 2;
  r.filtered = 1;
  r.instances = 9;
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  assert_int_equal(run_result_finish(&r, &d), -1);
  assert_string_equal(lc_diag_first_error(&d),
                      "error: host backend: the histogram holds 8 instances (2 incomplete, 1 filtered) but 9 ran");
  r.instances = 8;
  assert_int_equal(run_result_finish(&r, &d), 0);
  lc_diag_fini(&d);
  run_result_fini(&r);
}

static void test_run_compare(void **state) {
  fixture *f = *state;
  lx_val states[] = {0, 1, 1, 0, 1, 1};
  lc_result *model = fixture_states(f->prog, states, 3);
  run_result r;
  run_result_init(&r, f->prog, "host");
  lx_val ok[] = {1, 1}, bad[] = {0, 0}, beyond[] = {2, 2}, mixed[] = {3, 3};
  run_result_add(&r, ok, 10);
  run_result_add(&r, bad, 2);
  run_result_add_unexplored(&r, beyond, 4);
  run_result_add(&r, mixed, 1);
  run_result_add_unexplored(&r, mixed, 1);
  r.instances = 18;
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  assert_int_equal(run_result_finish(&r, &d), 0);
  assert_int_equal(run_compare(&r, model), 2);
  assert_ptr_equal(r.model, model);
  assert_int_equal(r.nforbidden, 2);
  /* sorted: (0,0) (1,1) (2,2) (3,3) */
  assert_false(r.bins[0].allowed);
  assert_int_equal(run_bin_classify(&r.bins[0]), RUN_BIN_FORBIDDEN);
  assert_true(r.bins[1].allowed);
  assert_int_equal(run_bin_classify(&r.bins[1]), RUN_BIN_ALLOWED);
  assert_int_equal(run_bin_classify(&r.bins[2]), RUN_BIN_UNEXPLORED);
  assert_int_equal(run_bin_classify(&r.bins[3]), RUN_BIN_FORBIDDEN);
  lc_diag_fini(&d);
  run_result_fini(&r);
  lc_result_free(model);
}

static void test_run_state_allowed(void **state) {
  fixture *f = *state;
  lx_val states[] = {5, 1, -3, 0, 0, 7, 2, 2};
  lc_result *model = fixture_states(f->prog, states, 4);
  lx_val yes[][2] = {{5, 1}, {-3, 0}, {0, 7}, {2, 2}}, no[][2] = {{5, 0}, {-4, 0}, {9, 9}, {0, 0}};
  for (size_t i = 0; i < 4; i++) {
    assert_true(run_state_allowed(model, yes[i]));
    assert_false(run_state_allowed(model, no[i]));
  }
  lc_result *empty = fixture_states(f->prog, NULL, 0);
  assert_false(run_state_allowed(empty, yes[0]));
  lc_result_free(empty);
  lc_result_free(model);
}

static void test_run_samples_copy(void **state) {
  fixture *f = *state;
  run_result r;
  run_result_init(&r, f->prog, "cuda");
  lx_val v[] = {0, 0};
  int ctas[] = {3, 8}, threads[] = {17, 2};
  run_result_add_sample(&r, 4, 99, v, ctas, threads, NULL);
  ctas[0] = -1;
  v[0] = 7;
  assert_int_equal(r.nsamples, 1);
  assert_int_equal(r.samples[0].iteration, 4);
  assert_int_equal(r.samples[0].instance, 99);
  assert_int_equal(r.samples[0].values[0], 0);
  assert_int_equal(r.samples[0].ctas[0], 3);
  assert_int_equal(r.samples[0].threads[1], 2);
  assert_null(r.samples[0].cpus);
  run_result_note(&r, "placement %s", "narrowed");
  assert_string_equal(r.notes.v[0], "placement narrowed");
  run_result_fini(&r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_run_params_defaults),
    cmocka_unit_test_setup_teardown(test_run_bins_add, setup_sb, teardown),
    cmocka_unit_test_setup_teardown(test_run_bins_many, setup_sb, teardown),
    cmocka_unit_test_setup_teardown(test_run_finish_sorts, setup_sb, teardown),
    cmocka_unit_test_setup_teardown(test_run_finish_mismatch, setup_sb, teardown),
    cmocka_unit_test_setup_teardown(test_run_compare, setup_sb, teardown),
    cmocka_unit_test_setup_teardown(test_run_state_allowed, setup_sb, teardown),
    cmocka_unit_test_setup_teardown(test_run_samples_copy, setup_sb, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
