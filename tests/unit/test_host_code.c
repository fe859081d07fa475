/* test_host_code.c - litmus instructions as host bytecode: the C11 orders
 * each .sem maps to, operands, barriers, and what the host refuses.
 * SPDX-License-Identifier: MIT
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "host/host.h"
#include "host/host_code.h"
#include "run_fixture.h"

/* Compiles a test; returns the first error message (static buffer) or
 * NULL, with the code in *hc on success. */
static const char *compile(const char *text, fixture *f, host_code *hc) {
  static char msg[512];
  assert_int_equal(fixture_load(f, "T.litmus", text), 0);
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  int rc = host_compile(f->prog, hc, &d);
  const char *err = lc_diag_first_error(&d);
  snprintf(msg, sizeof msg, "%s", err ? err : "");
  lc_diag_fini(&d);
  assert_int_equal(rc, err ? -1 : 0);
  return err ? msg : NULL;
}

static void test_host_code_sb(void **state) {
  (void)state;
  fixture f;
  host_code hc;
  assert_null(compile(SB_TEXT, &f, &hc));
  assert_int_equal(hc.nthreads, 2);
  const host_thread *t0 = &hc.threads[0];
  assert_int_equal(t0->nops, 2);
  assert_int_equal(t0->ops[0].code, HOST_ST);
  assert_int_equal(t0->ops[0].order, HOST_RLX);
  assert_int_equal(t0->ops[0].ploc, 0);   /* x */
  assert_int_equal(t0->ops[0].a.reg, -1);
  assert_int_equal(t0->ops[0].a.c, 1);
  assert_int_equal(t0->ops[1].code, HOST_LD);
  assert_int_equal(t0->ops[1].order, HOST_RLX);
  assert_int_equal(t0->ops[1].ploc, 1);   /* y */
  assert_int_equal(t0->ops[1].dst, 0);
  assert_false(t0->has_loop);
  assert_false(hc.has_bar);
  /* placement does not matter, but CTAs group threads for barriers */
  assert_int_equal(hc.threads[0].group, 0);
  assert_int_equal(hc.threads[1].group, 1);
  host_code_fini(&hc);
  fixture_fini(&f);
}

static void test_host_code_orders(void **state) {
  (void)state;
  fixture f;
  host_code hc;
  assert_null(compile("PTX orders\n{ x=0; }\n"
                      " P0@cta 0,gpu 0 ;\n"
                      " st.weak x, 1 ;\n"
                      " st.release.gpu x, 2 ;\n"
                      " st.volatile x, 3 ;\n"
                      " ld.acquire.sys r0, x ;\n"
                      " ld.relaxed.cta r1, x ;\n"
                      " ld.volatile r2, x ;\n"
                      " fence.sc.gpu ;\n"
                      " membar.gl ;\n"
                      " fence.acq_rel.cta ;\n"
                      " fence.gpu ;\n"
                      " fence.proxy.alias ;\n"
                      "exists (P0:r0 == 2)\n",
                      &f, &hc));
  const host_op *o = hc.threads[0].ops;
  host_opcode codes[] = {HOST_ST, HOST_ST, HOST_ST, HOST_LD, HOST_LD, HOST_LD,
                         HOST_FENCE, HOST_FENCE, HOST_FENCE, HOST_FENCE, HOST_NOP};
  host_order orders[] = {HOST_RLX, HOST_REL, HOST_RLX, HOST_ACQ, HOST_RLX, HOST_RLX,
                         HOST_SC, HOST_SC, HOST_ACQ_REL, HOST_ACQ_REL};
  assert_int_equal(hc.threads[0].nops, LC_ARRAY_LEN(codes));
  for (size_t i = 0; i < LC_ARRAY_LEN(codes); i++) {
    assert_int_equal(o[i].code, codes[i]);
    if (i < LC_ARRAY_LEN(orders)) assert_int_equal(o[i].order, orders[i]);
  }
  host_code_fini(&hc);
  fixture_fini(&f);
}

