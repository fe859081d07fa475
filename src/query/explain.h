/* explain.h - why a final state is forbidden, or which execution allows
 * it: the smallest sets of the model's named checks that rule a state out,
 * each check with an execution giving the state that violates it, shown
 * as a cycle of named relations.
 * SPDX-License-Identifier: MIT
 *
 * One question drives everything (witness.h): "a candidate execution
 * giving the state that passes these checks?".  A set S of checks rules
 * the state out when the answer for S is no; the minimal such sets are
 * found smallest first, skipping supersets of sets found and subsets of
 * the checks some execution already passes.  For each check c of a set,
 * an execution passing S \ {c} must fail c (S rules the state out): that
 * is the execution shown for c.  Every execution either engine returns is
 * evaluated again by the explicit engine's concrete evaluation, which
 * must agree on every check it fails.
 */
#ifndef LC_EXPLAIN_H
#define LC_EXPLAIN_H

#include "cat/cat.h"
#include "check.h"
#include "witness.h"

/* An edge of a picture or a cycle: from -> to in relation `rel` (a
 * builtin's name, or a check's name for a pair of its relation). */
typedef struct lc_edge {
  int from, to;             /* event ids */
  const char *rel;          /* static string, borrowed from the model, or from the
                               violation's arena */
  bool inverse;             /* (to, from) is in rel: the edge goes against it */
  const char *base;         /* the builtin rel stands for (cuda-cpp's sb: po), or NULL */
  int line;                 /* in a violation: the line deriving it (rel a `let`), or -1 */
} lc_edge;

/* from -rel-> to, a `let` of the model, because of the chain steps. */
typedef struct lc_deriv {
  int from, to;
  const char *rel;
  lc_edge *steps;
  size_t nsteps;
} lc_deriv;

/* How an execution fails a check, in the check's own relations
 * (cat_rel_derive): `edges` is the cycle of its expression (acyclic),
 * a cycle of it through the reflexive event (irreflexive), or the pair it
 * should not have (empty; `unless` names what the pair is not in, for a
 * check `empty A \ B`); `lines` derive each edge of a `let` down to the
 * builtins, and `leaves` are the builtins' edges of the whole
 * derivation, which pictures draw. */
typedef struct lc_violation {
  size_t check;             /* index among the model's checks */
  const char *name;         /* borrowed from the model */
  cat_check_kind kind;
  const char *expr;         /* the check's expression */
  int a, b;                 /* irreflexive: the event (a == b); empty: the pair */
  lc_edge *edges;
  size_t nedges;
  const char *unless;
  lc_deriv *lines;
  size_t nlines;
  lc_edge *leaves;
  size_t nleaves;
  lc_arena *arena;          /* texts of unnamed expressions */
} lc_violation;

/* One check of a minimal set, with an execution giving the state that
 * passes the rest of the set and so fails it. */
typedef struct lc_why {
  lc_witness *w;
  lc_violation v;
} lc_why;

typedef struct lc_reason {  /* a minimal set of checks ruling the state out */
  lc_why *why;
  size_t n;
} lc_reason;

typedef enum {
  LC_EXPLAIN_ALLOWED,       /* witness: an allowed execution giving the state */
  LC_EXPLAIN_FORBIDDEN,     /* reasons: every minimal set of checks */
  LC_EXPLAIN_NO_CANDIDATE,  /* no candidate execution gives it, whatever the model */
  LC_EXPLAIN_ERROR,         /* message says why (time limit, engines disagree) */
  LC_EXPLAIN_UNFINISHED     /* no allowed execution of the test finishes (within the
                               unroll bound): message says so; no check is to blame */
} lc_explain_kind;

typedef struct lc_explanation {
  lc_state state;
  lc_explain_kind kind;
  lc_witness *witness;
  lc_reason *reasons;
  size_t nreasons;
  char *message;
} lc_explanation;

/* A racy pair of a flag with an allowed execution in which it races. */
typedef struct lc_race {
  const char *flag;         /* borrowed from the model */
  int a, b;
  lc_witness *w;            /* NULL when none was found (message says why) */
  char *message;
} lc_race;

typedef struct lc_explain_result {
  const lx_program *prog;   /* borrowed */
  const cat_model *model;   /* borrowed */
  const char *engine;       /* "smt", "enum", "enum+smt" (auto: both answered) */
  lc_explanation *ex;
  size_t n;
  lc_race *races;
  size_t nraces;
  double seconds;
  size_t questions;         /* engine queries made */
} lc_explain_result;

/* Explains `states` (n of them, copied) of p under m with the engine
 * given (auto: on a test with loops, each question to the explicit engine
 * and to Z3 when it runs out of nodes; elsewhere as checking picks, the
 * explicit engine giving way to Z3 when a question takes it over 0.2 s).  `checked`, when not NULL, is the
 * result of checking p under m: a state it shows no allowed execution
 * gives is not asked about again.  Never NULL. */
lc_explain_result *lc_explain(const lx_program *p, const cat_model *m, lc_engine engine, double timeout,
                              const lc_state *states, size_t n, const lc_result *checked);
/* Each pair of each raised flag of r (a result of checking p), with an
 * execution in which it races, added to x: Z3's (judged by the explicit
 * engine's evaluation) when x was explained by Z3, else the explicit
 * engine's. */
void lc_explain_races(lc_explain_result *x, const lc_result *r, double timeout);
void lc_explain_free(lc_explain_result *x);
/* Did some explanation fail (time, disagreement)? */
bool lc_explain_failed(const lc_explain_result *x);

/* The base relations of an execution, for labels and pictures: po, rf,
 * co, fr, rmw, sc, sync_bar, data, addr, ctrl over event ids (events
 * that run only).  An edge is named after the first of rf, co, fr, sc,
 * sync_bar, rmw, data, addr, ctrl, po that has it. */
enum { LC_NBASE = 10 };
extern const char *const lc_base_names[LC_NBASE];
void lc_witness_base(const lx_program *p, const lc_witness *w, rel_rel *out[LC_NBASE]);

#endif
