/* test_unroll_hint.c - the --unroll the loop-bound warning suggests: the
 * smallest bound that leaves no allowed execution unexplored, "none up to
 * the last step" for a loop that may iterate any number of times, and the text of
 * each answer.
 * SPDX-License-Identifier: MIT
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>

#include <cmocka.h>

#include "check.h"
#include "enum_fixture.h"
#include "term.h"
#include "unroll_hint.h"

/* P0 takes its backward jump three times. */
static const char *const count3 =
  "PTX count\n{ x=0; }\n P0@cta 0,gpu 0 ;\n mov r0, 0 ;\n LC00: ;\n add r0, r0, 1 ;\n"
  " blt r0, 4, LC00 ;\n st.relaxed.gpu x, r0 ;\nexists (x == 4)\n";
/* P1 may read 0 any number of times. */
static const char *const spin =
  "PTX spin\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.relaxed.gpu x, 1 | LC00: ;\n"
  " | ld.relaxed.gpu r0, x ;\n | beq r0, 0, LC00 ;\nexists (P1:r0 == 1)\n";

static lc_unroll_hint hint(const char *text, unsigned unroll, double timeout) {
  cat_model *m = fx_model("ptx-v7.5");
  assert_non_null(m);
  fx_test x;
  assert_true(fx_parse(&x, text));
  lc_check_options o;
  lc_check_options_init(&o);
  o.engine = LC_ENGINE_SMT;   /* the search asks auto's engine anyway */
  o.timeout = timeout;
  /* every retry unrolled: `spin` left as it is would keep one retry of its
   * read-only loop, and no bound would be reached (test_spin_reduce) */
  o.no_spin_reduce = true;
  lc_unroll_hint h = lc_unroll_cover(x.t, m, &o, unroll, lc_now());
  fx_free(&x);
  cat_model_free(m);
  return h;
}

static void assert_term_text(const lc_unroll_hint *h, int termination, const char *want) {
  lc_buf b;
  lc_buf_init(&b);
  lc_unroll_hint_text(&b, h, termination);
  assert_string_equal(b.s, want);
  lc_buf_fini(&b);
}

static void assert_text(const lc_unroll_hint *h, const char *want) {
  lc_buf b;
  lc_buf_init(&b);
  lc_unroll_hint_text(&b, h, LC_TERM_NOT_ASKED);
  assert_string_equal(b.s, want);
  lc_buf_fini(&b);
}

static void test_hint_covers(void **state) {
  (void)state;
  lc_unroll_hint h = hint(count3, 1, 0);
  assert_int_equal(h.covers, 3);
  assert_int_equal(h.tried, 3);
  assert_false(h.stopped);
  assert_text(&h, "--unroll 3 explores them all");
}

static void test_hint_spins(void **state) {
  (void)state;
  lc_unroll_hint h = hint(spin, 2, 0);
  assert_int_equal(h.covers, 0);
  assert_int_equal(h.tried, 2 + LC_UNROLL_HINT_STEPS);
  assert_false(h.stopped);
  assert_text(&h, "even --unroll 6 leaves some unexplored: the model lets a loop iterate any number of times (a "
                  "read may see the same value again and again), which is no hang: --termination asks whether one "
                  "may spin for ever");
  /* the two questions answered together say the same thing twice over */
  assert_term_text(&h, LC_TERM_TERMINATES,
                   "even --unroll 6 leaves some unexplored: the model lets a loop iterate any number of times (a "
                   "read may see the same value again and again), yet under fair scheduling every execution ends "
                   "(Termination: terminates)");
  assert_term_text(&h, LC_TERM_MAY_HANG,
                   "even --unroll 6 leaves some unexplored: the model lets a loop iterate any number of times (a "
                   "read may see the same value again and again), and under fair scheduling one may spin for ever "
                   "(Termination: may not terminate)");
}

/* What nothing tried, or a search cut short, says. */
static void test_hint_texts(void **state) {
  (void)state;
  lc_unroll_hint none = {2, 0, 2, true};
  assert_text(&none, "--unroll 3 explores one more iteration");
  lc_unroll_hint late = {2, 0, 4, true};
  assert_text(&late, "even --unroll 4 leaves some unexplored (larger ones could not be checked)");
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_hint_covers),
    cmocka_unit_test(test_hint_spins),
    cmocka_unit_test(test_hint_texts),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
