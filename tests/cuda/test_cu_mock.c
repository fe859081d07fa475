/* test_cu_mock.c - cu_run end to end against the mock driver
 * (mock-libcuda.c, put first on LD_LIBRARY_PATH by mock-run.sh) and the
 * real NVRTC: device discovery, compilation, placement decisions, buffer
 * sizes, launches and the collection of the device histogram.  The mock
 * counts every instance in the first dense bin, so what is checked is the
 * plumbing, not the GPU.
 * SPDX-License-Identifier: MIT
 */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "../unit/cu_testlib.h"

static const char *const mp =
  "PTX MP\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
  " st.weak x, 1 | ld.weak r0, y ;\n st.weak y, 1 | ld.weak r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n";

static int run_text(cu_fixture *f, run_result *r, const char *text, const run_params *par,
                    const lc_result *allowed) {
  assert_non_null(fx_load(f, text));
  return cu_run(f->p, par, allowed, r, &f->d);
}

/* Every CTA tests: no stressing CTAs, whatever run_params_init's
 * defaults, so the expected instance counts are fixed here. */
static void params(run_params *par, uint64_t iterations) {
  run_params_init(par);
  par->iterations = iterations;
  par->threads_per_cta = 64;
  par->mem_stress = false;
  par->testing_pct = 100;
}

/* Everything adds up: one bin holding every instance of every launch. */
static void check_counts(const run_result *r) {
  assert_true(r->iterations > 0);
  assert_int_equal(r->iterations, r->params.iterations);
  assert_int_equal(r->instances, r->iterations * r->params.instances);
  assert_int_equal(r->nbins, 1);
  assert_int_equal(r->bins[0].count, r->instances);
}

static void test_cu_mock_mp(void **state) {
  (void)state;
  cu_fixture f;
  run_result r;
  run_params par;
  params(&par, 5);
  assert_int_equal(run_text(&f, &r, mp, &par, NULL), 0);
  check_counts(&r);
  /* 4 SMs x 2048/64 resident CTAs of 64 threads */
  assert_int_equal(r.params.instances, 4 * 32 * 64);
  assert_string_equal(r.device_name, "Mock GPU 0");
  assert_int_equal(r.sm_major, 9);
  assert_int_equal(r.sm_minor, 0);
  assert_string_equal(r.driver_version, "CUDA driver 13.0");
  assert_non_null(strstr(r.compiler_version, "NVRTC "));
  assert_int_equal(r.bins[0].values[0], 0);
  assert_int_equal(r.bins[0].values[1], 0);
  assert_int_equal(r.notes.n, 0);
  run_result_fini(&r);
  fx_free(&f);
}

/* A C++ test: its kernels include libcu++, which NVRTC finds only with
 * the toolkit's include folders (found next to the NVRTC library). */
static const char *const cpp_sb =
  "CUDA SB\n{ [x] = 0; [y] = 0; }\n"
  "P0@cta 0,gpu 0 (atomic_int* x, atomic_int* y) {\n"
  "  atomic_store_explicit(x, 1, memory_order_relaxed);\n"
  "  int r0 = atomic_load_explicit(y, memory_order_relaxed);\n}\n"
  "P1@cta 1,gpu 0 (atomic_int* x, atomic_int* y) {\n"
  "  atomic_store_explicit(y, 1, memory_order_relaxed);\n"
  "  int r0 = atomic_load_explicit(x, memory_order_relaxed);\n}\n"
  "exists (0:r0 == 0 /\\ 1:r0 == 0)\n";

static void test_cu_mock_cpp(void **state) {
  (void)state;
  cu_fixture f;
  run_result r;
  run_params par;
  params(&par, 2);
  assert_int_equal(run_text(&f, &r, cpp_sb, &par, NULL), 0);
  check_counts(&r);
  assert_int_equal(r.notes.n, 0);
  run_result_fini(&r);
  fx_free(&f);
}

/* A time budget stops the launches. */
static void test_cu_mock_seconds(void **state) {
  (void)state;
  cu_fixture f;
  run_result r;
  run_params par;
  params(&par, 0);
  par.seconds = 0.2;
  par.instances = 1000;
  assert_int_equal(run_text(&f, &r, mp, &par, NULL), 0);
  check_counts(&r);
  assert_true(r.iterations > 0);
  assert_true(r.seconds >= 0.2);
  assert_int_equal(r.params.instances, 1024);   /* whole CTAs */
  run_result_fini(&r);
  fx_free(&f);
}

