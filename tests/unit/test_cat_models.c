/* test_cat_models.c - the shipped models on hand-built candidate executions.
 * SPDX-License-Identifier: MIT
 *
 * Each test writes down one candidate execution of a classic litmus test
 * (events with their attributes, rf, co, sc, ...), computes the builtins
 * the way docs/model-language.md defines them, and asks the exact backend
 * whether the models accept it.  Expected verdicts come from the
 * specification (ptx-model.md), including the places where it departs
 * from public artifacts (§8): fence.sc as a release fence, the paper form
 * of Fence-SC, SC-per-Location for proxies, red reads.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cat/cat.h"
#include "cat/cat_rel.h"

#ifndef LC_SRCDIR
#define LC_SRCDIR "."
#endif

/* ---- executions ------------------------------------------------------------------ */

typedef enum { K_R, K_W, K_F, K_I, K_PF, K_AF, K_B } kind;
typedef enum { S_WEAK, S_RLX, S_ACQ, S_REL, S_ACQ_REL, S_SC } semv;
typedef enum { SC_NONE, SC_CTA, SC_GPU, SC_SYS } scopev;
typedef enum { P_GEN, P_TEX, P_SUR, P_CON } proxyv;

typedef struct tev {
  kind k;
  int thr, cta;        /* thr -1: initial write; all threads on GPU 0 */
  semv sem;
  scopev scope;
  int loc, va;         /* physical location, virtual address */
  proxyv proxy;
  bool red, atom;
} tev;

/* Initial write of location l; accesses on one GPU, va = loc. */
#define INIT(l) {K_I, -1, -1, S_WEAK, SC_NONE, l, l, P_GEN, false, false}
#define WR(t, c, s, sc, l) {K_W, t, c, s, sc, l, l, P_GEN, false, false}
#define RD(t, c, s, sc, l) {K_R, t, c, s, sc, l, l, P_GEN, false, false}
#define FENCE(t, c, s, sc) {K_F, t, c, s, sc, -1, -1, P_GEN, false, false}
#define BAR(t, c) {K_B, t, c, S_WEAK, SC_NONE, -1, -1, P_GEN, false, false}

typedef struct exec {
  size_t n;
  tev e[16];
  const char *rf, *co, *sc, *rmw, *data, *bar;   /* "a>b a>b" */
} exec;

static bool pairs_has(const char *pairs, size_t a, size_t b) {
  for (const char *p = pairs ? pairs : ""; *p;) {
    char *end;
    size_t x = strtoul(p, &end, 10);
    size_t y = strtoul(end + 1, &end, 10);
    if (x == a && y == b) return true;
    p = end;
    while (*p == ' ') p++;
  }
  return false;
}

static bool is_mem(const tev *e) { return e->k == K_R || e->k == K_W || e->k == K_I; }

static bool in_set(const tev *e, const char *s) {
  static const char *const sems[] = {"WEAK", "RLX", "ACQ", "REL", "ACQ_REL", "SC"};
  static const char *const scopes[] = {"", "CTA", "GPU", "SYS"};
  static const char *const proxies[] = {"GEN", "TEX", "SUR", "CON"};
  if (!strcmp(s, "IW")) return e->k == K_I;
  if (!strcmp(s, "R")) return e->k == K_R;
  if (!strcmp(s, "W")) return e->k == K_W || e->k == K_I;
  if (!strcmp(s, "M")) return is_mem(e);
  if (!strcmp(s, "F")) return e->k == K_F;
  if (!strcmp(s, "PF")) return e->k == K_PF;
  if (!strcmp(s, "AF")) return e->k == K_AF;
  if (!strcmp(s, "B")) return e->k == K_B;
  if (!strcmp(s, "A")) return e->atom || e->red;
  if (!strcmp(s, "RED")) return e->red && e->k == K_R;
  if (!strcmp(s, "GLOBAL")) return is_mem(e);
  for (size_t i = 0; i < 6; i++)
    if (!strcmp(s, sems[i])) return (is_mem(e) || e->k == K_F) && e->sem == (semv)i;
  for (size_t i = 1; i < 4; i++)
    if (!strcmp(s, scopes[i])) return e->sem != S_WEAK && e->scope == (scopev)i;
  for (size_t i = 0; i < 4; i++)
    if (!strcmp(s, proxies[i])) return (is_mem(e) || e->k == K_F || e->k == K_PF) && e->proxy == (proxyv)i;
  return false;   /* CLUSTER, VOL, SHARED */
}

