/* test_gen_cycle.c - diy's edges read as herd spells them, cycles checked
 * with errors naming the edge at fault, and the tests built from cycles.
 * SPDX-License-Identifier: MIT
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gen/gen_cycle.h"

static gen_edge edge(const char *s) {
  gen_edge e;
  char *err = NULL;
  if (gen_edge_parse(s, &e, &err) < 0) fail_msg("%s: %s", s, err);
  return e;
}

/* The error reading s: it must name the edge. */
static void edge_error(const char *s, const char *part) {
  gen_edge e;
  char *err = NULL;
  assert_int_equal(gen_edge_parse(s, &e, &err), -1);
  assert_non_null(strstr(err, s));
  if (!strstr(err, part)) fail_msg("'%s' lacks '%s'", err, part);
  free(err);
}

static void test_edges(void **state) {
  (void)state;
  gen_edge e = edge("Rfe");
  assert_int_equal(e.kind, GEN_E_RF);
  assert_true(e.ext && e.same && e.src == 'W' && e.dst == 'R' && !e.a1.set);
  e = edge("Fri");
  assert_true(e.kind == GEN_E_FR && !e.ext && e.src == 'R' && e.dst == 'W');
  e = edge("Coe");   /* herd's other name of Wse */
  assert_true(e.kind == GEN_E_WS && e.ext && e.src == 'W' && e.dst == 'W');
  e = edge("PodWR");
  assert_true(e.kind == GEN_E_PO && !e.ext && !e.same && e.src == 'W' && e.dst == 'R');
  e = edge("PosRR");
  assert_true(e.same);
  e = edge("Fenced.sc.gpuWR");
  assert_true(e.kind == GEN_E_FENCE && e.fence_sem == LT_SEM_SC && e.fence_scope == LT_SCOPE_GPU && !e.same);
  e = edge("FenceS.acq_relWW");
  assert_true(e.fence_sem == LT_SEM_ACQ_REL && e.fence_scope == LT_SCOPE_NONE && e.same);
  e = edge("Fenced.release.ctaWW");
  assert_true(e.fence_sem == LT_SEM_RELEASE && e.fence_scope == LT_SCOPE_CTA);
  e = edge("Membard.glRR");
  assert_true(e.membar && e.fence_scope == LT_SCOPE_GPU && e.src == 'R');
  e = edge("DpDatadW");
  assert_true(e.kind == GEN_E_DP && e.dp == GEN_DP_DATA && e.src == 'R' && e.dst == 'W');
  e = edge("DpCtrlsR");
  assert_true(e.dp == GEN_DP_CTRL && e.same && e.dst == 'R');
  e = edge("RfeRel.ctaAcq");
  assert_true(e.a1.set && e.a1.sem == LT_SEM_RELEASE && e.a1.scope == LT_SCOPE_CTA);
  assert_true(e.a2.set && e.a2.sem == LT_SEM_ACQUIRE && e.a2.scope == LT_SCOPE_NONE);
  e = edge("PodWWPRlx.sys");
  assert_true(e.a1.sem == LT_SEM_WEAK && e.a2.sem == LT_SEM_RELAXED && e.a2.scope == LT_SCOPE_SYS);
  e = edge("Fre@cluster");
  assert_int_equal(e.place, LT_SCOPE_CLUSTER);
  e = edge("RfeScSc@sys");
  assert_true(e.a1.sem == LT_SEM_SC && e.place == LT_SCOPE_SYS);
}

static void test_edge_errors(void **state) {
  (void)state;
  edge_error("Rfx", "unknown edge");
  edge_error("PodXW", "two directions");
  edge_error("Pod", "two directions");
  edge_error("PoxRR", "s or d");
  edge_error("Fenced.xWR", ".sc, .acq_rel, .acquire or .release");
  edge_error("Fenced.sc.galaxyWR", "unknown scope");
  edge_error("Membard.gpuWR", ".cta, .gl or .sys");
  edge_error("DpDatadR", "ends on a write");
  edge_error("DpFoodR", "Addr, Data or Ctrl");
  edge_error("RfeRel", "two annotations");
  edge_error("RfeAcqRel", "Acq annotates a read only");
  edge_error("FreRlxAcq", "Acq annotates a read only");
  edge_error("PodWWP.gpuRlx", "takes no scope");
  edge_error("PodRR@cta", "only an external edge");
  edge_error("Rfe@moon", "unknown placement");
  edge_error("PodWRx", "two annotations");
}

