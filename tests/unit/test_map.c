/* test_map.c - mapping tables: parsing, validation for a target, matching;
 * lifting compiler-made PTX.
 * SPDX-License-Identifier: MIT
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "map/lift.h"
#include "map/map.h"

static map_table *parse_text(const char *text, int sm, char **err) {
  lc_source src;
  lc_source_from_string(&src, "t.map", text, strlen(text));
  lc_diag d;
  lc_diag_init(&d, &src, NULL);
  map_table *m = map_parse(&src, sm, &d);
  *err = lc_diag_first_error(&d) ? lc_xstrdup(lc_diag_first_error(&d)) : NULL;
  lc_diag_fini(&d);
  lc_source_fini(&src);
  return m;
}

static map_table *parse_file(const char *name, int sm) {
  char path[1024];
  snprintf(path, sizeof path, "%s/mappings/%s", LC_SRCDIR, name);
  lc_source src;
  assert_int_equal(lc_source_read(&src, path), 0);
  lc_diag d;
  lc_diag_init(&d, &src, stderr);
  map_table *m = map_parse(&src, sm, &d);
  lc_diag_fini(&d);
  lc_source_fini(&src);
  assert_non_null(m);
  return m;
}

static void expect_error(const char *text, int sm, const char *want) {
  char *err;
  map_table *m = parse_text(text, sm, &err);
  assert_null(m);
  assert_non_null(err);
  if (!strstr(err, want)) fail_msg("error '%s' lacks '%s'", err, want);
  free(err);
}

static void test_map_shipped_tables(void **state) {
  (void)state;
  const char *names[] = {"ptx-abi.map", "asplos19.map", "nvvm.map"};
  int sms[] = {75, 80, 90};
  for (size_t i = 0; i < 3; i++)
    for (size_t j = 0; j < 3; j++) {
      map_table *m = parse_file(names[i], sms[j]);
      assert_non_null(map_row_for(m, MAP_LOAD, MAP_SC));
      assert_int_equal(m->scope[MAP_DEVICE], LT_SCOPE_GPU);
      map_table_free(m);
    }
}

static void test_map_abi_alternatives(void **state) {
  (void)state;
  map_table *m = parse_file("ptx-abi.map", 90);
  const map_row *r = map_row_for(m, MAP_LOAD, MAP_SC);
  assert_int_equal(r->nalts, 2);
  assert_int_equal(r->alts[1].nins, 3);
  assert_int_equal(r->alts[1].access, 1);
  assert_int_equal(r->alts[1].id, 2);
  assert_int_equal(m->scope[MAP_CLUSTER], LT_SCOPE_CLUSTER);
  assert_null(map_row_for(m, MAP_RMW, MAP_NA));
  map_table_free(m);
  m = parse_file("ptx-abi.map", 80);
  assert_int_equal(m->scope[MAP_CLUSTER], LT_SCOPE_NONE);
  map_table_free(m);
}

static void test_map_nvvm_guards(void **state) {
  (void)state;
  map_table *m = parse_file("nvvm.map", 80);
  assert_int_equal(m->scope[MAP_CLUSTER], LT_SCOPE_GPU);
  assert_int_equal(map_row_for(m, MAP_STORE, MAP_SC)->nalts, 2);
  map_table_free(m);
  /* before sm_70 the prose reading has the volatile access alone, the
   * gated one a membar after a seq_cst load */
  m = parse_file("nvvm.map", 60);
  const map_row *r = map_row_for(m, MAP_LOAD, MAP_SC);
  assert_int_equal(r->nalts, 1);
  assert_int_equal(r->alts[0].nins, 1);
  assert_int_equal(r->alts[0].ins[0].sem, LT_SEM_VOLATILE);
  assert_int_equal(r->alts[0].id, 2);
  assert_null(map_row_for(m, MAP_RMW, MAP_SC));
  map_table_free(m);
  m = parse_file("nvvm-gated.map", 60);
  r = map_row_for(m, MAP_LOAD, MAP_SC);
  assert_int_equal(r->nalts, 1);
  assert_true(r->alts[0].ins[1].membar);
  assert_int_equal(r->alts[0].id, 2);
  map_table_free(m);
}

