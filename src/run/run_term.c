/* run_term.c - termination as the runner sees it: which tests can block,
 * and the report lines of instances that did not end.
 * SPDX-License-Identifier: MIT
 *
 * An instance that does not end is *hung* when the backend proved it can
 * never end (host: every thread finished, blocked at a barrier that cannot
 * be released, or spinning while nobody writes), and *cut* when it was
 * stopped without such a proof (--spin-limit, the watchdog).  Only a hung
 * instance says something about the test; a hung instance of a test the
 * model says always terminates is reported like a forbidden outcome.
 */
#include "run/run_term.h"

#include <assert.h>
#include <inttypes.h>
#include <string.h>

#include "term.h"

static bool is_label_above(const lt_thread *th, size_t cell, const char *label) {
  for (size_t j = 0; j <= cell; j++)
    if (th->cells[j].label && strcmp(th->cells[j].label, label) == 0) return true;
  return false;
}

bool run_test_can_block(const lt_test *t) {
  assert(t);
  for (size_t i = 0; i < t->nthreads; i++) {
    const lt_thread *th = &t->threads[i];
    for (size_t c = 0; c < th->ncells; c++) {
      const lt_instr *in = th->cells[c].instr;
      if (!in) continue;
      if (in->kind == LT_I_BAR) return true;
      if ((in->kind == LT_I_BRANCH || in->kind == LT_I_GOTO) && in->label && is_label_above(th, c, in->label))
        return true;
    }
  }
  return false;
}

static const char *plural(uint64_t n) { return n == 1 ? "" : "s"; }

void run_term_headline(lc_buf *out, const run_result *r, const char *unit) {
  assert(out && r && unit);
  uint64_t n = run_unexpected_hangs(r);
  if (!n) return;
  lc_buf_printf(out, "!!! %s: %s hung in %" PRIu64 " instance%s, but %s says the test always terminates\n",
                r->prog->test->name, unit, n, plural(n),
                r->model && r->model->model ? r->model->model : "the model");
}

static const char *model_says(const run_result *r) {
  switch (r->termination) {
  case LC_TERM_TERMINATES:
    return r->model && r->model->nstates == 0 ? "the model allows no run of it at all"
                                                : "the model says it always terminates";
  case LC_TERM_MAY_HANG: return "the model says it may hang";
  case LC_TERM_UNKNOWN: return "the model cannot tell whether it terminates";
  default: return NULL;
  }
}

void run_term_lines(lc_buf *out, const run_result *r) {
  assert(out && r);
  const char *name = r->prog->test->name;
  uint64_t cut = r->incomplete - r->hung;
  const char *says = model_says(r);
  if (r->hung)
    lc_buf_printf(out, "Hung %s %" PRIu64 " (instances that could never end: a deadlock at a barrier or loops "
                  "spinning while nobody writes; not in the histogram)%s%s\n", name, r->hung, says ? "; " : "",
                  says ? says : "");
  if (cut)
    lc_buf_printf(out, "Cut %s %" PRIu64 " (instances stopped at --spin-limit %u or after --watchdog %g s; not in "
                  "the histogram)\n", name, cut, r->params.spin_limit, r->params.watchdog);
  if (r->halted)
    lc_buf_printf(out, "Halted %s: cut instances spun for %g watchdogs in all; the run stopped early\n", name,
                  RUN_WATCHDOG_BUDGET);
  if (!says) return;
  lc_buf_printf(out, "Termination %s %s", name, lc_term_name((lc_term_verdict)r->termination));
  if (r->termination_witness) lc_buf_printf(out, ": %s", r->termination_witness);
  lc_buf_putc(out, '\n');
}
