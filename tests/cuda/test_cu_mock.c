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

/* Every CTA tests: no stressing CTAs, whatever run_params_init's
 * defaults, so the expected instance counts are fixed here. */
static void params(run_params *par, uint64_t iterations) {
  run_params_init(par);
  par->iterations = iterations;
  par->threads_per_cta = 64;
  par->mem_stress = false;
  par->testing_pct = 100;
}

/* One test's run on the stand-in driver: the test, the parameters and the
 * result, the cmocka state of every test here.  The fixture's teardown
 * frees them also when an assertion fails. */
typedef struct mock_run {
  cu_fixture f;
  bool loaded;
  run_result r;
  run_params par;
} mock_run;

static int mock_setup(void **state) {
  mock_run *m = test_calloc(1, sizeof *m);
  params(&m->par, 1);
  *state = m;
  return 0;
}

/* Frees the loaded test and the result, so that the next run starts afresh. */
static void mock_done(mock_run *m) {
  run_result_fini(&m->r);
  if (m->loaded) fx_free(&m->f);
  m->loaded = false;
}

static int mock_teardown(void **state) {
  mock_done(*state);
  test_free(*state);
  unsetenv("MOCK_CUDA_SM");
  unsetenv("MOCK_CUDA_CUT");
  unsetenv("MOCK_CUDA_NO_DEVICE");
  unsetenv("MOCK_CUDA_FAIL");
  return 0;
}

/* Parses and lowers text, after freeing what a run before left. */
static void mock_load(mock_run *m, const char *text) {
  mock_done(m);
  m->loaded = true;
  assert_non_null(fx_load(&m->f, text));
}

/* Runs the loaded test with m->par; its status. */
static run_status mock_go(mock_run *m, const lc_result *allowed) {
  return cu_run(m->f.p, &m->par, allowed, &m->r, &m->f.d);
}

static run_status run_text(mock_run *m, const char *text) {
  mock_load(m, text);
  return mock_go(m, NULL);
}

/* A function the stand-in driver exports for the tests to look into it. */
static void *mock_symbol(void **lib, const char *name) {
  *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  assert_non_null(*lib);
  void *sym = dlsym(*lib, name);
  assert_non_null(sym);
  return sym;
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
  mock_run *m = *state;
  params(&m->par, 5);
  assert_int_equal(run_text(m, mp), 0);
  const run_result *r = &m->r;
  check_counts(r);
  /* 4 SMs x 2048/64 resident CTAs of 64 threads */
  assert_int_equal(r->params.instances, 4 * 32 * 64);
  assert_string_equal(r->device_name, "Mock GPU 0");
  assert_int_equal(r->sm_major, 9);
  assert_int_equal(r->sm_minor, 0);
  assert_string_equal(r->driver_version, "CUDA driver 13.0");
  assert_non_null(strstr(r->compiler_version, "NVRTC "));
  assert_int_equal(r->bins[0].values[0], 0);
  assert_int_equal(r->bins[0].values[1], 0);
  assert_int_equal(r->notes.n, 0);
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
  mock_run *m = *state;
  params(&m->par, 2);
  assert_int_equal(run_text(m, cpp_sb), 0);
  check_counts(&m->r);
  assert_int_equal(m->r.notes.n, 0);
}

/* A time budget stops the launches. */
static void test_cu_mock_seconds(void **state) {
  mock_run *m = *state;
  params(&m->par, 0);
  m->par.seconds = 0.2;
  m->par.instances = 1000;
  assert_int_equal(run_text(m, mp), 0);
  check_counts(&m->r);
  assert_true(m->r.iterations > 0);
  assert_true(m->r.seconds >= 0.2);
  assert_int_equal(m->r.params.instances, 1024);   /* whole CTAs */
}

/* MP with its threads in two CTAs of one cluster, relaxed accesses at
 * cluster scope. */
static const char *const cluster_mp =
  "PTX C\n{ x=0; y=0; }\n P0@cta 0,cluster 0,gpu 0 | P1@cta 1,cluster 0,gpu 0 ;\n"
  " st.weak x, 1 | ld.acquire.cluster r0, y ;\n"
  " st.release.cluster y, 1 | ld.weak r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n";

