/* smt.h - the SMT engine: every allowed final state of a lowered test
 * under a cat model, through Z3's C API.
 * SPDX-License-Identifier: MIT
 */
#ifndef SMT_H
#define SMT_H

#include "cat/cat.h"
#include "exec/exec.h"
#include "result.h"
#include "witness.h"

typedef struct smt_options {
  double timeout;      /* seconds for the whole test; 0 = none */
  bool races;          /* evaluate the model's flags (default true) */
  unsigned threads;    /* split the listing of states among threads (0, 1: no) */
  bool cut_loops;      /* as enum_options.cut_loops */
} smt_options;

/* Never returns NULL: failures are in the result's status and message. */
lc_result *smt_check(const lx_program *p, const cat_model *m, const smt_options *o);
/* The same, each new state shown to hook (result.h; NULL: none) as the
 * listing finds it; the listing then runs in one thread, and the frame
 * hint is not used. */
lc_result *smt_check_hooked(const lx_program *p, const cat_model *m, const smt_options *o,
                            const lc_state_hook *hook);

/* The explainer's question (witness.h) answered by Z3: one encoding for
 * every question about p, each named check behind an assumption literal.
 * `timeout` is per question (seconds, 0: none). */
lc_explainer smt_explainer(const lx_program *p, const cat_model *m, double timeout);
/* With an explainer smt_explainer made: an allowed execution (every
 * named check holds) in which the flag called `flag` has the pair (a,b)
 * or (b,a) (event ids): 1 with *w, 0 when none, -1 with *msg. */
int smt_find_race(lc_explainer *ex, const char *flag, int a, int b, lc_witness **w, char **msg);

#endif
