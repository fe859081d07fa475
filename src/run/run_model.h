/* run_model.h - the model phase of litmus-run: a test's allowed states
 * (and whether it can hang) before it runs, bounded by --timeout.
 * SPDX-License-Identifier: MIT
 *
 * The engines watch their deadline, but Z3 does not interrupt its intake
 * of a large encoding, so with a timeout the engine runs in a child
 * process (isolate.h) that the parent kills at lc_iso_hard_limit of the
 * timeout; the result comes back whole over the pipe, as JSON.  Lowering
 * stays in the parent (it watches its deadline and the run needs its
 * program), and the child, a fork made after it, has that program already.
 */
#ifndef RUN_MODEL_H
#define RUN_MODEL_H

#include "check.h"
#include "unroll_hint.h"

/* What a check killed at the hard bound says: the phase it was in is not
 * known, as in litmus-check. */
#define RUN_MODEL_KILLED "out of time (--timeout %g s); no verdict"

/* As lc_check_test, then, with cut_termination and when the test did not
 * ask it already (o->termination), the termination question for a test
 * whose loops the unroll bound cut (a C++ test's show only once lowered).
 * With `hint` (NULL: none), when the result is OK and reached the unroll
 * bound, the --unroll that explores every execution goes to *hint
 * (lc_unroll_cover, with a timeout of its own, as in litmus-run before).
 * With o->timeout > 0 all that runs in a child process killed at the hard
 * bound, the hint's search at a bound of its own: a check killed is
 * UNKNOWN with RUN_MODEL_KILLED's message (a crash: ERROR); a search
 * killed leaves the hint of one that could try nothing.  The caller must
 * be single-threaded then, as lc_isolate_run requires. */
lc_result *run_model_check(const lt_test *t, const cat_model *m, const lc_check_options *o, bool cut_termination,
                           lc_unroll_hint *hint, lx_program **prog, lc_diag *d);

/* The result as one JSON text, and back (the parent's program p and model
 * m give what a result borrows); NULL when the text is not such a result.
 * Exposed for the unit tests. */
char *run_model_result_dump(const lc_result *r);
lc_result *run_model_result_load(const char *text, const lx_program *p, const cat_model *m);

#endif