static char *cycle_error(const char *text) {
  gen_edge *e = NULL;
  size_t n = 0;
  char *err = NULL;
  gen_cycle_options o = {GEN_DIALECT_PTX, LT_SCOPE_GPU};
  assert_int_equal(gen_edges_parse(text, &e, &n, &err), 0);
  if (gen_cycle_check(e, n, &o, &err) == 0) fail_msg("'%s' passes", text);
  free(e);
  return err;
}

static void expect_cycle_error(const char *text, const char *part) {
  char *err = cycle_error(text);
  if (!strstr(err, part)) fail_msg("'%s': '%s' lacks '%s'", text, err, part);
  free(err);
}

static void test_cycle_errors(void **state) {
  (void)state;
  /* an edge's end must be where the next one starts */
  expect_cycle_error("Rfe PodRR Fre PodWR", "edge 4 'PodWR' ends on a read, but edge 1 'Rfe' starts from a write");
  expect_cycle_error("Rfe PodWR Fre PodWW", "edge 1 'Rfe' ends on a read, but edge 2 'PodWR' starts from a write");
  expect_cycle_error("Rfe PodRR Fre", "edge 2 'PodRR' is the only change of location");
  expect_cycle_error("PodWR Fri", "no external edge");
  expect_cycle_error("PodWR Fre PodWR Fri", "edge 2 'Fre' is the only external edge");
  expect_cycle_error("Wse Rfe Fre", "no program-order edge");
  expect_cycle_error("RfeRelAcq PodRRRlxP Fre PodWW", "edges 1 'RfeRelAcq' and 2 'PodRRRlxP' annotate");
  expect_cycle_error("Rfe@cta PodRW Rfe PodRW", "edge 3 'Rfe' asks for its threads in different CTAs of one GPU");
  expect_cycle_error("Rfe DpAddrdR Fre PodWW", "edge 2 'DpAddrdR': an address dependency");
  expect_cycle_error("PodWWScSc Wse PodWW Wse", "PTX has no sc loads or stores");
  gen_edge *e = NULL;
  size_t n = 0;
  char *err = NULL;
  assert_int_equal(gen_edges_parse("  ", &e, &n, &err), -1);
  assert_string_equal(err, "no edges given");
  free(err);
  assert_int_equal(gen_edges_parse("Rfe PodRR Bad", &e, &n, &err), -1);
  assert_non_null(strstr(err, "'Bad'"));
  free(err);
}

static void expect_test(const char *cycle, gen_dialect d, const char *name, const char *part) {
  gen_edge *e = NULL;
  size_t n = 0;
  char *err = NULL, *nm = NULL, *text = NULL;
  gen_cycle_options o = {d, LT_SCOPE_GPU};
  assert_int_equal(gen_edges_parse(cycle, &e, &n, &err), 0);
  if (gen_cycle_test(e, n, &o, &nm, &text, &err) < 0) fail_msg("%s: %s", cycle, err);
  assert_string_equal(nm, name);
  if (!strstr(text, part)) fail_msg("%s: no '%s' in\n%s", cycle, part, text);
  free(e);
  free(nm);
  free(text);
}

