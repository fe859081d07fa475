/* enum.h - the explicit engine: every candidate execution of a lowered
 * test, evaluated concretely with the model's exact bitset backend.
 * SPDX-License-Identifier: MIT
 *
 * The second engine beside smt_check.  It shares the lowering, the model
 * and the execution semantics of docs/model-language.md ("What every
 * engine guarantees about a candidate execution") with the SMT engine and
 * returns the same lc_result, so the two can be compared state for state.
 * Its job is cross-checking and speed on small tests.
 */
#ifndef ENUM_H
#define ENUM_H

#include "cat/cat.h"
#include "cat/cat_rel.h"
#include "exec/exec.h"
#include "result.h"
#include "witness.h"

typedef struct enum_options {
  double timeout;      /* seconds for the whole test; 0 = none */
  bool races;          /* evaluate the model's flags (default true) */
  bool no_prune;       /* evaluate every candidate in full: slow, for testing the pruning */
} enum_options;

/* Never returns NULL: failures are in the result's status and message. */
lc_result *enum_check(const lx_program *p, const cat_model *m, const enum_options *o);
/* The same, each new state shown to hook (result.h; NULL: none), whose
 * frame hint skips combinations of paths. */
lc_result *enum_check_hooked(const lx_program *p, const cat_model *m, const enum_options *o,
                             const lc_state_hook *hook);

/* The explainer's question (witness.h): a candidate execution giving
 * `target` (after the test's filter) that passes every check i with on[i]
 * (NULL: all).  Only o->timeout and o->no_prune are read. */
int enum_find(const lx_program *p, const cat_model *m, const enum_options *o, const bool *on,
              const lc_state *target, lc_witness **w, bool *failing, char **msg);
/* enum_find within max_nodes nodes of the search (0: no limit): -2
 * when they run out before an answer.  With cut_by (per model check),
 * sets cut_by[i] for each check i that cut a subtree (the first that
 * fails there, in file order) or rejected a complete candidate: a check
 * never set would, left out of `on`, leave the search and its answer
 * unchanged. */
int enum_find_bounded(const lx_program *p, const cat_model *m, const enum_options *o, size_t max_nodes,
                      bool *cut_by, const bool *on, const lc_state *target, lc_witness **w, bool *failing,
                      char **msg);
/* An allowed execution in which the flag called `flag` has the pair (a,b)
 * or (b,a) (event ids): 1 with *w, 0 when none, -1 with *msg. */
int enum_find_race(const lx_program *p, const cat_model *m, const enum_options *o, const char *flag, int a,
                   int b, lc_witness **w, char **msg);
lc_explainer enum_explainer(const lx_program *p, const cat_model *m, double timeout);

/* The model evaluated concretely on one execution, the judge of every
 * witness either engine finds.  Returns 0 and fills res (event ids as
 * frame indices: (*orig)[i] is the event id of frame index i, free both);
 * -1 with *msg when w is not a candidate execution of p (a read value
 * that does not match its source, a path condition that fails). */
int enum_eval_witness(const lx_program *p, const cat_model *m, const lc_witness *w,
                      cat_rel_result *res, int **orig, char **msg);

#endif
