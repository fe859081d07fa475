/* paths.h - the litmus files a command line names: files as given, folders
 * searched for *.litmus.
 * SPDX-License-Identifier: MIT
 */
#ifndef LC_PATHS_H
#define LC_PATHS_H
#include "lc.h"

typedef LC_VEC(char *) lc_paths;   /* owned strings */

/* Appends path (a file, or - for standard input) or, for a folder, every
 * *.litmus file below it, sorted, so runs are reproducible. */
void lc_paths_add(lc_paths *out, const char *path);
/* The same, each folder searched once: one met again (a symbolic link
 * loop) is skipped with a warning to d (NULL: none). */
void lc_paths_walk(lc_paths *out, const char *path, lc_diag *d);
/* The same, with kernels: a folder's *.cu files too (CUDA kernels as
 * written, which litmus-check reads). */
void lc_paths_walk_kernels(lc_paths *out, const char *path, lc_diag *d, bool kernels);
void lc_paths_free(lc_paths *p);

#endif