static bool same_thread(const tev *a, const tev *b) { return a->thr >= 0 && a->thr == b->thr; }

/* incl(a,b): the scope of a includes the thread of b (§1.4). */
static bool incl(const tev *a, const tev *b) {
  if (a->thr < 0 || b->thr < 0) return false;
  if (a->sem == S_WEAK || a->scope == SC_NONE) return a->thr == b->thr;
  if (a->scope == SC_CTA) return a->cta == b->cta;
  return true;   /* gpu, sys: one GPU here */
}

static bool co_base(const exec *x, size_t a, size_t b) {
  const tev *ea = &x->e[a], *eb = &x->e[b];
  if (ea->k == K_I && eb->k == K_W && eb->loc == ea->loc) return true;
  return pairs_has(x->co, a, b);
}

static bool rel_pair(const exec *x, const char *s, size_t a, size_t b) {
  const tev *ea = &x->e[a], *eb = &x->e[b];
  if (!strcmp(s, "id")) return a == b;
  if (!strcmp(s, "po")) return same_thread(ea, eb) && a < b;
  if (!strcmp(s, "rf")) return pairs_has(x->rf, a, b);
  if (!strcmp(s, "co")) return co_base(x, a, b);
  if (!strcmp(s, "sc")) return pairs_has(x->sc, a, b);
  if (!strcmp(s, "rmw")) return pairs_has(x->rmw, a, b);
  if (!strcmp(s, "data")) return pairs_has(x->data, a, b);
  if (!strcmp(s, "sync_bar")) return pairs_has(x->bar, a, b);
  if (!strcmp(s, "addr") || !strcmp(s, "ctrl")) return false;
  if (!strcmp(s, "loc")) return is_mem(ea) && is_mem(eb) && ea->loc == eb->loc;
  if (!strcmp(s, "vloc")) return is_mem(ea) && is_mem(eb) && ea->va == eb->va;
  if (!strcmp(s, "int")) return same_thread(ea, eb);
  if (!strcmp(s, "ext")) return !same_thread(ea, eb);
  if (!strcmp(s, "scta") || !strcmp(s, "scluster")) return ea->thr >= 0 && eb->thr >= 0 && ea->cta == eb->cta;
  if (!strcmp(s, "sgpu")) return ea->thr >= 0 && eb->thr >= 0;
  if (!strcmp(s, "incl")) return incl(ea, eb);
  if (!strcmp(s, "sr")) return incl(ea, eb) && incl(eb, ea);
  return false;
}

static void *builtin(void *u, const char *name, cat_type *type) {
  const exec *x = u;
  if (*type == CAT_TY_SET) {
    rel_set *s = rel_set_new(x->n);
    for (size_t i = 0; i < x->n; i++)
      if (in_set(&x->e[i], name)) rel_set_add(s, i);
    return s;
  }
  rel_rel *r = rel_new(x->n);
  bool fr = !strcmp(name, "fr");
  for (size_t a = 0; a < x->n; a++)
    for (size_t b = 0; b < x->n; b++)
      if (!fr && rel_pair(x, name, a, b)) rel_add(r, a, b);
  if (!strcmp(name, "co")) rel_plus_into(r);
  if (fr) {   /* rf^-1 ; co */
    rel_rel *rf = builtin(u, "rf", type), *co = builtin(u, "co", type);
    rel_rel *inv = rel_inverse(rf), *s = rel_seq(inv, co);
    rel_assign(r, s);
    rel_free(rf), rel_free(co), rel_free(inv), rel_free(s);
  }
  return r;
}

/* ---- models ------------------------------------------------------------------------- */

typedef struct models {
  cat_model *v60, *v75, *sc;
} models;

static cat_model *load_model(const char *file) {
  char path[512];
  snprintf(path, sizeof path, "%s/models/%s", LC_SRCDIR, file);
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  cat_model *m = cat_load(path, NULL, &d);
  if (!m) fprintf(stderr, "%s\n", lc_diag_first_error(&d));
  lc_diag_fini(&d);
  return m;
}

