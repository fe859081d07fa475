/* test_isolate.c - tasks in child processes (src/base/isolate.c): answers come
 * back whole, a child past its deadline is killed and its fallback
 * reported, a relaxed child is left to finish, a new deadline holds, a
 * crash is reported.
 * SPDX-License-Identifier: MIT
 */
#define _POSIX_C_SOURCE 200809L   /* nanosleep */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "isolate.h"
#include "lc.h"

enum { MAX_TASKS = 8, BIG = 300000 };   /* BIG: more than a pipe holds */

typedef enum { ANSWER, HANG, RELAX_THEN_ANSWER, CRASH, EXIT, LATER_DEADLINE, SOONER_DEADLINE } behaviour;

typedef struct seen {
  bool done;
  lc_iso_end end;
  int signal, code;
  char *fields[5];
  size_t nfields;
  double seconds;
} seen;

typedef struct fixture {
  behaviour what[MAX_TASKS];
  seen seen[MAX_TASKS];
  size_t order[MAX_TASKS], nended;
} fixture;

static void sleep_s(double s) {
  struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
  nanosleep(&ts, NULL);
}

static void run(void *ctx, size_t i, int fd) {
  fixture *f = ctx;
  char num[16];
  snprintf(num, sizeof num, "%zu", i);
  const char *fallback[] = {"fallback", num};
  lc_iso_send(fd, LC_ISO_FALLBACK, fallback, 2);
  switch (f->what[i]) {
  case HANG: for (;;) sleep_s(1);
  case CRASH:
    signal(SIGSEGV, SIG_DFL);   /* cmocka catches it otherwise */
    raise(SIGSEGV);
    break;
  case EXIT: _exit(5);
  case RELAX_THEN_ANSWER:
    lc_iso_send(fd, LC_ISO_RELAX, NULL, 0);
    sleep_s(0.4);
    break;
  case LATER_DEADLINE:
  case SOONER_DEADLINE: {
    const char *in[] = {f->what[i] == LATER_DEADLINE ? "1.0" : "0.05"};
    sleep_s(0.1);
    lc_iso_send(fd, LC_ISO_DEADLINE, in, 1);
    sleep_s(0.6);
    break;
  }
  case ANSWER: break;
  }
  char *big = malloc(BIG + 1);
  memset(big, 'a' + (int)i, BIG);
  big[BIG] = '\0';
  const char *answer[] = {"answer", num, NULL, "", big};
  lc_iso_send(fd, LC_ISO_RESULT, answer, 5);
  free(big);
}

static void done(void *ctx, size_t i, const lc_iso_outcome *o) {
  fixture *f = ctx;
  seen *s = &f->seen[i];
  assert_false(s->done);
  s->done = true;
  s->end = o->end, s->signal = o->signal, s->code = o->code, s->seconds = o->seconds;
  s->nfields = o->nfields;
  assert_true(o->nfields <= 5);
  for (size_t k = 0; k < o->nfields; k++) s->fields[k] = o->fields[k] ? lc_xstrdup(o->fields[k]) : NULL;
  f->order[f->nended++] = i;
}

static void fixture_fini(fixture *f, size_t n) {
  for (size_t i = 0; i < n; i++)
    for (size_t k = 0; k < f->seen[i].nfields; k++) free(f->seen[i].fields[k]);
}

static const lc_iso_ops ops = {run, done};

/* Five tasks, two at a time: every answer whole (NULL, empty and a field
 * larger than a pipe's buffer), each task once. */
static void test_answers(void **state) {
  (void)state;
  fixture f = {0};
  lc_isolate_run(5, 2, 10, &ops, &f);
  assert_int_equal(f.nended, 5);
  for (size_t i = 0; i < 5; i++) {
    seen *s = &f.seen[i];
    assert_true(s->done);
    assert_int_equal(s->end, LC_ISO_DONE);
    assert_int_equal(s->nfields, 5);
    assert_string_equal(s->fields[0], "answer");
    assert_int_equal(atoi(s->fields[1]), (int)i);
    assert_null(s->fields[2]);
    assert_string_equal(s->fields[3], "");
    assert_int_equal(strlen(s->fields[4]), BIG);
    assert_int_equal(s->fields[4][BIG - 1], 'a' + (int)i);
  }
  fixture_fini(&f, 5);
}

