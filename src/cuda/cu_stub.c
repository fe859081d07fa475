/* cu_stub.c - stands in for the CUDA backend until it is built.
 * SPDX-License-Identifier: MIT
 */
#include "cuda/cuda.h"

int cu_emit(lc_buf *out, const lx_program *p, const run_params *par, lc_diag *d) {
  lc_error(d, (lc_loc){0}, "this litmus-run has no CUDA generator");
  return LC_EXIT_INPUT;
}

int cu_run(const lx_program *p, const run_params *par, const lc_result *allowed, run_result *out,
           lc_diag *d) {
  lc_error(d, (lc_loc){0}, "this litmus-run has no CUDA backend");
  return LC_EXIT_INPUT;
}
