/* via.h - litmus-check --via nvcc|nvrtc|both: a CUDA kernel compiled by the
 * CUDA compiler and its PTX checked (docs/via-nvcc.md).
 * SPDX-License-Identifier: MIT
 */
#ifndef CLI_VIA_H
#define CLI_VIA_H

#include "check.h"
#include "cli/cli.h"

/* Compiles the kernel file at path with nvcc (via "nvcc"; NVRTC when there
 * is no nvcc) or NVRTC (via "nvrtc") for sm_<sm> and reads its PTX as the
 * test of the launch, as cli_test_read_with reads the source;
 * fold_waits: libcu++'s blocking waits made one spin loop each (for a
 * model closed under deleting reads: kp_options.fold_waits); trial (may
 * be NULL): the options the test will be lowered with, to name the wait a
 * thread's paths outgrow when one is left as written. */
int cli_via_read(cli_test *t, const char *program, const char *path, const lx_options *lo, const kn_options *ko,
                 const char *via, int sm, bool fold_waits, const lx_options *trial, lc_diag *d);

/* The line naming the level a compiled kernel was checked at ("Level: PTX
 * as compiled by nvcc 13.0 for sm_90, checked under ptx-v8"). */
void via_level(lc_buf *out, const lt_test *t, const char *model);

/* --via both: out holds the source-level block (up to source_end) and the
 * compiled one after it; appends the outcomes the compiled kernel allows
 * and the source src does not: load buffering where cuda-cpp without its
 * no-thin-air axiom allows them too (models found along search, checked
 * with co), compilation findings otherwise. */
void via_compare(lc_buf *out, size_t source_end, const lt_test *src, char *const *search,
                 const lc_check_options *co);

#endif