/* More instances than the device holds at once: the grid is cut to what is
 * resident (4 SMs x 32 CTAs of 64 threads), with a note; the stand-in
 * refuses a grid that cannot be resident. */
static void test_cu_mock_resident(void **state) {
  mock_run *m = *state;
  params(&m->par, 2);
  m->par.instances = 1 << 20;
  assert_int_equal(run_text(m, mp), 0);
  check_counts(&m->r);
  assert_int_equal(m->r.params.instances, 4 * 32 * 64);
  assert_int_equal(m->r.notes.n, 1);
  assert_non_null(strstr(m->r.notes.v[0], "1048576 instances per launch asked, 8192 run"));
  /* a cluster launch: cuOccupancyMaxActiveClusters says 3 SMs' worth */
  params(&m->par, 2);
  m->par.instances = 1 << 20;
  assert_int_equal(run_text(m, cluster_mp), 0);
  check_counts(&m->r);
  assert_int_equal(m->r.params.instances, 3 * 32 * 64);
}

/* The classify step overlaps the next test launch: two output sets in
 * turn, two streams, and events that the stand-in checks order every
 * launch after the one it depends on.  Generic aliases stay serial. */
static void test_cu_mock_overlap(void **state) {
  mock_run *m = *state;
  void *lib;
  void *sym = mock_symbol(&lib, "mock_overlapped_tests");
  unsigned (*overlapped)(void);
  memcpy(&overlapped, &sym, sizeof overlapped);
  unsigned before = overlapped();
  params(&m->par, 9);
  assert_int_equal(run_text(m, mp), 0);
  check_counts(&m->r);
  assert_int_equal(overlapped() - before, 9);
  dlclose(lib);
}

/* Same cluster, different CTAs: a cluster launch (the mock checks its shape). */
static void test_cu_mock_cluster_launch(void **state) {
  mock_run *m = *state;
  params(&m->par, 3);
  m->par.mem_stress = true;
  m->par.testing_pct = 50;
  assert_int_equal(run_text(m, cluster_mp), 0);
  check_counts(&m->r);
}

/* Distributed shared memory and a cluster barrier (docs/hopper.md): a
 * cluster launch of the test's two CTAs, every test launch through
 * cuLaunchKernelEx; on sm_80 refused naming the first sm_90 instruction. */
static const char *const dsmem_mp =
  "PTX D\n{ }\n P0@cta 0,cluster 0,gpu 0 | P1@cta 1,cluster 0,gpu 0 ;\n"
  " mapa.shared::cluster.u32 r1, x, 1 | barrier.cluster.arrive ;\n"
  " st.shared::cluster.u32 [r1], 42 | barrier.cluster.wait ;\n"
  " barrier.cluster.arrive | ld.shared::cta.u32 r0, [x] ;\n"
  " barrier.cluster.wait | ;\nx: shared\nexists (P1:r0 == 0)\n";

static void test_cu_mock_dsmem_cluster(void **state) {
  mock_run *m = *state;
  void *lib;
  void *sym = mock_symbol(&lib, "mock_cluster_launches");
  void (*launches)(unsigned long *, unsigned *);
  memcpy(&launches, &sym, sizeof launches);
  unsigned long before, after;
  unsigned dim;
  launches(&before, &dim);
  params(&m->par, 3);
  assert_int_equal(run_text(m, dsmem_mp), 0);
  check_counts(&m->r);
  launches(&after, &dim);
  assert_int_equal(after - before, 3);
  assert_int_equal(dim, 2);
  dlclose(lib);
  setenv("MOCK_CUDA_SM", "80", 1);
  assert_int_equal(run_text(m, dsmem_mp), RUN_CANNOT);
  assert_string_equal(fx_error(&m->f), "t.litmus:4:2: error: P0: 'mapa.shared::cluster.u32' needs sm_90; Mock GPU 0 is sm_80");
}