static void test_host_code_atomics(void **state) {
  (void)state;
  fixture f;
  host_code hc;
  assert_null(compile("PTX atomics\n{ x=0; }\n"
                      " P0@cta 0,gpu 0 ;\n"
                      " atom.acquire.gpu.add r0, x, 1 ;\n"
                      " atom.acq_rel.gpu.cas r1, x, 1, 5 ;\n"
                      " red.release.gpu.add x, 2 ;\n"
                      " atom.gpu.exch r2, x, r0 ;\n"
                      " atom.relaxed.gpu.max.u32 r3, x, 9 ;\n"
                      " atom.relaxed.gpu.min.s32 r3, x, 9 ;\n"
                      "exists (P0:r0 == 0)\n",
                      &f, &hc));
  const host_op *o = hc.threads[0].ops;
  assert_int_equal(o[0].code, HOST_RMW);
  assert_int_equal(o[0].order, HOST_ACQ);
  assert_int_equal(o[0].op, LX_OP_ADD);
  assert_int_equal(o[1].code, HOST_CAS);
  assert_int_equal(o[1].order, HOST_ACQ_REL);
  assert_int_equal(o[1].a.c, 1);
  assert_int_equal(o[1].b.c, 5);
  assert_int_equal(o[2].code, HOST_RMW);
  assert_int_equal(o[2].order, HOST_REL);
  assert_int_equal(o[2].dst, -1);
  assert_int_equal(o[3].code, HOST_EXCH);
  assert_int_equal(o[3].order, HOST_RLX);   /* no sem: relaxed */
  assert_int_equal(o[3].a.reg, 0);
  assert_int_equal(o[4].op, LX_OP_UMAX);
  assert_int_equal(o[5].op, LX_OP_MIN);
  host_code_fini(&hc);
  fixture_fini(&f);
}

/* A failed compare-exchange reads with its failure order: the C++ one
 * written (or derived from the success order), the atom's read half in
 * PTX.  It used to take the success order's derived one always, so a
 * relaxed-success acquire-failure CAS ran relaxed on failure. */
static const host_op *nth_cas(const host_code *hc, int n) {
  for (size_t i = 0; i < hc->threads[0].nops; i++)
    if (hc->threads[0].ops[i].code == HOST_CAS && n-- == 0) return &hc->threads[0].ops[i];
  return NULL;
}

static void test_host_code_cas_failure_order(void **state) {
  (void)state;
  fixture f;
  host_code hc;
  assert_null(compile("C cas\n{ [x] = 0; }\n"
                      "P0 (atomic_int* x) {\n"
                      "  int e = 1;\n"
                      "  int a = atomic_compare_exchange_strong_explicit(x, &e, 2, memory_order_relaxed, memory_order_acquire);\n"
                      "  int b = atomic_compare_exchange_strong_explicit(x, &e, 3, memory_order_release, memory_order_relaxed);\n"
                      "  int c = atomic_compare_exchange_strong_explicit(x, &e, 4, memory_order_acq_rel, memory_order_acquire);\n"
                      "  int d = atomic_compare_exchange_strong(x, &e, 5);\n"
                      "  int g = atomic_compare_exchange_strong_explicit(x, &e, 6, memory_order_seq_cst, memory_order_relaxed);\n"
                      "}\n"
                      "exists (0:a=0)\n",
                      &f, &hc));
  static const host_order want[][2] = {{HOST_RLX, HOST_ACQ}, {HOST_REL, HOST_RLX}, {HOST_ACQ_REL, HOST_ACQ},
                                       {HOST_SC, HOST_SC}, {HOST_SC, HOST_RLX}};
  for (int i = 0; i < (int)LC_ARRAY_LEN(want); i++) {
    const host_op *o = nth_cas(&hc, i);
    assert_non_null(o);
    assert_int_equal(o->order, want[i][0]);
    assert_int_equal(o->fail_order, want[i][1]);
  }
  assert_null(nth_cas(&hc, (int)LC_ARRAY_LEN(want)));
  host_code_fini(&hc);
  fixture_fini(&f);
  assert_null(compile("PTX cas\n{ x=0; }\n"
                      " P0@cta 0,gpu 0 ;\n"
                      " atom.acq_rel.gpu.cas r1, x, 1, 5 ;\n"
                      " atom.release.gpu.cas r2, x, 1, 5 ;\n"
                      " atom.gpu.cas r3, x, 1, 5 ;\n"
                      "exists (P0:r1 == 0)\n",
                      &f, &hc));
  assert_int_equal(nth_cas(&hc, 0)->fail_order, HOST_ACQ);
  assert_int_equal(nth_cas(&hc, 1)->fail_order, HOST_RLX);
  assert_int_equal(nth_cas(&hc, 2)->fail_order, HOST_RLX);
  host_code_fini(&hc);
  fixture_fini(&f);
}

