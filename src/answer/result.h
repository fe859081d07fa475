/* result.h - what an engine says about one test: the allowed final states,
 * the flags raised (data races), whether the unroll bound was reached.
 * SPDX-License-Identifier: MIT
 */
#ifndef LC_RESULT_H
#define LC_RESULT_H

#include "exec/exec.h"

typedef enum {
  LC_RESULT_OK,        /* every allowed state is listed */
  LC_RESULT_UNKNOWN,   /* the solver said unknown or ran out of time: no verdict */
  LC_RESULT_ERROR      /* the engine could not handle the test (message says why) */
} lc_result_status;

typedef struct lc_flag {
  const char *name;    /* borrowed from the model */
  bool raised;         /* some allowed execution has a pair in the flag's relation */
  int ev_a, ev_b;      /* such a pair (event ids), when raised: the first of `pairs` */
  int *pairs;          /* when the engine lists them: every pair (a,b) some allowed
                          execution has in the relation, 2 ints each, sorted, a
                          symmetric pair (b,a) listed once as (a,b) with a < b */
  size_t npairs;
  bool undef;          /* raised, it means undefined behaviour (a race): the model says
                          so with herd's `undefined_unless` */
} lc_flag;

/* Adds a pair to a flag (keeping `pairs` sorted and free of duplicates and
 * of mirror images) and raises it. */
void lc_flag_add_pair(lc_flag *f, int a, int b);
/* Is (a,b), or its mirror image, listed? */
bool lc_flag_has_pair(const lc_flag *f, int a, int b);

/* The answer to "can this hang?" under one progress model (term.h). */
typedef struct lc_term_answer {
  int progress;             /* lc_progress (progress.h) */
  int verdict;              /* lc_term_verdict (term.h) */
  char *witness;            /* for a possible hang, or NULL */
} lc_term_answer;

typedef struct lc_result {
  const lx_program *prog;   /* borrowed */
  lc_result_status status;
  char *message;            /* for UNKNOWN and ERROR */
  const char *engine;       /* "smt", "enum" */
  const char *model;        /* the model's name (borrowed) */

  size_t nshown;            /* values per state */
  lx_val *states;           /* nstates * nshown, sorted (lc_result_sort) */
  size_t nstates;

  lc_flag *flags;
  size_t nflags;
  bool bound_reached;       /* an execution needs more loop iterations than --unroll */
  /* With bound_reached: per path of prog, 1 when an allowed execution takes
   * that path cut by the bound (every path of a loop the warning names need
   * not be marked: one per loop suffices); NULL when not known. */
  unsigned char *cut_reached;
  bool ub_reached;          /* an allowed execution reaches undefined behaviour (lx_path.ub) */
  size_t ub_path;           /* with ub_reached: the path of prog such an execution takes */

  int termination;          /* lc_term_verdict (term.h); LC_TERM_NOT_ASKED unless --termination */
  char *termination_witness;/* a possible hang: who is stuck where, final memory; or NULL */
  /* --progress: the answer under each model asked, in lc_progress order
   * (the first is also termination / termination_witness above) */
  lc_term_answer *terms;
  size_t nterms;

  double seconds;           /* wall time of lowering and the engine */
  double seconds_lower;     /* of which: lowering (unrolling, static relations, values) */
  double seconds_encode;    /* of which: building the encoding (SMT) */
  double seconds_flags;     /*   the unroll-bound and flag queries */
  double seconds_states;    /*   listing the states */
  double seconds_termination; /* the termination question (lowering and engine) */
  size_t solver_checks;     /* satisfiability checks made (SMT) or candidates tried (enum) */
  double solver_work;       /* SMT: Z3's resource count ("rlimit count"), summed over its
                               solvers: the same on every run of one Z3 version; enum: the
                               model's values built and expressions walked (enum_model_work) */
  size_t termination_checks; /* the termination question's engine: its solver_checks
                               (tests/cost-guard.sh pins them) */
} lc_result;

/* A question about the allowed final states that need not list them all
 * (term.c asks "is there a hanging one?").  `state` sees each new state
 * (lc_result_state's layout) as an engine finds it; true ends the search,
 * and the result then holds the states found so far.  `frame` (NULL: every
 * combination) says whether a combination of paths, one per thread (path
 * indices), may give a state `state` cares about; an engine may skip one
 * it rejects, or ignore the hint, so `state` must answer alike either
 * way. */
typedef struct lc_state_hook {
  bool (*state)(void *ctx, const lx_val *state);
  bool (*frame)(void *ctx, const int *paths);
  /* A hint like `frame`, on a state some of whose values are known
   * (known[i]): false when no state agreeing with it matters to `state`.
   * NULL: every one may. */
  bool (*partial)(void *ctx, const lx_val *state, const bool *known);
  void *ctx;
  /* A hint like `frame` on the paths of threads from..nthreads-1 alone
   * (paths[from..]; the entries before are stale): false when no
   * combination with them matters.  NULL: any may. */
  bool (*suffix)(void *ctx, const int *paths, size_t from);
} lc_state_hook;

lc_result *lc_result_new(const lx_program *p, const char *engine, const char *model);
void lc_result_free(lc_result *r);
/* An allowed execution takes path (cut by the unroll bound): cut_reached. */
void lc_result_mark_cut(lc_result *r, size_t path);
void lc_result_add_state(lc_result *r, const lx_val *values);
/* Sorts states (value by value, numerically) and drops duplicates. */
void lc_result_sort(lc_result *r);
void lc_result_fail(lc_result *r, lc_result_status status, const char *fmt, ...) LC_PRINTF(3, 4);
const lx_val *lc_result_state(const lc_result *r, size_t i);

/* The verdict of the test's condition over the allowed states, herd-style:
 * positive = states satisfying the condition's proposition, negative = the
 * others; ok = the condition (exists / ~exists / forall) holds. */
typedef struct lc_verdict {
  size_t positive, negative;
  bool ok;
  bool unfinished;     /* no allowed execution finishes (no state at all): `ok` is
                          then only the vacuous answer over no states, which
                          --expect compares as herd and Dat3M give it */
} lc_verdict;

lc_verdict lc_result_verdict(const lc_result *r);
/* Does state i satisfy the condition's proposition? */
bool lc_result_state_positive(const lc_result *r, size_t i);

#endif