/* More instances than the device holds at once: the grid is cut to what is
 * resident (4 SMs x 32 CTAs of 64 threads), with a note; the stand-in
 * refuses a grid that cannot be resident. */
static void test_cu_mock_resident(void **state) {
  (void)state;
  cu_fixture f;
  run_result r;
  run_params par;
  params(&par, 2);
  par.instances = 1 << 20;
  assert_int_equal(run_text(&f, &r, mp, &par, NULL), 0);
  check_counts(&r);
  assert_int_equal(r.params.instances, 4 * 32 * 64);
  assert_int_equal(r.notes.n, 1);
  assert_non_null(strstr(r.notes.v[0], "1048576 instances per launch asked, 8192 run"));
  run_result_fini(&r);
  fx_free(&f);
  /* a cluster launch: cuOccupancyMaxActiveClusters says 3 SMs' worth */
  params(&par, 2);
  par.instances = 1 << 20;
  assert_int_equal(run_text(&f, &r,
                            "PTX C\n{ x=0; y=0; }\n P0@cta 0,cluster 0,gpu 0 | P1@cta 1,cluster 0,gpu 0 ;\n"
                            " st.weak x, 1 | ld.acquire.cluster r0, y ;\n"
                            " st.release.cluster y, 1 | ld.weak r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n",
                            &par, NULL),
                   0);
  check_counts(&r);
  assert_int_equal(r.params.instances, 3 * 32 * 64);
  run_result_fini(&r);
  fx_free(&f);
}

/* The classify step overlaps the next test launch: two output sets in
 * turn, two streams, and events that the stand-in checks order every
 * launch after the one it depends on.  Generic aliases stay serial. */
static void test_cu_mock_overlap(void **state) {
  (void)state;
  void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  assert_non_null(lib);
  unsigned (*overlapped)(void);
  void *sym = dlsym(lib, "mock_overlapped_tests");
  assert_non_null(sym);
  memcpy(&overlapped, &sym, sizeof overlapped);
  unsigned before = overlapped();
  cu_fixture f;
  run_result r;
  run_params par;
  params(&par, 9);
  assert_int_equal(run_text(&f, &r, mp, &par, NULL), 0);
  check_counts(&r);
  assert_int_equal(overlapped() - before, 9);
  run_result_fini(&r);
  fx_free(&f);
  dlclose(lib);
}

/* Same cluster, different CTAs: a cluster launch (the mock checks its shape). */
static void test_cu_mock_cluster_launch(void **state) {
  (void)state;
  cu_fixture f;
  run_result r;
  run_params par;
  params(&par, 3);
  par.mem_stress = true;
  par.testing_pct = 50;
  assert_int_equal(run_text(&f, &r,
                            "PTX C\n{ x=0; y=0; }\n P0@cta 0,cluster 0,gpu 0 | P1@cta 1,cluster 0,gpu 0 ;\n"
                            " st.weak x, 1 | ld.acquire.cluster r0, y ;\n"
                            " st.release.cluster y, 1 | ld.weak r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n",
                            &par, NULL),
                   0);
  check_counts(&r);
  run_result_fini(&r);
  fx_free(&f);
}

/* .cluster scope needs sm_90: refused on an sm_80 device, before compiling. */
static void test_cu_mock_cluster_scope_on_sm80(void **state) {
  (void)state;
  setenv("MOCK_CUDA_SM", "80", 1);
  cu_fixture f;
  run_result r;
  run_params par;
  params(&par, 1);
  assert_int_equal(run_text(&f, &r,
                            "PTX C\n{ x=0; }\n P0@cta 0,gpu 0 ;\n st.relaxed.cluster x, 1 ;\nexists (x == 1)\n",
                            &par, NULL),
                   LC_EXIT_INPUT);
  assert_string_equal(fx_error(&f), "error: the test has .cluster scope, which needs sm_90; Mock GPU 0 is sm_80");
  run_result_fini(&r);
  fx_free(&f);
  unsetenv("MOCK_CUDA_SM");
}

