/* kptx.h - a CUDA kernel through the real compiler: the PTX that nvcc (or
 * NVRTC) made of the whole kernel, read back as a PTX litmus test for the
 * launch (docs/via-nvcc.md).
 * SPDX-License-Identifier: MIT
 *
 * The kernel file's header (`// @Launch`, `@Input`, `@Output`, `@Filter`,
 * or --launch/--input/--output) gives the launch and the question, as for
 * the source-level reader (src/kernel/).  Each thread of the grid becomes
 * a thread of a PTX test placed in its CTA, cluster and GPU.  The PTX of
 * the kernel is evaluated per thread: the special registers (%tid, %ctaid,
 * %ntid, ...) and the parameters are constants, so address arithmetic is
 * followed to an element of a parameter's array, a __device__ variable or
 * a block's __shared__ variable; what depends on memory (a loaded value,
 * a branch on it) stays in the thread as registers and branches of the
 * test; branches on constants are taken at read time (loops with constant
 * bounds unrolled, spin loops kept as loops).  .func calls are inlined,
 * and a call of __assertfail is an assert that fails.  Every instruction
 * of the test stands at the kernel file's line its `.loc` names
 * (-lineinfo), so answers name source lines; what cannot be followed is
 * one error naming the PTX line and the source line.
 */
#ifndef KPTX_H
#define KPTX_H

#include "litmus/ast.h"

/* A poll that looks like one of libcu++'s blocking waits, left as written:
 * its PTX and source lines, the PTX line that stops it from being one spin
 * loop and why (kp_options.unfolded). */
typedef struct kp_unfolded {
  int ptx_line, src_line, at_ptx_line;
  char why[120];
} kp_unfolded;

typedef struct kp_options {
  /* --kernel, --launch, --input, --output (NULL: the file's header), as
   * for the source-level reader (kn_options) */
  const char *kernel, *launch, *input, *output;
  const char *compiler;  /* what made the PTX, for the test's description: "nvcc 13.0" */
  int sm;                /* the target it was made for */
  const char *ptx_name;  /* what to call the PTX text in messages ("nvcc's PTX") */
  /* libcu++'s blocking waits (atomic::wait, latch::wait, a semaphore's
   * acquire) made one spin loop each: only for a model closed under
   * deleting reads (cat_model_deletion_closed; docs/via-nvcc.md) */
  bool fold_waits;
  kp_unfolded *unfolded;   /* when not NULL: the first wait left as written (ptx_line 0: none) */
} kp_options;

/* Reads ptx, the compiler's PTX for kernel file src, as the PTX litmus
 * test of the launch src's header (or o->k) names; NULL with one error in
 * d (positions name src's lines).  The test borrows src->name. */
lt_test *kp_read(const lc_source *src, const char *ptx, const kp_options *o, lc_diag *d);

/* The same, giving the test's text (the caller frees it); *line_of (the
 * caller frees it) gives each of its lines' line in src. */
char *kp_translate(const lc_source *src, const char *ptx, const kp_options *o, int **line_of, size_t *nlines,
                   lc_diag *d);

#endif