static int setup(void **state) {
  models *m = calloc(1, sizeof *m);
  m->v60 = load_model("ptx-v6.0.cat");
  m->v75 = load_model("ptx-v7.5.cat");
  m->sc = load_model("sc.cat");
  *state = m;
  return m->v60 && m->v75 && m->sc ? 0 : -1;
}

static int teardown(void **state) {
  models *m = *state;
  cat_model_free(m->v60);
  cat_model_free(m->v75);
  cat_model_free(m->sc);
  free(m);
  return 0;
}

static void eval(const cat_model *m, const exec *x, cat_rel_result *r) {
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  if (cat_rel_eval(m, x->n, builtin, (void *)x, r, &d) < 0) fail_msg("%s", lc_diag_first_error(&d));
  lc_diag_fini(&d);
}

/* Is the execution allowed?  When `failing` is given, exactly that set of
 * checks fails (names separated by spaces). */
static void expect(const cat_model *m, const exec *x, bool allowed, const char *failing) {
  cat_rel_result r;
  eval(m, x, &r);
  lc_buf got;
  lc_buf_init(&got);
  for (size_t i = 0; i < r.n; i++)
    if (!r.checks[i].flag && !r.checks[i].holds) lc_buf_printf(&got, "%s%s", got.n ? " " : "", r.checks[i].name);
  if (r.consistent != allowed)
    fail_msg("%s: %s, failing checks: [%s]", cat_model_name(m), allowed ? "want allowed" : "want forbidden", got.s);
  if (failing && strcmp(got.s, failing) != 0)
    fail_msg("%s: failing checks [%s], want [%s]", cat_model_name(m), got.s, failing);
  lc_buf_fini(&got);
  cat_rel_result_fini(&r);
}

/* The data-race flag: raised with this pair, or (a < 0) not raised. */
static void expect_race(const cat_model *m, const exec *x, int a, int b) {
  cat_rel_result r;
  eval(m, x, &r);
  const cat_rel_check *c = cat_rel_result_find(&r, "data-race");
  assert_non_null(c);
  assert_true(c->flag);
  if (a < 0) {
    if (!c->holds) fail_msg("%s: race (%zu,%zu) not expected", cat_model_name(m), c->a, c->b);
  } else {
    assert_false(c->holds);
    if (c->a != (size_t)a || c->b != (size_t)b)
      fail_msg("%s: race (%zu,%zu), want (%d,%d)", cat_model_name(m), c->a, c->b, a, b);
  }
  cat_rel_result_fini(&r);
}

/* ---- tests ------------------------------------------------------------------------- */

/* MP: T0 st x=1; st.release.gpu y=1 ‖ T1 ld.acquire.gpu y (=1); ld x (=0),
 * threads in CTAs 0 and 1.  Events: 0 Ix, 1 Iy, 2 Wx, 3 Wy, 4 Ry, 5 Rx. */
static exec mp(semv wsem, scopev wscope, semv rsem, scopev rscope) {
  exec x = {6, {INIT(0), INIT(1), WR(0, 0, S_WEAK, SC_NONE, 0), WR(0, 0, wsem, wscope, 1),
                RD(1, 1, rsem, rscope, 1), RD(1, 1, S_WEAK, SC_NONE, 0)},
            "3>4 0>5", "", "", "", "", ""};
  return x;
}

static void test_model_mp_release_acquire(void **state) {
  models *m = *state;
  exec x = mp(S_REL, SC_GPU, S_ACQ, SC_GPU);
  expect(m->v60, &x, false, "Causality");
  expect(m->v75, &x, false, "Causality");
  expect(m->sc, &x, false, "SC");
}

static void test_model_mp_relaxed_allowed(void **state) {
  models *m = *state;
  exec x = mp(S_RLX, SC_GPU, S_RLX, SC_GPU);
  expect(m->v60, &x, true, NULL);
  expect(m->v75, &x, true, NULL);
}

/* st.release.cta in CTA 0 and ld.acquire.gpu in CTA 1 are not morally
 * strong (§1.5): no synchronisation. */
