/* witness.h - one candidate execution as data, a final state to explain,
 * and the one question an engine answers for explanations.
 * SPDX-License-Identifier: MIT
 *
 * Explanations (explain.h) are built from a single query: "is there a
 * candidate execution giving this state that passes these checks?".  Each
 * engine answers it (smt_explainer, enum_explainer) with a witness that the
 * explicit engine's concrete evaluation then re-checks, so an execution one
 * engine prints is always judged by the other.
 */
#ifndef LC_WITNESS_H
#define LC_WITNESS_H

#include "exec/exec.h"
#include "rel.h"

/* A candidate execution over the program's event ids. */
typedef struct lc_witness {
  int *paths;               /* per thread: the path taken (index in prog->paths) */
  int *rf;                  /* per event: the write a read reads from, else -1 */
  lx_val *val;              /* per event: the value a read returns */
  rel_rel *co, *sc, *bar;   /* coherence, Fence-SC order, sync_bar (initial writes
                               co-before every write of their location) */
  lx_val *obs;              /* per observable: the final value */
} lc_witness;

lc_witness *lc_witness_new(const lx_program *p);
lc_witness *lc_witness_copy(const lx_program *p, const lc_witness *w);
void lc_witness_free(lc_witness *w);
/* Does event ev run in w? */
bool lc_witness_runs(const lx_program *p, const lc_witness *w, int ev);

/* A final state, or part of one: observable obs[i] compares as cmp[i]
 * (== mostly) with val[i], or with observable rhs[i] when it is not -1. */
typedef struct lc_state {
  size_t n;
  int *obs;
  lt_cmp *cmp;
  lx_val *val;
  int *rhs;
} lc_state;

/* A new state of n entries obs[i] == val[i] over the shown observables. */
void lc_state_of_values(const lx_program *p, const lx_val *values, lc_state *out);
/* A copy of s into out. */
void lc_state_copy(const lc_state *s, lc_state *out);

void lc_state_fini(lc_state *s);
/* Does a full vector of observable values give the state? */
bool lc_state_holds(const lc_state *s, const lx_val *obs_values);
/* Written as reports write states: `P1:r0=1; P1:r1=0;` (`P1:r2!=1;`
 * for another comparison). */
void lc_state_print(lc_buf *b, const lx_program *p, const lc_state *s);
/* Parses that form (spaces optional, the last `;` too).  Returns 0, or -1
 * with a message in *err (caller frees). */
int lc_state_parse(const lx_program *p, const char *text, lc_state *out, char **err);
/* The states the test's condition speaks of: its proposition (negated
 * for forall: the counter-examples) in disjunctive normal form, each
 * conjunction of `observable OP constant|observable` one state.  Returns false when
 * the proposition has another shape. */
bool lc_state_of_condition(const lx_program *p, lc_state **out, size_t *n);

/* The engines' answer to "a candidate execution giving `state` that passes
 * every check i with on[i] (indices among the model's checks; flags are
 * never on)", among the executions that take no path cut by the unroll
 * bound (those the check's states come from).  Returns 1 with *w (new) and failing[i] (per check: the
 * witness fails it), 0 when there is none, -1 when the engine cannot say
 * (*msg, new). */
typedef struct lc_explainer {
  void *ctx;
  int (*find)(void *ctx, const bool *on, const lc_state *state, lc_witness **w, bool *failing,
              char **msg);
  void (*free)(void *ctx);
} lc_explainer;

#endif
