/* lift.h - read compiler-made PTX back into litmus instructions
 * (docs/mappings.md, "The real compiler").
 * SPDX-License-Identifier: MIT
 *
 * The kernel of one thread is emitted with a marker comment before each
 * C++ access (`// lc N`, an empty asm statement, which also keeps the
 * compiler from moving accesses across it) and `// lc end` before the
 * stores that hand the registers back through the last parameter.  The
 * lifter follows addresses from the parameters, constants from `mov`,
 * and gives each memory instruction and fence to the marker before it.
 * Anything else between the markers (arithmetic, predicates, branches,
 * an address with an offset) is refused, naming the PTX line.
 */
#ifndef MAP_LIFT_H
#define MAP_LIFT_H

#include "lc.h"
#include "litmus/ast.h"

typedef struct lift_instr {
  lt_instr in;           /* operands: locations by name, registers renumbered */
  int marker;            /* the `// lc N` it follows */
  int ptx_line;          /* line in the PTX text */
} lift_instr;

typedef struct lift_thread {
  lift_instr *v;         /* in program order */
  size_t n;
  /* After `// lc end`: litmus register k (0..nregs) holds PTX value
   * out_reg[k] (a lifted register number) or the constant out_const[k]. */
  int *out_reg;          /* -1: a constant */
  int64_t *out_const;
  size_t nregs;
} lift_thread;

/* Lifts the entry `entry` of ptx.  Parameter i (0..nlocs) is the address of
 * location locs[i]; parameter nlocs is the int array of nregs registers.
 * Registers of the lifted code that are handed back get their litmus
 * number; others get numbers from first_free up.  Strings and arrays live
 * in arena a.  Returns 0, or -1 with the reason in d (positions name the
 * PTX text `ptx_name`). */
int lift_ptx(lc_arena *a, const char *ptx, const char *ptx_name, const char *entry,
             const char *const *locs, size_t nlocs, size_t nregs, int first_free,
             lift_thread *out, lc_diag *d);

/* The sequences only: as lift_ptx, but the last parameter is an array the
 * harness reads operands from and writes results to, whose loads and
 * stores are not part of the test and are skipped, as is register
 * arithmetic; operands whose values are not known are left empty
 * (LT_OPND_NONE).  Control flow is still refused.  Used to learn which PTX
 * sequence the compiler made for each access, spliced into the C++ test's
 * own cells afterwards. */
int lift_ptx_sequences(lc_arena *a, const char *ptx, const char *ptx_name, const char *entry,
                       const char *const *locs, size_t nlocs, lift_thread *out, lc_diag *d);

#endif
