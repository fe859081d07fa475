/* gen.h - litmus test generators: seeded random tests for cross-checking
 * the engines, and families of growing size for benchmarks.
 * SPDX-License-Identifier: MIT
 *
 * Every generator builds a test's AST (litmus/ast.h) in the test's own
 * arena, exactly as lt_parse would have: printed with lt_print, a
 * generated test reads back into an equal AST.  Generation is a pure
 * function of its arguments: the same seed and index give the same test
 * on every machine.
 */
#ifndef GEN_H
#define GEN_H

#include <stdint.h>

#include "litmus/ast.h"

typedef enum {
  GEN_RANDOM,   /* random small tests */
  GEN_CHAIN,    /* release/acquire chain through N threads: 2^N - 1 states */
  GEN_SB,       /* store buffering ring of N threads with fence.sc: 2^N - 1 states */
  GEN_IRIW,     /* two writers, N readers of both locations */
  GEN_WR,       /* N writers and N readers of one location */
  GEN_RANDOM_CPP, /* random small CUDA C++ tests (gen_cpp.c) */
  GEN_SPIN,     /* random small spin-loop programs (gen_spin.c) */
  GEN_IRIW_SC   /* IRIW with a fence.sc between each reader's two loads */
} gen_family;

typedef struct gen_options {
  uint64_t seed;
  unsigned min_threads, max_threads;   /* random: threads per test (default 2..4) */
  unsigned max_instrs;                 /* random: instructions per thread, 1..this (default 4) */
  unsigned max_locs;                   /* random: locations per test, 1..this (default 3) */
} gen_options;

void gen_options_init(gen_options *o);

/* Test number `index` of the random stream of o->seed. */
lt_test *gen_random(const gen_options *o, uint64_t index);
/* The same for CUDA C++ tests (a stream of its own). */
lt_test *gen_random_cpp(const gen_options *o, uint64_t index);

/* Test number `index` of the spin-loop stream of o->seed. */
lt_test *gen_spin(const gen_options *o, uint64_t index);

/* The family's test of size n, or NULL when n is below the family's
 * smallest size (gen_family_min). */
lt_test *gen_family_test(gen_family f, unsigned n);
unsigned gen_family_min(gen_family f);

const char *gen_family_name(gen_family f);        /* "random", "chain", ... */

/* A weakened twin of a test (gen_mutant.c): its text, with the test renamed
 * NAME+mutK and one instruction's cell changed (a fence dropped or made
 * acq_rel, .acquire/.release/.acq_rel made .relaxed, a scope narrowed). */
typedef struct gen_mutant {
  char *name;               /* NAME+mutK */
  char *what;               /* "P0 line 11: fence.sc.gpu dropped" */
  char *text;
} gen_mutant;
typedef LC_VEC(gen_mutant) gen_mutants;

/* Appends every mutant of t (parsed from src) to out; whether the model
 * allows a mutant's weak outcome is for the caller to check. */
void gen_mutants_of(const lt_test *t, const lc_source *src, gen_mutants *out);
void gen_mutants_free(gen_mutants *m);
int gen_family_parse(const char *s, gen_family *f);

#endif