/* diy's names, the thread order it normalises to, and the condition. */
static void test_cycle_tests(void **state) {
  (void)state;
  expect_test("Rfe PodRR Fre PodWW", GEN_DIALECT_PTX, "MP", "exists (P1:r0 == 1 /\\ P1:r1 == 0)");
  expect_test("PodWW Rfe PodRR Fre", GEN_DIALECT_PTX, "MP", " st.relaxed.gpu x, 1 | ld.relaxed.gpu r0, y ;");
  expect_test("PodWR Fre PodWR Fre", GEN_DIALECT_PTX, "SB", "exists (P0:r0 == 0 /\\ P1:r0 == 0)");
  expect_test("Rfe PodRW Rfe PodRW", GEN_DIALECT_PTX, "LB", "exists (P0:r0 == 1 /\\ P1:r0 == 1)");
  expect_test("Rfe PodRR Fre Rfe PodRR Fre", GEN_DIALECT_PTX, "IRIW",
              "exists (P1:r0 == 1 /\\ P1:r1 == 0 /\\ P3:r0 == 1 /\\ P3:r1 == 0)");
  expect_test("Rfe PodRW Rfe PodRR Fre", GEN_DIALECT_PTX, "WRC", "exists (P1:r0 == 1 /\\ P2:r0 == 1 /\\ P2:r1 == 0)");
  expect_test("PodWW Rfe PodRW Rfe PodRR Fre", GEN_DIALECT_PTX, "ISA2", "z=0;");
  expect_test("PodWW Wse PodWW Wse", GEN_DIALECT_PTX, "2+2W", "exists (x == 2 /\\ y == 2)");
  expect_test("PodWW Wse PodWR Fre", GEN_DIALECT_PTX, "R", "exists (P1:r0 == 0 /\\ y == 2)");
  expect_test("PodWW Rfe PodRW Wse", GEN_DIALECT_PTX, "S", "exists (P1:r0 == 1 /\\ x == 2)");
  expect_test("PosWR Fre Wse", GEN_DIALECT_PTX, "CoWR", "exists (P1:r0 == 0 /\\ x == 2)");
  expect_test("Fenced.scWR Fre Fenced.scWR Fre", GEN_DIALECT_PTX, "SB+fence.scs", "fence.sc.gpu");
  expect_test("Fenced.scWR Fre PodWR Fre", GEN_DIALECT_PTX, "SB+fence.sc+po", "fence.sc.gpu");
  expect_test("Rfe DpDatadW Rfe DpCtrldW", GEN_DIALECT_PTX, "LB+data+ctrl", "LC00: st.relaxed.gpu x, 1");
  expect_test("RfeRelAcq PodRRAcqP Fre PodWWPRel", GEN_DIALECT_PTX, "MP+poPRel+poAcqP", "ld.weak r1, x");
  expect_test("Rfe@sys PodRR Fre@sys PodWW", GEN_DIALECT_PTX, "MP+diff-gpu", "P1@cta 1,gpu 1");
  expect_test("Rfe@cta PodRR Fre Rfe PodRR Fre@cta", GEN_DIALECT_PTX, "IRIW+at-gpu-cta-cta-gpu", "P0@cta 0,gpu 0      | P1@cta 1,gpu 0       | P2@cta 1,gpu 0");
  expect_test("Rfe@cta PodRR Fre@cta PodWW", GEN_DIALECT_PTX, "MP+same-cta", "P1@cta 0,gpu 0");
  /* no diy name: the keys of the threads, as diy names them */
  expect_test("Rfe PodRR PodRR Fre", GEN_DIALECT_PTX, "W+RR+poR-po", "exists (P1:r0 == 1 /\\ P1:r2 == 0)");
  expect_test("RfeRelAcq PodRR Fre PodWW", GEN_DIALECT_CPP, "MP+poRlxRel+poAcqRlx", "memory_order_release");
}

static int name_emit(const char *name, const char *text, const char *cycle, void *arg) {
  (void)text;
  lc_buf_printf(arg, "%s: %s\n", name, cycle);
  return 0;
}

static int stop_emit(const char *name, const char *text, const char *cycle, void *arg) {
  (void)name;
  (void)text;
  (void)cycle;
  (void)arg;
  return 7;
}

