/* lt-roundtrip.c - for each file: parse, print, parse the print, print
 * again; the two ASTs must be equal (lt_test_equal) and the two prints
 * identical.  Used by tests/corpus-roundtrip.sh.  Exit 0 when every file
 * passes, 1 when one does not round-trip, 2 when one does not parse.
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>

#include "cli/cli.h"
#include "roundtrip.h"

/* 0 when path round-trips, else the exit status to report. */
static int check(const char *path) {
  lc_diag d;
  lc_diag_init(&d, NULL, stderr);
  d.errors_only = true;   /* warnings are not this program's business */
  cli_test t;
  int status = cli_test_read(&t, "lt-roundtrip", path, NULL, &d) < 0 ? 2 : 0;
  if (status == 0) {
    char *why = rt_check(t.test);
    if (why) {
      fprintf(stderr, "%s: %s", path, why);
      status = 1;
    }
    free(why);
  }
  cli_test_fini(&t);
  lc_diag_fini(&d);
  return status;
}

int main(int argc, char **argv) {
  int status = 0;
  for (int i = 1; i < argc; i++) {
    int s = check(argv[i]);
    if (s > status) status = s;
  }
  return status;
}
