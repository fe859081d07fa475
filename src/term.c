/* term.c - "can this test hang?" under fair scheduling (docs/termination.md).
 * SPDX-License-Identifier: MIT
 *
 * The program is lowered with blocking barriers and rewritten by
 * lx_term_prepare so that its final states say, per thread, which path
 * ran, whether the last iteration of a cut loop left the registers as it
 * found them, and what that iteration read; and the final memory.  A state
 * in which every thread finished or is stuck, one at least stuck, is an
 * allowed run that hangs: a spinning thread is stuck when its last
 * iteration wrote nothing, changed no register and read the values memory
 * ends with (memory fairness: later iterations read the same and spin
 * again); a thread blocked at a barrier is stuck because the engines only
 * allow such a path when the barrier's quorum cannot be met.
 *
 * The question is one of existence, so the states are not listed: the
 * engine shows each state to judge_state as it finds it (lc_state_hook)
 * and stops at the first that hangs, and skips the combinations of paths
 * that cannot give one (frame_matters: every thread finished, or, once a
 * side-effectful spin was seen, one with such a spin) and the choices of
 * sources that cannot (partial_matters: a spinning thread whose last
 * iteration changed a register).  judge_state is
 * the criterion, one state at a time; a progress model varies it (and
 * frame_matters with it, which must only skip combinations whose every
 * state judge_state would pass over).
 */
#include "term.h"

#include <stdlib.h>
#include <string.h>

const char *lc_term_name(lc_term_verdict v) {
  switch (v) {
  case LC_TERM_TERMINATES: return "terminates";
  case LC_TERM_MAY_HANG: return "may not terminate";
  case LC_TERM_UNKNOWN: return "unknown";
  default: return "";
  }
}

typedef enum { T_FINISHED, T_STUCK, T_EFFECTS, T_PROGRESS } thread_state;

typedef struct term_ctx {
  const lx_program *p;
  const lx_term_slots *slots;
  size_t loc_obs;
  bool effects;             /* a state with only side-effectful spinning was seen */
  char *witness;            /* the first hanging state's, once found */
} term_ctx;

static const lx_path *state_path(const term_ctx *c, const lx_val *st, size_t t) {
  return &c->p->paths[st[c->slots[t].obs]];
}

static thread_state classify(const term_ctx *c, const lx_val *st, size_t t) {
  const lx_path *path = state_path(c, st, t);
  switch (lx_term_path_kind(c->p, path)) {
  case LX_TERM_FINISHED: return T_FINISHED;
  case LX_TERM_BLOCKED: return T_STUCK;
  case LX_TERM_EFFECTS: return T_EFFECTS;
  case LX_TERM_SPIN: break;
  }
  if (st[c->slots[t].obs + 1] != 0) return T_PROGRESS;
  int reads[256];
  size_t n = lx_term_iter_reads(c->p, path, NULL);
  if (n > LC_ARRAY_LEN(reads)) return T_EFFECTS;   /* too long to inspect: no claim either way */
  lx_term_iter_reads(c->p, path, reads);
  for (size_t i = 0; i < n; i++) {
    const lx_event *r = &c->p->events[reads[i]];
    if (st[c->slots[t].obs + 2 + i] != st[c->loc_obs + (size_t)r->ploc]) return T_PROGRESS;
  }
  return T_STUCK;
}

static void describe_thread(lc_buf *b, const term_ctx *c, const lx_val *st, size_t t) {
  const lx_program *p = c->p;
  const lx_path *path = state_path(c, st, t);
  int id = p->threads[t].id;
  if (path->blocked) {
    const lx_event *w = &p->events[path->events[path->nevents - 1]];
    lc_buf_printf(b, "P%d waits forever at barrier %d (line %d)", id, w->bar_n, w->at.line);
    return;
  }
  if (lx_term_path_kind(p, path) == LX_TERM_FINISHED) {
    lc_buf_printf(b, "P%d finished", id);
    return;
  }
  lc_buf_printf(b, "P%d spins in the loop back to %s (line %d), its last iteration reading",
                id, path->loop_label ? path->loop_label : "?", path->cut_at.line);
  int reads[256];
  size_t n = lx_term_iter_reads(p, path, NULL);
  if (n > LC_ARRAY_LEN(reads)) n = 0;
  lx_term_iter_reads(p, path, n ? reads : NULL);
  for (size_t i = 0; i < n; i++) {
    const lx_event *r = &p->events[reads[i]];
    lc_buf_printf(b, "%s %s=", i ? "," : "", p->locs[r->vloc].name);
    lx_print_value(b, p, st[c->slots[t].obs + 2 + i]);
  }
  if (!n) lc_buf_puts(b, " nothing");
}

static char *witness_text(const term_ctx *c, const lx_val *st) {
  lc_buf b;
  lc_buf_init(&b);
  for (size_t t = 0; t < c->p->nthreads; t++) {
    lc_buf_puts(&b, t ? "; " : "");
    describe_thread(&b, c, st, t);
  }
  lc_buf_puts(&b, "; final memory:");
  for (size_t l = 0; l < c->p->nplocs; l++) {
    lc_buf_printf(&b, " %s=", c->p->plocs[l].name);
    lx_print_value(&b, c->p, st[c->loc_obs + l]);
    lc_buf_puts(&b, l + 1 < c->p->nplocs ? "," : "");
  }
  char *s = lc_buf_take(&b);
  lc_buf_fini(&b);
  return s;
}

