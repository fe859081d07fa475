/* kernel.h - CUDA kernels as written: a `.cu` file and its launch read as
 * a C++ litmus test (docs/kernels.md).
 * SPDX-License-Identifier: MIT
 *
 * A kernel file is C++ as nvcc reads it: the preprocessor first (the CUDA
 * and C headers are known by name and not read; #define, #if, -D), then
 * __global__ kernels, __device__ functions and variables, typedefs.  Its
 * header comments, in Dartagnan's spelling, give the launch and the
 * question:
 *
 *   // @Launch: <<<2, 1>>>
 *   // @Input: flag = {0}; data = {0, 0}
 *   // @Output: forall (data[0] == 1 || data[1] == 0)
 *
 * The reader instantiates one thread of the CUDA dialect per (block,
 * thread) of the launch - thread P(k) for the global linear index k =
 * blockIdx * blockDim + threadIdx, in CTA blockIdx - with threadIdx,
 * blockIdx, blockDim and gridDim replaced by their values, __device__
 * functions inlined, __shared__ variables one location per block, assert()
 * a local of its own that the question requires to stay 1; and parses
 * that test with the C++ dialect's own parser (lt_parse), so the engines
 * see the program structure they always see.  Positions in the test name
 * the kernel file's lines (lc_source.line_of); `litmus-check --print
 * FILE.cu` shows the test.
 */
#ifndef KN_KERNEL_H
#define KN_KERNEL_H

#include "litmus/ast.h"

typedef struct kn_options {
  const char *kernel;    /* --kernel NAME; NULL: the file's only __global__ function */
  const char *launch;    /* --launch '<<<G, B>>>': instead of the @Launch comment */
  const char *input;     /* --input 'x = {0}; ...': instead of the @Input comments */
  const char *output;    /* --output 'forall (...)': instead of the @Output comment */
  const char *const *defines;   /* -D NAME[=VALUE], in order */
  size_t ndefines;
  int sm;                /* __CUDA_ARCH__ is sm * 10; 0 means 70 */
} kn_options;

/* A file the kernel reader takes: its name ends in .cu or .cuh. */
bool kn_is_kernel_path(const char *path);

/* Reads kernel file src as the C++ litmus test its launch makes; NULL with
 * one error (file:line:col) in d.  The test borrows src->name. */
lt_test *kn_read(const lc_source *src, const kn_options *o, lc_diag *d);

/* The same, giving the text of the litmus test (the caller frees it)
 * instead of the test. */
char *kn_translate(const lc_source *src, const kn_options *o, lc_diag *d);

#endif
