/* test_diff.c - --diff-models' pieces: the PTX programs of the exhaustive
 * enumerator (bounds, symmetry, weakenings, their text) and the comparison
 * of two models on one test (src/query/diff.c).
 * SPDX-License-Identifier: MIT
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <z3.h>

#include "cat/cat.h"
#include "diff.h"
#include "litmus/ast.h"
#include "map/exhaustive.h"

static int key_cmp(const void *x, const void *y) { return memcmp(x, y, EX_KEY_MAX * sizeof(unsigned)); }

static size_t enumerate(const char *spec, ex_prog **out) {
  ex_bound b;
  ex_bound_default_ptx(&b);
  char *err = NULL;
  assert_int_equal(ex_bound_parse(spec, &b, &err), 0);
  return ex_enumerate(&b, out);
}

/* The PTX bound: its own names, thread counts from 1, no ctrl (PTX tests
 * would need predicates for it), no thread scope. */
static void test_ptx_bound(void **state) {
  (void)state;
  ex_bound b;
  ex_bound_default_ptx(&b);
  char *err = NULL;
  assert_int_equal(ex_bound_parse("threads=1,orders=weak+relaxed,scopes=cta+sys,aliases=0,ctas=1", &b, &err), 0);
  assert_int_equal(b.threads, 1);
  assert_false(b.aliases);
  assert_int_equal(b.orders[EX_W], 1u << MAP_NA | 1u << MAP_RLX);
  assert_int_equal(b.scopes, 1u << MAP_BLOCK | 1u << MAP_SYSTEM);
  const char *bad[] = {"ctrl=1", "scopes=thread", "threads=5", "ctas=0", "orders=seq"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    ex_bound_default_ptx(&b);
    assert_int_equal(ex_bound_parse(bad[i], &b, &err), -1);
    assert_non_null(err);
    free(err);
    err = NULL;
  }
  /* C++ bounds keep refusing one thread; orders= is read (it read past
   * the names, into MAP_VOL's missing one, and crashed) */
  ex_bound_default(&b);
  assert_int_equal(ex_bound_parse("threads=1", &b, &err), -1);
  free(err);
  ex_bound_default(&b);
  assert_int_equal(ex_bound_parse("orders=rlx+acq", &b, &err), 0);
  assert_int_equal(b.orders[EX_R], 1u << MAP_RLX | 1u << MAP_ACQ);
  assert_int_equal(ex_bound_parse("orders=vol", &b, &err), -1);
  free(err);
}

/* Every program once: no two enumerated programs of up to 3 instructions
 * are equal up to thread order, CTA names, location names and alias
 * swaps; and each one's text reads back. */
static void test_ptx_programs_once(void **state) {
  (void)state;
  ex_prog *p = NULL;
  size_t n = enumerate("events=3", &p);
  assert_int_equal(n, 10 + 432 + 11124);
  unsigned (*keys)[EX_KEY_MAX] = calloc(n, sizeof *keys);
  for (size_t i = 0; i < n; i++) ex_prog_key(&p[i], keys[i]);
  qsort(keys, n, sizeof *keys, key_cmp);
  for (size_t i = 1; i < n; i++) assert_int_not_equal(key_cmp(keys[i - 1], keys[i]), 0);
  free(keys);
  for (size_t i = 0; i < n; i += 97) {
    char *text = ex_prog_ptx_text(&p[i], NULL, NULL);
    lc_source src;
    lc_source_from_string(&src, "t.litmus", text, strlen(text));
    lc_diag d;
    lc_diag_init(&d, &src, NULL);
    lt_test *t = lt_parse(&src, &d);
    if (!t) fail_msg("program %zu does not parse: %s\n%s", i, lc_diag_first_error(&d), text);
    lt_test_free(t);
    lc_diag_fini(&d);
    lc_source_fini(&src);
    free(text);
  }
  free(p);
}

/* A program and its images under the symmetries have one key. */
static void test_ptx_key_symmetry(void **state) {
  (void)state;
  ex_prog a;
  memset(&a, 0, sizeof a);
  a.nthreads = 2;
  a.n[0] = 1;
  a.ev[0][0] = (ex_event){EX_W, 0, MAP_RLX, MAP_DEVICE, false, false, -1, -1, 0};
  a.n[1] = 2;
  a.ev[1][0] = (ex_event){EX_R, 0, MAP_ACQ, MAP_DEVICE, false, false, -1, -1, 1};
  a.ev[1][1] = (ex_event){EX_R, 1, MAP_NA, MAP_DEVICE, false, false, -1, -1, 0};
  a.cta[1] = 1;
  ex_prog b = a;   /* threads swapped, locations renamed, CTAs renamed, x's alias swapped */
  b.n[0] = a.n[1];
  memcpy(b.ev[0], a.ev[1], sizeof b.ev[0]);
  b.n[1] = a.n[0];
  memcpy(b.ev[1], a.ev[0], sizeof b.ev[1]);
  b.ev[0][0].loc = 1, b.ev[0][0].alias = 0;
  b.ev[0][1].loc = 0;
  b.ev[1][0].loc = 1, b.ev[1][0].alias = 1;
  b.cta[0] = 0, b.cta[1] = 1;
  unsigned ka[EX_KEY_MAX], kb[EX_KEY_MAX];
  ex_prog_key(&a, ka);
  ex_prog_key(&b, kb);
  assert_memory_equal(ka, kb, sizeof ka);
  b.cta[1] = 0;   /* one CTA: another program */
  ex_prog_key(&b, kb);
  assert_memory_not_equal(ka, kb, sizeof ka);
}

