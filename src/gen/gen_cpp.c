/* gen_cpp.c - random small CUDA C++ tests (litmus-gen --family random-cpp)
 * for cross-checking the engines under cuda-cpp.
 * SPDX-License-Identifier: MIT
 *
 * A test has 2-4 threads, placed in CTA 0 or 1 of GPU 0, of 1-4
 * statements over 1-3 locations: atomic loads and stores, fetch_add,
 * exchange, compare-exchange with a local as the expected value, fences,
 * non-atomic loads and stores, each atomic with a random memory order and
 * a random scope (block, device, system, or none written); now and then a
 * store runs under `if (rK == v)`.  Block scopes across two CTAs make
 * races, so flags and racy pairs are exercised as much as states.  The
 * condition names every local.  Built as cpp_parse.c would build it:
 * printed and read back, a generated test gives an equal AST.
 */
#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/gen_int.h"
#include "litmus/cpp_ast.h"

enum { MAX_LOCS = 3, MAX_THREADS = 8, MAX_STMTS = 8, MAX_ACCESSES = 5 };

static const char *const loc_names[MAX_LOCS] = {"x", "y", "z"};
static const lt_ts scopes[] = {LT_TS_NONE, LT_TS_BLOCK, LT_TS_DEVICE, LT_TS_SYSTEM};

typedef struct cgen {
  gen_rng rng;
  gen_build b;
  lc_arena *a;
  unsigned nlocs;
  bool used[MAX_LOCS];
  bool uses[MAX_THREADS][MAX_LOCS];   /* thread t names location l (a parameter) */
  unsigned accesses[MAX_LOCS];
  int64_t next_val[MAX_LOCS];
  lt_cpp_thread *ct;                   /* the thread being drawn */
  size_t t;
  LC_VEC(lt_cstmt *) body;
  LC_VEC(const char *) locals;
  int local_loc[2 * MAX_STMTS];        /* the location each local was read from */
} cgen;

static unsigned pick(cgen *g, unsigned n) { return gen_rng_below(&g->rng, n); }
static lt_ts any_scope(cgen *g) { return scopes[pick(g, LC_ARRAY_LEN(scopes))]; }

/* A location for thread t's next access (gen_pick_location), which then
 * names it among its parameters. */
static int use_loc(cgen *g) {
  int l = gen_pick_location(&g->rng, &g->nlocs, MAX_LOCS, g->accesses, MAX_ACCESSES, g->used);
  if (l >= 0) g->uses[g->t][l] = true;
  return l;
}

/* ---- nodes ---------------------------------------------------------------------- */

static lt_cexpr *node(cgen *g, lt_cexpr_kind k) {
  lt_cexpr *e = lc_arena_alloc(g->a, sizeof *e);
  e->kind = k;
  return e;
}

static lt_cexpr *constant(cgen *g, int64_t v) {
  lt_cexpr *e = node(g, LT_CE_CONST);
  e->value = v;
  return e;
}

static lt_cexpr *location(cgen *g, int l) {
  lt_cexpr *e = node(g, LT_CE_LOC);
  e->loc = loc_names[l];
  return e;
}

static lt_cexpr *atomic(cgen *g, lt_catomic_kind k, int l, lt_mo mo) {
  lt_cexpr *e = node(g, LT_CE_ATOMIC);
  e->atomic.kind = k;
  e->atomic.obj = l >= 0 ? location(g, l) : NULL;
  e->atomic.mo = mo;
  e->atomic.scope = any_scope(g);
  return e;
}

static lt_cstmt *stmt(cgen *g, lt_cstmt_kind k, const lt_cexpr *e) {
  lt_cstmt *s = lc_arena_alloc(g->a, sizeof *s);
  s->kind = k;
  s->e = e;
  return s;
}

/* `int rK = e;` for a new local rK read from location l. */
static lt_cstmt *declare(cgen *g, const lt_cexpr *e, int l) {
  char name[16];
  snprintf(name, sizeof name, "r%zu", g->locals.n);
  g->local_loc[g->locals.n] = l;
  lc_vec_push(&g->locals, lc_arena_strdup(g->a, name));
  lt_cstmt *s = stmt(g, LT_CS_DECL, e);
  s->type = "int";
  s->local = (int)g->locals.n - 1;
  return s;
}

static lt_mo mo_of(cgen *g, const lt_mo *mos, size_t n) { return mos[pick(g, (unsigned)n)]; }

/* ---- statements ------------------------------------------------------------------ */

static lt_cstmt *fence(cgen *g) {
  static const lt_mo mos[] = {LT_MO_ACQUIRE, LT_MO_RELEASE, LT_MO_ACQ_REL, LT_MO_SEQ_CST};
  return stmt(g, LT_CS_EXPR, atomic(g, LT_CA_FENCE, -1, mo_of(g, mos, 4)));
}

