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
#include "exec/exec.h"
#include "result.h"

typedef struct enum_options {
  double timeout;      /* seconds for the whole test; 0 = none */
  bool races;          /* evaluate the model's flags (default true) */
  bool no_prune;       /* evaluate every candidate in full: slow, for testing the pruning */
} enum_options;

/* Never returns NULL: failures are in the result's status and message. */
lc_result *enum_check(const lx_program *p, const cat_model *m, const enum_options *o);

#endif