/* One step weaker: ld.acquire.gpu to ld.relaxed.gpu and ld.acquire.cta
 * (the bound has .cta), fence.sc to fence.acq_rel; .weak has nothing. */
static void test_ptx_weakenings(void **state) {
  (void)state;
  ex_bound b;
  ex_bound_default_ptx(&b);
  b.scopes |= 1u << MAP_BLOCK;
  ex_prog p;
  memset(&p, 0, sizeof p);
  p.nthreads = 1;
  p.n[0] = 3;
  p.ev[0][0] = (ex_event){EX_R, 0, MAP_ACQ, MAP_DEVICE, false, false, -1, -1, 0};
  p.ev[0][1] = (ex_event){EX_F, 0, MAP_SC, MAP_BLOCK, false, false, -1, -1, 0};
  p.ev[0][2] = (ex_event){EX_W, 0, MAP_NA, MAP_DEVICE, false, false, -1, -1, 0};
  ex_prog w[4 * EX_MAX_THREADS * EX_MAX_EVENTS];
  size_t n = ex_weakenings(&p, &b, w);
  assert_int_equal(n, 3);
  assert_int_equal(w[0].ev[0][0].order, MAP_RLX);
  assert_int_equal(w[1].ev[0][0].scope, MAP_BLOCK);
  assert_int_equal(w[2].ev[0][1].order, MAP_ACQ_REL);
}

static cat_model *model(const char *name) {
  const char *search[] = {LC_SRCDIR "/models", NULL};
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  cat_model *m = cat_load(name, search, &d);
  lc_diag_fini(&d);
  assert_non_null(m);
  return m;
}

static const char alias_lb[] =
  "PTX Alias-LB\n{\nx = 0;\ny @ generic aliases x;\n}\n P0@cta 0,gpu 0 ;\n ld.weak r0, x ;\n st.weak y, 1 ;\n"
  "exists (P0:r0 == 1)\n";

/* PTX 7.5 lets the read return the write through the alias; 6.0's
 * SC-per-Location forbids it.  A model against itself: the same. */
static void test_diff_alias(void **state) {
  (void)state;
  const cat_model *m[2] = {model("ptx-v6.0"), model("ptx-v7.5")};
  lc_source src;
  lc_source_from_string(&src, "t.litmus", alias_lb, strlen(alias_lb));
  lc_diag d;
  lc_diag_init(&d, &src, NULL);
  lt_test *t = lt_parse(&src, &d);
  assert_non_null(t);
  lc_check_options o;
  lc_check_options_init(&o);
  lc_diff r;
  lc_diff_test(t, m, &o, true, 0, &r);
  assert_int_equal(r.kind, LC_DIFF_DIFFER);
  assert_int_equal(r.n, 1);
  assert_string_equal(r.v[0].state, "P0:r0=1;");
  assert_int_equal(r.v[0].allowed_by, 1);
  /* (Coherence too: its cause is a cycle through the write, and loc relates the write to itself, as herd defines loc) */
  assert_string_equal(r.v[0].why, "Coherence or SC-per-Location");
  assert_int_equal(r.nstates[0], 1);
  assert_int_equal(r.nstates[1], 2);
  lc_diff_fini(&r);
  const cat_model *same[2] = {m[1], m[1]};
  lc_diff_test(t, same, &o, true, 0, &r);
  assert_int_equal(r.kind, LC_DIFF_SAME);
  assert_int_equal(r.n, 0);
  lc_diff_fini(&r);
  lt_test_free(t);
  lc_diag_fini(&d);
  lc_source_fini(&src);
  cat_model_free((cat_model *)m[0]);
  cat_model_free((cat_model *)m[1]);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_ptx_bound),
    cmocka_unit_test(test_ptx_programs_once),
    cmocka_unit_test(test_ptx_key_symmetry),
    cmocka_unit_test(test_ptx_weakenings),
    cmocka_unit_test(test_diff_alias),
  };
  int rc = cmocka_run_group_tests(tests, NULL, NULL);
  Z3_finalize_memory();
  return rc;
}