static void test_map_errors(void **state) {
  (void)state;
  expect_error("scope cluster -> cluster\n", 80,
               "t.map:1:18: error: row 'scope cluster -> cluster' is not valid for sm_80");
  expect_error("fence seq_cst -> fence.sc.cluster\n", 80,
               "t.map:1:18: error: row 'fence seq_cst #1' is not valid for sm_80: '.cluster' scope");
  expect_error("load relaxed -> ld.relaxed.S\n", 60, "need sm_70 or higher");
  expect_error("load acquire -> st.release.S\n", 90, "t.map:1:17: error: a load row needs exactly one ld");
  expect_error("store acquire -> st.release.S\n", 90, "t.map:1:7: error: C++ has no acquire store");
  expect_error("load na -> ld.relaxed.S\n", 90, "a non-atomic access has no scope");
  expect_error("load relaxed -> ld.relaxed\n", 90, "needs a scope");
  expect_error("load relaxed -> ld.relaxed.S [sm >= x]\n", 90, "expected a number");
  expect_error("load relaxed ld.relaxed.S\n", 90, "t.map:1:14: error: expected '->', found 'ld.relaxed.S'");
  expect_error("load relaxed\n", 90, "t.map:1:13: error: expected '->', found end of line");
  expect_error("scope block -> cta\nscope block -> gpu\n", 90, "a second scope row");
  expect_error("rmw relaxed -> atom.relaxed.S.add\n", 90, "malformed instruction");
}

static void test_map_guarded_alternative_dropped(void **state) {
  (void)state;
  char *err;
  map_table *m = parse_text("load seq_cst -> fence.sc.cluster; ld.acquire.S [sm >= 90]\n"
                            "             | fence.sc.S; ld.acquire.S\n", 80, &err);
  assert_null(err);
  const map_row *r = map_row_for(m, MAP_LOAD, MAP_SC);
  assert_int_equal(r->nalts, 1);
  assert_int_equal(r->alts[0].id, 2);
  lc_buf b;
  lc_buf_init(&b);
  map_print_alt(&b, &r->alts[0]);
  assert_string_equal(b.s, "fence.sc.S; ld.acquire.S");
  lc_buf_fini(&b);
  map_table_free(m);
}

static void test_map_match(void **state) {
  (void)state;
  map_table *m = parse_file("ptx-abi.map", 90);
  const map_row *r = map_row_for(m, MAP_LOAD, MAP_SC);
  lt_instr f = {.kind = LT_I_FENCE, .sem = LT_SEM_SC, .scope = LT_SCOPE_GPU};
  lt_instr l = {.kind = LT_I_LD, .sem = LT_SEM_ACQUIRE, .scope = LT_SCOPE_GPU};
  const lt_instr *seq[] = {&f, &l};
  assert_true(map_alt_matches(&r->alts[0], LT_SCOPE_GPU, seq, 2));
  assert_false(map_alt_matches(&r->alts[0], LT_SCOPE_CTA, seq, 2));
  assert_false(map_alt_matches(&r->alts[1], LT_SCOPE_GPU, seq, 2));
  map_table_free(m);
}

static char *read_all(const char *path) {
  lc_source src;
  assert_int_equal(lc_source_read(&src, path), 0);
  char *s = lc_xstrndup(src.text, src.len);
  lc_source_fini(&src);
  return s;
}

static void test_lift_sample(void **state) {
  (void)state;
  char *ptx = read_all(LC_SRCDIR "/tests/map/lift-sample.ptx");
  const char *locs[] = {"x", "y"};
  lc_arena *a = lc_arena_new();
  lc_diag d;
  lc_diag_init(&d, NULL, stderr);
  lift_thread t;
  assert_int_equal(lift_ptx(a, ptx, "s.ptx", "P0", locs, 2, 2, 2, &t, &d), 0);
  lc_buf b;
  lc_buf_init(&b);
  for (size_t i = 0; i < t.n; i++) {
    lc_buf_printf(&b, "%d: ", t.v[i].marker);
    lt_print_instr(&b, &t.v[i].in);
    lc_buf_putc(&b, '\n');
  }
  assert_string_equal(b.s,
                      "1: st.weak [x], 1\n"
                      "2: st.release.gpu [y], 1\n"
                      "3: fence.sc.cta\n"
                      "3: ld.acquire.cta r0, [y]\n"
                      "4: ld.weak r1, [x]\n"
                      "5: atom.acq_rel.sys.cas r2, [x], 1, 2\n"
                      "6: st.weak [y], r0\n");
  assert_int_equal(t.out_reg[0], 0);
  assert_int_equal(t.out_reg[1], 1);
  lc_buf_fini(&b);
  lc_diag_fini(&d);
  lc_arena_free(a);
  free(ptx);
}