static void test_model_mp_scope_too_narrow(void **state) {
  models *m = *state;
  exec x = mp(S_REL, SC_CTA, S_ACQ, SC_GPU);
  expect(m->v60, &x, true, NULL);
  expect(m->v75, &x, true, NULL);
  exec z = mp(S_REL, SC_GPU, S_ACQ, SC_CTA);   /* inclusion must hold both ways */
  expect(m->v60, &z, true, NULL);
  expect(m->v75, &z, true, NULL);
  exec y = mp(S_REL, SC_CTA, S_ACQ, SC_CTA);   /* same scopes, still CTA 0 vs 1 */
  expect(m->v60, &y, true, NULL);
  for (size_t i = 2; i < 6; i++) y.e[i].cta = 0;  /* both threads in CTA 0 */
  expect(m->v60, &y, false, "Causality");
  expect(m->v75, &y, false, "Causality");
}

/* §8 item 1: fence.sc is a release fence.  T0 st x=1; fence.sc.gpu;
 * st.relaxed.gpu y=1 ‖ T1 ld.relaxed.gpu y (=1); fence.acq_rel.gpu; ld x (=0).
 * Events: 0 Ix, 1 Iy, 2 Wx, 3 F.sc, 4 Wy, 5 Ry, 6 F.acq_rel, 7 Rx. */
static void test_model_fence_sc_is_release(void **state) {
  models *m = *state;
  exec x = {8, {INIT(0), INIT(1), WR(0, 0, S_WEAK, SC_NONE, 0), FENCE(0, 0, S_SC, SC_GPU),
                WR(0, 0, S_RLX, SC_GPU, 1), RD(1, 1, S_RLX, SC_GPU, 1), FENCE(1, 1, S_ACQ_REL, SC_GPU),
                RD(1, 1, S_WEAK, SC_NONE, 0)},
            "4>5 0>7", "", "", "", "", ""};
  expect(m->v60, &x, false, "Causality");
  expect(m->v75, &x, false, "Causality");
  x.e[6].sem = S_SC;   /* and an acquire fence; now both fences need an sc order */
  x.sc = "3>6";
  expect(m->v60, &x, false, "Causality");
  expect(m->v75, &x, false, "Causality");
}

/* SB with fence.sc: W x; F; R y (=0) ‖ W y; F; R x (=0), CTAs 0/1.
 * Events: 0 Ix, 1 Iy, 2 Wx, 3 F, 4 Ry, 5 Wy, 6 F, 7 Rx. */
static exec sb(semv fsem) {
  exec x = {8, {INIT(0), INIT(1), WR(0, 0, S_RLX, SC_GPU, 0), FENCE(0, 0, fsem, SC_GPU),
                RD(0, 0, S_RLX, SC_GPU, 1), WR(1, 1, S_RLX, SC_GPU, 1), FENCE(1, 1, fsem, SC_GPU),
                RD(1, 1, S_RLX, SC_GPU, 0)},
            "1>4 0>7", "", "", "", "", ""};
  return x;
}

static void test_model_sb_fence_sc_forbidden(void **state) {
  models *m = *state;
  exec x = sb(S_SC);
  expect(m->v60, &x, false, "WF-sc");      /* the fences must be ordered */
  expect(m->v75, &x, false, "WF-sc");
  x.sc = "3>6";
  expect(m->v60, &x, false, "Causality");
  expect(m->v75, &x, false, "Causality");
  x.sc = "6>3";
  expect(m->v60, &x, false, "Causality");
  expect(m->v75, &x, false, "Causality");
}

static void test_model_sb_acq_rel_allowed(void **state) {
  models *m = *state;
  exec x = sb(S_ACQ_REL);
  expect(m->v60, &x, true, NULL);
  expect(m->v75, &x, true, NULL);
  expect(m->sc, &x, false, "SC");
}

/* A2: fence.sc F2; st.release y ‖ ld.acquire y; fence.sc F1 with
 * sc(F1,F2) against the causality F2 -> F1.  Events: 0 Iy, 1 F2,
 * 2 Wy(rel), 3 Ry(acq), 4 F1.  Fence-SC fails, and with sc in sw the
 * cycle also breaks Coherence and Causality (§4.2: A2 never decides a
 * verdict alone). */
