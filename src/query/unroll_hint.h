/* unroll_hint.h - which --unroll explores every execution the model
 * allows: the hint of litmus-check's warning about the loop bound.
 * SPDX-License-Identifier: MIT
 */
#ifndef LC_UNROLL_HINT_H
#define LC_UNROLL_HINT_H

#include "check.h"

/* Bounds tried above the one given, at most; and the time they may take
 * when no --timeout is given. */
enum { LC_UNROLL_HINT_STEPS = 4 };
#define LC_UNROLL_HINT_SECONDS 2.0

typedef struct lc_unroll_hint {
  unsigned from;        /* the bound that was reached */
  unsigned covers;      /* the smallest bound at which no allowed execution needs more, 0 if none tried */
  unsigned tried;       /* the largest bound checked (from: none) */
  bool stopped;         /* the search stopped before its last step: out of time, or
                           the lowering gave up (too many paths) */
} lc_unroll_hint;

/* Checks t again at from + 1, from + 2, ... up to from +
 * LC_UNROLL_HINT_STEPS (and LX_MAX_UNROLL), until a bound reaches no
 * allowed execution beyond it, while there is time: what is left of
 * o->timeout since `start`, else LC_UNROLL_HINT_SECONDS.  Sound: a bound
 * is said to cover only when the engine found no execution past it. */
lc_unroll_hint lc_unroll_cover(const lt_test *t, const cat_model *m, const lc_check_options *o, unsigned from,
                               double start);

/* The end of the warning: "--unroll 4 explores them all", "even
 * --unroll 6 leaves some unexplored: the model lets a loop iterate any
 * number of times ..." (or "... (larger ones could not be checked)"), or,
 * when nothing could be tried, "--unroll 3 explores one more iteration".
 * `termination` (an lc_term_verdict, LC_TERM_NOT_ASKED when the question
 * was not asked) is the answer under fair scheduling, which the text
 * tells apart from the bound's: a loop may take any number of iterations
 * and still end in every fair execution. */
void lc_unroll_hint_text(lc_buf *b, const lc_unroll_hint *h, int termination);

/* Why a checked test has no state (lc_verdict.unfinished), for reports:
 * "no execution finishes within --unroll 2: every one needs more loop
 * iterations (P0 loop L0 (line 10)); ..." or, when no bound was reached,
 * "no execution finishes: every one waits for ever ...". */
void lc_unfinished_text(lc_buf *b, const lc_result *r);
/* p has a loop, a barrier or an mbarrier test to wait at: without one,
 * no state means the model forbids every execution, not that all wait. */
bool lc_some_path_waits(const lx_program *p);

/* The loops the unroll bound cut in p that an allowed execution of r
 * needs more iterations of (r->cut_reached; every cut loop when r is NULL
 * or does not know), as "P1 loop L0 (line 9)", once each, separated by ", ". */
void lc_unroll_cut_loops(lc_buf *b, const lx_program *p, const lc_result *r);

#endif