/* .cluster scope needs sm_90: refused on an sm_80 device, before compiling. */
static void test_cu_mock_cluster_scope_on_sm80(void **state) {
  mock_run *m = *state;
  setenv("MOCK_CUDA_SM", "80", 1);
  params(&m->par, 1);
  assert_int_equal(run_text(m, "PTX C\n{ x=0; }\n P0@cta 0,gpu 0 ;\n st.relaxed.cluster x, 1 ;\nexists (x == 1)\n"),
                   RUN_CANNOT);
  assert_string_equal(fx_error(&m->f), "error: the test has .cluster scope, which needs sm_90; Mock GPU 0 is sm_80");
}

/* Two GPUs run on one, with a note; clusters without a cluster launch on sm_80. */
static void test_cu_mock_narrowed(void **state) {
  mock_run *m = *state;
  params(&m->par, 2);
  assert_int_equal(run_text(m, "PTX G\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 1 ;\n"
                               " st.relaxed.sys x, 1 | ld.relaxed.sys r0, x ;\nexists (P1:r0 == 1)\n"),
                   0);
  check_counts(&m->r);
  assert_int_equal(m->r.notes.n, 1);
  assert_non_null(strstr(m->r.notes.v[0], "threads written on different GPUs run on one GPU"));
  setenv("MOCK_CUDA_SM", "80", 1);
  assert_int_equal(run_text(m, "PTX C\n{ x=0; }\n P0@cta 0,cluster 0,gpu 0 | P1@cta 1,cluster 0,gpu 0 ;\n"
                               " st.relaxed.gpu x, 1 | ld.relaxed.gpu r0, x ;\nexists (P1:r0 == 1)\n"),
                   0);
  assert_string_equal(fx_error(&m->f), "");
  check_counts(&m->r);
  assert_int_equal(m->r.notes.n, 1);
  assert_non_null(strstr(m->r.notes.v[0], "cannot launch clusters"));
}

/* Shared memory and a generic alias (two views of one allocation). */
static void test_cu_mock_shared_and_alias(void **state) {
  mock_run *m = *state;
  params(&m->par, 2);
  assert_int_equal(run_text(m, "PTX S\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"
                               " st.relaxed.cta x, 1 | ld.relaxed.cta r0, x ;\nx: shared\n"
                               "exists (P1:r0 == 1 /\\ x == 1)\n"),
                   0);
  check_counts(&m->r);
  assert_int_equal(run_text(m, "PTX A\n{ x=0; a @ generic aliases x; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
                               " st.relaxed.gpu x, 1 | ld.relaxed.gpu r0, a ;\n"
                               " fence.proxy.alias | ld.relaxed.gpu r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n"),
                   0);
  check_counts(&m->r);
}

/* With a model's states, the bin the mock fills is judged; the first one is
 * allowed here, and the domains take the model's values. */
static void test_cu_mock_allowed(void **state) {
  mock_run *m = *state;
  mock_load(m, mp);
  lc_result *allowed = lc_result_new(m->f.p, "test", "test");
  const lx_val states[][2] = {{0, 0}, {0, 1}, {1, 1}};
  for (size_t s = 0; s < 3; s++) lc_result_add_state(allowed, states[s]);
  lc_result_sort(allowed);
  params(&m->par, 4);
  assert_int_equal(mock_go(m, allowed), 0);
  check_counts(&m->r);
  assert_int_equal(m->r.nsamples, 0);
  assert_int_equal(run_compare(&m->r, allowed), 0);
  lc_result_free(allowed);
}

/* A forbidden bin: the first max_forbidden instances come back as samples
 * with the CTA and thread of every role. */
