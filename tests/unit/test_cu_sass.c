/* test_cu_sass.c - the SASS check can fail: emitters broken the ways the
 * generator once was (one address operand shared by two accesses of a
 * location, loads whose value nobody uses) lose accesses in ptxas, and the
 * check must say which.  Skipped without NVRTC or cuobjdump.
 * SPDX-License-Identifier: MIT
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cuda/cu_int.h"
#include "cuda/cu_sass.h"

/* CoWW: ptxas deletes the first store once both have one address. */
static const char *const coww = "PTX CoWW\n{ x=0; }\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\n st.weak x, 2 ;\n"
                                "~exists (x == 1)\n";
/* A load nobody observes, after one that is observed. */
static const char *const unobserved = "PTX Unobserved\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
                                      " st.weak x, 1 | ld.weak r0, x ;\n st.weak y, 1 | ld.weak r1, y ;\n"
                                      "exists (P1:r0 == 1)\n";

/* Replaces every occurrence of from in b by to. */
static void replace_all(lc_buf *b, const char *from, const char *to) {
  lc_buf o;
  lc_buf_init(&o);
  size_t n = strlen(from);
  for (const char *s = b->s; *s;) {
    const char *hit = strstr(s, from);
    if (!hit) {
      lc_buf_puts(&o, s);
      break;
    }
    lc_buf_putn(&o, s, (size_t)(hit - s));
    lc_buf_puts(&o, to);
    s = hit + n;
  }
  lc_buf_fini(b);
  *b = o;
}

/* One address operand per location again, as the generator once had it:
 * CoWW's second store through the first one's operand.  (Equal address
 * expressions in separate operands are not enough to break it reliably:
 * whether the compiler merges them depends on the code around.) */
static void emit_shared_address(lc_buf *out, const cu_plan *pl) {
  lc_buf b;
  lc_buf_init(&b);
  cu_gen_body(&b, pl);
  replace_all(&b, "st.weak.global.u32 [%1], 2;", "st.weak.global.u32 [%0], 2;");
  lc_buf_puts(out, b.s);
  lc_buf_fini(&b);
}

/* No sink: what a load reads is dead unless the test observes it. */
static void emit_no_sink(lc_buf *out, const cu_plan *pl) {
  lc_buf b;
  lc_buf_init(&b);
  cu_gen_body(&b, pl);
  replace_all(&b, "cu_sink ^= ", "(void)");
  lc_buf_puts(out, b.s);
  lc_buf_fini(&b);
}

/* MP through an mbarrier, and through distributed shared memory and a
 * cluster barrier (docs/hopper.md). */
static const char *const mbar_mp =
  "PTX MP+mbarrier\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"
  " mbarrier.init.shared::cta.b64 [bar], 1 | bar.sync 0 ;\n bar.sync 0 | LC00: ;\n"
  " st.global.u32 [x], 1 | mbarrier.try_wait.parity.shared::cta.b64 r0, [bar], 0 ;\n"
  " mbarrier.arrive.shared::cta.b64 _, [bar] | beq r0, 0, LC00 ;\n | ld.global.u32 r1, [x] ;\n"
  "bar: shared\nexists (P1:r1 == 0)\n";
static const char *const dsmem_mp =
  "PTX MP+dsmem\n{ }\n P0@cta 0,cluster 0,gpu 0 | P1@cta 1,cluster 0,gpu 0 ;\n"
  " mapa.shared::cluster.u32 r1, x, 1 | barrier.cluster.arrive ;\n"
  " st.shared::cluster.u32 [r1], 42 | barrier.cluster.wait ;\n"
  " barrier.cluster.arrive | ld.shared::cta.u32 r0, [x] ;\n"
  " barrier.cluster.wait | ;\nx: shared\nexists (P1:r0 == 0)\n";

/* The arrive left out: P1's wait would never succeed. */
static void emit_no_arrive(lc_buf *out, const cu_plan *pl) {
  lc_buf b;
  lc_buf_init(&b);
  cu_gen_body(&b, pl);
  replace_all(&b, "mbarrier.arrive.shared::cta.b64 _, [%1];", "");
  lc_buf_puts(out, b.s);
  lc_buf_fini(&b);
}

