/* unroll_hint.c - the --unroll that explores every execution the model
 * allows, found by checking again with larger bounds.
 * SPDX-License-Identifier: MIT
 *
 * Why search rather than ask the engines: an execution cut by the bound
 * says that it needs more iterations, not how many; only a check at a
 * larger bound that finds no execution past it proves that bound enough.
 * A loop whose exit depends on a value read may iterate without end (each
 * iteration may read the same write), so no bound ever covers it: the
 * search then stops after a few steps or at its time budget and says which.
 */
#include "unroll_hint.h"

#include <assert.h>

#include "litmus/ast.h"
#include "term.h"

enum { MAX_UNROLL = 64 };   /* the largest --unroll the CLIs accept */

lc_unroll_hint lc_unroll_cover(const lt_test *t, const cat_model *m, const lc_check_options *o, unsigned from,
                               double start) {
  assert(t && m && o && from > 0);
  lc_unroll_hint h = {from, 0, from, false};
  double deadline = o->timeout > 0 ? start + o->timeout : lc_now() + LC_UNROLL_HINT_SECONDS;
  for (unsigned k = from + 1; k <= from + LC_UNROLL_HINT_STEPS && k <= MAX_UNROLL; k++) {
    double left = deadline - lc_now();
    if (left <= 0) {
      h.stopped = true;
      break;
    }
    lc_check_options q = *o;
    /* the engines agree on whether an execution needs more iterations;
     * the explicit one keeps to its deadline, where Z3 may overrun it
     * taking in a large encoding (afp-2t3i-11 at --unroll 4: minutes
     * against 0.4 s) */
    q.engine = LC_ENGINE_ENUM;
    q.unroll = k;
    q.races = false;
    q.termination = false;
    q.cut_loops = false;   /* whether an execution needs more iterations, not which loops */
    q.progress = 0;
    q.timeout = left;
    lc_diag d;
    lc_diag_init(&d, NULL, NULL);   /* its warnings were given at the first bound */
    lx_program *p = NULL;
    lc_result *r = lc_check_test(t, m, &q, &p, &d);
    lc_diag_fini(&d);
    bool done = r && r->status == LC_RESULT_OK;
    bool reached = !done || r->bound_reached;
    lc_result_free(r);
    lx_program_free(p);
    if (!done) {
      h.stopped = true;
      break;
    }
    h.tried = k;
    if (!reached) {
      h.covers = k;
      break;
    }
  }
  return h;
}

/* No bound covers a loop whose exit waits for a value: the model lets
 * each read return the same (stale) value any finite number of times.
 * That is not a hang: whether a loop may spin for ever is the question
 * of fair scheduling (--termination, docs/termination.md), which MP's
 * flag loop passes although no bound covers it. */
void lc_unroll_hint_text(lc_buf *b, const lc_unroll_hint *h, int termination) {
  assert(b && h);
  if (h->covers) {
    lc_buf_printf(b, "--unroll %u explores them all", h->covers);
  } else if (h->tried > h->from && h->stopped) {
    lc_buf_printf(b, "even --unroll %u leaves some unexplored (larger ones could not be checked)", h->tried);
  } else if (h->tried > h->from) {
    lc_buf_printf(b, "even --unroll %u leaves some unexplored: the model lets a loop iterate any number of times "
                     "(a read may see the same value again and again), ", h->tried);
    switch (termination) {
    case LC_TERM_TERMINATES:
      lc_buf_puts(b, "yet under fair scheduling every execution ends (Termination: terminates)");
      break;
    case LC_TERM_MAY_HANG: lc_buf_puts(b, "and under fair scheduling one may spin for ever (Termination: may not terminate)"); break;
    case LC_TERM_UNKNOWN: lc_buf_puts(b, "and whether one may spin for ever is not decided (Termination: unknown)"); break;
    default: lc_buf_puts(b, "which is no hang: --termination asks whether one may spin for ever"); break;
    }
  } else {
    lc_buf_printf(b, "--unroll %u explores one more iteration", h->from + 1);
  }
}

/* p has something to wait at: a loop (cut by the bound, or a spin's
 * retry), a barrier, an mbarrier's test, or a thread stopped for a
 * scheduler.  Without one, no execution is one that waits: an empty set
 * of states is the model's checks forbidding every execution (a foreign
 * model, or one forbidding an RMW, does so). */
bool lc_some_path_waits(const lx_program *p) {
  if (p->spun) return true;
  for (size_t i = 0; i < p->npaths; i++)
    if (p->paths[i].cut || p->paths[i].blocked || p->paths[i].paused || p->paths[i].retry) return true;
  for (size_t i = 0; i < p->nevents; i++) {
    const lx_event *e = &p->events[i];
    if (e->kind == LX_EV_BAR_ARRIVE || e->kind == LX_EV_BAR_WAIT || lx_has(e, LX_T_MB)) return true;
  }
  return false;
}

void lc_unfinished_text(lc_buf *b, const lc_result *r) {
  assert(b && r && r->prog);
  if (r->bound_reached) {
    lc_buf_printf(b, "no execution finishes within --unroll %u: every one needs more loop iterations (", r->prog->unroll);
    lc_unroll_cut_loops(b, r->prog, r);
    lc_buf_printf(b, "); %s whether a loop may spin for ever, a larger --unroll explores longer executions",
                  r->termination == LC_TERM_NOT_ASKED ? "--termination asks" : "the Termination line says");
  } else if (!lc_some_path_waits(r->prog)) {
    /* every path runs to its end: nothing waits, the model forbids them */
    lc_buf_printf(b, "no execution is allowed: every candidate execution fails one of the model's checks%s",
                  r->prog->test->filter ? " or the test's filter" : "");
  } else {
    lc_buf_printf(b, "no execution finishes, whatever the bound: every one waits for ever (%s)",
                  r->termination == LC_TERM_NOT_ASKED ? "--termination says where" : "the Hang line says where");
  }
}

/* Path k is cut at the same loop as path. */
static bool same_loop(const lx_path *a, const lx_path *b) {
  return a->cut && b->cut && a->thread == b->thread && a->cut_at.line == b->cut_at.line && a->cut_at.col == b->cut_at.col;
}

void lc_unroll_cut_loops(lc_buf *b, const lx_program *p, const lc_result *r) {
  assert(b && p);
  const unsigned char *reached = r && r->prog == p ? r->cut_reached : NULL;
  size_t n = 0;
  for (size_t i = 0; i < p->npaths; i++) {
    const lx_path *path = &p->paths[i];
    bool seen = !path->cut || path->ub;
    if (!seen && reached) {   /* a loop no allowed execution needs more of */
      bool needed = false;
      for (size_t k = 0; k < p->npaths && !needed; k++) needed = reached[k] && same_loop(&p->paths[k], path);
      seen = !needed;
    }
    for (size_t k = 0; k < i && !seen; k++) seen = same_loop(&p->paths[k], path);
    if (seen) continue;
    lc_buf_printf(b, "%sP%d loop %s (line %d)", n++ ? ", " : "", p->threads[path->thread].id,
                  path->loop_label ? path->loop_label : "?", path->cut_at.line);
  }
}
