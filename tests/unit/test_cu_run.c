/* test_cu_run.c - the runner where there is no GPU: the no-driver message,
 * refusals before any CUDA call, and NVRTC through dlopen when present.
 * SPDX-License-Identifier: MIT
 */
#include <dlfcn.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "cu_testlib.h"

static const char *const mp =
  "PTX MP\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
  " st.weak x, 1 | ld.weak r0, y ;\n st.weak y, 1 | ld.weak r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n";

static bool have_driver(void) {
  void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (h) dlclose(h);
  return h != NULL;
}

static void test_cu_run_without_driver(void **state) {
  (void)state;
  if (have_driver()) skip();
  cu_fixture f;
  assert_non_null(fx_load(&f, mp));
  run_params par;
  run_params_init(&par);
  run_result out;
  assert_int_equal(cu_run(f.p, &par, NULL, &out, &f.d), RUN_CANNOT);
  assert_string_equal(fx_error(&f), "error: no CUDA driver (libcuda.so.1) found: litmus-run needs an NVIDIA GPU; "
                                    "--backend host runs the test on CPU threads");
  run_result_fini(&out);
  fx_free(&f);
}

/* What the generator refuses is refused before the driver is looked for. */
static void test_cu_run_refuses_first(void **state) {
  (void)state;
  cu_fixture f;
  assert_non_null(fx_load(&f, "PTX a\n{ x=0; s @ surface aliases x; }\n P0@cta 0,gpu 0 ;\n sust.weak s, 1 ;\n"
                              "exists (x == 1)\n"));
  run_params par;
  run_params_init(&par);
  run_result out;
  assert_int_equal(cu_run(f.p, &par, NULL, &out, &f.d), RUN_CANNOT);
  assert_non_null(strstr(fx_error(&f), "t.litmus:4:2: error: P0: 'sust.weak s, 1' cannot run on the GPU"));
  assert_int_equal(f.d.nerrors, 1);
  run_result_fini(&out);
  fx_free(&f);
}

static cu_nvrtc *nvrtc_or_skip(lc_diag *d) {
  cu_nvrtc *n = cu_nvrtc_open(d);
  if (!n) skip();
  return n;
}

/* The runner's compile function, for every architecture litmus-run supports. */
static void test_cu_nvrtc_compiles_mp(void **state) {
  (void)state;
  cu_fixture f;
  assert_non_null(fx_load(&f, mp));
  cu_nvrtc *n = nvrtc_or_skip(&f.d);
  lc_buf src;
  lc_buf_init(&src);
  assert_int_equal(cu_emit(&src, f.p, &f.d), 0);
  const int sms[] = {75, 90};
  for (size_t i = 0; i < LC_ARRAY_LEN(sms); i++) {
    char *img = NULL;
    size_t size = 0;
    assert_int_equal(cu_nvrtc_compile(n, src.s, "mp.cu", sms[i], false, &img, &size, &f.d), 0);
    assert_true(size > 0);
    free(img);
    assert_int_equal(cu_nvrtc_compile(n, src.s, "mp.cu", sms[i], true, &img, &size, &f.d), 0);
    assert_non_null(strstr(img, "st.weak.global.u32"));
    assert_non_null(strstr(img, ".entry cu_test("));
    assert_non_null(strstr(img, ".entry cu_classify("));
    free(img);
  }
  lc_buf_fini(&src);
  cu_nvrtc_close(n);
  fx_free(&f);
}

static void test_cu_nvrtc_reports_errors(void **state) {
  (void)state;
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  cu_nvrtc *n = nvrtc_or_skip(&d);
  char *img = NULL;
  size_t size = 0;
  assert_int_equal(cu_nvrtc_compile(n, "this is not C++", "bad.cu", 75, false, &img, &size, &d), -1);
  assert_null(img);
  assert_non_null(strstr(lc_diag_first_error(&d), "error: nvrtcCompileProgram: NVRTC_ERROR_COMPILATION"));
  assert_non_null(strstr(lc_diag_first_error(&d), "bad.cu"));
  cu_nvrtc_close(n);
  lc_diag_fini(&d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_cu_run_without_driver),
    cmocka_unit_test(test_cu_run_refuses_first),
    cmocka_unit_test(test_cu_nvrtc_compiles_mp),
    cmocka_unit_test(test_cu_nvrtc_reports_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