typedef enum { S_RUNS, S_EFFECTS, S_HANGS } state_verdict;

/* The criterion on one final state: it hangs when every thread finished
 * or is stuck and one at least is stuck; with a thread spinning with side
 * effects instead (and none making progress) it says nothing either way. */
static state_verdict judge_state(const term_ctx *c, const lx_val *st) {
  size_t stuck = 0, eff = 0, progress = 0;
  for (size_t t = 0; t < c->p->nthreads; t++) {
    thread_state s = classify(c, st, t);
    stuck += s == T_STUCK;
    eff += s == T_EFFECTS;
    progress += s == T_PROGRESS;
  }
  if (progress) return S_RUNS;
  if (eff) return S_EFFECTS;
  return stuck ? S_HANGS : S_RUNS;
}

static bool on_state(void *ctx, const lx_val *st) {
  term_ctx *c = ctx;
  switch (judge_state(c, st)) {
  case S_RUNS: return false;
  case S_EFFECTS: c->effects = true; return false;
  case S_HANGS: break;
  }
  c->witness = witness_text(c, st);
  return true;
}

/* Can a state of these paths (one per thread) be judged S_HANGS, or be
 * the first S_EFFECTS?  Not when every thread finished (judge_state says
 * S_RUNS), nor, once S_EFFECTS was seen, when some thread spins with side
 * effects (S_EFFECTS or S_RUNS). */
static bool frame_matters(void *ctx, const int *paths) {
  const term_ctx *c = ctx;
  bool open = false;
  for (size_t t = 0; t < c->p->nthreads; t++) {
    lx_term_kind k = lx_term_path_kind(c->p, &c->p->paths[paths[t]]);
    if (k == LX_TERM_EFFECTS && c->effects) return false;
    open |= k != LX_TERM_FINISHED;
  }
  return open;
}

/* The same on a state some of whose values are known: a thread whose
 * last iteration changed a register makes progress (judge_state says
 * S_RUNS whatever the rest), and once S_EFFECTS was seen a thread
 * spinning with side effects settles nothing either.  The explicit engine
 * asks as soon as the reads of the change register have their sources,
 * before co is chosen. */
static bool partial_matters(void *ctx, const lx_val *st, const bool *known) {
  const term_ctx *c = ctx;
  for (size_t t = 0; t < c->p->nthreads; t++) {
    size_t o = c->slots[t].obs;
    if (!known[o]) continue;
    lx_term_kind k = lx_term_path_kind(c->p, &c->p->paths[st[o]]);
    if (k == LX_TERM_EFFECTS && c->effects) return false;
    if (k == LX_TERM_SPIN && known[o + 1] && st[o + 1] != 0) return false;
  }
  return true;
}

void lc_check_termination(const lt_test *t, const cat_model *m, const lc_check_options *o, double start,
                          lc_result *into, lc_diag *d) {
  into->termination = LC_TERM_UNKNOWN;
  lx_options lo = {o->unroll ? o->unroll : LX_DEFAULT_UNROLL, LX_DEFAULT_MAX_PATHS,
                   o->timeout > 0 ? start + o->timeout : 0, true};
  lx_program *p = lx_lower(t, &lo, d);
  if (!p) return;
  lx_term_slots *slots = lc_xcalloc(p->nthreads ? p->nthreads : 1, sizeof *slots);
  term_ctx c = {p, slots, lx_term_prepare(p, slots), false, NULL};
  lc_check_options qo = *o;
  qo.races = false;
  qo.termination = false;
  /* Only the explicit engine prunes with the hook's hints: test 463 of
   * `litmus-gen --family spin --seed 1`, listing and termination, takes
   * 0.16 s with it and 17 s with the SMT engine. */
  if (qo.engine == LC_ENGINE_AUTO) qo.engine = LC_ENGINE_ENUM;
  lc_state_hook hook = {on_state, frame_matters, partial_matters, &c};
  lc_result *r = lc_check_program_hooked(p, m, &qo, start, &hook);
  if (c.witness) {   /* a hang found is one, whatever stopped the search after */
    into->termination = LC_TERM_MAY_HANG;
    into->termination_witness = c.witness;
  } else if (r->status == LC_RESULT_OK) {
    into->termination = c.effects ? LC_TERM_UNKNOWN : LC_TERM_TERMINATES;
  } else if (r->status == LC_RESULT_UNKNOWN && o->timeout > 0 && lc_now() - start >= o->timeout) {
    /* Out of time is no verdict, not "unknown" (which says only
     * side-effectful spinning could hang): the test has none, as when
     * the listing runs out. */
    lc_result_fail(into, LC_RESULT_UNKNOWN, "out of time (--timeout %g s) while answering --termination; no verdict",
                   o->timeout);
  } else {
    lc_result_fail(into, r->status, "%s (answering --termination)", r->message ? r->message : "no answer");
  }
  lc_result_free(r);
  free(slots);
  lx_program_free(p);
}