/* Each cycle once up to rotation, valid ones only. */
static void test_cycles_each(void **state) {
  (void)state;
  gen_edge *e = NULL;
  size_t n = 0;
  char *err = NULL;
  gen_cycle_options o = {GEN_DIALECT_PTX, LT_SCOPE_GPU};
  assert_int_equal(gen_edges_parse("Rfe Fre PodRR PodWW", &e, &n, &err), 0);
  lc_buf b;
  lc_buf_init(&b);
  assert_int_equal(gen_cycles_each(e, n, n, 2, 4, &o, name_emit, &b), 0);
  assert_string_equal(b.s, "WW+R+poW-po: Rfe Fre PodWW PodWW\n"
                           "MP: Rfe PodRR Fre PodWW\n"
                           "W+RR+poR-po: Rfe PodRR PodRR Fre\n");
  assert_int_equal(gen_cycles_each(e, n, n, 2, 6, &o, stop_emit, NULL), 7);
  /* diy's -relax and -safe: PodRR relaxed, the rest safe: cycles with PodRR */
  gen_edge pool[4] = {e[2], e[0], e[1], e[3]};
  lc_buf_fini(&b);
  lc_buf_init(&b);
  assert_int_equal(gen_cycles_each(pool, 4, 1, 2, 4, &o, name_emit, &b), 0);
  assert_string_equal(b.s, "W+RR+poR-po: PodRR PodRR Fre Rfe\n"
                           "MP: PodRR Fre PodWW Rfe\n");
  lc_buf_fini(&b);
  free(e);
}

/* diy's C vocabulary (diyone7 -arch C -show edges), read with its meaning. */
static void test_diy_edges(void **state) {
  (void)state;
  gen_edge e = edge("FenceScdWR");
  assert_true(e.kind == GEN_E_FENCE && e.diy_fence && e.fence_sem == LT_SEM_SC && !e.same && e.src == 'W' && e.dst == 'R');
  e = edge("Fenced**");   /* the strong fence, both directions open */
  assert_true(e.kind == GEN_E_FENCE && e.fence_sem == LT_SEM_SC && e.src_any && e.dst_any);
  e = edge("FenceCons*R");
  assert_true(e.kind == GEN_E_FENCE && e.consume && e.fence_sem == LT_SEM_ACQUIRE && e.same && e.src_any && e.dst == 'R');
  e = edge("FenceARdRW");
  assert_int_equal(e.fence_sem, LT_SEM_ACQ_REL);
  e = edge("FenceRlx");   /* a fence alone: diy's Insert */
  assert_true(e.kind == GEN_E_INSERT && e.fence_sem == LT_SEM_RELAXED);
  e = edge("Dpd*");
  assert_true(e.kind == GEN_E_DP && e.dp == GEN_DP_ADDR && e.dst_any);
  e = edge("DpsW");
  assert_true(e.kind == GEN_E_DP && e.dp == GEN_DP_DATA && e.same);
  e = edge("CtrldR");
  assert_true(e.kind == GEN_E_DP && e.dp == GEN_DP_CTRL && e.dst == 'R');
  e = edge("Fetch.AddAcqRel");
  assert_true(e.kind == GEN_E_RMW && e.rmw == GEN_RMW_ADD && e.a1.sem == LT_SEM_ACQUIRE && e.a2.sem == LT_SEM_RELEASE);
  e = edge("Rmw");
  assert_true(e.kind == GEN_E_RMW && e.rmw == GEN_RMW_EXCH && !e.ext && e.src == 'R' && e.dst == 'W');
  e = edge("Hat");
  assert_true(e.kind == GEN_E_HAT && e.ext && e.src == 'R' && e.dst == 'R');
  e = edge("Read");
  assert_true(e.kind == GEN_E_NODE && e.src == 'R');
  e = edge("W");
  assert_true(e.kind == GEN_E_NODE && e.src == 'W');
  e = edge("Na");   /* an annotation alone: diy's Id */
  assert_true(e.kind == GEN_E_ID && e.a1.set && e.a1.sem == LT_SEM_WEAK);
  e = edge("FrLeave");
  assert_true(e.kind == GEN_E_LEAVE && e.com == GEN_E_FR && e.ext);
  e = edge("PodWRNaA");   /* A is Sc, Na plain */
  assert_true(e.a1.sem == LT_SEM_WEAK && e.a2.sem == LT_SEM_SC);
  edge_error("ExchRlxAcq", "Acq Rel");
  edge_error("FenceScxWR", "s or d");
  edge_error("PodRRCon", "two annotations");
}

