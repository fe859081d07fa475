/* gen_random.c - random small litmus tests for cross-checking engines.
 * SPDX-License-Identifier: MIT
 *
 * A test has 2-4 threads of 1-4 instructions over 1-3 locations: loads,
 * stores (of constants, or of a register for a data dependency, sometimes
 * through register arithmetic), atom add/exch/cas (now and then another
 * operation), red, and fences (sc and acq_rel mostly, also acquire,
 * release and membar), each with a random memory order (volatile too) and
 * scope; threads are placed in random CTAs, sometimes in clusters and
 * sometimes on two GPUs; now and then a load feeds a forward branch.  The
 * condition names every register (so outcome sets cover the whole final
 * state) and sometimes a location's final value; a few tests have a
 * filter, a `locations` list or a location starting at a value other
 * than 0.  Stores write values distinct per location, so every outcome
 * says which write each read saw.
 */
#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "gen/gen_int.h"

enum { MAX_LOCS = 3, MAX_THREADS = 8, MAX_INSTRS = 8 };

/* Accesses per location.  More make tests whose candidate executions
 * number in the billions (a dozen reads and writes of one location),
 * slow for both engines and no better at finding disagreements. */
enum { MAX_ACCESSES = 5 };

static const char *const loc_names[MAX_LOCS] = {"x", "y", "z"};
static const lt_scope scopes[] = {LT_SCOPE_CTA, LT_SCOPE_CLUSTER, LT_SCOPE_GPU, LT_SCOPE_SYS};

typedef struct reg_info {
  int loc;                      /* the location it was loaded from */
} reg_info;

typedef struct rgen {
  gen_rng rng;
  gen_build b;
  unsigned nlocs;
  bool used[MAX_LOCS];
  unsigned accesses[MAX_LOCS];
  int64_t next_val[MAX_LOCS];   /* the next value a store of that location writes */
  reg_info regs[MAX_THREADS][MAX_INSTRS];
  int nregs[MAX_THREADS];
  lt_instr *code[MAX_THREADS][MAX_INSTRS];
  unsigned ninstrs[MAX_THREADS];
  unsigned extra_rows[MAX_THREADS];   /* rows a barrier added */
  int branch_after[MAX_THREADS];   /* row of the load a branch tests, or -1 */
} rgen;

static unsigned pick(rgen *g, unsigned n) { return gen_rng_below(&g->rng, n); }
static lt_scope any_scope(rgen *g) { return scopes[pick(g, LC_ARRAY_LEN(scopes))]; }

/* A location with room for one more access, opening a new one when the
 * test's are full; -1 when all are. */
static int use_loc(rgen *g) {
  return gen_pick_location(&g->rng, &g->nlocs, MAX_LOCS, g->accesses, MAX_ACCESSES, g->used);
}

static int64_t fresh_value(rgen *g, int loc) { return g->next_val[loc]++; }

static int new_reg(rgen *g, size_t t, int loc) {
  int r = g->nregs[t]++;
  g->regs[t][r].loc = loc;
  return r;
}

static lt_instr *random_fence(rgen *g);

/* Weak, volatile (relaxed.sys) and the default `ld` take no scope. */
static lt_scope scope_for(rgen *g, lt_sem sem) {
  return sem == LT_SEM_WEAK || sem == LT_SEM_VOLATILE || sem == LT_SEM_NONE ? LT_SCOPE_NONE : any_scope(g);
}

static lt_instr *random_load(rgen *g, size_t t) {
  static const lt_sem sems[] = {LT_SEM_WEAK, LT_SEM_RELAXED, LT_SEM_ACQUIRE, LT_SEM_WEAK, LT_SEM_RELAXED,
                                LT_SEM_ACQUIRE, LT_SEM_VOLATILE};
  lt_sem sem = sems[pick(g, LC_ARRAY_LEN(sems))];
  int loc = use_loc(g);
  if (loc < 0) return random_fence(g);
  return gen_ld(&g->b, sem, scope_for(g, sem), new_reg(g, t, loc), loc_names[loc]);
}

static lt_instr *random_store(rgen *g, size_t t) {
  static const lt_sem sems[] = {LT_SEM_WEAK, LT_SEM_RELAXED, LT_SEM_RELEASE, LT_SEM_WEAK, LT_SEM_RELAXED,
                                LT_SEM_RELEASE, LT_SEM_VOLATILE};
  lt_sem sem = sems[pick(g, LC_ARRAY_LEN(sems))];
  int loc = use_loc(g);
  if (loc < 0) return random_fence(g);
  lt_operand v = g->nregs[t] && gen_rng_chance(&g->rng, 1, 4) ? gen_reg((int)pick(g, (unsigned)g->nregs[t]))
                                                              : gen_imm(fresh_value(g, loc));
  return gen_st(&g->b, sem, scope_for(g, sem), loc_names[loc], v);
}