static void test_model_fence_sc_axiom(void **state) {
  models *m = *state;
  exec x = {5, {INIT(1), FENCE(0, 0, S_SC, SC_GPU), WR(0, 0, S_REL, SC_GPU, 1), RD(1, 1, S_ACQ, SC_GPU, 1),
                FENCE(1, 1, S_SC, SC_GPU)},
            "2>3", "", "4>1", "", "", ""};
  expect(m->v60, &x, false, "Coherence FenceSC Causality");
  expect(m->v75, &x, false, "Coherence FenceSC Causality");   /* 7.5 reads A2 over cause_base */
  x.sc = "1>4";
  expect(m->v60, &x, true, NULL);
  expect(m->v75, &x, true, NULL);
}

/* §8 item 2: the paper form irreflexive(sc; cause) says nothing about a
 * causal chain between two fence.sc that are not morally strong (here
 * .cta fences in different CTAs), which sc need not order; Dat3M's form
 * would forbid it. */
static void test_model_fence_sc_not_morally_strong(void **state) {
  models *m = *state;
  exec x = {5, {INIT(1), FENCE(0, 0, S_SC, SC_CTA), WR(0, 0, S_REL, SC_GPU, 1), RD(1, 1, S_ACQ, SC_GPU, 1),
                FENCE(1, 1, S_SC, SC_CTA)},
            "2>3", "", "", "", "", ""};
  expect(m->v60, &x, true, NULL);
  expect(m->v75, &x, true, NULL);
}

/* CoWW in one thread: st x=1; st x=2 (weak) with co(2,1). */
static void test_model_coww_same_thread(void **state) {
  models *m = *state;
  exec x = {3, {INIT(0), WR(0, 0, S_WEAK, SC_NONE, 0), WR(0, 0, S_WEAK, SC_NONE, 0)}, "", "2>1", "", "", "", ""};
  expect(m->v60, &x, false, "SC-per-Location");
  expect(m->v75, &x, false, "Coherence SC-per-Location");   /* po is base causality in 7.5 */
  x.co = "";   /* same-thread writes are morally strong: co must order them */
  expect(m->v60, &x, false, "WF-co");
  x.co = "1>2";
  expect(m->v60, &x, true, NULL);
  expect(m->v75, &x, true, NULL);
}

/* Two atom.relaxed.gpu.add on x both reading the initial value.
 * Events: 0 Ix, 1 R, 2 W (T0), 3 R, 4 W (T1), co Ix, 2, 4. */
static void test_model_atomicity(void **state) {
  models *m = *state;
  exec x = {5, {INIT(0), RD(0, 0, S_RLX, SC_GPU, 0), WR(0, 0, S_RLX, SC_GPU, 0), RD(1, 1, S_RLX, SC_GPU, 0),
                WR(1, 1, S_RLX, SC_GPU, 0)},
            "0>1 0>3", "2>4", "", "1>2 3>4", "1>2 3>4", ""};
  for (size_t i = 1; i < 5; i++) x.e[i].atom = true;
  expect(m->v60, &x, false, "Atomicity");
  expect(m->v75, &x, false, "Atomicity");
  expect(m->sc, &x, false, "Atomicity");
  x.rf = "0>1 2>3";   /* the second reads the first: fine */
  expect(m->v60, &x, true, NULL);
  expect(m->v75, &x, true, NULL);
  expect(m->sc, &x, true, NULL);
}

/* LB with data dependencies and values out of thin air.
 * Events: 0 Ix, 1 Iy, 2 Rx, 3 Wy (data from 2), 4 Ry, 5 Wx (data from 4). */
static void test_model_no_thin_air(void **state) {
  models *m = *state;
  exec x = {6, {INIT(0), INIT(1), RD(0, 0, S_RLX, SC_GPU, 0), WR(0, 0, S_RLX, SC_GPU, 1),
                RD(1, 1, S_RLX, SC_GPU, 1), WR(1, 1, S_RLX, SC_GPU, 0)},
            "5>2 3>4", "", "", "", "2>3 4>5", ""};
  expect(m->v60, &x, false, "NoThinAir");
  expect(m->v75, &x, false, "NoThinAir");
  x.data = "";   /* plain LB is allowed */
  expect(m->v60, &x, true, NULL);
  expect(m->v75, &x, true, NULL);
}

/* Races: a weak write and a weak read of x in different CTAs race; relaxed
 * gpu-scoped ones do not; an initial write races with nothing.
 * Events: 0 Ix, 1 Wx (T0), 2 Rx (T1) reading 1. */