static lt_cstmt *store(cgen *g, int l) {
  static const lt_mo mos[] = {LT_MO_RELAXED, LT_MO_RELEASE, LT_MO_SEQ_CST};
  int64_t v = g->next_val[l]++;
  if (gen_rng_chance(&g->rng, 1, 4)) {   /* non-atomic */
    lt_cstmt *s = stmt(g, LT_CS_STORE, constant(g, v));
    s->ptr = location(g, l);
    return s;
  }
  lt_cexpr *e = atomic(g, LT_CA_STORE, l, mo_of(g, mos, 3));
  e->atomic.val = constant(g, v);
  return stmt(g, LT_CS_EXPR, e);
}

static lt_cstmt *load(cgen *g, int l) {
  static const lt_mo mos[] = {LT_MO_RELAXED, LT_MO_ACQUIRE, LT_MO_SEQ_CST};
  if (gen_rng_chance(&g->rng, 1, 4)) {
    lt_cexpr *d = node(g, LT_CE_DEREF);
    d->a = location(g, l);
    return declare(g, d, l);
  }
  return declare(g, atomic(g, LT_CA_LOAD, l, mo_of(g, mos, 3)), l);
}

static lt_cstmt *rmw(cgen *g, int l) {
  static const lt_mo mos[] = {LT_MO_RELAXED, LT_MO_ACQUIRE, LT_MO_RELEASE, LT_MO_ACQ_REL,
                              LT_MO_SEQ_CST};
  lt_mo mo = mo_of(g, mos, 5);
  if (pick(g, 3) == 0) {   /* compare-exchange, expecting a value a local holds */
    static const lt_mo fails[] = {LT_MO_RELAXED, LT_MO_ACQUIRE, LT_MO_SEQ_CST};
    lc_vec_push(&g->body, declare(g, constant(g, (int64_t)pick(g, (unsigned)g->next_val[l])), l));
    lt_cexpr *e = atomic(g, LT_CA_CAS, l, mo);
    lt_cexpr *exp = node(g, LT_CE_ADDR);
    exp->local = (int)g->locals.n - 1;
    e->atomic.op = LT_RMW_CAS;
    e->atomic.expected = exp;
    e->atomic.desired = constant(g, g->next_val[l]++);
    e->atomic.mo_fail = mo_of(g, fails, 3);
    e->atomic.weak = gen_rng_chance(&g->rng, 1, 4);
    return declare(g, e, -1);
  }
  bool exch = pick(g, 2);
  lt_cexpr *e = atomic(g, exch ? LT_CA_EXCHANGE : LT_CA_FETCH, l, mo);
  e->atomic.op = exch ? LT_RMW_EXCH : LT_RMW_ADD;
  e->atomic.val = constant(g, exch ? g->next_val[l]++ : 1);
  if (!exch) g->next_val[l]++;   /* an add makes one more value possible */
  return declare(g, e, l);
}

/* `if (rK == v) { s }` over an earlier local of this thread. */
static lt_cstmt *guarded(cgen *g, lt_cstmt *s) {
  size_t k = pick(g, (unsigned)g->locals.n);
  int l = g->local_loc[k];
  lt_cexpr *c = node(g, LT_CE_BINARY), *r = node(g, LT_CE_LOCAL);
  r->local = (int)k;
  c->op = LT_COP_EQ;
  c->a = r;
  c->b = constant(g, l >= 0 ? (int64_t)pick(g, (unsigned)g->next_val[l]) : (int64_t)pick(g, 2));
  lt_cstmt *i = stmt(g, LT_CS_IF, c);
  i->body.v = lc_arena_alloc(g->a, sizeof *i->body.v);
  i->body.v[0] = s;
  i->body.n = 1;
  return i;
}

static lt_cstmt *random_stmt(cgen *g) {
  unsigned k = pick(g, 10);
  if (k == 0) return fence(g);
  int l = use_loc(g);
  if (l < 0) return fence(g);
  if (k <= 3) {
    lt_cstmt *s = store(g, l);
    return g->locals.n && gen_rng_chance(&g->rng, 1, 4) ? guarded(g, s) : s;
  }
  if (k <= 7) return load(g, l);
  return rmw(g, l);
}