/* A hanging task is killed at its deadline and reported with its
 * fallback; the others still answer, and do not wait for it. */
static void test_deadline(void **state) {
  (void)state;
  fixture f = {.what = {ANSWER, HANG, ANSWER}};
  double t0 = lc_now();
  lc_isolate_run(3, 3, 0.3, &ops, &f);
  double wall = lc_now() - t0;
  assert_int_equal(f.seen[1].end, LC_ISO_KILLED);
  assert_int_equal(f.seen[1].nfields, 2);
  assert_string_equal(f.seen[1].fields[0], "fallback");
  assert_string_equal(f.seen[1].fields[1], "1");
  assert_true(f.seen[1].seconds >= 0.3);
  assert_true(wall < 2.0);
  assert_int_equal(f.seen[0].end, LC_ISO_DONE);
  assert_int_equal(f.seen[2].end, LC_ISO_DONE);
  assert_int_equal(f.order[2], 1);   /* the hanging one ends last */
  fixture_fini(&f, 3);
}

/* One child at a time: the one killed is replaced, and the tasks after
 * the hanging one still run. */
static void test_deadline_one_child(void **state) {
  (void)state;
  fixture f = {.what = {ANSWER, HANG, ANSWER, ANSWER}};
  lc_isolate_run(4, 1, 0.2, &ops, &f);
  assert_int_equal(f.nended, 4);
  for (size_t i = 0; i < 4; i++) {
    assert_int_equal(f.order[i], i);
    assert_int_equal(f.seen[i].end, i == 1 ? LC_ISO_KILLED : LC_ISO_DONE);
  }
  fixture_fini(&f, 4);
}

/* After LC_ISO_RELAX the deadline no longer holds. */
static void test_relax(void **state) {
  (void)state;
  fixture f = {.what = {RELAX_THEN_ANSWER}};
  lc_isolate_run(1, 1, 0.1, &ops, &f);
  assert_int_equal(f.seen[0].end, LC_ISO_DONE);
  assert_true(f.seen[0].seconds >= 0.4);
  fixture_fini(&f, 1);
}

/* LC_ISO_DEADLINE moves the deadline, later (the task ends at 0.7 s,
 * past the first one at 0.5 s) or sooner (killed at 0.15 s). */
static void test_new_deadline(void **state) {
  (void)state;
  fixture f = {.what = {LATER_DEADLINE, SOONER_DEADLINE}};
  lc_isolate_run(2, 2, 0.5, &ops, &f);
  assert_int_equal(f.seen[0].end, LC_ISO_DONE);
  assert_true(f.seen[0].seconds >= 0.7);
  assert_int_equal(f.seen[1].end, LC_ISO_KILLED);
  assert_true(f.seen[1].seconds < 0.45);
  fixture_fini(&f, 2);
}

/* A child that dies of a signal, or exits without an answer: crashed,
 * with its fallback; the batch goes on. */
static void test_crash(void **state) {
  (void)state;
  fixture f = {.what = {CRASH, EXIT, ANSWER}};
  lc_isolate_run(3, 1, 10, &ops, &f);
  assert_int_equal(f.seen[0].end, LC_ISO_CRASHED);
  assert_int_equal(f.seen[0].signal, SIGSEGV);
  assert_string_equal(f.seen[0].fields[0], "fallback");
  assert_int_equal(f.seen[1].end, LC_ISO_CRASHED);
  assert_int_equal(f.seen[1].signal, 0);
  assert_int_equal(f.seen[1].code, 5);
  assert_int_equal(f.seen[2].end, LC_ISO_DONE);
  fixture_fini(&f, 3);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_answers), cmocka_unit_test(test_deadline), cmocka_unit_test(test_deadline_one_child),
    cmocka_unit_test(test_relax),   cmocka_unit_test(test_new_deadline), cmocka_unit_test(test_crash),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