/* atom (add, exch, cas) or red (add); no sem means relaxed.gpu. */
static lt_instr *random_rmw(rgen *g, size_t t, bool red) {
  static const lt_sem atom_sems[] = {LT_SEM_NONE, LT_SEM_RELAXED, LT_SEM_ACQUIRE, LT_SEM_RELEASE,
                                     LT_SEM_ACQ_REL};
  static const lt_sem red_sems[] = {LT_SEM_NONE, LT_SEM_RELAXED, LT_SEM_RELEASE};
  lt_sem sem = red ? red_sems[pick(g, 3)] : atom_sems[pick(g, 5)];
  lt_scope scope = sem == LT_SEM_NONE ? LT_SCOPE_NONE : any_scope(g);
  int loc = use_loc(g);
  if (loc < 0) return random_fence(g);
  if (red) return gen_rmw(&g->b, sem, scope, LT_RMW_ADD, -1, loc_names[loc], gen_imm(1), gen_imm(0));
  static const lt_rmw_op ops[] = {LT_RMW_ADD, LT_RMW_EXCH, LT_RMW_CAS};
  static const lt_rmw_op others[] = {LT_RMW_SUB, LT_RMW_AND, LT_RMW_OR, LT_RMW_XOR,
                                     LT_RMW_MIN, LT_RMW_MAX, LT_RMW_INC, LT_RMW_DEC};
  lt_rmw_op op = gen_rng_chance(&g->rng, 1, 5) ? others[pick(g, LC_ARRAY_LEN(others))] : ops[pick(g, 3)];
  int dst = new_reg(g, t, loc);
  if (op != LT_RMW_ADD && op != LT_RMW_EXCH && op != LT_RMW_CAS)
    return gen_rmw(&g->b, sem, scope, op, dst, loc_names[loc], gen_imm(1 + pick(g, 3)), gen_imm(0));
  if (op == LT_RMW_ADD) return gen_rmw(&g->b, sem, scope, op, dst, loc_names[loc], gen_imm(1 + pick(g, 2)), gen_imm(0));
  if (op == LT_RMW_EXCH)
    return gen_rmw(&g->b, sem, scope, op, dst, loc_names[loc], gen_imm(fresh_value(g, loc)), gen_imm(0));
  int64_t expected = pick(g, 2) ? 0 : (int64_t)pick(g, (unsigned)g->next_val[loc]);
  return gen_rmw(&g->b, sem, scope, op, dst, loc_names[loc], gen_imm(expected), gen_imm(fresh_value(g, loc)));
}

static lt_instr *random_fence(rgen *g) {
  static const lt_sem sems[] = {LT_SEM_SC, LT_SEM_ACQ_REL, LT_SEM_SC, LT_SEM_ACQ_REL, LT_SEM_ACQUIRE,
                                LT_SEM_RELEASE};
  if (gen_rng_chance(&g->rng, 1, 10)) {   /* membar.{cta,gl,sys}: fence.sc */
    static const lt_scope levels[] = {LT_SCOPE_CTA, LT_SCOPE_GPU, LT_SCOPE_SYS};
    lt_instr *in = gen_fence(&g->b, LT_SEM_SC, levels[pick(g, 3)]);
    in->membar = true;
    return in;
  }
  return gen_fence(&g->b, sems[pick(g, LC_ARRAY_LEN(sems))], any_scope(g));
}

/* rK = rJ + c, where rJ holds a value read: a dependency through
 * arithmetic when rK is stored. */
static lt_instr *random_alu(rgen *g, size_t t) {
  if (!g->nregs[t]) return random_fence(g);
  int from = (int)pick(g, (unsigned)g->nregs[t]);
  int dst = new_reg(g, t, g->regs[t][from].loc);
  return gen_alu(&g->b, LT_ALU_ADD, dst, gen_reg(from), gen_imm(1));
}

static lt_instr *random_instr(rgen *g, size_t t) {
  unsigned k = pick(g, 100);
  if (k < 32) return random_load(g, t);
  if (k < 64) return random_store(g, t);
  if (k < 78) return random_rmw(g, t, false);
  if (k < 85) return random_rmw(g, t, true);
  if (k < 88) return random_alu(g, t);
  return random_fence(g);
}

/* ---- placement ------------------------------------------------------------------ */

/* CTAs drawn among as many as there are threads (so some share one), one
 * GPU or sometimes two, and sometimes clusters, one per (GPU, CTA). */
