/* litmus-check.c - the litmus-check program: options, then the library.
 * SPDX-License-Identifier: MIT
 *
 * Modes: --print normalises tests; the default mode (model checking) is
 * not built yet.  Options are collected into `struct options` first and
 * each mode is one function, so a new mode or option touches only the
 * table, the switch and its own function.
 */
#define _GNU_SOURCE   /* getopt_long */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "lc.h"
#include "litmus/ast.h"

typedef enum { MODE_CHECK, MODE_PRINT } run_mode;

typedef struct options {
  run_mode mode;
  char **files;
  int nfiles;
} options;

static void usage(FILE *out) {
  fputs("Usage: litmus-check [OPTION]... FILE...\n"
        "Check scoped-PTX litmus tests against the PTX memory model.\n"
        "\n"
        "  -p, --print     print each test in normal form (tests separated by a blank line)\n"
        "  -h, --help      show this help and exit\n"
        "  -V, --version   show the version and exit\n"
        "\n"
        "FILE may be - for standard input.  Exit status: 0 success, 2 bad input or\n"
        "usage, 3 internal error.  The dialect: docs/litmus-format.md.\n",
        out);
}

/* Returns -1 to go on, or the exit status when the options say to stop. */
static int parse_options(int argc, char **argv, options *o) {
  static const struct option longopts[] = {
    {"print", no_argument, NULL, 'p'},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, 'V'},
    {NULL, 0, NULL, 0},
  };
  int c;
  while ((c = getopt_long(argc, argv, "phV", longopts, NULL)) != -1) {
    switch (c) {
    case 'p': o->mode = MODE_PRINT; break;
    case 'h': usage(stdout); return LC_EXIT_OK;
    case 'V': printf("%s\n", PACKAGE_STRING); return LC_EXIT_OK;
    default:
      fputs("Try 'litmus-check --help'.\n", stderr);
      return LC_EXIT_INPUT;
    }
  }
  o->files = argv + optind;
  o->nfiles = argc - optind;
  if (o->nfiles == 0) {
    fputs("litmus-check: no input files (try 'litmus-check --help')\n", stderr);
    return LC_EXIT_INPUT;
  }
  return -1;
}

/* Reads and parses one file; messages go to stderr.  NULL on any error. */
static lt_test *load(const char *path, lc_source *src) {
  if (lc_source_read(src, path) < 0) {
    fprintf(stderr, "litmus-check: cannot read '%s': %s\n", path, strerror(errno));
    memset(src, 0, sizeof *src);
    return NULL;
  }
  lc_diag d;
  lc_diag_init(&d, src, stderr);
  lt_test *t = lt_parse(src, &d);
  lc_diag_fini(&d);
  return t;
}

static int run_print(const options *o) {
  int status = LC_EXIT_OK, printed = 0;
  for (int i = 0; i < o->nfiles; i++) {
    lc_source src;
    lt_test *t = load(o->files[i], &src);
    if (t) {
      lc_buf b;
      lc_buf_init(&b);
      lt_print(&b, t);
      printf("%s%s", printed++ ? "\n" : "", b.s);
      lc_buf_fini(&b);
    } else {
      status = LC_EXIT_INPUT;
    }
    lt_test_free(t);
    lc_source_fini(&src);
  }
  return status;
}

static int run_check(const options *o) {
  for (int i = 0; i < o->nfiles; i++) {
    lc_source src;
    lt_test *t = load(o->files[i], &src);
    lc_source_fini(&src);
    if (!t) return LC_EXIT_INPUT;
    lt_test_free(t);
  }
  fputs("litmus-check: model checking is not built yet (use --print)\n", stderr);
  return LC_EXIT_INTERNAL;
}

int main(int argc, char **argv) {
  options o = {MODE_CHECK, NULL, 0};
  int status = parse_options(argc, argv, &o);
  if (status >= 0) return status;
  status = o.mode == MODE_PRINT ? run_print(&o) : run_check(&o);
  if (fflush(stdout) != 0 && status == LC_EXIT_OK) {
    fprintf(stderr, "litmus-check: write error: %s\n", strerror(errno));
    status = LC_EXIT_INTERNAL;
  }
  return status;
}
