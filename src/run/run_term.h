/* run_term.h - what the runner asks and says about termination: whether a
 * test can block at all, and the lines a run's report gives its hung and
 * cut instances (docs/termination.md, "litmus-run").
 * SPDX-License-Identifier: MIT
 */
#ifndef RUN_TERM_H
#define RUN_TERM_H

#include "litmus/ast.h"
#include "run/run.h"

/* Whether some thread of t has a loop (a jump back to a label at or above
 * it) or a CTA barrier: only such a test can hang, so only such a test
 * costs the model a termination check before it runs.  A C++ test's code
 * is compiled to cells only when lowered: false here (litmus-run asks the
 * lowered program, whose loops the unroll bound cut). */
bool run_test_can_block(const lt_test *t);

/* The "!!!" line of instances that hung although the model says the test
 * always terminates; nothing when there are none. */
void run_term_headline(lc_buf *out, const run_result *r, const char *unit);

/* The Hung, Cut and Termination lines of the text report. */
void run_term_lines(lc_buf *out, const run_result *r);

#endif