/* A CTA barrier where the cluster's should be. */
static void emit_cta_boundary(lc_buf *out, const cu_plan *pl) {
  lc_buf b;
  lc_buf_init(&b);
  cu_gen_body(&b, pl);
  replace_all(&b, "barrier.cluster.arrive;\\n\\tbarrier.cluster.wait;\" ::: \"memory\");\n  // P1, phase 1",
              "barrier.cta.sync 0;\" ::: \"memory\");\n  // P1, phase 1");
  lc_buf_puts(out, b.s);
  lc_buf_fini(&b);
}

typedef struct result {
  cu_sass_status rc;
  char *text;
} result;

static result check_on(const char *litmus, cu_sass_emitter emit, int sm) {
  char path[] = "/tmp/test_cu_sass.XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  assert_int_equal(write(fd, litmus, strlen(litmus)), (ssize_t)strlen(litmus));
  close(fd);
  char *text = NULL;
  size_t size = 0;
  FILE *out = open_memstream(&text, &size);
  cu_sass_opts o = {{sm}, 1, emit, false, false, out};
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  char *paths[] = {path};
  result r = {cu_sass_check(paths, 1, &o, &d), NULL};
  fclose(out);
  r.text = text;
  lc_diag_fini(&d);
  unlink(path);
  if (r.rc == CU_SASS_NO_TOOLS) {
    free(text);
    skip();
  }
  return r;
}

static result check(const char *litmus, cu_sass_emitter emit) { return check_on(litmus, emit, 80); }

static void expect_failure_on(const char *litmus, cu_sass_emitter emit, int sm, const char *msg) {
  result r = check_on(litmus, emit, sm);
  if (r.rc != CU_SASS_LOST || !strstr(r.text, msg)) fail_msg("status %d, output:\n%s", r.rc, r.text);
  free(r.text);
}

static void expect_failure(const char *litmus, cu_sass_emitter emit, const char *msg) {
  result r = check(litmus, emit);
  if (r.rc != CU_SASS_LOST || !strstr(r.text, msg)) fail_msg("status %d, output:\n%s", r.rc, r.text);
  free(r.text);
}

static void test_sass_good_emitter_passes(void **state) {
  (void)state;
  result r = check(coww, NULL);
  assert_int_equal(r.rc, CU_SASS_FOUND);
  assert_non_null(strstr(r.text, "every access found"));
  free(r.text);
  r = check(unobserved, NULL);
  assert_int_equal(r.rc, CU_SASS_FOUND);
  free(r.text);
}

static void test_sass_shared_address_loses_a_store(void **state) {
  (void)state;
  expect_failure(coww, emit_shared_address, "(sm_80): P0 line 5: st.weak x, 2 is lost, merged or out of order");
}

static void test_sass_no_sink_loses_a_load(void **state) {
  (void)state;
  expect_failure(unobserved, emit_no_sink, "(sm_80): P1 line 5: ld.weak r1, y is lost, merged or out of order");
}

static void test_sass_sm90(void **state) {
  (void)state;
  result r = check_on(mbar_mp, NULL, 90);
  if (r.rc != CU_SASS_FOUND) fail_msg("status %d, output:\n%s", r.rc, r.text);
  free(r.text);
  r = check_on(dsmem_mp, NULL, 90);
  if (r.rc != CU_SASS_FOUND) fail_msg("status %d, output:\n%s", r.rc, r.text);
  free(r.text);
  expect_failure_on(mbar_mp, emit_no_arrive, 90,
                    "(sm_90): P0 line 7: mbarrier.arrive.shared::cta.b64 _, [bar] is lost, merged or out of order");
  expect_failure_on(dsmem_mp, emit_cta_boundary, 90,
                    "(sm_90): phase boundary 1 (release of barrier.cluster.arrive) is lost, merged or out of order");
  /* below sm_90: refused, naming the instruction */
  r = check_on(mbar_mp, NULL, 80);
  assert_int_equal(r.rc, CU_SASS_BAD_FILE);
  if (!strstr(r.text, ":4:2: error: P0: 'mbarrier.init.shared::cta.b64' needs sm_90; --sm asks for sm_80 at most"))
    fail_msg("output:\n%s", r.text);
  free(r.text);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_sass_good_emitter_passes),
    cmocka_unit_test(test_sass_shared_address_loses_a_store),
    cmocka_unit_test(test_sass_no_sink_loses_a_load),
    cmocka_unit_test(test_sass_sm90),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
