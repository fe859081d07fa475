/* gen_spin.c - small spin-loop programs, the shapes of the
 * AlloyForwardProgress tests (Sorensen et al., OOPSLA 2021).
 * SPDX-License-Identifier: MIT
 *
 * A test has 2-3 threads in CTAs of their own, each of 2-4 instructions
 * among st, ld, atom.exch and atom.cas over x and y, values 0-2.  Loads,
 * exchanges and cas operations are often loops: `L: ld r, x; bne r, v, L`
 * waits for a value, `L: atom.exch r, x, v; bne r, w, L` swaps until it
 * took w, `L: atom.cas r, x, w, v; bne r, w, L` retries until it
 * succeeds; now and then the wait is written with a forward exit and a
 * `goto` back.  A thread has one loop at most: each loop multiplies the
 * thread's paths, and the programs stay as small as the originals.  Such programs are what termination questions are asked
 * of: some always finish, some may spin forever.  The condition names the
 * final value of every location.
 */
#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "gen/gen_int.h"

enum { MAX_THREADS = 3, MAX_OPS = 4, ROWS_PER_OP = 5, NLOCS = 2, NVALS = 3 };

static const char *const locs[NLOCS] = {"x", "y"};

typedef struct sgen {
  gen_rng rng;
  gen_build b;
  size_t row[MAX_THREADS];
  int nregs[MAX_THREADS];
  int nlabels[MAX_THREADS];
  int loops[MAX_THREADS];       /* one loop per thread keeps the paths few */
  bool used[NLOCS];
} sgen;

static unsigned pick(sgen *g, unsigned n) { return gen_rng_below(&g->rng, n); }

static const char *any_loc(sgen *g) {
  unsigned l = pick(g, NLOCS);
  g->used[l] = true;
  return locs[l];
}

static void put(sgen *g, size_t t, lt_instr *in) { gen_put(&g->b, t, g->row[t]++, in); }

static const char *new_label(sgen *g, size_t t, char *buf, size_t n) {
  snprintf(buf, n, "L%zu%d", t, g->nlabels[t]++);
  return buf;
}

static lt_instr *go_to(sgen *g, const char *label) {
  lt_instr *in = lc_arena_alloc(g->b.t->arena, sizeof *in);
  in->kind = LT_I_GOTO;
  in->label = gen_str(&g->b, label);
  return in;
}

static void sems(sgen *g, bool load, lt_sem *sem, lt_scope *scope) {
  static const lt_sem ld_sems[] = {LT_SEM_RELAXED, LT_SEM_ACQUIRE, LT_SEM_WEAK};
  static const lt_sem st_sems[] = {LT_SEM_RELAXED, LT_SEM_RELEASE, LT_SEM_WEAK};
  *sem = (load ? ld_sems : st_sems)[pick(g, 3)];
  *scope = *sem == LT_SEM_WEAK ? LT_SCOPE_NONE : LT_SCOPE_GPU;
}

static lt_instr *access(sgen *g, size_t t, unsigned kind, int reg, const char *loc, int64_t v, int64_t w) {
  lt_sem sem;
  lt_scope scope;
  switch (kind) {
  case 0:
    sems(g, true, &sem, &scope);
    return gen_ld(&g->b, sem, scope, reg, loc);
  case 1: {
    static const lt_sem rmw_sems[] = {LT_SEM_RELAXED, LT_SEM_ACQUIRE, LT_SEM_ACQ_REL};
    return gen_rmw(&g->b, rmw_sems[pick(g, 3)], LT_SCOPE_GPU, LT_RMW_EXCH, reg, loc, gen_imm(v), gen_imm(0));
  }
  default: {
    static const lt_sem rmw_sems[] = {LT_SEM_RELAXED, LT_SEM_ACQUIRE, LT_SEM_ACQ_REL};
    return gen_rmw(&g->b, rmw_sems[pick(g, 3)], LT_SCOPE_GPU, LT_RMW_CAS, reg, loc, gen_imm(w), gen_imm(v));
  }
  }
  (void)t;
}

/* One instruction of thread t: a store, or a load / exch / cas, the
 * thread's first one looping until it sees w two times in three. */
static void op(sgen *g, size_t t) {
  const char *loc = any_loc(g);
  int64_t v = pick(g, NVALS), w = pick(g, NVALS);
  unsigned kind = pick(g, 4);
  if (kind == 3) {
    lt_sem sem;
    lt_scope scope;
    sems(g, false, &sem, &scope);
    put(g, t, gen_st(&g->b, sem, scope, loc, gen_imm(v)));
    return;
  }
  int reg = g->nregs[t]++;
  if (kind == 2 && v == w) v = (w + 1) % NVALS;   /* a cas that changes something */
  if (g->loops[t] || !pick(g, 3)) {
    put(g, t, access(g, t, kind, reg, loc, v, w));
    return;
  }
  char top[16], out[16];
  g->loops[t]++;
  new_label(g, t, top, sizeof top);
  gen_label(&g->b, t, g->row[t]++, top);
  put(g, t, access(g, t, kind, reg, loc, v, w));
  if (pick(g, 4)) {
    put(g, t, gen_branch(&g->b, LT_CMP_NE, gen_reg(reg), gen_imm(w), top));
    return;
  }
  new_label(g, t, out, sizeof out);
  put(g, t, gen_branch(&g->b, LT_CMP_EQ, gen_reg(reg), gen_imm(w), out));
  put(g, t, go_to(g, top));
  gen_label(&g->b, t, g->row[t]++, out);
}

lt_test *gen_spin(const gen_options *o, uint64_t index) {
  assert(o);
  sgen g;
  memset(&g, 0, sizeof g);
  gen_rng_seed(&g.rng, o->seed ^ 0x5350494eu, index);   /* a stream apart from gen_random's */
  size_t nthreads = 2 + pick(&g, MAX_THREADS - 1);
  char name[64], doc[96];
  snprintf(name, sizeof name, "spin-%" PRIu64 "-%" PRIu64, o->seed, index);
  snprintf(doc, sizeof doc, "\"litmus-gen --family spin --seed %" PRIu64 ", test %" PRIu64 "\"", o->seed, index);
  gen_begin(&g.b, name, doc, nthreads, MAX_OPS * ROWS_PER_OP);
  size_t nrows = 0;
  for (size_t t = 0; t < nthreads; t++) {
    unsigned nops = 2 + pick(&g, MAX_OPS - 1);
    for (unsigned i = 0; i < nops; i++) op(&g, t);
    gen_place(&g.b, t, (int)t, -1, 0);
    if (g.row[t] > nrows) nrows = g.row[t];
  }
  g.b.t->nrows = nrows;
  for (size_t t = 0; t < nthreads; t++) g.b.t->threads[t].ncells = nrows;
  for (int l = 0; l < NLOCS; l++)
    if (g.used[l]) {
      gen_init_loc(&g.b, locs[l], 0);
      gen_cond_loc(&g.b, locs[l], LT_CMP_EQ, (int64_t)pick(&g, NVALS));
    }
  return gen_finish(&g.b, LT_COND_EXISTS);
}
