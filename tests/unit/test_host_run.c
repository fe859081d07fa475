/* test_host_run.c - running tests on CPU threads: what a thread computes,
 * how instances end (filtered, abandoned, beyond the unroll bound), samples,
 * and the run's limits.
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
#include "run/run.h"
#include "run_fixture.h"

typedef struct world {
  fixture f;
  run_params par;
  run_result r;
} world;

static world *start(const char *text) {
  world *w = calloc(1, sizeof *w);
  assert_int_equal(fixture_load(&w->f, "T.litmus", text), 0);
  run_params_init(&w->par);
  w->par.seed = 42;
  w->par.instances = 100;
  w->par.iterations = 3;
  w->par.watchdog = 30;   /* a thread descheduled for long must not turn a hang into a cut */
  run_result_init(&w->r, w->f.prog, "host");
  return w;
}

static void run(world *w, const lc_result *allowed) {
  lc_diag d;
  lc_diag_init(&d, NULL, stderr);
  assert_int_equal(host_run(w->f.prog, &w->par, allowed, &w->r, &d), 0);
  assert_int_equal(run_result_finish(&w->r, &d), 0);
  lc_diag_fini(&d);
}

static void stop(world *w) {
  run_result_fini(&w->r);
  fixture_fini(&w->f);
  free(w);
}

static const char *const ALU_TEXT =
  "PTX alu\n"
  "{ x=5; }\n"
  " P0@cta 0,gpu 0 ;\n"
  " mov r0, 3 ;\n"
  " add r1, r0, 4 ;\n"
  " atom.relaxed.gpu.cas r2, x, 5, 9 ;\n"
  " atom.relaxed.gpu.cas r3, x, 5, 1 ;\n"
  " atom.relaxed.gpu.inc.u32 r4, x, 9 ;\n"
  " mov r5, 0 ;\n"
  " LC00: ;\n"
  " add r5, r5, 1 ;\n"
  " blt r5, 4, LC00 ;\n"
  "exists (P0:r1 == 7 /\\ P0:r2 == 5 /\\ P0:r3 == 9 /\\ P0:r4 == 9 /\\ P0:r5 == 4 /\\ x == 0)\n";

/* One thread, one outcome: arithmetic, a cas that succeeds then fails
 * (and does not write), inc wrapping at its bound, and a loop that runs
 * past the unroll bound of 2, so every instance is unexplored. */
static void test_host_run_alu(void **state) {
  (void)state;
  world *w = start(ALU_TEXT);
  run(w, NULL);
  assert_int_equal(w->r.instances, 300);
  assert_int_equal(w->r.iterations, 3);
  assert_int_equal(w->r.nbins, 1);
  lx_val want[] = {7, 5, 9, 9, 4, 0};
  assert_int_equal(w->r.nshown, 6);
  assert_memory_equal(w->r.bins[0].values, want, sizeof want);
  assert_int_equal(w->r.bins[0].count, 300);
  assert_int_equal(w->r.bins[0].unexplored, 300);
  assert_true(w->r.bins[0].positive);
  assert_non_null(w->r.device_name);
  assert_non_null(w->r.compiler_version);
  stop(w);
}

static void test_host_run_filter(void **state) {
  (void)state;
  world *w = start("PTX filt\n{ x=0; }\n"
                   " P0@cta 0,gpu 0 ;\n"
                   " st.weak x, 1 ;\n"
                   " ld.weak r0, x ;\n"
                   "filter (P0:r0 == 0)\n"
                   "exists (x == 1)\n");
  run(w, NULL);
  assert_int_equal(w->r.filtered, 300);
  assert_int_equal(w->r.nbins, 0);
  stop(w);
}

/* Barriers met in opposite orders deadlock (the model has no execution);
 * the deadlock is detected, not waited out. */
