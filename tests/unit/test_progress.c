/* test_progress.c - the termination criterion under each progress model
 * (src/query/progress.c), state by state, and the parsing of --progress.
 * SPDX-License-Identifier: MIT
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "progress.h"

enum { F = LC_TS_FINISHED, S = LC_TS_STUCK, E = LC_TS_EFFECTS, G = LC_TS_PROGRESS, P = LC_TS_PAUSED };

/* One thread per CTA, CTA i holding thread i; ran[i] = 0 for a thread
 * that made no event. */
static lc_run_kind judge(lc_progress m, const int *st, const int *ran, size_t n) {
  lc_thread_run th[8];
  for (size_t i = 0; i < n; i++) th[i] = (lc_thread_run){(lc_thread_state)st[i], ran[i] != 0, (int)i};
  return lc_progress_judge(m, th, n, n, NULL);
}

/* CTA 0 spins on CTA 1's flag; CTA 1 never started. */
static void test_waiting_on_a_later_cta(void **state) {
  (void)state;
  int st[] = {S, P}, ran[] = {1, 0};
  assert_int_equal(judge(LC_PROGRESS_FAIR, st, ran, 2), LC_RUN_NONE);   /* CTA 1 is owed a step */
  assert_int_equal(judge(LC_PROGRESS_OBE, st, ran, 2), LC_RUN_HANG);
  assert_int_equal(judge(LC_PROGRESS_LOBE, st, ran, 2), LC_RUN_HANG);
  assert_int_equal(judge(LC_PROGRESS_HSA, st, ran, 2), LC_RUN_HANG);
  assert_int_equal(judge(LC_PROGRESS_HSA_OBE, st, ran, 2), LC_RUN_HANG);
  assert_int_equal(judge(LC_PROGRESS_UNFAIR, st, ran, 2), LC_RUN_HANG);
}

/* CTA 1 spins on CTA 0's flag; CTA 0 never started. */
static void test_waiting_on_an_earlier_cta(void **state) {
  (void)state;
  int st[] = {P, S}, ran[] = {0, 1};
  assert_int_equal(judge(LC_PROGRESS_FAIR, st, ran, 2), LC_RUN_NONE);
  assert_int_equal(judge(LC_PROGRESS_OBE, st, ran, 2), LC_RUN_HANG);
  assert_int_equal(judge(LC_PROGRESS_LOBE, st, ran, 2), LC_RUN_NONE);      /* 1 started: 0 owed */
  assert_int_equal(judge(LC_PROGRESS_HSA, st, ran, 2), LC_RUN_NONE);       /* 0 is the lowest */
  assert_int_equal(judge(LC_PROGRESS_HSA_OBE, st, ran, 2), LC_RUN_NONE);
  assert_int_equal(judge(LC_PROGRESS_UNFAIR, st, ran, 2), LC_RUN_HANG);
}

/* CTA 0 spins while CTA 1, started, stopped half way. */
static void test_stopped_half_way(void **state) {
  (void)state;
  int st[] = {S, P}, ran[] = {1, 1};
  assert_int_equal(judge(LC_PROGRESS_OBE, st, ran, 2), LC_RUN_NONE);       /* started: owed */
  assert_int_equal(judge(LC_PROGRESS_HSA_OBE, st, ran, 2), LC_RUN_NONE);
  assert_int_equal(judge(LC_PROGRESS_HSA, st, ran, 2), LC_RUN_HANG);
  assert_int_equal(judge(LC_PROGRESS_UNFAIR, st, ran, 2), LC_RUN_HANG);
}

/* HSA owes the lowest CTA not finished, whatever the others do. */
static void test_hsa_lowest_unfinished(void **state) {
  (void)state;
  int st[] = {F, S, G}, ran[] = {1, 1, 1};
  assert_int_equal(judge(LC_PROGRESS_HSA, st, ran, 3), LC_RUN_HANG);
  assert_int_equal(judge(LC_PROGRESS_FAIR, st, ran, 3), LC_RUN_NONE);
  int st2[] = {G, S, F};
  assert_int_equal(judge(LC_PROGRESS_HSA, st2, ran, 3), LC_RUN_NONE);
}

/* Spinning with side effects: no claim, under every model that owes it. */
static void test_effects(void **state) {
  (void)state;
  int st[] = {E, F}, ran[] = {1, 1};
  for (int m = 0; m < LC_NPROGRESS; m++) assert_int_equal(judge((lc_progress)m, st, ran, 2), LC_RUN_EFFECTS);
  int st2[] = {E, S};
  assert_int_equal(judge(LC_PROGRESS_FAIR, st2, ran, 2), LC_RUN_EFFECTS);
  assert_int_equal(judge(LC_PROGRESS_UNFAIR, st2, ran, 2), LC_RUN_HANG);   /* CTA 1 alone */
}

/* Threads of one CTA are scheduled fairly among themselves. */
static void test_within_a_cta(void **state) {
  (void)state;
  lc_thread_run th[] = {{LC_TS_STUCK, true, 0}, {LC_TS_PAUSED, false, 0}, {LC_TS_PAUSED, false, 1}};
  bool owed[2];
  assert_int_equal(lc_progress_judge(LC_PROGRESS_OBE, th, 3, 2, owed), LC_RUN_NONE);
  assert_true(owed[0]);
  assert_false(owed[1]);
  th[1].state = LC_TS_FINISHED, th[1].ran = true;
  assert_int_equal(lc_progress_judge(LC_PROGRESS_OBE, th, 3, 2, owed), LC_RUN_HANG);
}

static void test_parse(void **state) {
  (void)state;
  assert_int_equal(lc_progress_parse("obe"), 1u << LC_PROGRESS_OBE);
  assert_int_equal(lc_progress_parse("hsa-obe,fair"), (1u << LC_PROGRESS_HSA_OBE) | (1u << LC_PROGRESS_FAIR));
  assert_int_equal(lc_progress_parse("all"), (1u << LC_NPROGRESS) - 1);
  assert_int_equal(lc_progress_parse("obe,"), 0);
  assert_int_equal(lc_progress_parse(""), 0);
  assert_int_equal(lc_progress_parse("hsa-ob"), 0);
  assert_string_equal(lc_progress_name(LC_PROGRESS_LOBE), "lobe");
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_waiting_on_a_later_cta), cmocka_unit_test(test_waiting_on_an_earlier_cta),
    cmocka_unit_test(test_stopped_half_way),       cmocka_unit_test(test_hsa_lowest_unfinished),
    cmocka_unit_test(test_effects),                cmocka_unit_test(test_within_a_cta),
    cmocka_unit_test(test_parse),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
