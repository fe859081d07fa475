/* cli.h - what the programs share around the library: models found along
 * the search path, test files read, parsed and lowered, messages printed
 * the way command-line tools print them, and the exit status after the
 * output is flushed.  No function here exits; each says what failed.
 * SPDX-License-Identifier: MIT
 */
#ifndef LC_CLI_H
#define LC_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "cat/cat.h"
#include "exec/exec.h"
#include "lc.h"
#include "kernel/kernel.h"
#include "litmus/ast.h"

/* Prints the messages collected in d to out: those with a position in a
 * file (loc.file, or a line whose file is gone) as they are
 * ("file:line:col: error: ..."), the others after
 * "PROGRAM: " and, when path is not NULL, "PATH: " (the file they are
 * about). */
void cli_print_messages(FILE *out, const char *program, const char *path, const lc_diag *d);

/* The model `name` (a name looked up along search, or a path) with the
 * option settings (NULL-terminated, or NULL); its messages printed to
 * stderr (cli_print_messages).  NULL when it cannot be loaded. */
cat_model *cli_model_load(const char *program, char *const *search, const char *name,
                          const char *const *settings);

/* The models of a run.  With -m (given), `name` checks every test;
 * without, `name` checks PTX tests and cuda-cpp C++ tests, and the
 * settings (--set) apply to the model the user named, or to cuda-cpp. */
typedef struct cli_models {
  char **search;      /* the folders models are looked for in (lc_model_search) */
  cat_model *model;
  cat_model *cpp;     /* NULL when given */
  cat_model *hopper;  /* ptx-v8, for PTX tests using Hopper instructions; NULL when given */
} cli_models;

/* 0, or -1 when a model cannot be loaded (said on stderr). */
int cli_models_load(cli_models *m, const char *program, const char *argv0, const char *name, bool given,
                    const char *const *settings);
void cli_models_fini(cli_models *m);

/* A test file read, parsed and (when asked) lowered. */
typedef struct cli_test {
  lc_source src;      /* what messages quote */
  bool read;          /* src holds the file */
  lt_test *test;      /* NULL when the file could not be read or parsed */
  lx_program *prog;   /* NULL unless lowered */
} cli_test;

/* Reads path ("-": standard input) and parses it; with lo, also lowers
 * it.  Messages go to d, whose source becomes the file's, so d must not
 * outlive t; a file that cannot be read is an error in d without a
 * position, printed on d->out (stderr when NULL) as "PROGRAM: cannot
 * read 'PATH': REASON".  0 when every step
 * asked for succeeded, else -1.  Free t with cli_test_fini either way. */
int cli_test_read(cli_test *t, const char *program, const char *path, const lx_options *lo, lc_diag *d);
/* The same with the kernel reader's options (--kernel, --launch, -D, ...;
 * NULL: none) for a kernel file (kn_is_kernel_path). */
int cli_test_read_with(cli_test *t, const char *program, const char *path, const lx_options *lo,
                       const kn_options *ko, lc_diag *d);
void cli_test_fini(cli_test *t);

/* The exit status once stdout is flushed: a write error (a full disk, a
 * closed pipe) turns success into LC_EXIT_INTERNAL, said on stderr. */
int cli_finish(const char *program, int status);

#endif
