/* mutants.h - running a test's weakened twins and scoring them (litmus-run
 * --mutants): the fraction of mutants whose weak outcome the runner showed
 * says how much its "never observed" on the original is worth.
 * SPDX-License-Identifier: MIT
 */
#ifndef RUN_MUTANTS_H
#define RUN_MUTANTS_H

#include <jansson.h>

#include "check.h"
#include "run/run.h"

/* Runs one mutant on the backend: fills rr (initialised for prog), returns
 * its status as the backends do. */
typedef run_status (*run_mutant_fn)(void *ctx, const lx_program *prog, const lc_result *allowed, run_result *rr);

typedef struct run_mutant_score {
  size_t total;             /* mutants whose weak outcome the model allows, run */
  size_t observed;          /* of those: the weak outcome was seen */
} run_mutant_score;

/* For a test whose condition is ~exists P: makes its mutants
 * (gen_mutants_of), keeps those where the model allows a state satisfying
 * P, runs each with fn, and reports them to text (a block) and *json (an
 * object, caller owns).  Adds to *score.  Returns the worst status of the
 * mutants' runs (forbidden outcomes of a mutant do not count). */
run_status run_mutants(const lt_test *t, const lc_source *src, const cat_model *m, const lc_check_options *co,
                       run_mutant_fn fn, void *ctx, lc_buf *text, json_t **json, run_mutant_score *score);

#endif