static void test_cu_mock_forbidden_samples(void **state) {
  mock_run *m = *state;
  mock_load(m, mp);
  lc_result *allowed = lc_result_new(m->f.p, "test", "test");
  const lx_val ok[2] = {1, 1};
  lc_result_add_state(allowed, ok);
  lc_result_sort(allowed);
  params(&m->par, 5);
  m->par.max_forbidden = 3;
  assert_int_equal(mock_go(m, allowed), 0);
  const run_result *r = &m->r;
  check_counts(r);
  assert_int_equal(run_compare(&m->r, allowed), 1);
  assert_int_equal(r->nsamples, 3);
  for (size_t s = 0; s < r->nsamples; s++) {
    const run_sample *x = &r->samples[s];
    assert_int_equal(x->iteration, s);
    assert_int_equal(x->values[0], 0);
    assert_int_equal(x->values[1], 0);
    assert_int_not_equal(x->ctas[0], x->ctas[1]);   /* P0 and P1 are in different CTAs */
    assert_true(x->threads[0] < 64 && x->threads[1] < 64);
    assert_non_null(x->sms);   /* the SM each role's CTA ran on, as the stand-in placed it */
    assert_int_equal(x->sms[0], x->ctas[0] % 4);
    assert_int_equal(x->sms[1], x->ctas[1] % 4);
  }
  lc_result_free(allowed);
}

/* Stress, no barrier, no shuffle, a stride: still one-to-one (the mock checks). */
static void test_cu_mock_options(void **state) {
  mock_run *m = *state;
  params(&m->par, 3);
  m->par.pre_stress = m->par.mem_stress = true;
  m->par.barrier = m->par.shuffle = false;
  m->par.stride = 16;
  m->par.stress_pattern = 2;
  m->par.seed = 42;
  assert_int_equal(run_text(m, mp), 0);
  check_counts(&m->r);
  assert_int_equal(m->r.params.seed, 42);
  assert_int_equal(m->r.params.stride, 16);
  assert_int_equal(m->r.params.testing_pct, 50);
}

/* A spin loop: the loop bounds reach the kernel (defaults filled in),
 * cut instances are counted apart with a note for the deadline, and an
 * outcome beyond the unroll bound is unexplored, not forbidden. */
static const char *const spin =
  "PTX spin\n{ f=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.relaxed.gpu f, 1 | LC00: ;\n"
  " | ld.relaxed.gpu r0, f ;\n | beq r0, 0, LC00 ;\nexists (P1:r0 == 1)\n";

static void loop_bounds(unsigned *spin_limit, unsigned long long *ns) {
  void *lib;
  void *sym = mock_symbol(&lib, "mock_loop_bounds");
  void (*get)(unsigned *, unsigned long long *);
  memcpy(&get, &sym, sizeof get);
  get(spin_limit, ns);
  dlclose(lib);
}

static void test_cu_mock_loops(void **state) {
  mock_run *m = *state;
  params(&m->par, 2);
  assert_int_equal(run_text(m, spin), 0);
  unsigned spin_limit;
  unsigned long long ns;
  loop_bounds(&spin_limit, &ns);
  assert_int_equal(spin_limit, 65536);
  assert_int_equal(ns, 1000000000ull);
  assert_int_equal(m->r.params.spin_limit, 65536);
  assert_true(m->r.params.watchdog == 1.0);
  check_counts(&m->r);

  params(&m->par, 3);
  m->par.spin_limit = 100;
  m->par.watchdog = 0.25;
  setenv("MOCK_CUDA_CUT", "1", 1);
  int rc = run_text(m, spin);
  unsetenv("MOCK_CUDA_CUT");
  assert_int_equal(rc, 0);
  loop_bounds(&spin_limit, &ns);
  assert_int_equal(spin_limit, 100);
  assert_int_equal(ns, 250000000ull);
  const run_result *r = &m->r;
  assert_int_equal(r->incomplete, 3);
  assert_int_equal(r->hung, 0);
  assert_int_equal(r->instances, 3 * r->params.instances);
  assert_int_equal(r->nbins, 2);
  const run_bin *beyond = r->bins[0].values[0] == 7 ? &r->bins[0] : &r->bins[1];
  assert_int_equal(beyond->values[0], 7);
  assert_int_equal(beyond->count, 3);
  assert_int_equal(beyond->unexplored, 3);
  assert_int_equal(r->notes.n, 1);
  assert_string_equal(r->notes.v[0], "3 of the cut instances ran into the watchdog's deadline (0.25 s after their "
                                     "thread's litmus code began)");
}

