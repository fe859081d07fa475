/* litmus-compare.c - results of several GPUs, runs and models side by side.
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE   /* getopt_long */
#include "config.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "lc.h"
#include "report/compare.h"

static void usage(FILE *out) {
  fputs("Usage: litmus-compare [OPTION]... RESULTS...\n"
        "Put results side by side: each RESULTS file (JSON lines from\n"
        "`litmus-run --json` or `litmus-check --json`) is a column, tests are\n"
        "matched by file name.  Hardware columns show how often each outcome was\n"
        "seen, model columns whether it is allowed; `!` marks an outcome seen on\n"
        "hardware that a model forbids.\n"
        "\n"
        "  -d, --differences  only tests where the columns disagree or a forbidden\n"
        "                     outcome was seen\n"
        "      --json         the comparison as one JSON object\n"
        "  -h, --help         show this help and exit\n"
        "  -V, --version      show the version and exit\n"
        "\n"
        "Exit status: 0, 1 a forbidden outcome was seen, 2 bad input or usage.\n",
        out);
}

int main(int argc, char **argv) {
  static const struct option longopts[] = {
    {"differences", no_argument, NULL, 'd'}, {"json", no_argument, NULL, 'j'},
    {"help", no_argument, NULL, 'h'},        {"version", no_argument, NULL, 'V'},
    {NULL, 0, NULL, 0},
  };
  bool diff = false, json = false;
  int c;
  while ((c = getopt_long(argc, argv, "dhV", longopts, NULL)) != -1) {
    switch (c) {
    case 'd': diff = true; break;
    case 'j': json = true; break;
    case 'h': usage(stdout); return LC_EXIT_OK;
    case 'V': printf("%s\n", PACKAGE_STRING); return LC_EXIT_OK;
    default: fputs("Try 'litmus-compare --help'.\n", stderr); return LC_EXIT_INPUT;
    }
  }
  if (optind == argc) {
    fputs("litmus-compare: no results files (try 'litmus-compare --help')\n", stderr);
    return LC_EXIT_INPUT;
  }
  cmp_table t;
  cmp_init(&t);
  lc_diag d;
  lc_diag_init(&d, NULL, stderr);
  int status = LC_EXIT_OK;
  for (int i = optind; i < argc && status == LC_EXIT_OK; i++)
    if (cmp_add_file(&t, argv[i], &d) < 0) status = LC_EXIT_INPUT;
  lc_diag_fini(&d);
  if (status == LC_EXIT_OK) {
    cmp_finish(&t);
    for (size_t i = 0; i < t.tests.n; i++)
      if (t.tests.v[i].forbidden_seen) status = LC_EXIT_MISMATCH;
    if (json) {
      json_t *o = cmp_json(&t, diff);
      json_dumpf(o, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
      fputc('\n', stdout);
      json_decref(o);
    } else {
      lc_buf b;
      lc_buf_init(&b);
      cmp_print(&b, &t, diff);
      fputs(b.s, stdout);
      lc_buf_fini(&b);
    }
  }
  cmp_fini(&t);
  return status;
}
