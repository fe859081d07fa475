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

/* The dialect a model is written for, from its title: "PTX v7.5" is a
 * PTX model, "CUDA C++" (or a C11/RC11 title) a C++ model; any other
 * (SC, a model of the user's own without either word) is for both. */
typedef enum { CLI_DIALECT_ANY, CLI_DIALECT_PTX, CLI_DIALECT_CPP } cli_dialect;
cli_dialect cli_model_dialect(const cat_model *m);

/* The models of a run.  Without -m, ptx-v7.5 checks PTX tests (ptx-v8
 * those with Hopper instructions) and cuda-cpp C++ tests, and the
 * settings (--set) apply to cuda-cpp and ptx-v8.  With -m (given), `name` checks the
 * tests of its dialect (all of them for a model of both, or with
 * any_dialect), the others keep their default, and the settings apply to
 * `name`. */
typedef struct cli_models {
  char **search;      /* the folders models are looked for in (lc_model_search) */
  cat_model *model;   /* PTX tests (all tests when cpp is NULL) */
  cat_model *cpp;     /* C++ tests; NULL when model checks them */
  cat_model *hopper;  /* ptx-v8, for PTX tests using Hopper instructions; NULL when model checks them */
  const cat_model *given;  /* the model -m named, or NULL */
} cli_models;

/* 0, or -1 when a model cannot be loaded (said on stderr). */
int cli_models_load(cli_models *m, const char *program, const char *argv0, const char *name, bool given,
                    bool any_dialect, const char *const *settings);
/* Is t checked under another model than the one -m named (a test of the
 * other dialect)? */
bool cli_models_other_dialect(const cli_models *m, const lt_test *t);
/* The same for the test file at path, from its header's first word (PTX;
 * CUDA or C), without parsing it; false when it cannot be read. */
bool cli_models_other_dialect_file(const cli_models *m, const char *path);
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