/* A machine without what the test needs: RUN_CANNOT with the reason. */
static void test_cu_mock_cannot_run(void **state) {
  mock_run *m = *state;
  setenv("MOCK_CUDA_NO_DEVICE", "1", 1);
  assert_int_equal(run_text(m, mp), RUN_CANNOT);
  assert_string_equal(fx_error(&m->f), "error: no CUDA device found: litmus-run needs an NVIDIA GPU; --backend host "
                                       "runs the test on CPU threads");
  unsetenv("MOCK_CUDA_NO_DEVICE");
  setenv("MOCK_CUDA_FAIL", "cuInit", 1);
  assert_int_equal(run_text(m, mp), RUN_CANNOT);
  assert_string_equal(fx_error(&m->f), "error: cuInit: CUDA_ERROR_MOCK (1): the mock driver rejected the call");
  unsetenv("MOCK_CUDA_FAIL");
  m->par.device = 3;
  assert_int_equal(run_text(m, mp), RUN_CANNOT);
  assert_string_equal(fx_error(&m->f), "error: CUDA device 3 does not exist (1 found)");
  params(&m->par, 1);
  m->par.threads_per_cta = 48;
  assert_int_equal(run_text(m, mp), RUN_CANNOT);
  assert_string_equal(fx_error(&m->f), "error: 48 threads per CTA: need a multiple of 32 between 1 and 1024");
  params(&m->par, 1);
  setenv("MOCK_CUDA_SM", "70", 1);
  assert_int_equal(run_text(m, mp), RUN_CANNOT);
  assert_string_equal(fx_error(&m->f), "error: Mock GPU 0 is sm_70; litmus-run needs sm_75 or later");
}

/* A driver call that fails, at each stage of the run: RUN_FAILED with the
 * call named. */
static void test_cu_mock_failed(void **state) {
  mock_run *m = *state;
  static const char *const calls[][2] = {
    {"cuDeviceGetCount", "cuDeviceGetCount"}, {"cuModuleLoadData", "cuModuleLoadData"},
    {"cuMemGetInfo_v2", "cuMemGetInfo"},      {"cuCtxSynchronize", "cuCtxSynchronize"},
    {"cuMemcpyDtoH_v2", "cuMemcpyDtoH"},
  };
  for (size_t i = 0; i < LC_ARRAY_LEN(calls); i++) {
    setenv("MOCK_CUDA_FAIL", calls[i][0], 1);
    assert_int_equal(run_text(m, mp), RUN_FAILED);
    char want[200];
    snprintf(want, sizeof want, "error: %s: CUDA_ERROR_MOCK (1): the mock driver rejected the call", calls[i][1]);
    assert_string_equal(fx_error(&m->f), want);
  }
}

#define MOCK_TEST(f) cmocka_unit_test_setup_teardown(f, mock_setup, mock_teardown)

int main(void) {
  const struct CMUnitTest tests[] = {
    MOCK_TEST(test_cu_mock_mp),
    MOCK_TEST(test_cu_mock_cpp),
    MOCK_TEST(test_cu_mock_seconds),
    MOCK_TEST(test_cu_mock_cluster_launch),
    MOCK_TEST(test_cu_mock_resident),
    MOCK_TEST(test_cu_mock_overlap),
    MOCK_TEST(test_cu_mock_cluster_scope_on_sm80),
    MOCK_TEST(test_cu_mock_dsmem_cluster),
    MOCK_TEST(test_cu_mock_narrowed),
    MOCK_TEST(test_cu_mock_shared_and_alias),
    MOCK_TEST(test_cu_mock_allowed),
    MOCK_TEST(test_cu_mock_forbidden_samples),
    MOCK_TEST(test_cu_mock_options),
    MOCK_TEST(test_cu_mock_loops),
    MOCK_TEST(test_cu_mock_cannot_run),
    MOCK_TEST(test_cu_mock_failed),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
