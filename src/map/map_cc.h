/* map_cc.h - the CUDA compiler installed here, for --check-mapping nvcc.
 * SPDX-License-Identifier: MIT
 */
#ifndef MAP_CC_H
#define MAP_CC_H

#include "lc.h"

/* $NVCC, else $LC_CUDA_DIR/bin/nvcc, else /usr/local/cuda/bin/nvcc when
 * executable (written into buf of size n); NULL when none is found. */
const char *map_nvcc_path(char *buf, size_t n);

/* Compiles the CUDA C++ text src with nvcc for sm_<sm> to PTX.  Returns 0
 * and the PTX text (the caller frees it), or -1 with nvcc's messages in d. */
int map_nvcc_ptx(const char *nvcc, const char *src, int sm, char **ptx, lc_diag *d);

/* The same for the file at path as it is (its own includes found beside
 * it), with extra options (-lineinfo, -D NAME) before the file. */
int map_nvcc_ptx_file(const char *nvcc, const char *path, int sm, const char *const *extra, size_t nextra, char **ptx,
                      lc_diag *d);

#endif
