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
