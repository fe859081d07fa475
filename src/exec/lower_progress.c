/* lower_progress.c - threads a scheduler may stop for good (--progress).
 * SPDX-License-Identifier: MIT
 *
 * Under a progress model weaker than fair scheduling (docs/termination.md)
 * a CTA the scheduler owes nothing may never start, or stop for good after
 * any step.  The lowering makes such runs as paths of their own: before
 * every instruction that makes events, a replay decides whether the thread
 * stops there (a "paused" path holding the events made so far, with the
 * conditions of the branches taken so far and no others).  Building them
 * while lowering, rather than cutting the finished paths afterwards, gives
 * each one its own events, so the static relations and the value domains
 * come out right with no second pass.
 */
#include "exec/internal.h"

static bool makes_events(const lt_instr *in) {
  if (!in) return false;
  switch (in->kind) {
  case LT_I_LD:
  case LT_I_ST:
  case LT_I_ATOM:
  case LT_I_RED:
  case LT_I_FENCE:
  case LT_I_FENCE_PROXY:
  case LT_I_FENCE_ALIAS:
  case LT_I_BAR: return true;
  case LT_I_ALU:
  case LT_I_BRANCH:
  case LT_I_GOTO: return false;
  }
  return false;
}

int lx_pause_point(const lx_options *opt, const lt_instr *in, const uint8_t *dec, size_t ndec, size_t *used) {
  if (opt->termination != LX_LOWER_PAUSES || !makes_events(in)) return 0;
  if (*used >= ndec) return 1;
  return dec[(*used)++] ? 2 : 0;
}
