/* test_lint.c - the lints of named CTA barriers and remote mbarrier waits
 * (src/exec/lint.c): each rule on the mistake it names, and silence on the
 * shapes next to it that are no mistake (a register's id, a loop's later
 * copies, one thread standing for its CTA, the read half of a remote
 * arrive).
 * SPDX-License-Identifier: MIT
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/exec.h"
#include "litmus/ast.h"

/* The lints of a test whose threads and code are `rows` (after the thread
 * row), x=0, f=0, z=0 initially, as "RULE@LINE:COL" joined by spaces. */
static char *lints_of(const char *threads, const char *rows) {
  char text[2048];
  snprintf(text, sizeof text, "PTX t\n{\nx=0; f=0; z=0;\n}\n%s\n%sexists (x == 0)\n", threads, rows);
  lc_source src;
  lc_source_from_string(&src, "t.litmus", text, strlen(text));
  lc_diag d;
  lc_diag_init(&d, &src, NULL);   /* kept, not printed: some locations go unused */
  lt_test *t = lt_parse(&src, &d);
  assert_non_null(t);
  lx_program *p = lx_lower(t, NULL, &d);
  assert_non_null(p);
  lx_lint *l;
  size_t n = lx_lint_program(p, &l);
  lc_buf b;
  lc_buf_init(&b);
  for (size_t i = 0; i < n; i++) lc_buf_printf(&b, "%s%s@%d:%d", i ? " " : "", l[i].rule, l[i].at.line, l[i].at.col);
  lx_lints_free(l, n);
  lx_program_free(p);
  lt_test_free(t);
  lc_diag_fini(&d);
  lc_source_fini(&src);
  char *s = lc_buf_take(&b);
  lc_buf_fini(&b);
  return s;
}

static void expect_lints(const char *threads, const char *rows, const char *want) {
  char *got = lints_of(threads, rows);
  assert_string_equal(got, want);
  free(got);
}

#define TWO " P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;"
#define THREE " P0@cta 0,gpu 0 | P1@cta 0,gpu 0 | P2@cta 0,gpu 0 ;"

static void test_handshake_is_clean(void **state) {
  (void)state;
  expect_lints(TWO,
               " st.weak x, 1 | bar.cta.sync 1, 0, 2 ;\n"
               " bar.cta.arrive 1, 0, 2 | ld.weak r0, x ;\n"
               " bar.cta.sync 2, 0, 2 | bar.cta.arrive 2, 0, 2 ;\n",
               "");
}

/* Only the thread out of step with the first is reported, at its line. */
static void test_count_mismatch(void **state) {
  (void)state;
  expect_lints(THREE,
               " bar.cta.sync 1, 0, 3 | bar.cta.sync 1, 0, 2 | bar.cta.sync 1, 0, 3 ;\n",
               "barrier-count-mismatch@6:25");
  /* no id and id 0 are two barriers: no mismatch, but P1 waits alone */
  expect_lints(TWO, " bar.cta.sync 1 | bar.cta.sync 1, 0, 2 ;\n", "barrier-count-unmet@6:19");
  expect_lints(TWO, " bar.cta.sync 1, 0 | bar.cta.sync 1, 0, 2 ;\n", "barrier-count-mismatch@6:22");
}

static void test_count_unmet(void **state) {
  (void)state;
  expect_lints(TWO, " bar.cta.sync 1, 0, 3 | bar.cta.sync 1, 0, 3 ;\n",
               "barrier-count-unmet@6:2 barrier-count-unmet@6:25");
  expect_lints(THREE, " bar.cta.sync 1, 0, 3 | bar.cta.sync 1, 0, 3 | bar.cta.sync 1, 0, 3 ;\n", "");
}

/* An id in a register may be any: nothing is claimed about it. */
static void test_register_id_is_silent(void **state) {
  (void)state;
  expect_lints(TWO,
               " ld.weak r2, z | bar.cta.sync 1, 1, 2 ;\n"
               " bar.cta.sync 1, r2, 2 | ;\n",
               "");
}

static void test_arrive_without_count_never_waited(void **state) {
  (void)state;
  expect_lints(TWO, " bar.cta.arrive 1 | bar.cta.sync 1 ;\n", "arrive-without-count@6:2");
  expect_lints(TWO, " bar.cta.arrive 1, 0, 2 | bar.cta.sync 2, 0, 2 ;\n",
               "arrive-never-waited@6:2 barrier-count-unmet@6:27");
}

/* A loop's later arrivals have no waiter, its first has: no finding. */
static void test_loop_copies(void **state) {
  (void)state;
  expect_lints(TWO,
               " LC00: | bar.cta.sync 1, 0, 2 ;\n"
               " bar.cta.arrive 1, 0, 2 | st.weak f, 1 ;\n"
               " ld.weak r0, f | ;\n"
               " beq r0, 0, LC00 | ;\n",
               "");
}

/* Two threads alone in their CTAs at one barrier; one thread standing for
 * its CTA beside a pair of another CTA is no finding. */
/* remote-mbarrier-wait: a wait on another CTA's mbarrier, not the read
 * half of a remote arrive (which every remote arrive has). */
static void test_remote_arrive_is_no_wait(void **state) {
  (void)state;
  const char *threads = " P0@cta 0,cluster 0,gpu 0 | P1@cta 1,cluster 0,gpu 0 ;";
  expect_lints(threads,
               " mbarrier.init.shared::cta.b64 [bar], 1 | mapa.shared::cluster.u32 r1, bar, 0 ;\n"
               " barrier.cluster.arrive | barrier.cluster.arrive ;\n"
               " barrier.cluster.wait | barrier.cluster.wait ;\n"
               " mbarrier.test_wait.parity.shared::cta.b64 r0, [bar], 0 | "
               "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [r1] ;\n"
               "bar: shared\n",
               "");
  expect_lints(threads,
               " mbarrier.init.shared::cta.b64 [bar], 1 | mapa.shared::cluster.u32 r1, bar, 0 ;\n"
               " barrier.cluster.arrive | barrier.cluster.arrive ;\n"
               " barrier.cluster.wait | barrier.cluster.wait ;\n"
               " mbarrier.arrive.shared::cta.b64 _, [bar] | mbarrier.test_wait.parity.shared::cta.b64 r0, [r1], 0 ;\n"
               "bar: shared\n",
               "remote-mbarrier-wait@9:45");
}

static void test_across_ctas(void **state) {
  (void)state;
  expect_lints(" P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;", " bar.cta.sync 1 | bar.cta.sync 1 ;\n",
               "cta-barrier-across-ctas@6:2 cta-barrier-across-ctas@6:19");
  expect_lints(" P0@cta 0,gpu 0 | P1@cta 1,gpu 0 | P2@cta 1,gpu 0 ;",
               " bar.cta.sync 1 | bar.cta.sync 1 | bar.cta.sync 1 ;\n", "");
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_handshake_is_clean),
    cmocka_unit_test(test_count_mismatch),
    cmocka_unit_test(test_count_unmet),
    cmocka_unit_test(test_register_id_is_silent),
    cmocka_unit_test(test_arrive_without_count_never_waited),
    cmocka_unit_test(test_loop_copies),
    cmocka_unit_test(test_across_ctas),
    cmocka_unit_test(test_remote_arrive_is_no_wait),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
