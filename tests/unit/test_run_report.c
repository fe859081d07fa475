/* test_run_report.c - a run's text report (exact), its JSON, and the
 * atomic results file.
 * SPDX-License-Identifier: MIT
 */
#define _POSIX_C_SOURCE 200809L   /* mkdtemp */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic_file.h"
#include "run/run_report.h"
#include "term.h"
#include "run_fixture.h"

typedef struct world {
  fixture f;
  lc_result *model;
  run_result r;
} world;

static void machine(run_result *r) {
  r->device_name = lc_xstrdup("Test CPU (x86_64, 2 CPUs)");
  r->driver_version = lc_xstrdup("Linux 6.1");
  r->compiler_version = lc_xstrdup("gcc 12.2.0");
  r->params.seed = 0x1234;
  r->seconds = 0.5;
}

static void finish(world *w) {
  lc_diag d;
  lc_diag_init(&d, NULL, stderr);
  assert_int_equal(run_result_finish(&w->r, &d), 0);
  lc_diag_fini(&d);
  run_compare(&w->r, w->model);
}

/* SB: three outcomes seen, the fourth allowed one never. */
static int setup_sb(void **state) {
  world *w = calloc(1, sizeof *w);
  if (fixture_load(&w->f, "SB.litmus", SB_TEXT) < 0) return -1;
  lx_val states[] = {0, 0, 0, 1, 1, 0, 1, 1};
  w->model = fixture_states(w->f.prog, states, 4);
  run_result_init(&w->r, w->f.prog, "host");
  machine(&w->r);
  lx_val seen[][2] = {{0, 1}, {0, 0}, {1, 0}};
  uint64_t counts[] = {5, 3, 2};
  for (size_t i = 0; i < 3; i++) run_result_add(&w->r, seen[i], counts[i]);
  w->r.instances = 10;
  w->r.iterations = 2;
  finish(w);
  *state = w;
  return 0;
}

/* MP: one forbidden outcome with a sample, one seen only beyond the
 * unroll bound, incomplete instances and a note. */
static int setup_mp(void **state) {
  world *w = calloc(1, sizeof *w);
  if (fixture_load(&w->f, "MP.litmus", MP_TEXT) < 0) return -1;
  lx_val states[] = {0, 0, 0, 1, 1, 1};
  w->model = fixture_states(w->f.prog, states, 3);
  run_result_init(&w->r, w->f.prog, "host");
  machine(&w->r);
  lx_val a[] = {0, 0}, bad[] = {1, 0}, c[] = {1, 1}, beyond[] = {2, 2};
  run_result_add(&w->r, a, 4);
  run_result_add(&w->r, bad, 2);
  run_result_add(&w->r, c, 3);
  run_result_add_unexplored(&w->r, beyond, 1);
  int cpus[] = {1, 0};
  run_result_add_sample(&w->r, 0, 7, bad, NULL, NULL, cpus);
  run_result_note(&w->r, "something to say");
  w->r.incomplete = 2;
  w->r.hung = 1;
  w->r.params.spin_limit = 1000000;
  w->r.termination = LC_TERM_MAY_HANG;
  w->r.termination_witness = lc_xstrdup("P0 spins; final memory: x=0");
  w->r.instances = 12;
  w->r.iterations = 1;
  finish(w);
  *state = w;
  return 0;
}

static int teardown(void **state) {
  world *w = *state;
  run_result_fini(&w->r);
  lc_result_free(w->model);
  fixture_fini(&w->f);
  free(w);
  return 0;
}

static void assert_text(const run_result *r, const char *want) {
  lc_buf b;
  lc_buf_init(&b);
  run_report_text(&b, r);
  if (strcmp(b.s, want) != 0) fprintf(stderr, "got:\n%s\nwant:\n%s\n", b.s, want);
  assert_string_equal(b.s, want);
  lc_buf_fini(&b);
}

