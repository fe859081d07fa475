/* lower_term.c - a lowered program made to answer "can this hang?"
 * SPDX-License-Identifier: MIT
 *
 * The termination question (docs/termination.md) asks of each allowed
 * execution whether every thread finished or is stuck: spinning in a loop
 * whose last iteration changes nothing and reads what memory settles on,
 * or waiting at a barrier never released.  Rather than teach each engine
 * the question, the program is rewritten so that an ordinary listing of
 * final states answers it: paths cut by the unroll bound and paths blocked
 * at a barrier become final, and every thread gets hidden registers
 * saying which path it ran, whether its last iteration left the registers
 * as it found them, and what that iteration read.  The states then carry
 * all a verdict needs, and both engines answer alike by construction.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "exec/exec.h"
#include "exec/internal.h"

enum { TERM_REG_BASE = 1 << 20 };   /* register numbers no test uses */

static const lx_expr *mk(lc_arena *a, lx_expr_kind kind, lx_val c, int event) {
  lx_expr *e = lc_arena_alloc(a, sizeof *e);
  e->kind = kind;
  e->c = c;
  e->event = event;
  return e;
}

static const lx_expr *mk_bin(lc_arena *a, lx_op op, const lx_expr *x, const lx_expr *y) {
  lx_expr *e = lc_arena_alloc(a, sizeof *e);
  e->kind = LX_X_BIN;
  e->op = op;
  e->a = x;
  e->b = y;
  return e;
}

/* The write half of an atom: silent when it writes what its read half read
 * (an atom.exch of the value already there), which the state tells. */
static bool rmw_write(const lx_event *e) {
  return e->kind == LX_EV_WRITE && e->rmw >= 0;
}

lx_term_kind lx_term_path_kind(const lx_program *p, const lx_path *path) {
  assert(p && path);
  if (path->blocked) return LX_TERM_BLOCKED;
  if (path->paused) return LX_TERM_PAUSED;
  if (path->iter_pos < 0) return path->cut ? LX_TERM_EFFECTS : LX_TERM_FINISHED;
  for (size_t i = (size_t)path->iter_pos; i < path->nevents; i++) {
    const lx_event *e = &p->events[path->events[i]];
    lx_ev_kind k = e->kind;
    if (k != LX_EV_READ && k != LX_EV_FENCE && k != LX_EV_PROXY_FENCE && k != LX_EV_ALIAS_FENCE && !rmw_write(e))
      return LX_TERM_EFFECTS;
  }
  return LX_TERM_SPIN;
}

size_t lx_term_iter_reads(const lx_program *p, const lx_path *path, int *out) {
  assert(p && path);
  size_t n = 0;
  if (path->iter_pos < 0) return 0;
  for (size_t i = (size_t)path->iter_pos; i < path->nevents; i++)
    if (p->events[path->events[i]].kind == LX_EV_READ) {
      if (out) out[n] = path->events[i];
      n++;
    }
  return n;
}

/* 0 exactly when every register holds at the end of the last iteration
 * what it held at its start. */
static const lx_expr *reg_change(lc_arena *a, const lx_thread *t, const lx_path *path) {
  const lx_expr *acc = mk(a, LX_X_CONST, 0, 0);
  for (size_t s = 0; s < t->nregs; s++)
    acc = mk_bin(a, LX_OP_OR, acc, mk_bin(a, LX_OP_XOR, path->iter_regs[s], path->regs[s]));
  return acc;
}

/* 0 exactly when every atom of the last iteration wrote the value it read:
 * memory then holds after the iteration what it held before. */
static const lx_expr *rmw_noise(lc_arena *a, const lx_program *p, const lx_path *path) {
  const lx_expr *acc = mk(a, LX_X_CONST, 0, 0);
  for (size_t i = (size_t)path->iter_pos; i < path->nevents; i++) {
    const lx_event *e = &p->events[path->events[i]];
    if (rmw_write(e)) acc = mk_bin(a, LX_OP_OR, acc, mk_bin(a, LX_OP_XOR, e->value, mk(a, LX_X_READ, 0, e->rmw)));
  }
  return acc;
}