static void test_host_code_barriers_and_loops(void **state) {
  (void)state;
  fixture f;
  host_code hc;
  assert_null(compile("PTX bars\n{ x=0; }\n"
                      " P0@cta 0,gpu 0      | P1@cta 0,gpu 0 ;\n"
                      " bar.cta.sync 1, 2, 3 | LC00:          ;\n"
                      " bar.cta.arrive 1     | ld.weak r0, x  ;\n"
                      " bar.cta.sync 2       | beq r0, 0, LC00 ;\n"
                      "                      | bar.cta.sync 1 ;\n"
                      "exists (P1:r0 == 1)\n",
                      &f, &hc));
  assert_true(hc.has_bar);
  const host_thread *t0 = &hc.threads[0], *t1 = &hc.threads[1];
  assert_int_equal(t0->ops[0].code, HOST_BAR);
  assert_true(t0->ops[0].has_id && t0->ops[0].has_count);
  assert_int_equal(t0->ops[0].a.c, 2);
  assert_int_equal(t0->ops[0].b.c, 3);
  assert_true(t0->ops[1].arrive_only);
  assert_int_equal(host_bar_max(t0, 1), 2);
  assert_int_equal(host_bar_max(t0, 2), 1);
  assert_int_equal(host_bar_max(t0, 7), 0);
  assert_true(t1->has_loop);
  assert_int_equal(t1->ops[2].code, HOST_BRANCH);
  assert_int_equal(t1->ops[2].target, 0);
  assert_int_equal(host_bar_max(t1, 1), UINT32_MAX);   /* a loop: no bound */
  assert_int_equal(t0->group, t1->group);
  host_code_fini(&hc);
  fixture_fini(&f);
}

static void test_host_code_refuses_alias(void **state) {
  (void)state;
  fixture f;
  host_code hc;
  const char *msg = compile("PTX alias\n{ rd1 = 0; rd2 @ generic aliases rd1; }\n"
                            " P0@cta 0,gpu 0 ;\n"
                            " st.weak rd1, 42 ;\n"
                            " fence.proxy.alias ;\n"
                            " ld.weak r0, rd2 ;\n"
                            "forall (P0:r0 == 42)\n",
                            &f, &hc);
  assert_string_equal(msg, "T.litmus:6:2: error: the host backend cannot run `ld.weak r0, rd2`: rd2 is a "
                           "generic alias of rd1 (virtual aliases need the GPU's address translation)");
  fixture_fini(&f);
}

static void test_host_code_refuses_proxies(void **state) {
  (void)state;
  fixture f;
  host_code hc;
  const char *msg = compile("PTX const\n{ rd1 = 0; rd2 @ constant aliases rd1; }\n"
                            " P0@cta 0,gpu 0 ;\n"
                            " st.weak rd1, 42 ;\n"
                            " cold.weak r3, rd2 ;\n"
                            "exists (P0:r3 == 0)\n",
                            &f, &hc);
  assert_string_equal(msg, "T.litmus:5:2: error: the host backend cannot run `cold.weak r3, rd2`: "
                           "constant-proxy accesses have no CPU counterpart");
  fixture_fini(&f);
  msg = compile("PTX sur\n{ s = 0; }\n"
                " P0@cta 0,gpu 0 ;\n"
                " sust.weak s, 1 ;\n"
                "exists (s == 1)\n",
                &f, &hc);
  assert_string_equal(msg, "T.litmus:4:2: error: the host backend cannot run `sust.weak s, 1`: "
                           "surface-proxy accesses have no CPU counterpart");
  fixture_fini(&f);
}

/* host_check is host_compile without the code: the CLI's early test. */
static void test_host_check(void **state) {
  (void)state;
  fixture f;
  assert_int_equal(fixture_load(&f, "MP.litmus", MP_TEXT), 0);
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  assert_int_equal(host_check(f.prog, &d), 0);
  assert_int_equal(d.nerrors, 0);
  lc_diag_fini(&d);
  fixture_fini(&f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_host_code_sb),
    cmocka_unit_test(test_host_code_orders),
    cmocka_unit_test(test_host_code_atomics),
    cmocka_unit_test(test_host_code_cas_failure_order),
    cmocka_unit_test(test_host_code_barriers_and_loops),
    cmocka_unit_test(test_host_code_refuses_alias),
    cmocka_unit_test(test_host_code_refuses_proxies),
    cmocka_unit_test(test_host_check),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