static void place(rgen *g, size_t nthreads) {
  bool two_gpus = gen_rng_chance(&g->rng, 1, 6), clusters = gen_rng_chance(&g->rng, 1, 4);
  int cluster_of[2][MAX_THREADS];
  for (int gpu = 0; gpu < 2; gpu++)
    for (size_t c = 0; c < MAX_THREADS; c++) cluster_of[gpu][c] = (int)pick(g, 2);
  for (size_t t = 0; t < nthreads; t++) {
    int gpu = two_gpus ? (int)pick(g, 2) : 0, cta = (int)pick(g, (unsigned)nthreads);
    gen_place(&g->b, t, cta, clusters ? cluster_of[gpu][cta] : -1, gpu);
  }
}

/* ---- code layout and condition ------------------------------------------------------- */

/* A thread with a branch has it after its load and a label after its
 * code: `bne rK, v, LCt0` skips the rest. */
static unsigned rows_of(const rgen *g, size_t t) {
  return g->ninstrs[t] + (g->branch_after[t] >= 0 ? 2 : 0);
}

static void lay_out(rgen *g, size_t t) {
  size_t row = 0;
  char label[16];
  snprintf(label, sizeof label, "LC%zu0", t);
  for (unsigned i = 0; i < g->ninstrs[t]; i++) {
    gen_put(&g->b, t, row++, g->code[t][i]);
    if ((int)i != g->branch_after[t]) continue;
    const lt_instr *ld = g->code[t][i];
    int loc = g->regs[t][ld->dst.reg].loc;
    int64_t v = (int64_t)pick(g, (unsigned)g->next_val[loc]);
    gen_put(&g->b, t, row++, gen_branch(&g->b, pick(g, 2) ? LT_CMP_NE : LT_CMP_EQ, ld->dst, gen_imm(v), label));
  }
  if (g->branch_after[t] >= 0) gen_label(&g->b, t, row, label);
}

/* Loads that are not the thread's last instruction may feed a branch. */
static void choose_branch(rgen *g, size_t nthreads) {
  for (size_t t = 0; t < nthreads; t++) g->branch_after[t] = -1;
  if (!gen_rng_chance(&g->rng, 1, 8)) return;
  size_t t = pick(g, (unsigned)nthreads);
  for (unsigned i = 0; i + 1 < g->ninstrs[t]; i++)
    if (g->code[t][i]->kind == LT_I_LD) {
      g->branch_after[t] = (int)i;
      return;
    }
}

static void condition(rgen *g, size_t nthreads) {
  for (size_t t = 0; t < nthreads; t++)
    for (int r = 0; r < g->nregs[t]; r++)
      gen_cond_reg(&g->b, (int)t, r, LT_CMP_EQ, (int64_t)pick(g, (unsigned)g->next_val[g->regs[t][r].loc]));
  bool none = g->b.cond == NULL;
  if (!none && !gen_rng_chance(&g->rng, 1, 3)) return;
  for (int l = 0; l < (int)g->nlocs; l++)
    if (g->used[l] && (none || pick(g, 2))) {
      gen_cond_loc(&g->b, loc_names[l], LT_CMP_EQ, (int64_t)pick(g, (unsigned)g->next_val[l]));
      if (none) return;
    }
}

/* Now and then: a filter on a register, a `locations` list. */
static void extras(rgen *g, size_t nthreads) {
  size_t t = pick(g, (unsigned)nthreads);
  if (g->nregs[t] && gen_rng_chance(&g->rng, 1, 12)) {
    int r = (int)pick(g, (unsigned)g->nregs[t]);
    gen_filter_reg(&g->b, (int)t, r, LT_CMP_NE, (int64_t)pick(g, (unsigned)g->next_val[g->regs[t][r].loc]));
  }
  if (gen_rng_chance(&g->rng, 1, 12))
    for (unsigned l = 0; l < g->nlocs; l++)
      if (g->used[l]) {
        gen_show_loc(&g->b, loc_names[l]);
        break;
      }
}

/* ---- barriers --------------------------------------------------------------- */

static lt_instr *barrier(rgen *g, bool arrive, int count) {
  lt_instr *in = lc_arena_alloc(g->b.t->arena, sizeof *in);
  in->kind = LT_I_BAR;
  in->bar_arrive = arrive;
  in->bar_cta_suffix = true;
  in->a = gen_imm(1);
  in->nbar_operands = count ? 3 : 1;
  if (count) {
    in->b = gen_imm(0);
    in->c = gen_imm(count);
  }
  return in;
}

/* Puts `in` at row `row` of thread t, moving the rows below down one. */
static void insert_row(rgen *g, size_t t, unsigned row, lt_instr *in) {
  lt_thread *th = &g->b.t->threads[t];
  unsigned used = rows_of(g, t) + g->extra_rows[t];
  memmove(&th->cells[row + 1], &th->cells[row], (used - row) * sizeof(lt_cell));
  memset(&th->cells[row], 0, sizeof(lt_cell));
  th->cells[row].instr = in;
  g->extra_rows[t]++;
}