static void extend_thread(lx_program *p, size_t ti, lx_term_slots *slots) {
  lc_arena *a = p->arena;
  lx_thread *t = &p->threads[ti];
  size_t most = 0;
  for (size_t k = 0; k < t->npaths; k++) {
    const lx_path *path = &p->paths[t->paths[k]];
    if (lx_term_path_kind(p, path) != LX_TERM_SPIN) continue;
    size_t n = lx_term_iter_reads(p, path, NULL);
    if (n > most) most = n;
  }
  size_t old = t->nregs, extra = LX_TERM_READ_SLOT + most;   /* path, register change, atoms' change, reads */
  int *regs = lc_arena_alloc(a, (old + extra) * sizeof(int));
  memcpy(regs, t->regs, old * sizeof(int));
  for (size_t i = 0; i < extra; i++) regs[old + i] = TERM_REG_BASE + (int)i;
  slots->first = old;
  slots->nreads = most;
  int *reads = lc_xcalloc(most, sizeof(int));
  for (size_t k = 0; k < t->npaths; k++) {
    lx_path *path = &p->paths[t->paths[k]];
    const lx_expr **pr = lc_arena_alloc(a, (old + extra) * sizeof(lx_expr *));
    memcpy(pr, path->regs, old * sizeof(lx_expr *));
    bool spin = lx_term_path_kind(p, path) == LX_TERM_SPIN;
    pr[old] = mk(a, LX_X_CONST, t->paths[k], 0);
    pr[old + 1] = spin ? reg_change(a, t, path) : mk(a, LX_X_CONST, 0, 0);
    pr[old + 2] = spin ? rmw_noise(a, p, path) : mk(a, LX_X_CONST, 0, 0);
    size_t n = spin ? lx_term_iter_reads(p, path, reads) : 0;
    for (size_t i = 0; i < most; i++)
      pr[old + LX_TERM_READ_SLOT + i] = i < n ? mk(a, LX_X_READ, 0, reads[i]) : mk(a, LX_X_CONST, 0, 0);
    path->regs = pr;
    path->cut = false;
  }
  free(reads);
  t->regs = regs;
  t->nregs = old + extra;
}

static lx_obs reg_obs(lc_arena *a, size_t thread, size_t slot, const char *what) {
  lx_obs o = {0};
  o.kind = LX_OBS_REG;
  o.thread = (int)thread;
  o.slot = (int)slot;
  o.shown = true;
  lc_buf b;
  lc_buf_init(&b);
  lc_buf_printf(&b, "P%zu:%s", thread, what);
  o.label = lc_arena_strdup(a, b.s);
  lc_buf_fini(&b);
  return o;
}

size_t lx_term_prepare(lx_program *p, lx_term_slots *slots) {
  assert(p && slots);
  lc_arena *a = p->arena;
  size_t cap = p->nobs + p->nplocs + LX_TERM_READ_SLOT * p->nthreads;
  for (size_t t = 0; t < p->nthreads; t++) {
    extend_thread(p, t, &slots[t]);
    cap += slots[t].nreads;
  }
  lx_obs *obs = lc_arena_alloc(a, cap * sizeof(lx_obs));
  size_t n = 0;
  for (size_t i = 0; i < p->nshown; i++) obs[n++] = p->obs[i];
  size_t loc_obs = n;
  /* final memory of every location, for the reads of a last iteration */
  for (size_t l = 0; l < p->nplocs; l++) {
    lx_obs o = {0};
    o.kind = LX_OBS_LOC;
    o.ploc = (int)l;
    o.label = p->plocs[l].name;
    o.shown = true;
    obs[n++] = o;
  }
  for (size_t t = 0; t < p->nthreads; t++) {
    slots[t].obs = n;
    obs[n++] = reg_obs(a, t, slots[t].first, "path");
    obs[n++] = reg_obs(a, t, slots[t].first + 1, "change");
    obs[n++] = reg_obs(a, t, slots[t].first + 2, "atoms");
    for (size_t i = 0; i < slots[t].nreads; i++) {
      char what[32];
      snprintf(what, sizeof what, "read%zu", i);
      obs[n++] = reg_obs(a, t, slots[t].first + LX_TERM_READ_SLOT + i, what);
    }
  }
  for (size_t i = p->nshown; i < p->nobs; i++) obs[n++] = p->obs[i];
  p->nshown = n - (p->nobs - p->nshown);
  p->obs = obs;
  p->nobs = n;
  p->has_cut = false;
  return loc_obs;
}
