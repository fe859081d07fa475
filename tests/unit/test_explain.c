/* test_explain.c - states and their explanations: parsing, the states of
 * a condition, the minimal sets of checks from both engines, and the
 * executions shown.
 * SPDX-License-Identifier: MIT
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <dirent.h>

#include <cmocka.h>
#include <z3.h>

#include "enum/enum.h"
#include "enum_fixture.h"
#include "explain.h"

#define MP_RA                                                                              \
  "PTX MP\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"                            \
  " st.weak x, 1 | ld.acquire.gpu r0, y ;\n st.release.gpu y, 1 | ld.weak r1, x ;\n" \
  "~exists (P1:r0 == 1 /\\ P1:r1 == 0)\n"

static char *state_text(const lx_program *p, const lc_state *s) {
  lc_buf b;
  lc_buf_init(&b);
  lc_state_print(&b, p, s);
  char *t = lc_buf_take(&b);
  lc_buf_fini(&b);
  return t;
}

static void parse_prints_back(void **st) {
  (void)st;
  fx_test x;
  assert_true(fx_parse(&x, MP_RA));
  lc_state s;
  char *err = NULL;
  assert_int_equal(lc_state_parse(x.p, " P1:r0 = 1 ;P1:r1!=0", &s, &err), 0);
  char *t = state_text(x.p, &s);
  assert_string_equal(t, "P1:r0=1; P1:r1!=0;");
  free(t);
  lc_state_fini(&s);
  assert_int_equal(lc_state_parse(x.p, "P1:r0=1; P1:r0=2", &s, &err), -1);
  assert_string_equal(err, "P1:r0 is given two values");
  free(err);
  assert_int_equal(lc_state_parse(x.p, ";", &s, &err), -1);
  free(err);
  fx_free(&x);
}

static void condition_dnf(void **st) {
  (void)st;
  fx_test x;
  assert_true(fx_parse(&x, "PTX T\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 1 | ld.weak r0, x ;\n"
                           "                 | ld.weak r1, x ;\n"
                           "forall (P1:r0 == 0 \\/ ~(P1:r1 != 1 /\\ 2 > P1:r0))\n"));
  lc_state *s;
  size_t n;
  assert_true(lc_state_of_condition(x.p, &s, &n));
  assert_int_equal(n, 1);
  char *t = state_text(x.p, &s[0]);
  assert_string_equal(t, "P1:r0!=0; P1:r1!=1; P1:r0<2;");
  free(t);
  lc_state_fini(&s[0]);
  free(s);
  fx_free(&x);
}

/* The reason names of the first explained state, joined like the text. */
static void reasons(const lc_explain_result *x, char *out, size_t size) {
  lc_buf b;
  lc_buf_init(&b);
  const lc_explanation *e = &x->ex[0];
  for (size_t r = 0; r < e->nreasons; r++)
    for (size_t k = 0; k < e->reasons[r].n; k++)
      lc_buf_printf(&b, "%s%s", k ? "+" : r ? "|" : "", e->reasons[r].why[k].v.name);
  snprintf(out, size, "%s", b.s);
  lc_buf_fini(&b);
}

static void engines_agree(void **st) {
  (void)st;
  cat_model *m = fx_model("ptx-v7.5");
  assert_non_null(m);
  static const char *const tests[] = {
    MP_RA,
    "PTX SB\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 1 | st.weak y, 1 ;\n"
    " fence.sc.gpu | fence.sc.gpu ;\n ld.weak r0, y | ld.weak r1, x ;\n~exists (P0:r0 == 0 /\\ P1:r1 == 0)\n",
  };
  static const char *const want[] = {"Causality", "WF-sc+Causality"};
  for (size_t i = 0; i < 2; i++) {
    fx_test x;
    assert_true(fx_parse(&x, tests[i]));
    lc_state *s;
    size_t n;
    assert_true(lc_state_of_condition(x.p, &s, &n));
    char a[128], b[128];
    lc_explain_result *xs = lc_explain(x.p, m, LC_ENGINE_SMT, 0, s, n, NULL);
    lc_explain_result *xe = lc_explain(x.p, m, LC_ENGINE_ENUM, 0, s, n, NULL);
    assert_int_equal(xs->ex[0].kind, LC_EXPLAIN_FORBIDDEN);
    assert_int_equal(xe->ex[0].kind, LC_EXPLAIN_FORBIDDEN);
    reasons(xs, a, sizeof a);
    reasons(xe, b, sizeof b);
    assert_string_equal(a, want[i]);
    assert_string_equal(b, want[i]);
    /* the execution shown for the last check fails it with a cycle of
     * edges that join up */
    const lc_reason *r = &xs->ex[0].reasons[0];
    const lc_violation *v = &r->why[r->n - 1].v;
    assert_true(v->nedges >= 2);
    assert_int_equal(v->edges[v->nedges - 1].to, v->edges[0].from);
    for (size_t k = 0; k + 1 < v->nedges; k++) assert_int_equal(v->edges[k].to, v->edges[k + 1].from);
    lc_explain_free(xs);
    lc_explain_free(xe);
    for (size_t k = 0; k < n; k++) lc_state_fini(&s[k]);
    free(s);
    fx_free(&x);
  }
  cat_model_free(m);
}

