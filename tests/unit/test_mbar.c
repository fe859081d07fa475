/* test_mbar.c - the mbarrier state and its transitions (src/exec/mbar.c),
 * which both engines and the host backend compute with.
 * SPDX-License-Identifier: MIT
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "exec/exec.h"

static lx_val init(unsigned count) { return lx_op_apply(LX_OP_MB_INIT, count, 0); }

static void expect_state(lx_val v, unsigned expected, unsigned pending, int tx, unsigned phase) {
  lx_mbar_state s = lx_mbar_decode(v);
  assert_int_equal(s.expected, expected);
  assert_int_equal(s.pending, pending);
  assert_int_equal(s.tx, tx);
  assert_int_equal(s.phase, phase);
}

static void test_arrivals_complete_a_phase(void **state) {
  (void)state;
  lx_val v = init(2);
  expect_state(v, 2, 2, 0, 0);
  assert_true(v >= 0);
  v = lx_op_apply(LX_OP_MB_ARRIVE, v, 1);
  expect_state(v, 2, 1, 0, 0);
  assert_int_equal(lx_op_apply(LX_OP_MB_DONE_PARITY, v, 0), 0);
  v = lx_op_apply(LX_OP_MB_ARRIVE, v, 1);
  expect_state(v, 2, 2, 0, 1);   /* phase 1 starts with every arrival pending */
  assert_int_equal(lx_op_apply(LX_OP_MB_DONE_PARITY, v, 0), 1);
  assert_int_equal(lx_op_apply(LX_OP_MB_DONE_PARITY, v, 1), 0);
  assert_int_equal(lx_op_apply(LX_OP_MB_DONE, v, 0), 1);   /* the state token of phase 0 */
  assert_int_equal(lx_op_apply(LX_OP_MB_PHASE, v, 0), 1);
}

static void test_transactions_hold_the_phase(void **state) {
  (void)state;
  lx_val v = lx_op_apply(LX_OP_MB_ARRIVE_TX, init(1), 32);
  expect_state(v, 1, 0, 32, 0);   /* arrived, 32 bytes pending */
  v = lx_op_apply(LX_OP_MB_COMPLETE, v, 16);
  expect_state(v, 1, 0, 16, 0);
  v = lx_op_apply(LX_OP_MB_COMPLETE, v, 16);
  expect_state(v, 1, 1, 0, 1);
}

static void test_complete_before_expect(void **state) {
  (void)state;
  lx_val v = lx_op_apply(LX_OP_MB_COMPLETE, init(1), 16);
  expect_state(v, 1, 1, -16, 0);
  v = lx_op_apply(LX_OP_MB_EXPECT, v, 16);
  expect_state(v, 1, 1, 0, 0);   /* the arrival is still missing */
  v = lx_op_apply(LX_OP_MB_ARRIVE, v, 1);
  expect_state(v, 1, 1, 0, 1);
}

static void test_arrive_drop_and_counts(void **state) {
  (void)state;
  lx_val v = lx_op_apply(LX_OP_MB_DROP, init(3), 1);
  expect_state(v, 2, 2, 0, 0);
  v = lx_op_apply(LX_OP_MB_ARRIVE, v, 2);   /* a count of 2 */
  expect_state(v, 2, 2, 0, 1);
  v = lx_op_apply(LX_OP_MB_ARRIVE, v, 5);   /* more than pending: the phase completes */
  expect_state(v, 2, 2, 0, 2);
}

static void test_phase_wraps(void **state) {
  (void)state;
  lx_val v = init(1);
  for (int i = 0; i < 128; i++) v = lx_op_apply(LX_OP_MB_ARRIVE, v, 1);
  expect_state(v, 1, 1, 0, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_arrivals_complete_a_phase),
    cmocka_unit_test(test_transactions_hold_the_phase),
    cmocka_unit_test(test_complete_before_expect),
    cmocka_unit_test(test_arrive_drop_and_counts),
    cmocka_unit_test(test_phase_wraps),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
