/* map_nvcc.h - compile a C++ test with the CUDA compiler installed here and
 * read its PTX back (docs/mappings.md, "The real compiler").
 * SPDX-License-Identifier: MIT
 */
#ifndef MAP_NVCC_H
#define MAP_NVCC_H

#include "map/map_lower.h"

/* What the compiler made of one C++ test. */
typedef struct map_compiled {
  lc_arena *arena;       /* the plan's synthetic rows */
  map_plan plan;         /* each site's row holds the compiler's one sequence */
  lt_test *ptx_test;     /* the C++ cells with each access replaced by its
                            lifted sequence (borrows from the cells) */
} map_compiled;

/* Where one access's operands are: ptr an `int *` expression for the
 * location; val the value stored, the RMW's operand or a CAS's expected
 * value; val2 a CAS's desired value; dst the lvalue that receives what a
 * load or RMW read. */
typedef struct map_cpp_operands {
  const char *ptr, *val, *dst, *val2;
} map_cpp_operands;

/* Appends the cuda::atomic_ref statement (one line) for the C++ access or
 * fence in: the one spelling of C++ accesses that the compiler check and
 * the CUDA backend share.  -1 with the reason in d when libcu++ cannot
 * express it (cluster scope, an RMW with no atomic_ref member). */
int map_emit_cpp_access(lc_buf *b, const lt_instr *in, const map_cpp_operands *o, lc_diag *d);

/* The text every emitted file starts with (the include and the marker). */
const char *map_cuda_prelude(void);

/* Emits ct (the cells of a C++ test, map_cpp_cells) as CUDA C++ with
 * cuda::atomic_ref: one kernel <prefix>P<i> per thread, a marker before
 * each access.  Many tests go in one file (one compiler run) with
 * different prefixes.  NULL with the reason in d when an access cannot be
 * emitted.  Caller frees. */
char *map_emit_cuda(const lt_test *ct, const char *prefix, lc_diag *d);

/* Reads the kernels <prefix>P<i> of the compiler's PTX back: each
 * access's sequence, spliced into ct's cells as out->ptx_test.  Returns 0,
 * or -1 with what could not be lifted in d. */
int map_nvcc_lift(const lt_test *ct, const char *ptx, const char *prefix, map_compiled *out, lc_diag *d);
void map_compiled_fini(map_compiled *c);

#endif