/* x: MP with release/acquire; s: the state `text` of it. */
static void mp_state(fx_test *x, const char *text, lc_state *s) {
  char *err = NULL;
  assert_true(fx_parse(x, MP_RA));
  assert_int_equal(lc_state_parse(x->p, text, s, &err), 0);
}

static void allowed_has_witness(void **st) {
  (void)st;
  cat_model *m = fx_model("ptx-v7.5");
  fx_test x;
  lc_state s;
  mp_state(&x, "P1:r0=0; P1:r1=1;", &s);
  for (int e = 0; e < 2; e++) {
    lc_explain_result *r = lc_explain(x.p, m, e ? LC_ENGINE_ENUM : LC_ENGINE_SMT, 0, &s, 1, NULL);
    assert_int_equal(r->ex[0].kind, LC_EXPLAIN_ALLOWED);
    assert_true(lc_state_holds(&s, r->ex[0].witness->obs));
    lc_explain_free(r);
  }
  lc_state_fini(&s);
  fx_free(&x);
  cat_model_free(m);
}

/* The index of the model's check called `name`, or the number of checks. */
static size_t check_index(const cat_model *m, const char *name) {
  size_t i = 0;
  while (i < cat_model_nchecks(m) && strcmp(cat_model_check_name(m, i), name) != 0) i++;
  return i;
}

/* enum_find_query: out of nodes is -2; the sets of checks failing where
 * the search for an execution passing every check cut it; a search
 * keeping one check of each set finds none either, and one keeping none
 * of a set may (the cuts say nothing then). */
static void bounded_search(void **st) {
  (void)st;
  cat_model *m = fx_model("ptx-v7.5");
  fx_test x;
  lc_state s;
  mp_state(&x, "P1:r0=1; P1:r1=0;", &s);
  char *err = NULL;
  size_t nc = cat_model_nchecks(m);
  bool *on = calloc(nc + 1, sizeof(bool)), *failing = calloc(nc + 1, sizeof(bool));
  lc_witness *w = NULL;
  enum_options o = {0, false, false, false};
  enum_cuts cuts;
  enum_cuts_init(&cuts, m);
  enum_query one_node = {NULL, &s, 1, NULL, NULL, NULL, NULL}, all = {NULL, &s, 0, &cuts, NULL, NULL, NULL};
  assert_int_equal(enum_find_query(x.p, m, &o, &one_node, &w, failing, &err), -2);
  assert_int_equal(enum_find_query(x.p, m, &o, &all, &w, failing, &err), 0);
  size_t causality = check_index(m, "Causality"), atomicity = check_index(m, "Atomicity");
  assert_true(causality < nc && atomicity < nc && cuts.usable && cuts.sets.n > 0);
  uint64_t seen = 0, one_each = 0;
  for (size_t k = 0; k < cuts.sets.n; k++) {
    seen |= cuts.sets.v[k];
    one_each |= cuts.sets.v[k] & -cuts.sets.v[k];
    for (size_t j = 0; j < cuts.sets.n; j++)   /* kept minimal */
      assert_true(j == k || (cuts.sets.v[j] & cuts.sets.v[k]) != cuts.sets.v[j]);
  }
  assert_true((seen >> causality) & 1);
  assert_false((seen >> atomicity) & 1);   /* no RMW: it never fails */
  assert_true(enum_cuts_met_by(&cuts, one_each));
  assert_false(enum_cuts_met_by(&cuts, 0));
  for (size_t i = 0; i < nc; i++) on[i] = (one_each >> i) & 1;
  enum_query some = {on, &s, 0, NULL, NULL, NULL, NULL};
  assert_int_equal(enum_find_query(x.p, m, &o, &some, &w, failing, &err), 0);
  enum_cuts_fini(&cuts);
  free(on);
  free(failing);
  lc_state_fini(&s);
  fx_free(&x);
  cat_model_free(m);
}

/* The study's search for a forbidden state notes where Causality cut
 * alone; below that place an execution failing it alone is found. */
