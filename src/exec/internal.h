/* internal.h - the parts of src/exec/ that talk to each other.
 * SPDX-License-Identifier: MIT
 */
#ifndef LX_INTERNAL_H
#define LX_INTERNAL_H

#include "exec/exec.h"

/* Fills the static relations and tag sets of a lowered program (static.c). */
bool lx_static_relations(lx_program *p, double deadline);
/* Fills every physical location's value domain (static.c). */
void lx_domains(lx_program *p);
/* A C++ test's bodies as instruction cells (lower_cpp.c): a copy of t in
 * arena a whose code table lowers like a PTX test's.  NULL after an error. */
const lt_test *lx_cpp_compile(const lt_test *t, lc_arena *a, lc_diag *d);
/* The read and write orders of a C++ atom, and of its failed read (cas). */
void lx_cpp_rmw_sems(const lt_instr *in, bool success, lt_sem *rs, lt_sem *ws);

/* False only when the conditions surely leave `a cmp b` impossible
 * (guard.c). */
bool lx_cond_possible(const lx_cond *conds, size_t nconds, lt_cmp cmp, const lx_expr *a, const lx_expr *b);

/* --progress (lower_progress.c): with opt->pauses, a thread may stop for good
 * before any instruction that makes events.  Returns 0 to go on, 1 when
 * the decisions dec[*used..ndec) do not say whether it stops here, 2 when
 * they say it does; consumes the decision. */
int lx_pause_point(const lx_options *opt, const lt_instr *in, const uint8_t *dec, size_t ndec, size_t *used);

/* The labels of the loops lower_cpp.c puts where behaviour is undefined
 * start with this ('!' starts no label of a test), then 'i' (an index
 * outside its array) or 'd' (a division by zero): lowering marks the
 * paths they cut (lx_path.ub). */
#define LX_UB_LABEL "!ub"

/* Per cell of th: true for a backward jump closing a memoryless loop, one
 * whose iterations that make only reads lowering may leave out
 * (lower_spin.c; regs: the thread's register numbers, slot = index).
 * New array, one entry per cell. */
bool *lx_spin_loops(const lt_thread *th, const int *regs, size_t nregs);

#endif
