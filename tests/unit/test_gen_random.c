/* test_gen_random.c - random tests: deterministic, well formed, in normal
 * form, of the promised shape.
 * SPDX-License-Identifier: MIT
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "enum_fixture.h"
#include "gen/gen.h"
#include "../roundtrip.h"

static char *random_text(uint64_t seed, uint64_t index) {
  gen_options o;
  gen_options_init(&o);
  o.seed = seed;
  lt_test *t = gen_random(&o, index);
  char *s = rt_print(t);
  lt_test_free(t);
  return s;
}

static void test_gen_random_deterministic(void **state) {
  (void)state;
  for (uint64_t i = 0; i < 20; i++) {
    char *a = random_text(99, i), *b = random_text(99, i), *c = random_text(100, i);
    assert_string_equal(a, b);
    assert_string_not_equal(a, c);
    free(a);
    free(b);
    free(c);
  }
}

/* Printed, the test parses without a message into an equal AST, prints
 * the same again, and lowers. */
static void check_round_trip(const lt_test *t) {
  char *text = rt_print(t);
  lc_source src;
  lc_source_from_string(&src, "gen.litmus", text, strlen(text));
  lc_diag d;
  lc_diag_init(&d, &src, stderr);
  lt_test *back = lt_parse(&src, &d);
  assert_non_null(back);
  assert_int_equal(d.msgs.n, 0);
  assert_true(lt_test_equal(t, back));
  char *again = rt_print(back);
  assert_string_equal(text, again);
  lx_program *p = lx_lower(back, NULL, &d);
  assert_non_null(p);
  lx_program_free(p);
  lc_diag_fini(&d);
  lt_test_free(back);
  lc_source_fini(&src);
  free(again);
  free(text);
}

static bool names_reg(const lt_prop *p, int thread, int reg) {
  if (!p) return false;
  if (p->kind == LT_PROP_CMP) return p->lhs.kind == LT_TERM_REG && p->lhs.thread == thread && p->lhs.reg == reg;
  return names_reg(p->l, thread, reg) || names_reg(p->r, thread, reg);
}

/* 2-4 threads of 1-4 instructions (a branch adds itself and a label, a
 * barrier itself), every register written is in the condition, and no
 * branch jumps over a barrier. */
static void check_shape(const lt_test *t) {
  assert_in_range(t->nthreads, 2, 4);
  for (size_t j = 0; j < t->nthreads; j++) {
    size_t n = 0;
    bool skipping = false;
    for (size_t r = 0; r < t->threads[j].ncells; r++) {
      const lt_instr *in = t->threads[j].cells[r].instr;
      if (t->threads[j].cells[r].label) skipping = false;
      if (!in) continue;
      skipping |= in->kind == LT_I_BRANCH;
      assert_false(skipping && in->kind == LT_I_BAR);
      n += in->kind != LT_I_BRANCH && in->kind != LT_I_BAR;
      if (in->dst.kind == LT_OPND_REG) assert_true(names_reg(t->cond, (int)j, in->dst.reg));
    }
    assert_in_range(n, 1, 4);
  }
}

static void test_gen_random_well_formed(void **state) {
  (void)state;
  gen_options o;
  gen_options_init(&o);
  o.seed = 2024;
  for (uint64_t i = 0; i < 400; i++) {
    lt_test *t = gen_random(&o, i);
    check_round_trip(t);
    check_shape(t);
    lt_test_free(t);
  }
}

/* Over many tests, every feature the generator promises shows up. */
static void test_gen_random_variety(void **state) {
  (void)state;
  gen_options o;
  gen_options_init(&o);
  o.seed = 5;
  bool seen[24] = {0};
  for (uint64_t i = 0; i < 800; i++) {
    lt_test *t = gen_random(&o, i);
    seen[0] |= t->threads[0].cluster >= 0;
    for (size_t j = 0; j < t->nthreads; j++) {
      seen[1] |= t->threads[j].gpu == 1;
      for (size_t r = 0; r < t->threads[j].ncells; r++) {
        const lt_instr *in = t->threads[j].cells[r].instr;
        if (!in) continue;
        seen[2] |= in->kind == LT_I_ATOM && in->rmw == LT_RMW_CAS;
        seen[3] |= in->kind == LT_I_ATOM && in->rmw == LT_RMW_EXCH;
        seen[4] |= in->kind == LT_I_ATOM && in->rmw == LT_RMW_ADD;
        seen[5] |= in->kind == LT_I_RED;
        seen[6] |= in->kind == LT_I_FENCE && in->sem == LT_SEM_SC;
        seen[7] |= in->kind == LT_I_FENCE && in->sem == LT_SEM_ACQ_REL;
        seen[8] |= in->kind == LT_I_BRANCH;
        seen[9] |= in->kind == LT_I_ST && in->a.kind == LT_OPND_REG;
        seen[10] |= in->scope == LT_SCOPE_CLUSTER;
        seen[11] |= in->scope == LT_SCOPE_CTA;
        seen[14] |= in->membar;
        seen[15] |= in->sem == LT_SEM_VOLATILE;
        seen[16] |= in->kind == LT_I_ALU;
        seen[17] |= in->kind == LT_I_ATOM && in->rmw == LT_RMW_INC;
        seen[21] |= in->kind == LT_I_BAR && !in->bar_arrive && in->nbar_operands == 1;
        seen[22] |= in->kind == LT_I_BAR && in->bar_arrive;
        seen[23] |= in->kind == LT_I_BAR && !in->bar_arrive && in->nbar_operands == 3;
      }
    }
    seen[12] |= t->quant == LT_COND_FORALL;
    seen[13] |= t->quant == LT_COND_NOT_EXISTS;
    seen[18] |= t->filter != NULL;
    seen[19] |= t->has_locations;
    for (size_t k = 0; k < t->ninits; k++) seen[20] |= t->inits[k].value != 0;
    lt_test_free(t);
  }
  for (size_t k = 0; k < LC_ARRAY_LEN(seen); k++)
    if (!seen[k]) fail_msg("feature %zu never generated", k);
}

static void test_gen_random_options(void **state) {
  (void)state;
  gen_options o;
  gen_options_init(&o);
  o.seed = 3;
  o.min_threads = o.max_threads = 3;
  o.max_instrs = 1;
  for (uint64_t i = 0; i < 50; i++) {
    lt_test *t = gen_random(&o, i);
    assert_int_equal(t->nthreads, 3);
    check_round_trip(t);
    lt_test_free(t);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_gen_random_deterministic),
    cmocka_unit_test(test_gen_random_well_formed),
    cmocka_unit_test(test_gen_random_variety),
    cmocka_unit_test(test_gen_random_options),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