static void alone_below_its_place(void **st) {
  (void)st;
  cat_model *m = fx_model("ptx-v7.5");
  fx_test x;
  lc_state s;
  mp_state(&x, "P1:r0=1; P1:r1=0;", &s);
  char *err = NULL;
  size_t nc = cat_model_nchecks(m), causality = check_index(m, "Causality");
  assert_true(causality < nc && causality < 64);
  bool *on = calloc(nc + 1, sizeof(bool)), *failing = calloc(nc + 1, sizeof(bool));
  lc_witness *w = NULL;
  enum_options o = {0, false, false, false};
  enum_cuts cuts;
  enum_cuts_init(&cuts, m);
  enum_query all = {NULL, &s, 0, &cuts, NULL, NULL, NULL};
  assert_int_equal(enum_find_query(x.p, m, &o, &all, &w, failing, &err), 0);
  bool noted = false;
  for (size_t k = 0; k < cuts.sets.n; k++) noted |= cuts.sets.v[k] == (uint64_t)1 << causality;
  assert_true(noted);
  assert_non_null(cuts.alone[causality].paths);
  for (size_t i = 0; i < nc; i++) on[i] = !cat_model_check_is_flag(m, i) && i != causality;
  size_t nodes = 0;
  enum_query below = {on, &s, 0, NULL, &cuts.alone[causality], &nodes, NULL};
  assert_int_equal(enum_find_query(x.p, m, &o, &below, &w, failing, &err), 1);
  assert_true(nodes > 0);
  for (size_t i = 0; i < nc; i++)
    if (!cat_model_check_is_flag(m, i)) assert_int_equal(failing[i], i == causality);
  assert_true(lc_state_holds(&s, w->obs));
  lc_witness_free(w);
  enum_cuts_fini(&cuts);
  free(on);
  free(failing);
  lc_state_fini(&s);
  fx_free(&x);
  cat_model_free(m);
}

/* Looking for one execution, each thread's shortest paths come first:
 * the flag seen set at the first read, not after spinning. */
static void shortest_paths_first(void **st) {
  (void)st;
  cat_model *m = fx_model("ptx-v7.5");
  fx_test x;
  /* lowered with the longest path first (the exit is the branch taken) */
  assert_true(fx_parse(&x, "PTX spin\n{ f=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
                           " st.relaxed.gpu f, 1 | LC00: ;\n | ld.relaxed.gpu r0, f ;\n"
                           " | bne r0, 0, LC01 ;\n | goto LC00 ;\n | LC01: ;\nexists (P1:r0 == 1)\n"));
  lc_state s;
  char *err = NULL;
  assert_int_equal(lc_state_parse(x.p, "P1:r0=1;", &s, &err), 0);
  bool *failing = calloc(cat_model_nchecks(m) + 1, sizeof(bool));
  lc_witness *w = NULL;
  enum_options o = {0, false, false, false};
  assert_int_equal(enum_find(x.p, m, &o, NULL, &s, &w, failing, &err), 1);
  size_t shortest = (size_t)-1;
  const lx_thread *t1 = &x.p->threads[1];
  for (size_t k = 0; k < t1->npaths; k++)
    if (x.p->paths[t1->paths[k]].nevents < shortest) shortest = x.p->paths[t1->paths[k]].nevents;
  assert_true(t1->npaths > 1);
  assert_int_equal(x.p->paths[w->paths[1]].nevents, shortest);
  lc_witness_free(w);
  free(failing);
  lc_state_fini(&s);
  fx_free(&x);
  cat_model_free(m);
}

/* ---- every violation shown is one of its check's relation ---------------------------------------- */

typedef struct cycle_count {
  size_t tests, violations, edges;
} cycle_count;

static bool in_named(const lx_program *p, const cat_model *m, const lc_witness *w, const lc_edge *e) {
  size_t v;
  cat_type t;
  if (!cat_model_find_relation(m, e->rel, &v) && !(cat_builtin_type(e->rel, &t) && t == CAT_TY_REL))
    return strpbrk(e->rel, " [~") != NULL;   /* only an expression's text may be no name */
  char *msg = NULL;
  rel_rel *r = enum_witness_relation(p, m, w, e->rel, &msg);
  if (!r) fail_msg("%s: %s", e->rel, msg);
  bool in = e->inverse ? rel_has(r, (size_t)e->to, (size_t)e->from) : rel_has(r, (size_t)e->from, (size_t)e->to);
  rel_free(r);
  return in;
}

static bool chain(const lc_edge *e, size_t n, int a, int b) {
  if (!n) return a == b;
  for (size_t i = 0; i + 1 < n; i++)
    if (e[i].to != e[i + 1].from) return false;
  return e[0].from == a && e[n - 1].to == b;
}

/* The violation is a cycle (or the pair) of its check made of edges of
 * the relations they name, each let's edge the chain of its line, and
 * the builtins' edges it comes down to are the execution's own (the
 * engine's rf, co, fr, po, ..., not the model's evaluation). */
