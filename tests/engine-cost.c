/* engine-cost.c - rough sizes of each engine's work, per test.
 * SPDX-License-Identifier: MIT
 *
 *   engine-cost [--unroll N] FILE...
 *
 * Prints one line per test: the file, log2 of the explicit engine's
 * search space, log2 of the SMT encoding's size and the engine auto
 * picks (lc_engine_costs, lc_engine_choose).  scripts/calibrate-auto
 * sets these beside both engines' times.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cli/cli.h"

static int one(const char *path, unsigned unroll) {
  lc_diag d;
  lc_diag_init(&d, NULL, stderr);
  lx_options lo = {unroll, LX_DEFAULT_MAX_PATHS, 0, false, 0};
  cli_test t;
  int rc = 2;
  if (cli_test_read(&t, "engine-cost", path, &lo, &d) == 0) {
    double e, s;
    lc_engine_costs(t.prog, &e, &s);
    printf("%s %.2f %.2f %s\n", path, e, s, lc_engine_name(lc_engine_choose(t.prog)));
    rc = 0;
  }
  cli_test_fini(&t);
  lc_diag_fini(&d);
  return rc;
}

int main(int argc, char **argv) {
  unsigned unroll = LX_DEFAULT_UNROLL;
  int i = 1, rc = 0;
  if (argc > 2 && strcmp(argv[1], "--unroll") == 0) {
    unroll = (unsigned)atoi(argv[2]);
    i = 3;
  }
  if (i >= argc) {
    fprintf(stderr, "usage: engine-cost [--unroll N] FILE...\n");
    return 2;
  }
  for (; i < argc; i++)
    if (one(argv[i], unroll)) rc = 2;
  return rc;
}
