/* cuda.h - a litmus test as a CUDA kernel: the generator and the runner.
 * SPDX-License-Identifier: MIT
 *
 * The generator writes CUDA C++ in which every litmus instruction is an
 * inline-PTX `asm volatile` spelled as the test spells it; the runner
 * compiles that source with NVRTC and launches it through the CUDA driver
 * API, both opened with dlopen so that litmus-run builds and starts on
 * machines without a GPU.
 */
#ifndef CU_CUDA_H
#define CU_CUDA_H

#include "exec/exec.h"
#include "result.h"
#include "run/run.h"

/* The kernel source for p (litmus-run --emit-cuda); the run's parameters
 * reach the kernels at launch, not in the source.  Returns 0, or -1 after
 * reporting an instruction the generator cannot run (texture/surface
 * accesses, ...) to d. */
int cu_emit(lc_buf *out, const lx_program *p, lc_diag *d);

/* Runs p on the GPU and fills out.  `allowed` (the model's states) lets the
 * device record the first par->max_forbidden instances whose outcome the
 * model forbids.  Returns RUN_OK; RUN_CANNOT when there is no GPU, no
 * driver or NVRTC, the driver does not start, or the test or the
 * parameters do not fit the device; RUN_FAILED when the GPU or the
 * compiler failed (the message in d either way). */
run_status cu_run(const lx_program *p, const run_params *par, const lc_result *allowed, run_result *out,
                  lc_diag *d);

/* 0 when the CUDA driver can be opened, else -1 with the reason in d (so
 * that a run over many tests can stop once, before the first). */
int cu_probe(lc_diag *d);

/* Compiles the CUDA C++ text src (which includes <cuda/atomic>) with NVRTC
 * for compute_<sm> to PTX, with the toolkit's include folders found next to
 * the NVRTC library or under $CUDA_HOME.  Returns 0 and the PTX text (the
 * caller frees it), or -1 with the reason (no NVRTC, no headers, the
 * compiler's log) in d. */
int cu_nvrtc_cpp_ptx(const char *src, const char *name, int sm, char **ptx, lc_diag *d);
/* A kernel file's text src (named name in the PTX's .file lines) to PTX
 * for sm_<sm>, with the toolkit's include folders when found and the
 * options in extra (-lineinfo, -DNAME); as cu_nvrtc_cpp_ptx otherwise. */
int cu_nvrtc_kernel_ptx(const char *src, const char *name, int sm, const char *const *extra, size_t nextra, char **ptx,
                        lc_diag *d);

#endif
