/* gen_build.c - random streams and a builder of test ASTs for the
 * generators.
 * SPDX-License-Identifier: MIT
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "gen/gen_int.h"

/* ---- random numbers ------------------------------------------------------------ */

/* splitmix64 (Steele, Lea, Flood 2014): tiny, and every 64-bit state is a
 * good one, so per-test streams can come from hashing (seed, index). */
uint64_t gen_rng_next(gen_rng *r) {
  uint64_t z = (r->s += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

void gen_rng_seed(gen_rng *r, uint64_t seed, uint64_t index) {
  assert(r);
  r->s = seed;
  uint64_t a = gen_rng_next(r);
  r->s = a ^ (index * 0xd1342543de82ef95u);
  (void)gen_rng_next(r);
}

unsigned gen_rng_below(gen_rng *r, unsigned n) {
  assert(r && n > 0);
  return (unsigned)(gen_rng_next(r) % n);
}

bool gen_rng_chance(gen_rng *r, unsigned num, unsigned den) { return gen_rng_below(r, den) < num; }

int gen_pick_location(gen_rng *r, unsigned *nlocs, unsigned max_locs, unsigned *accesses,
                      unsigned max_accesses, bool *used) {
  assert(r && nlocs && *nlocs <= max_locs && accesses && used);
  unsigned room = 0;
  for (unsigned l = 0; l < *nlocs; l++) room += accesses[l] < max_accesses;
  if (!room && *nlocs < max_locs) ++*nlocs, room = 1;
  if (!room) return -1;
  unsigned k = gen_rng_below(r, room);
  for (unsigned l = 0; l < *nlocs; l++) {
    if (accesses[l] >= max_accesses || k--) continue;
    used[l] = true;
    accesses[l]++;
    return (int)l;
  }
  return -1;
}

/* ---- the builder ----------------------------------------------------------------- */

void gen_begin(gen_build *b, const char *name, const char *doc, size_t nthreads, size_t nrows) {
  assert(b && name);
  memset(b, 0, sizeof *b);
  lc_arena *a = lc_arena_new();
  lt_test *t = lc_arena_alloc(a, sizeof *t);
  t->arena = a;
  t->arch = "PTX";
  t->name = lc_arena_strdup(a, name);
  t->doc = lc_arena_strdup(a, doc ? doc : "");
  t->nthreads = nthreads;
  t->nrows = nrows;
  t->threads = lc_arena_alloc(a, (nthreads ? nthreads : 1) * sizeof(lt_thread));
  for (size_t i = 0; i < nthreads; i++) {
    lt_thread *th = &t->threads[i];
    th->id = (int)i;
    th->cluster = -1;
    th->ncells = nrows;
    th->cells = lc_arena_alloc(a, (nrows ? nrows : 1) * sizeof(lt_cell));
  }
  b->t = t;
}

lt_test *gen_finish(gen_build *b, lt_quant quant) {
  assert(b && b->t);
  lt_test *t = b->t;
  t->ninits = b->inits.n;
  t->inits = lc_arena_alloc(t->arena, (b->inits.n ? b->inits.n : 1) * sizeof(lt_init));
  if (b->inits.n) memcpy(t->inits, b->inits.v, b->inits.n * sizeof(lt_init));
  lc_vec_free(&b->inits);
  t->quant = quant;
  t->nlocations = b->locations.n;
  t->has_locations = b->locations.n > 0;
  t->locations = lc_arena_alloc(t->arena, (b->locations.n ? b->locations.n : 1) * sizeof(lt_term));
  if (b->locations.n) memcpy(t->locations, b->locations.v, b->locations.n * sizeof(lt_term));
  lc_vec_free(&b->locations);
  t->filter = b->filter;
  if (t->filter) t->filter->parens = true;
  if (!b->cond) {
    t->cond = lc_arena_alloc(t->arena, sizeof *t->cond);
    t->cond->kind = LT_PROP_TRUE;
  } else {
    t->cond = b->cond;
    t->cond->parens = true;   /* herd's habit: exists (...) */
  }
  memset(b, 0, sizeof *b);
  return t;
}

void gen_place(gen_build *b, size_t thread, int cta, int cluster, int gpu) {
  assert(b && b->t && thread < b->t->nthreads);
  lt_thread *th = &b->t->threads[thread];
  th->cta = cta;
  th->cluster = cluster;
  th->gpu = gpu;
}

void gen_init_loc(gen_build *b, const char *loc, int64_t value) {
  assert(b && b->t && loc);
  lt_init in = {0};
  in.kind = LT_INIT_LOC;
  in.loc = gen_str(b, loc);
  in.value = value;
  lc_vec_push(&b->inits, in);
}

void gen_put(gen_build *b, size_t thread, size_t row, lt_instr *in) {
  assert(b && b->t && thread < b->t->nthreads && row < b->t->nrows);
  b->t->threads[thread].cells[row].instr = in;
}

void gen_label(gen_build *b, size_t thread, size_t row, const char *label) {
  assert(b && b->t && thread < b->t->nthreads && row < b->t->nrows && label);
  b->t->threads[thread].cells[row].label = gen_str(b, label);
}

const char *gen_str(gen_build *b, const char *s) { return lc_arena_strdup(b->t->arena, s); }

lt_operand gen_imm(int64_t v) { return (lt_operand){.kind = LT_OPND_IMM, .imm = v}; }
lt_operand gen_reg(int reg) { return (lt_operand){.kind = LT_OPND_REG, .reg = reg}; }
lt_operand gen_loc(const char *loc) { return (lt_operand){.kind = LT_OPND_LOC, .loc = loc}; }

static lt_instr *new_instr(gen_build *b, lt_instr_kind kind, lt_sem sem, lt_scope scope) {
  lt_instr *in = lc_arena_alloc(b->t->arena, sizeof *in);
  in->kind = kind;
  in->sem = sem;
  in->scope = scope;
  return in;
}

lt_instr *gen_ld(gen_build *b, lt_sem sem, lt_scope scope, int dst, const char *loc) {
  lt_instr *in = new_instr(b, LT_I_LD, sem, scope);
  in->dst = gen_reg(dst);
  in->addr = gen_loc(gen_str(b, loc));
  return in;
}

lt_instr *gen_st(gen_build *b, lt_sem sem, lt_scope scope, const char *loc, lt_operand v) {
  lt_instr *in = new_instr(b, LT_I_ST, sem, scope);
  in->addr = gen_loc(gen_str(b, loc));
  in->a = v;
  return in;
}

lt_instr *gen_rmw(gen_build *b, lt_sem sem, lt_scope scope, lt_rmw_op op, int dst, const char *loc,
                  lt_operand a, lt_operand c) {
  lt_instr *in = new_instr(b, dst >= 0 ? LT_I_ATOM : LT_I_RED, sem, scope);
  in->rmw = op;
  if (dst >= 0) in->dst = gen_reg(dst);
  in->addr = gen_loc(gen_str(b, loc));
  in->a = a;
  if (op == LT_RMW_CAS) in->b = c;
  return in;
}

lt_instr *gen_fence(gen_build *b, lt_sem sem, lt_scope scope) {
  return new_instr(b, LT_I_FENCE, sem, scope);
}

lt_instr *gen_branch(gen_build *b, lt_cmp cmp, lt_operand x, lt_operand y, const char *label) {
  lt_instr *in = new_instr(b, LT_I_BRANCH, LT_SEM_NONE, LT_SCOPE_NONE);
  in->cmp = cmp;
  in->a = x;
  in->b = y;
  in->label = gen_str(b, label);
  return in;
}

lt_instr *gen_alu(gen_build *b, lt_alu_op op, int dst, lt_operand x, lt_operand y) {
  lt_instr *in = new_instr(b, LT_I_ALU, LT_SEM_NONE, LT_SCOPE_NONE);
  in->alu = op;
  in->dst = gen_reg(dst);
  in->a = x;
  in->b = y;
  return in;
}

/* Conjunctions nest to the left, as the parser builds `a /\ b /\ c`. */
static void add_cmp(gen_build *b, lt_prop **to, lt_term lhs, lt_cmp cmp, int64_t v) {
  lt_prop *p = lc_arena_alloc(b->t->arena, sizeof *p);
  p->kind = LT_PROP_CMP;
  p->cmp = cmp;
  p->lhs = lhs;
  p->rhs = (lt_term){.kind = LT_TERM_CONST, .value = v};
  if (!*to) {
    *to = p;
    return;
  }
  lt_prop *and = lc_arena_alloc(b->t->arena, sizeof *and);
  and->kind = LT_PROP_AND;
  and->l = *to;
  and->r = p;
  *to = and;
}

void gen_cond_reg(gen_build *b, int thread, int reg, lt_cmp cmp, int64_t v) {
  assert(b && b->t && thread >= 0 && (size_t)thread < b->t->nthreads && reg >= 0);
  add_cmp(b, &b->cond, (lt_term){.kind = LT_TERM_REG, .thread = thread, .reg = reg}, cmp, v);
}

void gen_cond_loc(gen_build *b, const char *loc, lt_cmp cmp, int64_t v) {
  assert(b && b->t && loc);
  add_cmp(b, &b->cond, (lt_term){.kind = LT_TERM_LOC, .loc = gen_str(b, loc)}, cmp, v);
}

void gen_filter_reg(gen_build *b, int thread, int reg, lt_cmp cmp, int64_t v) {
  assert(b && b->t && thread >= 0 && (size_t)thread < b->t->nthreads && reg >= 0);
  add_cmp(b, &b->filter, (lt_term){.kind = LT_TERM_REG, .thread = thread, .reg = reg}, cmp, v);
}

void gen_show_loc(gen_build *b, const char *loc) {
  assert(b && b->t && loc);
  lt_term t = {.kind = LT_TERM_LOC, .loc = gen_str(b, loc)};
  lc_vec_push(&b->locations, t);
}