/* The C tests of diy's edges, as diyone7 -arch C writes them. */
static void test_diy_cycles(void **state) {
  (void)state;
  expect_test("RfeRlxRlx Fetch.AddRlxRlx PodWRRlxRlx FreRlxRlx PodWWRlxRlx", GEN_DIALECT_C,
              "MP+porlxrlx+fetch.addrlxrlx-porlxrlx", "atomic_fetch_add_explicit(y, 2, memory_order_relaxed)");
  expect_test("Rfe Dpd* Fre PodWW", GEN_DIALECT_C, "MP+po+addr", "int r1 = *(x + (r0 & 128));");
  expect_test("Rfe DpCtrldW Rfe DpDatadW", GEN_DIALECT_C, "LB+data+ctrl", "if (r0 == 1) {");
  expect_test("Rfe Hat PodRR Fre PodWW", GEN_DIALECT_C, "WW+R+RR", "exists (1:r0 == 1 /\\ 2:r0 == 1 /\\ 2:r1 == 0)");
  expect_test("PodWR Fre W Rfe PodRR Fre", GEN_DIALECT_C, "RWC", "P0 (volatile int* x)");
  expect_test("RfLeave PodRR FrBack Rfe PodRR Fre", GEN_DIALECT_C, "MP+rf-po-fr+po", "int r1 = *y;");
  expect_test("FenceRlxdWR Fre FenceCondWR Fre", GEN_DIALECT_C, "SB+fencerlx+fencecon",
              "atomic_thread_fence(memory_order_consume);");
  expect_test("PodWW FenceSc Rfe PodRR Fre", GEN_DIALECT_PTX, "MP+po-fencesc+po", "fence.sc.gpu");
  expect_cycle_error("Rfe Fre Pod** Pod**", "ambiguous");
  expect_cycle_error("PodWW Coe Coi PodWW Coe", "observer");
}

/* diy7's cycles: no two program-order edges in a row by default. */
static void test_cycles_diy(void **state) {
  (void)state;
  gen_edge *e = NULL;
  size_t n = 0;
  char *err = NULL;
  gen_cycle_options o = {GEN_DIALECT_C, LT_SCOPE_GPU};
  gen_cycles_options co;
  gen_cycles_options_init(&co);
  assert_int_equal(gen_edges_parse("Rfe Fre PodRR PodWW", &e, &n, &err), 0);
  lc_buf b;
  lc_buf_init(&b);
  assert_int_equal(gen_cycles_diy(e, n, 0, 2, 4, &o, &co, name_emit, &b), 0);
  assert_string_equal(b.s, "MP: Rfe PodRR Fre PodWW\n");
  lc_buf_fini(&b);
  lc_buf_init(&b);
  co.mode = GEN_MODE_FREE;   /* adjacent po edges asked for */
  assert_int_equal(gen_cycles_diy(e, n, 0, 2, 4, &o, &co, name_emit, &b), 0);
  assert_non_null(strstr(b.s, "W+RR+poR-po: Rfe PodRR PodRR Fre\n"));
  lc_buf_fini(&b);
  free(e);
  /* '*' expanded: Pod** is PodRR PodRW PodWR PodWW; diy7 -size 4 makes 6 */
  assert_int_equal(gen_edges_parse("Rfe,Fre,Coe,Pod**", &e, &n, &err), 0);
  lc_buf_init(&b);
  gen_cycles_options_init(&co);
  assert_int_equal(gen_cycles_diy(e, n, 0, 2, 4, &o, &co, name_emit, &b), 0);
  size_t lines = 0;
  for (const char *p = b.s; *p; p++) lines += *p == '\n';
  assert_int_equal(lines, 6);
  lc_buf_fini(&b);
  free(e);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_diy_edges),
    cmocka_unit_test(test_diy_cycles),
    cmocka_unit_test(test_cycles_diy),
    cmocka_unit_test(test_edges),
    cmocka_unit_test(test_edge_errors),
    cmocka_unit_test(test_cycle_errors),
    cmocka_unit_test(test_cycle_tests),
    cmocka_unit_test(test_cycles_each),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