static void check_violation(const lx_program *p, const cat_model *m, const lc_witness *w, const lc_violation *v,
                            cycle_count *c) {
  c->violations++;
  assert_true(v->nedges > 0);
  if (v->kind == CAT_CHECK_ACYCLIC) assert_true(chain(v->edges, v->nedges, v->edges[0].from, v->edges[0].from));
  else assert_true(chain(v->edges, v->nedges, v->a, v->b));
  for (size_t i = 0; i < v->nedges; i++, c->edges++) {
    assert_true(in_named(p, m, w, &v->edges[i]));
    if (v->edges[i].line >= 0) assert_string_equal(v->lines[v->edges[i].line].rel, v->edges[i].rel);
  }
  for (size_t i = 0; i < v->nlines; i++) {
    const lc_deriv *l = &v->lines[i];
    lc_edge self = {l->from, l->to, l->rel, false, NULL, -1};
    assert_true(in_named(p, m, w, &self));
    assert_true(chain(l->steps, l->nsteps, l->from, l->to));
    for (size_t k = 0; k < l->nsteps; k++, c->edges++) assert_true(in_named(p, m, w, &l->steps[k]));
  }
  rel_rel *base[LC_NBASE];
  lc_witness_base(p, w, base);
  for (size_t i = 0; i < v->nleaves; i++)
    for (size_t r = 0; r < LC_NBASE; r++)
      if (!strcmp(v->leaves[i].rel, lc_base_names[r]))
        assert_true(rel_has(base[r], (size_t)v->leaves[i].from, (size_t)v->leaves[i].to));
  for (size_t r = 0; r < LC_NBASE; r++) rel_free(base[r]);
}

static void check_folder(const char *dir, cycle_count *c) {
  DIR *d = opendir(dir);
  assert_non_null(d);
  cat_model *ptx = fx_model("ptx-v7.5"), *cpp = fx_model("cuda-cpp");
  struct dirent *de;
  while ((de = readdir(d))) {
    size_t len = strlen(de->d_name);
    if (len < 8 || strcmp(de->d_name + len - 7, ".litmus")) continue;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
    lc_source src;
    assert_int_equal(lc_source_read(&src, path), 0);
    lc_diag dg;
    lc_diag_init(&dg, &src, stderr);
    lt_test *t = lt_parse(&src, &dg);
    lx_program *p = t ? lx_lower(t, NULL, &dg) : NULL;
    lc_diag_fini(&dg);
    assert_non_null(p);
    const cat_model *m = t->cpp ? cpp : ptx;
    lc_state *st = NULL;
    size_t n = 0;
    if (lc_state_of_condition(p, &st, &n)) {
      c->tests++;
      lc_explain_result *x = lc_explain(p, m, LC_ENGINE_ENUM, 10, st, n, NULL);
      if (lc_explain_failed(x)) fail_msg("%s: %s", path, x->ex[0].message ? x->ex[0].message : "?");
      for (size_t i = 0; i < x->n; i++)
        for (size_t r = 0; r < x->ex[i].nreasons; r++)
          for (size_t k = 0; k < x->ex[i].reasons[r].n; k++)
            check_violation(p, m, x->ex[i].reasons[r].why[k].w, &x->ex[i].reasons[r].why[k].v, c);
      lc_explain_free(x);
      for (size_t i = 0; i < n; i++) lc_state_fini(&st[i]);
      free(st);
    }
    lx_program_free(p);
    lt_test_free(t);
    lc_source_fini(&src);
  }
  closedir(d);
  cat_model_free(ptx);
  cat_model_free(cpp);
}

static void shipped_violations_are_cycles(void **st) {
  (void)st;
  cycle_count c = {0};
  check_folder(LC_SRCDIR "/litmus", &c);
  check_folder(LC_SRCDIR "/litmus/cuda-cpp", &c);
  /* 35 PTX and 35 C++ tests; their forbidden states' violations */
  assert_true(c.tests >= 60);
  assert_true(c.violations >= 40);
  print_message("%zu tests, %zu violations, %zu edges checked\n", c.tests, c.violations, c.edges);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(parse_prints_back),
    cmocka_unit_test(condition_dnf),
    cmocka_unit_test(engines_agree),
    cmocka_unit_test(allowed_has_witness),
    cmocka_unit_test(bounded_search),
    cmocka_unit_test(alone_below_its_place),
    cmocka_unit_test(shortest_paths_first),
    cmocka_unit_test(shipped_violations_are_cycles),
  };
  int rc = cmocka_run_group_tests(tests, NULL, NULL);
  Z3_finalize_memory();
  return rc;
}
