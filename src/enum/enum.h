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
  bool cut_loops;      /* find every loop an allowed execution takes past the unroll bound
                          (lc_result.cut_reached, for the warning); else one such
                          execution is enough (bound_reached) */
} enum_options;

/* The most threads (or CTAs) of one class of twins in p: identical code
 * and registers, one CTA (or twin CTAs), which the explicit engine
 * searches once (docs/explicit-engine.md, "Twin threads"); 1 when none. */
size_t enum_twins_largest(const lx_program *p);
/* log2 of the swaps of twins the explicit engine searches up to: the sum
 * of log2(k!) over the classes of k twin threads and of k twin CTAs; 0
 * when none. */
double enum_twins_log2(const lx_program *p);

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
/* Where a search for a state cut its tree, for the explainer.  `sets`
 * holds the sets of checks (bit i: the model's check i) failing at each
 * place the search cut a subtree or rejected a candidate, kept minimal
 * (none a superset of another).  When the search finds no execution,
 * every candidate giving the state lies below one of those places, and
 * fails every check of its set: so a set of checks meeting each of
 * `sets` rules the state out, and a check c fails alone in some
 * candidate only if {c} is one of them.  `alone[c]` is the first place
 * where c failed alone, a good start for finding such a candidate.
 * Unusable (usable false) for a model of more than 64 checks. */
typedef struct enum_place {
  int *paths;               /* per thread; NULL: no place */
  int *rf;                  /* per event id: the source chosen there, or -1 */
} enum_place;

typedef struct enum_cuts {
  bool usable;
  LC_VEC(uint64_t) sets;
  enum_place *alone;        /* per model check */
  size_t nchecks;
} enum_cuts;

void enum_cuts_init(enum_cuts *c, const cat_model *m);
void enum_cuts_fini(enum_cuts *c);
/* Does the set (bits over the model's checks) meet every set of c? */
bool enum_cuts_met_by(const enum_cuts *c, uint64_t set);
/* The explainer's question with more control: within max_nodes nodes
 * (0: no limit; -2 when they run out before an answer), what cut the
 * search in *cuts (when not NULL; only meaningful when the answer is 0),
 * and only among the candidates extending *within (NULL: all). */
typedef struct enum_query {
  const bool *on;           /* the checks that count; NULL: all */
  const lc_state *target;
  size_t max_nodes;
  enum_cuts *cuts;
  const enum_place *within;
  size_t *nodes;            /* when not NULL, the nodes searched are added to it */
  bool *incomplete;         /* when not NULL, set when a "no" may be wrong: values
                               guessed around a cycle of dependencies may have
                               missed one out of thin air that gives the target */
} enum_query;
int enum_find_query(const lx_program *p, const cat_model *m, const enum_options *o, const enum_query *q,
                    lc_witness **w, bool *failing, char **msg);
/* An allowed execution in which the flag called `flag` has the pair (a,b)
 * or (b,a) (event ids): 1 with *w, 0 when none, -1 with *msg. */
int enum_find_race(const lx_program *p, const cat_model *m, const enum_options *o, const char *flag, int a,
                   int b, lc_witness **w, char **msg);
/* Every allowed execution giving `target` (after the test's filter; NULL:
 * any state), each shown to each (borrowed; false stops the search), as
 * the explainer's search finds them, among the executions that take no
 * path cut by the unroll bound.  An execution is a candidate with its
 * paths, rf, co, the Fence-SC order and sync_bar, where co and sc may be
 * partial orders the model allows (docs/model-language.md); one whose
 * final state co leaves open is shown once per final state.
 * *incomplete (when not NULL): values guessed around a cycle of
 * dependencies may have missed some out of thin air.  Returns 0, or -1
 * with *msg (the time limit of o->timeout, an error). */
int enum_each_execution(const lx_program *p, const cat_model *m, const enum_options *o, const lc_state *target,
                        bool (*each)(void *ctx, const lc_witness *w), void *ctx, bool *incomplete, char **msg);
/* The values of the model's definitions vals[0..n) (cat_model_relations)
 * in the execution w, as relations over event ids (new, in out[i]).
 * Returns 0, or -1 with *msg. */
int enum_eval_relations(const lx_program *p, const cat_model *m, const lc_witness *w, const size_t *vals, size_t n,
                        rel_rel **out, char **msg);
lc_explainer enum_explainer(const lx_program *p, const cat_model *m, double timeout);
/* Does `on` (as in enum_find; NULL: all) count no check?  The question
 * "a candidate at all" whose "no" an incomplete search must not give. */
bool enum_counts_none(const cat_model *m, const bool *on);

/* The model evaluated concretely on one execution, the judge of every
 * witness either engine finds.  Returns 0 and fills res (event ids as
 * frame indices: (*orig)[i] is the event id of frame index i, free both);
 * -1 with *msg when w is not a candidate execution of p (a read value
 * that does not match its source, a path condition that fails). */
int enum_eval_witness(const lx_program *p, const cat_model *m, const lc_witness *w,
                      cat_rel_result *res, int **orig, char **msg);
/* The failure `failed` of check number `check` (an enum_eval_witness
 * result for w) derived in the model's relations (cat_rel_derive), events
 * as frame indices (the orig of enum_eval_witness).  0, or -1 with *msg. */
int enum_derive_witness(const lx_program *p, const cat_model *m, const lc_witness *w, size_t check,
                        const cat_rel_check *failed, cat_derivation *out, char **msg);
/* The model's relation (or builtin) `name` in w, over event ids (new), or
 * NULL with *msg: what re-checks a derivation's steps. */
rel_rel *enum_witness_relation(const lx_program *p, const cat_model *m, const lc_witness *w, const char *name,
                               char **msg);

#endif
