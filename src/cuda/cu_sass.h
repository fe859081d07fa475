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

/* How the SASS check ended; the program chooses its exit status. */
typedef enum cu_sass_status {
  CU_SASS_FOUND = 0,        /* every access of every supported test is found */
  CU_SASS_LOST = 1,         /* an access is lost (each named on o->out) */
  CU_SASS_BAD_FILE = -1,    /* a file does not load (and none lost an access) */
  CU_SASS_NO_TOOLS = -2     /* NVRTC or cuobjdump is missing (the reason in d) */
} cu_sass_status;

/* Checks the litmus files (folders are searched for *.litmus). */
cu_sass_status cu_sass_check(char *const *paths, size_t npaths, const cu_sass_opts *o, lc_diag *d);

#endif