static void test_run_report_text_sb(void **state) {
  world *w = *state;
  assert_text(&w->r,
              "Test SB Allowed\n"
              "Histogram (3 states)\n"
              "3      *>P0:r0=0; P1:r1=0;\n"
              "5      :>P0:r0=0; P1:r1=1;\n"
              "2      :>P0:r0=1; P1:r1=0;\n"
              "Ok\n"
              "Witnesses\n"
              "Positive: 3, Negative: 7\n"
              "Condition exists (P0:r0 == 0 /\\ P1:r1 == 0) is validated\n"
              "Observation SB Sometimes 3 7\n"
              "Model SB PTX v7.5: 4 allowed, 3 observed, 0 forbidden observed\n"
              "Never observed SB 1\n"
              "  P0:r0=1; P1:r1=1;\n"
              "Machine SB host: Test CPU (x86_64, 2 CPUs) (Linux 6.1, gcc 12.2.0)\n"
              "Instances SB 10 in 0.50 s (20 per second), 2 iterations\n"
              "Seed SB 0x0000000000001234\n"
              "Time SB 0.50\n");
}

static void test_run_report_text_forbidden(void **state) {
  world *w = *state;
  assert_text(&w->r,
              "Test MP Forbidden\n"
              "!!! MP: the CPU showed 1 outcome that PTX v7.5 forbids (2 instances)\n"
              "!!! sample: iteration 0, instance 7: P1:r0=1; P1:r1=0; (P0 cpu 1, P1 cpu 0)\n"
              "Histogram (4 states)\n"
              "4      :>P1:r0=0; P1:r1=0;\n"
              "2     !*>P1:r0=1; P1:r1=0;\n"
              "3      :>P1:r0=1; P1:r1=1;\n"
              "1     ?:>P1:r0=2; P1:r1=2;\n"
              "No\n"
              "Witnesses\n"
              "Positive: 2, Negative: 8\n"
              "Condition ~exists (P1:r0 == 1 /\\ P1:r1 == 0) is NOT validated\n"
              "Observation MP Sometimes 2 8\n"
              "Model MP PTX v7.5: 3 allowed, 4 observed, 1 forbidden observed\n"
              "Never observed MP 1\n"
              "  P1:r0=0; P1:r1=1;\n"
              "Unexplored MP 1 outcome (1 instance) seen only when a loop ran more than --unroll 2 times; "
              "the model did not explore it\n"
              "Hung MP 1 (instances that could never end: a deadlock at a barrier or loops spinning while "
              "nobody writes; not in the histogram); the model says it may hang\n"
              "Cut MP 1 (instances stopped at --spin-limit 1000000 or after --watchdog 1 s; not in the "
              "histogram)\n"
              "Termination MP may not terminate: P0 spins; final memory: x=0\n"
              "Note MP: something to say\n"
              "Machine MP host: Test CPU (x86_64, 2 CPUs) (Linux 6.1, gcc 12.2.0)\n"
              "Instances MP 12 in 0.50 s (24 per second), 1 iterations\n"
              "Seed MP 0x0000000000001234\n"
              "Time MP 0.50\n");
}

/* A hang of a test the model says terminates is a finding, like a
 * forbidden outcome; a run the watchdog halted says so. */
static void test_run_report_text_unexpected_hang(void **state) {
  world *w = *state;
  w->r.termination = LC_TERM_TERMINATES;
  free(w->r.termination_witness);
  w->r.termination_witness = NULL;
  w->r.halted = true;
  assert_int_equal(run_unexpected_hangs(&w->r), 1);
  lc_buf b;
  lc_buf_init(&b);
  run_report_text(&b, &w->r);
  assert_non_null(strstr(b.s, "Test MP Forbidden\n"
                              "!!! MP: the CPU hung in 1 instance, but PTX v7.5 says the test always terminates\n"
                              "!!! MP: the CPU showed 1 outcome"));
  assert_non_null(strstr(b.s, "not in the histogram); the model says it always terminates\n"));
  assert_non_null(strstr(b.s, "Halted MP: cut instances spun for 3 watchdogs in all; the run stopped early\n"
                              "Termination MP terminates\n"));
  lc_buf_fini(&b);
  json_t *o = run_report_json(&w->r);
  json_t *t = json_object_get(o, "termination");
  assert_string_equal(json_string_value(json_object_get(t, "verdict")), "terminates");
  assert_int_equal(json_integer_value(json_object_get(t, "unexpected_hangs")), 1);
  assert_true(json_is_true(json_object_get(o, "halted")));
  json_decref(o);
}