static void lift_refused(const char *body, const char *want) {
  char ptx[2048];
  snprintf(ptx, sizeof ptx,
           ".visible .entry P0(\n.param .u64 P0_param_0,\n.param .u64 P0_param_1\n)\n{\n"
           "\tld.param.u64 %%rd1, [P0_param_0];\n\t// lc 0\n%s\n\t// lc end\n\tret;\n}\n", body);
  const char *locs[] = {"x"};
  lc_arena *a = lc_arena_new();
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  lift_thread t;
  assert_int_equal(lift_ptx(a, ptx, "s.ptx", "P0", locs, 1, 1, 1, &t, &d), -1);
  const char *err = lc_diag_first_error(&d);
  if (!strstr(err, want)) fail_msg("error '%s' lacks '%s'", err, want);
  lc_diag_fini(&d);
  lc_arena_free(a);
}

static void test_lift_refusals(void **state) {
  (void)state;
  lift_refused("\tadd.s32 %r2, %r1, 1;", "s.ptx:8:1: error: cannot lift 'add.s32 %r2, %r1, 1': only memory");
  lift_refused("\t@%p1 bra $L__BB0_2;", "control flow");
  lift_refused("\tld.relaxed.gpu.u32 %r1, [%rd1+4];", "an address with an offset");
  lift_refused("\tld.relaxed.gpu.L1::no_allocate.u32 %r1, [%rd1];", "qualifier");
  lift_refused("\tst.relaxed.gpu.u32 [%rd1], %r9;", "not known");
}

/* A byte that is no printable character is named by its value: a NUL
 * once ended the message inside its quotes ("unexpected character '"). */
static void test_map_odd_bytes(void **state) {
  (void)state;
  static const char text[] = "name x\nload na -> ld.weak\0\n";
  lc_source src;
  lc_source_from_string(&src, "t.map", text, sizeof text - 1);
  lc_diag d;
  lc_diag_init(&d, &src, NULL);
  assert_null(map_parse(&src, 90, &d));
  assert_string_equal(lc_diag_first_error(&d), "t.map:2:19: error: unexpected byte 0x00");
  lc_diag_fini(&d);
  lc_source_fini(&src);
  char *err;
  assert_null(parse_text("name x\nload na -> ld.weak\x01\n", 90, &err));
  assert_string_equal(err, "t.map:2:19: error: unexpected byte 0x01");
  free(err);
  assert_null(parse_text("name x\nload na -> ld.weak $\n", 90, &err));
  assert_string_equal(err, "t.map:2:20: error: unexpected character '$'");
  free(err);
}

/* Many alternatives: each is kept once (a copy of the list per '|' took
 * 8,000 alternatives 1.5 GB), in the order written. */
static void test_map_many_alternatives(void **state) {
  (void)state;
  lc_buf b;
  lc_buf_init(&b);
  lc_buf_puts(&b, "load na -> ld.weak\n");
  for (int i = 0; i < 50000; i++) lc_buf_puts(&b, i % 2 ? "  | ld.weak\n" : "  | fence.sc.gpu; ld.weak\n");
  char *err;
  map_table *m = parse_text(b.s, 90, &err);
  if (!m) print_error("%s\n", err);
  assert_non_null(m);
  const map_row *r = map_row_for(m, MAP_LOAD, MAP_NA);
  assert_non_null(r);
  assert_int_equal(r->nalts, 50001);
  for (size_t i = 0; i < r->nalts; i++) {
    assert_int_equal(r->alts[i].id, (int)i + 1);
    assert_int_equal(r->alts[i].nins, i == 0 || i % 2 == 0 ? 1 : 2);
  }
  map_table_free(m);
  lc_buf_fini(&b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_map_shipped_tables),
    cmocka_unit_test(test_map_odd_bytes),
    cmocka_unit_test(test_map_many_alternatives),
    cmocka_unit_test(test_map_abi_alternatives),
    cmocka_unit_test(test_map_nvvm_guards),
    cmocka_unit_test(test_map_errors),
    cmocka_unit_test(test_map_guarded_alternative_dropped),
    cmocka_unit_test(test_map_match),
    cmocka_unit_test(test_lift_sample),
    cmocka_unit_test(test_lift_refusals),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
