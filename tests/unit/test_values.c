/* test_values.c - the value operations both engines share (lx_op_apply):
 * shifts with the PTX ISA's clamp, floats as binary32 bits.  The SMT
 * engine's encodings are checked against these by tests/e2e/values.sh.
 * SPDX-License-Identifier: MIT
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "exec/exec.h"

static lx_val F(float f) { return lx_val_of_float(f); }

static void test_shifts_clamp(void **state) {
  (void)state;
  assert_int_equal(lx_op_apply(LX_OP_SHL, 1, 40), (lx_val)1 << 40);
  assert_int_equal(lx_op_apply(LX_OP_SHL, 1, 64), 0);
  assert_int_equal(lx_op_apply(LX_OP_SHL, 1, -1), 0);   /* an amount read unsigned: huge */
  assert_int_equal(lx_op_apply(LX_OP_SHR, -16, 60), 15);
  assert_int_equal(lx_op_apply(LX_OP_SHR, -16, 64), 0);
  assert_int_equal(lx_op_apply(LX_OP_SAR, -16, 2), -4);
  assert_int_equal(lx_op_apply(LX_OP_SAR, -16, 100), -1);
  assert_int_equal(lx_op_apply(LX_OP_SAR, 16, 100), 0);
  assert_int_equal(lx_op_apply(LX_OP_SAR, INT64_MIN, 63), -1);
}

static void test_alu_op_by_type(void **state) {
  (void)state;
  bool pre;
  assert_int_equal(lx_alu_op(LT_ALU_SHR, LT_TYPE_S32, &pre), LX_OP_SAR);
  assert_true(pre);
  assert_int_equal(lx_alu_op(LT_ALU_SHR, LT_TYPE_U32, &pre), LX_OP_SHR);
  assert_true(pre);
  assert_int_equal(lx_alu_op(LT_ALU_SHR, LT_TYPE_U64, &pre), LX_OP_SHR);
  assert_false(pre);
  assert_int_equal(lx_alu_op(LT_ALU_ADD, LT_TYPE_F32, &pre), LX_OP_FADD);
  assert_int_equal(lx_alu_op(LT_ALU_ADD, LT_TYPE_S32, &pre), LX_OP_ADD);
}

static void test_float_arithmetic(void **state) {
  (void)state;
  assert_int_equal(lx_op_apply(LX_OP_FADD, F(1.5f), F(-2.25f)), F(-0.75f));
  assert_int_equal(lx_op_apply(LX_OP_FMUL, F(3.0f), F(0.5f)), F(1.5f));
  /* rounded to nearest even: 2^24 + 1 is not a float */
  assert_int_equal(lx_op_apply(LX_OP_FADD, F(16777216.0f), F(1.0f)), F(16777216.0f));
  /* a NaN is the GPU's canonical one, whatever made it */
  assert_int_equal(lx_op_apply(LX_OP_FDIV, F(0.0f), F(0.0f)), 0x7fffffff);
  assert_int_equal(lx_op_apply(LX_OP_FSUB, F(1.0f / 0.0f), F(1.0f / 0.0f)), 0x7fffffff);
}

static void test_float_conversions(void **state) {
  (void)state;
  assert_int_equal(lx_op_apply(LX_OP_I2F, -3, 0), F(-3.0f));
  assert_int_equal(lx_op_apply(LX_OP_U2F, -1, 0), F(18446744073709551616.0f));
  assert_int_equal(lx_op_apply(LX_OP_F2I, F(-2.75f), 0), -2);
  assert_int_equal(lx_op_apply(LX_OP_F2I, F(7.5f), 0), 7);
  assert_int_equal(lx_op_apply(LX_OP_F2I, 0x7fffffff, 0), 0);
  assert_int_equal(lx_op_apply(LX_OP_F2I, F(1e30f), 0), INT64_MAX);
  assert_int_equal(lx_op_apply(LX_OP_F2I, F(-1e30f), 0), INT64_MIN);
}

static void test_float_order_keys(void **state) {
  (void)state;
  lx_val k[] = {F(-1e30f), F(-2.25f), F(-0.75f), F(0.0f), F(1e-30f), F(2.5f), F(1.0f / 0.0f)};
  for (size_t i = 0; i + 1 < sizeof k / sizeof k[0]; i++)
    assert_true(lx_op_apply(LX_OP_FKEY, k[i], 0) < lx_op_apply(LX_OP_FKEY, k[i + 1], 0));
  assert_int_equal(lx_op_apply(LX_OP_FKEY, F(-0.0f), 0), lx_op_apply(LX_OP_FKEY, F(0.0f), 0));
  assert_int_equal(lx_op_apply(LX_OP_FUNORD, 0x7fffffff, F(1.0f)), 1);
  assert_int_equal(lx_op_apply(LX_OP_FUNORD, F(1.0f), F(2.0f)), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_shifts_clamp),
    cmocka_unit_test(test_alu_op_by_type),
    cmocka_unit_test(test_float_arithmetic),
    cmocka_unit_test(test_float_conversions),
    cmocka_unit_test(test_float_order_keys),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
