/* cu_sass.h - the SASS check: does the machine code that ptxas makes of a
 * test kernel still hold every litmus access, in order, as strong as the
 * test says?  (litmus-run --check-sass)
 * SPDX-License-Identifier: MIT
 */
#ifndef CU_SASS_H
#define CU_SASS_H

#include <stdbool.h>
#include <stdio.h>

#include "lc.h"

struct cu_plan;

/* Writes one test's kernels (without the prelude); the check compiles what
 * it writes.  cu_gen_body by default; the tests pass a broken one. */
typedef void (*cu_sass_emitter)(lc_buf *out, const struct cu_plan *pl);

typedef struct cu_sass_opts {
  int sms[8];               /* architectures, e.g. 75, 80, 90 */
  int nsms;
  cu_sass_emitter emit;     /* NULL: cu_gen_body */
  bool verbose;             /* print every test's SASS between the markers */
  bool first_rotation;      /* only the first copy of each test kernel (the others differ in role order) */
  FILE *out;                /* results and failures */
} cu_sass_opts;

/* The cuobjdump to use (malloc'ed), or NULL: $LC_CUOBJDUMP, the PATH, the
 * toolkit found at configure time, then the PyPI package
 * nvidia-cuda-cuobjdump of python3's site-packages. */
char *cu_sass_find_cuobjdump(void);

/* Checks the litmus files (folders are searched for *.litmus).  Returns
 * LC_EXIT_OK when every access of every supported test is found,
 * LC_EXIT_MISMATCH when one is lost (each named on o->out), LC_EXIT_INPUT
 * when a file does not load, and 77 when NVRTC or cuobjdump is missing
 * (the reason in d). */
int cu_sass_check(char *const *paths, size_t npaths, const cu_sass_opts *o, lc_diag *d);

#endif
