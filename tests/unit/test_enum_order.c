/* test_enum_order.c - strict partial orders chosen pair by pair, and
 * barrier arrival orders.
 * SPDX-License-Identifier: MIT
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "enum/enum_int.h"
#include "enum_fixture.h"

/* ---- orders --------------------------------------------------------------------- */

static rel_rel *all_pairs(size_t n) {
  rel_rel *dom = rel_new(n);
  for (size_t a = 0; a < n; a++)
    for (size_t b = 0; b < n; b++)
      if (a != b) rel_add(dom, a, b);
  return dom;
}

/* Counts the complete choices below pair k, checking each is a strict
 * partial order. */
static size_t count_orders(enum_order *o, size_t k) {
  while (k < o->npairs && enum_order_decided(o, o->pairs[k][0], o->pairs[k][1])) k++;
  if (k == o->npairs) {
    rel_rel *c = rel_copy(o->before);
    rel_plus_into(c);
    assert_true(rel_equal(c, o->before));   /* transitive */
    assert_true(rel_irreflexive(o->before));
    rel_free(c);
    return 1;
  }
  size_t a = o->pairs[k][0], b = o->pairs[k][1], total = 0;
  rel_rel *before = rel_copy(o->before), *apart = rel_copy(o->apart);
  for (int how = 0; how < 3; how++) {
    rel_assign(o->before, before);
    rel_assign(o->apart, apart);
    bool ok = how == 0 ? (enum_order_separate(o, a, b), true)
            : how == 1 ? enum_order_relate(o, a, b) : enum_order_relate(o, b, a);
    if (ok) total += count_orders(o, k + 1);
  }
  rel_assign(o->before, before);
  rel_assign(o->apart, apart);
  rel_free(before);
  rel_free(apart);
  return total;
}

/* Every strict partial order exactly once: the labelled posets on n
 * points number 1, 1, 3, 19, 219, 4231 (OEIS A001035). */
static void test_enum_order_counts_posets(void **state) {
  (void)state;
  static const size_t posets[] = {1, 1, 3, 19, 219, 4231};
  for (size_t n = 0; n < LC_ARRAY_LEN(posets); n++) {
    enum_order o;
    enum_order_init(&o, all_pairs(n));
    assert_int_equal(count_orders(&o, 0), posets[n]);
    enum_order_fini(&o);
  }
}

static void test_enum_order_closes_and_refuses_cycles(void **state) {
  (void)state;
  enum_order o;
  enum_order_init(&o, all_pairs(3));
  assert_true(enum_order_relate(&o, 0, 1));
  assert_true(enum_order_relate(&o, 1, 2));
  assert_true(rel_has(o.before, 0, 2));
  assert_true(enum_order_decided(&o, 2, 0));
  assert_false(enum_order_relate(&o, 2, 0));
  enum_order_fini(&o);
  /* A pair decided unrelated cannot be implied later. */
  enum_order_init(&o, all_pairs(3));
  enum_order_separate(&o, 0, 2);
  assert_true(enum_order_relate(&o, 0, 1));
  assert_false(enum_order_relate(&o, 1, 2));
  enum_order_fini(&o);
}

static void test_enum_order_may(void **state) {
  (void)state;
  enum_order o;
  enum_order_init(&o, all_pairs(3));
  assert_true(enum_order_relate(&o, 0, 1));
  enum_order_separate(&o, 1, 2);
  rel_rel *may = enum_order_may(&o);
  assert_true(rel_has(may, 0, 1));
  assert_false(rel_has(may, 1, 0));
  assert_false(rel_has(may, 1, 2));
  assert_false(rel_has(may, 2, 1));
  assert_true(rel_has(may, 0, 2) && rel_has(may, 2, 0));
  rel_free(may);
  enum_order_fini(&o);
}

/* ---- barriers -------------------------------------------------------------------- */

static size_t bar_choices(const char *text) {
  fx_test x;
  assert_true(fx_parse(&x, text));
  int paths[8];
  for (size_t t = 0; t < x.p->nthreads; t++) paths[t] = x.p->threads[t].paths[0];
  enum_frame *f = enum_frame_new(x.p, paths);
  lx_val *val = calloc(x.p->nevents, sizeof(lx_val));
  size_t n;
  rel_rel **v = enum_bar_choices(f, val, &n);
  for (size_t i = 0; i < n; i++) rel_free(v[i]);
  free(v);
  free(val);
  enum_frame_free(f);
  fx_free(&x);
  return n;
}

/* Without a count every arrival comes before the wait: one order. */
static void test_enum_bar_sync_all(void **state) {
  (void)state;
  assert_int_equal(bar_choices("PTX b\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"
                               " bar.sync 1 | bar.sync 1 ;\n exists (x == 0)\n"),
                   1);
}

/* A count of 1 releases each wait at once: the other thread's arrival
 * may come before or not, on each side, but not after on both sides
 * (each thread arrives before it waits). */
static void test_enum_bar_quorum_one(void **state) {
  (void)state;
  assert_int_equal(bar_choices("PTX b\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"
                               " bar.sync 1, 0, 1 | bar.sync 1, 0, 1 ;\n exists (x == 0)\n"),
                   3);
}

/* Opposite orders of two barriers deadlock: no candidate at all. */
static void test_enum_bar_deadlock(void **state) {
  (void)state;
  assert_int_equal(bar_choices("PTX b\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"
                               " bar.sync 1 | bar.sync 2 ;\n bar.sync 2 | bar.sync 1 ;\n exists (x == 0)\n"),
                   0);
}

/* Different CTAs never meet at a barrier. */
static void test_enum_bar_other_cta(void **state) {
  (void)state;
  assert_int_equal(bar_choices("PTX b\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
                               " bar.sync 1 | bar.sync 2 ;\n bar.sync 2 | bar.sync 1 ;\n exists (x == 0)\n"),
                   1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_enum_order_counts_posets),
    cmocka_unit_test(test_enum_order_closes_and_refuses_cycles),
    cmocka_unit_test(test_enum_order_may),
    cmocka_unit_test(test_enum_bar_sync_all),
    cmocka_unit_test(test_enum_bar_quorum_one),
    cmocka_unit_test(test_enum_bar_deadlock),
    cmocka_unit_test(test_enum_bar_other_cta),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