static void test_host_run_deadlock(void **state) {
  (void)state;
  world *w = start("PTX dead\n{ x=0; }\n"
                   " P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"
                   " ld.weak r0, x  | bar.cta.sync 1 ;\n"
                   " bar.cta.sync 0 | st.weak x, 1   ;\n"
                   " bar.cta.sync 1 | bar.cta.sync 0 ;\n"
                   "~exists (P0:r0 == 1)\n");
  double t0 = lc_now();
  run(w, NULL);
  assert_int_equal(w->r.incomplete, 300);
  assert_int_equal(w->r.hung, 300);
  assert_int_equal(w->r.nbins, 0);
  assert_true(lc_now() - t0 < 10);
  stop(w);
}

/* A spin loop on a location nobody will write ends as incomplete once the
 * other thread has finished. */
static void test_host_run_stuck_loop(void **state) {
  (void)state;
  world *w = start("PTX spin\n{ x=0; y=0; }\n"
                   " P0@cta 0,gpu 0  | P1@cta 1,gpu 0 ;\n"
                   " LC00:           | st.weak y, 1   ;\n"
                   " ld.weak r0, x   |                ;\n"
                   " beq r0, 0, LC00 |                ;\n"
                   "exists (P0:r0 == 1)\n");
  double t0 = lc_now();
  run(w, NULL);
  assert_int_equal(w->r.incomplete, 300);
  assert_int_equal(w->r.hung, 300);
  assert_false(w->r.halted);
  assert_true(lc_now() - t0 < 10);
  stop(w);
}

/* Two threads each spinning for the other's write: nobody writes, so the
 * instance is stuck, and detected as such. */
static void test_host_run_mutual_spin(void **state) {
  (void)state;
  world *w = start("PTX mutual\n{ x=0; y=0; }\n"
                   " P0@cta 0,gpu 0  | P1@cta 1,gpu 0  ;\n"
                   " LC00:           | LC00:           ;\n"
                   " ld.weak r0, x   | ld.weak r1, y   ;\n"
                   " beq r0, 0, LC00 | beq r1, 0, LC00 ;\n"
                   "exists (P0:r0 == 1)\n");
  double t0 = lc_now();
  run(w, NULL);
  assert_int_equal(w->r.incomplete, 300);
  assert_int_equal(w->r.hung, 300);
  assert_false(w->r.halted);
  assert_true(lc_now() - t0 < 10);
  stop(w);
}

/* A loop that stores forever cannot be found stuck (it writes): each
 * instance is cut, not hung, and the watchdog's budget halts the run in
 * about RUN_WATCHDOG_BUDGET watchdogs instead of 600 instances' worth of
 * spin limits. */
static void test_host_run_watchdog_halts(void **state) {
  (void)state;
  world *w = start("PTX forever\n{ x=0; }\n"
                   " P0@cta 0,gpu 0      | P1@cta 1,gpu 0 ;\n"
                   " LC00:               | ld.weak r0, x  ;\n"
                   " st.relaxed.gpu x, 1 |                ;\n"
                   " goto LC00           |                ;\n"
                   "exists (P1:r0 == 1)\n");
  w->par.watchdog = 0.05;
  w->par.iterations = 1000;
  double t0 = lc_now();
  run(w, NULL);
  assert_true(w->r.halted);
  assert_int_equal(w->r.hung, 0);
  assert_true(w->r.incomplete > 0);
  assert_int_equal(w->r.nbins, 0);
  assert_true(w->r.instances < 100000);
  assert_true(lc_now() - t0 < 10);
  stop(w);
}

/* Two threads exchanging forever write all the time: the watchdog (not
 * the spin limit, since each still runs) cuts them, and counts it. */