static void test_model_data_race_flag(void **state) {
  models *m = *state;
  exec x = {3, {INIT(0), WR(0, 0, S_WEAK, SC_NONE, 0), RD(1, 1, S_WEAK, SC_NONE, 0)}, "1>2", "", "", "", "", ""};
  expect(m->v60, &x, true, NULL);   /* a race is reported, not forbidden */
  expect_race(m->v60, &x, 1, 2);
  expect_race(m->v75, &x, 1, 2);
  x.e[1].sem = x.e[2].sem = S_RLX;
  x.e[1].scope = x.e[2].scope = SC_GPU;
  expect_race(m->v60, &x, -1, -1);
  expect_race(m->v75, &x, -1, -1);
}

/* Barrier MP in one CTA: st x; bar.sync ‖ bar.sync; ld x.  bar.sync is an
 * arrive then a wait.  Events: 0 Ix, 1 Wx, 2 arrive, 3 wait (T0),
 * 4 arrive, 5 wait, 6 Rx (T1). */
static void test_model_barrier(void **state) {
  models *m = *state;
  exec x = {7, {INIT(0), WR(0, 0, S_WEAK, SC_NONE, 0), BAR(0, 0), BAR(0, 0), BAR(1, 0), BAR(1, 0),
                RD(1, 0, S_WEAK, SC_NONE, 0)},
            "0>6", "", "", "", "", "2>5 4>3"};
  expect(m->v60, &x, false, "Causality");
  expect(m->v75, &x, false, "Causality");
  expect(m->sc, &x, false, "SC");
  x.rf = "1>6";   /* reading the write: allowed and not racy */
  expect(m->v60, &x, true, NULL);
  expect_race(m->v60, &x, -1, -1);
  expect_race(m->v75, &x, -1, -1);
  x.bar = "";     /* no barrier: a race */
  expect_race(m->v60, &x, 1, 6);
}

/* §1.3: a red read never starts an acquire pattern.  T0 st x=1;
 * st.release.gpu y=1 ‖ T1 red/atom.relaxed.gpu.add y (reads 1);
 * fence.acq_rel.gpu; ld x (=0).  Events: 0 Ix, 1 Iy, 2 Wx, 3 Wy,
 * 4 R y, 5 W y (rmw), 6 F, 7 Rx. */
static void test_model_red_is_not_acquire(void **state) {
  models *m = *state;
  exec x = {8, {INIT(0), INIT(1), WR(0, 0, S_WEAK, SC_NONE, 0), WR(0, 0, S_REL, SC_GPU, 1),
                RD(1, 1, S_RLX, SC_GPU, 1), WR(1, 1, S_RLX, SC_GPU, 1), FENCE(1, 1, S_ACQ_REL, SC_GPU),
                RD(1, 1, S_WEAK, SC_NONE, 0)},
            "3>4 0>7", "3>5", "", "4>5", "4>5", ""};
  x.e[4].atom = x.e[5].atom = true;
  expect(m->v60, &x, false, "Causality");   /* atom: acquire pattern through the fence */
  expect(m->v75, &x, false, "Causality");
  x.e[4].atom = x.e[5].atom = false;
  x.e[4].red = x.e[5].red = true;
  expect(m->v60, &x, true, NULL);
  expect(m->v75, &x, true, NULL);
}

/* §4.2: st.relaxed.gpu [x],1; suld.relaxed.gpu r0,[s] ‖ sust.relaxed.gpu
 * [s],2; ld.relaxed.gpu r1,[x] (s the surface view of x), CTAs 0/1,
 * r0 = r1 = 0: allowed in 7.5 (SC-per-Location only over ms pairs).
 * Events: 0 Ix, 1 Wx, 2 Rs (T0), 3 Ws, 4 Rx (T1). */
static void test_model_proxy_sc_per_location(void **state) {
  models *m = *state;
  exec x = {5, {INIT(0), WR(0, 0, S_RLX, SC_GPU, 0), RD(0, 0, S_RLX, SC_GPU, 0), WR(1, 1, S_RLX, SC_GPU, 0),
                RD(1, 1, S_RLX, SC_GPU, 0)},
            "0>2 0>4", "", "", "", "", ""};
  x.e[2].proxy = x.e[3].proxy = P_SUR;
  expect(m->v75, &x, true, NULL);
  x.co = "1>3";
  expect(m->v75, &x, true, NULL);
  x.co = "3>1";
  expect(m->v75, &x, true, NULL);
}

