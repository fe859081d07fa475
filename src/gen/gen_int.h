/* gen_int.h - what the generators share: a seeded random stream and a
 * builder of test ASTs.
 * SPDX-License-Identifier: MIT
 */
#ifndef GEN_INT_H
#define GEN_INT_H

#include "gen/gen.h"

/* ---- random numbers: splitmix64, one stream per test ---------------------- */

typedef struct gen_rng {
  uint64_t s;
} gen_rng;

void gen_rng_seed(gen_rng *r, uint64_t seed, uint64_t index);
uint64_t gen_rng_next(gen_rng *r);
unsigned gen_rng_below(gen_rng *r, unsigned n);           /* 0..n-1; n > 0 */
bool gen_rng_chance(gen_rng *r, unsigned num, unsigned den);

/* A random location with room for one more access (accesses[l] below
 * max_accesses), opening a new one (raising *nlocs up to max_locs) when the
 * open ones are full; counts the access and marks used[l].  -1 when every
 * location is full. */
int gen_pick_location(gen_rng *r, unsigned *nlocs, unsigned max_locs, unsigned *accesses,
                      unsigned max_accesses, bool *used);

/* ---- building a test -------------------------------------------------------- */

typedef struct gen_build {
  lt_test *t;
  LC_VEC(lt_init) inits;
  lt_prop *cond;                 /* conjunction so far, or NULL */
  lt_prop *filter;               /* likewise */
  LC_VEC(lt_term) locations;
} gen_build;

/* A test with nthreads threads of nrows empty cells each, all in CTA 0 of
 * GPU 0 without a cluster until placed. */
void gen_begin(gen_build *b, const char *name, const char *doc, size_t nthreads, size_t nrows);
/* Returns the finished test; the builder is empty again. */
lt_test *gen_finish(gen_build *b, lt_quant quant);

void gen_place(gen_build *b, size_t thread, int cta, int cluster, int gpu);
void gen_init_loc(gen_build *b, const char *loc, int64_t value);
void gen_put(gen_build *b, size_t thread, size_t row, lt_instr *in);
void gen_label(gen_build *b, size_t thread, size_t row, const char *label);
const char *gen_str(gen_build *b, const char *s);

lt_operand gen_imm(int64_t v);
lt_operand gen_reg(int reg);
lt_operand gen_loc(const char *loc);

lt_instr *gen_ld(gen_build *b, lt_sem sem, lt_scope scope, int dst, const char *loc);
lt_instr *gen_st(gen_build *b, lt_sem sem, lt_scope scope, const char *loc, lt_operand v);
/* atom (dst >= 0) or red (dst < 0); `c` is the new value of a cas. */
lt_instr *gen_rmw(gen_build *b, lt_sem sem, lt_scope scope, lt_rmw_op op, int dst, const char *loc,
                  lt_operand a, lt_operand c);
lt_instr *gen_fence(gen_build *b, lt_sem sem, lt_scope scope);
lt_instr *gen_branch(gen_build *b, lt_cmp cmp, lt_operand x, lt_operand y, const char *label);
lt_instr *gen_alu(gen_build *b, lt_alu_op op, int dst, lt_operand x, lt_operand y);

/* Adds `lhs cmp rhs` to the condition's conjunction. */
void gen_cond_reg(gen_build *b, int thread, int reg, lt_cmp cmp, int64_t v);
void gen_cond_loc(gen_build *b, const char *loc, lt_cmp cmp, int64_t v);
/* Adds `Pthread:rreg cmp v` to the filter's conjunction. */
void gen_filter_reg(gen_build *b, int thread, int reg, lt_cmp cmp, int64_t v);
/* Adds loc to the `locations [...]` list. */
void gen_show_loc(gen_build *b, const char *loc);

#endif