static void test_host_run_watchdog_cuts(void **state) {
  (void)state;
  world *w = start("PTX exch\n{ t=0; }\n"
                   " P0@cta 0,gpu 0                 | P1@cta 1,gpu 0                 ;\n"
                   " LC00:                          | LC10:                          ;\n"
                   " atom.relaxed.gpu.exch r0, t, 1 | atom.relaxed.gpu.exch r0, t, 1 ;\n"
                   " bne r0, 2, LC00                | bne r0, 2, LC10                ;\n"
                   "exists (P0:r0 == 2)\n");
  w->par.watchdog = 0.05;
  w->par.spin_limit = 1u << 30;
  double t0 = lc_now();
  run(w, NULL);
  assert_true(w->r.halted);
  assert_true(w->r.watchdog_cuts > 0);
  assert_int_equal(w->r.hung, 0);
  assert_int_equal(w->r.incomplete, w->r.instances);
  assert_true(lc_now() - t0 < 10);
  stop(w);
}

/* A handshake through two spin loops ends every time: a loop that is
 * waiting for a write still to come is not taken for a stuck one. */
static void test_host_run_handshake(void **state) {
  (void)state;
  world *w = start("PTX handshake\n{ x=0; y=0; }\n"
                   " P0@cta 0,gpu 0       | P1@cta 1,gpu 0       ;\n"
                   " st.release.gpu x, 1  | LC00:                ;\n"
                   " LC01:                | ld.acquire.gpu r1, x ;\n"
                   " ld.acquire.gpu r0, y | beq r1, 0, LC00      ;\n"
                   " beq r0, 0, LC01      | st.release.gpu y, 1  ;\n"
                   "exists (P0:r0 == 1 /\\ P1:r1 == 1)\n");
  w->par.instances = 500;
  run(w, NULL);
  assert_int_equal(w->r.incomplete, 0);
  assert_false(w->r.halted);
  assert_int_equal(w->r.nbins, 1);
  assert_true(w->r.bins[0].positive);
  assert_int_equal(w->r.bins[0].count, 1500);
  stop(w);
}

/* Without a count a sync waits for the CTA's other thread, so the store
 * before it is seen after it. */
static void test_host_run_barrier_syncs(void **state) {
  (void)state;
  world *w = start("PTX inscope\n{ x=0; }\n"
                   " P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"
                   " st.weak x, 1   | bar.cta.sync 1 ;\n"
                   " bar.cta.sync 1 | ld.weak r0, x  ;\n"
                   "forall (P1:r0 == 1)\n");
  run(w, NULL);
  assert_int_equal(w->r.nbins, 1);
  assert_int_equal(w->r.bins[0].values[0], 1);
  assert_int_equal(w->r.bins[0].count + w->r.incomplete, 300);
  stop(w);
}

/* Barriers with different numbers do not wait for each other. */
static void test_host_run_barrier_numbers(void **state) {
  (void)state;
  world *w = start("PTX diff\n{ x=0; y=0; }\n"
                   " P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"
                   " st.weak x, 1   | st.weak y, 1   ;\n"
                   " bar.cta.sync 0 | bar.cta.sync 1 ;\n"
                   " ld.weak r0, y  | ld.weak r1, x  ;\n"
                   "forall (P0:r0 == 1 \\/ P1:r1 == 1)\n");
  run(w, NULL);
  assert_int_equal(w->r.incomplete, 0);
  stop(w);
}

/* Release/acquire message passing: the model's states (no stale read
 * after the flag) are all a CPU shows. */
static void test_host_run_mp_no_forbidden(void **state) {
  (void)state;
  world *w = start(MP_TEXT);
  w->par.instances = 1000;
  w->par.iterations = 20;
  lx_val states[] = {0, 0, 0, 1, 1, 1};
  lc_result *model = fixture_states(w->f.prog, states, 3);
  run(w, model);
  assert_int_equal(run_compare(&w->r, model), 0);
  assert_int_equal(w->r.nsamples, 0);
  assert_int_equal(w->r.instances, 20000);
  lc_result_free(model);
  stop(w);
}

/* Samples: the first max_forbidden instances whose outcome the given
 * states leave out, with the CPU each thread ran on. */