/* A row for thread t's barrier: anywhere, but not between its branch and
 * the label the branch jumps to.  Skipping a barrier only makes the other
 * threads wait forever (executions every model rules out), and a GPU
 * kernel cannot branch around one. */
static unsigned barrier_row(rgen *g, size_t t) {
  if (g->branch_after[t] < 0) return pick(g, rows_of(g, t) + 1);
  unsigned before_branch = (unsigned)g->branch_after[t] + 2, r = pick(g, before_branch + 1);
  return r < before_branch ? r : rows_of(g, t);
}

/* Now and then the threads of one CTA meet at a barrier, each at a row of
 * its own: `bar.cta.sync 1`, or with the CTA's thread count, and then
 * sometimes one thread only arrives. */
static void add_barrier(rgen *g, size_t nthreads) {
  if (!gen_rng_chance(&g->rng, 1, 6)) return;
  const lt_thread *th = g->b.t->threads, *first = &th[pick(g, (unsigned)nthreads)];
  size_t members[MAX_THREADS], n = 0;
  for (size_t t = 0; t < nthreads; t++)
    if (th[t].gpu == first->gpu && th[t].cta == first->cta) members[n++] = t;
  if (n < 2) return;
  bool counted = gen_rng_chance(&g->rng, 1, 3);
  size_t arriver = counted && pick(g, 2) ? pick(g, (unsigned)n) : n;
  for (size_t k = 0; k < n; k++) {
    size_t t = members[k];
    insert_row(g, t, barrier_row(g, t), barrier(g, k == arriver, counted ? (int)n : 0));
  }
  unsigned nrows = g->b.t->nrows;
  for (size_t t = 0; t < nthreads; t++)
    if (rows_of(g, t) + g->extra_rows[t] > nrows) nrows = rows_of(g, t) + g->extra_rows[t];
  g->b.t->nrows = nrows;
  for (size_t t = 0; t < nthreads; t++) g->b.t->threads[t].ncells = nrows;
}

void gen_options_init(gen_options *o) {
  assert(o);
  memset(o, 0, sizeof *o);
  o->min_threads = 2;
  o->max_threads = 4;
  o->max_instrs = 4;
  o->max_locs = 3;
}

static unsigned clampu(unsigned v, unsigned lo, unsigned hi) { return v < lo ? lo : v > hi ? hi : v; }

lt_test *gen_random(const gen_options *o, uint64_t index) {
  assert(o);
  rgen g;
  memset(&g, 0, sizeof g);
  gen_rng_seed(&g.rng, o->seed, index);
  unsigned lo = clampu(o->min_threads, 1, MAX_THREADS), hi = clampu(o->max_threads, lo, MAX_THREADS);
  size_t nthreads = lo + pick(&g, hi - lo + 1);
  g.nlocs = 1 + pick(&g, clampu(o->max_locs, 1, MAX_LOCS));
  for (unsigned l = 0; l < MAX_LOCS; l++) g.next_val[l] = 1;
  for (size_t t = 0; t < nthreads; t++) g.ninstrs[t] = 1 + pick(&g, clampu(o->max_instrs, 1, MAX_INSTRS));
  char name[64], doc[96];
  snprintf(name, sizeof name, "gen-%" PRIu64 "-%" PRIu64, o->seed, index);
  snprintf(doc, sizeof doc, "\"litmus-gen --seed %" PRIu64 ", test %" PRIu64 "\"", o->seed, index);
  unsigned nrows = 0;
  /* The builder needs the row count first: draw the code, then lay it out. */
  gen_begin(&g.b, name, doc, nthreads, MAX_INSTRS + 3);   /* code, branch, label, barrier */
  for (size_t t = 0; t < nthreads; t++)
    for (unsigned i = 0; i < g.ninstrs[t]; i++) g.code[t][i] = random_instr(&g, t);
  choose_branch(&g, nthreads);
  for (size_t t = 0; t < nthreads; t++) {
    lay_out(&g, t);
    if (rows_of(&g, t) > nrows) nrows = rows_of(&g, t);
  }
  g.b.t->nrows = nrows;
  for (size_t t = 0; t < nthreads; t++) g.b.t->threads[t].ncells = nrows;
  place(&g, nthreads);
  for (int l = 0; l < (int)g.nlocs; l++)
    if (g.used[l]) gen_init_loc(&g.b, loc_names[l], gen_rng_chance(&g.rng, 1, 10) ? 7 : 0);
  condition(&g, nthreads);
  extras(&g, nthreads);
  add_barrier(&g, nthreads);   /* last: tests without one are as they were */
  static const lt_quant quants[] = {LT_COND_EXISTS, LT_COND_EXISTS, LT_COND_EXISTS, LT_COND_EXISTS,
                                    LT_COND_NOT_EXISTS, LT_COND_FORALL};
  return gen_finish(&g.b, quants[pick(&g, LC_ARRAY_LEN(quants))]);
}