/* Proxy fences act only in their own CTA on their own proxy (§3.5). MP
 * where the reader reads x through the texture proxy: T0 st x=1;
 * st.release.gpu y=1 ‖ T1 ld.acquire.gpu y (=1); [fence.proxy.texture];
 * tld x (=0).  Events: 0 Ix, 1 Iy, 2 Wx, 3 Wy, 4 Ry, 5 PF, 6 Rx(tex). */
static void test_model_proxy_fence(void **state) {
  models *m = *state;
  exec x = {7, {INIT(0), INIT(1), WR(0, 0, S_WEAK, SC_NONE, 0), WR(0, 0, S_REL, SC_GPU, 1),
                RD(1, 1, S_ACQ, SC_GPU, 1), {K_PF, 1, 1, S_WEAK, SC_NONE, -1, -1, P_TEX, false, false},
                RD(1, 1, S_WEAK, SC_NONE, 0)},
            "3>4 0>6", "", "", "", "", ""};
  x.e[6].proxy = P_TEX;
  expect(m->v75, &x, false, "Causality");   /* texture fence in the reader's CTA */
  x.e[5].proxy = P_SUR;                      /* a fence for another proxy */
  expect(m->v75, &x, true, NULL);
  x.e[5].proxy = P_TEX;
  x.e[5].k = K_W;                            /* no proxy fence at all (an unrelated write) */
  x.e[5].loc = x.e[5].va = 7;
  x.e[5].proxy = P_GEN;
  expect(m->v75, &x, true, NULL);
}

/* [ISCA22] Fig. 8e: a proxy fence in the writer's CTA does nothing for a
 * texture read in another CTA.  T0 st x=1; fence.proxy.texture;
 * st.release.gpu y=1 ‖ T1 ld.acquire.gpu y (=1); tld x (=0).
 * Events: 0 Ix, 1 Iy, 2 Wx, 3 PF, 4 Wy, 5 Ry, 6 Rx(tex). */
static void test_model_proxy_fence_other_cta(void **state) {
  models *m = *state;
  exec x = {7, {INIT(0), INIT(1), WR(0, 0, S_WEAK, SC_NONE, 0),
                {K_PF, 0, 0, S_WEAK, SC_NONE, -1, -1, P_TEX, false, false}, WR(0, 0, S_REL, SC_GPU, 1),
                RD(1, 1, S_ACQ, SC_GPU, 1), RD(1, 1, S_WEAK, SC_NONE, 0)},
            "4>5 0>6", "", "", "", "", ""};
  x.e[6].proxy = P_TEX;
  expect(m->v75, &x, true, NULL);
  /* Both threads in CTA 0: the fence acts on the read and lies on the
   * causality path from the write to it, which is all clause (3b) asks. */
  x.e[5].cta = x.e[6].cta = 0;
  expect(m->v75, &x, false, "Causality");
}

/* Virtual aliases: x and its alias x' map to one location.  st x=1 then
 * ld x' in the same thread: not morally strong, no ppcb without an alias
 * fence, so reading the initial value is allowed in 7.5 (and a race). */
static void test_model_alias(void **state) {
  models *m = *state;
  exec x = {3, {INIT(0), WR(0, 0, S_WEAK, SC_NONE, 0), RD(0, 0, S_WEAK, SC_NONE, 0)}, "0>2", "", "", "", "", ""};
  x.e[2].va = 100;
  expect(m->v75, &x, true, NULL);
  expect_race(m->v75, &x, 1, 2);
  expect(m->v60, &x, false, "SC-per-Location");   /* 6.0 knows no aliases: one location */
  exec y = {4, {INIT(0), WR(0, 0, S_WEAK, SC_NONE, 0), {K_AF, 0, 0, S_WEAK, SC_NONE, -1, -1, P_GEN, false, false},
                RD(0, 0, S_WEAK, SC_NONE, 0)},
            "0>3", "", "", "", "", ""};
  y.e[3].va = 100;
  expect(m->v75, &y, false, "Causality");   /* the alias fence orders them (ppcb 4a) */
  y.rf = "1>3";
  expect_race(m->v75, &y, -1, -1);
}