static void test_host_run_samples(void **state) {
  (void)state;
  world *w = start(ALU_TEXT);
  w->par.max_forbidden = 3;
  /* the loop is cut by an unroll bound of 5 here, so outcomes count */
  lx_options lo = {5, LX_DEFAULT_MAX_PATHS, 0, false, 0, 0};
  lc_diag d;
  lc_diag_init(&d, NULL, stderr);
  lx_program *p5 = lx_lower(w->f.test, &lo, &d);
  lc_diag_fini(&d);
  run_result_fini(&w->r);
  run_result_init(&w->r, p5, "host");
  lx_val other[] = {0, 0, 0, 0, 0, 0};
  lc_result *model = fixture_states(p5, other, 1);
  lc_diag_init(&d, NULL, stderr);
  assert_int_equal(host_run(p5, &w->par, model, &w->r, &d), 0);
  assert_int_equal(run_result_finish(&w->r, &d), 0);
  lc_diag_fini(&d);
  assert_int_equal(w->r.bins[0].unexplored, 0);
  assert_int_equal(w->r.nsamples, 3);
  assert_int_equal(w->r.samples[0].iteration, 0);
  assert_int_equal(w->r.samples[2].instance, 2);
  assert_null(w->r.samples[0].ctas);
  assert_non_null(w->r.samples[0].cpus);
  assert_int_equal(run_compare(&w->r, model), 1);
  lc_result_free(model);
  run_result_fini(&w->r);
  run_result_init(&w->r, w->f.prog, "host");
  lx_program_free(p5);
  stop(w);
}

/* Defaults are filled in; the stop flag ends the run after a batch; a
 * time budget ends it in time. */
static void test_host_run_limits(void **state) {
  (void)state;
  world *w = start(SB_TEXT);
  w->par.instances = 0;
  w->par.iterations = 0;
  atomic_bool stop_now;
  atomic_init(&stop_now, true);
  w->par.stop = &stop_now;
  run(w, NULL);
  assert_int_equal(w->r.params.instances, 2000);
  assert_int_equal(w->r.iterations, 1);
  assert_int_equal(w->r.instances, 2000);
  assert_int_equal(w->r.params.seed, 42);
  assert_null(w->r.params.stop);
  stop(w);

  w = start(SB_TEXT);
  w->par.iterations = 0;
  w->par.seconds = 0.05;
  double t0 = lc_now();
  run(w, NULL);
  assert_true(lc_now() - t0 < 5);
  assert_true(w->r.iterations >= 1);
  stop(w);
}

/* An instruction the host cannot run: RUN_CANNOT, naming it, before any
 * thread starts. */
static void test_host_run_refuses(void **state) {
  (void)state;
  world *w = start("PTX surface\n{ x=0; s @ surface aliases x; }\n P0@cta 0,gpu 0 ;\n sust.weak s, 1 ;\n"
                   "exists (x == 1)\n");
  lc_diag d;
  lc_diag_init(&d, &w->f.src, NULL);
  assert_int_equal(host_run(w->f.prog, &w->par, NULL, &w->r, &d), RUN_CANNOT);
  assert_string_equal(lc_diag_first_error(&d), "T.litmus:4:2: error: the host backend cannot run `sust.weak s, 1`: "
                                               "surface-proxy accesses have no CPU counterpart");
  lc_diag_fini(&d);
  stop(w);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_host_run_alu),
    cmocka_unit_test(test_host_run_refuses),
    cmocka_unit_test(test_host_run_filter),
    cmocka_unit_test(test_host_run_deadlock),
    cmocka_unit_test(test_host_run_stuck_loop),
    cmocka_unit_test(test_host_run_mutual_spin),
    cmocka_unit_test(test_host_run_watchdog_halts),
    cmocka_unit_test(test_host_run_watchdog_cuts),
    cmocka_unit_test(test_host_run_handshake),
    cmocka_unit_test(test_host_run_barrier_syncs),
    cmocka_unit_test(test_host_run_barrier_numbers),
    cmocka_unit_test(test_host_run_mp_no_forbidden),
    cmocka_unit_test(test_host_run_samples),
    cmocka_unit_test(test_host_run_limits),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