/* Two GPUs run on one, with a note; clusters without a cluster launch on sm_80. */
static void test_cu_mock_narrowed(void **state) {
  (void)state;
  cu_fixture f;
  run_result r;
  run_params par;
  params(&par, 2);
  assert_int_equal(run_text(&f, &r,
                            "PTX G\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 1 ;\n"
                            " st.relaxed.sys x, 1 | ld.relaxed.sys r0, x ;\nexists (P1:r0 == 1)\n",
                            &par, NULL),
                   0);
  check_counts(&r);
  assert_int_equal(r.notes.n, 1);
  assert_non_null(strstr(r.notes.v[0], "threads written on different GPUs run on one GPU"));
  run_result_fini(&r);
  fx_free(&f);
  setenv("MOCK_CUDA_SM", "80", 1);
  assert_int_equal(run_text(&f, &r,
                            "PTX C\n{ x=0; }\n P0@cta 0,cluster 0,gpu 0 | P1@cta 1,cluster 0,gpu 0 ;\n"
                            " st.relaxed.gpu x, 1 | ld.relaxed.gpu r0, x ;\nexists (P1:r0 == 1)\n",
                            &par, NULL),
                   0);
  assert_string_equal(fx_error(&f), "");
  check_counts(&r);
  assert_int_equal(r.notes.n, 1);
  assert_non_null(strstr(r.notes.v[0], "cannot launch clusters"));
  run_result_fini(&r);
  fx_free(&f);
  unsetenv("MOCK_CUDA_SM");
}

/* Shared memory and a generic alias (two views of one allocation). */
static void test_cu_mock_shared_and_alias(void **state) {
  (void)state;
  cu_fixture f;
  run_result r;
  run_params par;
  params(&par, 2);
  assert_int_equal(run_text(&f, &r,
                            "PTX S\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"
                            " st.relaxed.cta x, 1 | ld.relaxed.cta r0, x ;\nx: shared\n"
                            "exists (P1:r0 == 1 /\\ x == 1)\n",
                            &par, NULL),
                   0);
  check_counts(&r);
  run_result_fini(&r);
  fx_free(&f);
  assert_int_equal(run_text(&f, &r,
                            "PTX A\n{ x=0; a @ generic aliases x; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
                            " st.relaxed.gpu x, 1 | ld.relaxed.gpu r0, a ;\n"
                            " fence.proxy.alias | ld.relaxed.gpu r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n",
                            &par, NULL),
                   0);
  check_counts(&r);
  run_result_fini(&r);
  fx_free(&f);
}

/* With a model's states, the bin the mock fills is judged; the first one is
 * allowed here, and the domains take the model's values. */
static void test_cu_mock_allowed(void **state) {
  (void)state;
  cu_fixture f;
  assert_non_null(fx_load(&f, mp));
  lc_result *allowed = lc_result_new(f.p, "test", "test");
  const lx_val states[][2] = {{0, 0}, {0, 1}, {1, 1}};
  for (size_t s = 0; s < 3; s++) lc_result_add_state(allowed, states[s]);
  lc_result_sort(allowed);
  run_result r;
  run_params par;
  params(&par, 4);
  assert_int_equal(cu_run(f.p, &par, allowed, &r, &f.d), 0);
  check_counts(&r);
  assert_int_equal(r.nsamples, 0);
  assert_int_equal(run_compare(&r, allowed), 0);
  run_result_fini(&r);
  lc_result_free(allowed);
  fx_free(&f);
}

/* A forbidden bin: the first max_forbidden instances come back as samples
 * with the CTA and thread of every role. */
static void test_cu_mock_forbidden_samples(void **state) {
  (void)state;
  cu_fixture f;
  assert_non_null(fx_load(&f, mp));
  lc_result *allowed = lc_result_new(f.p, "test", "test");
  const lx_val ok[2] = {1, 1};
  lc_result_add_state(allowed, ok);
  lc_result_sort(allowed);
  run_result r;
  run_params par;
  params(&par, 5);
  par.max_forbidden = 3;
  assert_int_equal(cu_run(f.p, &par, allowed, &r, &f.d), 0);
  check_counts(&r);
  assert_int_equal(run_compare(&r, allowed), 1);
  assert_int_equal(r.nsamples, 3);
  for (size_t s = 0; s < r.nsamples; s++) {
    const run_sample *x = &r.samples[s];
    assert_int_equal(x->iteration, s);
    assert_int_equal(x->values[0], 0);
    assert_int_equal(x->values[1], 0);
    assert_int_not_equal(x->ctas[0], x->ctas[1]);   /* P0 and P1 are in different CTAs */
    assert_true(x->threads[0] < 64 && x->threads[1] < 64);
    assert_non_null(x->sms);   /* the SM each role's CTA ran on, as the stand-in placed it */
    assert_int_equal(x->sms[0], x->ctas[0] % 4);
    assert_int_equal(x->sms[1], x->ctas[1] % 4);
  }
  run_result_fini(&r);
  lc_result_free(allowed);
  fx_free(&f);
}

