/* term.h - "can this test hang?" (docs/termination.md).
 * SPDX-License-Identifier: MIT
 */
#ifndef LC_TERM_H
#define LC_TERM_H

#include "check.h"
#include "progress.h"

typedef enum {
  LC_TERM_NOT_ASKED,
  LC_TERM_TERMINATES,     /* every allowed fair run finishes */
  LC_TERM_MAY_HANG,       /* some allowed fair run has a thread stuck forever */
  LC_TERM_UNKNOWN         /* only side-effectful spinning could hang, or no answer in time */
} lc_term_verdict;

/* "terminates", "may not terminate", "unknown". */
const char *lc_term_name(lc_term_verdict v);

/* Lowers t once more for the question and asks the engine o names, with
 * what is left of o->timeout since `start`; the verdict goes to
 * into->termination and, for a possible hang, a one-line witness (who is
 * stuck where, what the last iteration read, the final memory) to
 * into->termination_witness.  When the engine gives no answer (out of
 * time, an error) and found no hang, `into` fails with its reason, as
 * when the listing itself gives none.  into->termination_checks gains the
 * engine's checks. */
void lc_check_termination(const lt_test *t, const cat_model *m, const lc_check_options *o, double start,
                          lc_result *into, lc_diag *d);

/* The question under every model in `models` (a set of 1u << lc_progress)
 * at once: one lowering (with paused paths when a model other than fair is
 * asked) and one listing of states.  Fills ans[] in lc_progress order and
 * returns how many it filled; the caller frees the witnesses.  *checks
 * (when not NULL) gains the engine's checks. */
size_t lc_check_progress(const lt_test *t, const cat_model *m, const lc_check_options *o, double start,
                         unsigned models, lc_term_answer *ans, size_t *checks, lc_diag *d);

#endif
