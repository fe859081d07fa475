/* lower_spin.c - which loops spin: the loops whose failed iterations
 * lowering may leave out (lx_options.spin_reduce).
 * SPDX-License-Identifier: MIT
 *
 * A failed iteration of a loop, from the loop's head to a backward jump
 * to it, that makes only reads (loads, a cas that failed) changes neither
 * memory nor, if the loop is *memoryless*, what the thread does after it:
 * deleted from an allowed execution, it leaves an execution of the same
 * program with the same final state, allowed when the model is closed
 * under deleting reads (cat_model_deletion_closed).  A loop is memoryless
 * when every register its body writes is written, on every way through
 * the body from the head, before the body reads it and before the loop is
 * left: the next iteration and the code after the loop then see the same
 * values whether or not the failed iteration ran.  Whether an iteration
 * made only reads is seen as it is lowered (lower.c, jump); this file
 * decides memorylessness, once per backward jump, from the code alone.
 */
#include <stdlib.h>
#include <string.h>

#include "exec/internal.h"

static int slot_of(const int *regs, size_t nregs, int reg) {
  for (size_t i = 0; i < nregs; i++)
    if (regs[i] == reg) return (int)i;
  return -1;
}

static void mark(uint8_t *set, const int *regs, size_t nregs, const lt_operand *o) {
  if (o->kind != LT_OPND_REG && o->kind != LT_OPND_REGADDR) return;
  int s = slot_of(regs, nregs, o->reg);
  if (s >= 0) set[s] = 1;
}

/* The registers an instruction reads (rd) and writes (wr). */
static void instr_regs(const lt_instr *in, const int *regs, size_t nregs, uint8_t *rd, uint8_t *wr) {
  if (!in) return;
  bool cpp_cas = in->kind == LT_I_ATOM && in->cpp && in->rmw == LT_RMW_CAS;
  mark(rd, regs, nregs, &in->addr);
  mark(rd, regs, nregs, &in->a);
  mark(rd, regs, nregs, &in->b);
  if (!cpp_cas) mark(rd, regs, nregs, &in->c);
  if (in->dst.kind == LT_OPND_REG) mark(wr, regs, nregs, &in->dst);
  if (cpp_cas) {   /* the result flag, and the old value into `expected` on failure */
    mark(wr, regs, nregs, &in->c);
    if (in->a.kind == LT_OPND_REG) mark(wr, regs, nregs, &in->a);
  }
}

static bool allowed(const lt_instr *in) {
  if (!in) return true;
  switch (in->kind) {
  /* events (stores, fences, atoms that write) are the dynamic check's:
   * an iteration that makes them is not left out */
  case LT_I_LD: case LT_I_ST: case LT_I_ATOM: case LT_I_RED: case LT_I_FENCE:
  case LT_I_FENCE_PROXY: case LT_I_FENCE_ALIAS: case LT_I_ALU: case LT_I_MAPA:
  case LT_I_BRANCH: case LT_I_GOTO: return true;
  /* barriers, mbarriers and bulk copies keep state of their own (arrival
   * counts, async-groups) that an iteration may change without a read */
  default: return false;
  }
}

/* The cells control may go to from cell c: *n of them (none past the
 * code's end is a cell, but counts as leaving the loop).  A branch over
 * two constants (`while (true)` compiled) goes one way only. */
static int target_of(const lt_thread *th, const lt_instr *in);

static int successors(const lt_thread *th, size_t c, int succ[2]) {
  const lt_instr *in = th->cells[c].instr;
  int tgt = target_of(th, in), n = 0;
  bool taken = true, falls = !in || in->kind != LT_I_GOTO;
  if (in && in->kind == LT_I_BRANCH && in->a.kind == LT_OPND_IMM && in->b.kind == LT_OPND_IMM) {
    taken = lx_cmp_apply(in->cmp, in->a.imm, in->b.imm);
    falls = !taken;
  }
  if (tgt != -2 && taken) succ[n++] = tgt;
  if (falls) succ[n++] = (int)c + 1;
  return n;
}

static int target_of(const lt_thread *th, const lt_instr *in) {
  if (!in || (in->kind != LT_I_BRANCH && in->kind != LT_I_GOTO) || !in->label) return -2;
  for (size_t c = 0; c < th->ncells; c++)
    if (th->cells[c].label && strcmp(th->cells[c].label, in->label) == 0) return (int)c;
  return -1;
}

/* Is the loop of cells [t, j], closed by the backward jump at j,
 * memoryless? */
static bool memoryless(const lt_thread *th, size_t t, size_t j, const int *regs, size_t nregs) {
  size_t n = j - t + 1, w = nregs ? nregs : 1;
  uint8_t *rd = lc_xcalloc(n, w), *wr = lc_xcalloc(n, w), *in = lc_xcalloc(n, w), *written = lc_xcalloc(1, w);
  bool ok = true;
  for (size_t c = 0; ok && c < n; c++) {
    const lt_instr *ins = th->cells[t + c].instr;
    if (!allowed(ins)) ok = false;
    else instr_regs(ins, regs, nregs, rd + c * w, wr + c * w);
    for (size_t s = 0; s < nregs; s++) written[s] |= wr[c * w + s];
  }
  /* registers surely written since the head, on entry to each cell: the
   * head's none, the others' the meet over their predecessors in the
   * body (edges back to the head end an iteration); from all down to the
   * fixed point, each round clearing at least one of n * nregs bits */
  if (ok) {
    memset(in, 1, n * w);
    memset(in, 0, w);
  }
  for (bool changed = ok; changed;) {
    changed = false;
    for (size_t c = 0; c < n; c++) {
      int succ[2], ns = successors(th, t + c, succ);
      for (int k = 0; k < ns; k++) {
        if (succ[k] <= (int)t || succ[k] > (int)j) continue;
        uint8_t *to = in + (size_t)(succ[k] - (int)t) * w;
        for (size_t s = 0; s < nregs; s++) {
          uint8_t out = in[c * w + s] | wr[c * w + s];
          if (to[s] && !out) to[s] = 0, changed = true;
        }
      }
    }
  }
  for (size_t c = 0; ok && c < n; c++) {
    for (size_t s = 0; s < nregs; s++)   /* read before written in the iteration */
      if (rd[c * w + s] && written[s] && !in[c * w + s]) ok = false;
    int succ[2], ns = successors(th, t + c, succ);
    for (int k = 0; k < ns && ok; k++) {
      if (succ[k] >= (int)t && succ[k] <= (int)j) continue;
      for (size_t s = 0; s < nregs; s++)   /* left with a register not written */
        if (written[s] && !in[c * w + s] && !wr[c * w + s]) ok = false;
    }
  }
  free(rd);
  free(wr);
  free(in);
  free(written);
  return ok;
}

bool *lx_spin_loops(const lt_thread *th, const int *regs, size_t nregs) {
  bool *spin = lc_xcalloc(th->ncells ? th->ncells : 1, sizeof *spin);
  for (size_t j = 0; j < th->ncells; j++) {
    const lt_instr *in = th->cells[j].instr;
    int t = target_of(th, in);
    /* the loops lower_cpp.c puts where behaviour is undefined are cut on
     * purpose: the cut is the answer (lx_path.ub) */
    bool ub = in && in->label && strncmp(in->label, LX_UB_LABEL, strlen(LX_UB_LABEL)) == 0;
    if (t >= 0 && (size_t)t <= j && !ub) spin[j] = memoryless(th, (size_t)t, j, regs, nregs);
  }
  return spin;
}