/* A GPU sample names CTAs and threads; an SM version shows. */
static void test_run_report_text_gpu_sample(void **state) {
  world *w = *state;
  w->r.backend = "cuda";
  w->r.sm_major = 9;
  w->r.sm_minor = 0;
  free(w->r.samples[0].cpus);
  w->r.samples[0].cpus = NULL;
  int ctas[] = {4, 9}, threads[] = {17, 3};
  run_result_add_sample(&w->r, 2, 5, w->r.samples[0].values, ctas, threads, NULL);
  lc_buf b;
  lc_buf_init(&b);
  run_report_text(&b, &w->r);
  assert_non_null(strstr(b.s, "!!! MP: the GPU showed 1 outcome that PTX v7.5 forbids (2 instances)\n"));
  assert_non_null(strstr(b.s, "!!! sample: iteration 2, instance 5: P1:r0=1; P1:r1=0; "
                              "(P0 cta 4 thread 17, P1 cta 9 thread 3)\n"));
  assert_non_null(strstr(b.s, "Machine MP cuda: Test CPU (x86_64, 2 CPUs) sm_90 (Linux 6.1, gcc 12.2.0)\n"));
  lc_buf_fini(&b);
}

static json_t *path(json_t *o, const char *key) {
  json_t *v = json_object_get(o, key);
  assert_non_null(v);
  return v;
}

static void test_run_report_json(void **state) {
  world *w = *state;
  json_t *o = run_report_json(&w->r);
  assert_string_equal(json_string_value(path(o, "test")), "MP");
  assert_string_equal(json_string_value(path(o, "seed")), "0x0000000000001234");
  json_t *dev = path(o, "device");
  assert_string_equal(json_string_value(path(dev, "backend")), "host");
  assert_string_equal(json_string_value(path(dev, "name")), "Test CPU (x86_64, 2 CPUs)");
  assert_true(json_is_null(path(dev, "sm")));
  assert_string_equal(json_string_value(path(dev, "driver")), "Linux 6.1");
  assert_string_equal(json_string_value(path(dev, "compiler")), "gcc 12.2.0");
  json_t *par = path(o, "params");
  assert_int_equal(json_integer_value(path(par, "stride")), 16);
  assert_true(json_is_true(path(par, "barrier")));
  assert_int_equal(json_integer_value(path(par, "spin_limit")), 1000000);
  json_t *h = path(o, "histogram");
  assert_int_equal(json_array_size(h), 4);
  json_t *bad = json_array_get(h, 1);
  assert_int_equal(json_integer_value(path(path(bad, "values"), "P1:r0")), 1);
  assert_int_equal(json_integer_value(path(bad, "count")), 2);
  assert_true(json_is_false(path(bad, "allowed")));
  assert_true(json_is_true(path(bad, "positive")));
  assert_string_equal(json_string_value(path(bad, "status")), "forbidden");
  assert_string_equal(json_string_value(path(json_array_get(h, 3), "status")), "unexplored");
  assert_string_equal(json_string_value(path(json_array_get(h, 0), "status")), "allowed");
  json_t *samples = path(o, "forbidden_samples");
  assert_int_equal(json_array_size(samples), 1);
  json_t *where = path(json_array_get(samples, 0), "where");
  assert_string_equal(json_string_value(path(json_array_get(where, 0), "thread")), "P0");
  assert_int_equal(json_integer_value(path(json_array_get(where, 0), "cpu")), 1);
  assert_true(json_is_null(path(json_array_get(where, 0), "cta")));
  json_t *unobs = path(o, "unobserved_allowed");
  assert_int_equal(json_array_size(unobs), 1);
  assert_int_equal(json_integer_value(path(json_array_get(unobs, 0), "P1:r1")), 1);
  json_t *model = path(o, "model");
  assert_string_equal(json_string_value(path(model, "name")), "PTX v7.5");
  assert_int_equal(json_integer_value(path(model, "forbidden_outcomes")), 1);
  assert_int_equal(json_integer_value(path(model, "forbidden_instances")), 2);
  assert_int_equal(json_integer_value(path(o, "instances")), 12);
  assert_int_equal(json_integer_value(path(o, "incomplete")), 2);
  assert_int_equal(json_integer_value(path(o, "hung")), 1);
  assert_int_equal(json_integer_value(path(o, "cut")), 1);
  assert_true(json_is_false(path(o, "halted")));
  json_t *term = path(o, "termination");
  assert_string_equal(json_string_value(path(term, "verdict")), "may not terminate");
  assert_string_equal(json_string_value(path(term, "witness")), "P0 spins; final memory: x=0");
  assert_int_equal(json_integer_value(path(term, "unexpected_hangs")), 0);
  assert_true(json_real_value(path(par, "watchdog")) == 1.0);
  assert_int_equal(json_integer_value(path(o, "positive")), 2);
  assert_string_equal(json_string_value(path(o, "verdict")), "No");
  assert_string_equal(json_string_value(json_array_get(path(o, "notes"), 0)), "something to say");
  json_t *tm = path(o, "timings");
  assert_true(json_real_value(path(tm, "run_seconds")) == 0.5);
  assert_true(json_real_value(path(tm, "instances_per_second")) == 24.0);
  json_decref(o);
}