/* Loads a shipped model with extra statements after it. */
static cat_model *extend(const char *file, const char *extra) {
  char text[1024];
  snprintf(text, sizeof text, "include \"%s/models/%s\"\n%s", LC_SRCDIR, file, extra);
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  cat_model *m = cat_load_string("extended.cat", text, NULL, &d);
  if (!m) fail_msg("%s", lc_diag_first_error(&d));
  lc_diag_fini(&d);
  return m;
}

/* §3.1/§3.6 and §8 item 3: observation chains through RMWs before base
 * causality.  T0 (CTA 0) st.relaxed.cta x=1 ‖ T1 (CTA 0) atom.relaxed.gpu
 * x (reads 1) ‖ T2 (CTA 1) ld.relaxed.gpu x (reads T1's write); ld x.
 * The .cta write is not morally strong with T2's reads, yet it precedes
 * the last read in causality (obs through the RMW, then po_loc / ppcb),
 * so that pair is no race.  With a single-hop observation in the
 * causality prefix it would be.  Events: 0 Ix, 1 W0, 2 R1, 3 W1, 4 R2,
 * 5 R3. */
static void test_model_obs_chain_in_cause(void **state) {
  models *m = *state;
  exec x = {6, {INIT(0), WR(0, 0, S_RLX, SC_CTA, 0), RD(1, 0, S_RLX, SC_GPU, 0), WR(1, 0, S_RLX, SC_GPU, 0),
                RD(2, 1, S_RLX, SC_GPU, 0), RD(2, 1, S_WEAK, SC_NONE, 0)},
            "1>2 3>4 3>5", "1>3", "", "2>3", "2>3", ""};
  x.e[2].atom = x.e[3].atom = true;
  expect(m->v60, &x, true, NULL);
  expect(m->v75, &x, true, NULL);
  static const char *const files[] = {"ptx-v6.0.cat", "ptx-v7.5.cat"};
  for (size_t i = 0; i < 2; i++) {
    cat_model *e = extend(files[i], "flag ~empty [CTA]; race; [R & WEAK] as w0-r3\n");
    cat_rel_result r;
    eval(e, &x, &r);
    const cat_rel_check *c = cat_rel_result_find(&r, "w0-r3");
    if (!c->holds) fail_msg("%s: the .cta write races with the last read", files[i]);
    cat_rel_result_fini(&r);
    cat_model_free(e);
  }
}

/* Initial writes are never morally strong: reading the initial value is
 * not an observation, and IW needs no co order with anything but the
 * engine's IW-first edges. */
static void test_model_initial_writes(void **state) {
  models *m = *state;
  exec x = {3, {INIT(0), WR(0, 0, S_RLX, SC_SYS, 0), RD(1, 1, S_ACQ, SC_SYS, 0)}, "0>2", "", "", "", "", ""};
  expect(m->v60, &x, true, NULL);
  expect(m->v75, &x, true, NULL);
  expect_race(m->v60, &x, -1, -1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_model_mp_release_acquire),
    cmocka_unit_test(test_model_mp_relaxed_allowed),
    cmocka_unit_test(test_model_mp_scope_too_narrow),
    cmocka_unit_test(test_model_fence_sc_is_release),
    cmocka_unit_test(test_model_sb_fence_sc_forbidden),
    cmocka_unit_test(test_model_sb_acq_rel_allowed),
    cmocka_unit_test(test_model_fence_sc_axiom),
    cmocka_unit_test(test_model_fence_sc_not_morally_strong),
    cmocka_unit_test(test_model_coww_same_thread),
    cmocka_unit_test(test_model_atomicity),
    cmocka_unit_test(test_model_no_thin_air),
    cmocka_unit_test(test_model_data_race_flag),
    cmocka_unit_test(test_model_barrier),
    cmocka_unit_test(test_model_red_is_not_acquire),
    cmocka_unit_test(test_model_proxy_sc_per_location),
    cmocka_unit_test(test_model_proxy_fence),
    cmocka_unit_test(test_model_proxy_fence_other_cta),
    cmocka_unit_test(test_model_alias),
    cmocka_unit_test(test_model_obs_chain_in_cause),
    cmocka_unit_test(test_model_initial_writes),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
