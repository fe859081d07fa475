/* smt_internal.h - the Z3 encoding shared by the engine and its cat backend.
 * SPDX-License-Identifier: MIT
 *
 * A set or relation value is a vector or matrix of Z3 Booleans read
 * *relative to execution*: the pair (a,b) is in the relation exactly when
 * both events execute and the stored term holds.  A NULL term is false (the
 * pair is impossible: this is the static may-analysis, for free), and the
 * shared term `T` is true (the pair is certain whenever both events run, as
 * for `po` or `loc`).  Static relations therefore cost no Z3 terms at all,
 * and simplifying and/or on NULL and T prunes most of a model's relations
 * before Z3 sees them.
 */
#ifndef SMT_INTERNAL_H
#define SMT_INTERNAL_H

#include <z3.h>

#include "cat/cat.h"
#include "exec/exec.h"
#include "result.h"

typedef struct smt_val {
  cat_type type;
  Z3_ast *t;                 /* n terms (set) or n*n (relation), NULL = false */
} smt_val;

typedef struct smt_flag {
  const char *name;
  smt_val *v;                /* the flag's relation, kept for the race query */
} smt_flag;

/* A check of the model whose constraint is built on demand (explanations). */
typedef struct smt_deferred {
  cat_check_kind kind;
  smt_val *v;                /* its relation or set */
  Z3_ast holds;              /* NULL until built */
} smt_deferred;

typedef struct smt_enc {
  Z3_context z;
  Z3_solver s;
  const lx_program *p;
  size_t n;
  Z3_ast T;                  /* true */
  Z3_sort bool_sort, bv_sort, int_sort;
  Z3_ast *path;              /* per path: its selector (T when it is the thread's only way) */
  Z3_ast *exec;              /* per event: path selector, T for initial writes */
  Z3_ast *val;               /* per read event: the value it returns */
  Z3_ast *rf, *co, *sc, *bar;/* n*n choice matrices (NULL where impossible) */
  Z3_ast *bar_time;          /* per barrier event: its arrival / release time */
  LC_VEC(smt_val *) vals;    /* every value built, freed at the end */
  LC_VEC(smt_flag) flags;
  LC_VEC(Z3_ast) checks;     /* the model's constraints, asserted by the engine */
  lc_diag *d;
  bool failed;
  bool skip_cut;             /* paths cut by the unroll bound cannot run (explanations) */
  bool defer_checks;         /* leave the checks out of the solver (explanations): */
  LC_VEC(smt_deferred) deferred;   /* ... they are kept here, e->checks left empty */
} smt_enc;

/* Boolean helpers treating NULL as false and e->T as true. */
Z3_ast smt_and(smt_enc *e, Z3_ast a, Z3_ast b);
Z3_ast smt_or(smt_enc *e, Z3_ast a, Z3_ast b);
Z3_ast smt_not(smt_enc *e, Z3_ast a);
Z3_ast smt_implies(smt_enc *e, Z3_ast a, Z3_ast b);
/* Both events run: T when one's run implies the other's, NULL when they
 * never run together. */
Z3_ast smt_exec2(smt_enc *e, size_t a, size_t b);
/* Event y runs, given that x and z run (NULL means it cannot). */
Z3_ast smt_exec_given(smt_enc *e, size_t y, size_t x, size_t z);
void smt_assert(smt_enc *e, Z3_ast f);

/* The cat backend over this encoding (smt_cat.c). */
cat_backend smt_cat_backend(smt_enc *e);
/* The constraint of the k-th deferred check, built on first use (an
 * acyclic check's closure is cubic in the events). */
Z3_ast smt_deferred_check(smt_enc *e, size_t k);
/* "Some executed pair is in v": the query of a flag. */
Z3_ast smt_flag_nonempty(smt_enc *e, const smt_val *v);
/* The closed term "pair (a,b) is in v" (exec included). */
Z3_ast smt_pair(smt_enc *e, const smt_val *v, size_t a, size_t b);

/* The engine's encoding, for explanations (smt_explain.c): build it
 * (with e->defer_checks set first, the checks are left to the caller), the
 * term "observable k compares so with v (or observable rhs)" and readings of a model. */
typedef struct obs_enc obs_enc;
void smt_enc_init(smt_enc *e, const lx_program *p);
void smt_enc_fini(smt_enc *e);
bool smt_encode(smt_enc *e, const cat_model *m, lc_result *r, obs_enc **obs);
void smt_free_observables(obs_enc *obs, size_t n);
Z3_ast smt_obs_cmp(smt_enc *e, const obs_enc *obs, size_t k, lt_cmp cmp, lx_val v, int rhs);
bool smt_model_true(smt_enc *e, Z3_model m, Z3_ast t);
lx_val smt_model_value(smt_enc *e, Z3_model m, Z3_ast t);
lx_val smt_model_obs(smt_enc *e, Z3_model m, const obs_enc *obs, size_t k);

#endif