/* Stress, no barrier, no shuffle, a stride: still one-to-one (the mock checks). */
static void test_cu_mock_options(void **state) {
  (void)state;
  cu_fixture f;
  run_result r;
  run_params par;
  params(&par, 3);
  par.pre_stress = par.mem_stress = true;
  par.barrier = par.shuffle = false;
  par.stride = 16;
  par.stress_pattern = 2;
  par.seed = 42;
  assert_int_equal(run_text(&f, &r, mp, &par, NULL), 0);
  check_counts(&r);
  assert_int_equal(r.params.seed, 42);
  assert_int_equal(r.params.stride, 16);
  assert_int_equal(r.params.testing_pct, 50);
  run_result_fini(&r);
  fx_free(&f);
}

/* A spin loop: the loop bounds reach the kernel (defaults filled in),
 * cut instances are counted apart with a note for the deadline, and an
 * outcome beyond the unroll bound is unexplored, not forbidden. */
static const char *const spin =
  "PTX spin\n{ f=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.relaxed.gpu f, 1 | LC00: ;\n"
  " | ld.relaxed.gpu r0, f ;\n | beq r0, 0, LC00 ;\nexists (P1:r0 == 1)\n";

static void loop_bounds(unsigned *spin_limit, unsigned long long *ns) {
  void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  assert_non_null(lib);
  void *sym = dlsym(lib, "mock_loop_bounds");
  assert_non_null(sym);
  void (*get)(unsigned *, unsigned long long *);
  memcpy(&get, &sym, sizeof get);
  get(spin_limit, ns);
  dlclose(lib);
}

static void test_cu_mock_loops(void **state) {
  (void)state;
  cu_fixture f;
  run_result r;
  run_params par;
  params(&par, 2);
  assert_int_equal(run_text(&f, &r, spin, &par, NULL), 0);
  unsigned spin_limit;
  unsigned long long ns;
  loop_bounds(&spin_limit, &ns);
  assert_int_equal(spin_limit, 65536);
  assert_int_equal(ns, 1000000000ull);
  assert_int_equal(r.params.spin_limit, 65536);
  assert_true(r.params.watchdog == 1.0);
  check_counts(&r);
  run_result_fini(&r);
  fx_free(&f);

  params(&par, 3);
  par.spin_limit = 100;
  par.watchdog = 0.25;
  setenv("MOCK_CUDA_CUT", "1", 1);
  int rc = run_text(&f, &r, spin, &par, NULL);
  unsetenv("MOCK_CUDA_CUT");
  assert_int_equal(rc, 0);
  loop_bounds(&spin_limit, &ns);
  assert_int_equal(spin_limit, 100);
  assert_int_equal(ns, 250000000ull);
  assert_int_equal(r.incomplete, 3);
  assert_int_equal(r.hung, 0);
  assert_int_equal(r.instances, 3 * r.params.instances);
  assert_int_equal(r.nbins, 2);
  const run_bin *beyond = r.bins[0].values[0] == 7 ? &r.bins[0] : &r.bins[1];
  assert_int_equal(beyond->values[0], 7);
  assert_int_equal(beyond->count, 3);
  assert_int_equal(beyond->unexplored, 3);
  assert_int_equal(r.notes.n, 1);
  assert_string_equal(r.notes.v[0], "3 of the cut instances ran into the watchdog's deadline (0.25 s after their "
                                    "thread's litmus code began)");
  run_result_fini(&r);
  fx_free(&f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_cu_mock_mp),
    cmocka_unit_test(test_cu_mock_cpp),
    cmocka_unit_test(test_cu_mock_seconds),
    cmocka_unit_test(test_cu_mock_cluster_launch),
    cmocka_unit_test(test_cu_mock_resident),
    cmocka_unit_test(test_cu_mock_overlap),
    cmocka_unit_test(test_cu_mock_cluster_scope_on_sm80),
    cmocka_unit_test(test_cu_mock_narrowed),
    cmocka_unit_test(test_cu_mock_shared_and_alias),
    cmocka_unit_test(test_cu_mock_allowed),
    cmocka_unit_test(test_cu_mock_forbidden_samples),
    cmocka_unit_test(test_cu_mock_options),
    cmocka_unit_test(test_cu_mock_loops),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
