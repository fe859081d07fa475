/* check_test.c - one test through lowering, the engine (check.c) and,
 * when asked, the termination question (term.c).
 * SPDX-License-Identifier: MIT
 *
 * Apart from check.c because the termination question itself asks the
 * engines of check.c: the test asks both, and neither asks it.
 */
#include "check.h"

#include <assert.h>

#include "term.h"

lx_program *lc_lower_test(const lt_test *t, const lc_check_options *o, bool spin_reduce, double start, lc_diag *d) {
  assert(t && o && d);
  lx_options lo = {o->unroll ? o->unroll : LX_DEFAULT_UNROLL, LX_DEFAULT_MAX_PATHS,
                   o->timeout > 0 ? start + o->timeout : 0, false, o->timeout, o->max_memory};
  return lx_lower_spin(t, &lo, spin_reduce, d);
}

lc_result *lc_check_lowered(const lt_test *t, const lx_program *p, const cat_model *m, const lc_check_options *o,
                            double start, lc_diag *d) {
  assert(t && p && m && o && d);
  lc_result *r = lc_check_program(p, m, o, start);
  /* an execution with undefined behaviour leaves nothing to ask */
  if (r->status == LC_RESULT_OK && o->termination && !r->ub_reached) {
    double t0 = lc_now();
    if (o->progress) {
      r->terms = lc_xcalloc(LC_NPROGRESS, sizeof *r->terms);
      r->nterms = lc_check_progress(t, m, o, start, o->progress, r->terms, &r->termination_checks, d);
      r->termination = r->terms[0].verdict;
      r->termination_witness = r->terms[0].witness ? lc_xstrdup(r->terms[0].witness) : NULL;
    } else {
      lc_check_termination(t, m, o, start, r, d);
    }
    r->seconds_termination = lc_now() - t0;
    r->seconds += r->seconds_termination;
  }
  return r;
}

/* --timeout bounds the whole test: lowering gets the deadline, the engine
 * what lowering left of it. */
lc_result *lc_check_test(const lt_test *t, const cat_model *m, const lc_check_options *o,
                         lx_program **prog, lc_diag *d) {
  assert(t && m && o && prog && d);
  double start = lc_now();
  lx_program *p = lc_lower_test(t, o, lc_spin_reduce(m, o), start, d);
  *prog = p;
  if (!p) return NULL;
  if (o->lowered) o->lowered(o->lowered_ctx, p);
  double lowered = lc_now() - start;
  lc_result *r = lc_check_lowered(t, p, m, o, start, d);
  r->seconds_lower = lowered;
  r->seconds += lowered;
  return r;
}