/* ---- the results file -------------------------------------------------------------- */

static size_t count_entries(const char *dir) {
  DIR *d = opendir(dir);
  size_t n = 0;
  struct dirent *e;
  while ((e = readdir(d)))
    if (e->d_name[0] != '.') n++;
  closedir(d);
  return n;
}

static char *slurp(const char *file) {
  FILE *f = fopen(file, "r");
  assert_non_null(f);
  static char buf[256];
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  buf[n] = '\0';
  fclose(f);
  return buf;
}

static void test_lc_write_atomic(void **state) {
  (void)state;
  char dir[] = "/tmp/litmus-run-test.XXXXXX";
  assert_non_null(mkdtemp(dir));
  char file[64];
  snprintf(file, sizeof file, "%s/out.txt", dir);
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  assert_int_equal(lc_write_atomic(file, "first\n", 6, &d), 0);
  assert_string_equal(slurp(file), "first\n");
  assert_int_equal(lc_write_atomic(file, "second, longer\n", 15, &d), 0);
  assert_string_equal(slurp(file), "second, longer\n");
  assert_int_equal(count_entries(dir), 1);   /* no temporary file left */
  struct stat st;
  assert_int_equal(stat(file, &st), 0);
  mode_t mask = umask(0);
  umask(mask);
  assert_int_equal(st.st_mode & 0777, 0666 & ~mask);
  assert_int_equal(d.nerrors, 0);
  unlink(file);
  rmdir(dir);
  lc_diag_fini(&d);
}

static void test_lc_write_atomic_fails(void **state) {
  (void)state;
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  assert_int_equal(lc_write_atomic("/nonexistent-dir/out.txt", "x", 1, &d), -1);
  assert_string_equal(lc_diag_first_error(&d),
                      "error: cannot create a temporary file beside '/nonexistent-dir/out.txt': "
                      "No such file or directory");
  lc_diag_fini(&d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test_setup_teardown(test_run_report_text_sb, setup_sb, teardown),
    cmocka_unit_test_setup_teardown(test_run_report_text_forbidden, setup_mp, teardown),
    cmocka_unit_test_setup_teardown(test_run_report_text_unexpected_hang, setup_mp, teardown),
    cmocka_unit_test_setup_teardown(test_run_report_text_gpu_sample, setup_mp, teardown),
    cmocka_unit_test_setup_teardown(test_run_report_json, setup_mp, teardown),
    cmocka_unit_test(test_lc_write_atomic),
    cmocka_unit_test(test_lc_write_atomic_fails),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
