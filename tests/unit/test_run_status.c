/* test_run_status.c - what the library's run statuses become as
 * litmus-run's exit statuses, and the worst status of a test's mutants.
 * SPDX-License-Identifier: MIT
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "cat/cat.h"
#include "check.h"
#include "cli/run-status.h"
#include "run/mutants.h"
#include "run_fixture.h"

#ifndef LC_SRCDIR
#define LC_SRCDIR "."
#endif

static void test_run_exit(void **state) {
  (void)state;
  assert_int_equal(cli_run_exit(RUN_OK), LC_EXIT_OK);
  assert_int_equal(cli_run_exit(RUN_CANNOT), LC_EXIT_INPUT);
  assert_int_equal(cli_run_exit(RUN_FAILED), LC_EXIT_INTERNAL);
}

static void test_sass_exit(void **state) {
  (void)state;
  assert_int_equal(cli_sass_exit(CU_SASS_FOUND), LC_EXIT_OK);
  assert_int_equal(cli_sass_exit(CU_SASS_LOST), LC_EXIT_MISMATCH);
  assert_int_equal(cli_sass_exit(CU_SASS_BAD_FILE), LC_EXIT_INPUT);
  assert_int_equal(cli_sass_exit(CU_SASS_NO_TOOLS), 77);
}

/* A stand-in backend: the k-th run returns script[k] (the last one
 * again once the script is used up) and runs no instance. */
typedef struct script {
  const run_status *v;
  size_t n, calls;
} script;

static run_status scripted(void *ctx, const lx_program *prog, const lc_result *allowed, run_result *rr) {
  (void)prog, (void)allowed, (void)rr;
  script *s = ctx;
  run_status rc = s->v[s->calls < s->n ? s->calls : s->n - 1];
  s->calls++;
  return rc;
}

typedef struct world {
  fixture f;
  cat_model *model;
} world;

static int setup(void **state) {
  world *w = calloc(1, sizeof *w);
  *state = w;
  if (fixture_load(&w->f, "MP.litmus", MP_TEXT) < 0) return -1;
  lc_diag d;
  lc_diag_init(&d, NULL, stderr);
  w->model = cat_load(LC_SRCDIR "/models/ptx-v7.5.cat", NULL, &d);
  lc_diag_fini(&d);
  return w->model ? 0 : -1;
}

static int teardown(void **state) {
  world *w = *state;
  cat_model_free(w->model);
  fixture_fini(&w->f);
  free(w);
  return 0;
}

/* MP's mutants run with the script; their worst status, and how many ran. */
static run_status mutants(world *w, const run_status *v, size_t n, size_t *calls, size_t *total) {
  lc_check_options co;
  lc_check_options_init(&co);
  script s = {v, n, 0};
  lc_buf text;
  lc_buf_init(&text);
  json_t *js = NULL;
  run_mutant_score score = {0, 0};
  run_status rc = run_mutants(w->f.test, &w->f.src, w->model, &co, scripted, &s, &text, &js, &score);
  json_decref(js);
  lc_buf_fini(&text);
  *calls = s.calls;
  *total = score.total;
  return rc;
}

static void test_mutants_worst_status(void **state) {
  world *w = *state;
  size_t calls, total;
  const run_status ok[] = {RUN_OK};
  assert_int_equal(mutants(w, ok, 1, &calls, &total), RUN_OK);
  assert_true(calls >= 2);   /* the script below needs two mutants */
  assert_int_equal(total, calls);
  /* one that cannot run: the others still run and count */
  const run_status cannot[] = {RUN_CANNOT, RUN_OK};
  assert_int_equal(mutants(w, cannot, 2, &calls, &total), RUN_CANNOT);
  assert_int_equal(total, calls - 1);
  /* a failure is worse than a refusal, whichever comes first */
  const run_status both[] = {RUN_FAILED, RUN_CANNOT};
  assert_int_equal(mutants(w, both, 2, &calls, &total), RUN_FAILED);
  assert_int_equal(total, 0);
  const run_status both2[] = {RUN_CANNOT, RUN_FAILED, RUN_OK};
  assert_int_equal(mutants(w, both2, 3, &calls, &total), RUN_FAILED);
  assert_int_equal(cli_run_exit(RUN_FAILED), LC_EXIT_INTERNAL);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_run_exit),
    cmocka_unit_test(test_sass_exit),
    cmocka_unit_test_setup_teardown(test_mutants_worst_status, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