static void draw_thread(cgen *g, size_t t, unsigned nstmts) {
  lt_cpp_thread *ct = &g->b.t->cpp->threads[t];
  g->t = t;
  g->ct = ct;
  g->body.n = 0;
  g->locals.n = 0;
  for (unsigned i = 0; i < nstmts; i++) {
    lt_cstmt *s = random_stmt(g);   /* first: a compare-exchange pushes its expected value */
    lc_vec_push(&g->body, s);
  }
  ct->placed = true;
  ct->body.n = g->body.n;
  ct->body.v = lc_arena_alloc(g->a, (g->body.n ? g->body.n : 1) * sizeof *ct->body.v);
  if (g->body.n) memcpy(ct->body.v, g->body.v, g->body.n * sizeof *ct->body.v);
  ct->nlocals = g->locals.n;
  ct->locals = lc_arena_alloc(g->a, (g->locals.n ? g->locals.n : 1) * sizeof *ct->locals);
  ct->local_at = lc_arena_alloc(g->a, (g->locals.n ? g->locals.n : 1) * sizeof *ct->local_at);
  if (g->locals.n) memcpy(ct->locals, g->locals.v, g->locals.n * sizeof *ct->locals);
  for (size_t k = 0; k < g->locals.n; k++) {
    int l = g->local_loc[k];
    gen_cond_reg(&g->b, (int)t, (int)k, LT_CMP_EQ, l >= 0 ? (int64_t)pick(g, (unsigned)g->next_val[l])
                                                          : (int64_t)pick(g, 2));
  }
}

/* Parameters: the locations the thread names, in the order x, y, z. */
static void params(cgen *g, size_t t) {
  lt_cpp_thread *ct = &g->b.t->cpp->threads[t];
  ct->params = lc_arena_alloc(g->a, MAX_LOCS * sizeof *ct->params);
  for (int l = 0; l < MAX_LOCS; l++)
    if (g->uses[t][l]) {
      lt_cparam *p = &ct->params[ct->nparams++];
      p->type = "atomic_int*";
      p->name = loc_names[l];
    }
}

static unsigned clampu(unsigned v, unsigned lo, unsigned hi) { return v < lo ? lo : v > hi ? hi : v; }

lt_test *gen_random_cpp(const gen_options *o, uint64_t index) {
  assert(o);
  cgen g;
  memset(&g, 0, sizeof g);
  gen_rng_seed(&g.rng, o->seed ^ 0x43505021u, index);   /* a stream apart from the PTX one */
  unsigned lo = clampu(o->min_threads, 1, MAX_THREADS), hi = clampu(o->max_threads, lo, MAX_THREADS);
  size_t nthreads = lo + pick(&g, hi - lo + 1);
  g.nlocs = 1 + pick(&g, clampu(o->max_locs, 1, MAX_LOCS));
  for (unsigned l = 0; l < MAX_LOCS; l++) g.next_val[l] = 1;
  char name[64], doc[96];
  snprintf(name, sizeof name, "gen-cpp-%" PRIu64 "-%" PRIu64, o->seed, index);
  snprintf(doc, sizeof doc, "\"litmus-gen --family random-cpp --seed %" PRIu64 ", test %" PRIu64 "\"",
           o->seed, index);
  gen_begin(&g.b, name, doc, nthreads, 0);
  lt_test *t = g.b.t;
  g.a = t->arena;
  t->arch = "CUDA";
  lt_cpp *cpp = lc_arena_alloc(g.a, sizeof *cpp);
  cpp->dialect = LT_CPP_CUDA;
  cpp->threads = lc_arena_alloc(g.a, nthreads * sizeof *cpp->threads);
  t->cpp = cpp;
  for (size_t k = 0; k < nthreads; k++) {
    gen_place(&g.b, k, (int)pick(&g, 2), -1, 0);
    draw_thread(&g, k, 1 + pick(&g, clampu(o->max_instrs, 1, MAX_STMTS)));
    params(&g, k);
  }
  lc_vec_free(&g.body);
  lc_vec_free(&g.locals);
  cpp->inits = lc_arena_alloc(g.a, MAX_LOCS * sizeof *cpp->inits);
  for (int l = 0; l < (int)g.nlocs; l++) {
    if (!g.used[l]) continue;
    lt_cinit *ci = &cpp->inits[cpp->ninits++];
    ci->first = g.b.inits.n;
    ci->n = 1;
    ci->bracketed = true;
    ci->array_len = -1;
    gen_init_loc(&g.b, loc_names[l], 0);
  }
  if (!g.b.cond)   /* no local anywhere: the final value of a location */
    for (int l = 0; l < (int)g.nlocs && !g.b.cond; l++)
      if (g.used[l]) gen_cond_loc(&g.b, loc_names[l], LT_CMP_EQ, (int64_t)pick(&g, (unsigned)g.next_val[l]));
  return gen_finish(&g.b, pick(&g, 4) ? LT_COND_EXISTS : LT_COND_NOT_EXISTS);
}
